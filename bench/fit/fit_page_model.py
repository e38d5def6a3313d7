#!/usr/bin/python3
"""fit_page_model.py: fits the page-type classifier (issue 24) on wcxb-dev.

The features are pith's own (build/bench/pith_bench_signals prints them for
each page, the way `pith extract` computes them); the models are forests of
boosted trees (gbdt.py, softmax over the seven types). Pages are given without
their URL, as a crawl's files usually are: the classifier then reads the
page's canonical URL when it declares one.

Two models, with the same settings:
  - the page-type model, over every feature: the page's layout (its URL, its
    declarations, its structure) and its words (the kind phrases in its
    headings, links and buttons; questions, phone and mail links, e-mail
    fields; the page words, each one's uses per 1,000 words of the body,
    chosen here: see choose_words; and the seven scores of a naive Bayes
    model over the body's words, fitted here: see TextModel). Its type is the
    answer's page_type;
  - the layout model, over the layout features alone: what the extraction
    reads (auto's choice, and the block model, the judge, the confidence and
    the title model, each fitted on its probabilities).

Everything is fitted in five folds grouped by domain (a domain's pages share a
fold, chosen by a hash of the domain): the figures printed are out of fold,
each page classified by the model fitted without its fold. Six models of each
(and of the text model) are written to extractor/src/classify/
page_type_model.inc, layout_type_model.inc and text_model.inc, with the words
pith counts to page_words.inc: the one fitted on every page, which pith uses,
and the five fold models, which the quality bench uses for its out-of-fold
figures (pith extract --model-fold, bench/quality_table.py).

usage: /usr/bin/python3 bench/fit/fit_page_model.py [--signals BIN] [--write | --check]
                                                    [--min-accuracy A] [--min-layout-accuracy A]
  --write   rewrite the committed models
  --check   exit 1 unless the committed models are what this fit gives
"""

