// GitHub-flavoured Markdown from the article's DOM. One iterative walk:
// inline content accumulates in a paragraph buffer (escaped as it comes, with
// marks where emphasis and links open), and block elements flush it as lines
// behind the prefixes of the containers they sit in (blockquotes, list items).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "render/render.hpp"
#include "pith/markdown.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

bool is_heading_tag(Tag tag) noexcept {
    return tag == Tag::h1 || tag == Tag::h2 || tag == Tag::h3 || tag == Tag::h4 || tag == Tag::h5 ||
           tag == Tag::h6;
}

int heading_level(Tag tag) noexcept { return static_cast<int>(tag) - static_cast<int>(Tag::h1) + 1; }

// Inline elements whose text is code: written verbatim between backticks.
bool is_code_tag(Tag tag) noexcept { return tag == Tag::code || tag == Tag::kbd || tag == Tag::samp || tag == Tag::tt; }

// Characters that mean something in Markdown inline text wherever they are.
bool needs_escape(char c) noexcept {
    switch (c) {
    case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>': case '|': case '~':
        return true;
    default:
        return false;
    }
}

// Appends `text` escaped, its white space collapsed as append_collapsed does.
void append_escaped(std::string& out, std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        const char32_t c = text::next_code_point(text, pos);
        if (text::is_js_space(c)) {
            if (!out.empty() && out.back() != ' ' && out.back() != '\n') {
                out.push_back(' ');
            }
            continue;
        }
        if (pos - start == 1) {
            const char ascii = text[start];
            if (needs_escape(ascii)) {
                out.push_back('\\');
            } else if (ascii == '&' && pos < text.size() &&
                       (std::isalnum(static_cast<unsigned char>(text[pos])) != 0 || text[pos] == '#')) {
                out.push_back('\\');  // "&copy;" would be read as an entity
            }
        }
        out.append(text.substr(start, pos - start));
    }
}

// A line of a paragraph must not start what Markdown reads as a block:
// a heading, a list item, a thematic break or setext underline, a quote.
std::string escape_line_start(std::string_view line) {
    std::string out;
    if (line.empty()) {
        return out;
    }
    const char first = line.front();
    if (line.starts_with("```")) {
        return "\\" + std::string(line);  // a code span there would open a fence
    }
    if (first == '#' || first == '-' || first == '+' || first == '=') {
        out.push_back('\\');
    } else if (first >= '0' && first <= '9') {
        std::size_t digits = 0;
        while (digits < line.size() && digits < 10 && line[digits] >= '0' && line[digits] <= '9') {
            ++digits;
        }
        if (digits < line.size() && digits <= 9 && (line[digits] == '.' || line[digits] == ')')) {
            out.append(line.substr(0, digits)).push_back('\\');
            out.append(line.substr(digits));
            return out;
        }
    }
    out.append(line);
    return out;
}

// A link or image destination that needs no angle brackets.
std::string destination(std::string_view url) {
    std::string out;
    out.reserve(url.size());
    for (const char c : url) {
        switch (c) {
        case ' ': out += "%20"; break;
        case '(': out += "%28"; break;
        case ')': out += "%29"; break;
        case '<': out += "%3C"; break;
        case '>': out += "%3E"; break;
        case '\n': case '\r': case '\t': break;
        default: out.push_back(c);
        }
    }
    return out;
}

