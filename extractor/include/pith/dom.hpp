// pith's own compact, mutable DOM. Every node, attribute array and string lives
// in the Document's arena: nodes are trivially destructible and referenced by
// plain pointers that stay valid for the Document's lifetime. All traversals
// are iterative; nothing recurses as deep as the document.
//
// Thread-safety: a Document is not shared between threads; distinct Documents
// are independent.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/result.hpp"

namespace pith::dom {

// Tags the pipeline or the serializer needs to tell apart. Anything else is
// Tag::other and keeps its name in Node::name.
#define PITH_DOM_TAGS(X)                                                                    \
    X(html) X(head) X(title) X(base) X(link) X(meta) X(style) X(script) X(noscript)          \
    X(template_) X(body) X(article) X(section) X(nav) X(aside) X(h1) X(h2) X(h3) X(h4)      \
    X(h5) X(h6) X(hgroup) X(header) X(footer) X(address) X(p) X(hr) X(pre) X(blockquote)    \
    X(ol) X(ul) X(li) X(dl) X(dt) X(dd) X(figure) X(figcaption) X(main) X(div) X(a) X(em)   \
    X(strong) X(small) X(s) X(cite) X(q) X(dfn) X(abbr) X(data) X(time) X(code) X(var)      \
    X(samp) X(kbd) X(sub) X(sup) X(i) X(b) X(u) X(mark) X(ruby) X(rt) X(rp) X(bdi) X(bdo)   \
    X(span) X(br) X(wbr) X(ins) X(del) X(img) X(iframe) X(embed) X(object) X(param)        \
    X(video) X(audio) X(source) X(track) X(canvas) X(map) X(area) X(svg) X(math) X(table)  \
    X(caption) X(colgroup) X(col) X(tbody) X(thead) X(tfoot) X(tr) X(td) X(th) X(form)     \
    X(fieldset) X(legend) X(label) X(input) X(button) X(select) X(datalist) X(optgroup)    \
    X(option) X(textarea) X(output) X(progress) X(meter) X(details) X(summary) X(menu)     \
    X(dialog) X(font) X(center) X(big) X(tt) X(strike) X(picture) X(xmp) X(plaintext)      \
    X(listing) X(noembed) X(noframes) X(frame) X(frameset) X(basefont) X(bgsound)          \
    X(keygen) X(applet) X(marquee) X(nobr)

enum class Tag : std::uint8_t {
    other = 0,
#define PITH_DOM_TAG_ENUM(name) name,
    PITH_DOM_TAGS(PITH_DOM_TAG_ENUM)
#undef PITH_DOM_TAG_ENUM
        count_
};

// The lowercase HTML name of `tag` ("template" for Tag::template_); "" for other.
[[nodiscard]] std::string_view tag_name(Tag tag) noexcept;
// The Tag for a lowercase element name; Tag::other when pith does not know it.
[[nodiscard]] Tag tag_from_name(std::string_view lowercase_name) noexcept;

enum class NodeKind : std::uint8_t { document, element, text, comment, doctype };
enum class Namespace : std::uint8_t { html, svg, mathml };

struct Attribute {
    std::string_view name;   // lowercase for HTML elements
    std::string_view value;  // entity-decoded
};

// Per-node scratch state owned by the extraction pipeline (Readability keeps
// the same on `node.readability` and `_readabilityDataTable`). Reset per pass
// because every pass works on a fresh clone.
struct ScoreState {
    double content_score = 0.0;
    bool initialized = false;  // has a content score (Readability: node.readability set)
    bool data_table = false;   // marked as a data table by prep_article
    std::uint32_t index = 0;   // a stage's own numbering of the nodes it measures (fits in the padding)
};

struct Node {
    NodeKind kind = NodeKind::element;
    Tag tag = Tag::other;
    Namespace ns = Namespace::html;
    // Elements from the page: their place among the source document's
    // elements in document order as the parse built them, counted from 1 (the
    // <html> element is 1). 0 for every other node and for elements pith made.
    // Copies keep it, so a candidate on a pass's copy names its source element.
    std::uint32_t source_index = 0;
    Node* parent = nullptr;
    Node* first_child = nullptr;
    Node* last_child = nullptr;
    Node* prev = nullptr;
    Node* next = nullptr;
    std::string_view name;  // element: lowercase local name; doctype: its name
    std::string_view data;  // text or comment content
    Attribute* attrs = nullptr;
    std::uint32_t attr_count = 0;
    std::uint32_t attr_capacity = 0;
    ScoreState score;

    [[nodiscard]] bool is_element() const noexcept { return kind == NodeKind::element; }
    [[nodiscard]] bool is_text() const noexcept { return kind == NodeKind::text; }
    [[nodiscard]] bool is(Tag t) const noexcept { return kind == NodeKind::element && tag == t; }

    // The attribute's value, or nullptr-data view when absent (use has_attr to tell
    // an absent attribute from an empty one).
    [[nodiscard]] const Attribute* find_attr(std::string_view attr_name) const noexcept;
    [[nodiscard]] bool has_attr(std::string_view attr_name) const noexcept {
        return find_attr(attr_name) != nullptr;
    }
    // Value of the attribute, "" when absent.
    [[nodiscard]] std::string_view attr(std::string_view attr_name) const noexcept {
        const Attribute* a = find_attr(attr_name);
        return a ? a->value : std::string_view{};
    }

