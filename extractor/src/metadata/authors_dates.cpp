#include "metadata/authors_dates.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <initializer_list>

#include <nlohmann/json.hpp>

#include "dom/inner_text.hpp"
#include "metadata/json_ld.hpp"
#include "metadata/metadata.hpp"
#include "text/needles.hpp"
#include "text/references.hpp"
#include "text/text.hpp"

namespace pith::extract {
namespace {

using dom::Node;
using dom::NodeKind;
using dom::Tag;
using json = nlohmann::json;

constexpr int kFirstYear = 1990;
constexpr int kLastYear = 2100;
constexpr std::size_t kMaxNames = 10;
constexpr std::size_t kLongestName = 60;  // bytes
constexpr std::size_t kMostNameWords = 5;

// A sharing card's labelled fields: twitter:label1 names what twitter:data1 holds.
constexpr std::string_view kCardLabel = "twitter:label";
constexpr std::string_view kCardData = "twitter:data";

// <meta> keys (property, name or itemprop, lowercase), most trusted first.
constexpr std::array<std::string_view, 12> kAuthorKeys{
    "author",          "article:author",   "og:author",           "parsely-author",
    "sailthru.author", "cxenseparse:author", "citation_author",   "citation_authors",
    "dc.creator",      "dcterms.creator",  "creator",             "byl"};
constexpr std::array<std::string_view, 25> kPublishedKeys{
    "article:published_time", "og:published_time", "og:article:published_time", "datepublished",
    "publishdate",            "publish_date",      "og:publish_date",           "pubdate",
    "publish-date",           "date-pub",          "published",                 "publication_date",
    "citation_publication_date", "citation_date",  "parsely-pub-date",          "sailthru.date",
    "cxenseparse:publishtime", "dc.date.issued",   "dcterms.issued",            "dc.date.created",
    "dcterms.created",        "datecreated",       "dc.date",                   "dcterms.date",
    "date"};
constexpr std::array<std::string_view, 5> kModifiedKeys{"article:modified_time", "og:updated_time", "datemodified",
                                                        "dcterms.modified", "dc.date.modified"};

// English month names and their usual abbreviations.
constexpr std::array<std::string_view, 12> kMonths{"january", "february", "march",    "april",
                                                   "may",     "june",     "july",     "august",
                                                   "september", "october", "november", "december"};

// Words before a name in a byline, lowercase, longest first.
constexpr std::array<std::string_view, 11> kBylinePrefixes{"written by", "posted by", "reviewed by", "authored by",
                                                           "published by", "text by", "words by", "story by",
                                                           "authors", "author", "by"};
// Of those, the ones that mark the author: a line of a byline starting so
// names them (a reviewer's or a publisher's line does not).
constexpr std::array<std::string_view, 8> kAuthorMarks{"written by", "posted by", "authored by", "text by",
                                                       "story by",   "authors",   "author",      "by"};
// Where a byline's names end: a date, a place or the site after them.
constexpr std::array<std::string_view, 13> kNameEnds{" | ", " - ", " \xE2\x80\x93 ", " \xE2\x80\x94 ",
                                                     " \xC2\xB7 ", " \xE2\x80\xA2 ", "\xC2\xBB", " on ",
                                                     "updated", "published", " posted ", "last updated",
                                                     " in "};

bool digits_at(std::string_view s, std::size_t pos, std::size_t count) noexcept {
    if (pos + count > s.size()) {
        return false;
    }
    return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(pos),
                       s.begin() + static_cast<std::ptrdiff_t>(pos + count), text::is_ascii_digit);
}

int number_at(std::string_view s, std::size_t pos, std::size_t count) noexcept {
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

std::optional<std::string> ymd(int year, int month, int day) {
    if (year < kFirstYear || year > kLastYear || month < 1 || month > 12 || day < 1 || day > 31) {
        return std::nullopt;
    }
    std::string out(10, '0');
    const auto put = [&](std::size_t at, int value, std::size_t width) {
        for (std::size_t i = 0; i < width; ++i) {
            out[at + width - 1 - i] = static_cast<char>('0' + value % 10);
            value /= 10;
        }
    };
    put(0, year, 4);
    out[4] = '-';
    put(5, month, 2);
    out[7] = '-';
    put(8, day, 2);
    return out;
}

// "2025-09-04", with a time ("T10:00", ":00", ".123", "Z", "+02:00", "+0200") kept.
std::optional<std::string> iso_form(std::string_view s) {
    if (!(digits_at(s, 0, 4) && s.size() >= 10 && s[4] == '-' && digits_at(s, 5, 2) && s[7] == '-' &&
          digits_at(s, 8, 2))) {
        return std::nullopt;
    }
    std::optional<std::string> date = ymd(number_at(s, 0, 4), number_at(s, 5, 2), number_at(s, 8, 2));
    if (!date || s.size() == 10 || !(s[10] == 'T' || s[10] == ' ') || !digits_at(s, 11, 2) || s.size() < 16 ||
        s[13] != ':' || !digits_at(s, 14, 2)) {
        return date;
    }
    std::size_t end = 16;
    if (end < s.size() && s[end] == ':' && digits_at(s, end + 1, 2)) {
        end += 3;
        if (end < s.size() && s[end] == '.') {
            ++end;
            while (end < s.size() && text::is_ascii_digit(s[end])) {
                ++end;
            }
        }
    }
    if (end < s.size() && s[end] == 'Z') {
        ++end;
    } else if (end < s.size() && (s[end] == '+' || s[end] == '-') && digits_at(s, end + 1, 2)) {
        if (end + 6 <= s.size() && s[end + 3] == ':' && digits_at(s, end + 4, 2)) {
            end += 6;
        } else if (digits_at(s, end + 3, 2)) {
            end += 5;
        }
    }
    std::string out(s.substr(0, end));
    out[10] = 'T';
    return out;
}

// The month a word names (1-12), 0 when none: a full name or its first three
// letters ("Sept" too).
int month_of(std::string_view word) {
    const std::string lower = text::to_lower_ascii(word);
    for (std::size_t i = 0; i < kMonths.size(); ++i) {
        if (lower == kMonths[i] || (lower.size() >= 3 && kMonths[i].starts_with(lower))) {
            return static_cast<int>(i) + 1;
        }
    }
    return 0;
}

// Which of day and month comes first in a slashed date: a country's habit
// ("3/4/2025" is March 4 in one and April 3 in another), so known only where
// a date of the same page shows it ("8/27/2025": month first).
enum class SlashOrder { unknown, month_first, day_first };

struct SlashedDate {
    int first = 0, second = 0, year = 0;

    [[nodiscard]] SlashOrder order_shown() const noexcept {
        if (first > 12 && second <= 12) {
            return SlashOrder::day_first;
        }
        return second > 12 && first <= 12 ? SlashOrder::month_first : SlashOrder::unknown;
    }
};

// "24/2/2026", "2/24/2026" or "3/4/2025" at the start of `s`, its numbers
// as written.
std::optional<SlashedDate> slashed_date(std::string_view s) {
    const auto one_or_two = [&](std::size_t at) { return digits_at(s, at, 2) ? 2 : (digits_at(s, at, 1) ? 1 : 0); };
    const std::size_t first_digits = one_or_two(0);
    if (first_digits == 0 || first_digits >= s.size() || s[first_digits] != '/') {
        return std::nullopt;
    }
    const std::size_t second_at = first_digits + 1;
    const std::size_t second_digits = one_or_two(second_at);
    const std::size_t year_at = second_at + second_digits + 1;
    if (second_digits == 0 || year_at - 1 >= s.size() || s[year_at - 1] != '/' || !digits_at(s, year_at, 4) ||
        (s.size() > year_at + 4 && (text::is_ascii_digit(s[year_at + 4]) || s[year_at + 4] == '/'))) {
        return std::nullopt;
    }
    return SlashedDate{number_at(s, 0, first_digits), number_at(s, second_at, second_digits),
                       number_at(s, year_at, 4)};
}

// A slashed date at the start of `s`, read in the order its numbers show,
// else in `order`; none when neither tells.
std::optional<std::string> slashed_form(std::string_view s, SlashOrder order) {
    const std::optional<SlashedDate> date = slashed_date(s);
    if (!date) {
        return std::nullopt;
    }
    if (const SlashOrder shown = date->order_shown(); shown != SlashOrder::unknown) {
        order = shown;
    }
    switch (order) {
    case SlashOrder::day_first:
        return ymd(date->year, date->second, date->first);
    case SlashOrder::month_first:
        return ymd(date->year, date->first, date->second);
    case SlashOrder::unknown:
        break;
    }
    return std::nullopt;
}

// The order that the first slashed date in `s` readable one way only shows.
SlashOrder slash_order(std::string_view s) {
    for (std::size_t slash = s.find('/'); slash != std::string_view::npos; slash = s.find('/', slash + 1)) {
        std::size_t from = slash;  // back to the first number's start
        while (from > 0 && slash - from < 2 && text::is_ascii_digit(s[from - 1])) {
            --from;
        }
        if (from == slash || (from > 0 && (text::is_ascii_digit(s[from - 1]) || s[from - 1] == '/'))) {
            continue;
        }
        if (const std::optional<SlashedDate> date = slashed_date(s.substr(from, 11))) {
            if (const SlashOrder shown = date->order_shown(); shown != SlashOrder::unknown) {
                return shown;
            }
        }
    }
    return SlashOrder::unknown;
}

// A date in digits at the start of `s`: year first, day first with dots,
// day and month with slashes (in `order` where both could be the month), or
// eight digits in a row.
std::optional<std::string> numeric_form(std::string_view s, SlashOrder order = SlashOrder::unknown) {
    // 2025/09/04, 2025.09.04
    if (s.size() >= 10 && digits_at(s, 0, 4) && (s[4] == '/' || s[4] == '.') && digits_at(s, 5, 2) && s[7] == s[4] &&
        digits_at(s, 8, 2) && (s.size() == 10 || !text::is_ascii_digit(s[10]))) {
        return ymd(number_at(s, 0, 4), number_at(s, 5, 2), number_at(s, 8, 2));
    }
    // 20250904
    if (digits_at(s, 0, 8) && (s.size() == 8 || !text::is_ascii_digit(s[8]))) {
        return ymd(number_at(s, 0, 4), number_at(s, 4, 2), number_at(s, 6, 2));
    }
    // 04.09.2025 or 4.9.2025: day first, as where this form is written.
    std::size_t day_digits = digits_at(s, 0, 2) ? 2 : (digits_at(s, 0, 1) ? 1 : 0);
    if (day_digits > 0 && day_digits < s.size() && s[day_digits] == '.') {
        const std::size_t month_at = day_digits + 1;
        const std::size_t month_digits = digits_at(s, month_at, 2) ? 2 : (digits_at(s, month_at, 1) ? 1 : 0);
        const std::size_t year_at = month_at + month_digits + 1;
        if (month_digits > 0 && year_at - 1 < s.size() && s[year_at - 1] == '.' && digits_at(s, year_at, 4) &&
            (s.size() == year_at + 4 || !text::is_ascii_digit(s[year_at + 4]))) {
            return ymd(number_at(s, year_at, 4), number_at(s, month_at, month_digits), number_at(s, 0, day_digits));
        }
    }
    return slashed_form(s, order);
}

// The first date written out in `s`: "4 September 2025", "September 4, 2025",
// "Sep. 4 2025", "Tue, 04 Sep 2025 ..."; with `iso_too`, also the forms in
// digits: "2025-09-04", "2025/09/04", "2025.09.04", "04.09.2025", "24/2/2026"
// and "3/4/2025" where another slashed date in `s` shows which number is the
// month (numeric_form).
// Reads at most `max_words` words. `at`, when given, gets the offset in `s`
// of the date's first word.
std::optional<std::string> first_written_date(std::string_view s, std::size_t max_words, bool iso_too,
                                              std::size_t* at = nullptr) {
    const auto found = [&](std::string_view first_word, std::optional<std::string> date) {
        if (at != nullptr) {
            *at = static_cast<std::size_t>(first_word.data() - s.data());
        }
        return date;
    };
    const SlashOrder order = iso_too ? slash_order(s) : SlashOrder::unknown;
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < s.size() && words.size() < max_words) {
        while (pos < s.size() && std::isalnum(static_cast<unsigned char>(s[pos])) == 0) {
            ++pos;
        }
        std::size_t end = pos;
        while (end < s.size() && std::isalnum(static_cast<unsigned char>(s[end])) != 0) {
            ++end;
        }
        if (end > pos) {
            words.push_back(s.substr(pos, end - pos));
        }
        pos = end;
    }
    const auto number = [](std::string_view w, std::size_t most) {
        // "4th", "21st": a day with its suffix.
        std::size_t n = 0;
        while (n < w.size() && text::is_ascii_digit(w[n])) {
            ++n;
        }
        const std::string_view rest = w.substr(n);
        const bool suffix_ok = rest.empty() || rest == "st" || rest == "nd" || rest == "rd" || rest == "th";
        return n > 0 && n <= most && suffix_ok ? number_at(w, 0, n) : -1;
    };
    const auto is_year = [](std::string_view w) { return w.size() == 4 && digits_at(w, 0, 4); };
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (iso_too && is_year(words[i])) {
            const std::string_view from = s.substr(static_cast<std::size_t>(words[i].data() - s.data()));
            if (std::optional<std::string> iso = iso_form(from.substr(0, 10))) {
                return found(words[i], std::move(iso));
            }
            // 2025/12/17, 2025.12.17: year first, so month then day.
            if (std::optional<std::string> numeric = numeric_form(from.substr(0, 11))) {
                return found(words[i], std::move(numeric));
            }
        }
        // 04.09.2025, 24/2/2026: day or month first, standing alone (not the
        // end of a longer run of numbers, as in a version "2.17.05.2021").
        if (iso_too && words[i].size() <= 2 && text::is_ascii_digit(words[i][0])) {
            const auto offset = static_cast<std::size_t>(words[i].data() - s.data());
            const char before = offset > 0 ? s[offset - 1] : ' ';
            if (!text::is_ascii_digit(before) && before != '.' && before != '/') {
                if (std::optional<std::string> numeric = numeric_form(s.substr(offset, 11), order)) {
                    return found(words[i], std::move(numeric));
                }
            }
        }
        const int month = words[i].size() >= 3 ? month_of(words[i]) : 0;
        if (month == 0) {
            continue;
        }
        // Month D YYYY
        if (i + 2 < words.size()) {
            const int day = number(words[i + 1], 2);
            if (day > 0 && is_year(words[i + 2])) {
                if (std::optional<std::string> date = ymd(number_at(words[i + 2], 0, 4), month, day)) {
                    return found(words[i], std::move(date));
                }
            }
        }
        // D Month YYYY
        if (i > 0 && i + 1 < words.size()) {
            const int day = number(words[i - 1], 2);
            if (day > 0 && is_year(words[i + 1])) {
                if (std::optional<std::string> date = ymd(number_at(words[i + 1], 0, 4), month, day)) {
                    return found(words[i - 1], std::move(date));
                }
            }
        }
    }
    return std::nullopt;
}

