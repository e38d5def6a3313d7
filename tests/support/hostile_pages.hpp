// The hostile pages of issue 11, each at most 16 MiB: shapes that cost the
// parser and the pipeline far more per byte than real pages do. Each page is
// written piece by piece through `emit`, so a caller can stream it to a file
// without holding it. Shared by the CLI memory test and the soak bench;
// the nested <div>s by the tests of the cleaning's time.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::test {

inline constexpr std::size_t kHostilePageLimit = 16U * 1024U * 1024U;
// 1,000 distinct open formatting elements, then 200,000 paragraphs: gumbo's
// tree builder reconstructs all of them in every paragraph, so 1.6 MB would
// grow to some 200 million elements. No count of tags sees it coming.
inline constexpr std::string_view kReconstructionPageName = "formatting elements the parser reconstructs";

using Emit = std::function<void(std::string_view)>;

// `depth` nested <div>s in an <article> around `paragraphs` short ones
// ("Line N of text."): a cleaning that read the whole text of each <div> it
// judges would cost the text times the nesting here.
inline std::string nested_divs_around_paragraphs(int depth, int paragraphs) {
    std::string html = "<html><body><article>";
    for (int i = 0; i < depth; ++i) {
        html += "<div>";
    }
    for (int i = 0; i < paragraphs; ++i) {
        html += "<p>Line " + std::to_string(i) + " of text.</p>";
    }
    return html + "</article></body></html>";
}

// `depth` nested <div>s in an <article> around two one-word paragraphs with
// `spaces` spaces between them: each <div>'s text is four characters, which
// Readability's cleaning reads whole to test against its ad and loading labels.
inline std::string nested_divs_around_white_space(int depth, std::size_t spaces) {
    std::string html = "<html><body><article>";
    for (int i = 0; i < depth; ++i) {
        html += "<div>";
    }
    return html + "<p>Ad</p>" + std::string(spaces, ' ') + "<p>x</p></article></body></html>";
}

// `depth` nested <section>s in a <main>, each with a heading and a paragraph
// of 224 characters: Readability scores every <section> by its whole text.
inline std::string nested_sections(int depth) {
    std::string paragraph;
    for (int i = 0; i < 4; ++i) {
        paragraph += "Some plain words of text here and there in the section ";
    }
    std::string html = "<html><body><main>";
    for (int i = 0; i < depth; ++i) {
        html += "<section><h2>Head</h2><p>" + paragraph + "</p>";
    }
    return html + "</main></body></html>";
}

struct HostilePage {
    std::string name;
    std::function<void(const Emit&)> write;  // the whole page, <html> to the end
};

namespace detail {

inline void repeat(const Emit& emit, std::string_view unit, std::size_t times) {
    for (std::size_t i = 0; i < times; ++i) {
        emit(unit);
    }
}

inline HostilePage page(std::string name, std::function<void(const Emit&)> body) {
    return {std::move(name), [body = std::move(body)](const Emit& emit) {
                emit("<html><head><title>hostile</title></head><body>");
                body(emit);
            }};
}

}  // namespace detail

// In the order the CLI test runs them: the two whose answers are large last.
inline std::vector<HostilePage> hostile_pages() {
    using detail::page;
    using detail::repeat;
    return {
        page("two million tiny elements", [](const Emit& e) { repeat(e, "<i>x</i>", 2'000'000); }),
        page("a million <br>", [](const Emit& e) { repeat(e, "<br>", 1'000'000); }),
        page("100,000 nested inline elements",
             [](const Emit& e) {
                 repeat(e, "<b>", 100'000);
                 e("x");
             }),
        page("200,000 small tables", [](const Emit& e) { repeat(e, "<table><tr><td>x</td></tr></table>", 200'000); }),
        page("a million attributes over many elements",
             [](const Emit& e) { repeat(e, "<p a0=v a1=v a2=v a3=v a4=v a5=v a6=v a7=v a8=v a9=v>y</p>", 100'000); }),
        page(std::string(kReconstructionPageName),
             [](const Emit& e) {
                 e("<p>");
                 for (int i = 0; i < 1000; ++i) {
                     e("<b id=" + std::to_string(i) + ">");
                 }
                 e("</p>");
                 repeat(e, "<p>x</p>", 200'000);
             }),
        page("a million &amp;",
             [](const Emit& e) {
                 e("<p>");
                 repeat(e, "&amp;", 1'000'000);
                 e("</p>");
             }),
        page("a 16 MB text node",
             [](const Emit& e) {
                 constexpr std::string_view kProse = "Plain words, commas and full stops. ";
                 e("<p>");
                 repeat(e, kProse, (kHostilePageLimit - 200) / kProse.size());
                 e("</p>");
             }),
    };
}

// A page whole, for callers that send it.
inline std::string hostile_page_text(const HostilePage& hostile) {
    std::string text;
    hostile.write([&text](std::string_view piece) { text.append(piece); });
    return text;
}

// The page of hostile_pages() called `name`, whole; "" when none is.
inline std::string hostile_page_text(std::string_view name) {
    for (const HostilePage& hostile : hostile_pages()) {
        if (hostile.name == name) {
            return hostile_page_text(hostile);
        }
    }
    return {};
}

}  // namespace pith::test
