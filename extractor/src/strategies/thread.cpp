#include "strategies/thread.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dom/walk.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// Shorter lines ("Thanks!", "+1") repeat in any thread without quoting.
constexpr std::size_t kShortestRepeatedLine = 40;  // bytes
// Each quote searches the whole text: a thread shows a few dozen, and the cap
// bounds the work on a page of thousands.
constexpr std::size_t kMostQuotesSearched = 256;

// A quote and where its text lies in the article's text.
struct Quote {
    Node* node = nullptr;
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string longest_line;
};

// Appends the text node's text, white space collapsed, as one line of `text`;
// returns the line (a copy: `text` grows on).
std::string append_line(std::string& text, std::string_view data) {
    std::string line = text::collapse_runs(text::trim(data));
    if (!line.empty()) {
        text.append(line).push_back('\n');
    }
    return line;
}

}  // namespace

std::size_t remove_repeated_quotes(Attempt& chosen) {
    Node* const root = chosen.content;
    if (root == nullptr) {
        return 0;
    }
    // The article's text line by line, and each outermost quote's span of it.
    std::string text;
    std::vector<Quote> quotes;
    for (Node* n = root; n != nullptr;) {
        if (n->is(Tag::blockquote)) {
            Quote quote{n, text.size(), 0, {}};
            for (const Node* inner = n; inner != nullptr; inner = dom::next_node(inner, n)) {
                if (inner->is_text()) {
                    if (std::string line = append_line(text, inner->data);
                        line.size() > quote.longest_line.size()) {
                        quote.longest_line = std::move(line);
                    }
                }
            }
            quote.end = text.size();
            quotes.push_back(std::move(quote));
            n = dom::next_node(n, root, true);
            continue;
        }
        if (n->is_text()) {
            append_line(text, n->data);
        }
        n = dom::next_node(n, root);
    }
    if (quotes.empty()) {
        return 0;
    }
    // Whether `at` falls inside one of the quotes (sorted, disjoint).
    const auto in_a_quote = [&](std::size_t at) {
        const auto after = std::upper_bound(quotes.begin(), quotes.end(), at,
                                            [](std::size_t pos, const Quote& q) { return pos < q.begin; });
        return after != quotes.begin() && at < std::prev(after)->end;
    };
    std::vector<Node*> repeated;
    for (std::size_t q = 0; q < std::min(quotes.size(), kMostQuotesSearched); ++q) {
        const Quote& quote = quotes[q];
        if (quote.longest_line.size() < kShortestRepeatedLine) {
            continue;
        }
        for (std::size_t at = text.find(quote.longest_line); at != std::string::npos;
             at = text.find(quote.longest_line, at + 1)) {
            if (!in_a_quote(at)) {
                repeated.push_back(quote.node);
                break;
            }
        }
    }
    return remove_from_article(chosen, repeated);
}

}  // namespace pith::extract
