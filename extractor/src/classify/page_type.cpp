// The page-type classifier's signals and model (page_type.hpp).
#include "classify/page_type.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "dom/walk.hpp"
#include "models/forest.hpp"
#include "page/predicates.hpp"
#include "text/ascii_block.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// ---- the features, by name ----

// Words of the web's common URL vocabulary, by the kind of page they mark
// (segments of a path, matched whole). Chosen by hand from what forum,
// shop, documentation and CMS software put in their URLs; not fitted.
constexpr std::string_view kForumPath[] = {"forum", "forums", "thread", "threads", "topic", "topics", "t", "d",
                                           "discussion", "discussions", "community", "questions", "question",
                                           "q", "comments", "viewtopic", "showthread", "r", "answers"};
constexpr std::string_view kProductPath[] = {"product", "products", "p", "item", "items", "buy", "sku"};
constexpr std::string_view kCollectionPath[] = {"collection", "collections", "category", "categories", "c",
                                                "catalog", "shop", "tag", "tags", "search", "s", "browse",
                                                "store", "deals", "brands", "brand"};
constexpr std::string_view kArticlePath[] = {"blog", "news", "article", "articles", "post", "posts", "story",
                                             "stories", "opinion"};
constexpr std::string_view kDocsPath[] = {"docs", "doc", "documentation", "api", "reference", "guide", "guides",
                                          "manual", "tutorial", "tutorials", "learn", "wiki", "library",
                                          "developer", "developers", "help", "kb", "support"};
constexpr std::string_view kServicePath[] = {"pricing", "features", "solutions", "services", "service", "about",
                                             "contact", "enterprise", "platform", "plans", "why", "customers",
                                             "integrations", "industries", "use-cases"};
constexpr std::string_view kForumHost[] = {"forum", "forums", "community", "discuss", "discussion", "talk",
                                           "boards", "answers"};
constexpr std::string_view kDocsHost[] = {"docs", "doc", "developer", "developers", "dev", "help", "support",
                                          "learn", "api", "wiki", "kb"};
constexpr std::string_view kShopHost[] = {"shop", "store", "buy"};
constexpr std::string_view kBlogHost[] = {"blog", "news", "magazine"};

// schema.org types by the kind of page they declare.
constexpr std::string_view kLdArticle[] = {"article", "newsarticle", "blogposting", "report", "scholarlyarticle",
                                           "liveblogposting", "reportagenewsarticle", "analysisnewsarticle",
                                           "opinionnewsarticle", "posting"};
constexpr std::string_view kLdProduct[] = {"product", "offer", "aggregateoffer", "productgroup", "individualproduct"};
constexpr std::string_view kLdForum[] = {"discussionforumposting", "qapage", "question", "answer", "comment",
                                         "socialmediaposting"};
constexpr std::string_view kLdCollection[] = {"collectionpage", "itemlist", "searchresultspage", "offercatalog",
                                              "listitem"};
constexpr std::string_view kLdDocs[] = {"techarticle", "apireference", "howto", "softwaresourcecode"};
constexpr std::string_view kLdService[] = {"service", "softwareapplication", "faqpage", "localbusiness",
                                           "organization", "professionalservice", "webapplication", "corporation"};
constexpr std::string_view kLdWebPage[] = {"webpage", "website", "aboutpage", "contactpage"};

// Words of class and id values by which templates name their parts (as
// Readability's class patterns do).
constexpr std::string_view kClassWords[] = {
    "comment", "reply",  "post",    "thread",     "forum",      "vote",    "answer",  "avatar", "author",
    "message", "product", "price",  "cart",       "sku",        "rating",  "review",  "variant", "quantity",
    "card",    "grid",   "tile",    "item",       "result",     "listing", "pagination", "filter", "facet",
    "sort",    "docs",   "toc",     "api",        "highlight",  "hero",    "pricing", "feature", "testimonial",
    "faq",     "plan",   "signup",  "article",    "entry",      "byline",  "breadcrumb", "btn",  "button",
    "cta",     "teaser", "excerpt", "summary",    "thumb",      "meta",    "date",    "tag",     "category",
    "widget",  "share",  "social",  "logo",       "banner",     "section", "row",     "col",     "container"};
constexpr std::size_t kClassWordCount = std::size(kClassWords);

// kClassWords by their first two letters, so that one scan of a class or id
// value finds every word it holds (the walk visits every element: a search per
// word cost more than the rest of the walk, and an index by first letter alone
// still tried a dozen words at each 'c').
struct ClassWordIndex {
    static constexpr std::size_t kMaxPerPair = 4;
    std::array<std::array<std::uint8_t, kMaxPerPair>, 26 * 26> words{};
    std::array<std::uint8_t, 26 * 26> counts{};
};

constexpr std::size_t letter_pair(char first, char second) noexcept {
    return static_cast<std::size_t>(first - 'a') * 26 + static_cast<std::size_t>(second - 'a');
}

constexpr ClassWordIndex make_class_word_index() {
    ClassWordIndex index;
    for (std::size_t i = 0; i < kClassWordCount; ++i) {
        const std::size_t pair = letter_pair(kClassWords[i][0], kClassWords[i][1]);
        index.words[pair][index.counts[pair]++] = static_cast<std::uint8_t>(i);
    }
    return index;
}
constexpr ClassWordIndex kClassWordIndex = make_class_word_index();

