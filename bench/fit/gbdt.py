"""Gradient-boosted decision trees in numpy: the models pith evaluates in C++
(extractor/src/models/) are fitted here.

Why not scikit-learn or XGBoost: on Debian 12 both need python3-scipy, which
needs python3-pythran and through it libboost1.74-dev, and apt refuses that
beside the libboost1.81-dev pith builds with. A booster of a few hundred small
trees is a hundred lines of numpy, deterministic (no sampling), so a test can
refit and compare the committed weights (up to the last bits of rounding,
which the CPU's SIMD path decides: differences).

The algorithm is XGBoost's second-order boosting: features are cut into at
most `bins` quantile bins once; each tree grows depth-first to `max_depth`,
a split is the one with the largest gain
    G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda) - G^2/(H+lambda)
over histogram sums of gradients and hessians, a leaf is -G/(H+lambda) times
the learning rate. Objectives: "binary" (logistic), "softmax" (one tree per
class per round) and "squared" (regression).

`fit(..., offset=m)` grows the trees on top of a margin per row that another
model gives, instead of a fitted constant: the base is then 0, and the caller
adds its model's margin back when it predicts.

A tree is exported as rows (feature, threshold, left, right, value): an
internal node sends x[feature] <= threshold left, a leaf has feature -1.
"""

import re

import numpy as np


