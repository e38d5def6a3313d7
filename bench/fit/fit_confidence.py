#!/usr/bin/python3
"""Fits pith's confidence model and measures how well it ranks and calibrates.

For each strategy, pith extracts every page of both development corpora with
--diagnostics, which gives the features the model reads
(diagnostics.confidence_features). Each page is labelled right or wrong:
  - Mozilla's pages: token F1 of textContent against expected.html >= 0.9;
  - trafilatura-dev: every "with" snippet found and no "without" snippet.
A logistic regression (L2, on standardised features, by Newton's method) is
fitted per strategy. Cross-validation is grouped by site, so that no site is on
both sides of a split; its out-of-fold predictions give AUROC and the expected
calibration error (ten equal-width bins). Pages without an article (confidence
0 by rule) are left out.

  /usr/bin/python3 bench/fit/fit_confidence.py                # figures, reliability diagram
  /usr/bin/python3 bench/fit/fit_confidence.py --write        # also rewrite the committed weights
  /usr/bin/python3 bench/fit/fit_confidence.py --check        # fail unless the committed weights
                                                          # are reproduced and auto's
                                                          # ECE <= 0.05, AUROC >= --min-auroc

Run with Debian's /usr/bin/python3: it needs python3-numpy and python3-matplotlib.
"""
import argparse
import hashlib
import html.parser
import json
import math
import os
import re
import subprocess
import sys
import urllib.parse

import numpy as np

# bench/ holds the helpers every bench script shares.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from token_f1 import token_f1  # noqa: E402

STRATEGIES = ["readability", "lectito", "fitness", "auto"]  # the model file's row order
AUTO_ONLY = 5  # the last five features are auto's
L2 = 1.0  # on standardised features; the intercept is not penalised
FOLDS = 5
BINS = 10
RIGHT_F1 = 0.9
MODEL_FILE = "extractor/src/confidence/confidence_model.inc"
ACCEPT_AUROC = 0.85  # issue 13's bar
ACCEPT_ECE = 0.05

