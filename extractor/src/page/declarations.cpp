#include "page/declarations.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/json_ld.hpp"
#include "metadata/metadata.hpp"
#include "text/references.hpp"
#include "text/text.hpp"

namespace pith::extract {

namespace {

using dom::Node;
using dom::Tag;

// Each string after a "@type" key: `"@type": "Product"` or `"@type": ["A", "B"]`.
void scan_types(std::string_view json, std::vector<std::string>& out) {
    constexpr std::size_t kMaxTypes = 64;  // a page's JSON-LD names a few; a hostile one may repeat it
    std::size_t pos = 0;
    while (out.size() < kMaxTypes && (pos = json.find("\"@type\"", pos)) != std::string_view::npos) {
        pos += 7;
        while (pos < json.size() && (json[pos] == ' ' || json[pos] == '\t' || json[pos] == '\n' || json[pos] == '\r')) {
            ++pos;
        }
        if (pos >= json.size() || json[pos] != ':') {
            continue;
        }
        ++pos;
        const std::size_t end = json.find_first_of(",}", pos);
        const std::size_t close = json.find(']', pos);
        const bool list = json.find('[', pos) < std::min(end, json.size()) && close != std::string_view::npos;
        const std::string_view value = json.substr(pos, (list ? close : std::min(end, json.size())) - pos);
        for (std::size_t q = value.find('"'); q != std::string_view::npos && out.size() < kMaxTypes;) {
            const std::size_t q2 = value.find('"', q + 1);
            if (q2 == std::string_view::npos) {
                break;
            }
            std::string type = text::to_lower_ascii(value.substr(q + 1, q2 - q - 1));
            if (const std::size_t slash = type.rfind('/'); slash != std::string::npos) {
                type.erase(0, slash + 1);  // "http://schema.org/Product" is "product"
            }
            if (!type.empty()) {
                out.push_back(std::move(type));
            }
            q = value.find('"', q2 + 1);
        }
        pos += value.size();
    }
}

bool is_product_type(std::string_view type) {
    return type == "product" || type == "productgroup";
}

// Whether `object`'s "@type" (a string, or an array of them) names a type
// `accepts` takes, given lower case and without a schema.org prefix.
template <typename Accepts>
bool declares_type(const nlohmann::json& object, Accepts&& accepts) {
    const auto type = object.find("@type");
    if (type == object.end()) {
        return false;
    }
    const auto named = [&accepts](const nlohmann::json& value) {
        if (!value.is_string()) {
            return false;
        }
        std::string name = text::to_lower_ascii(value.get_ref<const std::string&>());
        if (const std::size_t slash = name.rfind('/'); slash != std::string::npos) {
            name.erase(0, slash + 1);
        }
        return accepts(std::string_view(name));
    };
    return named(*type) || (type->is_array() && std::any_of(type->begin(), type->end(), named));
}

bool declares_product(const nlohmann::json& object) {
    return declares_type(object, is_product_type);
}

// An article's type: any *Article (NewsArticle, TechArticle,
// ScholarlyArticle...), a blog's or a social network's posting, a forum's
// post, a report.
bool is_article_type(std::string_view type) {
    return type.ends_with("article") || type == "blogposting" || type == "liveblogposting" ||
           type == "socialmediaposting" || type == "discussionforumposting" || type == "report";
}

// Tags out, entities decoded, white space collapsed: descriptions are often
// written as HTML inside the JSON string.
std::string plain_text(std::string_view html) {
    std::string out;
    out.reserve(html.size());
    bool in_tag = false;
    for (const char c : html) {
        if (c == '<') {
            in_tag = true;
            out.push_back(' ');
        } else if (c == '>' && in_tag) {
            in_tag = false;
        } else if (!in_tag) {
            out.push_back(c);
        }
    }
    return std::string(text::trim(text::collapse_runs(unescape_html_entities(out))));
}

// The description of the first product the script declares, at its top, in
// an array or in an @graph; "" when none. The walk is iterative and bounded.
std::string product_description(std::string_view script) {
    constexpr std::size_t kMaxBytes = 16U * 1024U;  // a description, not a catalogue
    constexpr std::size_t kMaxVisits = 4096;
    const nlohmann::json parsed = nlohmann::json::parse(script.begin(), script.end(), nullptr, false);
    if (parsed.is_discarded()) {
        return {};
    }
    std::string found;
    find_json_ld_object(
        parsed,
        [&](const nlohmann::json& value) {
            if (!declares_product(value)) {
                return false;
            }
            const auto description = value.find("description");
            if (description != value.end() && description->is_string()) {
                const std::string& raw = description->get_ref<const std::string&>();
                found = plain_text(std::string_view(raw).substr(0, kMaxBytes));
            }
            return !found.empty();
        },
        kMaxVisits);
    return found;
}

// Tags after which an articleBody written as HTML starts a new paragraph.
bool breaks_paragraph(std::string_view tag) {
    constexpr std::string_view kBlocks[] = {"p",  "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                                            "tr", "ul", "ol", "pre", "table", "section", "figure", "figcaption", "hr",
                                            "dd", "dt"};
    return std::find(std::begin(kBlocks), std::end(kBlocks), tag) != std::end(kBlocks);
}

// An articleBody's paragraphs: its lines, where it is plain text, or the
// text between its block tags, where it is written as HTML; tags out,
// character references decoded, white space collapsed, empty lines dropped.
// A '<' that opens no tag ("a < b") is text. HTML escaped once more
// ("&lt;p&gt;Solu&amp;ccedil;&amp;atilde;o", as some CMSs write it) is
// decoded once before its tags go.
std::vector<std::string> body_paragraphs(std::string_view written) {
    std::string escaped_markup;
    if (written.find("&lt;") != std::string_view::npos) {
        escaped_markup = std::string(written);
        text::decode_character_references(escaped_markup);
    }
    const std::string_view raw = escaped_markup.empty() ? written : std::string_view(escaped_markup);
    std::string lines;
    lines.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        const std::size_t close = c == '<' ? raw.find('>', i) : std::string_view::npos;
        const bool opens_tag = close != std::string_view::npos && i + 1 < raw.size() &&
                               (text::is_ascii_letter(raw[i + 1]) || raw[i + 1] == '/' || raw[i + 1] == '!');
        if (!opens_tag) {
            lines.push_back(c == '\r' ? '\n' : c);
            continue;
        }
        const std::size_t name_start = i + 1 + (raw[i + 1] == '/' ? 1 : 0);
        std::size_t name_end = name_start;
        while (name_end < close && text::is_ascii_alnum(raw[name_end])) {
            ++name_end;
        }
        const std::string name = text::to_lower_ascii(raw.substr(name_start, name_end - name_start));
        lines.push_back(breaks_paragraph(name) ? '\n' : ' ');
        i = close;
    }
    text::decode_character_references(lines);
    std::vector<std::string> paragraphs;
    for (std::size_t start = 0; start < lines.size();) {
        const std::size_t stop = std::min(lines.find('\n', start), lines.size());
        std::string line(text::trim(std::string_view(lines).substr(start, stop - start)));
        std::replace_if(line.begin(), line.end(), text::is_html_space, ' ');
        line = text::collapse_runs(line);
        if (!line.empty()) {
            paragraphs.push_back(std::move(line));
        }
        start = stop + 1;
    }
    return paragraphs;
}

// The article bodies the page's scripts declare: the first as written, with
// its article's description, and whether another differs from it. Only the
// first is kept, so that a page of many scripts costs no more memory than
// its largest.
struct DeclaredBodies {
    std::string first;
    std::string description;
    bool several = false;

