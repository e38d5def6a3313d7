// One pass of Readability.js's _grabArticle: strip unlikely nodes, turn
// phrasing runs of <div>s into paragraphs, score paragraphs into their
// ancestors, pick the top candidate, merge its siblings, clean the result.
#include <algorithm>
#include <chrono>
#include <optional>
#include <unordered_map>
#include <vector>

#include "metadata/metadata.hpp"
#include "page/patterns.hpp"
#include "page/predicates.hpp"
#include "page/prep.hpp"
#include "strategies/strategy.hpp"
#include "strategies/walk.hpp"
#include "dom/inner_text.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::NodeKind;
using dom::Tag;

namespace {

bool is_valid_byline(const Node* node, std::string_view match) {
    const std::string_view rel = node->attr("rel");
    const std::string_view itemprop = node->attr("itemprop");
    const bool looks_like_byline = rel == "author" || itemprop.find("author") != std::string_view::npos ||
                                   patterns::byline(match);
    if (!looks_like_byline) {
        return false;
    }
    const std::size_t length = text::utf16_length(text::trim(dom::text_content(node)));
    return length > 0 && length < 100;  // Source: Readability.js _isValidByline.
}

bool header_duplicates_title(const Node* node, std::string_view title) {
    if (!node->is(Tag::h1) && !node->is(Tag::h2)) {
        return false;
    }
    const std::string heading = dom::inner_text(node, false);
    return text_similarity(title, heading) > 0.75;  // Source: Readability.js _headerDuplicatesTitle.
}

bool has_unlikely_role(const Node* node) {
    // Source: Readability.js UNLIKELY_ROLES.
    const dom::Attribute* role = node->find_attr("role");
    if (role == nullptr) {
        return false;
    }
    const std::string_view r = role->value;
    return r == "menu" || r == "menubar" || r == "complementary" || r == "navigation" || r == "alert" ||
           r == "alertdialog" || r == "dialog";
}

bool is_scored_tag(const Node* node) {
    // Source: Readability.js DEFAULT_TAGS_TO_SCORE.
    switch (node->tag) {
    case Tag::section: case Tag::h2: case Tag::h3: case Tag::h4: case Tag::h5: case Tag::h6: case Tag::p:
    case Tag::td: case Tag::pre:
        return true;
    default:
        return false;
    }
}

bool removable_if_empty(const Node* node) {
    switch (node->tag) {
    case Tag::div: case Tag::section: case Tag::header: case Tag::h1: case Tag::h2: case Tag::h3: case Tag::h4:
    case Tag::h5: case Tag::h6:
        return true;
    default:
        return false;
    }
}

void initialize(Node* node, const ContentScorer& scorer, PassFlags flags) {
    node->score.content_score = scorer.initial_score(*node, flags);
    node->score.initialized = true;
}

// Wraps runs of phrasing children of a <div> into <p>s (Readability: "turn all
// divs that don't have children block level elements into p's").
void wrap_phrasing_runs(dom::Document& doc, Node* div) {
    Node* p = nullptr;
    for (Node* child = div->first_child; child != nullptr;) {
        Node* next_sibling = child->next;
        if (is_phrasing_content(child)) {
            if (p != nullptr) {
                dom::append_child(p, child);
            } else if (!is_whitespace(child)) {
                p = doc.create_element(Tag::p);
                dom::replace(child, p);
                dom::append_child(p, child);
            }
        } else if (p != nullptr) {
            while (p->last_child != nullptr && is_whitespace(p->last_child)) {
                dom::detach(p->last_child);
            }
            p = nullptr;
        }
        child = next_sibling;
    }
}

std::vector<Node*> all_ancestors(const Node* node) {
    std::vector<Node*> out;
    for (Node* p = node->parent; p != nullptr; p = p->parent) {
        out.push_back(p);
    }
    return out;
}

bool is_body_or_outside(const Node* node) {
    return node == nullptr || node->kind != NodeKind::element || node->is(Tag::body);
}

// dom_smoothie's selection: of the top candidate and its ancestors below
// <body>, those in every close runner-up's list (the runner-up and its
// ancestors), and of those the best scored (the nearest on a tie); the top
// candidate itself when there is no runner-up, or no such ancestor has a score.
Node* common_ancestor_of_alternatives(Node* top_candidate, const std::vector<std::vector<Node*>>& alternatives) {
    if (alternatives.empty()) {
        return top_candidate;
    }
    Node* best = nullptr;
    for (Node* parent = top_candidate; !is_body_or_outside(parent); parent = parent->parent) {
        const bool shared = std::all_of(alternatives.begin(), alternatives.end(), [&](const std::vector<Node*>& list) {
            return std::find(list.begin(), list.end(), parent) != list.end();
        });
        if (shared && parent->score.initialized &&
            (best == nullptr || parent->score.content_score > best->score.content_score)) {
            best = parent;
        }
    }
    return best != nullptr ? best : top_candidate;
}

struct Ranked {
    Node* node;
    double link_density;
};

// measure_texts' walker (dom::walk_post_order): each element's text joined to
// its parent's when the element closes, kept for the elements to measure.
struct TextsWalker {
    struct Frame {
        const Node* node;
        dom::TextSpan span;
        std::size_t commas = 0;
    };
    const std::unordered_map<const Node*, std::size_t>& index;
    std::vector<std::optional<TextStats>>& found;

