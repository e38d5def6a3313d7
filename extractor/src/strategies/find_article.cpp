// Step 5 of extract(): the article, from the site rule's body when it has one
// that selects something, else from the strategy asked for.
#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

#include "dom/inner_text.hpp"
#include "dom/walk.hpp"
#include "page/page.hpp"
#include "rules/site_rule.hpp"
#include "rules/xpath.hpp"
#include "strategies/declared.hpp"
#include "strategies/left_out.hpp"
#include "strategies/run.hpp"
#include "strategies/thread.hpp"

namespace pith::extract {

namespace {

// "; 1 streamed segment was put in place", "; 3 signatures left out": what
// auto's decision says of a step that did `done` to `count` of `what`;
// nothing for none.
std::string counted(std::size_t count, std::string_view what, std::string_view what_plural, std::string_view done) {
    return count == 0 ? std::string()
                      : "; " + std::to_string(count) + " " + std::string(count == 1 ? what : what_plural) + " " +
                            std::string(done);
}

std::string left_out(std::size_t count, std::string_view what, std::string_view what_plural) {
    return counted(count, what, what_plural, "left out");
}

// The article a site rule's body selected: the selected elements, copied in
// document order into a document of their own, cleaned as Readability cleans
// an article when the rule prunes.
StrategyRun rule_body_run(const std::vector<dom::Node*>& body, const ExtractOptions& options, bool prune) {
    StrategyRun run;
    Attempt attempt = own_attempt(options);
    std::vector<dom::Node*> blocks;
    blocks.reserve(body.size());
    for (const dom::Node* node : body) {
        blocks.push_back(attempt.doc.clone(node));
    }
    if (!assemble_attempt(attempt, blocks, options, prune ? options.passes.flags : PassFlags::none)) {
        run.stopped = Error{ErrorCode::deadline_exceeded, "deadline passed while cleaning the site rule's body"};
        return run;
    }
    run.status = attempt.text_length > 0 ? Status::ok : Status::no_content;
    if (attempt.text_length > 0) {
        run.chosen.emplace(std::move(attempt));
    }
    return run;
}

}  // namespace

StrategyRun find_article(PreparedPage& page, const ExtractOptions& options, PassState& state, Article& article) {
    const auto started = std::chrono::steady_clock::now();
    const Metadata& metadata = page.metadata;
    PassInput input;
    input.article_title = metadata.title ? std::string_view(*metadata.title) : std::string_view{};
    input.metadata_has_byline = metadata.byline.has_value() && !metadata.byline->empty();
    input.scorer = options.readability.scorer;
    input.flags = options.passes.flags;
    input.page_type = page.page_type ? page.page_type->layout_type : options.page_type.value_or(PageType::article);
    input.page_type_forced = options.page_type.has_value();
    if (page.page_type) {
        input.page_type_probabilities = page.page_type->layout_probabilities;
    }
    input.model_fold = options.runtime.model_fold;
    input.page_text_length = page.body_text_length;
    article.strategy = options.strategy;

    std::optional<rules::Applied>& applied = page.applied;
    const rules::SiteRule* rule = page.rule;
    StrategyRun run;
    if (applied) {  // what the rule's removals took out of the page cannot be the article
        std::erase_if(applied->body, [&page](const dom::Node* n) { return !dom::is_within(n, page.doc.root()); });
    }
    if (applied && !applied->body.empty()) {
        run = rule_body_run(applied->body, options, rule->prune);
        article.rule->outcome = "applied";
        if (options.strategy == Strategy::automatic) {
            article.decision = "the site rule's body was kept; no strategy ran";
        }
    } else if (applied && !rule->body.empty() && !rule->autodetect_on_failure) {
        run.status = Status::no_content;
        article.rule->outcome = "no_content";
    } else {
        run = run_strategy(page.doc, options, input, state, article);
        if (options.strategy == Strategy::automatic) {
            article.decision += counted(page.streamed_segments, "streamed segment was", "streamed segments were",
                                        "put in place");
            if (page.revealed > 0) {
                article.decision += "; the hidden element holding most of the page's text was taken as shown";
            }
            article.decision += counted(page.revealed_panels, "hidden tab or expandable panel was",
                                        "hidden tab or expandable panels were", "taken as shown");
        }
        if (options.strategy == Strategy::automatic && input.page_type == PageType::product && run.chosen) {
            article.decision += left_out(remove_customer_reviews(*run.chosen), "customer review", "customer reviews");
            if (add_declared_description(*run.chosen, page.declarations.product_description)) {
                article.decision += "; the product description its JSON-LD declares was added";
            }
        }
        if (options.strategy == Strategy::automatic && input.page_type == PageType::forum && run.chosen) {
            article.decision += left_out(remove_repeated_quotes(*run.chosen), "quote of posts the thread shows in full",
                                         "quotes of posts the thread shows in full");
            article.decision += left_out(remove_signatures(*run.chosen), "signature", "signatures");
        }
        if (options.strategy == Strategy::automatic && !options.keep_repeated && run.chosen) {
            article.decision += left_out(remove_repeated_blocks(*run.chosen), "repeated block", "repeated blocks");
        }
        if (options.strategy == Strategy::automatic && options.declared_body) {
            if (const auto taken = take_declared_body(run, page.declarations.article_body, options)) {
                article.decision += "; the article body its JSON-LD declares was taken: " +
                                    std::to_string(taken->declared) + " characters against " +
                                    std::to_string(taken->found) + " found in the page";
            }
        }
        if (applied) {
            article.rule->outcome = rule->body.empty() ? "no_body" : "fell_back";
        }
    }
    if (run.stopped) {
        return run;
    }
    article.status = run.status;
    article.timings.passes_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
    if (run.chosen && run.chosen->pass_index < article.passes.size()) {  // a rule's body ran no pass
        article.article_pass = run.chosen->pass_index;
    }
    return run;
}

}  // namespace pith::extract
