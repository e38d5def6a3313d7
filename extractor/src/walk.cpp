// An article read over its pages (pith/pages.hpp): each page is extracted as
// extract() does (pipeline.hpp's extract_page, which finds its links and
// trims its article in step 5b), and its body joined to the ones before.
#include <unordered_set>
#include <utility>
#include <vector>

#include "pages/links.hpp"
#include "pipeline.hpp"
#include "pith/pages.hpp"
#include "rules/apply.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

// The URL without its fragment, as pages are told apart.
std::string page_key(std::string_view url) {
    std::string key(url.substr(0, std::min(url.find('#'), url.size())));
    if (const std::size_t scheme = key.find("://"); scheme != std::string::npos) {
        key.erase(0, scheme + 3);  // http and https are the same page
    }
    if (key.starts_with("www.")) {
        key.erase(0, 4);
    }
    return key;
}

std::string site_of(std::string_view url) {
    std::string host = rules::host_of(url);
    if (host.starts_with("www.")) {
        host.erase(0, 4);
    }
    return host;
}

bool has_article(const Article& article) {
    return (article.status == Status::ok || article.status == Status::best_attempt ||
            article.status == Status::low_confidence) &&
           !article.content.empty();
}

// The page's content with its page <div> numbered as the page it is
// (Readability names the first "readability-page-1").
std::string numbered_content(std::string content, std::size_t number) {
    constexpr std::string_view kFirst = "id=\"readability-page-1\"";
    if (const std::size_t at = content.find(kFirst); at != std::string::npos && at < 200) {
        content.replace(at, kFirst.size(), "id=\"readability-page-" + std::to_string(number) + "\"");
    }
    return content;
}

void append_block(std::optional<std::string>& whole, const std::optional<std::string>& more) {
    if (!more || more->empty()) {
        return;
    }
    if (!whole || whole->empty()) {
        whole = more;
        return;
    }
    *whole += "\n\n";
    *whole += *more;
}

}  // namespace

struct ArticleWalk::State {
    ExtractOptions options;
    Article whole;
    bool started = false;
    bool finished = false;
    std::vector<PageVisit> visits;
    std::unordered_set<std::string> seen;  // page_key of every page read or asked for
    BlockPrints prints;                    // of every block joined
    std::string site;                      // the first page's host (after redirects), without "www."
    std::string pending_url;               // what add_page returned last
    std::string pending_via;
    bool pending_single_page = false;
    std::string stopped;
    std::string detail;

    std::optional<std::string> end(std::string reason, std::string why) {
        stopped = std::move(reason);
        detail = std::move(why);
        return std::nullopt;
    }

    // Where to go from a page whose links are `links`.
    std::optional<std::string> next_from(const PageLinks& links) {
        if (!links.next) {
            return end("no_next_page", "");
        }
        const std::string& next = *links.next;
        if (site_of(next) != site) {
            return end("other_host", next);
        }
        if (seen.contains(page_key(next))) {
            return end("loop", next);
        }
        if (visits.size() >= options.pages.max_pages) {
            return end("max_pages", next);
        }
        seen.insert(page_key(next));
        pending_url = next;
        pending_via = links.next_via;
        return next;
    }

    void remember(const TrimmedPage& trimmed) { prints.insert(trimmed.prints.begin(), trimmed.prints.end()); }

    std::optional<std::string> first_page(Article page, PageContext& context, const std::string& url) {
        whole = std::move(page);
        visits.push_back(PageVisit{url, "request", whole.length, 0});
        if (!has_article(whole)) {
            return end("no_content", "");
        }
        seen.insert(page_key(url));
        remember(context.trimmed);
        if (context.links.single_page && page_key(*context.links.single_page) != page_key(url) &&
            site_of(*context.links.single_page) == site) {
            seen.insert(page_key(*context.links.single_page));
            pending_url = *context.links.single_page;
            pending_via = "single_page_link";
            pending_single_page = true;
            return pending_url;
        }
        return next_from(context.links);
    }