    void text(const Node* node, std::vector<Frame>& frames) {
        frames.back().span = dom::joined(frames.back().span, dom::span_of(node->data));
        frames.back().commas += patterns::comma_split_count(node->data) - 1;
    }
    dom::Visit enter(Node*& node, std::vector<Frame>& frames) {
        frames.push_back({node, {}, 0});
        return dom::Visit::descend;
    }
    void close(std::vector<Frame>& frames) {
        const Frame done = frames.back();
        frames.pop_back();
        if (const auto it = index.find(done.node); it != index.end()) {
            found[it->second] = TextStats{done.span.length, done.commas};
        }
        if (!frames.empty()) {
            frames.back().span = dom::joined(frames.back().span, done.span);
            frames.back().commas += done.commas;
        }
    }
};

// measure_text of each of `elements` (all in `page`), in one walk of the page,
// so that nested <section>s, which Readability scores each, cost one walk
// instead of their text times their nesting. An element the walk does not
// reach is measured alone.
std::vector<TextStats> measure_texts(const Node* page, const std::vector<Node*>& elements) {
    std::unordered_map<const Node*, std::size_t> index;
    index.reserve(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
        index.emplace(elements[i], i);
    }
    std::vector<std::optional<TextStats>> found(elements.size());
    TextsWalker walker{index, found};
    std::vector<TextsWalker::Frame> frames{{page, {}, 0}};
    dom::walk_post_order(frames, walker);
    std::vector<TextStats> stats;
    stats.reserve(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
        stats.push_back(found[i] ? *found[i] : measure_text(*elements[i]));
    }
    return stats;
}

}  // namespace

