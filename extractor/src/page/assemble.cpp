// The article container every strategy builds: blocks under one <div>,
// cleaned by prep_article, in Readability's page div.
#include "page/prep.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

void append_as_block(Node* article, Node* block) noexcept {
    const bool keeps_tag = block->ns == dom::Namespace::html &&
                           (block->is(Tag::div) || block->is(Tag::article) || block->is(Tag::section) ||
                            block->is(Tag::p) || block->is(Tag::ol) || block->is(Tag::ul));
    if (!keeps_tag) {
        dom::Document::rename(block, Tag::div);
    }
    dom::append_child(article, block);
}

void wrap_in_page_div(dom::Document& doc, Node* article) {
    Node* page_div = doc.create_element(Tag::div);
    doc.set_attr(page_div, "id", "readability-page-1");
    doc.set_attr(page_div, "class", "page");
    dom::move_children(article, page_div);
    dom::append_child(article, page_div);
}

Node* assemble_article(dom::Document& doc, const std::vector<Node*>& blocks, const ReadabilityOptions& options,
                       PassFlags flags, std::chrono::steady_clock::time_point deadline) {
    Node* article = doc.create_element(Tag::div);
    for (Node* block : blocks) {
        append_as_block(article, block);
    }
    if (!prep_article(doc, article, options, flags, deadline)) {
        return nullptr;
    }
    wrap_in_page_div(doc, article);
    return article;
}

}  // namespace pith::extract
