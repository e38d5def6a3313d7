#include "dom/walk.hpp"

#include <gtest/gtest.h>

#include <string>

#include "parse_or_fail.hpp"

namespace pith::dom {
namespace {

using pith::test::parse_or_fail;

// What InsideTracker stands in for: a walk up from `node` to `scope`.
bool has_ancestor(const Node* node, const Node* scope, Tag tag) {
    for (const Node* n = node->parent; n != nullptr && n != scope; n = n->parent) {
        if (n->is(tag)) {
            return true;
        }
    }
    return false;
}

// Links nested in links, a link that ends its scope, texts between, a link
// with nothing in it, and one whose last node is deep inside it.
constexpr const char* kPages[] = {
    "<div><a>one</a> two <a><b>three</b> four</a>five</div>",
    "<div><p>a</p><a href=x><span><i>b</i></span></a></div>",
    "<div>x<a></a>y<a>z</a></div>",
    "<div><ul><li>a<ul><li>b</li></ul>c</li><li><p>d</p></li></ul><p>e</p></div>",
    "<div><a>outer<div><a>inner</a></div>tail</a>after</div>",
};

TEST(InsideTracker, AgreesWithAWalkUpTheAncestorsAtEveryStep) {
    for (const char* page : kPages) {
        for (const Tag tag : {Tag::a, Tag::li}) {
            for (const bool elements_only : {false, true}) {
                Document doc = parse_or_fail(page);
                const Node* scope = doc.body()->first_element_child();
                InsideTracker tracker(scope, elements_only);
                int steps = 0;
                for (const Node* n = scope; n != nullptr;
                     n = elements_only ? next_element(n, scope) : next_node(n, scope), ++steps) {
                    tracker.reach(n);
                    EXPECT_EQ(tracker.inside(), has_ancestor(n, scope, tag))
                        << page << " step " << steps << (elements_only ? " (elements)" : " (nodes)");
                    if (n->is_element() && n->is(tag) && n != scope) {
                        tracker.enter(n);
                    }
                }
                EXPECT_GE(steps, 3) << page;  // the page was walked
            }
        }
    }
}

TEST(InsideTracker, AWalkThatSkipsASubtreeLeavesWhatItWasInside) {
    // The skip lands where the link's subtree ends when it skips the link's
    // last child: the tracker must let go of the link there.
    Document doc = parse_or_fail("<div><a>in <span>skipped</span></a>out</div>");
    const Node* scope = doc.body()->first_element_child();
    InsideTracker tracker(scope, false);
    std::string outside;
    for (const Node* n = scope; n != nullptr;) {
        tracker.reach(n);
        if (n->is_element() && n->is(Tag::span)) {
            n = next_node(n, scope, true);
            continue;
        }
        if (n->is_text() && !tracker.inside()) {
            outside += n->data;
        }
        if (n->is_element() && n->is(Tag::a)) {
            tracker.enter(n);
        }
        n = next_node(n, scope);
    }
    EXPECT_EQ(outside, "out");
}

}  // namespace
}  // namespace pith::dom