bool looks_like_link(std::string_view s) {
    return s.find("://") != std::string_view::npos || s.starts_with("/") || s.starts_with("@") ||
           s.starts_with("www.");
}

// A degree or credential after a name: "MS", "RD", "Ph.D.", "M.D.", "MPH".
bool is_credential(std::string_view part) {
    std::string letters;
    for (const char c : part) {
        if (c != '.') {
            letters.push_back(c);
        }
    }
    if (letters.empty() || letters.size() > 5) {
        return false;
    }
    const bool all_upper = std::all_of(letters.begin(), letters.end(),
                                       [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
    static constexpr std::array<std::string_view, 6> kMixed{"PhD", "MSc", "BSc", "DrPH", "MEd", "EdD"};
    return all_upper || std::find(kMixed.begin(), kMixed.end(), letters) != kMixed.end();
}

void append_names(std::vector<std::string>& names, const std::vector<std::string>& more) {
    for (const std::string& name : more) {
        const bool seen = std::any_of(names.begin(), names.end(),
                                      [&](const std::string& n) { return text::iequals_ascii(n, name); });
        if (!seen && names.size() < kMaxNames) {
            names.push_back(name);
        }
    }
}

// --- JSON-LD

bool has_article_type(const json& object) {
    const auto type = object.find("@type");
    if (type == object.end()) {
        return false;
    }
    if (type->is_string()) {
        return is_json_ld_article_type(type->get_ref<const std::string&>());
    }
    if (type->is_array()) {
        return std::any_of(type->begin(), type->end(), [](const json& t) {
            return t.is_string() && is_json_ld_article_type(t.get_ref<const std::string&>());
        });
    }
    return false;
}

// `author`: a string, an object with a name, or an array of those.
std::vector<std::string> json_ld_authors(const json& author) {
    std::vector<std::string> names;
    const auto one = [&](const json& value) {
        if (value.is_string()) {
            append_names(names, author_names(value.get_ref<const std::string&>()));
        } else if (value.is_object()) {
            const auto name = value.find("name");
            if (name != value.end() && name->is_string()) {
                append_names(names, author_names(name->get_ref<const std::string&>()));
            }
        }
    };
    if (author.is_array()) {
        for (const json& value : author) {
            one(value);
        }
    } else {
        one(author);
    }
    return names;
}

std::optional<std::string> json_ld_date(const json& object, const char* key) {
    const auto value = object.find(key);
    return value != object.end() && value->is_string() ? iso_date(value->get_ref<const std::string&>())
                                                       : std::nullopt;
}

std::string element_text(const Node* n) {
    return text::collapse_runs(std::string(text::trim(dom::text_content(n))));
}

// An element's text line by line (dom::text_lines), each line trimmed and its
// white space collapsed, empty lines left out.
std::string element_lines(const Node* n) {
    const std::string lines = dom::text_lines(n);
    std::string out;
    for (std::size_t start = 0; start < lines.size();) {
        const std::size_t end = std::min(lines.find('\n', start), lines.size());
        const std::string_view raw = std::string_view(lines).substr(start, end - start);
        if (const std::string line = text::collapse_runs(text::trim(raw)); !line.empty()) {
            out.append(out.empty() ? "" : "\n").append(line);
        }
        start = end + 1;
    }
    return out;
}

// Whether an itemprop (an author, a date) is a reply's: the item it belongs
// to, its nearest itemscope ancestor, is a schema.org Comment, Answer or
// Review. A thread's own author and date are the posting's
// (DiscussionForumPosting, Question), an article's the article's. Only the
// nearest 100 ancestors are asked, so a page of thousands of nested marks
// costs no more per mark.
bool in_a_reply(const Node* marked) {
    constexpr std::size_t kAncestorsAsked = 100;
    std::size_t climbed = 0;
    for (const Node* n = marked->parent; n != nullptr && n->kind == NodeKind::element && climbed < kAncestorsAsked;
         n = n->parent, ++climbed) {
        if (n->has_attr("itemscope")) {
            const std::string type = text::to_lower_ascii(text::trim(n->attr("itemtype")));
            return type.ends_with("/comment") || type.ends_with("/answer") || type.ends_with("/review");
        }
    }
    return false;
}

std::string lower_attr(const Node* n, std::string_view name) {
    return text::to_lower_ascii(text::trim(n->attr(name)));
}

// A date in the URL's path: /2025/09/04/ or /2025-09-04.
std::optional<std::string> url_date(std::string_view url) {
    const std::size_t scheme = url.find("://");
    std::string_view path = scheme == std::string_view::npos ? url : url.substr(scheme + 3);
    path = path.substr(std::min(path.find('/'), path.size()));
    path = path.substr(0, path.find_first_of("?#"));
    for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
        const std::string_view rest = path.substr(slash + 1);
        if (rest.size() >= 10 && digits_at(rest, 0, 4) && (rest[4] == '/' || rest[4] == '-') && digits_at(rest, 5, 2) &&
            rest[7] == rest[4] && digits_at(rest, 8, 2) && (rest.size() == 10 || !text::is_ascii_digit(rest[10]))) {
            return ymd(number_at(rest, 0, 4), number_at(rest, 5, 2), number_at(rest, 8, 2));
        }
    }
    return std::nullopt;
}

// What the words just before a date say it is, when not the publication's:
// an update, an edit or a thread's latest post ("Updated Jan 8, 2026", "Last
// post: 01/12/2025"), or a day that is no publication's at all: a member's
// joining, an offer's end ("Joined Nov 4, 2011", "valid through 01/23/2026").
// `reach` is how many bytes before the date are read.
enum class DateLabel { none, update, other };
constexpr std::size_t kLabelReach = 24;  // bytes: "Last updated on:" and some space
DateLabel label_before_date(std::string_view before, std::size_t reach = kLabelReach) {
    before = before.substr(before.size() - std::min(before.size(), reach));
    const std::string lower = text::to_lower_ascii(before);
    static constexpr text::NeedleSet kOther{std::to_array<std::string_view>(
        {"joined", "member since", "valid through", "valid until", "expires", "expiry"})};
    static constexpr text::NeedleSet kUpdate{std::to_array<std::string_view>(
        {"updated", "modified", "edited", "reviewed", "last post", "last reply", "last activity"})};
    return kOther.found_in(lower) ? DateLabel::other : kUpdate.found_in(lower) ? DateLabel::update : DateLabel::none;
}

// The first date written in `s` (first_written_date) that no label before it
// calls an update's or another day's (DateLabel); else the first update's: pages
// that show one date only show the last update as the article's date.
std::optional<std::string> first_date_not_labelled(std::string_view s, std::size_t max_words) {
    std::optional<std::string> first_update;
    for (std::size_t from = 0; from < s.size();) {
        std::size_t at = 0;
        std::optional<std::string> date = first_written_date(s.substr(from), max_words, true, &at);
        if (!date) {
            break;
        }
        const DateLabel label = label_before_date(s.substr(0, from + at));
        if (label == DateLabel::none) {
            return date;
        }
        if (label == DateLabel::update && !first_update) {
            first_update = std::move(date);
        }
        from += at + std::min(s.size() - from - at, std::size_t{4});  // past the date's first word at least
    }
    return first_update;
}

// A date written in the first 400 bytes of text after the page's first <h1>
// with text (`headline`, found by read_authors_and_dates' walk), where bylines
// show it ("By Jane Doe - March 4, 2025"). The last resort for the publication
// date, after every marked-up source.
std::optional<std::string> date_after_headline(const dom::Document& doc, const Node* headline) {
    constexpr std::size_t kWindow = 400;  // bytes; 200 found fewer, 800 as many and more wrong
    const Node* root = doc.root();
    std::string window;
    for (const Node* n = dom::next_node(headline, root, true); n != nullptr && window.size() < kWindow;
         n = dom::next_node(n, root)) {
        if (n->is_text()) {
            const std::string_view piece = text::trim(n->data);
            if (!piece.empty()) {
                window.append(window.empty() ? "" : " ").append(piece);
            }
        }
    }
    return first_date_not_labelled(std::string_view(window).substr(0, kWindow), kWindow);
}

// A date written in the 150 bytes of text just before the headline, where a
// kicker or a dateline above it shows one ("News · March 4, 2025").
// The text just before the headline, kept as the page is walked up to it.
class TextBeforeHeadline {
public:
    void add(std::string_view piece) {
        piece = text::trim(piece);
        if (piece.empty()) {
            return;
        }
        window_.append(window_.empty() ? "" : " ").append(piece);
        if (window_.size() > 4 * kWindow) {
            window_.erase(0, window_.size() - kWindow);
        }
    }
    // The first date written in its last 150 bytes, where a kicker or a
    // dateline above the headline shows one ("News · March 4, 2025").
    [[nodiscard]] std::optional<std::string> date() const {
        std::string_view tail = window_;
        if (tail.size() > kWindow) {
            tail.remove_prefix(tail.size() - kWindow);
            tail.remove_prefix(std::min(tail.find(' '), tail.size()));  // from a word's start
        }
        return first_written_date(tail, kWindow, true);
    }

private:
    static constexpr std::size_t kWindow = 150;  // bytes; 80 found as many, 300 a few more and more wrong
    std::string window_;
};

// Day names and their three-letter forms: a byline's date, not a name.
bool is_day_name(std::string_view word) {
    static constexpr std::array<std::string_view, 7> kDays{"monday", "tuesday", "wednesday", "thursday",
                                                           "friday", "saturday", "sunday"};
    const std::string lower = text::to_lower_ascii(word);
    return std::any_of(kDays.begin(), kDays.end(), [&](std::string_view day) {
        return lower == day || (lower.size() == 3 && day.starts_with(lower));
    });
}

// A part of a byline that is (a piece of) a date: "Dec. 19", "20 Dec", "Sat",
// "June 12".
bool is_date_part(std::string_view part) {
    bool month = false;
    bool digit = false;
    std::size_t words = 0;
    for (std::size_t pos = 0; pos < part.size();) {
        const std::size_t end = std::min(part.find(' ', pos), part.size());
        std::string_view word = part.substr(pos, end - pos);
        while (!word.empty() && (word.back() == '.' || word.back() == ',')) {
            word.remove_suffix(1);
        }
        if (!word.empty()) {
            ++words;
            month = month || (word.size() >= 3 && month_of(word) != 0);
            digit = digit || std::any_of(word.begin(), word.end(), text::is_ascii_digit);
            if (words == 1 && end == part.size() && is_day_name(word)) {
                return true;
            }
        }
        pos = end + 1;
    }
    return month && digit && words <= 3;
}

// A stretch of a byline made of a date's words only: numbers, month and day
// names ("Dec. 19, 2025", "2025", "Sat, 20 Dec").
bool is_date_segment(std::string_view segment) {
    std::size_t words = 0;
    for (std::size_t pos = 0; pos < segment.size();) {
        const std::size_t end = std::min(segment.find(' ', pos), segment.size());
        std::string_view word = segment.substr(pos, end - pos);
        while (!word.empty() && std::ispunct(static_cast<unsigned char>(word.back())) != 0) {
            word.remove_suffix(1);
        }
        if (!word.empty()) {
            ++words;
            const bool number = std::any_of(word.begin(), word.end(), text::is_ascii_digit);
            if (!number && !(word.size() >= 3 && month_of(word) != 0) && !is_day_name(word)) {
                return false;
            }
        }
        pos = end + 1;
    }
    return words > 0;
}

// Whether `line` starts with one of kAuthorMarks as a word ("By Jane", not
// "Byron").
bool starts_with_author_mark(std::string_view line) {
    return std::any_of(kAuthorMarks.begin(), kAuthorMarks.end(), [&](std::string_view mark) {
        return line.size() >= mark.size() && text::iequals_ascii(line.substr(0, mark.size()), mark) &&
               (line.size() == mark.size() || std::isalpha(static_cast<unsigned char>(line[mark.size()])) == 0);
    });
}

// Whether `part` holds a time of day ("11:23"): a date line's, never a name's.
bool holds_a_time(std::string_view part) {
    for (std::size_t colon = part.find(':'); colon != std::string_view::npos; colon = part.find(':', colon + 1)) {
        if (colon > 0 && text::is_ascii_digit(part[colon - 1]) && digits_at(part, colon + 1, 2)) {
            return true;
        }
    }
    return false;
}

// The names of one segment of a byline line, between the separators where
// names end (see names_in_line).
// Whether text holds a letter: an ASCII one, or a character beyond ASCII
// that is not Latin-1's signs ("§", "©", "«") or a mark, arrow or symbol of
// U+2000 to U+2BFF.
bool holds_a_letter(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const char32_t c = text::next_code_point(text, at);
        const bool sign = (c >= 0x80 && c < 0xC0) || (c >= 0x2000 && c < 0x2C00);
        if ((c < 0x80 && std::isalpha(static_cast<int>(c)) != 0) || (c >= 0x80 && !sign)) {
            return true;
        }
    }
    return false;
}

