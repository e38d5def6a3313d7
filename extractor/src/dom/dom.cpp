#include "pith/dom.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <utility>

#include <sys/mman.h>

namespace pith::dom {

namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(Tag::count_)> kTagNames = {
    "",
#define PITH_DOM_TAG_NAME(name) #name,
    PITH_DOM_TAGS(PITH_DOM_TAG_NAME)
#undef PITH_DOM_TAG_NAME
};

// Sorted (name, tag) pairs for lookups by name, built once.
struct TagIndex {
    std::array<std::pair<std::string_view, Tag>, static_cast<std::size_t>(Tag::count_) - 1> entries{};
    TagIndex() {
        for (std::size_t i = 1; i < kTagNames.size(); ++i) {
            entries[i - 1] = {tag_name(static_cast<Tag>(i)), static_cast<Tag>(i)};
        }
        std::sort(entries.begin(), entries.end());
    }
};

const TagIndex& tag_index() {
    static const TagIndex index;
    return index;
}

}  // namespace

std::string_view tag_name(Tag tag) noexcept {
    if (tag == Tag::template_) {
        return "template";
    }
    return kTagNames[static_cast<std::size_t>(tag)];
}

Tag tag_from_name(std::string_view lowercase_name) noexcept {
    const auto& entries = tag_index().entries;
    const auto it = std::lower_bound(entries.begin(), entries.end(), lowercase_name,
                                     [](const auto& entry, std::string_view key) { return entry.first < key; });
    if (it != entries.end() && it->first == lowercase_name) {
        return it->second;
    }
    return Tag::other;
}

// ---- Node ----

const Attribute* Node::find_attr(std::string_view attr_name) const noexcept {
    for (std::uint32_t i = 0; i < attr_count; ++i) {
        if (attrs[i].name == attr_name) {
            return &attrs[i];
        }
    }
    return nullptr;
}

Node* Node::first_element_child() const noexcept {
    Node* c = first_child;
    while (c != nullptr && c->kind != NodeKind::element) {
        c = c->next;
    }
    return c;
}

Node* Node::last_element_child() const noexcept {
    Node* c = last_child;
    while (c != nullptr && c->kind != NodeKind::element) {
        c = c->prev;
    }
    return c;
}

Node* Node::next_element_sibling() const noexcept {
    Node* c = next;
    while (c != nullptr && c->kind != NodeKind::element) {
        c = c->next;
    }
    return c;
}

Node* Node::prev_element_sibling() const noexcept {
    Node* c = prev;
    while (c != nullptr && c->kind != NodeKind::element) {
        c = c->prev;
    }
    return c;
}

std::size_t Node::element_child_count() const noexcept {
    std::size_t n = 0;
    for (Node* c = first_child; c != nullptr; c = c->next) {
        n += static_cast<std::size_t>(c->kind == NodeKind::element);
    }
    return n;
}

std::size_t Node::child_count() const noexcept {
    std::size_t n = 0;
    for (Node* c = first_child; c != nullptr; c = c->next) {
        ++n;
    }
    return n;
}

// ---- Arena ----

struct Arena::Block {
    Block* next;
    std::size_t size;
    bool mapped;
    // storage follows
    char* data() noexcept { return reinterpret_cast<char*>(this + 1); }
};

namespace {

// Blocks from 2 MiB up are mapped directly and offered transparent huge pages:
// a large document touches hundreds of megabytes once, and with 4 KiB pages the
// page faults alone cost a sixth of the run (measured on a 50 MB page).
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20U;

void* allocate_block(std::size_t size, bool& mapped) {
    mapped = false;
    if (size >= kHugePageBytes) {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            ::madvise(p, size, MADV_HUGEPAGE);
            mapped = true;
            return p;
        }
    }
    return ::operator new(size);
}

void free_block(void* p, std::size_t size, bool mapped) noexcept {
    if (mapped) {
        ::munmap(p, size);
    } else {
        ::operator delete(p);
    }
}

}  // namespace

// ---- BlockCache ----

BlockCache::~BlockCache() {
    for (const Held& block : held_) {
        free_block(block.memory, block.size, block.mapped);
    }
}

std::optional<BlockCache::Held> BlockCache::take(std::size_t size) noexcept {
    const auto best =
        std::max_element(held_.begin(), held_.end(), [](const Held& a, const Held& b) { return a.size < b.size; });
    if (best == held_.end() || best->size < size) {
        return std::nullopt;
    }
    const Held block = *best;
    held_.erase(best);
    held_bytes_ -= block.size;
    return block;
}

void BlockCache::give(Held block) noexcept {
    if (held_bytes_ + block.size <= max_bytes_) {
        try {
            held_.push_back(block);
            held_bytes_ += block.size;
            return;
        } catch (...) {  // no room for the record: free the block instead
        }
    }
    free_block(block.memory, block.size, block.mapped);
}

// ---- Arena ----

Arena::Arena(std::size_t first_block_bytes, BlockCache* cache)
    : next_block_bytes_(std::max<std::size_t>(first_block_bytes, 4096)), cache_(cache) {}