    [[nodiscard]] Node* first_element_child() const noexcept;
    [[nodiscard]] Node* last_element_child() const noexcept;
    [[nodiscard]] Node* next_element_sibling() const noexcept;
    [[nodiscard]] Node* prev_element_sibling() const noexcept;
    [[nodiscard]] std::size_t element_child_count() const noexcept;
    [[nodiscard]] std::size_t child_count() const noexcept;
};

// Arena blocks kept by one thread between documents, so that the next
// document's arenas start on memory that is already mapped and faulted in.
// Fresh memory must be zeroed by the kernel on first touch, which cost a large
// page an eighth of its extraction time. It holds at most max_bytes; blocks
// that do not fit are freed. Not thread-safe: one per worker thread, outliving
// the documents that use it.
class BlockCache {
public:
    explicit BlockCache(std::size_t max_bytes) noexcept : max_bytes_(max_bytes) {}
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache();

private:
    friend class Arena;
    struct Held {
        void* memory;
        std::size_t size;
        bool mapped;
    };
    // The largest held block, taken out, when it has at least `size` bytes;
    // nullopt otherwise. The largest, so that within one extraction the
    // blocks gumbo's heap gave back are what the pass copies grow into,
    // rather than held beside fresh ones.
    [[nodiscard]] std::optional<Held> take(std::size_t size) noexcept;
    // Keeps the block when there is room, frees it otherwise.
    void give(Held block) noexcept;

    std::size_t max_bytes_;
    std::size_t held_bytes_ = 0;
    std::vector<Held> held_;
};

// What pithd's workers, the pith CLI's job threads and the speed bench keep:
// every block of a page up to about 1.5 MB, the largest in either corpus.
inline constexpr std::size_t kDefaultBlockCacheBytes = std::size_t{32} << 20U;

// Bump allocator backing one document. Blocks grow geometrically; nothing is
// freed until reset() or destruction. Not thread-safe. With a BlockCache,
// blocks come from it when it holds a large enough one and go back to it.
class Arena {
public:
    explicit Arena(std::size_t first_block_bytes = 64 * 1024, BlockCache* cache = nullptr);
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    ~Arena();

    // Inline: gumbo alone asks for a few million allocations on a large page,
    // and a bump within the current block is a handful of instructions.
    [[nodiscard]] void* allocate(std::size_t bytes, std::size_t align = alignof(std::max_align_t)) {
        const auto current = reinterpret_cast<std::uintptr_t>(cursor_);
        const std::uintptr_t aligned = (current + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
        if (cursor_ == nullptr || aligned + bytes > reinterpret_cast<std::uintptr_t>(end_)) {
            return allocate_in_new_block(bytes, align);
        }
        cursor_ = reinterpret_cast<char*>(aligned + bytes);
        return reinterpret_cast<void*>(aligned);
    }
    template <typename T>
    [[nodiscard]] T* make() {
        return new (allocate(sizeof(T), alignof(T))) T{};
    }
    // Copies `s` into the arena; the view lives as long as the arena.
    [[nodiscard]] std::string_view copy(std::string_view s);
    // Frees every block but the first, which is kept for reuse.
    void reset() noexcept;
    [[nodiscard]] std::size_t bytes_reserved() const noexcept { return reserved_; }
    // Bytes handed out, give or take the unused tails of full blocks.
    [[nodiscard]] std::size_t bytes_used() const noexcept {
        return reserved_ - static_cast<std::size_t>(end_ - cursor_);
    }

private:
    struct Block;
    void release(Block* block) noexcept;
    // allocate() when the current block cannot hold `bytes`.
    [[nodiscard]] void* allocate_in_new_block(std::size_t bytes, std::size_t align);

    Block* head_ = nullptr;
    char* cursor_ = nullptr;
    char* end_ = nullptr;
    std::size_t next_block_bytes_;
    std::size_t reserved_ = 0;
    BlockCache* cache_ = nullptr;
};

class Document {
public:
    Document();
    // With the arena's first block sized for what the document will hold:
    // fewer, larger blocks, and from 2 MiB up mapped with huge pages.
    explicit Document(std::size_t arena_first_block_bytes, BlockCache* cache = nullptr);
    Document(Document&&) noexcept;
    Document& operator=(Document&&) noexcept;
    ~Document();

    [[nodiscard]] Arena& arena() noexcept { return *arena_; }
    [[nodiscard]] std::size_t arena_bytes_used() const noexcept { return arena_->bytes_used(); }
    [[nodiscard]] Node* root() const noexcept { return root_; }  // the document node
    [[nodiscard]] Node* document_element() const noexcept;       // <html>
    [[nodiscard]] Node* head() const noexcept;
    [[nodiscard]] Node* body() const noexcept;