// The longest run of backticks in `text`, so a fence or code span can be longer.
std::size_t longest_backtick_run(std::string_view text) {
    std::size_t longest = 0;
    std::size_t run = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

std::string code_span(std::string_view code) {
    std::string text;
    append_collapsed(text, code);
    const std::string_view trimmed = text::trim(text);
    if (trimmed.empty()) {
        return {};
    }
    const std::string fence(longest_backtick_run(trimmed) + 1, '`');
    // A span that starts or ends with a backtick needs a space inside.
    const bool pad = trimmed.front() == '`' || trimmed.back() == '`';
    return fence + (pad ? " " : "") + std::string(trimmed) + (pad ? " " : "") + fence;
}

bool is_language_char(char c) noexcept {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '+' || c == '#' || c == '-' ||
           c == '.';
}

std::string language_in_class(std::string_view classes) {
    for (std::string_view prefix : {"language-", "lang-", "highlight-"}) {
        for (std::size_t at = classes.find(prefix); at != std::string_view::npos; at = classes.find(prefix, at + 1)) {
            if (at > 0 && classes[at - 1] != ' ') {
                continue;
            }
            std::size_t end = at + prefix.size();
            while (end < classes.size() && is_language_char(classes[end])) {
                ++end;
            }
            if (end > at + prefix.size()) {
                return std::string(classes.substr(at + prefix.size(), end - at - prefix.size()));
            }
        }
    }
    return {};
}

// Table cells hold inline content; these inside one mean the table is
// written as HTML.
bool breaks_a_cell(Tag tag) noexcept {
    return is_heading_tag(tag) || tag == Tag::table || tag == Tag::ul || tag == Tag::ol || tag == Tag::dl ||
           tag == Tag::pre || tag == Tag::blockquote || tag == Tag::hr;
}

std::size_t span_attr(const Node* cell, std::string_view name) {
    const std::string_view value = cell->attr(name);
    std::size_t n = 0;
    for (const char c : value) {
        if (c < '0' || c > '9') {
            break;
        }
        n = n * 10 + static_cast<std::size_t>(c - '0');
        if (n > 1000) {
            break;
        }
    }
    return std::clamp<std::size_t>(n, 1, 1000);
}

class MarkdownWriter {
public:
    explicit MarkdownWriter(const CodeLanguages& languages) : languages_(languages) {
        containers_.push_back(Container{});  // the document
    }

    void render(const Node* root) {
        walk_tree(
            root, [this](const Node* n) { return enter(n); }, [this](const Node* n) { leave(n); });
        flush_paragraph();
    }

    // The inline content of a table cell, on one line.
    std::string render_cell(const Node* cell) {
        in_cell_ = true;
        walk_tree(
            cell, [this](const Node* n) { return enter(n); }, [this](const Node* n) { leave(n); });
        in_cell_ = false;
        std::string line(text::trim(inline_));
        inline_.clear();
        return line;
    }

    std::string take() {
        while (!out_.empty() && out_.back() == '\n') {
            out_.pop_back();
        }
        return std::move(out_);
    }

private:
    enum class Kind { document, quote, list, item };
    struct Container {
        Kind kind = Kind::document;
        std::string marker;    // an item's "- " or "3. ", written on its first line
        bool wrote = false;    // a block was written in it
        bool ordered = false;  // a list's
        std::size_t next_number = 1;
    };
    static Container container_of(Kind kind) {
        Container c;
        c.kind = kind;
        return c;
    }
    // What leave() must undo or finish for an element.
    enum class Frame { none, block, heading, quote, list, item, emphasis, link, superscript };
    struct Open {
        Frame frame;
        std::size_t mark;      // where its inline content starts in inline_
        bool broken = false;   // a block inside it flushed its start: it stays plain text
    };

    bool enter(const Node* n) {
        if (n->is_text()) {
            append_escaped(inline_, n->data);
            return false;
        }
        if (!n->is_element()) {
            return false;
        }
        const Tag tag = n->tag;
        if (tag == Tag::br) {
            if (in_cell_) {
                inline_ += "<br>";
            } else if (!inline_.empty() && inline_.back() != '\n') {
                trim_trailing_space();
                inline_.push_back('\n');
            }
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (tag == Tag::img) {
            image(n);
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (is_code_tag(tag)) {
            std::string span = code_span(dom::text_content(n));
            if (in_cell_) {  // a pipe splits a table cell even inside a code span
                for (std::size_t at = span.find('|'); at != std::string::npos; at = span.find('|', at + 2)) {
                    span.insert(at, "\\");
                }
            }
            inline_ += span;
            open_.push_back({Frame::none, 0});
            return false;
        }
        // Inside a heading, and inside a link (a card of an image and a
        // title), paragraphs and divisions run on inline: Markdown cannot
        // hold a block there. Headings, lists and tables in a link break it.
        if (in_cell_ || (is_block_element(n) && !breaks_a_cell(tag) && tag != Tag::li &&
                         (headings_open_ > 0 || links_open_ > 0))) {
            return enter_inline(n);
        }
        if (tag == Tag::pre && !holds_blocks(n)) {
            flush_paragraph();
            code_block(n);
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (tag == Tag::table) {
            flush_paragraph();
            table(n);
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (tag == Tag::hr && (headings_open_ > 0 || links_open_ > 0)) {
            // A rule drawn inside a card's link or a heading is decoration:
            // it would end the link, so it goes.
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (tag == Tag::hr) {
            flush_paragraph();
            write_block_lines({"---"});
            open_.push_back({Frame::none, 0});
            return false;
        }
        if (is_heading_tag(tag)) {
            flush_paragraph();
            ++headings_open_;
            open_.push_back({Frame::heading, 0});
            return true;
        }
        // Every line repeats the prefixes of the quotes and items around it,
        // so a page nesting thousands of them would grow its Markdown with
        // the square of the depth. Past kMaxContainers they are plain blocks.
        constexpr std::size_t kMaxContainers = 32;
        const bool container_tag = tag == Tag::blockquote || tag == Tag::ul || tag == Tag::ol || tag == Tag::li;
        if (container_tag && containers_.size() >= kMaxContainers) {
            flush_paragraph();
            open_.push_back({Frame::block, 0});
            return true;
        }
        if (tag == Tag::blockquote) {
            flush_paragraph();
            open_container(container_of(Kind::quote));
            open_.push_back({Frame::quote, 0});
            return true;
        }
        if (tag == Tag::ul || tag == Tag::ol) {
            flush_paragraph();
            Container list = container_of(Kind::list);
            list.ordered = tag == Tag::ol;
            if (list.ordered) {
                list.next_number = list_start(n);
            }
            open_container(list);
            open_.push_back({Frame::list, 0});
            return true;
        }
        if (tag == Tag::li) {
            flush_paragraph();
            Container item = container_of(Kind::item);
            const Container& list = containers_.back();
            if (list.kind == Kind::list && list.ordered) {
                item.marker = std::to_string(containers_.back().next_number++) + ". ";
            } else {
                item.marker = "- ";
            }
            containers_.push_back(item);
            open_.push_back({Frame::item, 0});
            return true;
        }
        if (is_block_element(n)) {
            flush_paragraph();
            open_.push_back({Frame::block, 0});
            return true;
        }
        return enter_inline(n);
    }

    bool enter_inline(const Node* n) {
        if (is_permalink_mark(n)) {
            open_.push_back({Frame::none, 0});
            return false;
        }
        separate_from_previous(inline_, n);
        switch (n->tag) {
        case Tag::em: case Tag::i: case Tag::cite: case Tag::dfn: case Tag::var:
        case Tag::strong: case Tag::b: case Tag::del: case Tag::s: case Tag::strike:
            open_.push_back({Frame::emphasis, inline_.size()});
            return true;
        case Tag::a:
            ++links_open_;
            open_.push_back({Frame::link, inline_.size()});
            return true;
        case Tag::sup: case Tag::sub:
            inline_ += n->is(Tag::sup) ? "<sup>" : "<sub>";
            open_.push_back({Frame::superscript, inline_.size()});
            return true;
        default:
            if (in_cell_ && is_block_element(n) && !inline_.empty() && !inline_.ends_with("<br>")) {
                trim_trailing_space();
                inline_ += "<br>";  // a paragraph break inside a cell
            } else if (is_block_element(n) && !inline_.empty() && inline_.back() != ' ' && inline_.back() != '\n') {
                inline_.push_back(' ');  // a block run on inline still ends a word
            }
            open_.push_back({Frame::none, 0});
            return true;
        }
    }

    void leave(const Node* n) {
        if (!n->is_element() || open_.empty()) {
            return;
        }
        const Open open = open_.back();
        open_.pop_back();
        switch (open.frame) {
        case Frame::none:
            break;
        case Frame::block:
            flush_paragraph();
            break;
        case Frame::heading:
            --headings_open_;
            if (open.broken) {
                flush_paragraph();
            } else {
                heading(heading_level(n->tag));
            }
            break;
        case Frame::quote:
        case Frame::list:
        case Frame::item:
            flush_paragraph();
            close_container();
            break;
        case Frame::emphasis:
            if (!open.broken) {
                close_emphasis(open.mark, n->tag);
            }
            break;
        case Frame::link:
            --links_open_;
            if (!open.broken) {
                close_link(open.mark, n);
            }
            break;
        case Frame::superscript:
            if (!open.broken) {
                inline_ += n->is(Tag::sup) ? "</sup>" : "</sub>";
            }
            break;
        }
    }

    void trim_trailing_space() {
        while (!inline_.empty() && inline_.back() == ' ') {
            inline_.pop_back();
        }
    }

    // Wraps inline_[mark..] in the element's delimiters, white space moved
    // outside them (Markdown does not close "**bold **").
    // Emphasis that ends in punctuation ("*Why?*") does not close when a
    // letter follows ("*Why?*Because"), nor open after a letter when it
    // starts with punctuation; such runs are written as HTML tags.
    void close_emphasis(std::size_t mark, Tag tag) {
        const bool strong = tag == Tag::strong || tag == Tag::b;
        const bool struck = tag == Tag::del || tag == Tag::s || tag == Tag::strike;
        const std::string_view inner = trim_spaces(std::string_view(inline_).substr(mark));
        // A nested run's own delimiters are not text punctuation; an escaped one is.
        const auto punctuation_at = [&inner](std::size_t i) {
            const char c = inner[i];
            const bool delimiter = (c == '*' || c == '~') && !(i > 0 && inner[i - 1] == '\\');
            return std::ispunct(static_cast<unsigned char>(c)) != 0 && !delimiter;
        };
        const bool before_is_word = mark > 0 && std::isalnum(static_cast<unsigned char>(inline_[mark - 1])) != 0;
        const bool flanking_fails =
            !inner.empty() && (punctuation_at(inner.size() - 1) || (before_is_word && punctuation_at(0)));
        if (flanking_fails) {
            const std::string_view name = strong ? "strong" : struck ? "del" : "em";
            wrap(mark, "<" + std::string(name) + ">", "</" + std::string(name) + ">");
            return;
        }
        const std::string_view delimiter = strong ? "**" : struck ? "~~" : "*";
        wrap(mark, delimiter, delimiter);
    }

    // Wraps inline_[mark..] in `open` and `close`, the white space at its
    // ends (a space, or a line break that a <br> made) moved outside.
    void wrap(std::size_t mark, std::string_view open, std::string_view close) {
        const std::string inner = inline_.substr(mark);
        const std::string_view trimmed = trim_spaces(inner);
        const std::size_t first = inner.find_first_not_of(" \n");
        const std::string_view leading = std::string_view(inner).substr(0, first);
        const std::string_view trailing =
            first == std::string::npos ? std::string_view{} : std::string_view(inner).substr(inner.find_last_not_of(" \n") + 1);
        inline_.resize(mark);
        const auto put_space = [this](std::string_view space) {
            if (space.find('\n') != std::string_view::npos) {
                trim_trailing_space();
                if (!inline_.empty() && inline_.back() != '\n') {
                    inline_.push_back('\n');
                }
            } else if (!space.empty() && !inline_.empty() && inline_.back() != ' ' && inline_.back() != '\n') {
                inline_.push_back(' ');
            }
        };
        if (trimmed.empty()) {
            put_space(inner);
            return;
        }
        put_space(leading);
        inline_.append(open).append(trimmed).append(close);
        put_space(trailing);
    }

    static std::string_view trim_spaces(std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) {
            s.remove_prefix(1);
        }
        while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) {
            s.remove_suffix(1);
        }
        return s;
    }

    void close_link(std::size_t mark, const Node* a) {
        const std::string_view href = text::trim(a->attr("href"));
        // A heading that links to its own place in the page gives its words
        // without the link.
        if (href.empty() || (headings_open_ > 0 && href.starts_with('#'))) {
            return;  // its text stays, as text
        }
        wrap(mark, "[", "](" + destination(href) + ")");
    }

    void image(const Node* img) {
        const std::string_view src = text::trim(img->attr("src"));
        if (src.empty()) {
            return;
        }
        std::string alt;
        append_escaped(alt, img->attr("alt"));
        inline_ += "![" + std::string(text::trim(alt)) + "](" + destination(src) + ")";
    }

    void heading(int level) {
        std::string text(trim_spaces(inline_));
        inline_.clear();
        std::replace(text.begin(), text.end(), '\n', ' ');
        if (text::shows_nothing(text)) {
            return;
        }
        if (text.back() == '#') {
            text.insert(text.size() - 1, "\\");  // a closing "#" run would be dropped
        }
        write_block_lines({std::string(static_cast<std::size_t>(level), '#') + " " + text});
    }

    void flush_paragraph() {
        // What opened before this point is written already, or a block is
        // being written inside it: either way it cannot close around its
        // content (a link holding a heading stays plain).
        for (Open& open : open_) {
            open.broken = true;
        }
        if (inline_.empty()) {
            return;
        }
        std::vector<std::string> lines;
        std::string_view rest = inline_;
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            const std::string_view line = trim_spaces(rest.substr(0, end));
            if (!text::shows_nothing(line)) {
                lines.push_back(escape_line_start(line));
            }
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        inline_.clear();
        if (lines.empty()) {
            return;
        }
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            lines[i] += "\\";  // a hard line break, as <br> was
        }
        write_block_lines(lines);
    }

    // The prefix of the next line: each container's, an item's marker on its first line.
    std::string line_prefix(std::size_t depth) {
        std::string prefix;
        for (std::size_t i = 0; i < depth && i < containers_.size(); ++i) {
            const Container& c = containers_[i];
            if (c.kind == Kind::quote) {
                prefix += "> ";
            } else if (c.kind == Kind::item) {
                prefix += c.wrote ? std::string(c.marker.size(), ' ') : c.marker;
            }
        }
        return prefix;
    }

    // A line behind the prefixes of the outermost `depth` containers (all by default).
    void write_line(std::string_view line, std::size_t depth = SIZE_MAX) {
        std::string prefix = line_prefix(depth);
        if (line.empty()) {
            while (!prefix.empty() && prefix.back() == ' ') {
                prefix.pop_back();
            }
        }
        out_.append(prefix).append(line).push_back('\n');
    }

    // A block's lines, after a blank line when the container already holds a
    // block (list items follow each other directly; a list right after its
    // item's first line too).
    void write_block_lines(const std::vector<std::string>& lines) {
        Container& here = containers_.back();
        if (blank_before_depth_ > 0) {
            write_line("", blank_before_depth_);  // outside the containers opened since
        } else if (here.wrote) {
            write_line("");
        }
        blank_before_depth_ = 0;
        for (const std::string& line : lines) {
            write_line(line);
            for (Container& c : containers_) {
                c.wrote = true;
            }
        }
    }

    // A quote or a list after a block of its parent's starts after a blank
    // line: "3. item" right under a paragraph would continue it. A list that
    // starts an item's content follows its first line directly.
    void open_container(const Container& container) {
        const Container& parent = containers_.back();
        if (parent.wrote && !(container.kind == Kind::list && parent.kind == Kind::item) &&
            blank_before_depth_ == 0) {
            blank_before_depth_ = containers_.size();
        }
        containers_.push_back(container);
    }

    void close_container() {
        const Container closed = containers_.back();
        containers_.pop_back();
        if (closed.kind == Kind::item && !closed.wrote) {
            return;  // an empty item is left out
        }
        if (closed.kind == Kind::item) {
            containers_.back().wrote = true;
            return;
        }
        // After a list or a quote, the next block in the parent needs a blank line.
        if (closed.wrote) {
            containers_.back().wrote = true;
        }
    }

    void code_block(const Node* pre) {
        std::string code = preformatted_text(pre);
        while (!code.empty() && (code.back() == '\n' || code.back() == ' ' || code.back() == '\t')) {
            code.pop_back();
        }
        std::size_t first = 0;
        while (first < code.size() && code[first] == '\n') {
            ++first;
        }
        code.erase(0, first);
        if (text::trim(code).empty()) {
            return;
        }
        std::string language;
        if (const auto found = languages_.find(pre); found != languages_.end()) {
            language = found->second;
        }
        const std::string fence(std::max<std::size_t>(3, longest_backtick_run(code) + 1), '`');
        std::vector<std::string> lines{fence + language};
        std::string_view rest = code;
        while (true) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            std::string line(rest.substr(0, end));
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            lines.push_back(std::move(line));
            if (end >= rest.size()) {
                break;
            }
            rest.remove_prefix(end + 1);
        }
        lines.push_back(fence);
        write_block_lines(lines);
    }

    void table(const Node* table) {
        // Rows in document order (thead, tbody and tfoot rows alike), cells with their spans.
        std::vector<std::vector<const Node*>> rows;
        const Node* caption = nullptr;
        bool expressible = true;
        for (const Node* n = dom::next_element(table, table); n != nullptr;) {
            if (n->is(Tag::table) || breaks_a_cell(n->tag)) {
                expressible = false;
                break;
            }
            if (n->is(Tag::caption)) {
                caption = n;
                n = dom::next_element(n, table, true);
                continue;
            }
            if (n->is(Tag::tr)) {
                rows.emplace_back();
            } else if ((n->is(Tag::td) || n->is(Tag::th)) && !rows.empty()) {
                rows.back().push_back(n);
            }
            n = dom::next_element(n, table);
        }
        if (!expressible || rows.empty()) {
            if (!expressible) {
                html_block(table);
            }
            return;
        }
        if (caption != nullptr) {
            MarkdownWriter cell_writer(languages_);
            if (std::string text = cell_writer.render_cell(caption); !text.empty()) {
                write_block_lines({escape_line_start(text)});
            }
        }
        // The grid: a colspan fills the columns after it with empty cells, a
        // rowspan the cells below, so that every row has the same columns.
        std::vector<std::vector<std::string>> grid;
        std::vector<std::size_t> spanned_rows;  // per column: rows still covered from above
        for (const std::vector<const Node*>& row : rows) {
            std::vector<std::string> line;
            std::size_t column = 0;
            const auto fill_spanned = [&] {
                while (column < spanned_rows.size() && spanned_rows[column] > 0) {
                    --spanned_rows[column];
                    line.emplace_back();
                    ++column;
                }
            };
            for (const Node* cell : row) {
                fill_spanned();
                MarkdownWriter cell_writer(languages_);
                line.push_back(cell_writer.render_cell(cell));
                const std::size_t colspan = span_attr(cell, "colspan");
                const std::size_t rowspan = span_attr(cell, "rowspan");
                for (std::size_t k = 0; k < colspan; ++k) {
                    if (k > 0) {
                        line.emplace_back();
                    }
                    if (spanned_rows.size() <= column) {
                        spanned_rows.resize(column + 1, 0);
                    }
                    spanned_rows[column] = rowspan - 1;
                    ++column;
                }
            }
            fill_spanned();
            grid.push_back(std::move(line));
        }
        std::size_t columns = 0;
        for (const auto& line : grid) {
            columns = std::max(columns, line.size());
        }
        if (columns == 0) {
            return;
        }
        std::vector<std::string> lines;
        const auto row_line = [&](const std::vector<std::string>& cells) {
            std::string line = "|";
            for (std::size_t c = 0; c < columns; ++c) {
                line += " ";
                line += c < cells.size() ? cells[c] : "";
                line += " |";
            }
            return line;
        };
        lines.push_back(row_line(grid.front()));
        std::string separator = "|";
        for (std::size_t c = 0; c < columns; ++c) {
            separator += " --- |";
        }
        lines.push_back(separator);
        for (std::size_t r = 1; r < grid.size(); ++r) {
            lines.push_back(row_line(grid[r]));
        }
        write_block_lines(lines);
    }

    // The table as HTML, as Markdown allows: an HTML block ends at a blank
    // line, so the lines that are only white space are left out.
    void html_block(const Node* table) {
        const std::string html = dom::outer_html(table);
        std::vector<std::string> lines;
        std::string_view rest = html;
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            const std::string_view line = rest.substr(0, end);
            if (!text::trim(line).empty()) {
                std::size_t indent = 0;
                while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) {
                    ++indent;
                }
                lines.emplace_back(line.substr(indent));
            }
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        if (!lines.empty()) {
            write_block_lines(lines);
        }
    }

    const CodeLanguages& languages_;
    std::string out_;
    std::string inline_;
    std::vector<Container> containers_;
    std::vector<Open> open_;
    bool in_cell_ = false;
    int headings_open_ = 0;
    int links_open_ = 0;
    // A blank line is due before the next line, behind this many containers' prefixes (0: none).
    std::size_t blank_before_depth_ = 0;
};

}  // namespace