StrategyResult grab_article(dom::Document& doc, const ExtractOptions& options, const PassInput& input,
                            PassState& state) {
    PassRecord pass(input.flags);
    StrategyResult& out = pass.result;
    PassDiagnostics& diag = out.diagnostics;
    const ContentScorer& scorer = input.scorer != nullptr ? *input.scorer : readability_scorer();
    const PassFlags flags = input.flags;

    Node* page = doc.body();
    if (page == nullptr) {
        return pass.finish("no_body");
    }

    // 1. Walk every element once: drop hidden and unlikely nodes, capture the
    //    byline, collect paragraph-like elements, normalise <div>s.
    std::vector<Node*> elements_to_score;
    bool should_remove_title_header = true;
    Node* node = doc.document_element();
    while (node != nullptr) {
        ++diag.elements_seen;
        // The walk is the pass's longest loop: on a large page it alone can
        // outlast a deadline, so it looks at the clock now and then.
        constexpr std::size_t kElementsPerClockRead = 4096;
        if (diag.elements_seen % kElementsPerClockRead == 0 && std::chrono::steady_clock::now() >= options.runtime.deadline) {
            return pass.finish("deadline");
        }
        if (node->is(Tag::html)) {
            const dom::Attribute* lang = node->find_attr("lang");
            state.lang = lang != nullptr ? std::optional<std::string>(std::string(lang->value)) : std::nullopt;
        }
        // pith departs from Readability here: <html> and <body> are never removed.
        // Readability drops an <html class="...header..."> as an unlikely
        // candidate and then scores nothing (trafilatura-dev 0303).
        if (node->is(Tag::html) || node->is(Tag::body)) {
            node = next_in_document(node);
            continue;
        }
        const std::string match = match_string(node);
        if (!is_probably_visible(node)) {
            node = remove_and_get_next(node);
            continue;
        }
        if (node->attr("aria-modal") == "true" && node->attr("role") == "dialog") {
            node = remove_and_get_next(node);
            continue;
        }
        const bool byline_known = state.byline.has_value() && !state.byline->empty();
        if (!byline_known && !input.metadata_has_byline && is_valid_byline(node, match)) {
            // Prefer a descendant marked itemprop="name" (the author's name alone).
            const Node* end = next_in_document(node, true);
            const Node* name_node = nullptr;
            for (const Node* n = next_in_document(node); n != nullptr && n != end; n = next_in_document(n)) {
                if (n->attr("itemprop").find("name") != std::string_view::npos) {
                    name_node = n;
                    break;
                }
            }
            const Node* byline = name_node != nullptr ? name_node : node;
            state.byline = std::string(text::trim(dom::text_content(byline)));
            state.byline_lines = dom::text_lines(byline);
            node = remove_and_get_next(node);
            continue;
        }
        if (should_remove_title_header && header_duplicates_title(node, input.article_title)) {
            should_remove_title_header = false;
            node = remove_and_get_next(node);
            continue;
        }
        if (has(flags, PassFlags::strip_unlikelys)) {
            if (patterns::unlikely_candidate(match) && !patterns::maybe_candidate(match) &&
                !has_ancestor_tag(node, Tag::table) && !has_ancestor_tag(node, Tag::code) && !node->is(Tag::body) &&
                !node->is(Tag::a)) {
                node = remove_and_get_next(node);
                continue;
            }
            if (has_unlikely_role(node)) {
                node = remove_and_get_next(node);
                continue;
            }
        }
        if (removable_if_empty(node) && is_element_without_content(node)) {
            node = remove_and_get_next(node);
            continue;
        }
        if (is_scored_tag(node)) {
            elements_to_score.push_back(node);
        }
        if (node->is(Tag::div)) {
            wrap_phrasing_runs(doc, node);
            // A div holding one paragraph and few links is that paragraph; a div
            // without block children is a paragraph itself.
            if (has_single_tag_inside(node, Tag::p) && link_density(node) < 0.25) {
                Node* only = node->first_element_child();
                dom::replace(node, only);
                node = only;
                elements_to_score.push_back(node);
            } else if (!has_child_block_element(node)) {
                dom::Document::rename(node, Tag::p);
                elements_to_score.push_back(node);
            }
        }
        node = next_in_document(node);
    }

    // 2. Score paragraphs and share each score with up to five ancestors.
    std::vector<Node*> candidates;
    const std::vector<TextStats> texts = measure_texts(page, elements_to_score);
    for (std::size_t i = 0; i < elements_to_score.size(); ++i) {
        Node* element = elements_to_score[i];
        if (element->parent == nullptr || element->parent->kind != NodeKind::element) {
            continue;
        }
        const std::optional<double> score = scorer.paragraph_score(*element, texts[i]);
        if (!score) {
            continue;
        }
        Node* ancestor = element->parent;
        for (std::size_t level = 0; ancestor != nullptr && level < scorer.ancestor_levels();
             ++level, ancestor = ancestor->parent) {
            // Only elements whose parent is an element take part (not <html>).
            if (ancestor->kind != NodeKind::element || ancestor->parent == nullptr ||
                ancestor->parent->kind != NodeKind::element) {
                continue;
            }
            if (!ancestor->score.initialized) {
                initialize(ancestor, scorer, flags);
                candidates.push_back(ancestor);
            }
            ancestor->score.content_score += *score / scorer.ancestor_divider(level);
        }
    }
    diag.candidate_count = candidates.size();

    // 3. Scale by link density and keep the best n_top_candidates.
    std::vector<Ranked> top;
    const std::size_t n_top = std::max<std::size_t>(options.passes.n_top_candidates, 1);
    // Measured for every candidate in one walk: a candidate's subtree read on
    // its own would read the page's text once per level of their nesting.
    const Measures measures(doc.root());
    for (Node* candidate : candidates) {
        const double density = measures.link_density(candidate);
        // dom_smoothie's min_score_to_adjust: weak candidates keep their score.
        if (!options.readability.min_score_to_adjust || candidate->score.content_score > *options.readability.min_score_to_adjust) {
            candidate->score.content_score = scorer.final_score(candidate->score.content_score, density);
        }
        for (std::size_t t = 0; t < n_top; ++t) {
            if (t >= top.size() || candidate->score.content_score > top[t].node->score.content_score) {
                top.insert(top.begin() + static_cast<std::ptrdiff_t>(t), Ranked{candidate, density});
                if (top.size() > n_top) {
                    top.pop_back();
                }
                break;
            }
        }
    }
    for (const Ranked& r : top) {
        diag.top_candidates.push_back(CandidateInfo{css_path(r.node), r.node->score.content_score, r.link_density, r.node->source_index});
    }

    // 4. Choose the top candidate, then see whether an ancestor is a better container.
    Node* top_candidate = top.empty() ? nullptr : top.front().node;
    bool needed_to_create_top_candidate = false;
    if (top_candidate == nullptr || top_candidate->is(Tag::body)) {
        top_candidate = doc.create_element(Tag::div);
        needed_to_create_top_candidate = true;
        dom::move_children(page, top_candidate);
        dom::append_child(page, top_candidate);
        initialize(top_candidate, scorer, flags);
    } else {
        // Several close runners-up sharing an ancestor: that ancestor holds the article.
        constexpr std::size_t kMinimumTopCandidates = 3;
        std::vector<std::vector<Node*>> alternative_ancestors;
        for (std::size_t i = 1; i < top.size(); ++i) {
            if (top[i].node->score.content_score / top_candidate->score.content_score >= 0.75) {
                alternative_ancestors.push_back(all_ancestors(top[i].node));
            }
        }
        if (options.readability.select_mode == SelectMode::dom_smoothie) {
            // Each runner-up counts as its own ancestor here: a runner-up that
            // holds the others is their common ancestor.
            std::size_t alternative = 0;
            for (std::size_t i = 1; i < top.size(); ++i) {
                if (top[i].node->score.content_score / top_candidate->score.content_score >= 0.75) {
                    std::vector<Node*>& list = alternative_ancestors[alternative++];
                    list.insert(list.begin(), top[i].node);
                }
            }
            top_candidate = common_ancestor_of_alternatives(top_candidate, alternative_ancestors);
        } else if (alternative_ancestors.size() >= kMinimumTopCandidates) {
            for (Node* parent = top_candidate->parent; !is_body_or_outside(parent); parent = parent->parent) {
                std::size_t lists_containing = 0;
                for (std::size_t a = 0; a < alternative_ancestors.size() && lists_containing < kMinimumTopCandidates;
                     ++a) {
                    const auto& list = alternative_ancestors[a];
                    lists_containing += static_cast<std::size_t>(std::find(list.begin(), list.end(), parent) != list.end());
                }
                if (lists_containing >= kMinimumTopCandidates) {
                    top_candidate = parent;
                    break;
                }
            }
        }
        if (!top_candidate->score.initialized) {
            initialize(top_candidate, scorer, flags);
        }
        // Climb while parents keep a good share of the score: an article split
        // into sections scores highest on a section, not the whole article.
        double last_score = top_candidate->score.content_score;
        const double score_threshold = last_score / 3;
        for (Node* parent = top_candidate->parent; !is_body_or_outside(parent);) {
            if (!parent->score.initialized) {
                parent = parent->parent;
                continue;
            }
            const double parent_score = parent->score.content_score;
            if (parent_score < score_threshold) {
                break;
            }
            if (parent_score > last_score) {
                top_candidate = parent;
                break;
            }
            last_score = parent_score;
            parent = parent->parent;
        }
        // An only child is as good as its parent.
        for (Node* parent = top_candidate->parent; !is_body_or_outside(parent) && parent->element_child_count() == 1;
             parent = top_candidate->parent) {
            top_candidate = parent;
        }
        if (!top_candidate->score.initialized) {
            initialize(top_candidate, scorer, flags);
        }
    }
    diag.chosen_root = css_path(top_candidate);
    diag.chosen_root_index = top_candidate->source_index;

    // 5. Gather the top candidate and its qualifying siblings.
    Node* article_content = doc.create_element(Tag::div);
    const double sibling_threshold = std::max(10.0, top_candidate->score.content_score * 0.2);
    Node* parent_of_top = top_candidate->parent;
    std::vector<Node*> siblings;
    for (Node* s = parent_of_top->first_element_child(); s != nullptr; s = s->next_element_sibling()) {
        siblings.push_back(s);
    }
    const std::string_view top_class = class_name(top_candidate);
    for (Node* sibling : siblings) {
        bool append = false;
        if (sibling == top_candidate) {
            append = true;
        } else {
            double bonus = 0.0;
            if (class_name(sibling) == top_class && !top_class.empty()) {
                bonus += top_candidate->score.content_score * 0.2;
            }
            if (sibling->score.initialized && sibling->score.content_score + bonus >= sibling_threshold) {
                append = true;
            } else if (sibling->is(Tag::p)) {
                const double density = link_density(sibling);
                const std::size_t length = dom::inner_text_length(sibling);
                if (length > 80 && density < 0.25) {
                    append = true;
                } else if (length < 80 && length > 0 && density == 0.0) {
                    const std::string content = dom::inner_text(sibling);
                    // /\.( |$)/: a sentence end.
                    for (std::size_t i = content.find('.'); i != std::string::npos; i = content.find('.', i + 1)) {
                        if (i + 1 == content.size() || content[i + 1] == ' ') {
                            append = true;
                            break;
                        }
                    }
                }
            }
        }
        if (!append) {
            continue;
        }
        append_as_block(article_content, sibling);
    }

    // 6. Clean the article, wrap it in the page div.
    if (!prep_article(doc, article_content, options.readability, flags, options.runtime.deadline)) {
        return pass.finish("deadline");
    }
    if (needed_to_create_top_candidate) {
        doc.set_attr(top_candidate, "id", "readability-page-1");
        doc.set_attr(top_candidate, "class", "page");
    } else {
        wrap_in_page_div(doc, article_content);
    }

    // The text direction comes from the nearest ancestor that declares one.
    state.dir.reset();
    std::vector<const Node*> dir_chain = {parent_of_top, top_candidate};
    for (const Node* a = parent_of_top->parent; a != nullptr; a = a->parent) {
        dir_chain.push_back(a);
    }
    for (const Node* a : dir_chain) {
        if (a->kind != NodeKind::element) {
            continue;
        }
        if (const std::string_view dir = a->attr("dir"); !dir.empty()) {
            state.dir = std::string(dir);
            break;
        }
    }

    out.content = article_content;
    out.text_length = dom::inner_text_length(article_content);
    diag.text_length = out.text_length;
    return pass.finish(out.text_length >= options.passes.char_threshold ? "accepted" : "too_short");
}

}  // namespace pith::extract
