// Cutting the text of elements the pipeline deletes before the parser sees it,
// and the budget estimate (elements, nesting, attributes) from the same scan:
// the page's tags are read once, by one reader that follows the tokenizer.
//
// A page's <script> and <style> contents are about 40% of its bytes in our
// corpora (measured over both, 99.7 MB), and gumbo tokenizes them one
// character at a time, only for Readability to delete the elements. Cutting
// their text before parsing saves that work and changes nothing else: the
// elements stay (empty), so the tree has the same shape. Comments' text (about
// 1.5%) goes too, for the same reason: prep_document deletes every comment,
// and nothing before it reads one.
//
// That holds only if the cut ends exactly where the HTML tokenizer would end
// the element, so the scanner follows the tokenizer where it matters: comments
// (abrupt ones included), bogus comments, tag attributes with quoted '>',
// RAWTEXT/RCDATA elements (whose content is never markup), <plaintext>, and
// the script data escape states (<!-- <script> --> inside a script). JSON-LD
// scripts are kept: metadata reads them.
//
// The cut text leaves a marker, "/*pith-cut:N:L:T*/" (a comment in both
// JavaScript and CSS), with the text's length and its leading and trailing
// white space in UTF-16 units as the parser would have kept them. Readability's
// readerable preflight counts script text inside paragraphs, so it measures
// through the marker (trimmed_text_length) and answers as on the whole page.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"

namespace pith::dom {

struct TextRange {
    std::size_t begin = 0;  // first byte of the element's text
    std::size_t end = 0;    // one past its last byte: where its end tag starts
};

// The text of every <script> (but JSON-LD) and <style> element in `html`, and
// of every comment of 64 bytes or more, in document order, and the markup
// estimate of estimate_markup(), in one scan.
struct MarkupScan {
    std::vector<TextRange> discardable;
    MarkupEstimate estimate;
};
[[nodiscard]] MarkupScan scan_markup(std::string_view html);

// What the tokenizer reads of a tag whose name ends at `name_end`: where its
// '>' is (npos when the input ends first), how many attributes it has,
// whether it is self-closing, and whether a type attribute says JSON-LD.
// Shared by the cut and the budget estimate (parse.cpp).
struct TagScan {
    std::size_t end = std::string_view::npos;
    std::size_t attributes = 0;
    bool self_closing = false;
    bool json_ld = false;
};
[[nodiscard]] TagScan scan_tag(std::string_view html, std::size_t name_end, bool want_type) noexcept;

// `html` with each of `ranges` (from scan_markup) replaced by its marker.
// Returns `html` itself when there are none; otherwise the result is built in
// `storage` and points into it.
[[nodiscard]] std::string_view without_ranges(std::string_view html, const std::vector<TextRange>& ranges,
                                              std::string& storage);
// Both steps: scan_markup, then without_ranges.
[[nodiscard]] std::string_view without_discardable_raw_text(std::string_view html, std::string& storage);

// What a marker says of the text it replaced, in UTF-16 units: its length, and
// its leading and trailing JavaScript white space.
struct CutText {
    std::size_t length = 0;
    std::size_t leading_space = 0;
    std::size_t trailing_space = 0;
};
// Measures `text`. Source text (`as_parsed` false) is counted as the parser
// will keep it, with "\r\n" as one "\n"; parsed text is counted as it is (a
// "&#13;" reference leaves a real "\r" before a "\n").
[[nodiscard]] CutText measure_cut(std::string_view text, bool as_parsed = false) noexcept;
[[nodiscard]] std::string cut_marker(const CutText& cut);
// The CutText of a script or style text node that is exactly a marker.
[[nodiscard]] std::optional<CutText> read_cut_marker(std::string_view text) noexcept;

// node.textContent.trim().length, with cut text counted as if it were there.
[[nodiscard]] std::size_t trimmed_text_length(const Node* node) noexcept;

}  // namespace pith::dom