bool is_permalink_mark(const Node* a) {
    if (!a->is(Tag::a) || !text::trim(a->attr("href")).starts_with('#')) {
        return false;
    }
    // The marks, each at most four bytes, and white space: a few bytes in all.
    constexpr std::size_t kMostBytes = 16;
    constexpr std::string_view kMarks[] = {"\u00B6", "\u00A7", "#", "\U0001F517", "\u2693"};
    std::size_t bytes = 0;
    bool marked = false;
    for (const Node* n = dom::next_node(a, a); n != nullptr; n = dom::next_node(n, a)) {
        if (n->is(Tag::img)) {
            return false;  // an image says what it says
        }
        if (!n->is_text()) {
            continue;
        }
        bytes += n->data.size();
        if (bytes > kMostBytes) {
            return false;
        }
        for (std::size_t pos = 0; pos < n->data.size();) {
            if (text::is_html_space(n->data[pos])) {
                ++pos;
                continue;
            }
            const auto mark = std::find_if(std::begin(kMarks), std::end(kMarks), [&](std::string_view m) {
                return n->data.substr(pos).starts_with(m);
            });
            if (mark == std::end(kMarks)) {
                return false;
            }
            pos += mark->size();
            marked = true;
        }
    }
    return marked;
}

bool is_block_element(const Node* node) noexcept {
    switch (node->tag) {
    case Tag::address: case Tag::article: case Tag::aside: case Tag::blockquote: case Tag::center:
    case Tag::dd: case Tag::details: case Tag::dialog: case Tag::div: case Tag::dl: case Tag::dt:
    case Tag::fieldset: case Tag::figcaption: case Tag::figure: case Tag::footer: case Tag::form:
    case Tag::h1: case Tag::h2: case Tag::h3: case Tag::h4: case Tag::h5: case Tag::h6: case Tag::header:
    case Tag::hgroup: case Tag::hr: case Tag::legend: case Tag::li: case Tag::main: case Tag::menu:
    case Tag::nav: case Tag::ol: case Tag::p: case Tag::pre: case Tag::section: case Tag::summary:
    case Tag::table: case Tag::caption: case Tag::tr: case Tag::td: case Tag::th: case Tag::thead:
    case Tag::tbody: case Tag::tfoot: case Tag::ul: case Tag::listing: case Tag::xmp: case Tag::plaintext:
        return true;
    default:
        return false;
    }
}

