// Walking a parsed JSON-LD script for the object a reader wants: the value
// itself, the items of an array, the members of an @graph, in document order.
// Iterative and bounded, whatever the script's nesting. Internal header.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace pith::extract {

// A JSON-LD script parsed; discarded when it is not JSON. Templates often
// write a description's line breaks raw inside its string, which JSON
// forbids: such a script is read again with its control characters as spaces
// (outside strings they are white space already).
inline nlohmann::json parse_json_ld(std::string_view script) {
    nlohmann::json parsed = nlohmann::json::parse(script.begin(), script.end(), nullptr, false);
    const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20; };
    if (!parsed.is_discarded() || std::none_of(script.begin(), script.end(), control)) {
        return parsed;
    }
    std::string spaced(script);
    std::replace_if(spaced.begin(), spaced.end(), control, ' ');
    return nlohmann::json::parse(spaced.begin(), spaced.end(), nullptr, false);
}

// The first object `wanted` accepts, or nullptr; at most `max_visits` values
// are looked at. An object that is not wanted is searched through its @graph.
template <typename Wanted>
const nlohmann::json* find_json_ld_object(const nlohmann::json& parsed, Wanted&& wanted,
                                          std::size_t max_visits = 4096) {
    std::vector<const nlohmann::json*> pending = {&parsed};
    for (std::size_t visits = 0; !pending.empty() && visits < max_visits; ++visits) {
        const nlohmann::json* value = pending.back();
        pending.pop_back();
        if (value->is_array()) {
            for (auto it = value->rbegin(); it != value->rend(); ++it) {
                pending.push_back(&*it);
            }
            continue;
        }
        if (!value->is_object()) {
            continue;
        }
        if (wanted(*value)) {
            return value;
        }
        if (const auto graph = value->find("@graph"); graph != value->end()) {
            pending.push_back(&*graph);
        }
    }
    return nullptr;
}

// Calls `visit` on every object of `parsed`, at any depth (an article in a
// WebPage's mainEntity, in an array, in an @graph), in document order; at
// most `max_visits` values are looked at.
template <typename Visit>
void for_each_json_ld_object(const nlohmann::json& parsed, Visit&& visit, std::size_t max_visits = 4096) {
    std::vector<const nlohmann::json*> pending = {&parsed};
    for (std::size_t visits = 0; !pending.empty() && visits < max_visits; ++visits) {
        const nlohmann::json* value = pending.back();
        pending.pop_back();
        if (value->is_object()) {
            visit(*value);
        }
        if (value->is_structured()) {
            for (auto it = value->rbegin(); it != value->rend(); ++it) {
                if (it->is_structured()) {
                    pending.push_back(&*it);
                }
            }
        }
    }
}

}  // namespace pith::extract
