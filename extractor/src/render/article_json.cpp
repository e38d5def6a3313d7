#include "pith/article_json.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace pith::extract {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json optional_string(const std::optional<std::string>& value) {
    if (!value) {
        return nullptr;
    }
    return *value;
}

// A source_index as the JSON says it: null for an element pith made.
nlohmann::json source_index_json(std::uint32_t source_index) {
    return source_index == 0 ? nlohmann::json(nullptr) : nlohmann::json(source_index);
}

nlohmann::json pass_json(const PassDiagnostics& pass) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const CandidateInfo& candidate : pass.top_candidates) {
        candidates.push_back({
            {"path", candidate.path},
            {"score", candidate.score},
            {"link_density", candidate.link_density},
            {"source_index", source_index_json(candidate.source_index)},
        });
    }
    return {
        {"strategy", std::string(strategy_name(pass.strategy))},
        {"flags", pass_flags_name(pass.flags)},
        {"elements_seen", pass.elements_seen},
        {"candidate_count", pass.candidate_count},
        {"top_candidates", std::move(candidates)},
        {"chosen_root", pass.chosen_root},
        {"chosen_root_index", source_index_json(pass.chosen_root_index)},
        {"text_length", pass.text_length},
        {"duration_us", pass.duration_us},
        {"outcome", pass.outcome},
        {"reason", pass.reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(pass.reason)},
    };
}

// auto's view of each strategy, and why it kept one; null for the others.
nlohmann::json choice_json(const Article& article) {
    if (article.strategy != Strategy::automatic) {
        return nullptr;
    }
    nlohmann::json strategies = nlohmann::json::array();
    for (const StrategyOutcome& outcome : article.strategies) {
        strategies.push_back({
            {"strategy", std::string(strategy_name(outcome.strategy))},
            {"status", std::string(status_name(outcome.status))},
            {"chosen_root", outcome.chosen_root},
            {"chosen_root_index", source_index_json(outcome.chosen_root_index)},
            {"text_length", outcome.text_length},
            {"kept", outcome.kept},
        });
    }
    nlohmann::json removed = nlohmann::json::array();
    for (const RemovedBlock& block : article.removed) {
        removed.push_back({
            {"kind", block.kind},
            {"path", block.path},
            {"source_index", source_index_json(block.source_index)},
            {"text_length", block.text_length},
            {"excerpt", block.excerpt},
        });
    }
    nlohmann::json judge = nullptr;
    if (!article.judge_features.empty()) {
        nlohmann::json features = nlohmann::json::object();
        const auto names = judge_feature_names();
        for (std::size_t i = 0; i < names.size() && i < article.judge_features.size(); ++i) {
            features[std::string(names[i])] = article.judge_features[i];
        }
        judge = {{"features", std::move(features)},
                 {"region_gain", optional_number(article.region_gain)},
                 {"cleaned_region_gain", optional_number(article.cleaned_region_gain)}};
    }
    return {{"strategies", std::move(strategies)},
            {"judge", std::move(judge)},
            {"readability_in_fitness", article.readability_in_fitness},
            {"fitness_in_readability", article.fitness_in_readability},
            {"decision", article.decision},
            {"removed", std::move(removed)}};
}

nlohmann::json diagnostics_json(const Article& article) {
    nlohmann::json passes = nlohmann::json::array();
    for (const PassDiagnostics& pass : article.passes) {
        passes.push_back(pass_json(pass));
    }
    const StageTimings& t = article.timings;
    nlohmann::json cost = nullptr;
    if (const std::optional<CostEstimate>& c = article.cost) {
        cost = {
            {"input_bytes", c->input_bytes},   {"markup_bytes", c->markup_bytes},
            {"elements", c->elements},         {"attributes", c->attributes},
            {"comments", c->comments},
            {"memory_bytes", c->memory_bytes}, {"time_us", c->time.count()},
        };
    }
    nlohmann::json features = nullptr;
    if (!article.confidence_features.empty()) {
        // In the model's order, which a JSON object would not keep.
        features = nlohmann::json::array();
        const auto names = confidence_feature_names();
        for (std::size_t i = 0; i < names.size() && i < article.confidence_features.size(); ++i) {
            features.push_back({{"name", std::string(names[i])}, {"value", article.confidence_features[i]}});
        }
    }
    nlohmann::json title_candidates = nullptr;
    if (!article.title_candidates.empty()) {
        title_candidates = nlohmann::json::array();
        for (const TitleCandidateDiagnostics& c : article.title_candidates) {
            title_candidates.push_back(
                {{"text", c.text}, {"source", c.source}, {"score", c.score}, {"features", c.features}});
        }
    }
    nlohmann::json page_type = nullptr;
    if (const std::optional<PageTypeDiagnostics>& d = article.page_type_diagnostics) {
        const auto by_name = [](const std::array<double, kPageTypeCount>& p) {
            nlohmann::json probabilities = nlohmann::json::object();
            for (std::size_t i = 0; i < kPageTypeCount; ++i) {
                probabilities[std::string(page_type_name(static_cast<PageType>(i)))] = p[i];
            }
            return probabilities;
        };
        page_type = {{"type", std::string(page_type_name(d->type))},
                     {"forced", d->forced},
                     {"probabilities", by_name(d->probabilities)},
                     {"layout", {{"type", std::string(page_type_name(d->layout_type))},
                                 {"probabilities", by_name(d->layout_probabilities)}}}};
    }
    nlohmann::json rule = nullptr;
    if (const std::optional<RuleDiagnostics>& r = article.rule) {
        rule = {{"source", r->source},   {"outcome", r->outcome}, {"removed", r->removed},
                {"errors", r->errors},   {"ignored", r->ignored}};
    }
    nlohmann::json pages = nullptr;
    if (const std::optional<PagesDiagnostics>& walk = article.pages) {
        nlohmann::json visits = nlohmann::json::array();
        for (const PageVisit& visit : walk->pages) {
            visits.push_back({{"url", visit.url},
                              {"via", visit.via},
                              {"text_length", visit.text_length},
                              {"repeats_dropped", visit.repeats_dropped}});
        }
        pages = {{"pages", std::move(visits)}, {"stopped", walk->stopped}, {"detail", walk->detail}};
    }
    const MetadataSources& sources = article.metadata_sources;
    return {
        {"strategy", std::string(strategy_name(article.strategy))},
        {"page_type", std::move(page_type)},
        {"metadata",
         {
             {"title", optional_string(sources.title)},
             {"authors", optional_string(sources.authors)},
             {"publishedTime", optional_string(sources.published_time)},
             {"modifiedTime", optional_string(sources.modified_time)},
         }},
        {"title_candidates", std::move(title_candidates)},
        {"rule", std::move(rule)},
        {"pages", std::move(pages)},
        {"auto", choice_json(article)},
        {"predicted_f1", optional_number(article.predicted_f1)},
        {"confidence_features", std::move(features)},
        {"passes", std::move(passes)},
        {"cost", std::move(cost)},
        {"double_encoded", article.double_encoded},
        {"timings_us",
         {
             {"decode", t.decode_us},
             {"prune", t.prune_us},
             {"parse", t.parse_us},
             {"dom_build", t.dom_build_us},
             {"metadata", t.metadata_us},
             {"passes", t.passes_us},
             {"serialize", t.serialize_us},
             {"confidence", t.confidence_us},
             {"render", t.render_us},
         }},
    };
}

