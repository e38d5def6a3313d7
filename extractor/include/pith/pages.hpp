// Articles split over several pages (issue 27). ArticleWalk reads an article
// page by page while its caller fetches the pages (the library never touches
// the network): pithd through its guarded fetcher, `pith extract --url` too.
//
//     ArticleWalk walk(options);  // options.pages.max_pages > 1, input.url the first page's
//     std::optional<std::string> next = walk.add_page(first_html, first_url, charset);
//     while (next) {
//         fetched = fetch(*next);               // the caller's address policy, limits, deadline
//         if (!fetched) { walk.stop("fetch_failed", why); break; }
//         next = walk.add_page(fetched.body, fetched.final_url, fetched.charset);
//     }
//     Article article = walk.finish();        // every page's body in order, diagnostics.pages
//
// The next page is the one the rule's next_page_link, rel=next, a "next" link
// or the following page number points to (pages/links.hpp); the rule's
// single_page_link, when it has one, is read instead of the pages. Following
// stops at max_pages, at a page on another host, at a page already read, and
// at a page with no new content; diagnostics.pages says which. The joined
// article keeps the first page's metadata, passes and confidence; each later
// page adds its body without the blocks at its start and end that repeat an
// earlier page's (headline, byline, share bars) and without its pagination.
//
// Thread-safety: one walk is used by one thread at a time; it may move
// between threads between calls.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "pith/article.hpp"
#include "pith/options.hpp"

namespace pith::extract {

class ArticleWalk {
public:
    // `options.input.url` is the first page's URL (a request's), and
    // options.pages.max_pages the most pages read.
    explicit ArticleWalk(ExtractOptions options);
    ArticleWalk(ArticleWalk&&) noexcept;
    ArticleWalk& operator=(ArticleWalk&&) noexcept;
    ~ArticleWalk();

    // What the next page is extracted under: a caller may change its runtime
    // hooks (deadline, admit) between pages.
    [[nodiscard]] ExtractOptions& options() noexcept;

    // Extracts the page fetched from `url` (its URL after redirects;
    // `charset` the HTTP header's, may be ""), joins it to the pages before
    // and returns the URL to fetch next; nullopt when the walk is over. The
    // first call's `url` may be "" for the request's own.
    [[nodiscard]] std::optional<std::string> add_page(std::string_view html, std::string url,
                                                      std::string charset = {});

    // The URL add_page returned could not be read: the walk is over, with
    // `reason` ("fetch_failed", "deadline", "refused") and `detail` (after
    // the URL, in diagnostics.pages.detail).
    void stop(std::string reason, std::string detail);

    // The bytes the article read so far holds (for a memory budget).
    [[nodiscard]] std::size_t held_bytes() const noexcept;
    // The number of pages joined so far.
    [[nodiscard]] std::size_t pages_read() const noexcept;

    // The article from every page read, in order, with diagnostics.pages.
    // Once only.
    [[nodiscard]] Article finish();

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace pith::extract