namespace {

// What the text of `node` shows at one end: its first (or last) character
// that is not white space, and whether it shows two such characters or more.
// Only the first few nodes from that end are looked at: a long run of empty
// markup is not worth a walk for each of its siblings.
struct TextEdge {
    char edge = '\0';
    bool two_or_more = false;
};

TextEdge text_edge(const Node* node, bool from_end) noexcept {
    constexpr std::size_t kNodesLooked = 32;
    TextEdge found;
    std::size_t characters = 0;
    const Node* n = from_end ? dom::last_descendant(node) : node;
    for (std::size_t seen = 0; n != nullptr && seen < kNodesLooked; ++seen) {
        if (n->is_text()) {
            const std::string_view data = n->data;
            for (std::size_t i = 0; i < data.size(); ++i) {
                const char c = data[from_end ? data.size() - 1 - i : i];
                if (text::is_html_space(c)) {
                    continue;
                }
                if (characters++ == 0) {
                    found.edge = c;
                } else {
                    found.two_or_more = true;
                    return found;
                }
            }
        }
        n = from_end ? dom::previous_node(n, node) : dom::next_node(n, node);
    }
    return found;
}

bool is_attached_script(const Node* node) noexcept {
    return node->is(Tag::sup) || node->is(Tag::sub);
}

bool reads_apart_from_previous(const Node* element) noexcept {
    if (!element->is_element() || is_block_element(element) || is_attached_script(element)) {
        return false;
    }
    const Node* previous = element->prev;
    while (previous != nullptr && previous->kind == dom::NodeKind::comment) {
        previous = previous->prev;
    }
    if (previous == nullptr || !previous->is_element() || is_block_element(previous) || previous->is(Tag::br) ||
        is_attached_script(previous)) {
        return false;
    }
    const TextEdge before = text_edge(previous, true);
    const TextEdge after = text_edge(element, false);
    return before.two_or_more && after.two_or_more && text::is_ascii_alnum(before.edge) &&
           text::is_ascii_alnum(after.edge);
}

}  // namespace