Arena::~Arena() {
    while (head_ != nullptr) {
        Block* next = head_->next;
        release(head_);
        head_ = next;
    }
}

void Arena::release(Block* block) noexcept {
    if (cache_ != nullptr) {
        cache_->give(BlockCache::Held{block, block->size, block->mapped});
    } else {
        free_block(block, block->size, block->mapped);
    }
}

void* Arena::allocate_in_new_block(std::size_t bytes, std::size_t align) {
    const std::size_t need = bytes + align + sizeof(Block);
    std::size_t size = std::max(next_block_bytes_, need);
    bool mapped = false;
    void* memory = nullptr;
    if (cache_ != nullptr) {
        if (std::optional<BlockCache::Held> held = cache_->take(need)) {
            memory = held->memory;
            size = held->size;
            mapped = held->mapped;
        }
    }
    if (memory == nullptr) {
        memory = allocate_block(size, mapped);
    }
    auto* block = static_cast<Block*>(memory);
    block->next = head_;
    block->size = size;
    block->mapped = mapped;
    head_ = block;
    reserved_ += size;
    cursor_ = block->data();
    end_ = reinterpret_cast<char*>(block) + size;
    // Geometric growth keeps the block count logarithmic in document size.
    next_block_bytes_ = std::min<std::size_t>(next_block_bytes_ * 2, std::size_t{64} << 20U);
    return allocate(bytes, align);  // the new block holds bytes + align: the inline bump succeeds
}

std::string_view Arena::copy(std::string_view s) {
    if (s.empty()) {
        return {};
    }
    char* p = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
}

void Arena::reset() noexcept {
    // Keep the oldest (first) block, which is the smallest; free the rest.
    Block* keep = nullptr;
    while (head_ != nullptr) {
        Block* next = head_->next;
        if (next == nullptr) {
            keep = head_;
        } else {
            release(head_);
        }
        head_ = next;
    }
    head_ = keep;
    reserved_ = keep != nullptr ? keep->size : 0;
    cursor_ = keep != nullptr ? keep->data() : nullptr;
    end_ = keep != nullptr ? reinterpret_cast<char*>(keep) + keep->size : nullptr;
}

// ---- Document ----

Document::Document() : Document(64U * 1024U) {}

Document::Document(std::size_t arena_first_block_bytes, BlockCache* cache)
    : arena_(std::make_unique<Arena>(arena_first_block_bytes, cache)) {
    root_ = arena_->make<Node>();
    root_->kind = NodeKind::document;
}

Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;
Document::~Document() = default;

Node* Document::document_element() const noexcept {
    return root_ != nullptr ? root_->first_element_child() : nullptr;
}

Node* Document::head() const noexcept {
    Node* html = document_element();
    for (Node* c = html != nullptr ? html->first_child : nullptr; c != nullptr; c = c->next) {
        if (c->is(Tag::head)) {
            return c;
        }
    }
    return nullptr;
}

Node* Document::body() const noexcept {
    Node* html = document_element();
    for (Node* c = html != nullptr ? html->first_child : nullptr; c != nullptr; c = c->next) {
        if (c->is(Tag::body)) {
            return c;
        }
    }
    return nullptr;
}

Node* Document::create_element(Tag tag) {
    Node* n = arena_->make<Node>();
    n->kind = NodeKind::element;
    n->tag = tag;
    n->name = tag_name(tag);
    return n;
}

Node* Document::create_element(std::string_view lowercase_name) {
    const Tag tag = tag_from_name(lowercase_name);
    Node* n = create_element(tag);
    if (tag == Tag::other) {
        n->name = arena_->copy(lowercase_name);
    }
    return n;
}

Node* Document::create_text(std::string_view text) {
    Node* n = arena_->make<Node>();
    n->kind = NodeKind::text;
    n->data = arena_->copy(text);
    return n;
}

Node* Document::create_comment(std::string_view text) {
    Node* n = arena_->make<Node>();
    n->kind = NodeKind::comment;
    n->data = arena_->copy(text);
    return n;
}

void Document::set_attr(Node* element, std::string_view name, std::string_view value) {
    for (std::uint32_t i = 0; i < element->attr_count; ++i) {
        if (element->attrs[i].name == name) {
            element->attrs[i].value = arena_->copy(value);
            return;
        }
    }
    if (element->attr_count == element->attr_capacity) {
        const std::uint32_t capacity = element->attr_capacity == 0 ? 4 : element->attr_capacity * 2;
        auto* grown = static_cast<Attribute*>(arena_->allocate(sizeof(Attribute) * capacity, alignof(Attribute)));
        std::copy_n(element->attrs, element->attr_count, grown);
        element->attrs = grown;
        element->attr_capacity = capacity;
    }
    element->attrs[element->attr_count++] = Attribute{arena_->copy(name), arena_->copy(value)};
}

void Document::remove_attr(Node* element, std::string_view name) noexcept {
    for (std::uint32_t i = 0; i < element->attr_count; ++i) {
        if (element->attrs[i].name == name) {
            std::copy(element->attrs + i + 1, element->attrs + element->attr_count, element->attrs + i);
            --element->attr_count;
            return;
        }
    }
}

