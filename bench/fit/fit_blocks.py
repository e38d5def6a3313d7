#!/usr/bin/python3
"""fit_blocks.py: fits the block model of auto's pruned region (issue 24) on wcxb-dev.

pith_bench_signals --blocks prints the blocks of each page's main region as
auto's region pass finds it (paragraphs, list items, cells, headings, <div>s
holding text), with the features pith computes for them
(extractor/src/strategies/blocks.cpp). A block is content when its words are in
the page's annotated main content: for a block of three or more words, when
at least half of its word pairs are pairs of the annotation; for a shorter
one, when its words appear together in the annotation. Blocks weigh by their
words, as word F1 counts them. trafilatura-dev's pages add the blocks its
snippets label (a block holding a `with` snippet, or inside one, is content;
one holding a `without` snippet is not): the comments, related links and
captions its annotators left out of articles.

Everything is fitted in five folds grouped by domain (trafilatura-dev's by
site, the same hash). Each page's page-type
probabilities come from the page-type model fitted without its fold, so the
block model learns from probabilities as unsure as those of pages it has
never seen. The figures printed are out of fold: the word F1 of each page's
region with the blocks its fold's model drops taken out, against the region
whole. pith keeps, on each page, the blocks from the likeliest down to the
cut that maximises the word F1 their probabilities expect (blocks.cpp's
expected_f1_cut(), mirrored here), the probabilities raised to SHARPENING
first: no threshold is fitted, only that power chosen among a few. Six models
are written to extractor/src/strategies/block_model.inc: the one fitted on
every page, which pith uses, and the five fold models.

--without NAME... fits without those features, to measure what they add
(pith computes them all, so such a fit can be neither written nor checked).

--stability N measures how far the pruning moves when N random pages leave
the training set (see stability()).

usage: /usr/bin/python3 bench/fit/fit_blocks.py [--signals BIN] [--write | --check] [--min-gain G]
           [--without NAME...] [--stability N]
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import gzip
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wcxb  # noqa: E402
from gbdt import Booster, forest_table, group_folds, add_model_mode, below, finish_model  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODEL_FILE = REPO / "extractor" / "src" / "strategies" / "block_model.inc"
FOLDS = 5
# A second model reading each block's out-of-fold probability with its
# neighbours' (the blocks before and after it, the word-weighted mean over 2,
# 5 and 15 blocks each side, the page's mean, the block's rank in its page)
# left the pruned region's out-of-fold word F1 at 0.854. Refitted on the
# blocks of the committed models (0.856, held-aside fold 0.865), not better:
# the block's link share and size against its page's, its distance from the
# page's largest block, the share of the region's words before it and how
# often its text recurs in the region (0.855); the share of its words found
# in the region's sentences of 20 words or more (0.856); depth 5 at 120 rounds
# (0.855), depth 6 at 150 rounds (0.858, a table eight times the size); one
# threshold per likeliest page type, each chosen without the fold it is
# applied to (0.855). Keeping exactly the blocks the labels call content
# would give 0.936. Computed in Python beside pith's features (this fit,
# 0.855 out of fold, 0.874 in sample): whether the block is under, or is, a
# heading naming furniture in common English ("related", "similar", "also
# viewed", "recommended", "recently viewed", "more from", "popular",
# "newsletter", "frequently bought"...), 0.855 (0.877 in sample); the share
# of its characters in tokens of 25 or more (the URLs and identifiers of
# template data) with its mean token length, 0.853.
# Learned from the class and id words of the block and its ancestors (up to
# eight levels, in three groups: the block's own, two levels up, any): each
# word's share of content, smoothed towards the mean and read as log odds,
# kept where it names blocks on enough domains; per group the highest, the
# lowest, the sum and the count, each row's from a table fitted without its
# fold (and without the fold evaluated). On the committed features (this
# fit 0.855, held-aside fold 0.863): words of 10 domains or more, smoothing
# 200 words, 0.857 (0.865); of 25, 500 words, 0.859 (0.866); of 40, 1,000
# words, 0.854 (0.861). Forums lost 0.015 to 0.020 each time (their posts'
# "comment", "thread", "user" and "author" are other pages' furniture). A
# gain that comes and goes with the cut is not a signal.
# The cut was a fixed threshold, the best out of fold among 0.2 to 0.6, with
# another on pages likely listings or collections (0.45 and 0.2): 0.855 out
# of fold. The cut each page's probabilities expect to be best gives 0.858,
# higher in each fold (listings 0.732 -> 0.749, products 0.635 -> 0.643).
# Refitted after it (`make refit`), the judge took that cut's region on more
# of trafilatura-dev's articles, with their comments and related links: out
# of fold its snippet F1 fell 0.9427 -> 0.9406, under the 0.941 issue 24
# keeps (wcxb-dev 0.862 -> 0.864). Unsure furniture swells the page's
# expected content, sum(p * words), and the cut lets more of it in; the
# probabilities raised to a power first (SHARPENING) weigh it less. Here:
# 1.25 0.8585 (articles 0.937 -> 0.939, higher than the fixed cut in each
# fold), 1.5 0.8576 (articles 0.941, lower in one fold), 2 0.852. After `make
# refit`: at 1.25 trafilatura-dev 0.9408 (wcxb-dev 0.864); at 1.5, committed,
# trafilatura-dev 0.9418 and wcxb-dev 0.862 (held-aside fold 0.8724 ->
# 0.8746; listings 0.700 -> 0.715, collections 0.669 -> 0.663), Mozilla's
# pages 0.959 -> 0.955, and confidence's least-sure 10% 0.458 -> 0.492 of the
# bad pages (0.445 -> 0.482 over ten other splits). Recalibrated per fold and
# per kind of page instead of sharpened (on likely grids the blocks the model
# gives under 0.1 are content for 65% of their words): 0.857.
SHARPENING = 1.5
# Each model the mean of two fits on the blocks of about 80% of its domains,
# drawn by a salted hash (bagging by domain): out of fold at this sharpening
# 0.8615, and 0.8588 with other salts, against 0.8576; four bags 0.8617 and
# 0.8599; one fit at learning rate 0.1 over 160 rounds 0.8593, at 0.05 over
# 320 0.8604. Two bags, refitted through the chain (`make refit`): this fit
# 0.858 -> 0.860 (collections 0.682), but auto's answers fell out of fold,
# wcxb-dev 0.8646 -> 0.8635 (held-aside fold 0.8793 -> 0.8766),
# trafilatura-dev 0.9427 -> 0.9420, and confidence's least-sure 10% held
# 0.431 of the bad pages instead of 0.478 (0.404 over ten other splits);
# Mozilla's pages 0.9548 -> 0.9579. The judge, not the region, decides auto's
# answer, and it took no gain from it. Four bags' trees would also cost auto
# about 5% of gumbo's parse time (80 trees take 0.7 us a block, a page has
# some 150 blocks), where issue 24 allows auto 1.0x of it. A second stage
# reading, beside each block's features, the first stage's out-of-fold
# probabilities of the three blocks before and after it, their means over 5
# and 20 blocks weighed by words, the page's mean and the block's rank in it:
# 0.8597 at sharpening 1.25, 0.8595 at 1.5 (listings 0.740 -> 0.757,
# collections 0.659 -> 0.684, but articles 0.941 -> 0.940, forums 0.788 ->
# 0.781, documentation 0.931 -> 0.925), and flattered: the first stage's
# probabilities it learnt from came from fits that had seen its held fold.
# Less than the bagging above gained, which did not reach auto's answers.
# The block's words (branch block-words): each run of ASCII letters and digits
# and each pair of them in a row, on 20 of wcxb-dev's domains or more (15,759,
# a table of 1.5 MB), with the log odds that a block holding it is content,
# smoothed by 20 blocks, in one column fitted without each fold; a block reads
# the mean, highest and lowest odds of its words and their number. In Python,
# each block's odds fitted without its fold and the fold evaluated: 0.8601 ->
# 0.8642 (from 10 domains 0.8643, from 5 0.8649; words alone 0.8622), every
# kind of page up. Built in blocks.cpp (pith's features equal the fit's to
# 1e-15), this fit 0.863, and through `make refit`: wcxb-dev 0.8678 -> 0.8694
# out of fold (forums 0.790 -> 0.785, services 0.824 -> 0.830), trafilatura-dev
# 0.9410, title 0.790, and confidence's least-sure 10% 0.387 of the bad pages
# (0.438 over ten other splits), under confidence_fit's 0.41. Not merged.
# With replay_streamed on by default too (branch block-words-streamed-
# unfiltered): wcxb-dev 0.8703, trafilatura-dev 0.9421, the least-sure 10%
# 0.427 of the 103 bad pages (0.408 over the ten), title 0.786. That table
# holds site names ("facebook", "github"): words on 20 domains, but weights
# that name a site. Without the names of the sites the corpora's pages link
# to (the label before a host's public suffix; 12,439 entries left, branch
# block-words-streamed): wcxb-dev 0.8700 (held-aside fold 0.8804 -> 0.8730),
# trafilatura-dev 0.9433 out of fold but its in-sample precision 0.9156, under
# the quality bench's 0.920; the least-sure 10% 0.438 (0.424 over the ten).
# The lookup by hashes costs auto 0.93 -> 0.96 of gumbo's parse time (1.02
# with a string built for each word).
# How steady the fit is (--stability 3, in sample): with 3 random pages of
# wcxb-dev left out of its training set, the pruned region of 970 of the
# other 1,476 pages changed (mean |word F1 change| 0.0122, 4.7% of the blocks
# kept by one fit and not the other); the mean of 4 bags by domain, 848 pages
# (0.0071, 2.9%); rate 0.05 over 320 rounds, 773 (0.0059, 2.2%). Both cost
# four times the trees. So a change to pith that alters the blocks of a few
# pages reaches most answers through this refit, and through the judge and
# the confidence refitted after it: ARIA's accordions (page/prep.hpp) moved
# 3 pages, and their refit 418.
PARAMS = dict(objective="binary", rounds=80, max_depth=4, learning_rate=0.2, reg_lambda=1.0, min_child_weight=5.0)
WORD = re.compile(r"\w+")


def corpus_root(argument):
    for root in [argument, os.environ.get("PITH_CORPUS"), str(REPO.parent / "shared" / "corpus")]:
        if root and (Path(root) / "wcxb-dev" / "pages.json").is_file():
            return Path(root)
    sys.exit("fit_blocks.py: no wcxb-dev corpus (set PITH_CORPUS)")


def tokens(text):
    return WORD.findall((text or "").lower())


def blocks(binary, files):
    """{key: (feature rows, texts)} from pith_bench_signals --blocks over
    `files`, {key: (path, fold)}."""
    lines = "".join(f"{path}\t\t{fold}\n" for path, fold in files.values())
    out = subprocess.run([binary, "--blocks"], input=lines, capture_output=True, text=True, check=True).stdout
    rows = [json.loads(line) for line in out.split("\n") if line.strip()]
    key_of = {str(path): key for key, (path, _) in files.items()}
    names = rows[0]["block_feature_names"]
    return names, {key_of[o["file"]]: (o.get("blocks", []), o.get("texts", [])) for o in rows[1:]}


def without_features(names, found, left_out):
    """`names` and `found` (as blocks() gives them) without the features named in `left_out`."""
    unknown = sorted(set(left_out) - set(names))
    if unknown:
        sys.exit(f"fit_blocks.py: no such block features: {', '.join(unknown)}")
    kept = [i for i, name in enumerate(names) if name not in left_out]
    return [names[i] for i in kept], {key: ([[row[i] for i in kept] for row in rows], texts)
                                      for key, (rows, texts) in found.items()}


def snippet_labels(texts, note):
    """trafilatura-dev's labels: 1 for a block that holds a `with` snippet or is
    part of one, 0 for a `without` one, None for the rest (and for a block
    that both would claim)."""
    def joined(text):
        return f" {' '.join(tokens(text))} "
    snippets = [(joined(s), 1.0) for s in note.get("with") or []] + \
               [(joined(s), 0.0) for s in note.get("without") or []]
    labels = []
    for text in texts:
        block = joined(text)
        found = {value for snippet, value in snippets if snippet.strip() and
                 (snippet in block or (len(block.split()) >= 3 and block in snippet))}
        labels.append(found.pop() if len(found) == 1 else None)
    return labels


def label(block_tokens, reference_pairs, reference_text):
    if len(block_tokens) >= 3:
        pairs = list(zip(block_tokens, block_tokens[1:]))
        return float(sum(p in reference_pairs for p in pairs) >= len(pairs) / 2)
    return float(f" {' '.join(block_tokens)} " in reference_text)


def word_f1(predicted, reference):
    if not reference:
        return 1.0 if not predicted else 0.0
    if not predicted:
        return 0.0
    overlap = sum((collections.Counter(predicted) & collections.Counter(reference)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(predicted), overlap / len(reference)
    return 2 * precision * recall / (precision + recall)


def expected_f1_cut(p, words):
    """The lowest probability a kept block may have, as blocks.cpp's
    expected_f1_cut() finds it: the cut through the blocks taken from the
    likeliest down that maximises 2 * sum(kept p * words) / (kept words +
    sum(p * words)); blocks of equal probability go together. None when no
    block has any probability."""
    expected = 0.0
    for b in range(len(p)):  # summed in pith's order
        expected += p[b] * words[b]
    order = np.argsort(-p, kind="stable")
    best, cut, kept_expected, kept_words = 0.0, None, 0.0, 0.0
    for i, b in enumerate(order):
        kept_expected += p[b] * words[b]
        kept_words += words[b]
        if i + 1 < len(order) and p[order[i + 1]] == p[b]:
            continue
        f1 = 2.0 * kept_expected / (kept_words + expected)
        if f1 > best:
            best, cut = f1, p[b]
    return cut


def stability(leave_out, X, y, w, row_page, pages, f1_by_page, kept):
    """Prints how far the region's pruning moves when `leave_out` of wcxb-dev's
    pages, drawn at random (seeded), leave the block model's training set: as
    the model is fitted, as the mean of four fits each without a quarter of
    the domains (bagging by domain), and at a quarter of the learning rate over
    four times the rounds. Each model is fitted on every page and again
    without those; printed are the other pages whose pruned region changed,
    by how much word F1, and the share of blocks kept by one and not the
    other. A change to pith that alters a few pages' blocks pays as much in the
    refit it needs, before the judge and the confidence are refitted on it."""
    wcxb_keys = sorted({key for key in row_page if key in pages})
    gone = set(random.Random(7).sample(wcxb_keys, leave_out))
    others = [key for key in wcxb_keys if key not in gone]
    without = np.array([key not in gone for key in row_page])
    everything = np.ones(len(y), dtype=bool)
    quarter = np.asarray(group_folds([f"bag{pages[k]['domain'] if k in pages else k}" for k in row_page], 4))
    slow = dict(PARAMS, rounds=4 * PARAMS["rounds"], learning_rate=PARAMS["learning_rate"] / 4)

    def fitted(rows, params=PARAMS):
        return Booster(**params).fit(X[rows], y[rows], w[rows])

    def as_fitted(rows):
        return fitted(rows).predict(X)

    def bagged(rows):
        margins = [fitted(rows & (quarter != b)).margin(X) for b in range(4)]
        return 1 / (1 + np.exp(-np.mean(margins, axis=0)))

    def slower(rows):
        return fitted(rows, slow).predict(X)

    print(f"the block model fitted on every page and again without {leave_out} of them; on the other "
          f"{len(others)} pages:")
    print(f"{'model':<34}{'pages moved':>12}{'mean |dF1|':>12}{'blocks flipped':>16}{'mean F1':>9}")
    for name, fit in [("as fitted", as_fitted), ("mean of 4 bags by domain", bagged),
                      (f"rate {slow['learning_rate']:g} over {slow['rounds']} rounds", slower)]:
        keep_all, keep_without = kept(fit(everything)), kept(fit(without))
        before, after = f1_by_page(keep_all), f1_by_page(keep_without)
        change = np.array([abs(before[k] - after[k]) for k in others])
        print(f"{name:<34}{int((change > 1e-9).sum()):>12}{change.mean():>12.4f}"
              f"{float((keep_all != keep_without).mean()):>16.4f}{np.mean([before[k] for k in others]):>9.4f}",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--signals", default=str(REPO / "build" / "bench" / "pith_bench_signals"))
    ap.add_argument("--corpus")
    add_model_mode(ap, MODEL_FILE, REPO)
    ap.add_argument("--min-gain", type=float,
                    help="exit 1 unless pruning gains at least this much out-of-fold word F1 over the whole region")
    ap.add_argument("--stability", type=int, metavar="N",
                    help="print how far the pruning moves when N random pages leave the training set (no fit written)")
    ap.add_argument("--without", nargs="+", default=[], metavar="NAME",
                    help="leave these features out of the fit (an ablation: not with --write or --check)")
    args = ap.parse_args()
    if args.without and (args.write or args.check):
        sys.exit("fit_blocks.py: --without fits other features than pith computes: it cannot --write or --check")
    if args.stability and (args.write or args.check):
        sys.exit("fit_blocks.py: --stability measures refits and writes none: it cannot --write or --check")
    corpus = corpus_root(args.corpus)
    pages = json.loads((corpus / "wcxb-dev" / "pages.json").read_text(encoding="utf-8"))["pages"]
    keys = sorted(pages)
    page_fold = dict(zip(keys, group_folds([pages[k]["domain"] for k in keys], FOLDS)))
    annotations, traf_names, sites = wcxb.trafilatura_pages(corpus)
    traf_fold = dict(zip(traf_names, group_folds(sites, FOLDS)))
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for key in keys:
            path = Path(tmp) / f"{key}.html"
            path.write_bytes(gzip.open(corpus / "wcxb-dev" / "html" / f"{key}.html.gz").read())
            files[key] = (path, page_fold[key])
        for name in traf_names:
            files["trafilatura/" + name] = (corpus / "trafilatura-dev" / "html" / name, traf_fold[name])
        names, found = blocks(args.signals, files)
    if args.without:
        names, found = without_features(names, found, args.without)

    X, y, w, row_page, row_tokens = [], [], [], [], []
    references = {}
    for key in keys:
        truth = json.loads((corpus / "wcxb-dev" / "ground-truth" / f"{key}.json").read_text(encoding="utf-8"))
        reference = tokens(truth["ground_truth"].get("main_content"))
        references[key] = reference
        pairs = set(zip(reference, reference[1:]))
        text = f" {' '.join(reference)} "
        features, texts = found.get(key, ([], []))
        for row, block in zip(features, texts):
            words = tokens(block)
            X.append(row)
            y.append(label(words, pairs, text) if words else 0.0)
            w.append(max(len(words), 1))
            row_page.append(key)
            row_tokens.append(words)
    # trafilatura-dev's blocks where its snippets say what they are: the
    # comments, related links and captions its annotators left out.
    traf_rows = 0
    for name in traf_names:
        features, texts = found.get("trafilatura/" + name, ([], []))
        for row, text, value in zip(features, texts, snippet_labels(texts, annotations[name])):
            if value is not None:
                X.append(row)
                y.append(value)
                w.append(max(len(tokens(text)), 1))
                row_page.append("trafilatura/" + name)
                row_tokens.append([])
                traf_rows += 1
    X = np.array(X, dtype=np.float64)
    y = np.array(y)
    w = np.array(w, dtype=np.float64)
    row_fold = np.array([traf_fold[k[len("trafilatura/"):]] if k.startswith("trafilatura/") else page_fold[k]
                         for k in row_page])

    by_page = collections.defaultdict(list)
    for i, key in enumerate(row_page):
        by_page[key].append(i)

    def f1_by_page(keep):
        return {key: word_f1([t for i in by_page.get(key, []) if keep[i] for t in row_tokens[i]], references[key])
                for key in keys}

    def mean_f1(keep):
        scores = collections.defaultdict(list)
        for key, f1 in f1_by_page(keep).items():
            scores[pages[key]["page_type"]].append(f1)
            scores["all"].append(f1)
        return {t: sum(v) / len(v) for t, v in scores.items()}

    words = np.maximum(np.round(np.expm1(X[:, names.index("words_log")])), 1.0)  # as pith counts them

    def expected_f1_kept(p):
        keep = np.zeros(len(p), dtype=bool)
        for rows in by_page.values():
            rows = np.array(rows)
            sharpened = (p[rows] ** SHARPENING).astype(np.float32).astype(np.float64)  # pith keeps floats
            cut = expected_f1_cut(sharpened, words[rows])
            if cut is not None:
                keep[rows] = sharpened >= cut
        return keep

    if args.stability:
        stability(args.stability, X, y, w, row_page, pages, f1_by_page, expected_f1_kept)
        return

    models = [Booster(**PARAMS).fit(X, y, w)]
    proba = np.zeros(len(y))
    for fold in range(FOLDS):
        train = row_fold != fold
        booster = Booster(**PARAMS).fit(X[train], y[train], w[train])
        models.append(booster)
        proba[~train] = booster.predict(X[~train])

    whole = mean_f1(np.ones(len(y), dtype=bool))
    pruned = mean_f1(expected_f1_kept(proba))
    in_sample = mean_f1(expected_f1_kept(models[0].predict(X)))
    labelled = mean_f1(y >= 0.5)
    print(f"trafilatura-dev: {traf_rows} blocks its snippets label")
    print(f"wcxb-dev: {len(keys)} pages, {len(y) - traf_rows} blocks ({y.mean():.3f} content, {np.average(y, weights=w):.3f} "
          f"of words), {FOLDS} folds by domain")
    print("word F1 of the main region, whole and pruned at each page's expected-F1 cut:")
    types = ["all", "article", "forum", "product", "collection", "listing", "documentation", "service"]
    print(f"{'':<22}" + "".join(f"{t[:9]:>10}" for t in types))
    print(f"{'whole':<22}" + "".join(f"{whole[t]:>10.3f}" for t in types))
    print(f"{'pruned, out of fold':<22}" + "".join(f"{pruned[k]:>10.3f}" for k in types))
    print(f"{'in sample':<22}" + "".join(f"{in_sample[k]:>10.3f}" for k in types))
    print(f"{'the labels themselves':<22}" + "".join(f"{labelled[k]:>10.3f}" for k in types))
    gain = pruned["all"] - whole["all"]
    print(f"out of fold {pruned['all']:.3f} against {whole['all']:.3f} whole ({gain:+.3f}), in sample {in_sample['all']:.3f}")

    text = forest_table(models, len(names), [
        "Generated by bench/fit/fit_blocks.py --write; do not edit by hand.",
        "The block model of auto's pruned region: boosted trees (logistic) over",
        f"{len(names)} features of a block, fitted on wcxb-dev's {len(y)} blocks in folds grouped by domain.",
        f"Out of fold, the region's word F1 goes from {whole['all']:.3f} whole to {pruned['all']:.3f} pruned.",
        "Six models: fitted on every page (used by pith), then without each fold."], bases=True)
    text += f"inline constexpr double kSharpening = {SHARPENING!r};  // the cut reads p^kSharpening\n"
    finish_model(MODEL_FILE, text, args, REPO, below(gain, args.min_gain, "the pruned region's out-of-fold gain"),
                 models)


if __name__ == "__main__":
    main()
