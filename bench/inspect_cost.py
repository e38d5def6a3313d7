#!/usr/bin/env python3
"""What the inspector's request costs against a plain extraction, in one run.

pithd (one worker) answers every page of both development corpora twice, in
turn: POST /extract as a crawler sends it, then the same page with option
inspect (every strategy, the annotated page). Prints both totals, their ratio,
the answers' sizes and the slowest inspection. Client-side wall time on
loopback, so the ratio is what matters on a shared machine.

Usage: /usr/bin/python3 bench/inspect_cost.py [--pithd build/pithd] [--corpus DIR]
"""
import glob
import os

from pithd_process import Pithd, arguments


def main():
    args = arguments(__doc__)
    pages = sorted(glob.glob(os.path.join(args.corpus, "readability-test-pages", "*", "source.html")))
    pages += sorted(glob.glob(os.path.join(args.corpus, "trafilatura-dev", "html", "*.html")))
    if not pages:
        raise SystemExit(f"no pages under {args.corpus} (set PITH_CORPUS)")

    totals = {"extract": [0.0, 0], "inspect": [0.0, 0]}
    slowest = (0.0, "")
    with Pithd(args.pithd, workers=1) as pithd:
        for path in pages:
            with open(path, "rb") as f:
                html = f.read().decode("utf-8", "replace")
            for kind, body in (("extract", {"html": html}), ("inspect", {"html": html, "options": {"inspect": True}})):
                seconds, answer = pithd.post(body)
                totals[kind][0] += seconds
                totals[kind][1] += len(answer)
                if kind == "inspect":
                    slowest = max(slowest, (seconds, os.path.relpath(path, args.corpus)))

    (plain, plain_bytes), (inspect, inspect_bytes) = totals["extract"], totals["inspect"]
    print(f"{len(pages)} pages, one worker")
    print(f"{'request':<10} {'seconds':>8} {'answers MB':>11}")
    print(f"{'extract':<10} {plain:>8.2f} {plain_bytes / 1e6:>11.1f}")
    print(f"{'inspect':<10} {inspect:>8.2f} {inspect_bytes / 1e6:>11.1f}")
    print(f"inspect / extract: {inspect / plain:.2f}; slowest inspection {slowest[0] * 1000:.0f} ms ({slowest[1]})")


if __name__ == "__main__":
    main()