class Booster:
    def __init__(self, objective="binary", classes=1, rounds=200, max_depth=4, learning_rate=0.1,
                 reg_lambda=1.0, min_child_weight=1.0, min_gain=0.0, bins=64):
        self.objective = objective
        self.classes = classes if objective == "softmax" else 1
        self.rounds = rounds
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.reg_lambda = reg_lambda
        self.min_child_weight = min_child_weight
        self.min_gain = min_gain
        self.bins = bins
        self.trees = []  # [round][class] -> list of (feature, threshold, left, right, value)
        self.base = 0.0

    # ---- binning ----

    def _cut_points(self, X):
        cuts = []
        for j in range(X.shape[1]):
            values = np.unique(X[:, j])
            if len(values) <= self.bins:
                # midpoints between the distinct values seen
                c = (values[:-1] + values[1:]) / 2.0
            else:
                qs = np.quantile(X[:, j], np.linspace(0, 1, self.bins + 1)[1:-1], method="linear")
                c = np.unique(qs)
            cuts.append(c.astype(np.float64))
        return cuts

    def _binned(self, X):
        B = np.empty(X.shape, dtype=np.int32)
        for j, c in enumerate(self.cuts):
            # bin b holds values in (c[b-1], c[b]]: x <= c[b] goes to bins <= b
            B[:, j] = np.searchsorted(c, X[:, j], side="left")
        return B

    # ---- fitting ----

    def fit(self, X, y, weight=None, offset=None):
        X = np.asarray(X, dtype=np.float64)
        self.rows = X  # kept for finish_model's --check, which evaluates the committed trees on them
        n = X.shape[0]
        w = np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64)
        self.cuts = self._cut_points(X)
        B = self._binned(X)
        offset_bins = self._prepare_bins(B)  # only the fit reads them: not kept
        if self.objective == "softmax":
            y = np.asarray(y, dtype=np.int64)
            margin = np.zeros((n, self.classes))
        else:
            y = np.asarray(y, dtype=np.float64)
            if offset is not None:
                self.base = 0.0
            elif self.objective == "binary":
                p = np.clip(np.average(y, weights=w), 1e-6, 1 - 1e-6)
                self.base = float(np.log(p / (1 - p)))
            else:
                self.base = float(np.average(y, weights=w))
            margin = np.full(n, self.base) if offset is None else np.asarray(offset, dtype=np.float64).copy()
        for _ in range(self.rounds):
            round_trees = []
            if self.objective == "softmax":
                e = np.exp(margin - margin.max(axis=1, keepdims=True))
                prob = e / e.sum(axis=1, keepdims=True)
                for k in range(self.classes):
                    g = (prob[:, k] - (y == k)) * w
                    h = np.maximum(prob[:, k] * (1 - prob[:, k]), 1e-6) * w
                    tree, update = self._grow(B, offset_bins, g, h)
                    margin[:, k] += update
                    round_trees.append(tree)
            else:
                if self.objective == "binary":
                    prob = 1 / (1 + np.exp(-margin))
                    g = (prob - y) * w
                    h = np.maximum(prob * (1 - prob), 1e-6) * w
                else:
                    g = (margin - y) * w
                    h = w.copy()
                tree, update = self._grow(B, offset_bins, g, h)
                margin += update
                round_trees.append(tree)
            self.trees.append(round_trees)
        return self

    def _prepare_bins(self, B):
        sizes = np.array([len(c) + 1 for c in self.cuts])
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])
        self.total_bins = int(self.offsets[-1])
        # Per bin position: its feature, and whether it is its feature's last bin
        # (no split after it).
        self.bin_feature = np.repeat(np.arange(len(sizes)), sizes)
        self.bin_is_last = np.zeros(self.total_bins, dtype=bool)
        self.bin_is_last[self.offsets[1:] - 1] = True
        return B + self.offsets[:-1][None, :].astype(np.int32)

    def _grow(self, B, offset_bins, g, h):
        nodes = []  # (feature, threshold, left, right, value)
        update = np.zeros(B.shape[0])
        lam = self.reg_lambda
        F = B.shape[1]

        def leaf(idx):
            value = -g[idx].sum() / (h[idx].sum() + lam) * self.learning_rate
            update[idx] = value
            nodes.append([-1, 0.0, -1, -1, float(value)])
            return len(nodes) - 1

        def build(idx, depth):
            G, H = g[idx].sum(), h[idx].sum()
            if depth >= self.max_depth or len(idx) < 2:
                return leaf(idx)
            # One histogram of every feature's bins at once.
            flat = offset_bins[idx].ravel()
            gs = np.bincount(flat, weights=np.repeat(g[idx], F), minlength=self.total_bins)
            hs = np.bincount(flat, weights=np.repeat(h[idx], F), minlength=self.total_bins)
            cg, ch = np.cumsum(gs), np.cumsum(hs)
            before_g = np.concatenate([[0.0], cg[self.offsets[1:-1] - 1]])[self.bin_feature]
            before_h = np.concatenate([[0.0], ch[self.offsets[1:-1] - 1]])[self.bin_feature]
            GL, HL = cg - before_g, ch - before_h
            GR, HR = G - GL, H - HL
            ok = (~self.bin_is_last) & (HL >= self.min_child_weight) & (HR >= self.min_child_weight)
            if not ok.any():
                return leaf(idx)
            gain = np.where(ok, GL * GL / (HL + lam) + GR * GR / (HR + lam) - G * G / (H + lam), -np.inf)
            p = int(np.argmax(gain))
            if gain[p] <= self.min_gain:
                return leaf(idx)
            j = int(self.bin_feature[p])
            b = p - int(self.offsets[j])
            go_left = B[idx, j] <= b
            me = len(nodes)
            nodes.append([j, float(self.cuts[j][b]), -1, -1, 0.0])
            nodes[me][2] = build(idx[go_left], depth + 1)
            nodes[me][3] = build(idx[~go_left], depth + 1)
            return me

        build(np.arange(B.shape[0]), 0)
        return nodes, update

    # ---- prediction ----

    @staticmethod
    def _tree_value(tree, X):
        t = np.array(tree, dtype=np.float64)
        feature, threshold = t[:, 0].astype(np.int64), t[:, 1]
        left, right, value = t[:, 2].astype(np.int64), t[:, 3].astype(np.int64), t[:, 4]
        rows = np.arange(X.shape[0])
        node = np.zeros(X.shape[0], dtype=np.int64)
        while True:
            f = feature[node]
            inner = f >= 0
            if not inner.any():
                return value[node]
            x = X[rows, np.where(inner, f, 0)]
            node = np.where(inner, np.where(x <= threshold[node], left[node], right[node]), node)

    def margin(self, X):
        X = np.asarray(X, dtype=np.float64)
        if self.objective == "softmax":
            m = np.zeros((X.shape[0], self.classes))
            for round_trees in self.trees:
                for k, tree in enumerate(round_trees):
                    m[:, k] += self._tree_value(tree, X)
            return m
        m = np.full(X.shape[0], self.base)
        for round_trees in self.trees:
            m += self._tree_value(round_trees[0], X)
        return m

    def predict(self, X):
        m = self.margin(X)
        if self.objective == "softmax":
            e = np.exp(m - m.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        if self.objective == "binary":
            return 1 / (1 + np.exp(-m))
        return m

    # ---- export ----

    def flat_trees(self):
        """Every tree in evaluation order (round by round, class by class)."""
        return [tree for round_trees in self.trees for tree in round_trees]


def group_folds(groups, k=5):
    """Fold index per row, grouped: rows of one group (a domain) share a fold.
    Deterministic: a group's fold is a hash of its name."""
    import hashlib
    return np.array([int(hashlib.sha256(str(gr).encode()).hexdigest(), 16) % k for gr in groups])


def packed_lines(items, width, indent=""):
    """The strings `items` run together into lines of at most `width`
    characters (one item a line where it is longer), each after `indent`."""
    lines, row = [], indent
    for item in items:
        if len(row) + len(item) > width and row != indent:
            lines.append(row)
            row = indent
        row += item
    if row != indent:
        lines.append(row)
    return lines


def forest_table(models, feature_count, comment, bases=False):
    """The C++ table of `models` (Boosters) that extractor/src/models/forest.hpp
    evaluates: every model's trees in one node array, where each tree starts,
    where each model's trees start; with `bases`, each model's base margin.
    `comment` is the file's opening lines, without their "// "."""
    all_nodes, all_starts, model_trees = [], [], [0]
    for booster in models:
        for tree in booster.flat_trees():
            all_starts.append(len(all_nodes))
            all_nodes.extend(tree)
        model_trees.append(len(all_starts))
    lines = [f"// {line}" for line in comment] + [
        f"inline constexpr std::size_t kFeatureCount = {feature_count};",
        f"inline constexpr std::size_t kModels = {len(models)};",
        f"inline constexpr std::array<models::TreeNode, {len(all_nodes)}> kNodes{{{{",
    ]
    # Nodes packed several to a line: the table is committed, and its size is
    # mostly the numbers' digits.
    lines += packed_lines((f"{{{feature},{left},{right},{threshold!r},{value!r}}},"
                           for feature, threshold, left, right, value in all_nodes), 118)
    lines.append("}};")
    lines.append(f"inline constexpr std::array<std::uint32_t, {len(all_starts)}> kStarts{{")
    for i in range(0, len(all_starts), 16):
        lines.append("    " + ", ".join(str(s) for s in all_starts[i:i + 16]) + ",")
    lines.append("};")
    lines.append("inline constexpr std::array<std::uint32_t, kModels + 1> kModelTrees{"
                 + ", ".join(str(t) for t in model_trees) + "};")
    if bases:
        lines.append("inline constexpr std::array<double, kModels> kBase{"
                     + ", ".join(repr(m.base) for m in models) + "};")
    return "\n".join(lines) + "\n"


def add_model_mode(parser, path, repo):
    """--write and --check, for finish_model."""
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help=f"rewrite {path.relative_to(repo)}")
    mode.add_argument("--check", action="store_true", help="exit 1 unless the committed model is this fit's")