    void join(Article page, const PageContext& context, const std::string& url) {
        const std::size_t number = visits.size() + 1;
        whole.content += numbered_content(std::move(page.content), number);
        whole.text_content += page.text_content;
        whole.length = text::utf16_length(whole.text_content);
        append_block(whole.markdown, page.markdown);
        append_block(whole.text, page.text);
        visits.push_back(PageVisit{url, pending_via, page.length, context.trimmed.repeats_dropped});
        remember(context.trimmed);
    }
};

ArticleWalk::ArticleWalk(ExtractOptions options) : state_(std::make_unique<State>()) {
    state_->options = std::move(options);
}
ArticleWalk::ArticleWalk(ArticleWalk&&) noexcept = default;
ArticleWalk& ArticleWalk::operator=(ArticleWalk&&) noexcept = default;
ArticleWalk::~ArticleWalk() = default;

ExtractOptions& ArticleWalk::options() noexcept { return state_->options; }

std::optional<std::string> ArticleWalk::add_page(std::string_view html, std::string url, std::string charset) {
    State& s = *state_;
    if (s.finished || (s.started && s.pending_url.empty())) {
        return std::nullopt;  // the walk is over
    }
    ExtractOptions page_options = s.options;
    if (!url.empty()) {
        page_options.input.url = url;
    }
    page_options.input.charset = std::move(charset);
    const std::string page_url = page_options.input.url;
    PageContext context;
    context.earlier = s.started && !s.pending_single_page ? &s.prints : nullptr;
    Article page = extract_page(html, page_options, context);
    if (!s.started) {
        s.started = true;
        s.site = site_of(page_url);  // where the first page was, after redirects
        return s.first_page(std::move(page), context, page_url);
    }
    const std::string asked = std::exchange(s.pending_url, std::string());
    // A redirect may lead off the site or back to a page already read.
    if (site_of(page_url) != s.site) {
        return s.end("other_host", page_url);
    }
    if (page_key(page_url) != page_key(asked) && s.seen.contains(page_key(page_url))) {
        return s.end("loop", page_url);
    }
    s.seen.insert(page_key(page_url));
    if (page.status == Status::budget_exceeded || page.error) {
        const bool late = page.error && page.error->code == ErrorCode::deadline_exceeded;
        return s.end(late ? "deadline" : "refused", page.error ? page.error->message : "");
    }
    if (!has_article(page)) {
        return s.end("no_content", page_url);
    }
    if (s.pending_single_page) {
        // The whole article on one page replaces the first page's part.
        PageVisit first = s.visits.front();
        s.whole = std::move(page);
        s.visits = {std::move(first), PageVisit{page_url, "single_page_link", s.whole.length, 0}};
        return s.end("single_page", page_url);
    }
    if (text::trim(page.text_content).empty()) {
        return s.end("no_new_content", page_url);
    }
    s.join(std::move(page), context, page_url);
    return s.next_from(context.links);
}

void ArticleWalk::stop(std::string reason, std::string detail) {
    // The page that could not be read, then why.
    std::string url = std::exchange(state_->pending_url, std::string());
    state_->end(std::move(reason), url.empty() ? std::move(detail) : url + ": " + detail);
}

std::size_t ArticleWalk::held_bytes() const noexcept {
    const Article& a = state_->whole;
    return a.content.size() + a.text_content.size() + (a.markdown ? a.markdown->size() : 0) +
           (a.text ? a.text->size() : 0);
}

std::size_t ArticleWalk::pages_read() const noexcept { return state_->visits.size(); }

Article ArticleWalk::finish() {
    State& s = *state_;
    s.finished = true;
    Article article = std::move(s.whole);
    article.pages = PagesDiagnostics{std::move(s.visits), std::move(s.stopped), std::move(s.detail)};
    return article;
}

}  // namespace pith::extract
