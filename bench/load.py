#!/usr/bin/python3
"""load.py: pithd under load, next to the pith CLI on the same pages (issue 3).

In one run, on the same corpus pages:
  1. `pith extract --jobs N` over all the pages: the CLI's docs/s (best of --repeat);
  2. pithd (N workers, one I/O thread) driven by wrk (bench/load/extract.lua, POST
     /extract with each page as raw HTML) at saturation, 4 connections per worker:
     docs/s, p50/p90/p99 latency (best of --repeat, as the CLI); the server must
     reach at least 90% of the CLI's docs/s;
  3. overload: twice the saturating concurrency, then a flood of twice what the
     workers and the queue can hold. Every answer must be 200 or 503, no request may
     hang or fail at the socket, and pithd's resident memory must stay bounded.
Finally SIGTERM: pithd must exit 0.

Usage, from the repository root (wrk is Debian's package):
  /usr/bin/python3 bench/load.py --corpus-set both --duration 20
  /usr/bin/python3 bench/load.py --smoke        # a few seconds, for CI
Exit status: 0 all checks passed, 1 a check failed, 2 usage or setup error.
"""

import argparse
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import corpus

REPO = Path(__file__).resolve().parent.parent
LUA = REPO / "bench" / "load" / "extract.lua"

MIN_SERVER_OVER_CLI = 0.90  # issue 3: HTTP may cost at most 10%
# A generous ceiling for pithd's RSS under the flood: bodies in flight are bounded
# by connections x page size, and the queue by its capacity. Far above it means
# something buffers without bound.
MAX_FLOOD_RSS_MB = 1024


def fail(message):
    print(f"load.py: {message}", file=sys.stderr)
    sys.exit(2)


def find_corpus():
    root, tried = corpus.find_root()
    if root is None:
        fail("corpus not found; looked in: " + ", ".join(tried))
    return root


def list_pages(root, corpus_set, limit):
    names = ["mozilla", "trafilatura"] if corpus_set == "both" else [corpus_set]
    found = [page for name in names for page in corpus.pages(root, name, limit)]
    if not found:
        fail("no pages found under " + str(root))
    return found


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def time_cli(pith, pages, jobs, repeat):
    """Best wall time of `pith extract --jobs N` over all pages."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run([str(pith), "extract", "--jobs", str(jobs), *map(str, pages)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if result.returncode not in (0, 1):
            fail(f"pith extract exited {result.returncode}: {result.stderr.decode()[:500]}")
        best = elapsed if best is None else min(best, elapsed)
    return best


class Pithd:
    """pithd on 127.0.0.1, a free port, its stderr drained by a thread."""

    def __init__(self, binary, workers, queue_capacity):
        self.process = subprocess.Popen(
            [str(binary), "--listen", "127.0.0.1:0", "--workers", str(workers), "--io-threads", "1",
             "--queue-capacity", str(queue_capacity), "--log-access-log=false", "--request-timeout-ms", "30000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
        self.log = []
        self.port = None
        deadline = time.time() + 10
        while self.port is None and time.time() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.log.append(line)
            match = re.search(r"listening address=\S+:(\d+)", line)
            if match:
                self.port = int(match.group(1))
        if self.port is None:
            self.process.kill()
            fail("pithd did not start:\n" + "".join(self.log))
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self.log.append(line)

    def rss_mb(self):
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return 0.0

    def stop(self, timeout=60):
        self.process.send_signal(15)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def run_wrk(port, pages_file, connections, seconds, pithd=None, count_statuses=False):
    """One wrk run; returns its JSON summary plus RSS samples taken meanwhile.
    count_statuses tells 503 from other non-2xx answers, at some cost to wrk."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "-s", str(LUA),
               f"http://127.0.0.1:{port}"]
    env = dict(os.environ, PITH_LOAD_PAGES=str(pages_file), PITH_LOAD_STATUSES="1" if count_statuses else "0")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    rss = []
    while process.poll() is None:
        if pithd is not None:
            rss.append(pithd.rss_mb())
        time.sleep(0.25)
    out, err = process.communicate()
    summary = None
    for line in out.splitlines():
        if line.startswith('{"requests"'):
            summary = json.loads(line)
    if process.returncode != 0 or summary is None:
        fail(f"wrk failed ({process.returncode}): {err.strip()[:500]}\n{out[:1000]}")
    summary["docs_per_s"] = summary.get("statuses", {}).get("200", 0) / (summary["duration_us"] / 1e6)
    summary["rss_mb"] = rss
    summary["connections"] = connections
    return summary


def describe(name, s):
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(s["statuses"].items()))
    errors = {k: v for k, v in s["errors"].items() if v and k != "status"}
    rss = s["rss_mb"]
    rss_text = f", RSS {min(rss):.0f}-{max(rss):.0f} MB" if rss else ""
    print(f"  {name:<28} c={s['connections']:<4} {s['docs_per_s']:8.1f} docs/s (200s)  "
          f"p50 {s['p50_us'] / 1000:7.1f} ms  p90 {s['p90_us'] / 1000:7.1f} ms  p99 {s['p99_us'] / 1000:7.1f} ms"
          f"  [{statuses}]{' socket errors ' + str(errors) if errors else ''}{rss_text}")


