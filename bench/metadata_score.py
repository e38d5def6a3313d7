#!/usr/bin/python3
"""metadata_score.py PITH [--strategy S] [--misses FILE]: title, authors and dates on wcxb-dev.

Runs `PITH extract --url URL` on each wcxb-dev page (the page's own URL, as a
crawler would give it) and compares with the ground truth:
- title: equal to the truth's title, white space collapsed (pages with a title);
- authors: every name of the truth's author is among pith's `authors` (or,
  without that field, in `byline`), compared case-folded; the truth's
  "A, B and C" is three names, and degrees and credentials after a name
  ("Jane Doe, MD") are not names (pages with an author);
- date: `publishedTime` has the truth's day (pages with a date);
- none: where the truth has no author (no date), pith gives none.
The title model and the page-type model are fitted on these pages, so each
page is extracted, by default, with the models fitted without its fold of
domains (--model-fold, the fitting scripts' folds: sha256 of the domain % 5);
--in-sample uses the models pith ships.
Prints each measure overall, per page type, and on the fifth of the domains
held aside from hand-tuning (sha256 of the domain % 5 == 0, fold 0 of the
fitting scripts' folds); --misses writes the pages each measure missed outside
that fifth, as JSON, for reading.
"""

import argparse
import concurrent.futures
import gzip
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "fit"))
import corpus  # noqa: E402
from gbdt import group_folds  # noqa: E402

HELD_ASIDE = "held aside"

# Words after a comma that are a degree or a credential, not another author.
CREDENTIAL = re.compile(r"^(?:[A-Z][A-Za-z]{0,3}\.?){1,3}(?:[- ]\w+)*$|^(?:Ph\.?D|M\.?D|RD|RN|MS|MA|MBA|CPT)\b")


def collapse(text):
    return " ".join((text or "").split())


def truth_names(author):
    """The names in a ground-truth author string, case-folded."""
    parts = re.split(r"\s*(?:,|;|&|\band\b)\s*", author)
    names = []
    for part in parts:
        part = collapse(part)
        if not part:
            continue
        if names and (part.isupper() and len(part) <= 6 or CREDENTIAL.match(part) and " " not in part):
            continue  # "MS", "RD", "Ph.D.", "E-RYT 200" after a name
        names.append(part.casefold())
    return names


def author_hit(truth, answer):
    given = answer.get("authors")
    if given is None:
        byline = collapse(answer.get("byline")).casefold()
        return bool(byline) and all(name in byline for name in truth_names(truth))
    held = {collapse(name).casefold() for name in given}
    return all(name in held for name in truth_names(truth))


def extract(pith, strategy, page, url, fold):
    fold_args = ["--model-fold", str(fold)] if fold is not None else []
    run = subprocess.run([pith, "extract", "--strategy", strategy, *fold_args, *(["--url", url] if url else []),
                          str(page)],
                         capture_output=True, text=True, timeout=120)
    try:
        return json.loads(run.stdout)
    except ValueError:
        return {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pith")
    parser.add_argument("--strategy", default="auto")
    parser.add_argument("--misses", help="write the missed pages to this JSON file")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--in-sample", action="store_true",
                        help="extract with the models pith ships, fitted on these pages too")
    args = parser.parse_args()
    root, tried = corpus.find_root()
    if root is None:
        sys.exit(f"no corpus: tried {tried}")
    wcxb = root / corpus.WCXB
    listed = json.loads((wcxb / "pages.json").read_text(encoding="utf-8"))["pages"]
    fold_of = dict(zip(listed, group_folds([page["domain"] for page in listed.values()], 5)))
    held_aside = {key for key, fold in fold_of.items() if fold == 0}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        jobs = []
        for gt_path in sorted((wcxb / "ground-truth").glob("*.json")):
            truth = json.loads(gt_path.read_text(encoding="utf-8"))
            page = Path(folder) / (gt_path.stem + ".html")
            with gzip.open(wcxb / "html" / (gt_path.stem + ".html.gz"), "rb") as source:
                page.write_bytes(source.read())
            kind = truth["_internal"]["page_type"]["primary"]
            # One page's truth has no URL: it is extracted without one.
            fold = None if args.in_sample else int(fold_of[gt_path.stem])
            jobs.append((gt_path.stem, kind, truth.get("url") or "", truth["ground_truth"], page, fold))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            answers = list(pool.map(lambda job: extract(args.pith, args.strategy, job[4], job[2], job[5]), jobs))
        for (stem, kind, url, truth, _, _), answer in zip(jobs, answers):
            rows.append((stem, kind, url, truth, answer))

    measures = {
        "title": lambda t, a: (t["title"] is not None,
                               collapse(a.get("title")) == collapse(t["title"])),
        "authors": lambda t, a: (t["author"] is not None, t["author"] is not None and author_hit(t["author"], a)),
        "date": lambda t, a: (t["publish_date"] is not None,
                              (a.get("publishedTime") or "")[:10] == (t["publish_date"] or "")[:10]),
        "no author": lambda t, a: (t["author"] is None,
                                   not (a.get("authors") if "authors" in a else a.get("byline"))),
        "no date": lambda t, a: (t["publish_date"] is None, not a.get("publishedTime")),
    }
    kinds = ["all"] + sorted({row[1] for row in rows}) + [HELD_ASIDE]
    print("in sample: the models pith ships" if args.in_sample
          else "out of fold: each page with the models fitted without its fold of domains")
    print(f"{'type':<14}" + "".join(f"{name:>16}" for name in measures))
    misses = {name: [] for name in measures}
    for kind in kinds:
        cells = []
        for name, measure in measures.items():
            counted = hits = 0
            for stem, row_kind, url, truth, answer in rows:
                if kind == HELD_ASIDE and stem not in held_aside:
                    continue
                if kind not in ("all", HELD_ASIDE) and row_kind != kind:
                    continue
                applies, hit = measure(truth, answer)
                if applies:
                    counted += 1
                    hits += hit
                    if not hit and kind == "all" and stem not in held_aside:
                        misses[name].append({"page": stem, "type": row_kind, "url": url,
                                             "truth": {k: truth[k] for k in ("title", "author", "publish_date")},
                                             "pith": {k: answer.get(k) for k in
                                                      ("title", "byline", "authors", "publishedTime",
                                                       "modifiedTime")}})
            cells.append(f"{hits / counted:>9.1%} {counted:>5}" if counted else f"{'-':>16}")
        print(f"{kind:<14}" + "".join(f"{cell:>16}" for cell in cells))
    if args.misses:
        Path(args.misses).write_text(json.dumps(misses, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