def below(value, bar, what):
    """[a failure for finish_model] when `bar` is set and `value` is under it, else []."""
    return [f"{what} {value:.3f} is below {bar}"] if bar is not None and value < bar else []


# A number as a model file writes it.
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")
# How far a committed number may be from the refit's: numpy's sums and exp
# take the SIMD path of the CPU they run on, so two machines round the last
# bits of the same fit apart; a different fit moves a weight far more.
SAME_FIT_TOLERANCE = 1e-9
NODE = re.compile(r"\{(-?\d+),(-?\d+),(-?\d+),([^,{}]+),([^,{}]+)\}")
NODE_TABLE = re.compile(r"kNodes\{\{(.*?)\}\};", re.S)


def differences(committed, fitted):
    """(whether the two model texts differ beyond rounding, the largest
    relative difference of their numbers). The words, structure and every
    integer must match; each other number within SAME_FIT_TOLERANCE. Line
    breaks are not compared: a number's length decides where a line wraps."""
    def between(text):
        return ["".join(part.split()) for part in NUMBER.split(text)]

    if between(committed) != between(fitted):
        return True, float("inf")
    largest = 0.0
    for a, b in zip(NUMBER.findall(committed), NUMBER.findall(fitted)):
        if a != b:
            x, y = float(a), float(b)
            largest = max(largest, abs(x - y) / max(abs(x), abs(y), 1e-12))
    return largest > SAME_FIT_TOLERANCE, largest