import argparse
import collections
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gbdt import Booster, forest_table, group_folds, add_model_mode, below, finish_models, packed_lines  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODEL_FILE = REPO / "extractor" / "src" / "classify" / "page_type_model.inc"
LAYOUT_MODEL_FILE = REPO / "extractor" / "src" / "classify" / "layout_type_model.inc"
PAGE_WORDS_FILE = REPO / "extractor" / "src" / "classify" / "page_words.inc"
TEXT_MODEL_FILE = REPO / "extractor" / "src" / "classify" / "text_model.inc"
FIRST_WORD_FEATURE = "heading:add to bag"  # the first feature the layout model does not read
TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"]
FOLDS = 5
# Fitted with these settings, chosen among a handful by the out-of-fold
# accuracy and the model's size (the committed table stays under 1 MB):
# depth-3 trees, 60 rounds, learning rate 0.2. Not better out of fold: the
# tag and class counts over the page's elements or words as well (0.831,
# 0.817), the answer's confidence features beside the page's (0.821), 120
# rounds at 0.1 (0.830), depth 4 (0.826), min_child_weight 4 (0.822).
# Better out of fold but not committed (branch page-type-vocabulary): each
# kind's common English words ("reply", "add to cart", "sort by", "read more",
# "docs", "get started") counted in the <title>, the h1-h3 headings and the
# text of links and buttons, 0.835 -> 0.850 (0.828 -> 0.842 averaged over three
# other splits of the domains; the same words over the whole text added
# nothing). Refitted after it, the other models left wcxb-dev's word F1 where
# it was (0.860 out of fold) and the least-sure 10% of confidence held 0.400
# of the bad pages, under confidence_fit's floor of 0.41 (0.450 once the
# confidence read the page type's entropy), and the pruned region's gain over
# the whole one fell from 0.030 to 0.029, under block_fit's floor of 0.03.
# With the block model reading that entropy too (gain 0.030), wcxb-dev fell
# to 0.858 and its held-aside fold from 0.870 to 0.861 (trafilatura-dev 0.9412
# -> 0.9436, Mozilla's pages 0.956 -> 0.965, routing 0.424), so it stays off.
# Averaging four models, each fitted without the held fold and one more
# (bagging by domain): 0.834. Weighing each page by its type's rarity (the
# square root of the largest type's count over its own, or the fourth root):
# 0.822, 0.831; 120 rounds at 0.1 with min_child_weight 3 and reg_lambda 3:
# 0.828. The kinds' words again, computed in Python from the page (52 words
# and phrases counted in the <title>, the h1-h3 headings, the links and the
# buttons), with the shares of "you", "your", "we", "our", "I" and "my" among
# the page's words and its question marks and prices: 0.852 (the words alone
# 0.849, the shares alone 0.839; with the words, 100 rounds at 0.1 0.849,
# 120 at 0.2 0.848). Bags of words read with Python's html.parser, each
# token's log count as a feature beside pith's: the class and id names' parts
# in 60 pages or more (733 tokens) 0.834; the words of the <title>, h1-h3 and
# buttons, JSON-LD @types, og:type and input types in 25 pages or more (704)
# 0.848; a logistic regression over all of them hashed to 16,384 features,
# alone, 0.699. The classifier's misses are mostly service and listing pages
# taken for articles, which no words we tried tell apart. Randomised trees
# (a copy of gbdt.py drawing each tree's features, and rows, with a fixed
# seed): half the features a tree 0.840, a third 0.832, a third over 150
# rounds at 0.1 0.837, half the features and 70% of the pages 0.833. The
# model fits every page in sample (1.000) whatever the settings: what is
# missing is a signal, not regularisation. How steady it is: with each fold's
# model fitted again without 30 random domains (2% of the pages), 5.0% of the
# out-of-fold types flip and the probabilities move by 0.052 (half the L1
# distance, mean of three draws); with the cut points rounded to two
# significant digits, 5.8% and 0.054; the mean of 4 fits on 80% of the
# domains each, 2.3% and 0.031 (accuracy 0.838, two draws). Every model after
# this one reads its probabilities, so their refits inherit the flips: bagging
# is what would steady the chain, for 4 times the trees. The URL's and the
# host's words are worth 0.017 (0.818 without them); given each page's own
# URL (--with-urls) rather than the canonical one it declares, 0.828, and
# 0.836 with the host's words left out. Other settings: 200 rounds at depth 2
# and rate 0.1, 0.837; 30 rounds, 0.832; 16 bins, 0.830; min_gain 0.5, 0.829.
# The kinds' words again, in C++ this time (branch page-type-vocabulary: 81
# words and phrases counted in the <title> and h1-h3, and in links and buttons,
# apart; the shares of "you", "your", "we", "our", "i", "my", question marks and
# prices among the page's words), once auto kept the region on pages taken for
# collections and service pages: 0.848 out of fold (collections' recall 0.632
# -> 0.726, services' 0.667 -> 0.721), and after make refit wcxb-dev's word F1
# 0.8678 -> 0.8704 (held aside 0.8804 -> 0.8856), trafilatura-dev 0.9415 ->
# 0.9427, Mozilla's pages 0.9523 -> 0.9485, the block model's gain 0.033 ->
# 0.036. Not merged: the confidence's least-sure 10% held 0.288 of the bad
# pages (0.353 over ten other splits, 0.308 to 0.404; AUROC 0.865), where it
# held 0.459; no setting of its trees took it past 0.36 (min_child_weight 10
# or 20, 35 or 80 rounds, depth 2 over 100, reg_lambda 5), nor hiding the page
# type's probabilities from them (0.337). The pages left under 0.5 are fewer
# (104 against 109) and spread across kinds (17 products), at confidences of
# 0.4 to 0.6 among the many middling answers. In Python beforehand (lxml): the
# words alone 0.840, 0.854 and 0.856 over three splits (0.835, 0.842, 0.840
# without), with the shares 0.850, 0.854, 0.852.
# In Python again, those words and shares with the page's own words as well
# (each word's count per 1,000 words of its text, for the 300 words whose
# presence differs most between the kinds on the other folds' pages): 0.855,
# 0.856 and 0.860 over three splits (the 100 first, 0.850 to 0.861); with
# deeper trees over all of them, depth 4 and 100 rounds at 0.15 0.858 and 0.864
# over two splits, depth 5 and 150 rounds at 0.1 0.855 and 0.856, depth 3 and
# 150 rounds at 0.1 0.857 and 0.858. rs-trafilatura's 0.873 reads 100 such
# word features too; here they add half a point to the kinds' words.
# The kinds' words built with replay_streamed on by default, refitted through
# the chain (branch stream-vocab): 0.846, wcxb-dev 0.869 out of fold,
# trafilatura-dev 0.9417, and confidence's least-sure 10% 0.343 of the bad
# pages (0.402 over ten other splits).
# The kind phrases landed as the page-type model's, beside the layout model
# the extraction keeps reading: 0.835 -> 0.848 out of fold (the held-aside
# fold 0: 0.836 -> 0.861), no answer changed (every wcxb-dev text the same),
# and the pipeline's cost over gumbo's parse within the run-to-run noise
# (bench/compare.py). Matched first by a binary search over vectors of
# lowercased words, they cost trafilatura-dev 1.00x of gumbo's parse time in
# one run; by the first two letters on the page's own bytes, 0.91x. In
# Python (lxml) over three splits of the domains: the phrases and question
# marks 0.848, 0.850 and 0.850; with the phone and mail links and e-mail
# fields, as landed, 0.842, 0.859 and 0.856; with the shares of "you",
# "your", "we", "our", "i" and "my" among the page's words and its prices
# instead, 0.848, 0.860 and 0.846, not kept as they need every word of the
# page read apart (the walk counts words eight bytes at a time). Not better:
# the words of the headings and of the links and buttons hashed into 64 or
# 256 buckets each beside the phrases, 0.845 to 0.851; published-time
# <meta>s, rel=author and 25 words that ask the reader to act ("call now",
# "free estimate", "enroll", "apply now", "book now") as well, 0.847, 0.856
# and 0.850; each page word's count per 1,000 words for the 100 or 150 words
# whose presence differs most between the kinds (chosen on each fold's
# training pages), 0.858 to 0.868, the best of all but at a hash lookup per
# word of every page. Fed to the extraction instead of the layout model
# (an earlier branch, through make refit): wcxb-dev's word F1 0.8678 ->
# 0.8704, and the least-sure 10% of confidence held 0.288 of the bad
# answers against confidence_fit's floor of 0.41 (see above); metadata's
# author and date rules reading its type instead: authors 86.0% -> 85.9%,
# dates 86.7% -> 86.4%, pages without an author 90.5% -> 90.6%, without a
# date 90.6% -> 90.8% (bench/metadata_score.py), so they stay on the layout
# model's. Over three splits of the domains, the 394 features as landed give
# 0.848, 0.856 and 0.850; other settings of the trees within the noise of
# that (120 rounds at 0.1 0.853, 0.860, 0.851 for twice the trees; 200 at
# 0.1 0.851, 0.858, 0.854; depth 4 0.848, 0.860, 0.852; 120 rounds at depth
# 4 and 0.1 0.844, 0.860, 0.848; depth 2 over 200 rounds at 0.15 0.847,
# 0.855, 0.852; min_child_weight 3 0.840, 0.851, 0.849). Beside them the
# page's own words, the 100 whose presence differs most between the kinds on
# each fold's training pages among those on 15 domains or more, lowercase
# letters only and no label of any host the corpus's pages have or link to
# (9,080 labels, so that no word names a site): 0.849, 0.862 and 0.857, half
# a point for a lookup per word of every page.
# Landed: the page words as pith reads them (pith_bench_signals gives each
# page's words, this script chooses them per fold with every registered
# domain name left out rather than every host label: 6,587 names, and words
# such as "news", "shop" or "docs" stay), 0.848 -> 0.853 out of fold (0.853,
# 0.866 and 0.857 over three splits, against 0.848, 0.856 and 0.850), for
# about 1% of the pipeline's time (perf: for_each_word, kept out of line to
# be measured, held 0.49% of the samples of a pith_bench_speed run over
# trafilatura-dev, which parses every page twice, once alone). In Python
# beforehand (the words read by lxml, means over three splits): the shapes of
# the URLs the page links to beside them (its internal links, those with
# slugs or years, the largest family of sibling paths, doubled links,
# pagination and sort links), 0.863 against 0.860; with those, 200 words
# 0.863, 15 a kind chosen by each kind's share against the others' 0.860 and
# 0.862, 120 rounds at 0.1 0.864, depth 4 over 100 rounds 0.863. Given each
# page's own URL as well (--with-urls): 0.856, 0.864 and 0.852.
# Landed: the text model's seven scores beside them (TextModel: naive Bayes
# over the words used on 80 domains or more, its training pages' scores from
# five inner folds), 0.853 -> 0.873 out of fold (the held-aside fold 0: 0.857
# -> 0.854), and 0.873, 0.870 and 0.870 over three splits (the domains salted
# with "", "1", "2") against 0.853, 0.866 and 0.857 without. Its words cost a
# hash lookup each (kWordTable). In Python beforehand (split ""): the words on
# 40 domains or more 0.878 (three splits 0.870), on 150 0.872 (0.870); Laplace
# 0.3 0.869 (three splits); the inner folds the outer ones (four of them) 0.867;
# a multinomial logistic regression in its place (Adam, 150 steps, L2 1) 0.874,
# 0.871 and 0.870, alone 0.788, for an iterative fit whose weights a check
# could not reproduce bit for bit. The naive Bayes model alone: 0.677.
PARAMS = dict(objective="softmax", classes=len(TYPES), rounds=60, max_depth=3, learning_rate=0.2,
              reg_lambda=1.0, min_child_weight=1.0)


