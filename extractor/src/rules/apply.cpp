#include "rules/apply.hpp"

#include <algorithm>
#include <unordered_set>

#include "dom/walk.hpp"
#include "text/text.hpp"

namespace pith::rules {

using dom::Node;

std::string host_of(std::string_view url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string_view::npos) {
        return {};
    }
    std::string_view rest = url.substr(scheme + 3);
    rest = rest.substr(0, std::min(rest.find_first_of("/?#"), rest.size()));
    if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
        rest.remove_prefix(at + 1);
    }
    if (!rest.empty() && rest.front() == '[') {  // an IPv6 literal keeps its colons
        return text::to_lower_ascii(rest.substr(0, rest.find(']') + 1));
    }
    rest = rest.substr(0, std::min(rest.find(':'), rest.size()));
    while (!rest.empty() && rest.back() == '.') {
        rest.remove_suffix(1);
    }
    return text::to_lower_ascii(rest);
}

std::optional<std::string> replaced_markup(const SiteRule& rule, std::string_view markup) {
    if (rule.replace.empty()) {
        return std::nullopt;
    }
    std::string out(markup);
    for (const auto& [find, replace] : rule.replace) {
        if (find.empty()) {
            continue;
        }
        std::string next;
        next.reserve(out.size());
        std::size_t from = 0;
        for (std::size_t at = out.find(find); at != std::string::npos; at = out.find(find, from)) {
            next.append(out, from, at - from).append(replace);
            from = at + find.size();
        }
        next.append(out, from, std::string::npos);
        out = std::move(next);
    }
    return out;
}

namespace {

// Of `nodes`, those not inside another of them, in document order.
std::vector<Node*> outermost(const std::vector<Node*>& nodes) {
    const std::unordered_set<const Node*> chosen(nodes.begin(), nodes.end());
    std::vector<Node*> out;
    for (Node* node : nodes) {
        bool inside = false;
        for (const Node* p = node->parent; p != nullptr && !inside; p = p->parent) {
            inside = chosen.count(p) > 0;
        }
        if (!inside) {
            out.push_back(node);
        }
    }
    return out;
}

bool names_hold(const Node* element, std::string_view needle) {
    return text::icontains_ascii(element->attr("id"), needle) || text::icontains_ascii(element->attr("class"), needle);
}

}  // namespace

Applied apply_rule(const SiteRule& rule, dom::Document& doc) {
    Applied applied;
    Node* root = doc.document_element();
    if (root == nullptr) {
        return applied;
    }
    const XmlMirror mirror(root);
    const auto select = [&](const XPathExpression& expression) -> std::vector<Node*> {
        auto nodes = mirror.select(expression);
        if (!nodes.ok()) {
            applied.errors.push_back(nodes.error().message);
            return {};
        }
        return std::move(nodes).value();
    };
    // Everything is selected on the page as it came, then changed.
    std::vector<Node*> strip;
    for (const XPathExpression& e : rule.strip) {
        const std::vector<Node*> nodes = select(e);
        strip.insert(strip.end(), nodes.begin(), nodes.end());
    }
    std::vector<std::pair<Node*, std::string_view>> attributes;  // element, attribute name
    for (const XPathExpression& e : rule.strip_attr) {
        // An attribute selects its element; the attribute's name is the expression's last step.
        const std::string_view text = e.text();
        const std::size_t at = text.rfind('@');
        const std::string_view name = at == std::string_view::npos ? std::string_view{} : text.substr(at + 1);
        for (Node* n : select(e)) {
            attributes.emplace_back(n, name);
        }
    }
    std::vector<Node*> dissolve;
    for (const XPathExpression& e : rule.dissolve) {
        const std::vector<Node*> nodes = select(e);
        dissolve.insert(dissolve.end(), nodes.begin(), nodes.end());
    }
    std::vector<std::pair<std::string, std::vector<Node*>>> wraps;
    for (const auto& [tag, e] : rule.wrap_in) {
        wraps.emplace_back(tag, select(e));
    }
    const auto first_text = [&](const std::vector<XPathExpression>& alternatives) -> std::optional<std::string> {
        for (const XPathExpression& e : alternatives) {
            auto value = mirror.evaluate_string(e);
            if (!value.ok()) {
                applied.errors.push_back(value.error().message);
                continue;
            }
            std::string text = text::collapse_runs(text::trim(value.value()));
            if (!text.empty()) {
                return text;
            }
        }
        return std::nullopt;
    };
    applied.title = first_text(rule.title);
    applied.author = first_text(rule.author);
    applied.date = first_text(rule.date);
    // A link expression selects an <a> (or its href, which selects it), or an
    // element with one inside.
    const auto first_href = [&](const std::vector<XPathExpression>& alternatives) -> std::optional<std::string> {
        for (const XPathExpression& e : alternatives) {
            for (const Node* n : select(e)) {
                for (const Node* a = n; a != nullptr; a = dom::next_element(a, n)) {
                    if (a->is(dom::Tag::a) && !text::trim(a->attr("href")).empty()) {
                        return std::string(text::trim(a->attr("href")));
                    }
                }
            }
        }
        return std::nullopt;
    };
    applied.next_page_href = first_href(rule.next_page_link);
    applied.single_page_href = first_href(rule.single_page_link);
    for (const XPathExpression& e : rule.body) {
        std::vector<Node*> nodes = select(e);
        std::erase_if(nodes, [](const Node* n) { return !n->is_element(); });
        if (!nodes.empty()) {
            applied.body = outermost(nodes);
            break;
        }
    }

    for (Node* n : strip) {
        if (n->parent != nullptr && n != root) {
            dom::detach(n);
            ++applied.removed;
        }
    }
    if (!rule.strip_id_or_class.empty() || !rule.strip_image_src.empty()) {
        for (Node* n = dom::next_element(root, root); n != nullptr;) {
            const bool named = std::any_of(rule.strip_id_or_class.begin(), rule.strip_id_or_class.end(),
                                           [n](const std::string& s) { return !s.empty() && names_hold(n, s); });
            const bool image = n->is(dom::Tag::img) &&
                               std::any_of(rule.strip_image_src.begin(), rule.strip_image_src.end(),
                                           [n](const std::string& s) {
                                               return !s.empty() && n->attr("src").find(s) != std::string_view::npos;
                                           });
            if (named || image) {
                Node* next = dom::next_element(n, root, true);
                dom::detach(n);
                ++applied.removed;
                n = next;
                continue;
            }
            n = dom::next_element(n, root);
        }
    }
    for (const auto& [element, name] : attributes) {
        if (!name.empty()) {
            doc.remove_attr(element, name);
        }
    }
    for (Node* n : dissolve) {
        if (n->parent != nullptr && n != root) {
            while (n->first_child != nullptr) {
                dom::insert_before(n->parent, n->first_child, n);
            }
            dom::detach(n);
        }
    }
    for (auto& [tag, nodes] : wraps) {
        for (Node* n : nodes) {
            if (n->parent == nullptr || n == root) {
                continue;
            }
            Node* wrapper = doc.create_element(dom::tag_from_name(tag));
            if (wrapper->tag == dom::Tag::other) {
                wrapper = doc.create_element(std::string_view(tag));
            }
            dom::insert_before(n->parent, wrapper, n);
            dom::append_child(wrapper, n);
        }
    }
    std::erase_if(applied.body, [root](const Node* n) { return !dom::is_within(n, root); });
    return applied;
}

}  // namespace pith::rules
