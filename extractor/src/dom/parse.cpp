// HTML to pith's DOM: budgets checked on a cheap estimate, gumbo parsing into
// the document's arena, then one iterative copy into pith's compact nodes.
#include <gumbo.h>

#include <array>
#include <csetjmp>
#include <memory>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "pith/dom.hpp"

namespace pith::dom {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kArenaFloorBytes = 64U * 1024U;

// gumbo's heap, watched. gumbo cannot be asked to stop, so when its heap
// passes the cap or the deadline passes, the allocator jumps back to
// run_gumbo(): everything gumbo made lives in `arena`, which is dropped whole,
// and no frame between the two has anything to destroy.
struct GumboHeap {
    // The clock is read every this many allocations: about every 10 µs of parsing.
    static constexpr std::uint32_t kAllocationsPerClockRead = 256;

    GumboHeap(std::size_t first_block_bytes, BlockCache* cache) : arena(first_block_bytes, cache) {}

    Arena arena;
    std::size_t max_bytes = 0;  // 0 = unlimited
    Clock::time_point deadline = Clock::time_point::max();
    std::uint32_t until_clock_read = kAllocationsPerClockRead;
    ErrorCode stopped_by = ErrorCode::internal;  // set before the jump
    std::jmp_buf escape{};
};

void* arena_allocate(void* userdata, std::size_t size) {
    auto* heap = static_cast<GumboHeap*>(userdata);
    if (heap->max_bytes > 0 && heap->arena.bytes_used() + size > heap->max_bytes) {
        heap->stopped_by = ErrorCode::too_much_memory;
        std::longjmp(heap->escape, 1);
    }
    if (--heap->until_clock_read == 0) {
        heap->until_clock_read = GumboHeap::kAllocationsPerClockRead;
        if (Clock::now() >= heap->deadline) {
            heap->stopped_by = ErrorCode::deadline_exceeded;
            std::longjmp(heap->escape, 1);
        }
    }
    // gumbo's structs hold pointers and integers at most: 8-byte alignment is
    // enough, and a million small allocations a 10 MB page makes waste less.
    return heap->arena.allocate(size, alignof(void*));
}

// gumbo's parse, or nullptr when arena_allocate stopped it. Nothing with a
// destructor may live in this frame: longjmp skips it.
GumboOutput* run_gumbo(GumboHeap& heap, const GumboOptions& options, std::string_view utf8) {
    if (setjmp(heap.escape) != 0) {
        return nullptr;
    }
    return gumbo_parse_with_options(&options, utf8.data(), utf8.size());
}

// The arena frees everything at once; gumbo's individual frees (and the NULL
// frees it is known to make) are no-ops. This also means gumbo_destroy_output,
// whose walk recurses as deep as the document, never has to run.
void arena_deallocate(void* /*userdata*/, void* /*ptr*/) {}

// GumboTag -> pith Tag, built once.
const std::array<Tag, GUMBO_TAG_LAST + 1>& gumbo_tag_map() {
    static const auto map = [] {
        std::array<Tag, GUMBO_TAG_LAST + 1> m{};
        for (int t = 0; t < GUMBO_TAG_LAST; ++t) {
            m[static_cast<std::size_t>(t)] = tag_from_name(gumbo_normalized_tagname(static_cast<GumboTag>(t)));
        }
        m[GUMBO_TAG_UNKNOWN] = Tag::other;
        m[GUMBO_TAG_LAST] = Tag::other;
        return m;
    }();
    return map;
}

std::string_view element_name(const GumboElement& element, Tag tag, Arena& arena) {
    if (tag != Tag::other) {
        return tag_name(tag);
    }
    if (element.tag != GUMBO_TAG_UNKNOWN) {
        return gumbo_normalized_tagname(element.tag);  // static string inside gumbo
    }
    GumboStringPiece piece = element.original_tag;
    gumbo_tag_from_original_text(&piece);
    std::string name(piece.data != nullptr ? piece.data : "", piece.length);
    for (char& c : name) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    if (element.tag_namespace == GUMBO_NAMESPACE_SVG) {
        if (const char* svg_name = gumbo_normalize_svg_tagname(&piece)) {
            return svg_name;
        }
    }
    return name.empty() ? std::string_view("unknown") : arena.copy(name);
}

// Copies one gumbo node into `arena`, strings included: gumbo's own arena is
// freed as soon as the tree is copied, so nothing may point into it.
Node* convert_one(const GumboNode* g, Arena& arena) {
    Node* n = arena.make<Node>();
    switch (g->type) {
    case GUMBO_NODE_DOCUMENT:
        n->kind = NodeKind::document;
        break;
    case GUMBO_NODE_ELEMENT:
    case GUMBO_NODE_TEMPLATE: {
        const GumboElement& e = g->v.element;
        n->kind = NodeKind::element;
        n->tag = gumbo_tag_map()[static_cast<std::size_t>(e.tag)];
        n->ns = e.tag_namespace == GUMBO_NAMESPACE_SVG      ? Namespace::svg
                : e.tag_namespace == GUMBO_NAMESPACE_MATHML ? Namespace::mathml
                                                            : Namespace::html;
        n->name = element_name(e, n->tag, arena);
        // Readability compares tagName against upper-case HTML names, which
        // only HTML-namespace elements have: an <svg><title> is no <title>.
        if (n->ns != Namespace::html) {
            n->tag = Tag::other;
        }
        if (e.attributes.length > 0) {
            n->attr_count = n->attr_capacity = e.attributes.length;
            n->attrs = static_cast<Attribute*>(arena.allocate(sizeof(Attribute) * e.attributes.length, alignof(Attribute)));
            for (unsigned i = 0; i < e.attributes.length; ++i) {
                const auto* a = static_cast<const GumboAttribute*>(e.attributes.data[i]);
                n->attrs[i] = Attribute{arena.copy(a->name), arena.copy(a->value)};
            }
        }
        break;
    }
    case GUMBO_NODE_TEXT:
    case GUMBO_NODE_WHITESPACE:
    case GUMBO_NODE_CDATA:
        n->kind = NodeKind::text;
        n->data = arena.copy(g->v.text.text);
        break;
    case GUMBO_NODE_COMMENT:
        n->kind = NodeKind::comment;
        n->data = arena.copy(g->v.text.text);
        break;
    }
    return n;
}

const GumboVector* children_of(const GumboNode* g) {
    if (g->type == GUMBO_NODE_DOCUMENT) {
        return &g->v.document.children;
    }
    if (g->type == GUMBO_NODE_ELEMENT || g->type == GUMBO_NODE_TEMPLATE) {
        return &g->v.element.children;
    }
    return nullptr;
}

}  // namespace

