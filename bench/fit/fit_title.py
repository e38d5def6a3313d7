#!/usr/bin/python3
"""fit_title.py: fits the title model (issue 27) on wcxb-dev's titles.

pith reads the titles a page gives (extractor/src/metadata/metadata.cpp,
headline_title): <title>, its first part, its last and all but its last,
og:title and its parts, JSON-LD's headline, the first three <h1>s, and the
headline its rules chose with the part they chose it over. Each candidate
comes with what the model reads (diagnostics.title_candidates): which of
those gave it, its words and length, whether it has a separator or names the
site, how much it shares with <title>, the first <h1>, og:title and the URL's
path, how many other candidates read the same, and the page type's
probabilities. The model, boosted trees (gbdt.py, logistic), gives each
candidate the probability that it is the page's title as the truth has it
(white space collapsed); pith returns the candidate scored highest.

The examples come from pith itself: each page is extracted with its URL, as a
crawler gives it, each fold of wcxb-dev's domains with the page-type model
fitted without it (--model-fold), so the probabilities the model learns from
are out of fold. Everything is fitted in five folds grouped by domain; the
accuracy printed is out of fold, beside what the rules alone chose. Six models
are written to extractor/src/metadata/title_model.inc: the one fitted on every
page, which pith uses, and the five fold models.

usage: /usr/bin/python3 bench/fit/fit_title.py [--pith build/pith] [--write | --check] [--min-accuracy A]
"""

import argparse
import concurrent.futures
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wcxb  # noqa: E402
from gbdt import Booster, forest_table, add_model_mode, below, finish_model  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODEL_FILE = REPO / "extractor" / "src" / "metadata" / "title_model.inc"
# A handful of settings were tried; these gave 0.789 out of fold. None of
# these moved it by more than a refit's noise: a listwise fit (softmax over
# each page's candidates, pages with no right candidate left out) 0.781 to
# 0.790 at 100 to 300 rounds, depth 2 to 4; six features relative to the
# other candidates 0.793; min_child_weight 8, 0.794; 100 rounds 0.781.
# Where two candidates differ only in case or quote marks (the <h1> and the
# <title>'s part, on about 45 pages), the annotation takes each half the time:
# features saying so (a twin exists, which has more capitals, which curly
# quotes) gave 0.792, and 0.774 on the held-aside fold against 0.791.
# pith's own headline alone is the annotated title on 0.735 of collection
# pages, where the model gets 0.658; taking the headline wherever the page
# type is collection gave 0.791 overall (listing and service too, 0.786).
# Reading <h1>s without their aria-hidden parts (a heading animated word by
# word beside its text for screen readers) changed the candidates of a few
# pages (one candidate fewer in 4,905), and the refit's held-aside fold went
# 0.791 -> 0.774, overall 0.789 -> 0.789: this model moves more from one refit
# to the next than such fixes move it. The middle parts of a title of three
# or more ("Category - Thread - Forum") as one more candidate: some candidate
# right on 0.950 -> 0.955, the model 0.789 -> 0.790, held aside 0.791 -> 0.784.
# Candidates' character references decoded (a headline escaped twice merging
# with its twin escaped once): 0.787, held aside 0.780. With 3% of the
# domains' pages left out at random (three draws and none), one fit gave
# 0.784 to 0.794 (held aside 0.777 to 0.791), the mean margin of 10 fits on
# half the domains each 0.782 to 0.792 (0.774 to 0.791): bagging neither
# raises nor steadies it. Each candidate's share of words in the answer's
# text, in its first 600 characters, in the excerpt, and where it first
# appears in the text: 0.787 to 0.794, held aside 0.777 to 0.798.
# Fitted on every page, the model is right in sample on 0.855 of them (service
# pages 0.733) where some candidate is right on 0.950: of the 240 pages where
# a candidate is right and the model out of fold picks another, 95 want the
# <title> (or its part) where the model took the <h1>, and 64 the <h1> where it
# took the <title>'s part. Which of the two the annotation takes is not a thing
# these features see on the page, in sample or out.
PARAMS = dict(objective="binary", rounds=200, max_depth=3, learning_rate=0.1, reg_lambda=1.0, min_child_weight=2.0)
FROM_HEADLINE, FROM_TITLE_PART = 0, 1  # the features saying which candidates the rules chose
FROM_DECLARED = range(1, 10)           # from <title>, og:title or JSON-LD, whole or in part
FROM_H1 = (10, 11)                     # from the first <h1>, or another
PAGE_TYPES_BEGIN = 29                  # the page type's probabilities, in wcxb.TYPES's order
RULE_TYPES = {"forum", "service"}      # where the rules take the title's part over the headline


def collapse(text):
    return " ".join((text or "").split())


def candidates(pith, root, pages, fold_of, jobs=2):
    """{key: [(text, features)]} from pith's diagnostics, each page with its
    URL and the page-type model fitted without its fold."""
    def run(job):
        key, url, fold, path = job
        args = [pith, "extract", "--diagnostics", "--model-fold", str(fold)] + (["--url", url] if url else [])
        out = subprocess.run(args + [str(path)], capture_output=True, check=False).stdout
        try:
            answer = json.loads(out)
        except ValueError:
            return key, []
        found = ((answer.get("diagnostics") or {}).get("title_candidates")) or []
        return key, [(c["text"], c["features"]) for c in found]

    listed = json.loads((root / wcxb.corpus.WCXB / "pages.json").read_text(encoding="utf-8"))["pages"]
    with tempfile.TemporaryDirectory() as tmp:
        work = []
        for (key, *_), fold in zip(pages, fold_of):
            path = Path(tmp) / f"{key}.html"
            path.write_bytes(wcxb.page_html(root, key))
            work.append((key, listed[key].get("url") or "", int(fold), path))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            return dict(pool.map(run, work))


