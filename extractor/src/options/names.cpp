// The names of the option and result enums, as the wire spells them.
#include "options/names.hpp"

#include <string>

#include "pith/article.hpp"

namespace pith::extract {

std::string_view strategy_name(Strategy strategy) noexcept { return kStrategyNames.name(strategy); }
std::optional<Strategy> strategy_from_name(std::string_view name) noexcept { return kStrategyNames.find(name); }
std::string_view select_mode_name(SelectMode mode) noexcept { return kSelectModeNames.name(mode); }
std::optional<SelectMode> select_mode_from_name(std::string_view name) noexcept {
    return kSelectModeNames.find(name);
}
std::string_view policy_name(Policy policy) noexcept { return kPolicyNames.name(policy); }
std::optional<Policy> policy_from_name(std::string_view name) noexcept { return kPolicyNames.find(name); }

std::string_view page_type_name(PageType type) noexcept { return kPageTypeNames.name(type); }
std::optional<PageType> page_type_from_name(std::string_view name) noexcept { return kPageTypeNames.find(name); }

std::string pass_flags_name(PassFlags flags) {
    std::string out;
    auto add = [&](PassFlags flag, std::string_view name) {
        if (has(flags, flag)) {
            if (!out.empty()) {
                out.push_back('|');
            }
            out.append(name);
        }
    };
    add(PassFlags::strip_unlikelys, "strip_unlikelys");
    add(PassFlags::weight_classes, "weight_classes");
    add(PassFlags::clean_conditionally, "clean_conditionally");
    return out.empty() ? "none" : out;
}

std::string_view status_name(Status status) noexcept {
    switch (status) {
    case Status::ok: return "ok";
    case Status::best_attempt: return "best_attempt";
    case Status::no_content: return "no_content";
    case Status::budget_exceeded: return "budget_exceeded";
    case Status::low_confidence: return "low_confidence";
    }
    return "no_content";
}

}  // namespace pith::extract