    void add(std::string_view body, std::string_view its_description) {
        if (first.empty()) {
            first = std::string(text::trim(body));
            description = std::string(text::trim(its_description));
        } else if (text::trim(body) != first) {
            several = true;
        }
    }
};

// The declared article's paragraphs: its description, where the body does
// not hold it (a news article's lead, which CMSs declare apart and often
// leave out of articleBody), then the body's.
std::vector<std::string> declared_article(const DeclaredBodies& bodies) {
    std::vector<std::string> paragraphs = body_paragraphs(bodies.first);
    std::vector<std::string> lead = body_paragraphs(bodies.description);
    if (lead.empty() || paragraphs.empty()) {
        return paragraphs;
    }
    std::string joined;
    for (const std::string& paragraph : paragraphs) {
        joined.append(paragraph).push_back(' ');
    }
    // A description cut short ("The council measured…") is held when its start is.
    std::string_view start = text::trim(lead.front());
    for (const std::string_view cut : {std::string_view("\u2026"), std::string_view("...")}) {
        if (start.ends_with(cut)) {
            start = text::trim(start.substr(0, start.size() - cut.size()));
        }
    }
    if (lead.size() == 1 && joined.find(start) != std::string::npos) {
        return paragraphs;
    }
    lead.insert(lead.end(), std::make_move_iterator(paragraphs.begin()), std::make_move_iterator(paragraphs.end()));
    return lead;
}

// Every articleBody that an article of the script declares, wherever it
// nests (at its top, in an array, an @graph or a mainEntity), added to
// `bodies`.
void read_article_bodies(std::string_view script, DeclaredBodies& bodies) {
    const nlohmann::json parsed = parse_json_ld(script);
    if (parsed.is_discarded()) {
        return;
    }
    for_each_json_ld_object(parsed, [&bodies](const nlohmann::json& object) {
        if (!declares_type(object, is_article_type)) {
            return;
        }
        const auto body = object.find("articleBody");
        if (body != object.end() && body->is_string() && !text::is_blank(body->get_ref<const std::string&>())) {
            const auto description = object.find("description");
            const bool described = description != object.end() && description->is_string();
            bodies.add(body->get_ref<const std::string&>(),
                       described ? std::string_view(description->get_ref<const std::string&>()) : "");
        }
    });
}

}  // namespace

