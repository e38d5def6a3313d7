#include "rules/xpath.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>

#include <mutex>
#include <utility>

namespace pith::rules {

using dom::Node;

namespace {

// libxml2 reports errors through per-thread handlers; pith keeps the last
// message of the calling thread and prints nothing.
thread_local std::string last_error;

void keep_structured_error(void* /*context*/, const xmlError* error) {
    if (error != nullptr && error->message != nullptr) {
        last_error = error->message;
        while (!last_error.empty() && (last_error.back() == '\n' || last_error.back() == ' ')) {
            last_error.pop_back();
        }
    }
}

void ignore_generic_error(void* /*context*/, const char* /*format*/, ...) {}

// The process-wide set-up once, and this thread's error handlers.
void prepare_libxml() {
    static std::once_flag initialised;
    std::call_once(initialised, [] { xmlInitParser(); });
    thread_local bool handlers = false;
    if (!handlers) {
        xmlSetStructuredErrorFunc(nullptr, reinterpret_cast<xmlStructuredErrorFunc>(&keep_structured_error));
        xmlSetGenericErrorFunc(nullptr, &ignore_generic_error);
        handlers = true;
    }
    last_error.clear();
}

const xmlChar* xml(std::string_view s) { return reinterpret_cast<const xmlChar*>(s.data()); }

// A name libxml2 can hold: element names from the HTML parser are never
// empty, but keep the mirror well-formed whatever comes.
std::string element_name(const Node* element) {
    std::string name(element->name);
    if (name.empty()) {
        name = "unknown";
    }
    return name;
}

}  // namespace

XPathExpression::XPathExpression(std::string text, void* compiled) noexcept
    : text_(std::move(text)), compiled_(compiled) {}

XPathExpression::XPathExpression(XPathExpression&& other) noexcept
    : text_(std::move(other.text_)), compiled_(std::exchange(other.compiled_, nullptr)) {}

XPathExpression& XPathExpression::operator=(XPathExpression&& other) noexcept {
    if (this != &other) {
        if (compiled_ != nullptr) {
            xmlXPathFreeCompExpr(static_cast<xmlXPathCompExprPtr>(compiled_));
        }
        text_ = std::move(other.text_);
        compiled_ = std::exchange(other.compiled_, nullptr);
    }
    return *this;
}

XPathExpression::~XPathExpression() {
    if (compiled_ != nullptr) {
        xmlXPathFreeCompExpr(static_cast<xmlXPathCompExprPtr>(compiled_));
    }
}

Result<XPathExpression> XPathExpression::compile(std::string_view expression) {
    prepare_libxml();
    const std::string text(expression);
    if (text.find('\0') != std::string::npos) {
        return Error{ErrorCode::invalid_argument, "XPath expression holds a NUL byte"};
    }
    // libxml2 compiles and evaluates by recursion over the expression's
    // nesting; real rules nest a few levels, so a deep one is refused first.
    constexpr std::size_t kMaxLength = 16 * 1024;
    constexpr int kMaxNesting = 64;
    if (text.size() > kMaxLength) {
        return Error{ErrorCode::invalid_argument, "XPath expression longer than 16 KiB"};
    }
    int depth = 0;
    for (const char c : text) {
        depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
        if (depth > kMaxNesting) {
            return Error{ErrorCode::invalid_argument, "XPath expression nested deeper than 64"};
        }
    }
    xmlXPathCompExprPtr compiled = xmlXPathCompile(xml(text));
    if (compiled == nullptr) {
        return Error{ErrorCode::invalid_argument,
                     "invalid XPath \"" + text + "\": " + (last_error.empty() ? "does not compile" : last_error)};
    }
    return XPathExpression(text, compiled);
}

struct XmlMirror::Impl {
    xmlDocPtr doc = nullptr;
    xmlNodePtr root = nullptr;
};

XmlMirror::XmlMirror(const Node* root) : impl_(std::make_unique<Impl>()) {
    prepare_libxml();
    impl_->doc = xmlNewDoc(xml("1.0"));
    if (impl_->doc == nullptr || root == nullptr) {
        return;
    }
    // One pass in document order; `parent` follows the walk down and up.
    xmlNodePtr parent = nullptr;
    const Node* n = root;
    while (n != nullptr) {
        xmlNodePtr copy = nullptr;
        if (n->is_element()) {
            copy = xmlNewDocNode(impl_->doc, nullptr, xml(element_name(n).c_str()), nullptr);
            for (std::uint32_t i = 0; copy != nullptr && i < n->attr_count; ++i) {
                const std::string name(n->attrs[i].name);
                const std::string value(n->attrs[i].value);
                if (!name.empty()) {
                    xmlNewProp(copy, xml(name.c_str()), xml(value.c_str()));
                }
            }
        } else if (n->is_text()) {
            copy = xmlNewDocTextLen(impl_->doc, xml(n->data), static_cast<int>(n->data.size()));
        }
        if (copy != nullptr) {
            copy->_private = const_cast<Node*>(n);
            if (parent == nullptr) {
                xmlDocSetRootElement(impl_->doc, copy);
                impl_->root = copy;
            } else {
                xmlAddChild(parent, copy);
            }
        }
        // Down into an element's children, else along and up.
        if (n->is_element() && n->first_child != nullptr && copy != nullptr) {
            parent = copy;
            n = n->first_child;
            continue;
        }
        while (n != nullptr && n != root && n->next == nullptr) {
            n = n->parent;
            parent = parent != nullptr ? parent->parent : nullptr;
            if (parent != nullptr && parent->type == XML_DOCUMENT_NODE) {
                parent = nullptr;
            }
        }
        n = (n == nullptr || n == root) ? nullptr : n->next;
    }
}

XmlMirror::~XmlMirror() {
    if (impl_ && impl_->doc != nullptr) {
        xmlFreeDoc(impl_->doc);
    }
}

namespace {

// Evaluates `compiled` with the mirror's root as the context node.
xmlXPathObjectPtr evaluate(xmlDocPtr doc, xmlNodePtr root, void* compiled) {
    xmlXPathContextPtr context = xmlXPathNewContext(doc);
    if (context == nullptr) {
        return nullptr;
    }
    context->node = root != nullptr ? root : reinterpret_cast<xmlNodePtr>(doc);
    xmlXPathObjectPtr result = xmlXPathCompiledEval(static_cast<xmlXPathCompExprPtr>(compiled), context);
    xmlXPathFreeContext(context);
    return result;
}

}  // namespace

Result<std::vector<Node*>> XmlMirror::select(const XPathExpression& expression) const {
    prepare_libxml();
    xmlXPathObjectPtr result = evaluate(impl_->doc, impl_->root, expression.compiled_);
    if (result == nullptr) {
        return Error{ErrorCode::invalid_argument, "XPath \"" + expression.text() + "\" failed: " +
                                                      (last_error.empty() ? "no result" : last_error)};
    }
    std::vector<Node*> nodes;
    if (result->type != XPATH_NODESET) {
        xmlXPathFreeObject(result);
        return Error{ErrorCode::invalid_argument, "XPath \"" + expression.text() + "\" does not select nodes"};
    }
    if (const xmlNodeSetPtr set = result->nodesetval; set != nullptr) {
        for (int i = 0; i < set->nodeNr; ++i) {
            xmlNodePtr node = set->nodeTab[i];
            if (node != nullptr && node->type == XML_ATTRIBUTE_NODE) {
                node = node->parent;
            }
            if (node != nullptr && node->_private != nullptr &&
                (node->type == XML_ELEMENT_NODE || node->type == XML_TEXT_NODE)) {
                nodes.push_back(static_cast<Node*>(node->_private));
            }
        }
    }
    xmlXPathFreeObject(result);
    return nodes;
}

Result<std::string> XmlMirror::evaluate_string(const XPathExpression& expression) const {
    prepare_libxml();
    xmlXPathObjectPtr result = evaluate(impl_->doc, impl_->root, expression.compiled_);
    if (result == nullptr) {
        return Error{ErrorCode::invalid_argument, "XPath \"" + expression.text() + "\" failed: " +
                                                      (last_error.empty() ? "no result" : last_error)};
    }
    xmlChar* text = xmlXPathCastToString(result);
    std::string out = text != nullptr ? reinterpret_cast<const char*>(text) : "";
    xmlFree(text);
    xmlXPathFreeObject(result);
    return out;
}

}  // namespace pith::rules
