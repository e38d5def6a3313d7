#!/usr/bin/python3
"""warc_speed.py: pith warc's throughput against pith extract's on the same pages.

The corpus pages (trafilatura-dev and Mozilla's, or --corpus-set) are written
once as a WARC of response records, each record its own gzip member as
crawlers write them; then `pith warc --jobs N WARC` and `pith extract --jobs N
FILES...` run in turn, --repeat times each, alternating so that both share the
machine's noise, and the best run of each counts. Issue 26 asks pith warc for
at least 0.9 times pith extract's pages per second.

usage: /usr/bin/python3 bench/warc_speed.py [--pith build/pith] [--jobs 2] [--repeat 3]
           [--corpus-set mozilla|trafilatura|both]
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
import corpus  # noqa: E402
import warc_records  # noqa: E402


def corpus_pages(root, which):
    files = []
    if which in ("trafilatura", "both"):
        files += sorted((root / "trafilatura-dev" / "html").glob("*.html"))
    if which in ("mozilla", "both"):
        files += sorted((root / "readability-test-pages").glob("*/source.html"))
    return files


def warc_of(files, path):
    with open(path, "wb") as out:
        for i, file in enumerate(files):
            out.write(warc_records.response(f"http://pages.test/{i}.html", i, file.read_bytes(), gzipped=True))


def timed(args):
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{args[0]} {args[1]} failed ({done.returncode}): {done.stderr.decode()[-300:]}")
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pith", default=str(REPO / "build" / "pith"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus-set", default="both", choices=["mozilla", "trafilatura", "both"])
    args = ap.parse_args()
    root, tried = corpus.find_root()
    if root is None:
        sys.exit(f"warc_speed.py: no corpus (set PITH_CORPUS); tried {', '.join(tried)}")
    files = corpus_pages(root, args.corpus_set)
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "pages.warc.gz"
        warc_of(files, warc)
        jobs = ["--jobs", str(args.jobs)]
        best_warc = best_extract = float("inf")
        for _ in range(args.repeat):
            best_warc = min(best_warc, timed([args.pith, "warc"] + jobs + [str(warc)]))
            best_extract = min(best_extract, timed([args.pith, "extract"] + jobs + [str(f) for f in files]))
        mb = sum(f.stat().st_size for f in files) / 1e6
        print(f"{len(files)} pages, {mb:.1f} MB, --jobs {args.jobs}, best of {args.repeat}; "
              f"the WARC is {warc.stat().st_size / 1e6:.1f} MB gzipped per record")
        print(f"  pith extract FILES   {len(files) / best_extract:7.1f} pages/s")
        print(f"  pith warc WARC       {len(files) / best_warc:7.1f} pages/s")
        print(f"  pith warc / pith extract: {best_extract / best_warc:.2f} (issue 26 asks >= 0.9)")


if __name__ == "__main__":
    main()