// Whether lower-case text ends as a label about the author does ("Topic
// Author", "About the authors"), not as a name.
bool ends_as_author_label(std::string_view lower) {
    return lower.ends_with("author") || lower.ends_with("authors");
}

std::vector<std::string> names_in_segment(std::string_view rest) {
    // "A, B and C", "A & B", "A; B".
    std::vector<std::string> parts;
    std::string current;
    const auto flush = [&] {
        std::string_view part = text::trim(current);
        // Trailing punctuation goes, but for an initial's full stop and the
        // bracket that closes one the name opened ("Jean Roe (JR)").
        const auto closes_a_bracket = [&] {
            return part.back() == ')' && part.find('(') != std::string_view::npos;
        };
        while (!part.empty() && std::ispunct(static_cast<unsigned char>(part.back())) != 0 && part.back() != '.' &&
               !closes_a_bracket()) {
            part = text::trim(part.substr(0, part.size() - 1));
        }
        while (!part.empty() && (part.front() == '[' || part.front() == '(' || part.front() == '"')) {
            part = text::trim(part.substr(1));
        }
        if (!part.empty()) {
            parts.emplace_back(part);
        }
        current.clear();
    };
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const char c = rest[i];
        if (c == ',' || c == ';' || c == '&') {
            flush();
            continue;
        }
        const std::string_view ahead = rest.substr(i);
        if (ahead.starts_with(" and ") || ahead.starts_with(" And ")) {
            flush();
            i += 4;
            continue;
        }
        current.push_back(c);
    }
    flush();
    std::vector<std::string> names;
    for (std::string& part : parts) {
        if (part.starts_with("and ")) {
            part.erase(0, 4);
        }
        const bool has_letter = holds_a_letter(part);
        const std::string lower_part = text::to_lower_ascii(part);
        // A label ending "author" ("Topic Author", "About the author"); a
        // template's placeholder or default account; a reading time; a
        // brand's or a copyright's line (with its sign).
        const bool author_label = ends_as_author_label(lower_part);
        static constexpr text::WordSet kNoNames{std::to_array<std::string_view>(
            {"by", "posted", "submitted", "undefined", "null", "admin", "administrator", "webmaster"})};
        const bool reading_time = lower_part.ends_with(" min read") || lower_part.ends_with(" mins read") ||
                                  lower_part.ends_with(" minute read") || lower_part.ends_with(" minutes read");
        const bool sign = part.find("\xC2\xA9") != std::string::npos || part.find("\xC2\xAE") != std::string::npos;
        const bool byline_word = author_label || kNoNames.holds(lower_part) || reading_time || sign;
        if (!has_letter || byline_word || part.size() > kLongestName || text::count_words(part) > kMostNameWords ||
            iso_date(part) || is_date_part(part) || holds_a_time(part) || (!names.empty() && is_credential(part))) {
            continue;
        }
        append_names(names, {part});
    }
    // Initials alone ("CM", an avatar's) are no name.
    const auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
    if (names.size() == 1 && names[0].size() <= 3 && std::all_of(names[0].begin(), names[0].end(), upper)) {
        names.clear();
    }
    return names;
}