def main():
    parser = argparse.ArgumentParser(description="pithd under wrk, against pith extract --jobs N")
    parser.add_argument("--corpus-set", choices=["mozilla", "trafilatura", "both"], default="both")
    parser.add_argument("--duration", type=int, default=20, help="seconds of each wrk phase")
    parser.add_argument("--repeat", type=int, default=3, help="CLI runs, the best counts")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--queue-capacity", type=int, default=64)
    parser.add_argument("--limit", type=int, help="the first N pages of each corpus")
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--smoke", action="store_true",
                        help="a short run (20 pages, 2 s phases): checks that everything works, "
                             "the ratio is printed but not enforced")
    args = parser.parse_args()
    if args.smoke:
        args.limit, args.duration, args.repeat = 10, 2, 1

    build = Path(args.build_dir)
    pith, pithd_binary = build / "pith", build / "pithd"
    for binary in (pith, pithd_binary):
        if not binary.exists():
            fail(f"{binary} is missing: build first (make build)")
    if subprocess.run(["which", "wrk"], stdout=subprocess.DEVNULL).returncode != 0:
        fail("wrk is not installed (apt-get install wrk)")

    root = find_corpus()
    pages = list_pages(root, args.corpus_set, args.limit)
    total_bytes = sum(p.stat().st_size for p in pages)
    print("command: " + " ".join(shlex.quote(a) for a in sys.argv))
    print(f"machine: nproc {os.cpu_count()}, {cpu_model()}; wrk -t1; pithd --workers {args.workers} "
          f"--io-threads 1 --queue-capacity {args.queue_capacity}")
    print(f"pages: {len(pages)} ({total_bytes / 1e6:.1f} MB) from {root} ({args.corpus_set})")

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(str(p) for p in pages) + "\n")
        pages_file = Path(listing.name)
    checks = []
    try:
        cli_seconds = time_cli(pith, pages, args.workers, args.repeat)
        cli_docs = len(pages) / cli_seconds
        print(f"\npith extract --jobs {args.workers}: {cli_seconds:.2f} s for {len(pages)} pages, "
              f"{cli_docs:.1f} docs/s, {total_bytes / 1e6 / cli_seconds:.1f} MB/s (best of {args.repeat})")

        pithd = Pithd(pithd_binary, args.workers, args.queue_capacity)
        rss_idle = pithd.rss_mb()
        run_wrk(pithd.port, pages_file, args.workers, min(3, args.duration))  # warm-up
        print("\npithd (wrk, POST /extract, raw HTML):")
        saturating = 4 * args.workers
        runs = [run_wrk(pithd.port, pages_file, saturating, args.duration, pithd) for _ in range(args.repeat)]
        saturated = max(runs, key=lambda r: r["docs_per_s"])
        describe(f"saturation (best of {args.repeat})", saturated)
        ratio = saturated["docs_per_s"] / cli_docs
        print(f"  server / CLI throughput: {ratio:.3f} (acceptance >= {MIN_SERVER_OVER_CLI})")
        checks.append(("server reaches 90% of the CLI", ratio >= MIN_SERVER_OVER_CLI or args.smoke))

        double = run_wrk(pithd.port, pages_file, 2 * saturating, args.duration, pithd, count_statuses=True)
        describe("2x saturating concurrency", double)
        flood_connections = 2 * (args.workers + args.queue_capacity)
        flood = run_wrk(pithd.port, pages_file, flood_connections, args.duration, pithd, count_statuses=True)
        describe("flood (2x workers+queue)", flood)
        for name, s in [(f"saturation run {i + 1}", r) for i, r in enumerate(runs)] + [("2x", double), ("flood", flood)]:
            other = {k: v for k, v in s["statuses"].items() if k not in ("200", "503")}
            socket_errors = sum(v for k, v in s["errors"].items() if k != "status")
            checks.append((f"{name}: every answer is 200 or 503 ({other or 'yes'})", not other))
            checks.append((f"{name}: no request hung or failed at the socket ({socket_errors})", socket_errors == 0))
        flood_peak = max(flood["rss_mb"] or [0])
        print(f"  pithd RSS: idle {rss_idle:.0f} MB, peak under the flood {flood_peak:.0f} MB, "
              f"after {pithd.rss_mb():.0f} MB")
        checks.append((f"flood: peak RSS {flood_peak:.0f} MB below {MAX_FLOOD_RSS_MB} MB", flood_peak < MAX_FLOOD_RSS_MB))
        status = pithd.stop()
        checks.append((f"SIGTERM: pithd exits 0 (got {status})", status == 0))
    finally:
        pages_file.unlink(missing_ok=True)

    print("\nchecks:")
    for name, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
