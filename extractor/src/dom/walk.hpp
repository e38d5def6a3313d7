// One iterative post-order walk over a subtree, children before their parent,
// that every measuring walk (the strategies', the page-type signals') is
// built on: nothing recurses as deep as the document. Internal header.
#pragma once

#include <vector>

#include "pith/dom.hpp"

namespace pith::dom {

// What a walker says of an element it enters.
enum class Visit {
    descend,  // it pushed the element's frame: walk its children
    skip,     // it removed the element: the walk goes on from its next sibling
    stop,     // the walk ends here (the deadline passed)
};

// One iterative post-order walk over the subtree of frames.back().node (the
// root's frame, pushed by the caller), children before their parent, so that
// every element's figures come from its children's in linear time. The
// walker is called
//   text(node, frames)         for a text node, inside frames.back()
//   enter(node, frames)        for an element: a Visit; `node` is a reference
//                              the walker moves to the next sibling on skip
//   close(frames)              when frames.back()'s subtree is done: it pops
//                              that frame and folds it into its parent
// Comments and other nodes are passed over. Nothing recurses.
template <typename Frame, typename Walker>
void walk_post_order(std::vector<Frame>& frames, Walker& walker) {
    auto cur = frames.back().node->first_child;
    while (!frames.empty()) {
        if (cur == nullptr) {
            const auto next = frames.back().node->next;
            walker.close(frames);
            cur = next;
            continue;
        }
        if (cur->is_text()) {
            walker.text(cur, frames);
            cur = cur->next;
            continue;
        }
        if (!cur->is_element()) {
            cur = cur->next;
            continue;
        }
        switch (walker.enter(cur, frames)) {
        case Visit::descend: cur = cur->first_child; break;
        case Visit::skip: break;
        case Visit::stop: return;
        }
    }
}

// Whether a pre-order walk (next_node, or next_element with elements_only)
// from `scope` is inside an element it entered: each entered element's
// subtree ends where the walk would go on after skipping it, so the question
// costs a comparison per step, not a walk up the ancestors (which costs the
// text times the nesting on a deeply nested page).
class InsideTracker {
public:
    InsideTracker(const Node* scope, bool elements_only) noexcept : scope_(scope), elements_only_(elements_only) {}

    // Called with each node the walk reaches, in order, before inside().
    void reach(const Node* node) noexcept {
        while (!ends_.empty() && ends_.back() == node) {
            ends_.pop_back();
        }
    }
    // `element`, just reached, is one the walk is now inside.
    void enter(const Node* element) {
        ends_.push_back(elements_only_ ? next_element(element, scope_, true) : next_node(element, scope_, true));
    }
    [[nodiscard]] bool inside() const noexcept { return !ends_.empty(); }

private:
    const Node* scope_;
    bool elements_only_;
    std::vector<const Node*> ends_;  // nullptr: the subtree ends with the walk
};

// Whether `node` is `ancestor` or lies inside it, asked the whole way up (of a
// few nodes: a page's preparation may have removed one, or moved it).
[[nodiscard]] inline bool is_within(const Node* node, const Node* ancestor) noexcept {
    for (const Node* up = node; up != nullptr; up = up->parent) {
        if (up == ancestor) {
            return true;
        }
    }
    return false;
}

// Whether `from`, or one of its ancestors below `stop`, satisfies `pred`,
// looking at `levels` nodes at most: for questions asked of a few nodes, where
// a page nested thousands deep must still cost a bounded walk each.
template <typename Pred>
bool within_ancestors(const Node* from, const Node* stop, int levels, Pred pred) {
    for (int level = 0; from != nullptr && from != stop && level < levels; from = from->parent, ++level) {
        if (pred(from)) {
            return true;
        }
    }
    return false;
}

}  // namespace pith::dom