// The names on one line of a byline (see author_names).
std::vector<std::string> names_in_line(std::string_view raw) {
    std::string line = text::collapse_runs(std::string(text::trim(raw)));
    std::replace(line.begin(), line.end(), '\t', ' ');
    line = text::collapse_runs(line);
    // Words that are an address or a link go: "Newsdesk news@site.example".
    std::string kept;
    for (std::size_t pos = 0; pos < line.size();) {
        const std::size_t end = std::min(line.find(' ', pos), line.size());
        const std::string_view word = std::string_view(line).substr(pos, end - pos);
        if (word.find('@') == std::string_view::npos && !looks_like_link(word)) {
            kept.append(kept.empty() ? "" : " ").append(word);
        }
        pos = end + 1;
    }
    line = std::move(kept);
    // "Written by", "Written By:", "by" (also glued to the name: "byjane" is
    // not read, "Written byJane" and "ByJane" are).
    std::string_view rest = line;
    std::string lower = text::to_lower_ascii(rest);
    const auto is_upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
    for (const std::string_view prefix : kBylinePrefixes) {
        if (!std::string_view(lower).starts_with(prefix)) {
            continue;
        }
        std::size_t after = prefix.size();
        after += after < rest.size() && rest[after] == ':' ? 1 : 0;
        const bool capitalised = is_upper(rest.front()) && !is_upper(rest[1]);
        const bool glued = after < rest.size() && (prefix.find(' ') != std::string_view::npos || capitalised) &&
                           is_upper(rest[after]);
        if (after == rest.size() || rest[after] == ' ' || prefix.back() == ':' || glued ||
            rest[after - 1] == ':') {
            rest = text::trim(rest.substr(after));
            break;
        }
    }
    // The names end where a date, a place or the site begins; a date first
    // ("Dec. 19, 2025 · Jane Doe") puts them after it.
    lower = text::to_lower_ascii(rest);
    std::size_t start = 0;
    for (;;) {
        std::size_t cut = rest.size();
        std::size_t next = rest.size();
        for (const std::string_view end : kNameEnds) {
            if (const std::size_t at = lower.find(end, start); at != std::string::npos && at < cut) {
                cut = at;
                next = at + end.size();
            }
        }
        if (cut == start && start > 0) {  // a separator right after the date
            start = next;
            continue;
        }
        // ... or a year: "EcoFlow- 2025/4/29".
        for (std::size_t i = start + 1; i + 4 <= cut; ++i) {
            if (rest[i - 1] == ' ' && digits_at(rest, i, 4)) {
                cut = i;
                next = i;
                break;
            }
        }
        const std::string_view segment = rest.substr(start, cut - start);
        std::vector<std::string> names = names_in_segment(segment);
        if (!names.empty() || cut == rest.size() || !is_date_segment(segment)) {
            return names;
        }
        start = next;
        while (start < rest.size() && rest[start] == ' ') {
            ++start;
        }
    }
}

}  // namespace