// `content` and `text` are the article's, copied or moved by the caller.
nlohmann::json build(const Article& article, std::string content, std::string text, const JsonOptions& options) {
    nlohmann::json j = nlohmann::json::object();
    j["title"] = optional_string(article.title);
    j["byline"] = optional_string(article.byline);
    j["authors"] = article.authors;
    j["dir"] = optional_string(article.dir);
    j["lang"] = optional_string(article.lang);
    if (options.include_content) {
        j["content"] = std::move(content);
    }
    if (options.include_text) {
        j["textContent"] = std::move(text);
    }
    if (options.include_markdown) {
        j["markdown"] = article.markdown.value_or(std::string());
    }
    if (options.include_clean_text) {
        j["text"] = article.text.value_or(std::string());
    }
    j["length"] = article.length;
    j["excerpt"] = optional_string(article.excerpt);
    j["siteName"] = optional_string(article.site_name);
    j["publishedTime"] = optional_string(article.published_time);
    j["modifiedTime"] = optional_string(article.modified_time);
    j["image"] = optional_string(article.image);
    j["favicon"] = optional_string(article.favicon);
    j["readerable"] = article.readerable;
    j["status"] = std::string(status_name(article.status));
    j["confidence"] = article.confidence;
    j["charset"] = article.charset;
    j["page_type"] = article.page_type ? nlohmann::json(std::string(page_type_name(*article.page_type)))
                                       : nlohmann::json(nullptr);
    if (article.error) {
        j["error"] = {
            {"code", std::string(error_code_name(article.error->code))},
            {"message", article.error->message},
        };
    } else if (article.status == Status::budget_exceeded) {
        // The extractor always says which budget; never leave a client guessing.
        j["error"] = {
            {"code", std::string(error_code_name(ErrorCode::internal))},
            {"message", "budget exceeded without an error record"},
        };
    }
    if (options.diagnostics) {
        j["diagnostics"] = diagnostics_json(article);
    }
    return j;
}

}  // namespace

nlohmann::json inspection_json(const Inspection& inspection) {
    nlohmann::json strategies = nlohmann::json::array();
    for (const StrategySummary& summary : inspection.strategies) {
        nlohmann::json agreement = nlohmann::json::object();
        for (std::size_t i = 0; i < summary.agreement.size() && i < inspection.strategies.size(); ++i) {
            agreement[std::string(strategy_name(inspection.strategies[i].strategy))] = summary.agreement[i];
        }
        strategies.push_back({
            {"strategy", std::string(strategy_name(summary.strategy))},
            {"status", std::string(status_name(summary.status))},
            {"confidence", summary.confidence},
            {"length", summary.length},
            {"chosen_root", summary.chosen_root},
            {"chosen_root_index", source_index_json(summary.chosen_root_index)},
            {"text", summary.text},
            {"agreement", std::move(agreement)},
        });
    }
    return {{"source", optional_string(inspection.article.annotated_source)}, {"strategies", std::move(strategies)}};
}

nlohmann::json to_json(const Article& article, const JsonOptions& options) {
    return build(article, options.include_content ? article.content : std::string(),
                 options.include_text ? article.text_content : std::string(), options);
}

nlohmann::json to_json(Article&& article, const JsonOptions& options) {
    std::string content = std::move(article.content);
    std::string text = std::move(article.text_content);
    return build(article, std::move(content), std::move(text), options);
}

}  // namespace pith::extract
