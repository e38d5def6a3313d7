#!/usr/bin/python3
"""compare.py: pith against its peers, side by side, in the same run on the same
pages (issue 6).

For each corpus it runs, one after the other and each pinned to the same CPU:
  - build/bench/pith_bench_speed: gumbo's parse alone (the floor) and pith's
    whole pipeline, interleaved, with its own sanity check;
  - bench/peers/readability_peer.js: Readability.js 0.6 on jsdom, then on linkedom;
  - bench/peers/lxml_peer.py: readability-lxml (Debian's python3-readability);
and prints docs/s, MB/s of raw input, sane pages, pith's docs/s over each tool's,
peak RSS and the split by page size, then checks the issue's acceptance ratios.
Every tool holds its pages in memory and is timed in-process, best of its runs.

Usage (from the repository root; /usr/bin/python3 so that Debian's readability
module is found):
  npm ci --prefix bench/peers                      # once: jsdom, linkedom, Readability.js
  apt-get install python3-readability              # once: readability-lxml
  /usr/bin/python3 bench/compare.py --corpus-set both --repeat 3 --peer-repeat 1
Exit status: 0 done (and, with --enforce, every check passed), 1 a check failed
under --enforce, 2 usage, corpus or tool error.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import corpus
from corpus import CORPORA

REPO = Path(__file__).resolve().parent.parent
PEERS = REPO / "bench" / "peers"

# The acceptance: pith's single-core docs/s over each peer's, at least.
MIN_RATIO = {"jsdom": 20.0, "linkedom": 3.0, "lxml": 2.0}
# ...and the whole pipeline within this factor of gumbo's parse time: the
# readability strategy (issue 6), and auto, the default, which runs two
# strategies and removes boilerplate (issue 12).
MAX_PIPELINE_OVER_GUMBO = 1.3
MAX_AUTO_OVER_GUMBO = 1.0
# Below this share of sane pages a tool's speed says little; pith_bench_speed
# aborts below the same share for pith.
MIN_SANE_SHARE = 0.90


def fail(message):
    print(f"compare.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    parser = argparse.ArgumentParser(
        description="pith against Readability.js (jsdom, linkedom) and readability-lxml")
    parser.add_argument("--corpus-set", choices=["mozilla", "trafilatura", "both"], default="both")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per tool, best counts")
    parser.add_argument("--peer-repeat", type=int,
                        help="timed runs for the peers (default --repeat); jsdom does ~6 docs/s")
    parser.add_argument("--limit", type=int, help="the first N pages of each corpus (smoke run)")
    parser.add_argument("--peers", default="jsdom,linkedom,lxml",
                        help="comma-separated subset of jsdom,linkedom,lxml")
    parser.add_argument("--build-dir", default=str(REPO / "build"),
                        help="where pith was built (default build/)")
    parser.add_argument("--cpu", type=int,
                        help="the CPU every tool is pinned to (default the last one allowed; "
                             "-1: no pinning)")
    parser.add_argument("--json", metavar="FILE", help="also write every result to FILE")
    parser.add_argument("--enforce", action="store_true", help="exit 1 when a check fails")
    args = parser.parse_args()
    args.peers = [p for p in args.peers.split(",") if p]
    for peer in args.peers:
        if peer not in MIN_RATIO:
            parser.error(f"unknown peer {peer!r}; known: jsdom, linkedom, lxml")
    if args.repeat < 1 or (args.peer_repeat is not None and args.peer_repeat < 1):
        parser.error("--repeat and --peer-repeat want at least 1")
    if args.peer_repeat is None:
        args.peer_repeat = args.repeat
    if args.cpu is None:
        args.cpu = max(os.sched_getaffinity(0))
    return args


def corpus_root():
    root, tried = corpus.find_root()
    if root is None:
        fail("corpora not found; looked in:\n  " + "\n  ".join(tried) +
             "\n(set PITH_CORPUS to the folder holding readability-test-pages/ and trafilatura-dev/)")
    return root


def list_pages(root, name, limit):
    return [str(p) for p in corpus.pages(root, name, limit)]


def cpu_model():
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def run_tool(command, cpu):
    """Runs one tool pinned to `cpu`; returns (exit status, stdout, stderr)."""
    def pin():
        if cpu >= 0:
            os.sched_setaffinity(0, {cpu})
    print(f"  $ {shlex.join(command)}", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=pin, check=False)
    return done.returncode, done.stdout, done.stderr


def number(pattern, text, what):
    match = re.search(pattern, text, re.M)
    if not match:
        fail(f"pith_bench_speed printed no {what}; its output was:\n{text}")
    return float(match.group(1))


def run_pith(args, binary, root, name, pages, strategy):
    """pith_bench_speed on one corpus with one strategy; its text output parsed into the peers' shape.

    It picks its pages itself from --corpus-set/--limit, so the page count is
    checked against our list to be sure both timed the same pages."""
    command = [str(binary), "--corpus", str(root), "--corpus-set", name, "--strategy", strategy,
               "--repeat", str(args.repeat), "--max-ratio", str(MAX_PIPELINE_OVER_GUMBO)]
    if args.limit is not None:
        command += ["--limit", str(args.limit)]
    status, out, err = run_tool(command, args.cpu)
    # 1 only means its own pipeline/gumbo ratio was above --max-ratio; we check that below.
    if status not in (0, 1):
        fail(f"pith_bench_speed exited {status}:\n{out}{err}")
    docs = int(number(r"^pages: (\d+)", out, "page count"))
    if docs != len(pages):
        fail(f"pith_bench_speed timed {docs} pages, the peers get {len(pages)}: the lists differ")
    def throughput(label):
        match = re.search(rf"^\s+{label}\s+[\d.]+ s\s+([\d.]+) docs/s\s+([\d.]+) MB/s", out, re.M)
        if not match:
            fail(f"pith_bench_speed printed no {label} throughput; its output was:\n{out}")
        return {"docs_per_s": float(match.group(1)), "mb_per_s": float(match.group(2))}

    thirds = {}
    for third, gumbo_mb, pipeline_mb in re.findall(
            r"^\s+(small|medium|large)\s.*gumbo\s+([\d.]+) MB/s, pipeline\s+([\d.]+) MB/s",
            out, re.M):
        thirds[third] = (float(gumbo_mb), float(pipeline_mb))
    stages = re.search(r"^pipeline stages .*$", out, re.M)
    machine = re.search(r"^machine: (.*)$", out, re.M)
    common = {"docs": docs, "peak_rss_mb": number(r"^peak RSS: ([\d.]+) MB", out, "peak RSS")}
    gumbo = dict(common, tool="gumbo parse alone (floor)", short="gumbo", sane=None,
                 thirds={k: v[0] for k, v in thirds.items()}, **throughput("gumbo parse"))
    pith = dict(common, tool=f"pith pipeline ({strategy})", short=f"pith {strategy}",
                sane=int(number(r"^sanity: (\d+) /", out, "sanity")),
                thirds={k: v[1] for k, v in thirds.items()}, **throughput("pith pipeline"),
                stages=stages.group(0) if stages else "",
                build=machine.group(1) if machine else "")
    return gumbo, pith


def thirds_from_pages(pages, page_seconds):
    """MB/s over the small, medium and large third of the pages by raw size, as
    pith_bench_speed splits them."""
    sizes = [os.path.getsize(p) for p in pages]
    order = sorted(range(len(pages)), key=lambda i: sizes[i])
    thirds = {}
    if len(pages) < 3:
        return thirds
    for k, label in enumerate(("small", "medium", "large")):
        chosen = order[k * len(pages) // 3:(k + 1) * len(pages) // 3]
        seconds = sum(page_seconds[i] for i in chosen)
        thirds[label] = sum(sizes[i] for i in chosen) / 1e6 / seconds if seconds > 0 else 0.0
    return thirds


def run_peer(args, peer, list_file, pages):
    if peer == "lxml":
        command = ["/usr/bin/python3", str(PEERS / "lxml_peer.py")]
        hint = "apt-get install -y python3-readability"
    else:
        # --expose-gc lets the peer start each timed run from a clean heap.
        command = ["node", "--expose-gc", str(PEERS / "readability_peer.js"), "--dom", peer]
        hint = "npm ci --prefix bench/peers"
    command += ["--repeat", str(args.peer_repeat), "--pages-from", list_file]
    status, out, err = run_tool(command, args.cpu)
    if status != 0:
        fail(f"{peer} peer exited {status} (installed? {hint}):\n{err}")
    result = json.loads(out.strip().splitlines()[-1])
    if result["docs"] != len(pages):
        fail(f"{peer} peer timed {result['docs']} pages, expected {len(pages)}")
    result["short"] = peer
    result["thirds"] = thirds_from_pages(pages, result.pop("page_seconds"))
    return result


def run_all_cores(args, pages):
    """`pith extract --jobs N` over the pages on every CPU allowed: the CLI as a
    crawler runs it, files read from the page cache and NDJSON written out."""
    cli = Path(args.build_dir) / "pith"
    jobs = len(os.sched_getaffinity(0))
    command = [str(cli), "extract", "--jobs", str(jobs), *pages]
    print(f"  $ {cli} extract --jobs {jobs} <{len(pages)} pages>", flush=True)
    best = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):
            fail(f"pith extract exited {done.returncode}: {done.stderr.decode()[:500]}")
        best = elapsed if best is None else min(best, elapsed)
    total = sum(os.path.getsize(p) for p in pages)
    return {"tool": f"pith extract --jobs {jobs} (all cores, process)", "short": f"pith x{jobs}",
            "docs": len(pages), "docs_per_s": len(pages) / best, "mb_per_s": total / 1e6 / best,
            "sane": None, "peak_rss_mb": 0.0, "thirds": {}, "jobs": jobs}


def print_table(rows, pith):
    print(f"\n  {'tool':<42} {'docs/s':>8} {'MB/s':>7} {'sane':>9} {'pith/tool':>9} "
          f"{'peak RSS':>9}")
    for row in rows:
        sane = "-" if row["sane"] is None else f"{row['sane']}/{row['docs']}"
        if row["sane"] is not None and row["sane"] < MIN_SANE_SHARE * row["docs"]:
            sane += "!"
        ratio = pith["docs_per_s"] / row["docs_per_s"] if row["docs_per_s"] > 0 else float("inf")
        rss = f"{row['peak_rss_mb']:7.1f} MB" if row["peak_rss_mb"] > 0 else f"{'-':>10}"
        print(f"  {row['tool']:<42} {row['docs_per_s']:8.1f} {row['mb_per_s']:7.2f} {sane:>9} "
              f"{ratio:8.2f}x {rss}")
    if any(row.get("thirds") for row in rows):
        print(f"\n  by page size, MB/s   {'small':>8} {'medium':>8} {'large':>8}"
              "   (thirds of the pages by raw size)")
        for row in rows:
            if not row.get("thirds"):
                continue
            t = row["thirds"]
            print(f"  {row['short']:<20} {t['small']:8.2f} {t['medium']:8.2f} {t['large']:8.2f}")


def main():
    args = parse_args()
    root = corpus_root()
    binary = Path(args.build_dir) / "bench" / "pith_bench_speed"
    if not os.access(binary, os.X_OK):
        fail(f"{binary} not found or not executable; build pith first "
             "(make test, or cmake --build)")
    if "jsdom" in args.peers or "linkedom" in args.peers:
        if not (PEERS / "node_modules" / "@mozilla" / "readability").is_dir():
            fail(f"{PEERS / 'node_modules'} is missing; run: npm ci --prefix bench/peers")

    names = ["mozilla", "trafilatura"] if args.corpus_set == "both" else [args.corpus_set]
    command = shlex.join([sys.executable] + sys.argv)
    machine = (f"nproc {len(os.sched_getaffinity(0))}, {cpu_model()}; every tool pinned to "
               + (f"CPU {args.cpu}" if args.cpu >= 0 else "no CPU (not pinned)")
               + f"; load average at start {os.getloadavg()[0]:.2f}")
    print(f"command: {command}")
    print(f"machine: {machine}")
    print(f"repeat: pith {args.repeat}, peers {args.peer_repeat} (best of); "
          "MB/s of raw input bytes; peak RSS includes the pages each tool holds in memory")

    results = {"command": command, "machine": machine, "corpora": {}}
    checks = []
    for name in names:
        pages = list_pages(root, name, args.limit)
        if not pages:
            fail(f"no pages in {root / CORPORA[name][0]}")
        total = sum(os.path.getsize(p) for p in pages)
        print(f"\n== {name}: {len(pages)} pages, {total / 1e6:.2f} MB, "
              f"from {root / CORPORA[name][0]}")
        with tempfile.NamedTemporaryFile("w", suffix=".txt", prefix=f"pith-{name}-") as listing:
            listing.write("\n".join(pages) + "\n")
            listing.flush()
            gumbo, pith = run_pith(args, binary, root, name, pages, "auto")
            readability_gumbo, readability = run_pith(args, binary, root, name, pages, "readability")
            peers = {peer: run_peer(args, peer, listing.name, pages) for peer in args.peers}
        all_cores = run_all_cores(args, pages)
        if pith["build"]:
            print(f"  pith_bench_speed saw: {pith['build']}")
        print_table([gumbo, pith, readability, all_cores] + list(peers.values()), pith)
        if pith["stages"]:
            print(f"  {pith['stages']}")
        # Other work on the machine moves every figure; the load says how much there was.
        print(f"  load average after this corpus: {os.getloadavg()[0]:.2f}")
        for peer, result in peers.items():
            print(f"  {peer} decoded pages as: {result['charsets']}"
                  + (f"; no article for e.g. {result['insane'][:3]}" if result["insane"] else ""))

        # Each strategy against the gumbo runs interleaved with its own.
        over_gumbo = gumbo["docs_per_s"] / pith["docs_per_s"]
        checks.append((f"{name}: auto pipeline time / gumbo parse time <= {MAX_AUTO_OVER_GUMBO}",
                       over_gumbo, over_gumbo <= MAX_AUTO_OVER_GUMBO))
        readability_over_gumbo = readability_gumbo["docs_per_s"] / readability["docs_per_s"]
        checks.append((f"{name}: readability pipeline time / gumbo parse time <= {MAX_PIPELINE_OVER_GUMBO}",
                       readability_over_gumbo, readability_over_gumbo <= MAX_PIPELINE_OVER_GUMBO))
        for peer, result in peers.items():
            ratio = pith["docs_per_s"] / result["docs_per_s"]
            checks.append((f"{name}: pith docs/s >= {MIN_RATIO[peer]:g}x {result['tool']}",
                           ratio, ratio >= MIN_RATIO[peer]))
        results["corpora"][name] = {"pages": len(pages), "bytes": total, "gumbo": gumbo,
                                    "pith": pith, "readability": readability, "all_cores": all_cores,
                                    "peers": peers}

    print("\nacceptance (issues 6 and 12), single core:")
    for label, value, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {label}: {value:.2f}")
    if args.limit is not None:
        print(f"  (smoke run on the first {args.limit} pages per corpus: not the issue's figures)")
    results["checks"] = [{"check": c, "value": v, "pass": ok} for c, v, ok in checks]
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    failed = any(not ok for _, _, ok in checks)
    return 1 if failed and args.enforce else 0


if __name__ == "__main__":
    sys.exit(main())
