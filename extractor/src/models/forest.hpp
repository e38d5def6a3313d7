// Boosted decision trees, evaluated: the models bench/fit/ fits with numpy
// (bench/fit/gbdt.py) and writes as tables into *_model.inc beside this
// header. A model is a few hundred small trees, so evaluating one is a loop
// over a table: no runtime library. Internal header.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

namespace pith::extract::models {

// One node: an internal node sends features[feature] <= threshold to `left`,
// else to `right`; a leaf (feature < 0) holds `value`. Indexes are within the
// tree's own nodes.
struct TreeNode {
    std::int16_t feature;
    std::int16_t left;
    std::int16_t right;
    double threshold;
    double value;
};

// Trees in evaluation order: round by round, and within a round one tree per
// class (softmax) or one tree (a score). `starts[i]` is where tree i's nodes
// begin in `nodes`.
struct Forest {
    std::span<const TreeNode> nodes;
    std::span<const std::uint32_t> starts;
    std::size_t classes = 1;  // trees a round
    double base = 0.0;        // the margin before the first tree
};

// A *_model.inc table holds several models: every model's trees in one node
// array, `starts` where each tree begins, and model_trees[m] where model m's
// trees begin in `starts`. Models come as the one fitted on every page, then
// one fitted without each fold of domains.

// The model to use among `count` such: -1 (or a fold the table does not
// have) the one fitted on every page, else the one fitted without `fold`.
[[nodiscard]] inline std::size_t model_for_fold(int fold, std::size_t count) noexcept {
    return fold >= 0 && static_cast<std::size_t>(fold) + 1 < count ? static_cast<std::size_t>(fold) + 1 : 0;
}

// Model `m` of a table.
[[nodiscard]] inline Forest model_of(std::span<const TreeNode> nodes, std::span<const std::uint32_t> starts,
                                     std::span<const std::uint32_t> model_trees, std::size_t m, std::size_t classes,
                                     double base) noexcept {
    return Forest{nodes, starts.subspan(model_trees[m], model_trees[m + 1] - model_trees[m]), classes, base};
}

// The leaf value of the tree whose nodes begin at `tree`.
[[nodiscard]] inline double tree_value(const TreeNode* tree, std::span<const double> features) noexcept {
    std::int16_t n = 0;
    while (tree[n].feature >= 0) {
        const double x = features[static_cast<std::size_t>(tree[n].feature)];
        n = x <= tree[n].threshold ? tree[n].left : tree[n].right;
    }
    return tree[n].value;
}

// The margin of class `k` (0 for a one-class model): its base plus its trees' values.
[[nodiscard]] inline double margin(const Forest& forest, std::span<const double> features, std::size_t k = 0) noexcept {
    double sum = forest.base;
    for (std::size_t i = k; i < forest.starts.size(); i += forest.classes) {
        sum += tree_value(forest.nodes.data() + forest.starts[i], features);
    }
    return sum;
}

// A probability on a grid of 2^-30: libm's exp differs between CPUs in its
// last bit, and a model's output that later models read (the page type's
// probabilities, the block model's) must give the fits the same numbers on
// every machine, or a split that ties on one CPU breaks the other way on the
// next and a committed model no longer matches its fit.
[[nodiscard]] inline double on_grid(double probability) noexcept {
    constexpr double kSteps = 1073741824.0;  // 2^30
    return std::round(probability * kSteps) / kSteps;
}

// Softmax probabilities of an N-class model, on_grid.
template <std::size_t N>
[[nodiscard]] std::array<double, N> class_probabilities(const Forest& forest, std::span<const double> features) noexcept {
    std::array<double, N> p{};
    double top = -1e300;
    for (std::size_t k = 0; k < N; ++k) {
        p[k] = margin(forest, features, k);
        top = p[k] > top ? p[k] : top;
    }
    double sum = 0.0;
    for (double& v : p) {
        v = std::exp(v - top);
        sum += v;
    }
    for (double& v : p) {
        v = on_grid(v / sum);
    }
    return p;
}

}  // namespace pith::extract::models
