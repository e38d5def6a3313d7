// A recursive-descent reader of CSS selectors that writes XPath as it goes.
// Its recursion is bounded by the selector's own nesting (:not() takes only
// simple selectors), never by the document.
#include "rules/css.hpp"

#include <cctype>
#include <string>
#include <string_view>

namespace pith::rules {

namespace {

// An XPath string literal for `value`: quoted with whichever quote it lacks,
// or built with concat() when it holds both.
std::string quoted(std::string_view value, char quote) {
    std::string out;
    out.reserve(value.size() + 2);
    out.push_back(quote);
    out.append(value);
    out.push_back(quote);
    return out;
}

std::string literal(std::string_view value) {
    if (value.find('\'') == std::string_view::npos) {
        return quoted(value, '\'');
    }
    if (value.find('"') == std::string_view::npos) {
        return quoted(value, '"');
    }
    std::string out = "concat(";
    std::size_t start = 0;
    for (std::size_t quote = value.find('\''); quote != std::string_view::npos; quote = value.find('\'', start)) {
        out.append(quoted(value.substr(start, quote - start), '\'')).append(", \"'\", ");
        start = quote + 1;
    }
    return out.append(quoted(value.substr(start), '\'')).append(")");
}

std::string word_in(std::string_view attribute, std::string_view word) {
    std::string padded;
    padded.reserve(word.size() + 2);
    padded.append(" ").append(word).append(" ");
    std::string out = "contains(concat(' ', normalize-space(@";
    out.append(attribute).append("), ' '), ").append(literal(padded)).append(")");
    return out;
}

class Reader {
public:
    explicit Reader(std::string_view css) : css_(css) {}

    Result<std::string> selector_list() {
        std::string out;
        for (;;) {
            skip_space();
            auto one = complex_selector();
            if (!one.ok()) {
                return one;
            }
            out += out.empty() ? "" : " | ";
            out += one.value();
            skip_space();
            if (at_end()) {
                return out;
            }
            if (peek() != ',') {
                return fail("expected ',' or the end");
            }
            ++pos_;
        }
    }

private:
    // Compounds joined by combinators; the first is anywhere in the document.
    Result<std::string> complex_selector() {
        std::string out = "//";
        for (;;) {
            auto compound = compound_selector();
            if (!compound.ok()) {
                return compound;
            }
            out += compound.value();
            const std::size_t before = pos_;
            skip_space();
            if (at_end() || peek() == ',') {
                return out;
            }
            const char c = peek();
            if (c == '>') {
                ++pos_;
                out += "/";
            } else if (c == '+') {
                ++pos_;
                out += "/following-sibling::*[1]/self::";
            } else if (c == '~') {
                ++pos_;
                out += "/following-sibling::";
            } else if (pos_ > before) {
                out += "//";  // white space: a descendant
            } else {
                return fail("expected a combinator");
            }
            skip_space();
        }
    }

    // A type (or *) and its conditions, as "name[...][...]".
    Result<std::string> compound_selector() {
        std::string name = "*";
        if (!at_end() && peek() == '*') {
            ++pos_;
        } else if (!at_end() && is_name_char(peek())) {
            name = lower(identifier());
        }
        std::string conditions;
        bool any = name != "*" || (pos_ > 0 && css_[pos_ - 1] == '*');
        for (;;) {
            if (at_end()) {
                break;
            }
            auto condition = simple_condition(name);
            if (!condition.ok()) {
                return condition;
            }
            if (condition.value().empty()) {
                break;
            }
            conditions += "[" + condition.value() + "]";
            any = true;
        }
        if (!any) {
            return fail("expected a selector");
        }
        return name + conditions;
    }

    // One #id, .class, [attribute] or :pseudo-class as an XPath predicate;
    // "" when the compound ends here.
    Result<std::string> simple_condition(const std::string& type) {
        const char c = peek();
        if (c == '#') {
            ++pos_;
            const std::string id = identifier();
            if (id.empty()) {
                return fail("expected an id after '#'");
            }
            return "@id=" + literal(id);
        }
        if (c == '.') {
            ++pos_;
            const std::string name = identifier();
            if (name.empty()) {
                return fail("expected a class name after '.'");
            }
            return word_in("class", name);
        }
        if (c == '[') {
            return attribute();
        }
        if (c == ':') {
            return pseudo_class(type);
        }
        return std::string();
    }

    Result<std::string> attribute() {
        ++pos_;  // [
        skip_space();
        const std::string name = lower(identifier());
        if (name.empty()) {
            return fail("expected an attribute name");
        }
        skip_space();
        if (!at_end() && peek() == ']') {
            ++pos_;
            return "@" + name;
        }
        std::string op;
        while (!at_end() && std::string_view("~|^$*=").find(peek()) != std::string_view::npos) {
            op.push_back(css_[pos_++]);
        }
        skip_space();
        std::string value;
        if (!at_end() && (peek() == '"' || peek() == '\'')) {
            const char quote = css_[pos_++];
            bool closed = false;
            while (!at_end()) {
                const char c = css_[pos_++];
                if (c == quote) {
                    closed = true;
                    break;
                }
                if (c == '\\' && !at_end()) {
                    value.push_back(css_[pos_++]);  // an escaped character stands for itself
                } else {
                    value.push_back(c);
                }
            }
            if (!closed) {
                return fail("unclosed quote");
            }
        } else {
            value = identifier();
        }
        skip_space();
        if (at_end() || peek() != ']') {
            return fail("expected ']'");
        }
        ++pos_;
        const std::string attr = "@" + name;
        if (op == "=") {
            return attr + "=" + literal(value);
        }
        if (op == "~=") {
            return word_in(name, value);
        }
        if (op == "|=") {
            return attr + "=" + literal(value) + " or starts-with(" + attr + ", " + literal(value + "-") + ")";
        }
        if (op == "^=") {
            return "starts-with(" + attr + ", " + literal(value) + ")";
        }
        if (op == "$=") {
            return "substring(" + attr + ", string-length(" + attr + ") - " + std::to_string(value.size()) +
                   " + 1) = " + literal(value);
        }
        if (op == "*=") {
            return "contains(" + attr + ", " + literal(value) + ")";
        }
        return fail("unknown attribute operator '" + op + "'");
    }

