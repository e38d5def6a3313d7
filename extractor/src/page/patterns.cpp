#include "page/patterns.hpp"

#include <array>

#include "text/needles.hpp"
#include "text/text.hpp"

namespace pith::patterns {

namespace {

constexpr bool is_word_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

constexpr bool is_space(char c) noexcept {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// Source: Readability.js 0.6 REGEXPS.unlikelyCandidates.
constexpr std::array<std::string_view, 31> kUnlikely = {
    "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
    "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
    "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
    "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote"};
constexpr std::array<std::string_view, 7> kMaybe = {"and", "article", "body", "column", "content", "main", "shadow"};
constexpr std::array<std::string_view, 13> kPositive = {"article", "body", "content", "entry", "hentry", "h-entry", "main",
                                                        "page", "pagination", "post", "text", "blog", "story"};
constexpr std::array<std::string_view, 23> kNegative = {
    "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr", "masthead", "media", "meta",
    "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping",
    "tags"};
constexpr std::array<std::string_view, 5> kByline = {"byline", "author", "dateline", "writtenby", "p-author"};
constexpr text::NeedleSet kUnlikelySet{kUnlikely};
constexpr text::NeedleSet kMaybeSet{kMaybe};
constexpr text::NeedleSet kPositiveSet{kPositive};
constexpr text::NeedleSet kNegativeSet{kNegative};
constexpr text::NeedleSet kBylineSet{kByline};

// Whole-string, case-insensitive match of one of `words`, optionally followed
// by "…" or "..." when `allow_ellipsis`.
template <std::size_t N>
bool whole_word(std::string_view s, const std::array<std::string_view, N>& words, bool allow_ellipsis) noexcept {
    for (std::string_view w : words) {
        if (!text::istarts_with_ascii(s, w)) {
            continue;
        }
        // Non-ASCII words must match byte for byte (case folding there is not needed
        // for the scripts listed: CJK has no case; Cyrillic forms are listed as used).
        std::string_view rest = s.substr(w.size());
        if (rest.empty() || (allow_ellipsis && (rest == "..." || rest == "\xE2\x80\xA6"))) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool unlikely_candidate(std::string_view s) noexcept {
    return kUnlikelySet.found_in(s);
}

bool maybe_candidate(std::string_view s) noexcept {
    return kMaybeSet.found_in(s);
}

bool positive(std::string_view s) noexcept {
    return kPositiveSet.found_in(s);
}

bool negative(std::string_view s) noexcept {
    if (kNegativeSet.found_in(s) || text::icontains_ascii(s, "widget")) {
        return true;
    }
    // ^hid$ | hid$ | hid |^hid : "hid" as a space-delimited token.
    for (std::size_t pos = 0; (pos = s.find("hid", pos)) != std::string_view::npos; pos += 3) {
        const bool left = pos == 0 || s[pos - 1] == ' ';
        const bool right = pos + 3 == s.size() || s[pos + 3] == ' ';
        if (left && right) {
            return true;
        }
    }
    // The regex is case-insensitive: check upper/mixed case "hid" tokens too.
    const std::string lower = text::to_lower_ascii(s);
    if (lower != s) {
        for (std::size_t pos = 0; (pos = lower.find("hid", pos)) != std::string::npos; pos += 3) {
            const bool left = pos == 0 || lower[pos - 1] == ' ';
            const bool right = pos + 3 == lower.size() || lower[pos + 3] == ' ';
            if (left && right) {
                return true;
            }
        }
    }
    return false;
}

bool byline(std::string_view s) noexcept {
    return kBylineSet.found_in(s);
}

bool share_element(std::string_view s) noexcept {
    const std::string lower = text::to_lower_ascii(s);
    for (std::string_view word : {std::string_view("share"), std::string_view("sharedaddy")}) {
        for (std::size_t pos = 0; (pos = lower.find(word, pos)) != std::string::npos; ++pos) {
            const std::size_t end = pos + word.size();
            const bool left = pos == 0 || !is_word_char(lower[pos - 1]) || lower[pos - 1] == '_';
            const bool right = end == lower.size() || !is_word_char(lower[end]) || lower[end] == '_';
            if (left && right) {
                return true;
            }
        }
    }
    return false;
}

bool allowed_video(std::string_view s) noexcept {
    static constexpr std::array<std::string_view, 9> kHosts = {
        "dailymotion.com", "youtube.com", "youtube-nocookie.com", "player.vimeo.com", "v.qq.com",
        "archive.org", "upload.wikimedia.org", "player.twitch.tv", ""};
    for (std::size_t pos = 0; (pos = s.find("//", pos)) != std::string_view::npos; pos += 2) {
        std::string_view rest = s.substr(pos + 2);
        for (int with_www = 0; with_www < 2; ++with_www) {
            if (with_www == 1) {
                if (!text::istarts_with_ascii(rest, "www.")) {
                    break;
                }
                rest = rest.substr(4);
            }
            for (std::string_view host : kHosts) {
                if (!host.empty() && text::istarts_with_ascii(rest, host)) {
                    return true;
                }
            }
        }
    }
    return false;
}

bool ad_words(std::string_view s) noexcept {
    // Source: Readability.js 0.6 REGEXPS.adWords, expanded alternatives.
    static constexpr std::array<std::string_view, 10> kWords = {
        "ad", "advertising", "advertisement", "pub", "publicit\xC3\xA9", "werb", "werbung",
        "\xE5\xB9\xBF\xE5\x91\x8A", "\xD0\xA0\xD0\xB5\xD0\xBA\xD0\xBB\xD0\xB0\xD0\xBC\xD0\xB0", "anuncio"};
    return whole_word(s, kWords, false) || text::iequals_ascii(s, "PUBLICIT\xC3\x89") ||
           s == "\xD1\x80\xD0\xB5\xD0\xBA\xD0\xBB\xD0\xB0\xD0\xBC\xD0\xB0" ||
           s == "\xD0\xA0\xD0\x95\xD0\x9A\xD0\x9B\xD0\x90\xD0\x9C\xD0\x90";
}

bool loading_words(std::string_view s) noexcept {
    // Source: Readability.js 0.6 REGEXPS.loadingWords (/iu: the Cyrillic word is
    // listed in both the capitalised and the lower-case form it appears in).
    static constexpr std::array<std::string_view, 6> kWords = {
        "loading", "\xE6\xAD\xA3\xE5\x9C\xA8\xE5\x8A\xA0\xE8\xBD\xBD",
        "\xD0\x97\xD0\xB0\xD0\xB3\xD1\x80\xD1\x83\xD0\xB7\xD0\xBA\xD0\xB0",
        "\xD0\xB7\xD0\xB0\xD0\xB3\xD1\x80\xD1\x83\xD0\xB7\xD0\xBA\xD0\xB0", "chargement", "cargando"};
    return whole_word(s, kWords, true);
}

bool hash_url(std::string_view s) noexcept {
    return s.size() >= 2 && s[0] == '#';
}

std::size_t comma_split_count(std::string_view s) noexcept {
    // U+002C, U+060C, U+FE50, U+FE10, U+FE11, U+2E41, U+2E34, U+2E32, U+FF0C.
    std::size_t count = 1;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const auto b = static_cast<unsigned char>(s[pos]);
        if (b == ',') {
            ++count;
            ++pos;
            continue;
        }
        if (b < 0x80) {
            ++pos;
            continue;
        }
        const char32_t c = text::next_code_point(s, pos);
        count += static_cast<std::size_t>(c == 0x060C || c == 0xFE50 || c == 0xFE10 || c == 0xFE11 ||
                                          c == 0x2E41 || c == 0x2E34 || c == 0x2E32 || c == 0xFF0C);
    }
    return count;
}

namespace {
constexpr std::array<std::string_view, 4> kImageExtensions = {"jpg", "jpeg", "png", "webp"};

// Length of an image extension (without the dot) at `pos`, 0 if none.
std::size_t image_extension_at(std::string_view s, std::size_t pos, bool case_insensitive) noexcept {
    for (std::string_view ext : kImageExtensions) {
        const std::string_view candidate = s.substr(pos, ext.size());
        if (case_insensitive ? text::iequals_ascii(candidate, ext) : candidate == ext) {
            // "jpeg" must win over "jpg"-less prefixes: both are distinct strings, fine.
            return ext.size();
        }
    }
    return 0;
}
}  // namespace

bool has_image_extension(std::string_view s) noexcept {
    for (std::size_t pos = 0; (pos = s.find('.', pos)) != std::string_view::npos; ++pos) {
        if (image_extension_at(s, pos + 1, true) != 0) {
            return true;
        }
    }
    return false;
}

bool looks_like_srcset(std::string_view s) noexcept {
    for (std::size_t pos = 0; (pos = s.find('.', pos)) != std::string_view::npos; ++pos) {
        for (std::string_view ext : kImageExtensions) {
            if (s.substr(pos + 1, ext.size()) != ext) {
                continue;
            }
            std::size_t i = pos + 1 + ext.size();
            const std::size_t spaces_start = i;
            while (i < s.size() && is_space(s[i])) {
                ++i;
            }
            if (i > spaces_start && i < s.size() && text::is_ascii_digit(s[i])) {
                return true;
            }
        }
    }
    return false;
}

bool looks_like_image_url(std::string_view s) noexcept {
    std::size_t begin = 0;
    std::size_t end = s.size();
    while (begin < end && is_space(s[begin])) {
        ++begin;
    }
    while (end > begin && is_space(s[end - 1])) {
        --end;
    }
    const std::string_view token = s.substr(begin, end - begin);
    for (char c : token) {
        if (is_space(c)) {
            return false;  // \S+ ... \S* cannot span white space
        }
    }
    // \S+ then ".ext" then \S*: some '.' at index >= 1 followed by an extension.
    for (std::size_t pos = 1; pos < token.size(); ++pos) {
        if (token[pos] != '.') {
            continue;
        }
        for (std::string_view ext : kImageExtensions) {
            if (token.substr(pos + 1, ext.size()) == ext) {
                return true;
            }
        }
    }
    return false;
}

std::size_t base64_data_url_prefix(std::string_view s, std::string_view& mime) noexcept {
    // /^data:\s*([^\s;,]+)\s*;\s*base64\s*,/i
    if (!text::istarts_with_ascii(s, "data:")) {
        return 0;
    }
    std::size_t i = 5;
    while (i < s.size() && is_space(s[i])) {
        ++i;
    }
    const std::size_t mime_start = i;
    while (i < s.size() && !is_space(s[i]) && s[i] != ';' && s[i] != ',') {
        ++i;
    }
    if (i == mime_start) {
        return 0;
    }
    mime = s.substr(mime_start, i - mime_start);
    while (i < s.size() && is_space(s[i])) {
        ++i;
    }
    if (i >= s.size() || s[i] != ';') {
        return 0;
    }
    ++i;
    while (i < s.size() && is_space(s[i])) {
        ++i;
    }
    if (!text::istarts_with_ascii(s.substr(i), "base64")) {
        return 0;
    }
    i += 6;
    while (i < s.size() && is_space(s[i])) {
        ++i;
    }
    if (i >= s.size() || s[i] != ',') {
        return 0;
    }
    return i + 1;
}

}  // namespace pith::patterns