constexpr char lower_ascii(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool is_lower_letter(char c) noexcept { return c >= 'a' && c <= 'z'; }

// Marks in `seen` the class words `value` holds anywhere, ASCII case ignored.
void mark_class_words(std::string_view value, std::array<bool, kClassWordCount>& seen) noexcept {
    for (std::size_t pos = 0; pos + 1 < value.size(); ++pos) {
        const char first = lower_ascii(value[pos]);
        const char second = lower_ascii(value[pos + 1]);
        if (!is_lower_letter(first) || !is_lower_letter(second)) {
            continue;
        }
        const std::size_t pair = letter_pair(first, second);
        for (std::size_t k = 0; k < kClassWordIndex.counts[pair]; ++k) {
            const std::size_t w = kClassWordIndex.words[pair][k];
            const std::string_view word = kClassWords[w];
            if (seen[w] || word.size() > value.size() - pos) {
                continue;
            }
            std::size_t j = 2;
            while (j < word.size() && lower_ascii(value[pos + j]) == word[j]) {
                ++j;
            }
            seen[w] = j == word.size();
        }
    }
}

// Words and phrases of the web's common vocabulary that name what a kind of
// page offers its reader: replies and members on a forum, a cart and stock on
// a product page, sorting and filters on a grid, "read more" on a listing,
// "on this page" in documentation, demos and trials on a service page, "min
// read" on an article. Chosen by hand from what shop, forum, documentation
// and CMS software print, not fitted; counted apart in the page's <title> and
// h1-h3 headings and in the text of its links and buttons. Sorted: the
// phrases that begin with the same two letters are one run (kPhraseIndex).
constexpr std::string_view kKindPhrases[] = {
    "add to bag", "add to basket", "add to cart", "add to wishlist", "all posts", "answer", "answers", "api",
    "archive", "archives", "asked", "author", "book a demo", "brand", "buy now", "by", "categories", "clear all",
    "color", "comments", "contact us", "continue reading", "customers", "description", "docs", "documentation",
    "edit this page", "example", "features", "filter", "filters", "free shipping", "free trial", "get a quote",
    "get started", "getting started", "guide", "how it works", "in stock", "installation", "introduction", "items",
    "joined", "last post", "latest", "learn more", "leave a comment", "load more", "log in to reply", "member",
    "members", "min read", "moderator", "newer posts", "newsletter", "next", "next page", "older posts",
    "on this page", "our team", "out of stock", "overview", "page 2", "parameters", "per page", "permalink", "plans",
    "posted", "posts", "previous", "price", "pricing", "product details", "products", "published", "quantity",
    "quote", "read more", "reference", "related", "related articles", "replies", "reply", "report", "request a demo",
    "results", "returns", "reviews", "services", "share", "shipping", "shop", "show more", "sign up", "size", "sku",
    "solutions", "solved", "sort by", "specifications", "start free", "subscribe", "table of contents",
    "talk to sales", "testimonials", "thread", "topic", "try it free", "tutorial", "updated", "version", "view all",
    "view more", "views", "votes", "wishlist", "write a review",};
constexpr std::size_t kKindPhraseCount = std::size(kKindPhrases);
static_assert(kKindPhraseCount == kKindPhraseFeatureCount);

constexpr bool is_word_byte(char c) noexcept {
    const auto b = static_cast<unsigned char>(c);
    return b >= 0x80 || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || c == '_';
}

// Sorted phrases (kKindPhrases) by their first two letters: those a pair
// begins are one run, [begin, begin + count).
struct LetterPairRuns {
    std::array<std::uint16_t, 26 * 26> begin{};
    std::array<std::uint16_t, 26 * 26> count{};
};

constexpr LetterPairRuns make_letter_pair_runs(std::span<const std::string_view> sorted) {
    LetterPairRuns runs;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (sorted[i].size() < 2 || !is_lower_letter(sorted[i][0]) || !is_lower_letter(sorted[i][1]) ||
            (i > 0 && !(sorted[i - 1] < sorted[i]))) {
            throw "sorted, each starting with two lowercase letters";  // not a constant: the build stops
        }
        const std::size_t pair = letter_pair(sorted[i][0], sorted[i][1]);
        if (runs.count[pair]++ == 0) {
            runs.begin[pair] = static_cast<std::uint16_t>(i);
        }
    }
    return runs;
}
constexpr LetterPairRuns kPhraseIndex = make_letter_pair_runs(kKindPhrases);

// Whether `phrase` is read in `text` from `pos`, where a word begins, to a
// word's end: letters ASCII case ignored, each space of the phrase standing
// for any run of bytes that are no word's.
bool phrase_at(std::string_view text, std::size_t pos, std::string_view phrase) noexcept {
    for (const char c : phrase) {
        if (c == ' ') {
            if (pos >= text.size() || is_word_byte(text[pos])) {
                return false;
            }
            while (pos < text.size() && !is_word_byte(text[pos])) {
                ++pos;
            }
        } else if (pos >= text.size() || lower_ascii(text[pos++]) != c) {
            return false;
        }
    }
    return pos == text.size() || !is_word_byte(text[pos]);
}

// Counts into `counts` the kind phrases `text` holds, each matched from the
// start of a word (a run of letters, digits and any non-ASCII bytes) to the
// end of one. Most words begin no phrase: their first two letters say so.
void count_kind_phrases(std::string_view text, std::array<std::uint16_t, kKindPhraseCount>& counts) noexcept {
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && !is_word_byte(text[pos])) {
            ++pos;
        }
        if (pos + 1 < text.size()) {
            const char first = lower_ascii(text[pos]);
            const char second = lower_ascii(text[pos + 1]);
            if (is_lower_letter(first) && is_lower_letter(second)) {
                const std::size_t pair = letter_pair(first, second);
                for (std::size_t i = kPhraseIndex.begin[pair]; i < kPhraseIndex.begin[pair] + kPhraseIndex.count[pair];
                     ++i) {
                    if (phrase_at(text, pos, kKindPhrases[i]) && counts[i] < 0xFFFF) {
                        ++counts[i];
                    }
                }
            }
        }
        while (pos < text.size() && is_word_byte(text[pos])) {
            ++pos;
        }
    }
}

// ---- the page words ----

// What a byte is to for_each_word.
// mark: a digit, '_' or a non-ASCII byte; lead: 0xC2 or 0xE2, which may begin
// a character that ends a word.
enum class WordByte : std::uint8_t { other, letter, mark, lead };

constexpr std::array<WordByte, 256> make_word_bytes() {
    std::array<WordByte, 256> kinds{};
    for (std::size_t b = 0; b < kinds.size(); ++b) {
        const bool letter = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
        const bool mark = (b >= '0' && b <= '9') || b == '_' || b >= 0x80;
        kinds[b] = letter ? WordByte::letter : b == 0xC2 || b == 0xE2 ? WordByte::lead
                                            : mark                  ? WordByte::mark
                                                                    : WordByte::other;
    }
    return kinds;
}
constexpr std::array<WordByte, 256> kWordBytes = make_word_bytes();

// Calls on_word for each word of `s`: a run of ASCII letters, digits, '_'
// and non-ASCII characters but the no-break space and U+2000-U+206F (spaces,
// dashes, quotes), which end a word as ASCII punctuation and white space do.
// on_word gets the word lowercased when it is 2 to kMaxPageWordLength ASCII
// letters, else "" (it still counts toward the page's words).
template <typename OnWord>
void for_each_word(std::string_view s, OnWord&& on_word) {
    std::array<char, kMaxPageWordLength> word{};
    std::size_t length = 0;
    bool letters_only = true;
    bool in_word = false;
    const auto finish = [&] {
        if (in_word) {
            const bool kept = letters_only && length >= 2 && length <= kMaxPageWordLength;
            on_word(kept ? std::string_view(word.data(), length) : std::string_view());
        }
        in_word = false;
        letters_only = true;
        length = 0;
    };
    const auto byte_at = [&](std::size_t i) -> unsigned char {
        return i < s.size() ? static_cast<unsigned char>(s[i]) : static_cast<unsigned char>(0);
    };
    for (std::size_t pos = 0; pos < s.size(); ++pos) {
        const auto b = static_cast<unsigned char>(s[pos]);
        switch (kWordBytes[b]) {
        case WordByte::letter:
            if (length < kMaxPageWordLength) {
                word[length] = static_cast<char>(b | 0x20U);
            }
            ++length;
            in_word = true;
            break;
        case WordByte::other: finish(); break;
        case WordByte::lead: {
            const unsigned char second = byte_at(pos + 1);
            if (b == 0xC2 ? second == 0xA0 : second == 0x80 || (second == 0x81 && byte_at(pos + 2) < 0xB0)) {
                finish();  // U+00A0, U+2000-U+206F
                pos += b == 0xC2 ? 1 : 2;
                break;
            }
            [[fallthrough]];
        }
        case WordByte::mark:
            letters_only = false;
            in_word = true;
            break;
        }
    }
    finish();
}