void separate_from_previous(std::string& out, const Node* element) {
    if (!out.empty() && out.back() != ' ' && out.back() != '\n' && reads_apart_from_previous(element)) {
        out.push_back(' ');
    }
}

void append_collapsed(std::string& out, std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        if (text::is_js_space(text::next_code_point(text, pos))) {
            if (!out.empty() && out.back() != ' ' && out.back() != '\n') {
                out.push_back(' ');
            }
            continue;
        }
        out.append(text.substr(start, pos - start));
    }
}

std::string preformatted_text(const Node* pre) {
    std::string out;
    const auto line_break = [&out] {
        if (!out.empty() && out.back() != '\n') {
            out.push_back('\n');
        }
    };
    walk_tree(
        pre,
        [&](const Node* n) {
            if (n->is_text()) {
                out.append(n->data);
            } else if (n->is(Tag::br)) {
                out.push_back('\n');
            } else if (n->is_element() && is_block_element(n)) {
                line_break();
            }
            return true;
        },
        [&](const Node* n) {
            if (n->is_element() && is_block_element(n)) {
                line_break();
            }
        });
    return out;
}

std::size_t list_start(const Node* ol) {
    const std::string_view start = text::trim(ol->attr("start"));
    std::size_t number = 0;
    for (const char c : start) {
        if (c < '0' || c > '9' || number > 1000) {
            return 1;
        }
        number = number * 10 + static_cast<std::size_t>(c - '0');
    }
    return start.empty() || number > 1000 ? 1 : number;
}