Result<bool> check_markup_budgets(const MarkupEstimate& estimate, const ParseLimits& limits) {
    if (limits.max_attributes_per_element > 0 && estimate.max_attributes > limits.max_attributes_per_element) {
        return Error{ErrorCode::too_many_attributes,
                     "an element has " + std::to_string(estimate.max_attributes) + " attributes, limit " +
                         std::to_string(limits.max_attributes_per_element)};
    }
    if (limits.max_elements > 0 && estimate.elements > limits.max_elements) {
        return Error{ErrorCode::too_many_elements,
                     "found about " + std::to_string(estimate.elements) + " elements, limit " +
                         std::to_string(limits.max_elements)};
    }
    if (limits.max_nesting_depth > 0 && estimate.max_depth > limits.max_nesting_depth) {
        return Error{ErrorCode::too_deep, "elements nest about " + std::to_string(estimate.max_depth) +
                                              " deep, limit " + std::to_string(limits.max_nesting_depth)};
    }
    return true;
}

Result<Document> parse_html(std::string_view utf8, const ParseLimits& limits, ParseTimings* timings,
                            const MarkupEstimate* known_estimate) {
    const auto micros_since = [](Clock::time_point from) {
        return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - from).count();
    };
    const Clock::time_point start = Clock::now();
    if (limits.max_elements > 0 || limits.max_nesting_depth > 0 || limits.max_attributes_per_element > 0) {
        const MarkupEstimate estimate = known_estimate != nullptr ? *known_estimate : estimate_markup(utf8);
        if (Result<bool> within = check_markup_budgets(estimate, limits); !within.ok()) {
            return std::move(within).error();
        }
    }

    // Both arenas start at about the size they will reach (gumbo's tree is
    // 3 to 6 bytes per byte of markup on real pages, pith's DOM 1 to 3):
    // growing from 64 KiB a large page went through a dozen blocks, each
    // touched afresh in 4 KiB pages. Pages reserved but never touched cost
    // nothing.
    auto heap = std::make_unique<GumboHeap>(kArenaFloorBytes + 6 * utf8.size(), limits.block_cache);
    heap->max_bytes = limits.max_parse_bytes;
    heap->deadline = limits.deadline;
    GumboOptions options = kGumboDefaultOptions;
    options.allocator = &arena_allocate;
    options.deallocator = &arena_deallocate;
    options.userdata = heap.get();
    options.max_errors = 0;  // pith never reads parse errors; don't record them
    GumboOutput* output = run_gumbo(*heap, options, utf8);
    if (output == nullptr && heap->stopped_by == ErrorCode::too_much_memory) {
        return Error{ErrorCode::too_much_memory, "the parse needed more than " + std::to_string(heap->max_bytes) +
                                                     " bytes, the share of the memory budget its estimate allowed"};
    }
    if (output == nullptr && heap->stopped_by == ErrorCode::deadline_exceeded) {
        return Error{ErrorCode::deadline_exceeded, "deadline passed while parsing"};
    }
    Document doc(kArenaFloorBytes + 3 * utf8.size(), limits.block_cache);
    Arena& arena = doc.arena();
    if (output == nullptr || output->document == nullptr) {
        return Error{ErrorCode::parse_failed, "the HTML parser returned no document"};
    }

    const Clock::time_point built_from = Clock::now();
    if (timings != nullptr) {
        timings->gumbo_us = micros_since(start);
    }

    // Iterative pre-order copy: (gumbo node, pith parent) pairs on an explicit stack.
    Node* root = doc.root();
    const GumboDocument& gdoc = output->document->v.document;
    if (gdoc.has_doctype) {
        Node* doctype = arena.make<Node>();
        doctype->kind = NodeKind::doctype;
        doctype->name = arena.copy(gdoc.name);
        append_child(root, doctype);
    }
    std::vector<std::pair<const GumboNode*, Node*>> stack;
    const GumboVector* top = children_of(output->document);
    for (unsigned i = top->length; i > 0; --i) {
        stack.emplace_back(static_cast<const GumboNode*>(top->data[i - 1]), root);
    }
    std::size_t element_count = 0;
    while (!stack.empty()) {
        const auto [g, parent] = stack.back();
        stack.pop_back();
        Node* n = convert_one(g, arena);
        if (n->kind == NodeKind::element) {
            n->source_index = static_cast<std::uint32_t>(++element_count);
        }
        if ((element_count & 0xFFFFU) == 0 && n->kind == NodeKind::element && Clock::now() >= limits.deadline) {
            return Error{ErrorCode::deadline_exceeded, "deadline passed while building the document"};
        }
        append_child(parent, n);
        if (const GumboVector* kids = children_of(g)) {
            for (unsigned i = kids->length; i > 0; --i) {
                stack.emplace_back(static_cast<const GumboNode*>(kids->data[i - 1]), n);
            }
        }
    }
    if (timings != nullptr) {
        timings->dom_build_us = micros_since(built_from);
    }
    // The estimate guards the parse; the exact count is the budget users see.
    if (limits.max_elements > 0 && element_count > limits.max_elements) {
        return Error{ErrorCode::too_many_elements, "found " + std::to_string(element_count) +
                                                       " elements, limit " + std::to_string(limits.max_elements)};
    }
    return doc;
}

}  // namespace pith::dom
