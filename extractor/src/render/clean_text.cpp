// Clean text from the article's DOM: blocks become paragraphs separated by
// one blank line, list items and table rows become lines, and nothing else
// of the markup is kept. textContent, which keeps the page's own white
// space, stays as Readability makes it.
#include <string>
#include <string_view>
#include <vector>

#include "render/render.hpp"
#include "text/text.hpp"

namespace pith::extract {

using dom::Node;
using dom::Tag;

namespace {

std::string_view trim_line(std::string_view line) {
    while (!line.empty() && line.front() == ' ') {
        line.remove_prefix(1);
    }
    while (!line.empty() && line.back() == ' ') {
        line.remove_suffix(1);
    }
    return line;
}

// A table whose cells hold only inline content reads as rows of cells;
// any other is a layout, read as the blocks it holds.
bool is_grid(const Node* table) {
    for (const Node* n = dom::next_element(table, table); n != nullptr; n = dom::next_element(n, table)) {
        if (n->is(Tag::table) || n->is(Tag::p) || n->is(Tag::div) || n->is(Tag::ul) || n->is(Tag::ol) ||
            n->is(Tag::pre) || n->is(Tag::blockquote)) {
            return false;
        }
    }
    return true;
}

class TextWriter {
public:
    void render(const Node* root) {
        walk_tree(
            root, [this](const Node* n) { return enter(n); }, [this](const Node* n) { leave(n); });
        flush();
    }

    std::string take() { return std::move(out_); }

private:
    struct List {
        bool ordered = false;
        std::size_t next_number = 1;
    };

    bool enter(const Node* n) {
        if (n->is_text()) {
            append_collapsed(inline_, n->data);
            return false;
        }
        if (!n->is_element()) {
            return false;
        }
        if (is_permalink_mark(n)) {
            return false;
        }
        switch (n->tag) {
        case Tag::br:
            trim_trailing_space();
            inline_.push_back('\n');
            return false;
        case Tag::pre:
            flush();
            if (holds_blocks(n)) {
                return true;
            }
            preformatted(n);
            return false;
        case Tag::table:
            flush();
            if (is_grid(n)) {
                grid(n);
                return false;
            }
            return true;
        case Tag::ul:
        case Tag::ol:
            flush();
            lists_.push_back(List{n->is(Tag::ol), list_start(n)});
            return true;
        case Tag::li: {
            flush();
            if (!lists_.empty() && lists_.back().ordered) {
                marker_ = std::to_string(lists_.back().next_number++) + ". ";
            } else {
                marker_ = "- ";
            }
            return true;
        }
        default:
            if (is_block_element(n)) {
                flush();
            } else {
                separate_from_previous(inline_, n);
            }
            return true;
        }
    }

    void leave(const Node* n) {
        if (!n->is_element()) {
            return;
        }
        if (n->is(Tag::ul) || n->is(Tag::ol)) {
            flush();
            if (!lists_.empty()) {
                lists_.pop_back();
            }
        } else if (n->is(Tag::li)) {
            flush();
            marker_.clear();
        } else if (is_block_element(n)) {
            flush();
        }
    }

    void trim_trailing_space() {
        while (!inline_.empty() && inline_.back() == ' ') {
            inline_.pop_back();
        }
    }

    // The pending inline text as a block of lines.
    void flush() {
        std::vector<std::string> lines;
        std::string_view rest = inline_;
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            if (const std::string_view line = trim_line(rest.substr(0, end)); !text::shows_nothing(line)) {
                lines.emplace_back(line);
            }
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        inline_.clear();
        write_block(std::move(lines));
    }

    // List items follow each other line by line; every other block comes
    // after a blank line.
    void write_block(std::vector<std::string> lines) {
        if (lines.empty()) {
            return;
        }
        const bool item = !marker_.empty();
        if (item) {
            lines.front() = marker_ + lines.front();
            marker_.clear();  // the item's later blocks are its own paragraphs
        }
        if (!out_.empty()) {
            out_ += item && last_was_item_ ? "\n" : "\n\n";
        }
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (i > 0) {
                out_.push_back('\n');
            }
            out_ += lines[i];
        }
        last_was_item_ = item;
    }

    void preformatted(const Node* pre) {
        const std::string code = preformatted_text(pre);
        std::vector<std::string> lines;
        bool blank = false;
        std::string_view rest = code;
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            std::string line;
            append_collapsed(line, rest.substr(0, end));
            const std::string_view trimmed = trim_line(line);
            if (trimmed.empty()) {
                blank = !lines.empty();
            } else {
                if (blank) {
                    lines.emplace_back();  // one blank line, never more
                }
                lines.emplace_back(trimmed);
                blank = false;
            }
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        write_block(std::move(lines));
    }

    void grid(const Node* table) {
        std::vector<std::string> rows;
        std::vector<std::string> cells;
        const auto end_row = [&] {
            std::string row;
            for (const std::string& cell : cells) {
                row += row.empty() ? "" : " | ";
                row += cell;
            }
            if (!row.empty()) {
                rows.push_back(std::move(row));
            }
            cells.clear();
        };
        for (const Node* n = dom::next_element(table, table); n != nullptr;) {
            if (n->is(Tag::tr)) {
                end_row();
            } else if (n->is(Tag::td) || n->is(Tag::th) || n->is(Tag::caption)) {
                std::string cell;
                walk_tree(
                    n,
                    [&cell](const Node* d) {
                        if (d->is_text()) {
                            append_collapsed(cell, d->data);
                        } else if (d->is(Tag::br) || (d->is_element() && is_block_element(d))) {
                            append_collapsed(cell, " ");
                        } else {
                            separate_from_previous(cell, d);
                        }
                        return true;
                    },
                    [](const Node*) {});
                if (const std::string_view text = trim_line(cell); !text::shows_nothing(text)) {
                    cells.emplace_back(text);
                }
                if (n->is(Tag::caption)) {
                    end_row();  // the caption is a line of its own
                }
                n = dom::next_element(n, table, true);
                continue;
            }
            n = dom::next_element(n, table);
        }
        end_row();
        write_block(std::move(rows));
    }

    std::string out_;
    std::string inline_;
    std::string marker_;  // "- " or "3. " for the next line written
    std::vector<List> lists_;
    bool last_was_item_ = false;
};

}  // namespace

std::string to_clean_text(const Node* content) {
    TextWriter writer;
    writer.render(content);
    return writer.take();
}

}  // namespace pith::extract