class TextOf(html.parser.HTMLParser):
    """The text of a document's nodes, as textContent joins it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def text_of(markup):
    parser = TextOf()
    parser.feed(markup)
    return "".join(parser.parts)


def normalize(s):
    return " ".join(s.split())


SECOND_LEVEL = {"co", "com", "org", "net", "or", "ac", "gov", "gob", "edu", "ne"}


def site_of_host(host):
    labels = [l for l in host.lower().split(".") if l]
    if labels and re.fullmatch(r"www\d*", labels[0]):
        labels = labels[1:]
    if len(labels) >= 3 and labels[-2] in SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def site_of_url(url):
    """The site a trafilatura-dev page is from: its registrable domain."""
    if "::" in url:  # "hard::jamaica.gleaner.com-victims.html": a host, then a name
        name = url.split("::", 1)[1]
        name = re.sub(r"\.html$", "", name).split("-", 1)[0]
        labels = name.split(".")
        for i, label in enumerate(labels):  # stop after the first top-level label
            if i > 0 and (len(label) <= 3 or label in ("info",)):
                return site_of_host(".".join(labels[: i + 1]))
        return site_of_host(name)
    host = urllib.parse.urlsplit(url).hostname or url
    if host == "web.archive.org":  # an archived page: the site is the archived one
        inner = re.search(r"/web/\d+[a-z_]*/(.+)$", url)
        if inner:
            return site_of_url(inner.group(1))
    return site_of_host(host)


def pages(corpus):
    """(path, site, judge) for every page; judge(article json) -> right or not."""
    out = []
    mozilla = os.path.join(corpus, "readability-test-pages")
    for name in sorted(os.listdir(mozilla)):
        folder = os.path.join(mozilla, name)
        expected_path = os.path.join(folder, "expected.html")
        if not os.path.isfile(expected_path):
            continue
        with open(expected_path, encoding="utf-8") as f:
            expected = text_of(f.read())
        judge = (lambda e: lambda article: token_f1(article.get("textContent") or "", e) >= RIGHT_F1)(expected)
        out.append((os.path.join(folder, "source.html"), "mozilla:" + name.split("-")[0], judge))
    trafilatura = os.path.join(corpus, "trafilatura-dev")
    with open(os.path.join(trafilatura, "annotations.json"), encoding="utf-8") as f:
        annotations = json.load(f)
    for name in sorted(annotations):
        note = annotations[name]
        with_ = [normalize(s) for s in note.get("with", [])]
        without = [normalize(s) for s in note.get("without", [])]

        def judge(article, with_=with_, without=without):
            text = normalize(article.get("textContent") or "")
            return all(s in text for s in with_) and not any(s in text for s in without)

        out.append((os.path.join(trafilatura, "html", name), site_of_url(note.get("url", name)), judge))
    return out


def extract_all(pith, strategy, paths):
    result = subprocess.run(
        [pith, "extract", "--jobs", "2", "--strategy", strategy, "--diagnostics", *paths],
        capture_output=True, check=False)
    lines = result.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
    if len(lines) != len(paths):
        sys.exit(f"pith printed {len(lines)} answers for {len(paths)} pages: {result.stderr.decode()[:500]}")
    return [json.loads(line) for line in lines]


def fit(X, y):
    """L2 logistic regression on standardised columns; weights for the raw ones."""
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-12] = 1.0  # a constant column gets weight 0
    Z = np.hstack([np.ones((len(X), 1)), (X - mean) / scale])
    w = np.zeros(Z.shape[1])
    penalty = np.full(Z.shape[1], L2)
    penalty[0] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(Z @ w)))
        gradient = Z.T @ (p - y) + penalty * w
        hessian = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    weights = w[1:] / scale
    intercept = w[0] - float(np.sum(w[1:] * mean / scale))
    return intercept, weights


def predict(model, X):
    intercept, weights = model
    return 1.0 / (1.0 + np.exp(-(intercept + X @ weights)))


def auroc(scores, labels):
    """The probability that a right page outscores a wrong one (ties count half)."""
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    positives = labels.sum()
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return float("nan")
    return (ranks[labels == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives)


def reliability(scores, labels):
    rows = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = (scores >= low) & ((scores < high) if b < BINS - 1 else (scores <= high))
        n = int(inside.sum())
        rows.append((low, high, n, float(scores[inside].mean()) if n else None,
                     float(labels[inside].mean()) if n else None))
    ece = sum(n * abs(p - o) for _, _, n, p, o in rows if n) / len(scores)
    return rows, ece


def fold_of(site):
    return int(hashlib.sha256(site.encode()).hexdigest(), 16) % FOLDS


def cross_validate(X, y, sites):
    folds = np.array([fold_of(s) for s in sites])
    out = np.zeros(len(y))
    for k in range(FOLDS):
        train, test = folds != k, folds == k
        out[test] = predict(fit(X[train], y[train]), X[test])
    return out


def model_lines(models, names):
    lines = [
        "// Generated by bench/fit/fit_confidence.py --write from both development corpora; do",
        "// not edit by hand. One row per strategy (readability, lectito, fitness, auto):",
        "// the intercept, then the weight of each feature in this order:",
        "//   " + ", ".join(names),
    ]
    for strategy in STRATEGIES:
        intercept, weights = models[strategy]
        values = [intercept, *weights]
        lines.append("{" + ", ".join(f"{v:.9g}" for v in values) + "},  // " + strategy)
    return "\n".join(lines) + "\n"


def draw(path, rows, strategy, auc, ece):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 5), dpi=100)
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", linewidth=1, label="perfect calibration")
    xs = [p for _, _, n, p, _ in rows if n]
    ys = [o for _, _, n, _, o in rows if n]
    sizes = [max(12, n * 1.5) for _, _, n, _, _ in rows if n]
    ax.plot(xs, ys, color="#1f77b4", linewidth=1.5)
    ax.scatter(xs, ys, s=sizes, color="#1f77b4", zorder=3, label="pages per bin (marker area)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("confidence (cross-validated, grouped by site)")
    ax.set_ylabel("share of pages extracted right")
    ax.set_title(f"pith {strategy}: AUROC {auc:.3f}, ECE {ece:.3f}")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", default=os.path.join(root, "build", "pith"))
    ap.add_argument("--corpus", default=os.environ.get("PITH_CORPUS", os.path.join(root, "..", "shared", "corpus")))
    ap.add_argument("--plot", default=os.path.join(root, "proto-docs", "confidence-reliability.png"),
                    help="where the reliability diagram of auto goes ('' for none)")
    ap.add_argument("--write", action="store_true", help=f"rewrite {MODEL_FILE}")
    ap.add_argument("--check", action="store_true",
                    help="fail unless the committed weights are reproduced and auto's ECE and AUROC meet the bars")
    ap.add_argument("--min-auroc", type=float, default=ACCEPT_AUROC,
                    help=f"the AUROC --check asks of auto (default {ACCEPT_AUROC}, issue 13's bar)")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.corpus, "trafilatura-dev")):
        sys.exit(f"no corpus at {args.corpus} (set PITH_CORPUS)")

    corpus_pages = pages(args.corpus)
    paths = [p for p, _, _ in corpus_pages]
    models, names = {}, None
    figures = {}
    for strategy in STRATEGIES:
        answers = extract_all(args.pith, strategy, paths)
        rows, labels, sites = [], [], []
        for (path, site, judge), answer in zip(corpus_pages, answers):
            features = (answer.get("diagnostics") or {}).get("confidence_features")
            if not features:
                continue  # no article: confidence 0 by rule
            if names is None:
                names = [f["name"] for f in features]
            rows.append([f["value"] for f in features])
            labels.append(1.0 if judge(answer) else 0.0)
            sites.append(site)
        X = np.array(rows)
        y = np.array(labels)
        if strategy != "auto":
            X[:, -AUTO_ONLY:] = 0.0  # not computed outside auto
        oof = cross_validate(X, y, sites)
        auc = auroc(oof, y)
        table, ece = reliability(oof, y)
        models[strategy] = fit(X, y)
        figures[strategy] = (len(y), float(y.mean()), auc, ece, len(set(sites)), table)

    print(f"confidence model: logistic regression, L2 {L2} on standardised features, "
          f"{FOLDS}-fold cross-validation grouped by site")
    print(f"right: Mozilla token F1 >= {RIGHT_F1}; trafilatura-dev every snippet right\n")
    print(f"{'strategy':<12} {'pages':>6} {'sites':>6} {'right':>6} {'AUROC':>7} {'ECE':>7}")
    for strategy in STRATEGIES:
        n, rate, auc, ece, site_count, _ = figures[strategy]
        print(f"{strategy:<12} {n:>6} {site_count:>6} {rate:>6.3f} {auc:>7.4f} {ece:>7.4f}")
    _, _, auc, ece, _, table = figures["auto"]
    print("\nauto, reliability (out-of-fold):")
    print(f"{'confidence':<12} {'pages':>6} {'mean conf.':>11} {'right':>7}")
    for low, high, n, p, o in table:
        mean = f"{p:.3f}" if n else "-"
        right = f"{o:.3f}" if n else "-"
        print(f"{low:.1f}-{high:.1f}      {n:>6} {mean:>11} {right:>7}")
    intercept, weights = models["auto"]
    print("\nauto's weights (raw features):")
    print(f"  intercept {intercept:+.4f}")
    for name, w in zip(names, weights):
        print(f"  {name:<18} {w:+.4f}")

    text = model_lines(models, names)
    model_path = os.path.join(root, MODEL_FILE)
    if args.write:
        with open(model_path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"\nwrote {MODEL_FILE}")
    if args.plot:
        draw(args.plot, table, "auto", auc, ece)
        print(f"reliability diagram: {os.path.relpath(args.plot, root)}")
    if args.check:
        failures = []
        with open(model_path, encoding="utf-8") as f:
            committed = f.read()
        if not same_weights(committed, text):
            failures.append(f"{MODEL_FILE} is not what this fit gives: run with --write and commit it")
        if not auc >= args.min_auroc:
            failures.append(f"auto's cross-validated AUROC {auc:.4f} < {args.min_auroc}")
        if not ece <= ACCEPT_ECE:
            failures.append(f"auto's expected calibration error {ece:.4f} > {ACCEPT_ECE}")
        for failure in failures:
            print("FAIL", failure)
        if failures:
            sys.exit(1)
        print(f"\ncheck: weights reproduced; auto AUROC {auc:.4f} >= {args.min_auroc}, ECE {ece:.4f} <= {ACCEPT_ECE}"
              + ("" if auc >= ACCEPT_AUROC else f" (issue 13 asks AUROC >= {ACCEPT_AUROC}: not reached)"))


def same_weights(a, b):
    """The two model files' numbers agree to 1e-6 (relative), comments aside."""
    def numbers(text):
        body = "\n".join(line.split("//")[0] for line in text.splitlines())
        return [float(x) for x in re.findall(r"[-+]?\d[\d.]*(?:e[-+]?\d+)?", body)]
    x, y = numbers(a), numbers(b)
    return len(x) == len(y) and all(math.isclose(p, q, rel_tol=1e-6, abs_tol=1e-9) for p, q in zip(x, y))


if __name__ == "__main__":
    main()
