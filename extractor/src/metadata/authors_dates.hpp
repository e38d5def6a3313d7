// pith's authors and dates: the names of the article's authors, and when it
// was published and last modified, each with where it was read. Sources, in
// the order they are trusted:
// - authors: the article's JSON-LD `author` (a string, a {name} object or an
//   array of those), <meta> author tags, the byline, rel=author links; last,
//   on a forum thread its first poster as the forum marks posts, on an
//   article a link to its author's page or a name after "Written by";
// - dates: the article's JSON-LD datePublished / dateModified, <meta> date
//   tags, <time> marked as the publication's (itemprop or class), a date in
//   the URL's path; for the publication date, last, the first date written
//   in the 400 bytes of text after the first <h1> (a byline's), then, on an
//   article or a forum thread, the first <time datetime> outside comments.
// The article's JSON-LD is the first object (at the top, in an array or in an
// @graph) whose @type Readability counts as an article's. No other date in
// the text is read: it could be a comment's or a copyright's, and no date is
// better than a wrong one.
//
// Thread-safety: pure functions; the Document is only read. Internal header.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/metadata.hpp"
#include "pith/dom.hpp"

namespace pith::extract {

// What the page's JSON-LD says of its article; read before the scripts go.
struct JsonLdFacts {
    std::vector<std::string> authors;
    std::optional<std::string> published, modified;  // ISO 8601
};
[[nodiscard]] JsonLdFacts read_json_ld_facts(const dom::Document& doc);

struct AuthorsAndDates {
    std::vector<std::string> authors;
    std::string authors_source;  // "" when there are none
    std::optional<SourcedText> published, modified;
    // Where nothing marks the publication date (and the URL holds none): the
    // first date written in the text after the page's first <h1>, where
    // bylines show it. Taken for an article, a thread or a documentation
    // page; on other pages it dates the first item or review.
    std::optional<SourcedText> date_after_headline;
    // The <meta> author tag's names, kept beside a JSON-LD author that came
    // first: the page's own word where the JSON-LD's is not taken.
    std::vector<std::string> meta_authors;
    std::string meta_authors_source;
    // The text of rel=author links, the last resort after the byline.
    std::vector<std::string> rel_authors;
    // The names a sharing card labels as the writer's: the twitter:dataN
    // beside a twitter:labelN "Written by", as SEO plugins write them. After
    // rel=author, for an article, a thread or a documentation page.
    std::vector<std::string> card_authors;
    // A thread's first poster, as forum software marks its posts: the first
    // itemprop=author that is not a reply's (a schema.org Comment's or
    // Answer's), else the first data-author attribute, else the first element
    // whose class names a user ("username", "author", "poster"...). Read by
    // read_unmarked_facts; taken for a page of the forum type only, before
    // the byline when marked as a poster, after it when only a class names one.
    std::optional<SourcedText> first_poster;
    static constexpr std::string_view kUserClass = "user class";  // first_poster's source when only a class names it
    // An article's author as templates show one without marking it: the
    // first link to an author's page (/author/jane-doe, /writers/...) whose
    // text is a name, else a name just after a label ("Written by", "By"),
    // else a short line starting "By Jane Doe" (or a handle: "by jdoe_42")
    // near the headline, else a line there of a full name beside a date,
    // else a full name in an author box.
    // Read by read_unmarked_facts; taken for a page of the article type only.
    std::optional<SourcedText> shown_author;
    // The first <time datetime> of the page outside its comments: a thread's
    // or an article's date where nothing marks the publication's. Read for a
    // page of the article or forum type only, last.
    std::optional<SourcedText> first_time;
    // A date written just before the headline (a kicker's, a dateline's).
    // Read by read_unmarked_facts.
    std::optional<SourcedText> date_before_headline;
    // The first short element whose class or id names a date ("post-date",
    // "published") and whose text is one, not an update's: a template's
    // date line away from the headline. Read by read_unmarked_facts; taken
    // for an article or a thread, last of all.
    std::optional<SourcedText> date_element;
    bool unmarked_read = false;  // read_unmarked_facts filled the five above
    // The page's headline: its first <h1> with text, else (on a page with no
    // <h1>) its first <h2> with text; an element of the document read.
    const dom::Node* headline = nullptr;
};

// The JSON-LD's facts, then the rest of the page (after preparation, which
// keeps <meta>, <time> and links), then the URL. The byline comes later
// (apply_metadata), once the passes have looked for one.
[[nodiscard]] AuthorsAndDates read_authors_and_dates(const dom::Document& doc, const JsonLdFacts& json_ld,
                                                     std::string_view url);

// Whether `node` sits in a comment thread (a class or id naming comments),
// asking its nearest 100 ancestors, so a page nested thousands deep costs no
// more per node: a comment's date or page links are not the article's.
[[nodiscard]] bool in_comment_thread(const dom::Node* node);

// What the page shows without marking it as the article's authors or date:
// first_poster, shown_author, first_time, date_before_headline and
// date_element. A walk of its own, made only for a page of the article or
// forum type that lacks a marked author or date (extract.cpp). Once per page.
void read_unmarked_facts(const dom::Document& doc, AuthorsAndDates& out);

// The names in a byline or an author field: without "By", "Written by",
// "Author:", the date or place after the name, degrees ("PhD", "MD") and
// what is not a name (addresses, links, long phrases); "A, B and C" is three
// names. At most ten, each once.
[[nodiscard]] std::vector<std::string> author_names(std::string_view text);

// A person's name as a template shows it: two to four words, each starting
// with a capital (or a letter beyond ASCII) but for the particles ("van",
// "de"), no digits, 3 to 40 bytes.
[[nodiscard]] bool looks_like_full_name(std::string_view name);

// A date or date-time as ISO 8601: ISO forms are kept (a space before the time
// becomes "T"), "2025/09/04", "20250904", "4 September 2025", "Sep. 4, 2025",
// "04.09.2025" (day first) and RFC 1123 dates become "2025-09-04". None for
// anything else, or a year before 1990 or after 2100.
[[nodiscard]] std::optional<std::string> iso_date(std::string_view text);

}  // namespace pith::extract