std::optional<std::string> iso_date(std::string_view text) {
    const std::string_view s = text::trim(text);
    if (s.empty() || s.size() > 100) {
        return std::nullopt;
    }
    if (auto iso = iso_form(s)) {
        return iso;
    }
    if (auto numeric = numeric_form(s)) {
        return numeric;
    }
    constexpr std::size_t kDateWords = 8;  // a date field, not a sentence
    return first_written_date(s, kDateWords, false);
}

// A byline's text with each line that starts "and " or "& " joined to the
// line before: "Jane Doe\n and John Roe" is one line of two names.
std::string join_continued_lines(std::string_view text) {
    std::string joined;
    for (std::size_t line_start = 0; line_start <= text.size();) {
        const std::size_t line_end = std::min(text.find('\n', line_start), text.size());
        const std::string_view line = text::trim(text.substr(line_start, line_end - line_start));
        const bool continues = line.starts_with("and ") || line.starts_with("& ");
        if (!line.empty()) {
            if (!joined.empty()) {
                joined.push_back(continues ? ' ' : '\n');
            }
            joined.append(line);
        }
        line_start = line_end + 1;
    }
    return joined;
}

std::vector<std::string> author_names(std::string_view raw) {
    // A byline's lines: the name, then often a role, a date or a share bar.
    // A line that starts "By" or "Written by" names the author; else the
    // first line that holds a name is the byline's ("Post" above "by jdoe
    // » 11 Sep 2024" is a label).
    std::string joined = join_continued_lines(raw);
    // "Ren&eacute;e" in a meta tag escaped twice is one name, not two.
    text::decode_character_references(joined);
    const std::string_view text = joined;
    const bool one_line = text.find('\n') == std::string_view::npos;
    std::vector<std::string> first;
    for (std::size_t line_start = 0; line_start <= text.size();) {
        const std::size_t line_end = std::min(text.find('\n', line_start), text.size());
        const std::string_view line = text::trim(text.substr(line_start, line_end - line_start));
        std::vector<std::string> names = names_in_line(line);
        if (!names.empty() && (one_line || starts_with_author_mark(line))) {
            return names;
        }
        if (first.empty()) {
            first = std::move(names);
        }
        line_start = line_end + 1;
    }
    return first;
}

JsonLdFacts read_json_ld_facts(const dom::Document& doc) {
    JsonLdFacts facts;
    for (const Node* n = doc.root(); n != nullptr; n = dom::next_node(n, doc.root())) {
        if (!n->is(Tag::script) || !text::iequals_ascii(text::trim(n->attr("type")), "application/ld+json")) {
            continue;
        }
        std::string script;
        for (const Node* c = n->first_child; c != nullptr; c = c->next) {
            if (c->is_text()) {
                script.append(c->data);
            }
        }
        const json parsed = parse_json_ld(script);
        if (parsed.is_discarded()) {
            continue;
        }
        if (const json* article = find_json_ld_object(parsed, has_article_type)) {
            if (const auto author = article->find("author"); author != article->end()) {
                facts.authors = json_ld_authors(*author);
            }
            facts.published = json_ld_date(*article, "datePublished");
            facts.modified = json_ld_date(*article, "dateModified");
            break;
        }
    }
    return facts;
}

namespace {

// A poster's name as forums show it: one to 40 bytes on one line.
std::optional<std::string> poster_name(std::string_view raw) {
    std::string name = text::collapse_runs(std::string(text::trim(raw)));
    if (name.empty() || name.size() > 40 || name.find('\n') != std::string::npos) {
        return std::nullopt;
    }
    return name;
}

// Whether a lower-case class list holds `word` bounded by the start, the
// end, a space, '-' or '_' ("post-author" holds "author", "authority" not).
bool holds_class_word(std::string_view lower, std::string_view word) {
    const auto bound = [&](std::size_t at) {
        return at >= lower.size() || lower[at] == ' ' || lower[at] == '-' || lower[at] == '_';
    };
    for (std::size_t at = lower.find(word); at != std::string_view::npos; at = lower.find(word, at + 1)) {
        if ((at == 0 || bound(at - 1)) && bound(at + word.size())) {
            return true;
        }
    }
    return false;
}

// Whether a class list names a user: a word ("username", "post-author",
// "message-name"...) bounded by the start, the end, a space, '-' or '_'.
bool names_a_user(std::string_view classes) {
    static constexpr std::array<std::string_view, 13> kUserWords{
        "username", "user-name", "author", "poster", "creator", "postauthor", "message-name",
        "user-details", "screen-name", "profile-name", "usertext", "postuser", "bigusername"};
    // Every element's class is asked: most hold none of the words anywhere.
    static constexpr text::NeedleSet kAnywhere{kUserWords};
    if (!kAnywhere.found_in(classes)) {
        return false;
    }
    const std::string lower = text::to_lower_ascii(classes);
    return std::any_of(kUserWords.begin(), kUserWords.end(),
                       [&](std::string_view word) { return holds_class_word(lower, word); });
}

// The name an itemprop=author element gives: its itemprop=name (content or
// text), else its own content or text.
std::optional<std::string> itemprop_author_name(const Node* author) {
    for (const Node* n = dom::next_element(author, author); n != nullptr; n = dom::next_element(n, author)) {
        if (text::iequals_ascii(text::trim(n->attr("itemprop")), "name")) {
            const std::string_view content = text::trim(n->attr("content"));
            return poster_name(content.empty() ? std::string_view(element_text(n)) : content);
        }
    }
    const std::string_view content = text::trim(author->attr("content"));
    return poster_name(content.empty() ? element_text(author) : std::string(content));
}

// The particles of names ("Jane van Doe"), written in lower case.
constexpr std::array<std::string_view, 4> kNameParticles{"van", "de", "der", "von"};

}  // namespace

// A person's name as a template shows it: two to four words, each starting
// with a capital (or a letter beyond ASCII) but for the particles, no digits,
// 3 to 40 bytes.
bool looks_like_full_name(std::string_view name) {
    if (name.size() < 3 || name.size() > 40) {
        return false;
    }
    std::size_t words = 0;
    for (std::size_t pos = 0; pos < name.size();) {
        const std::size_t end = std::min(name.find(' ', pos), name.size());
        const std::string_view word = name.substr(pos, end - pos);
        pos = end + 1;
        if (word.empty()) {
            continue;
        }
        if (std::any_of(word.begin(), word.end(), [](char c) {
                return text::is_ascii_digit(c) || c == '|' || c == ':' || c == '@' || c == '/';
            })) {
            return false;
        }
        const auto first = static_cast<unsigned char>(word.front());
        if (std::find(kNameParticles.begin(), kNameParticles.end(), word) != kNameParticles.end() && words > 0) {
            continue;
        }
        if (!(first >= 'A' && first <= 'Z') && first < 0x80) {
            return false;
        }
        ++words;
    }
    return words >= 2 && words <= 4;
}