void Document::rename(Node* element, Tag tag) noexcept {
    element->tag = tag;
    element->name = tag_name(tag);
    element->ns = Namespace::html;
}

Node* Document::clone(const Node* node) {
    auto copy_one = [this](const Node* src) {
        Node* n = arena_->make<Node>();
        n->kind = src->kind;
        n->tag = src->tag;
        n->ns = src->ns;
        n->source_index = src->source_index;
        n->name = src->name;  // views into the same arena stay valid
        n->data = src->data;
        n->score = src->score;
        if (src->attr_count > 0) {
            n->attrs = static_cast<Attribute*>(arena_->allocate(sizeof(Attribute) * src->attr_count, alignof(Attribute)));
            std::copy_n(src->attrs, src->attr_count, n->attrs);
            n->attr_count = n->attr_capacity = src->attr_count;
        }
        return n;
    };
    Node* clone_root = copy_one(node);
    // Walk the source in pre-order, keeping the clone's current parent in step.
    Node* target_parent = clone_root;
    const Node* src = node->first_child;
    while (src != nullptr) {
        Node* copy = copy_one(src);
        append_child(target_parent, copy);
        if (src->first_child != nullptr) {
            target_parent = copy;
            src = src->first_child;
            continue;
        }
        while (src != node && src->next == nullptr) {
            src = src->parent;
            target_parent = target_parent->parent;
        }
        if (src == node) {
            break;
        }
        src = src->next;
    }
    return clone_root;
}

// ---- tree edits ----

void detach(Node* node) noexcept {
    Node* parent = node->parent;
    if (parent == nullptr) {
        return;
    }
    if (node->prev != nullptr) {
        node->prev->next = node->next;
    } else {
        parent->first_child = node->next;
    }
    if (node->next != nullptr) {
        node->next->prev = node->prev;
    } else {
        parent->last_child = node->prev;
    }
    node->parent = node->prev = node->next = nullptr;
}

void insert_before(Node* parent, Node* child, Node* ref) noexcept {
    detach(child);
    child->parent = parent;
    if (ref == nullptr) {
        child->prev = parent->last_child;
        if (parent->last_child != nullptr) {
            parent->last_child->next = child;
        } else {
            parent->first_child = child;
        }
        parent->last_child = child;
        return;
    }
    child->next = ref;
    child->prev = ref->prev;
    if (ref->prev != nullptr) {
        ref->prev->next = child;
    } else {
        parent->first_child = child;
    }
    ref->prev = child;
}

void append_child(Node* parent, Node* child) noexcept {
    insert_before(parent, child, nullptr);
}

void replace(Node* old_node, Node* new_node) noexcept {
    Node* parent = old_node->parent;
    if (parent == nullptr || old_node == new_node) {
        return;
    }
    detach(new_node);
    insert_before(parent, new_node, old_node);
    detach(old_node);
}

void move_children(Node* from, Node* to) noexcept {
    while (from->first_child != nullptr) {
        append_child(to, from->first_child);
    }
}

// ---- traversal ----

Node* next_node(const Node* node, const Node* scope, bool skip_children) noexcept {
    if (!skip_children && node->first_child != nullptr) {
        return node->first_child;
    }
    while (node != nullptr && node != scope) {
        if (node->next != nullptr) {
            return node->next;
        }
        node = node->parent;
    }
    return nullptr;
}

Node* next_element(const Node* node, const Node* scope, bool skip_children) noexcept {
    Node* n = next_node(node, scope, skip_children);
    while (n != nullptr && n->kind != NodeKind::element) {
        n = next_node(n, scope, false);
    }
    return n;
}

Node* last_descendant(Node* node) noexcept {
    while (node->last_child != nullptr) {
        node = node->last_child;
    }
    return node;
}

const Node* last_descendant(const Node* node) noexcept {
    while (node->last_child != nullptr) {
        node = node->last_child;
    }
    return node;
}

Node* previous_node(const Node* node, const Node* scope) noexcept {
    if (node == scope) {
        return nullptr;
    }
    return node->prev != nullptr ? last_descendant(node->prev) : node->parent;
}

void append_text_content(const Node* node, std::string& out) {
    if (node->kind == NodeKind::text || node->kind == NodeKind::comment) {
        if (node->kind == NodeKind::text) {
            out.append(node->data);
        }
        return;
    }
    for (const Node* n = node->first_child; n != nullptr; n = next_node(n, node)) {
        if (n->kind == NodeKind::text) {
            out.append(n->data);
        }
    }
}

std::string text_content(const Node* node) {
    std::string out;
    // Sized first: a large article would otherwise be copied on every growth.
    std::size_t bytes = 0;
    for (const Node* n = node; n != nullptr; n = next_node(n, node)) {
        bytes += n->kind == NodeKind::text ? n->data.size() : 0;
    }
    out.reserve(bytes);
    append_text_content(node, out);
    return out;
}

}  // namespace pith::dom