    [[nodiscard]] Node* create_element(Tag tag);
    [[nodiscard]] Node* create_element(std::string_view lowercase_name);
    [[nodiscard]] Node* create_text(std::string_view text);  // copies text into the arena
    [[nodiscard]] Node* create_comment(std::string_view text);

    // Sets or replaces an attribute; copies name and value into the arena.
    void set_attr(Node* element, std::string_view name, std::string_view value);
    void remove_attr(Node* element, std::string_view name) noexcept;

    // Renames an element in place, keeping children and attributes.
    static void rename(Node* element, Tag tag) noexcept;

    // Deep copy of `node` and its subtree, detached. Iterative.
    [[nodiscard]] Node* clone(const Node* node);

private:
    std::unique_ptr<Arena> arena_;
    Node* root_ = nullptr;
};

// Tree edits. They never allocate and work on nodes of any Document.
void append_child(Node* parent, Node* child) noexcept;             // detaches child first
void insert_before(Node* parent, Node* child, Node* ref) noexcept;  // ref == nullptr appends
void detach(Node* node) noexcept;                                   // removes from its parent
void replace(Node* old_node, Node* new_node) noexcept;              // new_node takes old's place
void move_children(Node* from, Node* to) noexcept;                  // appends all of from's children

// Pre-order successor of `node` within the subtree of `scope` (all node kinds);
// skip_children jumps over node's subtree. Returns nullptr past the end.
[[nodiscard]] Node* next_node(const Node* node, const Node* scope, bool skip_children = false) noexcept;
// Same walk restricted to elements.
[[nodiscard]] Node* next_element(const Node* node, const Node* scope, bool skip_children = false) noexcept;
// The last node of `node`'s subtree in pre-order: its last child's last child
// and so on (`node` itself when it has no children).
[[nodiscard]] Node* last_descendant(Node* node) noexcept;
[[nodiscard]] const Node* last_descendant(const Node* node) noexcept;
// Pre-order predecessor of `node` within the subtree of `scope`, for walks
// from last_descendant(scope) back to scope. Returns nullptr before scope.
[[nodiscard]] Node* previous_node(const Node* node, const Node* scope) noexcept;

// DOM textContent: the concatenated text of all descendant text nodes.
[[nodiscard]] std::string text_content(const Node* node);
void append_text_content(const Node* node, std::string& out);

// Limits applied while building the DOM from HTML.
struct ParseLimits {
    std::size_t max_elements = 0;       // 0 = unlimited; checked on an estimate before parsing
    std::size_t max_nesting_depth = 0;  // 0 = unlimited; checked on an estimate before parsing
    // 0 = unlimited; checked before parsing. gumbo compares each attribute
    // with every earlier one of its element, so the cost is quadratic in it.
    std::size_t max_attributes_per_element = 0;
    // 0 = unlimited. gumbo's own heap may not grow past this: the parse stops
    // with too_much_memory. It guards what no estimate can see coming, such as
    // the formatting elements the tree builder reconstructs on its own.
    std::size_t max_parse_bytes = 0;
    // The parse and the DOM build stop with deadline_exceeded once it passes.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    // Where gumbo's and the Document's arena blocks come from; nullptr: fresh memory.
    BlockCache* block_cache = nullptr;
};

// Where parse_html spent its time.
struct ParseTimings {
    std::int64_t gumbo_us = 0;      // budget estimate and gumbo's parse
    std::int64_t dom_build_us = 0;  // copying gumbo's tree into pith's nodes
};

struct MarkupEstimate;

// Parses UTF-8 HTML (the caller decodes first) into a Document.
// Errors: too_many_elements, too_deep, too_many_attributes (all before gumbo
// runs), too_much_memory and deadline_exceeded (gumbo stopped), parse_failed.
// `known_estimate`, when the caller has one for the same tags, spares the scan
// the budgets need.
[[nodiscard]] Result<Document> parse_html(std::string_view utf8, const ParseLimits& limits = {},
                                          ParseTimings* timings = nullptr,
                                          const MarkupEstimate* known_estimate = nullptr);

// Cheap pre-parse estimates used by the budgets: start tags seen, the deepest
// nesting of elements whose end tag is required, the most attributes on one
// tag. Linear, no allocation (raw_text.cpp reads the tags).
struct MarkupEstimate {
    std::size_t elements = 0;
    std::size_t max_depth = 0;
    std::size_t max_attributes = 0;  // the most attributes on one tag
    std::size_t attributes = 0;      // on all start tags
    std::size_t comments = 0;        // comments, bogus ones and doctypes included
};
[[nodiscard]] MarkupEstimate estimate_markup(std::string_view html) noexcept;
// The budgets parse_html checks on an estimate before gumbo runs: errors
// too_many_attributes, too_many_elements, too_deep, in that order.
[[nodiscard]] Result<bool> check_markup_budgets(const MarkupEstimate& estimate, const ParseLimits& limits);

// HTML5 serialisation (void elements, escaping, raw-text elements).
[[nodiscard]] std::string inner_html(const Node* node);
[[nodiscard]] std::string outer_html(const Node* node);
void append_outer_html(const Node* node, std::string& out);

}  // namespace pith::dom