PageDeclarations read_declarations(const dom::Document& doc) {
    // A script holding an article is a few hundred kilobytes at most; a
    // larger one is not parsed for it.
    constexpr std::size_t kMaxBodyScriptBytes = 1024U * 1024U;
    PageDeclarations out;
    std::string og_url;
    DeclaredBodies bodies;
    const Node* root = doc.root();
    for (const Node* n = dom::next_element(root, root); n != nullptr; n = dom::next_element(n, root)) {
        if (n->is(Tag::script)) {
            if (text::iequals_ascii(text::trim(n->attr("type")), "application/ld+json")) {
                for (const Node* t = n->first_child; t != nullptr; t = t->next) {
                    if (!t->is_text()) {
                        continue;
                    }
                    const std::size_t known = out.json_ld_types.size();
                    scan_types(t->data, out.json_ld_types);
                    if (out.product_description.empty() &&
                        std::any_of(out.json_ld_types.begin() + static_cast<std::ptrdiff_t>(known),
                                    out.json_ld_types.end(), [](const std::string& type) { return is_product_type(type); })) {
                        out.product_description = product_description(t->data);
                    }
                    if (t->data.size() <= kMaxBodyScriptBytes && t->data.find("\"articleBody\"") != std::string::npos) {
                        read_article_bodies(t->data, bodies);
                    }
                }
            }
        } else if (n->is(Tag::meta)) {
            const std::string_view property = n->attr("property");
            if (text::iequals_ascii(property, "og:type") && out.og_type.empty()) {
                out.og_type = text::to_lower_ascii(text::trim(n->attr("content")));
            } else if (text::iequals_ascii(property, "og:url") && og_url.empty()) {
                og_url = std::string(text::trim(n->attr("content")));
            }
        } else if (n->is(Tag::link) && out.canonical_url.empty() &&
                   text::has_token_ascii_ci(n->attr("rel"), "canonical")) {
            out.canonical_url = std::string(text::trim(n->attr("href")));
        }
    }
    if (out.canonical_url.empty()) {
        out.canonical_url = std::move(og_url);
    }
    // The same article is often declared twice (two scripts, or an @graph and
    // a mainEntity); different bodies are an index's, and none is the page's.
    if (!bodies.several && !bodies.first.empty()) {
        out.article_body = declared_article(bodies);
    }
    return out;
}

}  // namespace pith::extract