bool holds_blocks(const Node* pre) {
    for (const Node* n = dom::next_element(pre, pre); n != nullptr; n = dom::next_element(n, pre)) {
        if (is_block_element(n)) {
            return true;
        }
    }
    return false;
}

CodeLanguages code_languages(const Node* content) {
    CodeLanguages languages;
    for (const Node* n = content; n != nullptr; n = dom::next_element(n, content)) {
        if (!n->is(Tag::pre)) {
            continue;
        }
        std::string language = language_in_class(n->attr("class"));
        if (language.empty()) {
            if (const Node* code = n->first_element_child(); code != nullptr && code->is(Tag::code)) {
                language = language_in_class(code->attr("class"));
            }
        }
        if (!language.empty()) {
            languages.emplace(n, std::move(language));
        }
    }
    return languages;
}

namespace {

// A YAML double-quoted scalar.
std::string yaml_quoted(std::string_view value) {
    std::string out = "\"";
    for (const char c : value) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                constexpr char kHex[] = "0123456789abcdef";
                out += "\\x";
                out.push_back(kHex[static_cast<unsigned char>(c) >> 4U]);
                out.push_back(kHex[static_cast<unsigned char>(c) & 0xFU]);
            } else {
                out.push_back(c);
            }
        }
    }
    return out + "\"";
}

}  // namespace

std::string yaml_front_matter(const Article& article, std::string_view url) {
    std::string out = "---\n";
    const auto field = [&out](std::string_view name, const std::optional<std::string>& value) {
        if (value && !text::trim(*value).empty()) {
            out.append(name).append(": ").append(yaml_quoted(text::trim(*value))).push_back('\n');
        }
    };
    field("title", article.title);
    field("author", article.byline);
    field("date", article.published_time);
    field("site", article.site_name);
    field("url", url.empty() ? std::nullopt : std::optional<std::string>(url));
    field("language", article.lang);
    return out + "---\n\n";
}

std::string to_markdown(const Node* content, const CodeLanguages& languages) {
    MarkdownWriter writer(languages);
    writer.render(content);
    return writer.take();
}

}  // namespace pith::extract
