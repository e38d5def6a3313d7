#!/usr/bin/python3
"""page_diff.py: what a change to pith moved on wcxb-dev, page by page.

quality_table.py gives the averages; a change worth keeping also has to be
understood: which pages it lifted, which it dropped, and whether the drops
are the change or a refitted model's noise. This script saves, for one
build of pith, every wcxb-dev page's word F1 (precision, recall), page type
and auto's decision, out of fold (each fold with the models fitted without
it, as quality_table.py's first row), and compares two such saves.

    page_diff.py save BEFORE.json [--pith build/pith]     # on the old build
    page_diff.py save AFTER.json                          # on the new one
    page_diff.py compare BEFORE.json AFTER.json [--top 10] [--type forum]

`compare` prints the mean word F1 of both by page type, how many pages moved
by more than half a point up and down, and the pages that moved most, with
their type, the page type each build gave them and auto's decision.

Needs wcxb-dev (../shared/corpus or $PITH_CORPUS), as the fits do.
"""

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "fit"))
import wcxb  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MOVED = 0.005  # a page moved when its word F1 changed by more than this


def save(args):
    root = wcxb.root_or_exit("page_diff.py")
    pages = wcxb.load(root)
    answers = wcxb.run_pith(args.pith, root, pages, wcxb.folds(pages))
    rows = {}
    for key, kind, domain, truth in pages:
        answer = answers.get(key) or {}
        precision, recall, f1 = wcxb.word_prf(answer.get("text") or "", truth.get("main_content") or "")
        auto = ((answer.get("diagnostics") or {}).get("auto")) or {}
        rows[key] = {"type": kind, "domain": domain, "precision": precision, "recall": recall, "f1": f1,
                     "page_type": answer.get("page_type"), "status": answer.get("status"),
                     "decision": auto.get("decision", "")}
    Path(args.file).write_text(json.dumps(rows, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{args.file}: {len(rows)} pages, word F1 {sum(r['f1'] for r in rows.values()) / len(rows):.4f}")


def compare(args):
    before = json.loads(Path(args.before).read_text(encoding="utf-8"))
    after = json.loads(Path(args.after).read_text(encoding="utf-8"))
    keys = sorted(k for k in before if k in after and (args.type is None or before[k]["type"] == args.type))
    if not keys:
        sys.exit("page_diff.py: the two saves share no page")
    by_type = collections.defaultdict(list)
    for key in keys:
        by_type["all"].append(key)
        by_type[before[key]["type"]].append(key)
    print(f"{'type':<14}{'pages':>6}{'before':>9}{'after':>9}{'change':>9}")
    for kind in ["all"] + [t for t in wcxb.TYPES if t in by_type]:
        group = by_type[kind]
        mean_before = sum(before[k]["f1"] for k in group) / len(group)
        mean_after = sum(after[k]["f1"] for k in group) / len(group)
        print(f"{kind:<14}{len(group):>6}{mean_before:>9.4f}{mean_after:>9.4f}{mean_after - mean_before:>+9.4f}")
    moves = sorted(((after[k]["f1"] - before[k]["f1"], k) for k in keys), key=lambda m: m[0])
    up = [m for m in moves if m[0] > MOVED]
    down = [m for m in moves if m[0] < -MOVED]
    print(f"\npages moved by more than {MOVED}: {len(up)} up, {len(down)} down")
    for title, shown in (("down most", down[:args.top]), ("up most", list(reversed(up))[:args.top])):
        if shown:
            print(f"\n{title}:")
        for change, key in shown:
            b, a = before[key], after[key]
            print(f"  {change:+.3f} {key} {b['type']:<13} {b['f1']:.2f} -> {a['f1']:.2f}  "
                  f"typed {b['page_type']} -> {a['page_type']}")
            if b["decision"] != a["decision"]:
                print(f"         before: {b['decision'][:110]}\n         after:  {a['decision'][:110]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="extract every wcxb-dev page out of fold and save its scores")
    s.add_argument("file")
    s.add_argument("--pith", default=str(REPO / "build" / "pith"))
    c = sub.add_parser("compare", help="compare two saves")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--top", type=int, default=10, help="pages shown each way")
    c.add_argument("--type", choices=wcxb.TYPES, help="only pages of this type")
    args = ap.parse_args()
    save(args) if args.command == "save" else compare(args)


if __name__ == "__main__":
    main()