constexpr bool page_words_well_formed() {
    return std::all_of(kPageWords.begin(), kPageWords.end(),
                       [](std::string_view word) {
                           return word.size() >= 2 && word.size() <= kMaxPageWordLength &&
                                  std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
                       }) &&
           std::adjacent_find(kPageWords.begin(), kPageWords.end(), std::greater_equal<>()) == kPageWords.end();
}
static_assert(page_words_well_formed(),
              "page_words.inc: sorted, once each, lowercase words of 2 to kMaxPageWordLength letters");
// kPageWords by a hash of the word, open-addressed (linear probing) at a
// load under 0.3: every word of every page is looked up, most in vain, so a
// lookup costs a hash and one or two probes where a search of the sorted
// words would compare a few.
constexpr std::uint32_t word_hash(std::string_view word) {
    std::uint32_t hash = 2166136261U;  // FNV-1a
    for (const char c : word) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
    }
    return hash;
}
constexpr std::size_t kWordTableSize = std::bit_ceil(kPageWordCount * 2 + 1);
static_assert(kPageWordCount < 0xFFFF, "page_words.inc: a slot must fit in 16 bits");
using WordTable = std::array<std::uint16_t, kWordTableSize>;  // kPageWordCount: an empty place

constexpr WordTable make_word_table() {
    WordTable table{};
    table.fill(static_cast<std::uint16_t>(kPageWordCount));
    for (std::size_t slot = 0; slot < kPageWordCount; ++slot) {
        std::size_t place = word_hash(kPageWords[slot]) & (kWordTableSize - 1);
        while (table[place] != kPageWordCount) {
            place = (place + 1) & (kWordTableSize - 1);
        }
        table[place] = static_cast<std::uint16_t>(slot);
    }
    return table;
}
constexpr WordTable kWordTable = make_word_table();

// `word`'s place in kPageWords, or kPageWordCount.
std::size_t page_word_slot(std::string_view word) noexcept {
    for (std::size_t place = word_hash(word) & (kWordTableSize - 1); kWordTable[place] != kPageWordCount;
         place = (place + 1) & (kWordTableSize - 1)) {
        if (kPageWords[kWordTable[place]] == word) {
            return kWordTable[place];
        }
    }
    return kPageWordCount;
}

namespace text_model {
#include "classify/text_model.inc"
static_assert(kTextWordModels.size() == kPageWordCount &&
                  kTextWeights.size() == kTextModels * kPageWordCount * kPageTypeCount,
              "text_model.inc: a mask for each of kPageWords, seven weights for each word of each model: refit");
}  // namespace text_model

// A word's `count` uses among a page's `total` words, per 1,000 words.
double per_thousand_words(std::uint32_t count, std::size_t total) noexcept {
    return 1000.0 * static_cast<double>(count) / static_cast<double>(std::max<std::size_t>(total, 1));
}

// The text model's scores of the page whose kPageWords counts are `counts`
// among `total` words: for each type, the mean over the model's words on
// the page, weighted by x = log(1 + uses per 1,000 words), of its weight
// (log P(word | type), less its mean over the types), less the best type's.
std::array<double, kPageTypeCount> text_scores(std::span<const std::uint32_t, kPageWordCount> counts,
                                               std::size_t total, int fold) noexcept {
    using namespace text_model;
    const std::size_t model = models::model_for_fold(fold, kTextModels);
    const auto weights = std::span(kTextWeights).subspan(model * kPageWordCount * kPageTypeCount);
    std::array<double, kPageTypeCount> scores{};
    double weight = 0.0;
    for (std::size_t slot = 0; slot < kPageWordCount; ++slot) {
        if (counts[slot] == 0 || ((kTextWordModels[slot] >> model) & 1U) == 0) {
            continue;
        }
        const double x = std::log1p(per_thousand_words(counts[slot], total));
        weight += x;
        for (std::size_t type = 0; type < kPageTypeCount; ++type) {
            scores[type] += x * (weights[slot * kPageTypeCount + type] / kTextScale);
        }
    }
    if (weight > 0.0) {
        for (double& score : scores) {
            score /= weight;
        }
    }
    const double best = *std::max_element(scores.begin(), scores.end());
    for (double& score : scores) {
        score -= best;
    }
    return scores;
}

// The tags whose counts tell kinds apart.
constexpr Tag kCountedTags[] = {Tag::p,       Tag::h1,     Tag::h2,     Tag::h3,         Tag::li,     Tag::a,
                                Tag::img,     Tag::pre,    Tag::code,   Tag::table,      Tag::form,   Tag::input,
                                Tag::button,  Tag::select, Tag::article, Tag::section,   Tag::time,   Tag::nav,
                                Tag::aside,   Tag::header, Tag::footer, Tag::main,       Tag::blockquote, Tag::dl,
                                Tag::textarea, Tag::ul,    Tag::iframe, Tag::figure,     Tag::video};
constexpr std::size_t kTagCount = std::size(kCountedTags);

// Each tag's place in kCountedTags, -1 for tags not counted; h4-h6 count as
// h3 and ol as ul.
constexpr std::array<int, static_cast<std::size_t>(Tag::count_)> make_tag_slots() {
    std::array<int, static_cast<std::size_t>(Tag::count_)> slots{};
    slots.fill(-1);
    for (std::size_t i = 0; i < kTagCount; ++i) {
        slots[static_cast<std::size_t>(kCountedTags[i])] = static_cast<int>(i);
    }
    for (const Tag more : {Tag::h4, Tag::h5, Tag::h6}) {
        slots[static_cast<std::size_t>(more)] = slots[static_cast<std::size_t>(Tag::h3)];
    }
    slots[static_cast<std::size_t>(Tag::ol)] = slots[static_cast<std::size_t>(Tag::ul)];
    return slots;
}
constexpr std::array<int, static_cast<std::size_t>(Tag::count_)> kTagSlots = make_tag_slots();