namespace {

// A link to an author's page: a path segment naming authors, then another.
bool links_an_author_page(std::string_view href) {
    static constexpr std::array<std::string_view, 8> kAuthorPaths{
        "/author/", "/authors/", "/writer/", "/writers/", "/contributor/", "/contributors/", "/staff/", "/people/"};
    // Every link is asked: most hold none of the paths anywhere.
    static constexpr text::NeedleSet kAnywhere{kAuthorPaths};
    if (!kAnywhere.found_in(href)) {
        return false;
    }
    const std::string lower = text::to_lower_ascii(href.substr(0, std::min(href.find_first_of("?#"), href.size())));
    return std::any_of(kAuthorPaths.begin(), kAuthorPaths.end(), [&](std::string_view path) {
        const std::size_t at = lower.find(path);
        return at != std::string::npos && at + path.size() < lower.size() && lower[at + path.size()] != '/';
    });
}

// Words that end a name in a byline: what a template writes after it.
constexpr std::array<std::string_view, 6> kAfterName{"Updated",  "Published", "Posted",
                                                     "Reviewed", "Edited",    "Modified"};

// A member's handle as bylines show one: one word of letters, digits, '.',
// '_' or '-', with a letter, written as handles are (in lower case first, or
// with a digit, '.' or '_'), 2 to 30 bytes, and no placeholder ("admin").
bool is_handle(std::string_view word) {
    constexpr std::size_t kShortest = 2;
    constexpr std::size_t kLongest = 30;
    static constexpr text::WordSet kPlaceholders{
        std::to_array<std::string_view>({"admin", "administrator", "webmaster", "staff", "editor", "guest", "user"})};
    const auto allowed = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
    };
    const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
    const auto handle_mark = [](char c) { return text::is_ascii_digit(c) || c == '.' || c == '_'; };
    const bool written_as_a_handle = (!word.empty() && std::islower(static_cast<unsigned char>(word.front())) != 0) ||
                                     std::any_of(word.begin(), word.end(), handle_mark);
    return word.size() >= kShortest && word.size() <= kLongest && std::all_of(word.begin(), word.end(), allowed) &&
           std::any_of(word.begin(), word.end(), letter) && written_as_a_handle &&
           !kPlaceholders.holds(text::to_lower_ascii(word));
}

// "By Jane Doe" at the start of a short line (after a date or a few
// non-letters at most: "Mar 24, 2025 By Jane Doe", "— by Jane Doe"), the
// name two to four capitalised words, ending at the line's end (a role or a
// date in the next element: "By Jane Doe\nStaff Writer"); "" when the text
// is no such byline. A member's handle alone after "by" is one too.
std::string by_line_name(std::string_view line) {
    const std::string lower = text::to_lower_ascii(line);
    std::size_t by = std::string::npos;
    for (const std::string_view lead : {"written by", "posted by", "by"}) {
        for (std::size_t at = lower.find(lead); at != std::string::npos; at = lower.find(lead, at + 1)) {
            if ((at == 0 || lower[at - 1] == ' ' || lower[at - 1] == '\n') && at + lead.size() < lower.size()) {
                by = at;
                break;
            }
        }
        if (by != std::string::npos) {
            const std::string_view before = text::trim(line.substr(0, by));
            const bool no_letters = before.size() <= 20 && std::none_of(before.begin(), before.end(), [](char c) {
                return std::isalpha(static_cast<unsigned char>(c)) != 0;
            });
            if (!no_letters && !iso_date(before)) {
                return {};
            }
            by += lead.size();
            break;
        }
    }
    if (by == std::string::npos) {
        return {};
    }
    std::string_view rest = line.substr(by);
    if (!rest.empty() && rest.front() == ':') {
        rest.remove_prefix(1);
    }
    rest = text::trim(rest);
    // A member's handle alone on the line ("by jdoe42", "by ibby"); a
    // capitalised word alone ("By Design") is no handle.
    if (const std::string_view handle = rest.substr(0, rest.find('\n')); is_handle(handle)) {
        return std::string(handle);
    }
    // The name: capitalised words (and the particles of names), up to a
    // separator, a lower-case word or the end.
    std::string name;
    std::size_t words = 0;
    for (std::size_t pos = 0; pos < rest.size() && words < 5;) {
        const std::size_t end = std::min(rest.find_first_of(" \n", pos), rest.size());
        std::string_view word = rest.substr(pos, end - pos);
        bool last = end < rest.size() && rest[end] == '\n';
        last = last || (!word.empty() && (word.back() == ',' || word.back() == '|'));
        while (!word.empty() && (word.back() == ',' || word.back() == '|')) {
            word.remove_suffix(1);
        }
        // A sentence's full stop, not an initial's ("Jane Doe." but "Jane T.").
        if (word.size() > 2 && word.back() == '.' && std::isalpha(static_cast<unsigned char>(word[word.size() - 2]))) {
            word.remove_suffix(1);
            last = true;
        }
        const bool capital = !word.empty() && word.front() >= 'A' && word.front() <= 'Z';
        const bool particle = std::find(kNameParticles.begin(), kNameParticles.end(), word) != kNameParticles.end();
        const bool after_name = std::find(kAfterName.begin(), kAfterName.end(), word) != kAfterName.end();
        if (word.empty() || after_name || !(capital || (particle && words > 0))) {
            break;
        }
        name.append(name.empty() ? "" : " ").append(word);
        ++words;
        pos = end + 1;
        if (last) {
            break;
        }
    }
    return looks_like_full_name(name) ? name : std::string();
}

// Whether a leaf element's text may be an author label: every label holds
// "by", "author" or "contributor", and most short leaves hold none, so their text is not
// built. A leaf whose text is split (around a comment) is always read.
bool may_be_author_label(const Node* leaf) {
    static constexpr text::NeedleSet kLabelWords{std::to_array<std::string_view>({"by", "author", "contributor"})};
    const Node* only = leaf->first_child;
    if (only == nullptr || only->next != nullptr) {
        return only != nullptr;
    }
    return !only->is_text() || kLabelWords.found_in(only->data);
}

// A label that puts the author's name in the next element: "Written by",
// "By", "Author:" alone in their element.
bool is_author_label(std::string_view text) {
    static constexpr std::array<std::string_view, 10> kLabels{"written by", "by",          "author",
                                                              "authors",    "posted by",   "words by",
                                                              "story by",   "article by",  "contributor",
                                                              "contributors"};
    std::string lower = text::to_lower_ascii(text::trim(text));
    if (!lower.empty() && lower.back() == ':') {
        lower.pop_back();
    }
    return std::find(kLabels.begin(), kLabels.end(), text::trim(lower)) != kLabels.end();
}

// The day an ISO 8601 date or timestamp starts with.
std::optional<std::chrono::sys_days> iso_day(std::string_view iso) noexcept {
    if (iso.size() < 10 || !digits_at(iso, 0, 4) || iso[4] != '-' || !digits_at(iso, 5, 2) || iso[7] != '-' ||
        !digits_at(iso, 8, 2)) {
        return std::nullopt;
    }
    const std::chrono::year_month_day day{std::chrono::year{number_at(iso, 0, 4)},
                                          std::chrono::month{static_cast<unsigned>(number_at(iso, 5, 2))},
                                          std::chrono::day{static_cast<unsigned>(number_at(iso, 8, 2))}};
    return day.ok() ? std::optional(std::chrono::sys_days{day}) : std::nullopt;
}

// Whether a timestamp (a date with a time of day) falls on the day before or
// after `day`, a date alone: a UTC time of an evening post in the Americas,
// or of a morning post in Asia, beside the site's own day.
bool a_day_off(std::string_view timestamp, std::string_view day) noexcept {
    const std::optional<std::chrono::sys_days> at = iso_day(timestamp);
    const std::optional<std::chrono::sys_days> on = iso_day(day);
    return at && on && timestamp.size() > 10 && timestamp[10] == 'T' &&
           (*at - *on == std::chrono::days{1} || *on - *at == std::chrono::days{1});
}

// Sets `chosen`, when unset, to the first of `candidates` that is set.
void first_of(std::optional<SourcedText>& chosen, std::initializer_list<std::optional<SourcedText>*> candidates) {
    for (std::optional<SourcedText>* candidate : candidates) {
        if (!chosen && *candidate) {
            chosen = **candidate;
        }
    }
}

// Whether `n` is a heading of `tag` with text: the page's headline is its
// first <h1> so, else on a page with none its first <h2> so (a forum's
// topic, a blog whose theme keeps <h1> for the site's name and then leaves it
// out).
bool is_headline(const Node* n, Tag tag) {
    return n->is(tag) && n->ns == dom::Namespace::html && !text::trim(dom::text_content(n)).empty();
}

// Whether an element's class or id names a date: "date", "publish" or
// "posted" in it ("post-date", "entry-published", "postedOn").
bool names_a_date(const Node* n) {
    static constexpr text::NeedleSet kDateWords{std::to_array<std::string_view>({"date", "publish", "posted"})};
    return kDateWords.found_in(n->attr("class")) || kDateWords.found_in(n->attr("id"));
}

