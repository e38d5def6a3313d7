#!/usr/bin/env python3
"""Measures candidate confidence signals that need the inspector's view of a page.

For every page of both development corpora, pithd answers POST /extract with
option inspect: auto's article with its confidence signals, the annotated page
and all four strategies' results. From those this script derives signals the
model does not read:
  - where the page's <h1> is against auto's chosen root (inside it, how far
    before it) and where the root sits in the page;
  - four-way agreement: the share of auto's words that each other strategy's
    article holds, and the reverse.
It prints each one's AUROC alone and the cross-validated AUROC and calibration
error of the confidence model with them added. The labels, the folds (grouped
by site) and the model are bench/fit/fit_confidence.py's.

Usage: /usr/bin/python3 bench/fit/confidence_signals.py [--pithd build/pithd] [--corpus DIR]
"""
import json
import os
import sys
from html.parser import HTMLParser

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fit_confidence as fit  # noqa: E402
from pithd_process import Pithd, arguments  # noqa: E402

# Elements without an end tag: the walk below counts start tags in document
# order, which in pith's serialisation of a parsed page is source_index order.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
        "wbr", "keygen", "frame", "basefont", "bgsound"}


class MarkedPage(HTMLParser):
    """The annotated page: the root's span of start tags and where each <h1> starts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.count = 0
        self.open = []  # (tag, its start-tag number)
        self.root = None
        self.root_end = None
        self.headings = []

    def handle_starttag(self, tag, attrs):
        self.count += 1
        if any(name == "data-pith-root" for name, _ in attrs):
            self.root = self.count
        if tag == "h1":
            self.headings.append(self.count)
        if tag not in VOID:
            self.open.append((tag, self.count))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.open:
            self.open.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                if any(number == self.root for _, number in self.open[i:]):
                    self.root_end = self.count
                del self.open[i:]
                return


def main():
    args = arguments(__doc__)

    rows = []
    with Pithd(args.pithd, workers=2) as pithd:
        for path, site, judge in fit.pages(args.corpus):
            with open(path, "rb") as f:
                _, raw = pithd.post({"html": f.read().decode("utf-8", "replace"), "options": {"inspect": True}})
            answer = json.loads(raw)
            features = (answer.get("diagnostics") or {}).get("confidence_features")
            if not features:
                continue  # no article: confidence 0 by rule
            page = MarkedPage()
            page.feed(answer["inspection"]["source"] or "")
            page.close()
            total = max(page.count, 1)
            start = page.root or 0
            end = page.root_end or start
            before = [start - h for h in page.headings if h < start]
            strategies = {s["strategy"]: s for s in answer["inspection"]["strategies"]}
            kept = strategies["auto"]["agreement"]
            rows.append({
                "site": site, "right": 1.0 if judge(answer) else 0.0, "base": [f["value"] for f in features],
                "h1 inside the root": float(any(start <= h <= end for h in page.headings)) if start else 0.0,
                "h1 distance before the root": min(before) / total if before else 1.0,
                "root position in the page": start / total,
                "auto's words in readability's": kept["readability"],
                "auto's words in lectito's": kept["lectito"],
                "auto's words in fitness's": kept["fitness"],
                "readability's words in auto's": strategies["readability"]["agreement"]["auto"],
                "lectito's words in auto's": strategies["lectito"]["agreement"]["auto"],
                "fitness's words in auto's": strategies["fitness"]["agreement"]["auto"],
            })

    y = np.array([r["right"] for r in rows])
    sites = [r["site"] for r in rows]
    print(f"{len(rows)} pages with an article, {y.mean():.3f} right\n")
    position = ["h1 inside the root", "h1 distance before the root", "root position in the page"]
    agreement = [k for k in rows[0] if "words in" in k]
    print(f"{'signal':<34} {'AUROC alone':>11}")
    for name in position + agreement:
        a = fit.auroc(np.array([r[name] for r in rows]), y)
        print(f"{name:<34} {max(a, 1 - a):>11.3f}")

    base = np.array([r["base"] for r in rows])

    def with_columns(names):
        return np.hstack([base, np.array([[r[n] for n in names] for r in rows])]) if names else base

    print(f"\n{'model (cross-validated by site)':<34} {'AUROC':>7} {'ECE':>7}")
    for label, names in (("the model's signals", []), ("+ h1 and position", position),
                         ("+ four-way agreement", agreement), ("+ both", position + agreement)):
        oof = fit.cross_validate(with_columns(names), y, sites)
        print(f"{label:<34} {fit.auroc(oof, y):>7.3f} {fit.reliability(oof, y)[1]:>7.3f}")


if __name__ == "__main__":
    main()
