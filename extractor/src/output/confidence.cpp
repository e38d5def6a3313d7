#include "output/confidence.hpp"

#include <algorithm>
#include <cmath>

namespace pith::extract {

double compute_confidence(const ConfidenceInputs& in) noexcept {
    double status_factor = 0.0;
    switch (in.status) {
    case Status::ok: status_factor = 1.0; break;
    case Status::best_attempt: status_factor = 0.5; break;
    case Status::no_content:
    case Status::budget_exceeded: return 0.0;
    }
    const double threshold = static_cast<double>(std::max<std::size_t>(in.char_threshold, 1));
    const double length_factor = std::min(1.0, 0.5 + static_cast<double>(in.text_length) / (4.0 * threshold));
    const double pass_factor = std::pow(0.9, static_cast<double>(in.pass_index));
    const double link_factor = 1.0 - std::clamp(in.link_density, 0.0, 1.0);
    const double competition_factor = in.runner_up_ratio >= 0.75 ? 0.9 : 1.0;
    const double preflight_factor = in.readerable ? 1.0 : 0.8;
    const double c = status_factor * length_factor * pass_factor * link_factor * competition_factor * preflight_factor;
    return std::clamp(c, 0.0, 1.0);
}

}  // namespace pith::extract
