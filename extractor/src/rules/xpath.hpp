// XPath 1.0 over pith's DOM, by libxml2's engine. Site rules (Full-Text RSS
// files, Lectito's fingerprints) are written in real XPath 1.0: contains(),
// normalize-space(), concat(), substring-after(), every axis, unions. libxml2
// implements all of it; pith mirrors the subtree a rule needs into an xmlDoc
// whose nodes point back at pith's, evaluates there, and maps the result back.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pith/dom.hpp"
#include "pith/result.hpp"

namespace pith::rules {

// A compiled expression. Compiling checks the syntax and the function names,
// so a rule file is judged once, when it is loaded.
class XPathExpression {
public:
    // Errors: invalid_argument with libxml2's reason.
    [[nodiscard]] static Result<XPathExpression> compile(std::string_view expression);

    XPathExpression(XPathExpression&&) noexcept;
    XPathExpression& operator=(XPathExpression&&) noexcept;
    ~XPathExpression();

    [[nodiscard]] const std::string& text() const noexcept { return text_; }

private:
    friend class XmlMirror;
    XPathExpression(std::string text, void* compiled) noexcept;
    std::string text_;
    void* compiled_ = nullptr;  // xmlXPathCompExprPtr
};

// An upper bound of the memory a page's mirror takes, from the counts the
// scan before the parse has: libxml2 spends about 176 bytes an element, 288
// an attribute, 144 a text node and 1.1 per byte of text (measured with
// mallinfo2 on the largest trafilatura-dev pages, every one under this model
// with text nodes counted as elements and text as all the markup), and a
// quarter more for margin.
[[nodiscard]] constexpr std::size_t mirror_memory_bytes(std::size_t elements, std::size_t attributes,
                                                        std::size_t markup_bytes) noexcept {
    const std::size_t model = 320 * elements + 288 * attributes + markup_bytes + markup_bytes / 10;
    return model + model / 4;
}

// An xmlDoc copy of a pith subtree: elements with their attributes, text.
// Its nodes point back at pith's (xmlNode::_private). Iterative; built once
// per page that has a rule, and only then.
class XmlMirror {
public:
    explicit XmlMirror(const dom::Node* root);
    XmlMirror(const XmlMirror&) = delete;
    XmlMirror& operator=(const XmlMirror&) = delete;
    ~XmlMirror();

    // The pith nodes the expression selects, in document order (elements and
    // text nodes; an attribute selects its element). Errors: invalid_argument
    // when the expression does not give a node set.
    [[nodiscard]] Result<std::vector<dom::Node*>> select(const XPathExpression& expression) const;

    // The expression's value as a string (XPath's string()): for a node set,
    // its first node's text; for a number or a boolean, its string form.
    [[nodiscard]] Result<std::string> evaluate_string(const XPathExpression& expression) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace pith::rules
