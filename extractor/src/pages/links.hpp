// Articles split over several pages (issue 27), the part that reads one page:
// where its next page is, and its pagination and repeated furniture taken out
// of its article. Fetching and joining are the caller's (walk.cpp drives
// them). Internal header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "pith/dom.hpp"
#include "rules/apply.hpp"

namespace pith::extract {

// An article page's URL read as the article it is a page of and its number:
// "/story/2", "/story-2.html", "/story?page=2" are page 2 of "/story",
// "/story.html" and "/story". The article is its path and query, without
// scheme, host and fragment: the walk, not this, decides whether a page on
// another host may be followed, and says so when it may not.
struct PagedUrl {
    std::string article;
    std::size_t number = 1;  // 1 when the URL names no page
};
[[nodiscard]] PagedUrl paged_url(std::string_view absolute_url);

// The numbers of two URLs as pages of one article; nullopt when they are not
// pages of the same article.
struct PagePair {
    std::size_t here = 1;
    std::size_t there = 1;
};
[[nodiscard]] std::optional<PagePair> pages_of_same_article(std::string_view here, std::string_view there);

// Where to go from a page, in absolute URLs.
struct PageLinks {
    std::optional<std::string> next;
    std::string next_via;  // as PageVisit::via says
    std::optional<std::string> single_page;  // the site rule's single_page_link
};

// The next page of the article on `root` (the prepared page), whose URL is
// `page_url` and links resolve against `base_url`. Tried in order: the site
// rule's next_page_link; rel=next; a link whose words or class say "next";
// the link numbered one more than this page. All but the rule's must lead to
// a later page of the same article (pages_of_same_article), hosts aside: the
// caller decides whether another host may be followed.
[[nodiscard]] PageLinks find_page_links(const dom::Node* root, std::string_view base_url, std::string_view page_url,
                                        const std::optional<rules::Applied>& applied);

// The prints (a hash of the collapsed, lower-cased text) of the blocks of the
// pages read before this one.
using BlockPrints = std::unordered_set<std::uint64_t>;

struct TrimmedPage {
    std::size_t repeats_dropped = 0;     // blocks at the start or end that repeated `earlier`
    std::size_t pagination_dropped = 0;  // blocks of links to the article's pages
    std::vector<std::uint64_t> prints;   // of the blocks left, for the pages after
};

// Takes out of `content` (the chosen article) the article's pagination, and
// the blocks at its start and end that repeat a block of `earlier` (a
// headline, a byline, a share bar shown on every page).
[[nodiscard]] TrimmedPage trim_page(dom::Node* content, std::string_view base_url, std::string_view page_url,
                                    const BlockPrints& earlier);

}  // namespace pith::extract