enum Feature : std::size_t {
    url_known, url_depth, url_root, url_query, url_last_digits, url_last_length, url_last_dashes, url_file_ext,
    url_year, url_forum, url_product, url_collection, url_article, url_docs, url_service, host_forum, host_docs,
    host_shop, host_blog, host_subdomain,
    ld_article, ld_product, ld_forum, ld_collection, ld_docs, ld_service, ld_webpage, ld_breadcrumb,
    og_article, og_product, og_website, og_other,
    log_words, log_elements, link_density, p_share, long_paragraphs, paragraph_words, paragraphs_per_heading,
    headings_linked, headings, prices, dates, sentence_marks, itemprop_price, itemprop_author, itemprop_review,
    repeated_count, repeated_share, repeated_link_density, repeated_item_words, svg_count,
    linked_heading_count, longest_paragraph, block_share, headed_sections, headed_group_count, headed_group_share,
    chrome_share, h1_count, images_per_word, list_link_density, second_group_count, second_group_share,
    tags_begin,  // kTagCount log counts
    classes_begin = tags_begin + kTagCount,  // kClassWordCount log counts
    layout_end = classes_begin + kClassWordCount,
    heading_phrases_begin = layout_end,  // kKindPhraseCount log counts in the <title> and h1-h3
    action_phrases_begin = heading_phrases_begin + kKindPhraseCount,  // and in links and buttons
    question_marks = action_phrases_begin + kKindPhraseCount,
    phone_links, mail_links, email_fields,
    page_words_begin,  // kFeatureWordCount uses per 1,000 words
    text_scores_begin = page_words_begin + kFeatureWordCount,  // kPageTypeCount scores
    feature_end = text_scores_begin + kPageTypeCount,
};
static_assert(layout_end == kLayoutFeatureCount, "kLayoutFeatureCount is the layout features' number");
static_assert(feature_end == kPageTypeFeatureCount, "kPageTypeFeatureCount is the features' number");

constexpr std::array<std::string_view, kLayoutFeatureCount> make_layout_names() {
    std::array<std::string_view, kLayoutFeatureCount> names{
        "url_known", "url_depth", "url_root", "url_query", "url_last_digits", "url_last_length", "url_last_dashes",
        "url_file_ext", "url_year", "url_forum", "url_product", "url_collection", "url_article", "url_docs",
        "url_service", "host_forum", "host_docs", "host_shop", "host_blog", "host_subdomain",
        "ld_article", "ld_product", "ld_forum", "ld_collection", "ld_docs", "ld_service", "ld_webpage",
        "ld_breadcrumb", "og_article", "og_product", "og_website", "og_other",
        "log_words", "log_elements", "link_density", "p_share", "long_paragraphs", "paragraph_words",
        "paragraphs_per_heading", "headings_linked", "headings", "prices", "dates", "sentence_marks",
        "itemprop_price", "itemprop_author", "itemprop_review", "repeated_count", "repeated_share",
        "repeated_link_density", "repeated_item_words", "svg_count",
        "linked_heading_count", "longest_paragraph", "block_share", "headed_sections", "headed_group_count",
        "headed_group_share", "chrome_share", "h1_count", "images_per_word", "list_link_density",
        "second_group_count", "second_group_share"};
    constexpr std::string_view kTagNames[] = {
        "tag_p", "tag_h1", "tag_h2", "tag_h3_h6", "tag_li", "tag_a", "tag_img", "tag_pre", "tag_code", "tag_table",
        "tag_form", "tag_input", "tag_button", "tag_select", "tag_article", "tag_section", "tag_time", "tag_nav",
        "tag_aside", "tag_header", "tag_footer", "tag_main", "tag_blockquote", "tag_dl", "tag_textarea",
        "tag_ul_ol", "tag_iframe", "tag_figure", "tag_video"};
    static_assert(std::size(kTagNames) == kTagCount);
    for (std::size_t i = 0; i < kTagCount; ++i) {
        names[tags_begin + i] = kTagNames[i];
    }
    constexpr std::string_view kClassNames[] = {
        "class_comment", "class_reply", "class_post", "class_thread", "class_forum", "class_vote", "class_answer",
        "class_avatar", "class_author", "class_message", "class_product", "class_price", "class_cart",
        "class_sku", "class_rating", "class_review", "class_variant", "class_quantity", "class_card",
        "class_grid", "class_tile", "class_item", "class_result", "class_listing", "class_pagination",
        "class_filter", "class_facet", "class_sort", "class_docs", "class_toc", "class_api", "class_highlight",
        "class_hero", "class_pricing", "class_feature", "class_testimonial", "class_faq", "class_plan",
        "class_signup", "class_article", "class_entry", "class_byline", "class_breadcrumb", "class_btn",
        "class_button", "class_cta", "class_teaser", "class_excerpt", "class_summary", "class_thumb",
        "class_meta", "class_date", "class_tag", "class_category", "class_widget", "class_share",
        "class_social", "class_logo", "class_banner", "class_section", "class_row", "class_col",
        "class_container"};
    static_assert(std::size(kClassNames) == kClassWordCount);
    for (std::size_t i = 0; i < kClassWordCount; ++i) {
        names[classes_begin + i] = kClassNames[i];
    }
    return names;
}

// Every feature's name: the layout's, then "heading:PHRASE" and
// "action:PHRASE" for the kind phrases, then the four counts, then
// "word:WORD" for the page words, then "text:TYPE" for the text model's
// scores. Built once.
struct FeatureNames {
    std::array<std::string, 2 * kKindPhraseCount> phrase_names;
    std::array<std::string, kFeatureWordCount + kPageTypeCount> word_and_score_names;
    std::array<std::string_view, kPageTypeFeatureCount> names{};

    FeatureNames() {
        constexpr std::array<std::string_view, kLayoutFeatureCount> kLayoutNames = make_layout_names();
        std::copy(kLayoutNames.begin(), kLayoutNames.end(), names.begin());
        for (std::size_t i = 0; i < kKindPhraseCount; ++i) {
            phrase_names[i] = "heading:" + std::string(kKindPhrases[i]);
            phrase_names[kKindPhraseCount + i] = "action:" + std::string(kKindPhrases[i]);
        }
        for (std::size_t i = 0; i < phrase_names.size(); ++i) {
            names[heading_phrases_begin + i] = phrase_names[i];
        }
        names[question_marks] = "question_marks";
        names[phone_links] = "phone_links";
        names[mail_links] = "mail_links";
        names[email_fields] = "email_fields";
        for (std::size_t i = 0; i < kFeatureWordCount; ++i) {
            word_and_score_names[i] = "word:" + std::string(kPageWords[kFeatureWordSlots[i]]);
        }
        for (std::size_t i = 0; i < kPageTypeCount; ++i) {
            word_and_score_names[kFeatureWordCount + i] =
                "text:" + std::string(page_type_name(static_cast<PageType>(i)));
        }
        for (std::size_t i = 0; i < word_and_score_names.size(); ++i) {
            names[page_words_begin + i] = word_and_score_names[i];
        }
    }
};

