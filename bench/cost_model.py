#!/usr/bin/env python3
"""The measurements behind extractor/src/cost.cpp: how far the memory estimate
made from a page's tags is above what `pith extract` really uses, on pages of
many shapes and sizes, and what the estimate says of real pages.

For each generated shape and size it runs `pith extract --diagnostics
--max-memory-bytes 0` (the budget lifted, so every page is extracted) as a
child, reads the child's peak resident memory from wait4() and the estimate
from diagnostics.cost, and prints their ratio: (peak - baseline) / estimate,
where the baseline is the peak of the same command on an empty page. A ratio
above 1 means the estimate was too low for that shape, and the exit status is 1.

Then it reads every page of both corpora through `pith extract --diagnostics`
and reports the largest estimates: the margin the default 256 MiB budget
leaves over real pages.

Usage: bench/cost_model.py [--build-dir build] [--sizes-mb 1,4,15] [--no-corpus]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

MIB = 1024 * 1024
PROSE = "Ordinary prose, with commas, clauses and a full stop. "


def head():
    return "<html><head><title>t</title></head><body>"


# name -> a page of n repetitions of the shape's unit
SHAPES = {
    "tiny inline elements": lambda n: head() + "<i>x</i>" * n,
    "<br> runs": lambda n: head() + "<br>" * n,
    "&amp; entities": lambda n: head() + "<p>" + "&amp;" * n + "</p>",
    "named and numeric entities": lambda n: head() + "<p>" + "&eacute;&#x41;&lt;" * n + "</p>",
    "small tables": lambda n: head() + "<table><tr><td>x</td></tr></table>" * n,
    "tables with implied rows": lambda n: head() + "<table><td>x</table>" * n,
    "one text node": lambda n: head() + "<p>" + PROSE * n + "</p>",
    "ten attributes per element": lambda n: head() + ("<p %s>y</p>" % " ".join("a%d=v" % i for i in range(10))) * n,
    "long attribute values": lambda n: head() + ('<p data-x="%s">y</p>' % ("v" * 200)) * n,
    "divs around paragraphs": lambda n: head() + "<div>" + "<div><p>text, more.</p></div>" * n + "</div>",
    "paragraphs of prose": lambda n: head() + "<article>" + ("<p>" + PROSE * 3 + "</p>") * n + "</article>",
    "link lists": lambda n: head() + "<ul>" + '<li><a href="/x/y">link text</a></li>' * n + "</ul>",
    "nested inline in divs": lambda n: head() + ("<div><span><b>" * 50 + "x" + "</b></span></div>" * 50) * n,
    "open formatting elements": lambda n: head() + "<b a=1><b a=2><b a=3><i><u><s><em><strong>" + "<p>x</p>" * n,
    "comments": lambda n: head() + "<!-- c -->" * n,
    "short scripts": lambda n: head() + "<script>var x=1;</script>" * n,
}


def run_pith(pith, path):
    """(peak RSS in bytes, seconds, diagnostics.cost) of `pith extract` on `path`. Only the
    cost is kept: Linux counts this process's resident memory at the fork in the child's
    peak, so nothing large may stay alive between runs."""
    start = time.monotonic()
    child = subprocess.Popen([str(pith), "extract", "--diagnostics", "--max-memory-bytes", "0", str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = child.stdout.read()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    cost = json.loads(out)["diagnostics"]["cost"]
    del out
    return usage.ru_maxrss * 1024, time.monotonic() - start, cost


def measure_shapes(pith, sizes_mb, workdir):
    empty = workdir / "empty.html"
    empty.write_text(head())
    baseline, _, _ = run_pith(pith, empty)
    print(f"baseline (pith extract on an empty page): {baseline / MIB:.1f} MiB")
    print(f"{'shape':28s} {'MB':>4s} {'elements':>9s} {'attrs':>9s} {'comments':>9s} "
          f"{'peak MiB':>9s} {'est MiB':>8s} {'ratio':>6s} {'s':>6s} {'est s':>6s}")
    worst = 0.0
    for name, build in SHAPES.items():
        unit = len(build(1000)) - len(build(0))
        for size in sizes_mb:
            html = build(max(1, int(size * MIB * 1000 // unit)))
            page = workdir / "shape.html"
            page.write_text(html)
            del html
            peak, seconds, cost = run_pith(pith, page)
            ratio = (peak - baseline) / cost["memory_bytes"]
            worst = max(worst, ratio)
            print(f"{name:28s} {size:4g} {cost['elements']:9d} {cost['attributes']:9d} {cost['comments']:9d} "
                  f"{peak / MIB:9.1f} {cost['memory_bytes'] / MIB:8.1f} {ratio:6.2f} {seconds:6.2f} "
                  f"{cost['time_us'] / 1e6:6.2f}", flush=True)
    return worst


def measure_corpus(pith):
    root, tried = corpus.find_root()
    if root is None:
        print("corpus not found; looked in: " + ", ".join(tried), file=sys.stderr)
        return False
    estimates = []
    for name in corpus.CORPORA:
        for page in corpus.pages(root, name):
            _, _, cost = run_pith(pith, page)
            estimates.append((cost["memory_bytes"], cost["elements"], page.stat().st_size, str(page.relative_to(root))))
    estimates.sort(reverse=True)
    print(f"\n{len(estimates)} corpus pages; the largest estimates:")
    for memory, elements, size, path in estimates[:5]:
        print(f"  {memory / MIB:6.1f} MiB  {elements:6d} elements  {size / 1e6:5.2f} MB  {path}")
    print(f"the default max_memory_bytes (256 MiB) is {256 * MIB / estimates[0][0]:.1f}x the largest estimate")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=str(corpus.REPO / "build"))
    parser.add_argument("--sizes-mb", default="1,4,15")
    parser.add_argument("--no-corpus", action="store_true")
    args = parser.parse_args()
    pith = Path(args.build_dir) / "pith"
    if not pith.is_file():
        print(f"no pith binary at {pith}", file=sys.stderr)
        return 2
    sizes = [float(s) for s in args.sizes_mb.split(",")]
    print(f"command: bench/cost_model.py --build-dir {args.build_dir} --sizes-mb {args.sizes_mb}")
    with tempfile.TemporaryDirectory(prefix="pith-cost-") as tmp:
        worst = measure_shapes(pith, sizes, Path(tmp))
    print(f"\nworst (peak - baseline) / estimate: {worst:.2f} (the estimate must stay above 1.00)")
    if not args.no_corpus and not measure_corpus(pith):
        return 2
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
