#!/usr/bin/python3
"""Measures whether a block-level boilerplate classifier makes confidence rank pages.

trafilatura-dev's snippets label blocks of each page: a block holding a "with"
snippet is content, one holding a "without" snippet is boilerplate. This
script segments every page of both development corpora into blocks (the
outermost p, li, headings, cells, quotes and text-bearing divs), describes each
by its own evidence (length, link density, closing punctuation, call-to-action
words, class and id words of it and its ancestors, the landmarks it sits in,
its place in the page), and fits a logistic classifier to the labelled blocks.
It then asks whether that classifier's view of the blocks that pith's `auto`
article kept adds to the confidence model:
  - the classifier's AUROC over all labelled blocks, and over those inside
    the article only;
  - the confidence model's cross-validated AUROC and calibration error with
    and without four page signals drawn from it (the most boilerplate-like
    kept block, the expected number of kept boilerplate blocks, the chance
    that none is boilerplate, and the most content-like block left out).
Everything is cross-validated with bench/fit/fit_confidence.py's folds, grouped by
site; the page model's training rows get their block signals from classifiers
that never saw those rows' folds (nested), so nothing leaks.

Usage: /usr/bin/python3 bench/fit/confidence_blocks.py [--pith build/pith] [--corpus DIR]
Needs python3-numpy and python3-lxml (lxml's HTML parser segments the pages).
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fit_confidence as fit  # noqa: E402

try:
    import lxml.html
except ImportError:
    sys.exit("needs python3-lxml: apt-get install python3-lxml")

BLOCK_TAGS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "td", "th", "dd", "dt",
              "figcaption", "caption"}
SKIPPED_TAGS = {"script", "style", "noscript", "template"}
# Words that name page furniture in class and id, as in pith's boilerplate pass.
FURNITURE_WORDS = set("""ad ads advert author authors avatar bio breadcrumb breadcrumbs byline caption captions
carousel comment comments copyright credit credits cta date disclaimer factbox follow footer infobox menu meta more
nav newsletter pagination popular print promo rating ratings readmore related share sharing sidebar signup slider
social sponsor sponsored subscribe subscription tags teaser timestamp toc trending widget""".split())
# Calls to action and notices, in the corpora's main languages: generic
# vocabulary of web furniture, not any page's text.
NOTICE_WORDS = set("""subscribe subscriber subscription newsletter signup login register follow share tweet
facebook twitter instagram whatsapp telegram youtube linkedin copyright © advertisement advertising sponsored
related comments comment reply cookie cookies privacy contact download app abonnieren abo anmelden registrieren
folgen teilen weiterlesen werbung anzeige kommentar kommentare datenschutz impressum kontakt abonner abonnez
abonnement inscrivez suivez partager publicité commentaires suscríbete suscripción síguenos compartir publicidad
comentarios iscriviti abbonati seguici condividi pubblicità commenti assine siga compartilhe""".split())
WORD = re.compile(r"[\w©'-]+", re.U)
BLOCK_FEATURES = ["log length", "link density", "ends a sentence", "notice words", "named furniture",
                  "furniture ancestors", "depth", "list item", "heading", "in article or main",
                  "in header, footer, nav, aside or form", "under five words", "address or handle",
                  "place in the page"]
PAGE_SIGNALS = ["most boilerplate-like kept block", "expected kept boilerplate blocks",
                "log chance no kept block is boilerplate", "most content-like block left out"]


def names_furniture(element):
    names = ((element.get("class") or "") + " " + (element.get("id") or "")).lower()
    return any(word in FURNITURE_WORDS for word in re.split(r"[^a-z0-9]+", names))


def blocks_of(document):
    """(normalised text, features) of each outermost block, in document order."""
    found = []
    for element in document.iter():
        if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS:
            continue
        if element.tag not in BLOCK_TAGS and not (element.tag == "div" and (element.text or "").strip()):
            continue
        ancestors = [a for a in element.iterancestors() if isinstance(a.tag, str)]
        if any(a.tag in BLOCK_TAGS for a in ancestors):
            continue
        text = fit.normalize(element.text_content())
        if len(text) < 5:
            continue
        link_text = sum(len(fit.normalize(a.text_content())) for a in element.iter("a"))
        landmarks = {a.tag for a in ancestors}
        words = WORD.findall(text.lower())
        found.append((text, [
            math.log1p(len(text)),
            link_text / len(text),
            float(text[-1] in ".!?。\"'”»)"),
            min(3, sum(w in NOTICE_WORDS for w in words)),
            float(names_furniture(element)),
            min(3, sum(names_furniture(a) for a in ancestors)),
            len(ancestors) / 20,
            float(element.tag == "li"),
            float(re.fullmatch(r"h[1-6]", element.tag) is not None),
            float(bool(landmarks & {"article", "main"})),
            float(bool(landmarks & {"header", "footer", "nav", "aside", "form"})),
            float(len(words) < 5),
            float(re.search(r"https?://|www\.|@\w", text) is not None),
        ]))
    last = max(1, len(found) - 1)
    return [(text, features + [i / last]) for i, (text, features) in enumerate(found)]


def page_rows(pith, corpus):
    annotations_path = os.path.join(corpus, "trafilatura-dev", "annotations.json")
    with open(annotations_path, encoding="utf-8") as f:
        annotations = json.load(f)
    corpus_pages = fit.pages(corpus)
    answers = fit.extract_all(pith, "auto", [path for path, _, _ in corpus_pages])
    rows = []
    for (path, site, judge), answer in zip(corpus_pages, answers):
        features = (answer.get("diagnostics") or {}).get("confidence_features")
        if not features:
            continue  # no article: confidence 0 by rule
        with open(path, "rb") as f:
            markup = f.read().decode(answer.get("charset") or "utf-8", "replace")
        try:
            blocks = blocks_of(lxml.html.document_fromstring(markup))
        except (ValueError, lxml.etree.ParserError):
            blocks = []
        article = fit.normalize(answer.get("textContent") or "")
        labels = np.full(len(blocks), -1.0)  # -1: no snippet in it
        note = annotations.get(os.path.basename(path)) if "trafilatura-dev" in path else None
        for value, key in ((0.0, "with"), (1.0, "without")):
            for snippet in (note or {}).get(key, []):
                snippet = fit.normalize(snippet)
                for j, (text, _) in enumerate(blocks):
                    if snippet in text or (len(snippet) > 30 and snippet[:30] in text):
                        labels[j] = value
        rows.append({
            "site": site, "right": 1.0 if judge(answer) else 0.0, "base": [f["value"] for f in features],
            "blocks": np.array([b for _, b in blocks]) if blocks else np.zeros((0, len(BLOCK_FEATURES))),
            "kept": np.array([text[:60] in article for text, _ in blocks], dtype=bool),
            "labels": labels,
        })
    return rows


def train_classifier(rows, indices):
    labelled = [rows[i]["labels"] >= 0 for i in indices]
    X = np.vstack([rows[i]["blocks"][mask] for i, mask in zip(indices, labelled)])
    y = np.concatenate([rows[i]["labels"][mask] for i, mask in zip(indices, labelled)])
    return fit.fit(X, y)


def page_signals(classifier, row):
    kept = row["kept"]
    if not kept.any():
        return [0.0, 0.0, 0.0, 0.0]
    boilerplate = fit.predict(classifier, row["blocks"])
    inside, outside = boilerplate[kept], boilerplate[~kept]
    return [float(inside.max()), float(inside.sum()), math.log(max(1e-9, float(np.prod(1 - inside)))),
            float((1 - outside).max()) if len(outside) else 0.0]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pith", default=os.path.join(root, "build", "pith"))
    parser.add_argument("--corpus",
                        default=os.environ.get("PITH_CORPUS", os.path.join(root, "..", "shared", "corpus")))
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.corpus, "trafilatura-dev")):
        sys.exit(f"no corpus at {args.corpus} (set PITH_CORPUS)")

    rows = page_rows(args.pith, args.corpus)
    y = np.array([r["right"] for r in rows])
    sites = [r["site"] for r in rows]
    folds = np.array([fit.fold_of(s) for s in sites])

    # The classifier, out of fold, on the labelled blocks.
    scores, truth, kept = [], [], []
    for k in range(fit.FOLDS):
        classifier = train_classifier(rows, np.flatnonzero(folds != k))
        for i in np.flatnonzero(folds == k):
            labelled = rows[i]["labels"] >= 0
            scores.extend(fit.predict(classifier, rows[i]["blocks"][labelled]))
            truth.extend(rows[i]["labels"][labelled])
            kept.extend(rows[i]["kept"][labelled])
    scores, truth, kept = np.array(scores), np.array(truth), np.array(kept)
    print(f"{len(rows)} pages with an article, {y.mean():.3f} right\n")
    print(f"{'labelled blocks (out of fold)':<40} {'blocks':>7} {'boilerplate':>12} {'AUROC':>7}")
    for label, mask in (("all", np.ones(len(truth), dtype=bool)), ("inside auto's article", kept),
                        ("left out of it", ~kept)):
        print(f"{label:<40} {int(mask.sum()):>7} {int(truth[mask].sum()):>12} "
              f"{fit.auroc(scores[mask], truth[mask]):>7.3f}")

    # The page model, with and without the classifier's signals (nested).
    base = np.array([r["base"] for r in rows])
    stacked = np.zeros(len(y))
    alone = np.zeros((len(y), len(PAGE_SIGNALS)))
    for k in range(fit.FOLDS):
        train, test = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
        train_signals = np.zeros((len(train), len(PAGE_SIGNALS)))
        for inner in range(fit.FOLDS):
            if inner == k:
                continue
            classifier = train_classifier(rows, train[folds[train] != inner])
            for r, i in enumerate(train):
                if folds[i] == inner:
                    train_signals[r] = page_signals(classifier, rows[i])
        classifier = train_classifier(rows, train)
        test_signals = np.array([page_signals(classifier, rows[i]) for i in test])
        alone[test] = test_signals
        model = fit.fit(np.hstack([base[train], train_signals]), y[train])
        stacked[test] = fit.predict(model, np.hstack([base[test], test_signals]))
    print(f"\n{'page signal (out of fold)':<40} {'AUROC alone':>11}")
    for j, name in enumerate(PAGE_SIGNALS):
        a = fit.auroc(alone[:, j], y)
        print(f"{name:<40} {max(a, 1 - a):>11.3f}")
    plain = fit.cross_validate(base, y, sites)
    print(f"\n{'model (cross-validated by site)':<40} {'AUROC':>7} {'ECE':>7}")
    for label, oof in (("the model's signals", plain), ("+ the block classifier's", stacked)):
        print(f"{label:<40} {fit.auroc(oof, y):>7.3f} {fit.reliability(oof, y)[1]:>7.3f}")


if __name__ == "__main__":
    main()
