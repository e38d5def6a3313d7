#include "inspect/annotate.hpp"

#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;

struct Mark {
    bool root = false;
    bool pass_root = false;
    std::size_t best_rank = 0;  // 1 = a pass's top candidate; 0 = none
    std::string removed_kind;
    std::string title;  // one line per mark
};

std::string two_decimals(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return buffer;
}

void add_line(Mark& mark, const std::string& line) {
    if (!mark.title.empty()) {
        mark.title.push_back('\n');
    }
    mark.title.append(line);
}

std::unordered_map<std::uint32_t, Mark> marks_of(const Article& article) {
    std::unordered_map<std::uint32_t, Mark> marks;
    for (std::size_t p = 0; p < article.passes.size(); ++p) {
        const PassDiagnostics& pass = article.passes[p];
        const std::string pass_name = std::string(strategy_name(pass.strategy)) + " pass " + std::to_string(p + 1) +
                                      " (" + pass_flags_name(pass.flags) + ")";
        for (std::size_t rank = 1; rank <= pass.top_candidates.size(); ++rank) {
            const CandidateInfo& candidate = pass.top_candidates[rank - 1];
            if (candidate.source_index == 0) {
                continue;
            }
            Mark& mark = marks[candidate.source_index];
            mark.best_rank = mark.best_rank == 0 ? rank : std::min(mark.best_rank, rank);
            add_line(mark, pass_name + ": candidate #" + std::to_string(rank) + ", score " +
                               two_decimals(candidate.score) + ", link density " +
                               two_decimals(candidate.link_density));
        }
        if (pass.chosen_root_index != 0) {
            Mark& mark = marks[pass.chosen_root_index];
            const bool returned = article.article_pass == p;
            (returned ? mark.root : mark.pass_root) = true;
            add_line(mark, pass_name + ": chosen root, " + pass.outcome +
                               (returned ? ", the article returned" : ""));
        }
    }
    for (const RemovedBlock& block : article.removed) {
        if (block.source_index == 0) {
            continue;
        }
        Mark& mark = marks[block.source_index];
        mark.removed_kind = block.kind;
        add_line(mark, "removed from the article as boilerplate (" + block.kind + ")");
    }
    return marks;
}

Node* child_element(const Node* parent, dom::Tag tag) {
    for (Node* c = parent != nullptr ? parent->first_element_child() : nullptr; c != nullptr;
         c = c->next_element_sibling()) {
        if (c->is(tag)) {
            return c;
        }
    }
    return nullptr;
}

constexpr std::string_view kMarkStyle =
    "[data-pith-candidate]{outline:2px dashed #c2410c!important;outline-offset:-2px!important}"
    "[data-pith-removed]{outline:2px dotted #b91c1c!important;outline-offset:-2px!important;"
    "background-color:rgba(185,28,28,.08)!important}"
    "[data-pith-pass-root]{outline:3px solid #2563eb!important;outline-offset:-3px!important}"
    "[data-pith-root]{outline:4px solid #15803d!important;outline-offset:-4px!important}"
    "[data-pith-root]:hover,[data-pith-pass-root]:hover,[data-pith-candidate]:hover,"
    "[data-pith-removed]:hover{outline-width:6px!important}";

}  // namespace

std::string annotate_source(dom::Document& doc, Node* source, const Article& article) {
    const std::unordered_map<std::uint32_t, Mark> marks = marks_of(article);
    // A refresh would take the frame away from the view; the rest of the page stays as parsed.
    std::vector<Node*> refreshes;
    for (Node* n = source; n != nullptr; n = dom::next_element(n, source)) {
        if (n->is(dom::Tag::meta) && text::iequals_ascii(text::trim(n->attr("http-equiv")), "refresh")) {
            refreshes.push_back(n);
        }
        const auto found = marks.find(n->source_index);  // no mark has index 0, which no page element has
        if (found == marks.end()) {
            continue;
        }
        const Mark& mark = found->second;
        if (mark.root) {
            doc.set_attr(n, "data-pith-root", "");
        }
        if (mark.pass_root) {
            doc.set_attr(n, "data-pith-pass-root", "");
        }
        if (mark.best_rank != 0) {
            doc.set_attr(n, "data-pith-candidate", std::to_string(mark.best_rank));
        }
        if (!mark.removed_kind.empty()) {
            doc.set_attr(n, "data-pith-removed", mark.removed_kind);
        }
        doc.set_attr(n, "data-pith-index", std::to_string(n->source_index));
        doc.set_attr(n, "title", mark.title);
    }
    for (Node* n : refreshes) {
        dom::detach(n);
    }
    // The HTML parser always makes <html> and <head>.
    if (Node* head = child_element(child_element(source, dom::Tag::html), dom::Tag::head)) {
        Node* style = doc.create_element(dom::Tag::style);
        doc.set_attr(style, "id", "pith-marks");
        dom::append_child(style, doc.create_text(kMarkStyle));
        dom::append_child(head, style);
    }
    return dom::inner_html(source);
}

}  // namespace pith::extract
