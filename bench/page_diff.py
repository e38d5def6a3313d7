#!/usr/bin/python3
"""page_diff.py: what a change to pith moved on wcxb-dev and trafilatura-dev,
page by page.

quality_table.py gives the averages; a change worth keeping also has to be
understood: which pages it lifted, which it dropped, and whether the drops
are the change or a refitted model's noise. This script saves, for one
build of pith, every wcxb-dev page's word F1 (precision, recall), and every
trafilatura-dev page's snippets (`with` found and missed, `without` kept),
with the page type and auto's decision, out of fold (each fold with the
models fitted without it, as quality_table.py's first row), and compares two
such saves. trafilatura-dev's snippet F1 moves by about 0.0003 per snippet,
so a refit that flips auto's choice on a handful of its pages shows there.

    page_diff.py save BEFORE.json [--pith build/pith]     # on the old build
    page_diff.py save AFTER.json                          # on the new one
    page_diff.py compare BEFORE.json AFTER.json [--top 10] [--type forum]

`compare` prints the mean word F1 of both by page type, how many pages moved
by more than half a point up and down, and the pages that moved most, with
their type, the page type each build gave them and auto's decision; then
trafilatura-dev's snippet F1 of both and every page whose snippets changed.

Needs wcxb-dev and trafilatura-dev (../shared/corpus or $PITH_CORPUS), as the fits do.
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
        rows[key] = {"type": kind, "domain": domain, "precision": precision, "recall": recall, "f1": f1,
                     **what_auto_did(answer)}
    annotations, names, _ = wcxb.trafilatura_pages(root)
    traf_answers = wcxb.run_pith_trafilatura(args.pith, root)
    traf = {}
    for name in names:
        answer = traf_answers.get(name) or {}
        found, missed, kept = wcxb.snippets_found(answer.get("textContent"), annotations[name])
        traf[name] = {"found": found, "missed": missed, "unwanted_kept": kept, **what_auto_did(answer)}
    Path(args.file).write_text(json.dumps({"wcxb": rows, "trafilatura": traf}, indent=0, sort_keys=True),
                               encoding="utf-8")
    print(f"{args.file}: {len(rows)} wcxb-dev pages, word F1 {sum(r['f1'] for r in rows.values()) / len(rows):.4f}; "
          f"{len(traf)} trafilatura-dev pages, snippet F1 {snippet_f1(traf.values()):.4f}")


def what_auto_did(answer):
    auto = ((answer.get("diagnostics") or {}).get("auto")) or {}
    return {"page_type": answer.get("page_type"), "status": answer.get("status"), "decision": auto.get("decision", "")}


def snippet_f1(rows):
    """trafilatura's snippet F1 over pages' (found, missed, unwanted_kept), as quality_table.py counts it."""
    rows = list(rows)
    found = sum(r["found"] for r in rows)
    missed = sum(r["missed"] for r in rows)
    kept = sum(r["unwanted_kept"] for r in rows)
    return 2 * found / (2 * found + missed + kept) if found else 0.0


def show_decisions(b, a):
    if b["decision"] != a["decision"]:
        print(f"         before: {b['decision'][:110]}\n         after:  {a['decision'][:110]}")


def compare(args):
    saves = [json.loads(Path(f).read_text(encoding="utf-8")) for f in (args.before, args.after)]
    if any("wcxb" not in save for save in saves):
        sys.exit("page_diff.py: a save without trafilatura-dev's pages (an older page_diff.py made it): save it again")
    before, after = (save["wcxb"] for save in saves)
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
            show_decisions(b, a)
    compare_trafilatura(*(save["trafilatura"] for save in saves))


def compare_trafilatura(before, after):
    names = sorted(n for n in before if n in after)
    print(f"\ntrafilatura-dev: snippet F1 {snippet_f1(before[n] for n in names):.4f} -> "
          f"{snippet_f1(after[n] for n in names):.4f}")
    changed = [n for n in names if any(before[n][k] != after[n][k] for k in ("found", "missed", "unwanted_kept"))]
    print(f"pages whose snippets changed: {len(changed)}")
    for name in changed:
        b, a = before[name], after[name]
        print(f"  {name}  found {b['found']} -> {a['found']}, unwanted kept {b['unwanted_kept']} -> "
              f"{a['unwanted_kept']}  typed {b['page_type']} -> {a['page_type']}")
        show_decisions(b, a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="extract every page of both corpora out of fold and save its scores")
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