template <std::size_t N>
bool one_of(std::string_view word, const std::string_view (&words)[N]) {
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

// ---- the URL ----

void url_features(std::string_view url, PageTypeFeatures& f) {
    const std::size_t scheme = url.find("://");
    if (url.empty() || scheme == std::string_view::npos) {
        return;
    }
    f[url_known] = 1.0;
    std::string_view rest = url.substr(scheme + 3);
    const std::size_t path_start = std::min(rest.find_first_of("/?#"), rest.size());
    const std::string host = text::to_lower_ascii(rest.substr(0, path_start));
    rest.remove_prefix(path_start);
    const std::size_t query = rest.find('?');
    f[url_query] = query != std::string_view::npos && query + 1 < rest.size() ? 1.0 : 0.0;
    const std::string path = text::to_lower_ascii(rest.substr(0, std::min(rest.find_first_of("?#"), rest.size())));

    std::vector<std::string_view> segments;
    for (std::size_t pos = 0; pos < path.size();) {
        const std::size_t end = std::min(path.find('/', pos), path.size());
        if (end > pos) {
            segments.push_back(std::string_view(path).substr(pos, end - pos));
        }
        pos = end + 1;
    }
    f[url_depth] = static_cast<double>(segments.size());
    f[url_root] = segments.empty() ? 1.0 : 0.0;
    if (!segments.empty()) {
        const std::string_view last = segments.back();
        f[url_last_digits] = last.find_first_of("0123456789") != std::string_view::npos ? 1.0 : 0.0;
        f[url_last_length] = static_cast<double>(last.size());
        f[url_last_dashes] = static_cast<double>(std::count(last.begin(), last.end(), '-'));
        for (const std::string_view ext : {".html", ".htm", ".php", ".asp", ".aspx", ".shtml"}) {
            f[url_file_ext] = std::max(f[url_file_ext], last.ends_with(ext) ? 1.0 : 0.0);
        }
    }
    for (const std::string_view segment : segments) {
        const std::string_view stem = segment.substr(0, std::min(segment.find('.'), segment.size()));
        const bool year = stem.size() == 4 && (stem.starts_with("19") || stem.starts_with("20")) &&
                          stem.find_first_not_of("0123456789") == std::string_view::npos;
        f[url_year] = std::max(f[url_year], year ? 1.0 : 0.0);
        f[url_forum] = std::max(f[url_forum], one_of(stem, kForumPath) ? 1.0 : 0.0);
        f[url_product] = std::max(f[url_product], one_of(stem, kProductPath) ? 1.0 : 0.0);
        f[url_collection] = std::max(f[url_collection], one_of(stem, kCollectionPath) ? 1.0 : 0.0);
        f[url_article] = std::max(f[url_article], one_of(stem, kArticlePath) ? 1.0 : 0.0);
        f[url_docs] = std::max(f[url_docs], one_of(stem, kDocsPath) ? 1.0 : 0.0);
        f[url_service] = std::max(f[url_service], one_of(stem, kServicePath) ? 1.0 : 0.0);
    }
    // The host's labels but the last two (the registered name and its suffix).
    std::vector<std::string_view> labels;
    const std::string_view name = std::string_view(host).substr(0, std::min(host.find(':'), host.size()));
    for (std::size_t pos = 0; pos < name.size();) {
        const std::size_t end = std::min(name.find('.', pos), name.size());
        labels.push_back(name.substr(pos, end - pos));
        pos = end + 1;
    }
    if (labels.size() > 2) {
        labels.resize(labels.size() - 2);
        for (const std::string_view label : labels) {
            f[host_forum] = std::max(f[host_forum], one_of(label, kForumHost) ? 1.0 : 0.0);
            f[host_docs] = std::max(f[host_docs], one_of(label, kDocsHost) ? 1.0 : 0.0);
            f[host_shop] = std::max(f[host_shop], one_of(label, kShopHost) ? 1.0 : 0.0);
            f[host_blog] = std::max(f[host_blog], one_of(label, kBlogHost) ? 1.0 : 0.0);
        }
        f[host_subdomain] = labels.front() != "www" ? 1.0 : 0.0;
    }
}

void declared_features(const PageDeclarations& declared, PageTypeFeatures& f) {
    for (const std::string& type : declared.json_ld_types) {
        f[ld_article] += one_of(type, kLdArticle) ? 1.0 : 0.0;
        f[ld_product] += one_of(type, kLdProduct) ? 1.0 : 0.0;
        f[ld_forum] += one_of(type, kLdForum) ? 1.0 : 0.0;
        f[ld_collection] += one_of(type, kLdCollection) ? 1.0 : 0.0;
        f[ld_docs] += one_of(type, kLdDocs) ? 1.0 : 0.0;
        f[ld_service] += one_of(type, kLdService) ? 1.0 : 0.0;
        f[ld_webpage] += one_of(type, kLdWebPage) ? 1.0 : 0.0;
        f[ld_breadcrumb] += type == "breadcrumblist" ? 1.0 : 0.0;
    }
    for (std::size_t i = ld_article; i <= ld_breadcrumb; ++i) {
        f[i] = std::log1p(f[i]);
    }
    const std::string_view og = declared.og_type;
    if (!og.empty()) {
        const bool article = og.starts_with("article");
        const bool product = og.find("product") != std::string_view::npos;
        const bool website = og.starts_with("website");
        f[og_article] = article ? 1.0 : 0.0;
        f[og_product] = product ? 1.0 : 0.0;
        f[og_website] = website ? 1.0 : 0.0;
        f[og_other] = article || product || website ? 0.0 : 1.0;
    }
}

// ---- the structure, in one post-order walk ----

// The page's own furniture: what the text in it is not.
bool is_chrome(const Node* node) noexcept {
    return node->is(Tag::header) || node->is(Tag::footer) || node->is(Tag::nav) || node->is(Tag::aside);
}

// The headings whose words count as the page's headings for the kind
// phrases: h1-h3, as deeper ones name parts of the content.
bool is_phrase_heading(const Node* node) noexcept {
    return (node->is(Tag::h1) || node->is(Tag::h2) || node->is(Tag::h3)) && node->ns == dom::Namespace::html;
}

// Children of one element that look alike: the same tag and first class.
struct SiblingGroup {
    Tag tag = Tag::other;
    std::string_view name;   // the element's name, for tags pith does not know
    std::string_view first_class;
    std::size_t count = 0;
    std::size_t words = 0;
    std::size_t link_words = 0;
    std::size_t with_heading = 0;  // members holding a heading
};

constexpr std::size_t kGroups = 8;

struct Frame {
    const Node* node;
    std::size_t words = 0;
    std::size_t link_words = 0;
    bool holds_link = false;
    bool holds_heading = false;
    std::size_t paragraph_child_words = 0;  // in this element's own <p> children
    // The groups among this element's children, at most kGroups of them:
    // SignalWalker::groups[group_begin, group_begin + group_count). Frames
    // close in stack order, so a frame's groups are always the last ones
    // there when it adds one (a frame is pushed for every element: a vector
    // of its own each cost more than the rest of the walk).
    std::size_t group_begin = 0;
    std::size_t group_count = 0;
};


std::string_view first_token(std::string_view value) {
    std::size_t begin = 0;
    while (begin < value.size() && (value[begin] == ' ' || value[begin] == '\t' || value[begin] == '\n')) {
        ++begin;
    }
    const std::size_t end = std::min(value.find_first_of(" \t\n", begin), value.size());
    return value.substr(begin, end - begin);
}

struct SignalWalker {
    explicit SignalWalker(PageTypeFeatures& features) : f(features) {}

    PageTypeFeatures& f;
    std::size_t elements = 0;
    std::size_t words = 0;
    std::size_t link_words = 0;
    std::size_t in_link = 0;  // open <a> elements around the text
    std::size_t paragraphs = 0;
    std::size_t paragraph_words = 0;
    std::size_t long_paragraphs = 0;
    std::size_t heading_count = 0;
    std::size_t linked_headings = 0;
    std::size_t price_marks = 0;
    std::size_t date_marks = 0;
    std::size_t sentence_ends = 0;
    std::array<std::size_t, kTagCount> tags{};
    std::array<std::size_t, kClassWordCount> classes{};
    SiblingGroup best_group;
    SiblingGroup second_group;
    SiblingGroup best_headed_group;  // the largest group whose members hold headings
    std::size_t longest_paragraph_words = 0;
    std::size_t best_block_words = 0;  // the most words one element holds in its own <p> children
    std::size_t headed_section_count = 0;
    std::size_t in_chrome = 0;  // open header, footer, nav and aside elements around the text
    std::size_t chrome_words = 0;
    std::size_t h1s = 0;
    std::size_t images = 0;
    std::size_t list_words = 0;
    std::size_t list_link_words = 0;
    std::size_t in_list_item = 0;
    std::vector<SiblingGroup> groups;  // the open frames' groups (Frame::group_begin)
    // The text of the open h1-h3 headings, and of the open links and
    // buttons, read for the kind phrases when the outermost one closes.
    std::size_t in_heading = 0;
    std::size_t in_action = 0;
    std::string heading_text;
    std::string action_text;
    std::array<std::uint16_t, kKindPhraseCount> heading_phrases{};
    std::array<std::uint16_t, kKindPhraseCount> action_phrases{};
    std::size_t questions = 0;
    std::size_t phone_link_count = 0;
    std::size_t mail_link_count = 0;
    std::size_t email_field_count = 0;
    std::array<std::uint32_t, kPageWordCount> page_words{};
    std::size_t page_word_total = 0;
    // The body's text trimmed, each run of white space inside it counted as
    // one, in UTF-16 units (dom::inner_text_length).
    std::size_t text_units = 0;
    bool text_started = false;
    bool space_pending = false;

    void text(const Node* node, std::vector<Frame>& frames) {
        const std::string_view s = node->data;
        std::size_t count = 0;
        bool in_word = false;
        std::size_t digits = 0;       // the run of digits just read
        std::size_t date_parts = 0;   // digit runs joined by '-', '/' or '.' so far
        bool after_currency = false;  // a currency sign, maybe a space, then a digit: a price
        std::size_t pos = 0;
        while (pos < s.size()) {
            // Eight ASCII bytes at once where they hold no digit, date
            // separator, '$' or sentence end, and no figure or price is
            // being read: there only words and white space are counted.
            text::AsciiBlock block;
            if (digits == 0 && !after_currency && text_started && text::ascii_block(s, pos, block) &&
                (text::bytes_between(block, '-', '9') | text::bytes_between(block, '!', '!') |
                 text::bytes_between(block, '$', '$') | text::bytes_between(block, '?', '?')) == 0) {
                const std::uint64_t word_before = (block.content << 8U) | (in_word ? 0x80U : 0U);
                count += static_cast<std::size_t>(text::count_of(block.content & ~word_before));
                in_word = (block.content >> 63U) != 0;
                text_units += text::collapsed_units(block, space_pending);
                date_parts = 0;
                pos += 8;
                continue;
            }
            const std::size_t start = pos;
            const auto byte = static_cast<unsigned char>(s[pos]);
            char32_t c = byte;
            bool space = false;
            if (byte < 0x80) {  // most text is ASCII: no decoding, and its spaces are these
                ++pos;
                space = byte == ' ' || (byte >= '\t' && byte <= '\r');
            } else {
                c = text::next_code_point(s, pos);
                space = text::is_js_space(c);
            }
            if (!space && !in_word) {
                ++count;
            }
            if (space) {
                space_pending = text_started;
            } else {
                text_units += (space_pending ? 1U : 0U) + (c >= 0x10000 ? 2U : 1U);
                text_started = true;
                space_pending = false;
            }
            in_word = !space;
            const bool digit = c >= U'0' && c <= U'9';
            if (digit) {
                if (after_currency) {
                    ++price_marks;
                    after_currency = false;
                }
                ++digits;
                continue;
            }
            // A date written in figures: 2024-03-05, 05.03.2024, 3/5/2024.
            if (digits > 0 && (c == U'-' || c == U'/' || c == U'.') && date_parts < 3) {
                ++date_parts;
            } else {
                if (digits > 0 && date_parts == 2) {
                    ++date_marks;
                }
                date_parts = 0;
            }
            if (digits > 0 && (c == U'\u20AC')) {
                ++price_marks;  // 12,50 €: the sign after the figure
            }
            digits = 0;
            if (c == U'$' || c == U'\u20AC' || c == U'\u00A3' || c == U'\u00A5' || c == U'\u20B9') {
                after_currency = true;
            } else if (!(space && after_currency && pos - start == 1)) {
                after_currency = false;
            }
            questions += c == U'?' ? 1U : 0U;
            if ((c == U'.' || c == U'!' || c == U'?' || c == U'\u3002') &&
                (pos >= s.size() || s[pos] == ' ' || s[pos] == '\n')) {
                ++sentence_ends;
            }
        }
        if (digits > 0 && date_parts == 2) {
            ++date_marks;
        }
        frames.back().words += count;
        for_each_word(s, [this](std::string_view word) {
            ++page_word_total;
            if (!word.empty()) {
                if (const std::size_t slot = page_word_slot(word); slot < kPageWordCount) {
                    ++page_words[slot];
                }
            }
        });
        if (in_heading > 0) {
            heading_text.append(s).push_back(' ');
        }
        if (in_action > 0) {
            action_text.append(s).push_back(' ');
        }
        if (in_link > 0) {
            frames.back().link_words += count;
        }
        if (in_chrome > 0) {
            chrome_words += count;
        }
        if (in_list_item > 0) {
            list_words += count;
            list_link_words += in_link > 0 ? count : 0U;
        }
    }

    dom::Visit enter(const Node* element, std::vector<Frame>& frames) {
        ++elements;
        if (const int slot = kTagSlots[static_cast<std::size_t>(element->tag)]; slot >= 0) {
            ++tags[static_cast<std::size_t>(slot)];
        }
        if (element->ns == dom::Namespace::svg && element->name == "svg") {
            f[svg_count] += 1.0;
        }
        if (const std::string_view cls = element->attr("class"), id = element->attr("id"); !cls.empty() || !id.empty()) {
            std::array<bool, kClassWordCount> seen{};
            mark_class_words(cls, seen);
            mark_class_words(id, seen);
            for (std::size_t i = 0; i < kClassWordCount; ++i) {
                classes[i] += seen[i] ? 1U : 0U;
            }
        }
        if (const std::string_view itemprop = element->attr("itemprop"); !itemprop.empty()) {
            if (itemprop == "price" || itemprop == "offers" || itemprop == "lowPrice") {
                f[itemprop_price] = 1.0;
            } else if (itemprop == "author") {
                f[itemprop_author] = 1.0;
            } else if (itemprop == "review" || itemprop == "reviewRating" || itemprop == "aggregateRating") {
                f[itemprop_review] = 1.0;
            }
        }
        if (element->is(Tag::a)) {
            ++in_link;
            const std::string_view href = text::trim(element->attr("href"));
            phone_link_count += text::istarts_with_ascii(href, "tel:") ? 1U : 0U;
            mail_link_count += text::istarts_with_ascii(href, "mailto:") ? 1U : 0U;
        }
        if (element->is(Tag::input) && text::iequals_ascii(text::trim(element->attr("type")), "email")) {
            ++email_field_count;
        }
        in_heading += is_phrase_heading(element) ? 1U : 0U;
        in_action += element->is(Tag::a) || element->is(Tag::button) ? 1U : 0U;
        in_chrome += is_chrome(element) ? 1U : 0U;
        in_list_item += element->is(Tag::li) ? 1U : 0U;
        h1s += element->is(Tag::h1) ? 1U : 0U;
        images += element->is(Tag::img) ? 1U : 0U;
        frames.push_back(Frame{element, 0, 0, false, false, 0, groups.size(), 0});
        return dom::Visit::descend;
    }

    void close(std::vector<Frame>& frames) {
        Frame done = frames.back();
        frames.pop_back();
        const Node* node = done.node;
        if (node->is(Tag::a)) {
            --in_link;
            done.holds_link = true;
        }
        in_chrome -= is_chrome(node) ? 1U : 0U;
        in_list_item -= node->is(Tag::li) ? 1U : 0U;
        if (is_phrase_heading(node) && --in_heading == 0) {
            count_kind_phrases(heading_text, heading_phrases);
            heading_text.clear();
        }
        if ((node->is(Tag::a) || node->is(Tag::button)) && --in_action == 0) {
            count_kind_phrases(action_text, action_phrases);
            action_text.clear();
        }
        const bool paragraph = node->is(Tag::p);
        if (paragraph) {
            ++paragraphs;
            paragraph_words += done.words;
            constexpr std::size_t kLongParagraphWords = 20;
            long_paragraphs += done.words >= kLongParagraphWords ? 1U : 0U;
            longest_paragraph_words = std::max(longest_paragraph_words, done.words);
        }
        best_block_words = std::max(best_block_words, done.paragraph_child_words);
        const bool heading = is_heading(node) && node->ns == dom::Namespace::html;
        if (heading) {
            ++heading_count;
            const bool linked = done.holds_link || (node->parent != nullptr && node->parent->is(Tag::a));
            linked_headings += linked ? 1U : 0U;
        }
        if (node->is(Tag::section) && done.holds_heading) {
            ++headed_section_count;
        }
        // The largest groups among this element's children.
        constexpr std::size_t kMinGroup = 3;
        for (const SiblingGroup& g : std::span(groups.data() + done.group_begin, done.group_count)) {
            if (g.count < kMinGroup) {
                continue;
            }
            if (g.words > best_group.words) {
                second_group = best_group;
                best_group = g;
            } else if (g.words > second_group.words) {
                second_group = g;
            }
            if (g.with_heading * 2 >= g.count && g.words > best_headed_group.words) {
                best_headed_group = g;
            }
        }
        groups.resize(done.group_begin);
        if (frames.empty()) {
            words = done.words;
            link_words = done.link_words;
            return;
        }
        Frame& parent = frames.back();
        parent.words += done.words;
        parent.link_words += done.link_words;
        parent.holds_link = parent.holds_link || done.holds_link;
        parent.holds_heading = parent.holds_heading || done.holds_heading || heading;
        parent.paragraph_child_words += paragraph ? done.words : 0U;
        const std::string_view first_class = first_token(node->attr("class"));
        auto same = [&](const SiblingGroup& g) {
            return g.tag == node->tag && g.name == node->name && g.first_class == first_class;
        };
        const auto begin = groups.begin() + static_cast<std::ptrdiff_t>(parent.group_begin);
        const auto end = begin + static_cast<std::ptrdiff_t>(parent.group_count);
        auto group = std::find_if(begin, end, same);
        if (group == end) {
            if (parent.group_count >= kGroups) {
                return;
            }
            groups.push_back(SiblingGroup{node->tag, node->name, first_class, 0, 0, 0, 0});
            ++parent.group_count;
            group = groups.end() - 1;
        }
        ++group->count;
        group->words += done.words;
        group->link_words += done.link_words;
        group->with_heading += done.holds_heading || heading ? 1U : 0U;
    }
};

double ratio(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

std::span<const std::string_view, kPageTypeFeatureCount> page_type_feature_names() noexcept {
    static const FeatureNames kNames;
    return kNames.names;
}

PageTypeFeatures page_type_features(const dom::Document& doc, const PageDeclarations& declarations,
                                    std::string_view url, std::size_t* body_text_length, int fold) {
    PageTypeFeatures f{};
    url_features(url, f);
    declared_features(declarations, f);
    const Node* body = doc.body();
    if (body == nullptr) {
        return f;
    }
    SignalWalker walker{f};
    std::vector<Frame> frames;
    frames.push_back(Frame{body, 0, 0, false, false, 0, 0, 0});
    dom::walk_post_order(frames, walker);
    if (body_text_length != nullptr) {
        *body_text_length = walker.text_units;
    }

    f[log_words] = std::log1p(static_cast<double>(walker.words));
    f[log_elements] = std::log1p(static_cast<double>(walker.elements));
    f[Feature::link_density] = ratio(walker.link_words, walker.words);
    f[p_share] = ratio(walker.paragraph_words, walker.words);
    f[long_paragraphs] = std::log1p(static_cast<double>(walker.long_paragraphs));
    f[paragraph_words] = ratio(walker.paragraph_words, walker.paragraphs);
    f[paragraphs_per_heading] = ratio(walker.paragraphs, walker.heading_count);
    f[headings_linked] = ratio(walker.linked_headings, walker.heading_count);
    f[headings] = std::log1p(static_cast<double>(walker.heading_count));
    f[prices] = std::log1p(static_cast<double>(walker.price_marks));
    f[dates] = std::log1p(static_cast<double>(walker.date_marks));
    f[sentence_marks] = ratio(walker.sentence_ends, walker.words);
    const SiblingGroup& group = walker.best_group;
    f[repeated_count] = std::log1p(static_cast<double>(group.count));
    f[repeated_share] = ratio(group.words, walker.words);
    f[repeated_link_density] = ratio(group.link_words, group.words);
    f[repeated_item_words] = std::log1p(ratio(group.words, group.count));
    f[svg_count] = std::log1p(f[svg_count]);
    const auto log_count = [](std::size_t n) { return std::log1p(static_cast<double>(n)); };
    f[linked_heading_count] = log_count(walker.linked_headings);
    f[longest_paragraph] = log_count(walker.longest_paragraph_words);
    f[block_share] = ratio(walker.best_block_words, walker.words);
    f[headed_sections] = log_count(walker.headed_section_count);
    f[headed_group_count] = log_count(walker.best_headed_group.count);
    f[headed_group_share] = ratio(walker.best_headed_group.words, walker.words);
    f[chrome_share] = ratio(walker.chrome_words, walker.words);
    f[h1_count] = static_cast<double>(std::min<std::size_t>(walker.h1s, 3));
    f[images_per_word] = ratio(walker.images, walker.words + 1);
    f[list_link_density] = ratio(walker.list_link_words, walker.list_words);
    f[second_group_count] = log_count(walker.second_group.count);
    f[second_group_share] = ratio(walker.second_group.words, walker.words);
    for (std::size_t i = 0; i < kTagCount; ++i) {
        f[tags_begin + i] = std::log1p(static_cast<double>(walker.tags[i]));
    }
    for (std::size_t i = 0; i < kClassWordCount; ++i) {
        f[classes_begin + i] = std::log1p(static_cast<double>(walker.classes[i]));
    }
    if (const Node* head = doc.head()) {
        for (const Node* n = head->first_child; n != nullptr; n = n->next) {
            if (n->is(Tag::title)) {
                std::string title;
                for (const Node* t = n->first_child; t != nullptr; t = t->next) {
                    title.append(t->is_text() ? std::string_view(t->data) : std::string_view()).push_back(' ');
                }
                count_kind_phrases(title, walker.heading_phrases);
                break;
            }
        }
    }
    for (std::size_t i = 0; i < kKindPhraseCount; ++i) {
        f[heading_phrases_begin + i] = std::log1p(static_cast<double>(walker.heading_phrases[i]));
        f[action_phrases_begin + i] = std::log1p(static_cast<double>(walker.action_phrases[i]));
    }
    f[question_marks] = ratio(walker.questions, walker.words);
    f[phone_links] = log_count(walker.phone_link_count);
    f[mail_links] = log_count(walker.mail_link_count);
    f[email_fields] = log_count(walker.email_field_count);
    for (std::size_t i = 0; i < kFeatureWordCount; ++i) {
        f[page_words_begin + i] =
            per_thousand_words(walker.page_words[kFeatureWordSlots[i]], walker.page_word_total);
    }
    const auto scores = text_scores(walker.page_words, walker.page_word_total, fold);
    std::copy(scores.begin(), scores.end(), f.begin() + text_scores_begin);
    return f;
}

PageWordCounts page_word_counts(const dom::Document& doc) {
    PageWordCounts counts;
    const Node* body = doc.body();
    for (const Node* n = body == nullptr ? nullptr : body->first_child; n != nullptr; n = dom::next_node(n, body)) {
        if (n->is_text()) {
            for_each_word(n->data, [&counts](std::string_view word) {
                ++counts.total;
                if (!word.empty()) {
                    ++counts.words[std::string(word)];
                }
            });
        }
    }
    return counts;
}

}  // namespace pith::extract

namespace pith::extract {

namespace {

namespace page_type_model {
#include "classify/page_type_model.inc"
static_assert(kFeatureCount == kPageTypeFeatureCount, "page_type_model.inc was fitted on other features: refit");
}  // namespace page_type_model

namespace layout_type_model {
#include "classify/layout_type_model.inc"
static_assert(kFeatureCount == kLayoutFeatureCount, "layout_type_model.inc was fitted on other features: refit");
}  // namespace layout_type_model

models::Forest page_type_forest(int fold) noexcept {
    using namespace page_type_model;
    return models::model_of(kNodes, kStarts, kModelTrees, models::model_for_fold(fold, kModels), kPageTypeCount, 0.0);
}

models::Forest layout_type_forest(int fold) noexcept {
    using namespace layout_type_model;
    return models::model_of(kNodes, kStarts, kModelTrees, models::model_for_fold(fold, kModels), kPageTypeCount, 0.0);
}

PageType likeliest(const std::array<double, kPageTypeCount>& probabilities) noexcept {
    return static_cast<PageType>(std::max_element(probabilities.begin(), probabilities.end()) - probabilities.begin());
}

}  // namespace

std::array<double, kPageTypeCount> page_type_probabilities(const PageTypeFeatures& features, int fold) noexcept {
    return models::class_probabilities<kPageTypeCount>(page_type_forest(fold), features);
}

std::array<double, kPageTypeCount> layout_type_probabilities(const PageTypeFeatures& features, int fold) noexcept {
    return models::class_probabilities<kPageTypeCount>(layout_type_forest(fold), features);
}

PageTypeDiagnostics classify_page(const PageTypeFeatures& features, std::optional<PageType> forced, int fold) noexcept {
    PageTypeDiagnostics out;
    out.probabilities = page_type_probabilities(features, fold);
    out.type = likeliest(out.probabilities);
    out.layout_probabilities = layout_type_probabilities(features, fold);
    out.layout_type = likeliest(out.layout_probabilities);
    if (forced) {
        out.type = *forced;
        out.layout_type = *forced;
        out.forced = true;
    }
    return out;
}

std::string_view page_url(const PreparedPage& page, const ExtractOptions& options) noexcept {
    return options.input.url.empty() ? std::string_view(page.declarations.canonical_url)
                                     : std::string_view(options.input.url);
}

void classify(PreparedPage& page, const ExtractOptions& options) {
    const PageTypeFeatures features =
        page_type_features(page.doc, page.declarations, page_url(page, options), &page.body_text_length,
                           options.runtime.model_fold);
    page.page_type = classify_page(features, options.page_type, options.runtime.model_fold);
}

}  // namespace pith::extract