def committed_trees(text):
    """Each model's trees in a forest_table text, as flat_trees gives them."""
    nodes = [[int(f), float(t), int(left), int(right), float(v)]
             for f, left, right, t, v in NODE.findall(NODE_TABLE.search(text).group(1))]

    def numbers(name):
        return [int(n) for n in re.search(name + r"\{([^}]*)\}", text).group(1).replace(",", " ").split()]

    starts = numbers(r"kStarts") + [len(nodes)]
    model_trees = numbers(r"kModelTrees")
    return [[nodes[starts[t]:starts[t + 1]] for t in range(model_trees[m], model_trees[m + 1])]
            for m in range(len(model_trees) - 1)]


def same_splits(committed, fitted, boosters):
    """Whether the committed text is the fit's but for splits that part each
    model's training rows alike: where two features cut those rows the same
    way their gains tie up to rounding, and the CPU decides which is taken.
    Everything outside the trees must match as differences allows, and each
    committed model's trees must give its booster's margins on the rows it
    was fitted on."""
    outside = [NODE_TABLE.sub("", text) for text in (committed, fitted)]
    if differences(*outside)[0]:
        return False
    models = committed_trees(committed)
    if len(models) != len(boosters):
        return False
    for trees, booster in zip(models, boosters):
        theirs = booster.flat_trees()
        if len(trees) != len(theirs):
            return False
        for k in range(booster.classes):
            ours = sum(Booster._tree_value(tree, booster.rows) for tree in trees[k::booster.classes])
            fit = sum(Booster._tree_value(tree, booster.rows) for tree in theirs[k::booster.classes])
            if np.max(np.abs(ours - fit) / (1.0 + np.abs(fit))) > SAME_FIT_TOLERANCE:
                return False
    return True


def finish_model(path, text, args, repo, failures=(), boosters=()):
    """Exits 1 after printing each of `failures` (the bars the fit missed);
    else --write rewrites the committed model, --check exits 1 unless it is
    `text` (differences, same_splits over `boosters`, the models of the table)."""
    finish_models([(path, text, boosters)], args, repo, failures)


def finish_models(tables, args, repo, failures=()):
    """finish_model for several model files: `tables` is [(path, text,
    boosters)]; --check exits 1 unless every one is its fit's."""
    for failure in failures:
        print("FAIL", failure)
    if failures:
        raise SystemExit(1)
    differing = False
    for path, text, boosters in tables:
        shown = path.relative_to(repo)
        if args.write:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {shown}")
        if args.check:
            committed = path.read_text(encoding="utf-8")
            differ, largest = differences(committed, text)
            if differ and boosters and same_splits(committed, text, boosters):
                print(f"{shown}: the committed model is what this fit gives, but for splits on another feature "
                      "that parts their rows alike")
            elif differ:
                print(f"{shown} differs from this fit (largest relative difference {largest:.3g}): run with --write")
                differing = True
            else:
                print(f"{shown}: the committed model is what this fit gives (largest relative difference "
                      f"{largest:.3g})")
    if args.check:
        raise SystemExit(1 if differing else 0)
