#!/usr/bin/env python3
"""The measurements behind extractor/src/budget/cost.cpp: how far the memory estimate
made from a page's tags is above what `pith extract` really uses, on pages of
many shapes and sizes, and what the estimate says of real pages.

For each generated shape and size it writes the page to a file and runs `pith extract --diagnostics
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


HEAD = "<html><head><title>t</title></head><body>"

# name -> (what opens the page, the unit repeated, what closes it)
SHAPES = {
    "tiny inline elements": (HEAD, "<i>x</i>", ""),
    "<br> runs": (HEAD, "<br>", ""),
    "&amp; entities": (HEAD + "<p>", "&amp;", "</p>"),
    "named and numeric entities": (HEAD + "<p>", "&eacute;&#x41;&lt;", "</p>"),
    "small tables": (HEAD, "<table><tr><td>x</td></tr></table>", ""),
    "tables with implied rows": (HEAD, "<table><td>x</table>", ""),
    "one text node": (HEAD + "<p>", PROSE, "</p>"),
    "ten attributes per element": (HEAD, "<p %s>y</p>" % " ".join("a%d=v" % i for i in range(10)), ""),
    "long attribute values": (HEAD, '<p data-x="%s">y</p>' % ("v" * 200), ""),
    "divs around paragraphs": (HEAD + "<div>", "<div><p>text, more.</p></div>", "</div>"),
    "paragraphs of prose": (HEAD + "<article>", "<p>" + PROSE * 3 + "</p>", "</article>"),
    "link lists": (HEAD + "<ul>", '<li><a href="/x/y">link text</a></li>', "</ul>"),
    "nested inline in divs": (HEAD, "<div><span><b>" * 50 + "x" + "</b></span></div>" * 50, ""),
    "open formatting elements": (HEAD + "<b a=1><b a=2><b a=3><i><u><s><em><strong>", "<p>x</p>", ""),
    "comments": (HEAD, "<!-- c -->", ""),
    "short scripts": (HEAD, "<script>var x=1;</script>", ""),
}


def write_page(path, shape, size_bytes):
    """Writes the shape's page of about `size_bytes` to `path` in pieces: Linux counts this
    process's resident memory at the fork in the child's peak, so it never holds a page."""
    opening, unit, closing = shape
    count = max(1, size_bytes // len(unit))
    batch = unit * max(1, 65536 // len(unit))
    per_batch = len(batch) // len(unit)
    with open(path, "w") as out:
        out.write(opening)
        for _ in range(count // per_batch):
            out.write(batch)
        out.write(unit * (count % per_batch))
        out.write(closing)


# The cost object's key and first member: the answer's keys come sorted, and
# no other object of it starts so.
COST_KEY = b'"cost":{"attributes":'


def read_cost(path):
    """diagnostics.cost of the answer in `path`, read in pieces: the answer of a large page
    is tens of megabytes, and the cost object holds no nested object."""
    tail = b""
    with open(path, "rb") as answer:
        while True:
            piece = answer.read(1 << 20)
            if not piece:
                raise ValueError("no diagnostics.cost in the answer")
            text = tail + piece
            at = text.find(COST_KEY)
            if at >= 0:
                start = at + len(b'"cost":')
                while text.find(b"}", start) < 0:
                    more = answer.read(4096)
                    if not more:
                        raise ValueError("diagnostics.cost is cut short")
                    text += more
                return json.loads(text[start:text.index(b"}", start) + 1])
            tail = text[-len(COST_KEY):]


def run_pith(pith, path, workdir):
    """(peak RSS in bytes, seconds, diagnostics.cost) of `pith extract` on `path`."""
    answer_path = workdir / "answer.json"
    start = time.monotonic()
    with open(answer_path, "wb") as answer:
        child = subprocess.Popen([str(pith), "extract", "--diagnostics", "--max-memory-bytes", "0", str(path)],
                                 stdout=answer, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        child.returncode = 0
    seconds = time.monotonic() - start
    return usage.ru_maxrss * 1024, seconds, read_cost(answer_path)


def measure_shapes(pith, sizes_mb, workdir):
    empty = workdir / "empty.html"
    empty.write_text(HEAD)
    baseline, _, _ = run_pith(pith, empty, workdir)
    print(f"baseline (pith extract on an empty page): {baseline / MIB:.1f} MiB")
    print(f"{'shape':28s} {'MB':>4s} {'elements':>9s} {'attrs':>9s} {'comments':>9s} "
          f"{'peak MiB':>9s} {'est MiB':>8s} {'ratio':>6s} {'s':>6s} {'est s':>6s}")
    worst = 0.0
    for name, shape in SHAPES.items():
        for size in sizes_mb:
            page = workdir / "shape.html"
            write_page(page, shape, int(size * MIB))
            peak, seconds, cost = run_pith(pith, page, workdir)
            ratio = (peak - baseline) / cost["memory_bytes"]
            worst = max(worst, ratio)
            print(f"{name:28s} {size:4g} {cost['elements']:9d} {cost['attributes']:9d} {cost['comments']:9d} "
                  f"{peak / MIB:9.1f} {cost['memory_bytes'] / MIB:8.1f} {ratio:6.2f} {seconds:6.2f} "
                  f"{cost['time_us'] / 1e6:6.2f}", flush=True)
    return worst


def measure_corpus(pith, workdir):
    root, tried = corpus.find_root()
    if root is None:
        print("corpus not found; looked in: " + ", ".join(tried), file=sys.stderr)
        return False
    estimates = []
    for name in corpus.CORPORA:
        for page in corpus.pages(root, name):
            _, _, cost = run_pith(pith, page, workdir)
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
        if not args.no_corpus and not measure_corpus(pith, Path(tmp)):
            return 2
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