    Result<std::string> pseudo_class(const std::string& type) {
        ++pos_;  // :
        const std::string name = lower(identifier());
        if (name == "first-child") {
            return std::string("not(preceding-sibling::*)");
        }
        if (name == "last-child") {
            return std::string("not(following-sibling::*)");
        }
        if (name == "only-child") {
            return std::string("not(preceding-sibling::*) and not(following-sibling::*)");
        }
        if (name == "first-of-type" || name == "last-of-type") {
            if (type == "*") {
                return fail(":" + name + " needs a type in XPath 1.0 (p:" + name + ")");
            }
            return std::string(name == "first-of-type" ? "not(preceding-sibling::" : "not(following-sibling::") +
                   type + ")";
        }
        if (name == "empty") {
            return std::string("not(*) and not(text())");
        }
        if (name == "nth-child" || name == "not") {
            if (at_end() || peek() != '(') {
                return fail("expected '(' after :" + name);
            }
            ++pos_;
            skip_space();
            Result<std::string> inside = name == "not" ? negation() : nth_child();
            if (!inside.ok()) {
                return inside;
            }
            skip_space();
            if (at_end() || peek() != ')') {
                return fail("expected ')'");
            }
            ++pos_;
            return inside;
        }
        return fail("unsupported pseudo-class ':" + name + "'");
    }

    Result<std::string> negation() {  // :not() holds one simple selector
        if (!at_end() && is_name_char(peek())) {
            return "not(self::" + lower(identifier()) + ")";
        }
        auto condition = simple_condition("*");
        if (!condition.ok()) {
            return condition;
        }
        if (condition.value().empty()) {
            return fail("expected a simple selector in :not()");
        }
        return "not(" + condition.value() + ")";
    }

    // an+b, with odd and even; the position among element siblings.
    Result<std::string> nth_child() {
        const std::string position = "(count(preceding-sibling::*) + 1)";
        const std::size_t end = css_.find(')', pos_);
        if (end == std::string_view::npos) {
            return fail("expected ')'");
        }
        std::string expr;
        for (char c : css_.substr(pos_, end - pos_)) {
            if (c != ' ') {
                expr.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
            }
        }
        pos_ = end;
        long a = 0;
        long b = 0;
        if (expr == "odd") {
            a = 2;
            b = 1;
        } else if (expr == "even") {
            a = 2;
            b = 0;
        } else if (const std::size_t n = expr.find('n'); n == std::string::npos) {
            if (!parse_long(expr, b)) {
                return fail("bad :nth-child argument");
            }
        } else {
            const std::string head = expr.substr(0, n);
            a = head.empty() || head == "+" ? 1 : head == "-" ? -1 : 0;
            if (!(head.empty() || head == "+" || head == "-") && !parse_long(head, a)) {
                return fail("bad :nth-child argument");
            }
            const std::string tail = expr.substr(n + 1);
            if (!tail.empty() && !parse_long(tail[0] == '+' ? tail.substr(1) : tail, b)) {
                return fail("bad :nth-child argument");
            }
        }
        if (a == 0) {
            return position + " = " + std::to_string(b);
        }
        const std::string offset = "(" + position + " - " + std::to_string(b) + ")";
        return offset + " mod " + std::to_string(a < 0 ? -a : a) + " = 0 and " + offset + " div " +
               std::to_string(a) + " >= 0";
    }

    static bool parse_long(const std::string& text, long& out) {
        if (text.empty() || text.size() > 9) {
            return false;
        }
        std::size_t i = text[0] == '-' ? 1 : 0;
        if (i == text.size()) {
            return false;
        }
        long value = 0;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9') {
                return false;
            }
            value = value * 10 + (text[i] - '0');
        }
        out = text[0] == '-' ? -value : value;
        return true;
    }

    static bool is_name_char(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' ||
               static_cast<unsigned char>(c) >= 0x80;
    }

    std::string identifier() {
        std::string out;
        while (!at_end()) {
            if (css_[pos_] == '\\' && pos_ + 1 < css_.size()) {
                out.push_back(css_[pos_ + 1]);  // an escaped character stands for itself
                pos_ += 2;
            } else if (is_name_char(css_[pos_])) {
                out.push_back(css_[pos_++]);
            } else {
                break;
            }
        }
        return out;
    }

    static std::string lower(std::string s) {
        for (char& c : s) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return s;
    }

    void skip_space() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(peek())) != 0) {
            ++pos_;
        }
    }
    [[nodiscard]] bool at_end() const { return pos_ >= css_.size(); }
    [[nodiscard]] char peek() const { return css_[pos_]; }

    Error fail(const std::string& what) const {
        return Error{ErrorCode::invalid_argument,
                     "CSS selector \"" + std::string(css_) + "\" at " + std::to_string(pos_) + ": " + what};
    }

    std::string_view css_;
    std::size_t pos_ = 0;
};

}  // namespace

Result<std::string> css_to_xpath(std::string_view selector) {
    if (selector.find_first_not_of(" \t\n\r\f") == std::string_view::npos) {
        return Error{ErrorCode::invalid_argument, "empty CSS selector"};
    }
    return Reader(selector).selector_list();
}

}  // namespace pith::rules