def corpus_root(argument):
    for root in [argument, os.environ.get("PITH_CORPUS"), str(REPO.parent / "shared" / "corpus")]:
        if root and (Path(root) / "wcxb-dev" / "pages.json").is_file():
            return Path(root)
    sys.exit("fit_page_model.py: no wcxb-dev corpus (set PITH_CORPUS)")


def signals(binary, corpus, with_urls=False):
    """pages, names, {page key: feature vector}, {page key: (word counts,
    number of words)}: pith_bench_signals over wcxb-dev's pages."""
    pages = json.loads((corpus / "wcxb-dev" / "pages.json").read_text(encoding="utf-8"))["pages"]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for key in sorted(pages):
            path = Path(tmp) / f"{key}.html"
            path.write_bytes(gzip.open(corpus / "wcxb-dev" / "html" / f"{key}.html.gz").read())
            paths[str(path)] = key
        manifest = "".join(f"{path}\t{pages[key]['url']}\n" if with_urls and pages[key].get("url") else f"{path}\n"
                           for path, key in paths.items())
        out = subprocess.run([binary], input=manifest, capture_output=True, text=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    names = lines[0]["page_type_feature_names"]
    features = {paths[o["file"]]: o["page_type_features"] for o in lines[1:] if "page_type_features" in o}
    bags = {paths[o["file"]]: (o["page_words"], o["page_word_total"]) for o in lines[1:] if "page_words" in o}
    return pages, names, features, bags


# The page words: for each model, the PAGE_WORDS words whose share of pages
# differs most between two kinds (the largest kind's share minus the
# smallest's), among the words of the pages it is fitted on that are used on
# MIN_WORD_DOMAINS domains or more and are the name of no site: no label
# that names a registered domain among the pages' hosts and the hosts they
# link to. Each fold's model reads its own words only, chosen without its
# fold's pages; pith computes the union of every model's words.
PAGE_WORDS = 100
MIN_WORD_DOMAINS = 15
TWO_LABEL_SUFFIXES = {"co", "com", "org", "net", "ac", "gov", "edu", "ltd", "plc", "or", "ne", "go"}
LINKED_HOST = re.compile(rb"""href=["']?https?://([^/"'\s>:]+)""", re.IGNORECASE)


def registered_name(host):
    """The label a host's owner registered: "example" for www.example.co.uk."""
    labels = [label for label in host.lower().split(".") if label]
    if len(labels) < 2:
        return None
    if len(labels) >= 3 and labels[-2] in TWO_LABEL_SUFFIXES and len(labels[-1]) == 2:
        return labels[-3]
    return labels[-2]


def site_names(corpus, pages):
    """The registered names of every page's host and of the hosts it links to."""
    names = set()
    for key, page in pages.items():
        hosts = [re.sub(r"^\w+://", "", page.get("url") or "").split("/")[0].split(":")[0]]
        raw = gzip.open(corpus / "wcxb-dev" / "html" / f"{key}.html.gz").read()
        hosts += [h.decode("ascii", "replace") for h in LINKED_HOST.findall(raw)]
        names.update(filter(None, map(registered_name, hosts)))
    return names


class WordUse:
    """Over the pages `train` marks: for each word, the number of pages of
    each type that use it and the domains that do."""

    def __init__(self, keys, bags, y, domains, train):
        self.pages = collections.defaultdict(lambda: np.zeros(len(TYPES)))
        self.domains = collections.defaultdict(set)
        for i in np.flatnonzero(train):
            for word in bags[keys[i]][0]:
                self.pages[word][y[i]] += 1
                self.domains[word].add(domains[i])
        self.pages_of_type = np.maximum(np.bincount(y[train], minlength=len(TYPES)), 1)

    def words_on(self, min_domains, excluded):
        """The words used on `min_domains` domains or more, none of them `excluded`."""
        return [w for w, on in self.domains.items() if len(on) >= min_domains and w not in excluded]


def choose_words(use, excluded):
    """The page words of the model fitted on the pages of `use`."""
    scored = []
    for word in use.words_on(MIN_WORD_DOMAINS, excluded):
        share = use.pages[word] / use.pages_of_type
        scored.append((-(share.max() - share.min()), word))
    return sorted(word for _, word in sorted(scored)[:PAGE_WORDS])


def word_matrix(keys, bags, words):
    """Each word's uses per 1,000 words of each page, as pith computes them."""
    return np.array([[1000.0 * bags[k][0].get(w, 0) / max(bags[k][1], 1) for w in words] for k in keys],
                    dtype=np.float64).reshape(len(keys), len(words))


# The text model: naive Bayes over the page's words, whose seven scores the
# page-type model reads beside its features. Each word of the model's
# vocabulary (used on TEXT_MIN_DOMAINS domains or more of the pages it is
# fitted on, the name of no site) weighs x = log(1 + its uses per 1,000 words
# of the body); a type's score is the mean over the page's vocabulary words,
# weighted by x, of log P(word | type) (Laplace-smoothed sums of x), less the
# best type's score. The log-probabilities are stored less their mean over
# the types (which the difference cancels), in hundredths, so that pith and
# this script compute the same scores. The page-type model's training pages
# get their scores from text models fitted without their own fold of
# domains (TEXT_FOLDS, by a hash of the salted domain): a score fitted on a
# page's own words would be worth more in training than on a new page.
TEXT_MIN_DOMAINS = 80
TEXT_FOLDS = 5
TEXT_SCALE = 100


def text_weights(keys, bags, words):
    """x for each page and word of `words` (the text model's inputs)."""
    return np.log1p(word_matrix(keys, bags, words))


def text_table(x, y):
    """The text model fitted on inputs x of types y: log P(word | type) less
    its mean over the types, in 1/TEXT_SCALE, a row a word."""
    sums = np.stack([x[y == t].sum(axis=0) for t in range(len(TYPES))]) + 1.0
    logp = np.log(sums / sums.sum(axis=1, keepdims=True))
    return np.round((logp - logp.mean(axis=0)) * TEXT_SCALE).astype(np.int64).T


def text_scores(x, table):
    """The seven scores of pages with inputs x (0 where no word is known)."""
    weight = x.sum(axis=1, keepdims=True)
    scores = (x @ (table / float(TEXT_SCALE))) / np.where(weight > 0, weight, 1.0)
    return scores - scores.max(axis=1, keepdims=True)


class TextModel:
    """A fold's text model: its vocabulary, its table, and the scores of
    the pages it is fitted on, each from a model fitted without its fold."""

    def __init__(self, keys, bags, y, domains, train, use, excluded):
        self.words = sorted(use.words_on(TEXT_MIN_DOMAINS, excluded))
        self.word_set = set(self.words)
        x = text_weights(keys, bags, self.words)
        self.table = text_table(x[train], y[train])
        self.scores = text_scores(x, self.table)
        inner = group_folds([f"text{domain}" for domain in domains], TEXT_FOLDS)
        self.training_scores = self.scores.copy()
        for fold in range(TEXT_FOLDS):
            fitted_on = train & (inner != fold)
            held = train & (inner == fold)
            self.training_scores[held] = text_scores(x[held], text_table(x[fitted_on], y[fitted_on]))


def page_words_text(words, feature_words):
    """page_words.inc: every word pith counts and the page words' places among them."""
    slot = {word: i for i, word in enumerate(words)}
    lines = ["// Generated by bench/fit/fit_page_model.py --write; do not edit by hand.",
             "// Every word the page-type models read, sorted: the page words (the union of the models'",
             f"// words, {PAGE_WORDS} a model, used on {MIN_WORD_DOMAINS} domains or more, the name of no site)",
             f"// and the text models' vocabularies (used on {TEXT_MIN_DOMAINS} domains or more).",
             f"inline constexpr std::array<std::string_view, {len(words)}> kPageWords{{"]
    lines += packed_lines((f' "{word}",' for word in words), 116, "   ")
    lines.append("};")
    lines.append("// The page words' places in kPageWords, in their features' order.")
    lines.append(f"inline constexpr std::array<std::uint16_t, {len(feature_words)}> kFeatureWordSlots{{")
    lines += packed_lines((f" {slot[word]}," for word in feature_words), 116, "   ")
    lines.append("};")
    return "\n".join(lines) + "\n"


def text_model_text(words, text_models):
    """text_model.inc: the text models' vocabularies (a mask over kPageWords)
    and tables."""
    lines = ["// Generated by bench/fit/fit_page_model.py --write; do not edit by hand.",
             "// The text models: fitted on every page (pith's), then without each fold. Bit m of a",
             "// word's mask (in kPageWords' order) is set when model m reads it; its weights are",
             f"// log P(word | type) less their mean over the types, in 1/{TEXT_SCALE}, model by model,",
             "// word by word, type by type.",
             f"inline constexpr std::size_t kTextModels = {len(text_models)};",
             f"inline constexpr double kTextScale = {TEXT_SCALE};"]
    masks = [sum(1 << m for m, model in enumerate(text_models) if word in model.word_set) for word in words]
    lines.append(f"inline constexpr std::array<std::uint8_t, {len(words)}> kTextWordModels{{")
    lines += packed_lines((f" {mask}," for mask in masks), 116, "   ")
    lines.append("};")
    weights = []
    for model in text_models:
        rows = {word: row for word, row in zip(model.words, model.table)}
        for word in words:
            weights += [int(v) for v in rows.get(word, [0] * len(TYPES))]
    lines.append(f"inline constexpr std::array<std::int16_t, {len(weights)}> kTextWeights{{")
    lines += packed_lines((f" {w}," for w in weights), 116, "   ")
    lines.append("};")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--signals", default=str(REPO / "build" / "bench" / "pith_bench_signals"))
    ap.add_argument("--corpus")
    ap.add_argument("--with-urls", action="store_true",
                    help="give each page its URL (by default only what the page itself declares)")
    add_model_mode(ap, MODEL_FILE, REPO)
    ap.add_argument("--min-accuracy", type=float,
                    help="exit 1 when the page-type model's out-of-fold accuracy is below it")
    ap.add_argument("--min-layout-accuracy", type=float,
                    help="exit 1 when the layout model's out-of-fold accuracy is below it")
    args = ap.parse_args()
    corpus = corpus_root(args.corpus)
    pages, names, features, bags = signals(args.signals, corpus, args.with_urls)
    keys = sorted(features)
    X = np.array([features[k] for k in keys], dtype=np.float64)
    y = np.array([TYPES.index(pages[k]["page_type"]) for k in keys])
    domains = [pages[k]["domain"] for k in keys]
    folds = group_folds(domains, FOLDS)
    print(f"wcxb-dev: {len(keys)} pages, {len(set(domains))} domains, {FOLDS} folds by domain")

    # The page words: each model's, and their union, which pith computes.
    excluded = site_names(corpus, pages)
    trains = [np.ones(len(keys), dtype=bool)] + [folds != fold for fold in range(FOLDS)]
    uses = [WordUse(keys, bags, y, domains, train) for train in trains]
    model_words = [choose_words(use, excluded) for use in uses]
    feature_words = sorted(set().union(*model_words))
    print(f"page words: {len(feature_words)} ({PAGE_WORDS} a model; {len(excluded)} site names left out)")
    text_models = [TextModel(keys, bags, y, domains, train, use, excluded) for train, use in zip(trains, uses)]
    words = sorted(set(feature_words).union(*(model.words for model in text_models)))
    print(f"text models' vocabularies: {', '.join(str(len(model.words)) for model in text_models)} words; "
          f"{len(words)} words counted in all")
    word_columns = [i for i, name in enumerate(names) if name.startswith("word:")]
    text_columns = [i for i, name in enumerate(names) if name.startswith("text:")]
    built = [names[i][len("word:"):] for i in word_columns]
    W = word_matrix(keys, bags, feature_words)
    if built == feature_words and text_columns:  # the build's features must be what this script computes
        largest = float(np.abs(X[:, word_columns] - W).max()) if feature_words else 0.0
        largest_text = float(np.abs(X[:, text_columns] - text_models[0].scores).max())
        print(f"page-word features: pith's and this script's differ by at most {largest:.3g}; "
              f"text scores by {largest_text:.3g}")
        if largest > 1e-9 or largest_text > 1e-9:
            sys.exit("fit_page_model.py: pith computes the page words otherwise than this script")
    else:
        print("page-word features: the build's words are not this fit's (after --write, rebuild and --check)")
    base = X[:, :len(names) - len(word_columns) - len(text_columns)]
    # Each model sees its own words only: the others are zero for it.
    masks = [np.isin(feature_words, chosen).astype(np.float64) for chosen in model_words]

    # The layout model reads the features before the first kind phrase.
    layout_count = names.index(FIRST_WORD_FEATURE)
    tables, failures = [], []
    for title, path, columns, bar in [
            ("page-type model (layout and words)", MODEL_FILE, base.shape[1] + len(feature_words),
             args.min_accuracy),
            ("layout model (what the extraction reads)", LAYOUT_MODEL_FILE, layout_count, args.min_layout_accuracy)]:
        if columns > layout_count:
            columns += len(TYPES)
            models, proba = fit_in_folds(base, y, folds, W, masks, text_models)
            features_of = np.hstack([base, W * masks[0], text_models[0].training_scores])
        else:
            models, proba = fit_in_folds(base[:, :columns], y, folds)
            features_of = base[:, :columns]
        predicted = proba.argmax(axis=1)
        accuracy = float((predicted == y).mean())
        in_sample = float((models[0].predict(features_of).argmax(axis=1) == y).mean())
        held = folds == 0
        print(f"\n{title}, {columns} features")
        print(f"page-type accuracy: out of fold {accuracy:.3f} (the held-aside fold 0: "
              f"{float((predicted[held] == y[held]).mean()):.3f}), in sample {in_sample:.3f}")
        print(f"{'type':<14}{'pages':>6}{'recall':>8}{'precision':>11}")
        for i, name in enumerate(TYPES):
            truth, guess = y == i, predicted == i
            recall = (guess & truth).sum() / max(truth.sum(), 1)
            precision = (guess & truth).sum() / max(guess.sum(), 1)
            print(f"{name:<14}{truth.sum():>6}{recall:>8.3f}{precision:>11.3f}")
        print("confusion (rows: truth, columns: predicted, in the order above):")
        for i, name in enumerate(TYPES):
            print(f"  {name:<14}" + "".join(f"{int(((y == i) & (predicted == j)).sum()):>5}" for j in range(len(TYPES))))
        text = forest_table(models, columns, [
            "Generated by bench/fit/fit_page_model.py --write; do not edit by hand.",
            f"The {title}: boosted trees (softmax, one tree per type a round)",
            f"over {columns} features, fitted on wcxb-dev in folds grouped by domain.",
            f"Out of fold: accuracy {accuracy:.3f} on {len(keys)} pages.",
            "Six models: fitted on every page (used by pith), then without each fold."])
        tables.append((path, text, models))
        failures += below(accuracy, bar, f"the {title}'s out-of-fold accuracy")
    tables.append((PAGE_WORDS_FILE, page_words_text(words, feature_words), []))
    tables.append((TEXT_MODEL_FILE, text_model_text(words, text_models), []))
    finish_models(tables, args, REPO, failures)


def fit_in_folds(X, y, folds, words=None, masks=None, text_models=None):
    """[the model fitted on every page, then one without each fold], and the
    out-of-fold probabilities. With `words`, each model reads them after X
    times its mask (masks[0] the model on every page's, then each fold's),
    and then its text model's scores (text_models, in the same order)."""
    def features(model, train):
        if words is None:
            return X
        scores = np.where(train[:, None], text_models[model].training_scores, text_models[model].scores)
        return np.hstack([X, words * masks[model], scores])

    everything = np.ones(len(y), dtype=bool)
    models = [Booster(**PARAMS).fit(features(0, everything), y)]
    proba = np.zeros((len(y), len(TYPES)))
    for fold in range(FOLDS):
        train = folds != fold
        seen = features(fold + 1, train)
        booster = Booster(**PARAMS).fit(seen[train], y[train])
        models.append(booster)
        proba[~train] = booster.predict(seen[~train])
    return models, proba

if __name__ == "__main__":
    main()