// The date a short line holds when no label in it calls it an update's or a
// member's joining ("Published on March 2, 2025", "12.12.2025").
std::optional<std::string> unlabelled_date(std::string_view line) {
    if (std::optional<std::string> date = iso_date(line);
        date && label_before_date(line, line.size()) == DateLabel::none) {
        return date;
    }
    return std::nullopt;
}

// A citation_author(s) tag's names, written "Last, First" (Google Scholar's
// convention), several separated by ';': "Roy, Aniruddha" is "Aniruddha Roy".
std::vector<std::string> citation_names(std::string_view content) {
    std::vector<std::string> names;
    for (std::size_t start = 0; start <= content.size();) {
        const std::size_t end = std::min(content.find(';', start), content.size());
        const std::string_view name = text::trim(content.substr(start, end - start));
        const std::size_t comma = name.find(',');
        if (comma != std::string_view::npos && name.find(',', comma + 1) == std::string_view::npos) {
            const std::string first(text::trim(name.substr(comma + 1)));
            const std::string last(text::trim(name.substr(0, comma)));
            append_names(names, author_names(first + " " + last));
        } else if (!name.empty()) {
            append_names(names, author_names(name));
        }
        start = end + 1;
    }
    return names;
}

// Whether an element or one of its three nearest ancestors has a class
// naming an author as a word ("author-info", "blog_author-text"): a
// template's box about the article's author.
bool in_an_author_box(const Node* node) {
    constexpr std::size_t kAncestorsAsked = 4;
    std::size_t climbed = 0;
    // Every short leaf asks: most classes hold no "author" anywhere.
    static constexpr text::NeedleSet kAuthorWord{std::to_array<std::string_view>({"author"})};
    for (const Node* n = node; n != nullptr && n->is_element() && climbed < kAncestorsAsked; n = n->parent, ++climbed) {
        if (!kAuthorWord.found_in(n->attr("class"))) {
            continue;
        }
        if (holds_class_word(text::to_lower_ascii(n->attr("class")), "author")) {
            return true;
        }
    }
    return false;
}

// A byline without "By" near the headline: a short line of two to five parts
// (lines, or pieces between "|", "•", "·", "—", "–"), one a full name and
// another a date ("Jane Doe | Senior Writer | July 2, 2025", "Jane Doe\nDec 17,
// 2025"). "" when the text is no such line.
std::string name_beside_a_date(std::string_view lines) {
    std::vector<std::string> parts;
    std::string current;
    const auto flush = [&] {
        if (const std::string_view part = text::trim(current); !part.empty()) {
            parts.emplace_back(part);
        }
        current.clear();
    };
    for (std::size_t at = 0; at < lines.size();) {
        const std::string_view rest = lines.substr(at);
        std::size_t cut = 0;
        if (rest.front() == '\n' || rest.front() == '|') {
            cut = 1;
        } else {
            for (const std::string_view mark : {"\xE2\x80\xA2", "\xC2\xB7", "\xE2\x80\x94", "\xE2\x80\x93"}) {
                if (rest.starts_with(mark)) {
                    cut = mark.size();
                }
            }
        }
        if (cut > 0) {
            flush();
            at += cut;
        } else {
            current.push_back(rest.front());
            ++at;
        }
    }
    flush();
    constexpr std::size_t kMostParts = 5;
    constexpr std::size_t kLongestDatePart = 30;
    if (parts.size() < 2 || parts.size() > kMostParts) {
        return {};
    }
    const auto dated = std::any_of(parts.begin(), parts.end(), [&](const std::string& part) {
        return part.size() <= kLongestDatePart && iso_date(part).has_value();
    });
    if (!dated) {
        return {};
    }
    const auto name = std::find_if(parts.begin(), parts.end(), [](const std::string& part) {
        return looks_like_full_name(part);
    });
    return name == parts.end() ? std::string() : *name;
}

}  // namespace

bool in_comment_thread(const Node* node) {
    constexpr std::size_t kAncestorsAsked = 100;
    std::size_t climbed = 0;
    for (const Node* n = node; n != nullptr && n->is_element() && climbed < kAncestorsAsked; n = n->parent, ++climbed) {
        if (text::icontains_ascii(n->attr("class"), "comment") || text::icontains_ascii(n->attr("id"), "comment")) {
            return true;
        }
    }
    return false;
}

AuthorsAndDates read_authors_and_dates(const dom::Document& doc, const JsonLdFacts& json_ld, std::string_view url) {
    AuthorsAndDates out;
    if (!json_ld.authors.empty()) {
        out.authors = json_ld.authors;
        out.authors_source = "json-ld";
    }
    if (json_ld.published) {
        out.published = SourcedText{*json_ld.published, "json-ld"};
    }
    if (json_ld.modified) {
        out.modified = SourcedText{*json_ld.modified, "json-ld"};
    }
    // The most trusted <meta> key of each kind, whichever comes first in the page.
    std::size_t author_rank = kAuthorKeys.size();
    std::size_t published_rank = kPublishedKeys.size();
    std::size_t modified_rank = kModifiedKeys.size();
    std::vector<std::string> meta_authors;
    std::string meta_author_key;
    std::optional<SourcedText> meta_published;
    std::optional<SourcedText> meta_modified;
    std::optional<SourcedText> time_published;
    std::optional<SourcedText> time_modified;
    // A sharing card's label and data pairs, by their number.
    std::vector<std::string> author_label_numbers;
    std::vector<std::pair<std::string, std::string_view>> card_data;
    const Node* first_h2 = nullptr;
    for (const Node* n = doc.root(); n != nullptr; n = dom::next_node(n, doc.root())) {
        if (n->kind != NodeKind::element) {
            continue;
        }
        if (out.headline == nullptr && is_headline(n, Tag::h1)) {
            out.headline = n;
        } else if (out.headline == nullptr && first_h2 == nullptr && is_headline(n, Tag::h2)) {
            first_h2 = n;
        }
        const std::string itemprop = lower_attr(n, "itemprop");
        if (n->is(Tag::meta)) {
            const std::string_view content = text::trim(n->attr("content"));
            if (content.empty()) {
                continue;
            }
            // A reply's itemprop (a comment's date, an answer's author) is not the page's.
            const std::string page_itemprop = itemprop.empty() || in_a_reply(n) ? std::string() : itemprop;
            for (const std::string& key : {lower_attr(n, "property"), lower_attr(n, "name"), page_itemprop}) {
                if (key.empty()) {
                    continue;
                }
                if (key.starts_with(kCardLabel) && is_author_label(content)) {
                    author_label_numbers.push_back(key.substr(kCardLabel.size()));
                } else if (key.starts_with(kCardData)) {
                    card_data.emplace_back(key.substr(kCardData.size()), content);
                }
                const auto rank_in = [&](const auto& keys) {
                    return static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
                };
                // The most trusted key's names; a key repeated (one tag per
                // author, as citation_author is) adds its names.
                if (const std::size_t rank = rank_in(kAuthorKeys);
                    rank <= author_rank && rank < kAuthorKeys.size() && !looks_like_link(content)) {
                    std::vector<std::string> names =
                        key.starts_with("citation_") ? citation_names(content) : author_names(content);
                    if (!names.empty()) {
                        if (rank < author_rank) {
                            meta_authors.clear();
                        }
                        append_names(meta_authors, names);
                        meta_author_key = key;
                        author_rank = rank;
                    }
                }
                if (const std::size_t rank = rank_in(kPublishedKeys); rank < published_rank) {
                    if (std::optional<std::string> date = iso_date(content)) {
                        meta_published = SourcedText{*date, "meta " + key};
                        published_rank = rank;
                    }
                }
                if (const std::size_t rank = rank_in(kModifiedKeys); rank < modified_rank) {
                    if (std::optional<std::string> date = iso_date(content)) {
                        meta_modified = SourcedText{*date, "meta " + key};
                        modified_rank = rank;
                    }
                }
            }
            continue;
        }
        // <time itemprop=datePublished datetime=...>, <span itemprop=dateModified content=...>,
        // <time class="published ...">; a question's itemprop=dateCreated. A
        // reply's (a Comment's, an Answer's, a Review's) is not the page's.
        const bool reply = !itemprop.empty() && in_a_reply(n);
        const bool published_mark = ((itemprop == "datepublished" || itemprop == "datecreated") && !reply) ||
                                    (n->is(Tag::time) && lower_attr(n, "class").find("publish") != std::string::npos);
        const bool modified_mark = itemprop == "datemodified" && !reply;
        if ((published_mark && !time_published) || (modified_mark && !time_modified)) {
            std::string_view value = text::trim(n->attr("datetime"));
            value = value.empty() ? text::trim(n->attr("content")) : value;
            std::optional<std::string> date = value.empty() ? iso_date(element_text(n)) : iso_date(value);
            if (date) {
                const std::string_view source = !published_mark              ? "itemprop dateModified"
                                                : itemprop == "datepublished" ? "itemprop datePublished"
                                                : itemprop == "datecreated"   ? "itemprop dateCreated"
                                                                              : "<time class=published>";
                (published_mark ? time_published : time_modified) = SourcedText{*date, std::string(source)};
            }
        }
        if (n->is(Tag::a) && text::has_token_ascii_ci(n->attr("rel"), "author")) {
            append_names(out.rel_authors, author_names(element_text(n)));
        }
    }
    for (const auto& [number, content] : card_data) {
        if (std::find(author_label_numbers.begin(), author_label_numbers.end(), number) !=
                author_label_numbers.end() &&
            !looks_like_link(content)) {
            append_names(out.card_authors, author_names(content));
        }
    }
    if (!meta_authors.empty()) {
        out.meta_authors = std::move(meta_authors);
        out.meta_authors_source = "meta " + meta_author_key;
        if (out.authors.empty()) {
            out.authors = out.meta_authors;
            out.authors_source = out.meta_authors_source;
        }
    }
    std::optional<SourcedText> in_url;
    if (std::optional<std::string> date = url_date(url)) {
        in_url = SourcedText{*date, "url"};
    }
    // The date shown after the headline: where nothing marks the publication,
    // and beside a JSON-LD date, which it may correct (apply_metadata).
    const bool json_ld_dated = out.published.has_value();
    first_of(out.published, {&meta_published, &time_published, &in_url});
    if (out.headline == nullptr) {
        out.headline = first_h2;
    }
    if (!out.published || json_ld_dated) {
        if (std::optional<std::string> date =
                out.headline != nullptr ? date_after_headline(doc, out.headline) : std::nullopt) {
            out.date_after_headline = SourcedText{*date, "text after the headline"};
        }
    }
    first_of(out.modified, {&meta_modified, &time_modified});
    // A permalink's date is the day the site published on, in its own time
    // zone; a timestamp a day off is the same moment in UTC.
    if (in_url && out.published && a_day_off(out.published->value, in_url->value)) {
        out.published = SourcedText{in_url->value, "url (" + out.published->source + " is a day off)"};
    }
    return out;
}