def rule_choice(rows, kind_of_page):
    """The candidate the rules alone chose: the title's part on a forum or a
    service page where there is one, else the headline (else the first)."""
    X = np.array([f for _, f in rows])
    types = X[0, PAGE_TYPES_BEGIN:PAGE_TYPES_BEGIN + len(wcxb.TYPES)]
    predicted = wcxb.TYPES[int(np.argmax(types))] if types.sum() > 0 else kind_of_page
    if predicted in RULE_TYPES and X[:, FROM_TITLE_PART].any():
        return int(np.argmax(X[:, FROM_TITLE_PART]))
    return int(np.argmax(X[:, FROM_HEADLINE])) if X[:, FROM_HEADLINE].any() else 0


def title_sources(rows, labels):
    """Where a page's annotated title is found among its candidates: the <h1>
    and the declared titles read the same, or differ and the annotation takes
    one of them. Where they differ the annotation takes either about as often,
    and that choice is most of what the model misses."""
    right = [features for (_, features), label in zip(rows, labels) if label]
    if not right:
        return "no candidate is the truth's title"
    from_h1 = any(f[i] for f in right for i in FROM_H1)
    declared = any(f[i] for f in right for i in FROM_DECLARED)
    if from_h1 and declared:
        return "the <h1> and a declared title read the same"
    if not any(f[i] for _, f in rows for i in FROM_H1):
        return "no <h1>"
    if from_h1:
        return "they differ; the truth takes the <h1>"
    return "they differ; the truth takes the declared title" if declared else "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", default=str(REPO / "build" / "pith"))
    add_model_mode(ap, MODEL_FILE, REPO)
    ap.add_argument("--min-accuracy", type=float, help="exit 1 when the out-of-fold accuracy is below it")
    args = ap.parse_args()
    root = wcxb.root_or_exit("fit_title.py")
    pages = wcxb.load(root)
    fold_of = wcxb.folds(pages)
    found = candidates(args.pith, root, pages, fold_of)

    # Pages with a title in the truth; those where pith found no candidate
    # count as misses and teach nothing.
    examples = []
    for (key, kind, _, truth), fold in zip(pages, fold_of):
        title = collapse(truth.get("title"))
        if not title:
            continue
        rows = found.get(key) or []
        labels = np.array([1.0 if collapse(text) == title else 0.0 for text, _ in rows])
        examples.append((key, kind, int(fold), rows, labels))
    width = len(next(rows for _, _, _, rows, _ in examples if rows)[0][1])
    X = np.array([f for _, _, _, rows, _ in examples for _, f in rows])
    y = np.concatenate([labels for *_, labels in examples])
    row_fold = np.concatenate([[fold] * len(rows) for _, _, fold, rows, _ in examples])

    models = [Booster(**PARAMS).fit(X, y)]
    scores = np.zeros(len(y))
    for fold in range(wcxb.FOLDS):
        train = row_fold != fold
        booster = Booster(**PARAMS).fit(X[train], y[train])
        models.append(booster)
        scores[~train] = booster.predict(X[~train])
    in_sample = models[0].predict(X)

    tally = {}
    agreement = {}
    start = 0
    for key, kind, fold, rows, labels in examples:
        n = len(rows)
        hits = (False, False, False)
        if n:
            picked = (rule_choice(rows, kind), int(np.argmax(scores[start:start + n])),
                      int(np.argmax(in_sample[start:start + n])))
            hits = tuple(bool(labels[i]) for i in picked)
        start += n
        counts = agreement.setdefault(title_sources(rows, labels), [0, 0, 0])
        counts[0] += 1
        counts[1] += hits[1]
        counts[2] += hits[2]
        for group in ("all", kind) + (("held aside",) if fold == 0 else ()):
            t = tally.setdefault(group, [0, 0, 0, 0, 0])
            t[0] += 1
            for i, hit in enumerate(hits):
                t[1 + i] += hit
            t[4] += bool(n) and bool(labels.any())
    print(f"wcxb-dev: {len(examples)} pages with a title, {len(y)} candidates; "
          f"title equal to the truth's (white space collapsed):")
    print(f"{'type':<14}{'pages':>6}{'rules':>8}{'model':>8}{'in-sample':>11}{'any candidate':>15}")
    order = ["all"] + wcxb.TYPES + ["held aside"]
    for group in order:
        if group in tally:
            n, rule, model, fitted, any_hit = tally[group]
            print(f"{group:<14}{n:>6}{rule / n:>8.3f}{model / n:>8.3f}{fitted / n:>11.3f}{any_hit / n:>15.3f}")
    print(f"by where the truth's title is found:\n  {'':<56}{'pages':>6}{'model':>8}{'in-sample':>11}")
    for group, (n, right, fitted) in sorted(agreement.items(), key=lambda item: -item[1][0]):
        print(f"  {group:<56}{n:>6}{right / n:>8.3f}{fitted / n:>11.3f}")
    accuracy = tally["all"][2] / tally["all"][0]

    text = forest_table(models, width, [
        "Generated by bench/fit/fit_title.py --write; do not edit by hand.",
        "The title model: boosted trees (logistic) over a title candidate's features",
        f"and the page type's probabilities ({width} features), fitted on wcxb-dev's titles",
        f"in folds grouped by domain. Out of fold: the title is the truth's on {accuracy:.3f} of",
        f"{tally['all'][0]} pages (the rules alone: {tally['all'][1] / tally['all'][0]:.3f}).",
        "Six models: fitted on every page (used by pith), then without each fold."], bases=True)
    finish_model(MODEL_FILE, text, args, REPO, below(accuracy, args.min_accuracy, "out-of-fold accuracy"), models)


if __name__ == "__main__":
    main()
