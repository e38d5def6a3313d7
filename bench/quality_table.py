#!/usr/bin/python3
"""quality_table.py: pith's quality on the three development corpora, every
strategy in one table, with the fitted models' figures out of fold.

- wcxb-dev: word F1 (precision, recall) against each page's whole main
  content, and the share of `with` and `without` snippets found, overall and
  per page type, as WCXB scores them (bench/fit/wcxb.py);
- trafilatura-dev: snippet F1 over all pages' `with` and `without` snippets,
  as trafilatura's evaluation counts them (bench/quality.cpp);
- Mozilla's pages: mean token F1 against Readability's expected text, and
  docs/s on trafilatura-dev, single-threaded (from pith_bench_quality);
- the answers' page_type against wcxb-dev's types (its accuracy).

auto reads fitted models (the page-type classifier and its judge, fitted on
wcxb-dev and trafilatura-dev in five folds grouped by domain). Its figures are
given twice: out of fold, each page extracted with the models fitted without
its fold (`pith extract --model-fold`), which is what pages nobody here has
seen would get; and in sample, with the models pith ships. The other
strategies read no model. Mozilla's pages are not in any fit.

usage: /usr/bin/python3 bench/quality_table.py [--pith build/pith]
           [--bench build/bench/pith_bench_quality] [--strategies auto,readability,lectito,fitness]
"""

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fit"))
import wcxb  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
STRATEGIES = ["auto", "readability", "lectito", "fitness"]


def wcxb_rows(answers, pages):
    """{type: [(precision, recall, f1, with found, without found, page_type
    right)]}, "all" included."""
    rows = collections.defaultdict(list)
    for key, kind, _, truth in pages:
        answer = answers.get(key) or {}
        text = answer.get("text") or ""
        low = text.lower()
        with_ = truth.get("with") or []
        without = truth.get("without") or []
        row = wcxb.word_prf(text, truth.get("main_content") or "") + (
            sum(s.lower() in low for s in with_) / len(with_) if with_ else 1.0,
            sum(s.lower() in low for s in without) / len(without) if without else 0.0,
            float(answer.get("page_type") == kind))
        rows[kind].append(row)
        rows["all"].append(row)
    return rows


def mean(values):
    return sum(values) / len(values) if values else 0.0


def trafilatura_f1(pith, root, strategy, out_of_fold):
    """Snippet F1 on trafilatura-dev (its textContent, white space collapsed)."""
    annotations, names, _ = wcxb.trafilatura_pages(root)
    answers = wcxb.run_pith_trafilatura(pith, root, ["--strategy", strategy], out_of_fold)
    tp = fn = fp = 0
    for name in names:
        found, missed, stray = wcxb.snippets_found((answers.get(name) or {}).get("textContent"), annotations[name])
        tp, fn, fp = tp + found, fn + missed, fp + stray
    precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", default=str(REPO / "build" / "pith"))
    ap.add_argument("--bench", default=str(REPO / "build" / "bench" / "pith_bench_quality"))
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    args = ap.parse_args()
    root = wcxb.root_or_exit("quality_table.py")
    pages = wcxb.load(root)
    fold_of = wcxb.folds(pages)

    runs = []  # (label, strategy, out of fold)
    for strategy in args.strategies.split(","):
        if strategy == "auto":
            runs += [("auto (out of fold)", "auto", True), ("auto (in sample)", "auto", False)]
        else:
            runs.append((strategy, strategy, False))
    table = {}
    for label, strategy, oof in runs:
        answers = wcxb.run_pith(args.pith, root, pages, fold_of, ["--strategy", strategy], out_of_fold=oof)
        bench = json.loads(subprocess.run([args.bench, "--strategy", strategy, "--json"], capture_output=True,
                                          text=True, check=True).stdout.splitlines()[0])
        table[label] = (wcxb_rows(answers, pages), trafilatura_f1(args.pith, root, strategy, oof), bench)

    print(f"wcxb-dev: {len(pages)} pages; trafilatura-dev; Mozilla's pages. Word F1 (P, R), snippets found.")
    print(f"{'strategy':<20}{'wcxb F1':>8}{'P':>7}{'R':>7}{'with':>7}{'without':>8}"
          f"{'traf F1':>9}{'mozilla':>9}{'docs/s':>8}{'page type':>10}")
    for label, (rows, traf, bench) in table.items():
        r = rows["all"]
        print(f"{label:<20}{mean([x[2] for x in r]):>8.3f}{mean([x[0] for x in r]):>7.3f}"
              f"{mean([x[1] for x in r]):>7.3f}{mean([x[3] for x in r]):>7.1%}{mean([x[4] for x in r]):>8.1%}"
              f"{traf:>9.4f}{bench['mozilla_f1']:>9.4f}{bench['docs_per_second']:>8.1f}"
              f"{mean([x[5] for x in r]):>10.3f}")
    print("\nwcxb-dev word F1 by page type:")
    print(f"{'type':<14}{'pages':>6}" + "".join(f"{label[:18]:>20}" for label in table))
    for kind in ["all"] + wcxb.TYPES:
        count = len(next(iter(table.values()))[0][kind])
        print(f"{kind:<14}{count:>6}" + "".join(f"{mean([x[2] for x in rows[kind]]):>20.3f}"
                                                for rows, _, _ in table.values()))


if __name__ == "__main__":
    main()