void read_unmarked_facts(const dom::Document& doc, AuthorsAndDates& out) {
    if (out.unmarked_read) {
        return;
    }
    out.unmarked_read = true;
    std::optional<SourcedText> data_author, itemprop_author, user_class, author_link, labelled_author;
    std::optional<SourcedText> first_time;
    std::optional<SourcedText> date_element;
    std::optional<SourcedText> by_line;
    std::optional<SourcedText> dated_name;
    std::optional<SourcedText> author_box;
    std::size_t after_headline = 0;  // elements seen since the headline
    const Node* const headline = out.headline;
    bool past_headline = false;
    TextBeforeHeadline before_headline;
    const Node* body = doc.body();
    for (const Node* n = doc.root(); n != nullptr; n = dom::next_node(n, doc.root())) {
        if (n->kind != NodeKind::element) {
            if (!past_headline && n->is_text()) {
                before_headline.add(n->data);
            }
            continue;
        }
        if (n == body || (body != nullptr && n->source_index > body->source_index)) {
            if (!data_author && n->has_attr("data-author")) {
                if (std::optional<std::string> name = poster_name(n->attr("data-author"))) {
                    data_author = SourcedText{*name, "data-author"};
                }
            }
            if (!itemprop_author && text::iequals_ascii(text::trim(n->attr("itemprop")), "author") &&
                !dom::inner_text_longer_than(n, 200) && !in_a_reply(n)) {
                if (std::optional<std::string> name = itemprop_author_name(n)) {
                    itemprop_author = SourcedText{*name, "itemprop author"};
                }
            }
            // Names are short: a longer element's text is never built here.
            constexpr std::size_t kLongestShownName = 40;
            constexpr std::size_t kLongestDateLine = 50;  // a date and its label, a weekday and a time
            const auto short_enough = [](const Node* e, std::size_t cap) {
                return !dom::inner_text_longer_than(e, cap);
            };
            if (!user_class && names_a_user(n->attr("class")) && short_enough(n, kLongestShownName)) {
                if (std::optional<std::string> name = poster_name(element_text(n))) {
                    user_class = SourcedText{*name, std::string(AuthorsAndDates::kUserClass)};
                }
            }
            if (!date_element && names_a_date(n) && short_enough(n, kLongestDateLine) && !in_comment_thread(n)) {
                if (std::optional<std::string> date = unlabelled_date(element_text(n))) {
                    date_element = SourcedText{*date, "element named as a date"};
                }
            }
            if (!first_time && n->is(Tag::time) && n->has_attr("datetime") && !in_comment_thread(n)) {
                if (std::optional<std::string> date = iso_date(n->attr("datetime"))) {
                    first_time = SourcedText{*date, "<time>"};
                }
            }
            // A byline written out near the headline: the 150 elements after it.
            constexpr std::size_t kBylineWindow = 150;
            constexpr std::size_t kLongestBylineText = 120;
            if (!by_line && past_headline && ++after_headline <= kBylineWindow &&
                !dom::inner_text_longer_than(n, kLongestBylineText)) {
                const std::string lines = element_lines(n);
                if (std::string name = by_line_name(lines); !name.empty()) {
                    by_line = SourcedText{std::move(name), "by line"};
                } else if (!dated_name) {
                    if (std::string dated = name_beside_a_date(lines); !dated.empty()) {
                        dated_name = SourcedText{std::move(dated), "name beside a date"};
                    }
                }
            }
            // Every leaf is asked: the class checks, cheaper than measuring
            // the text, come first.
            if (!author_box && n->first_element_child() == nullptr && in_an_author_box(n) &&
                short_enough(n, kLongestShownName) && !in_comment_thread(n)) {
                // The box's heading ("About The Author", "Written By") is no name.
                if (std::string name = element_text(n);
                    looks_like_full_name(name) && !is_author_label(name) &&
                    !ends_as_author_label(text::to_lower_ascii(name))) {
                    author_box = SourcedText{std::move(name), "author box"};
                }
            }
            if (!author_link && n->is(Tag::a) && links_an_author_page(n->attr("href")) &&
                short_enough(n, kLongestShownName)) {
                if (std::string name = element_text(n); looks_like_full_name(name)) {
                    author_link = SourcedText{std::move(name), "author link"};
                }
            }
            if (!labelled_author && n->first_element_child() == nullptr && !n->is(Tag::a) &&
                may_be_author_label(n) && short_enough(n, 20) && is_author_label(element_text(n))) {
                // The name is the text right after the label ("<b>Author:</b>
                // Jane Doe"), else the next element's.
                const Node* next = n->next_element_sibling();
                std::string name;
                if (n->next != nullptr && n->next->is_text() && !text::trim(n->next->data).empty()) {
                    name = text::collapse_runs(std::string(text::trim(n->next->data)));
                } else if (next != nullptr && short_enough(next, kLongestShownName)) {
                    name = element_text(next);
                }
                if (looks_like_full_name(name)) {
                    labelled_author = SourcedText{std::move(name), "author label"};
                }
            }
        }
        past_headline = past_headline || n == headline;
    }
    first_of(out.first_poster, {&itemprop_author, &data_author, &user_class});
    first_of(out.shown_author, {&author_link, &labelled_author, &by_line, &dated_name, &author_box});
    first_of(out.first_time, {&first_time});
    first_of(out.date_element, {&date_element});
    if (headline != nullptr && !out.published) {
        if (std::optional<std::string> date = before_headline.date()) {
            out.date_before_headline = SourcedText{*date, "text before the headline"};
        }
    }
}

}  // namespace pith::extract
