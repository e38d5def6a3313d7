#!/usr/bin/python3
"""same_output.py: does a change keep pith's output as it was?

Runs two pith binaries over every page of the three development corpora
(Mozilla's pages, trafilatura-dev, wcxb-dev) with each strategy, as

  pith extract --format json --diagnostics --with text,markdown --strategy S

and compares the answers page by page, timings aside (`timings_us` and each
pass's `duration_us`). A refactoring that claims "behaviour unchanged" shows it
here. The reference binary's answers can be kept in a cache folder, keyed by
the binary's hash, so that a second comparison runs only the new binary.

A change that is meant to move one field (the cost estimate when the parser's
input shrinks, say) names it with --ignore, a dotted path such as
diagnostics.cost, repeated as needed: the rest must still be the same.

Usage (from the repository root):
  /usr/bin/python3 bench/same_output.py --before OLD/pith --after build/pith \\
      [--cache DIR] [--strategies auto,readability,lectito,fitness] [--corpora mozilla,trafilatura,wcxb] \\
      [--ignore diagnostics.cost ...]
Exit status: 0 the same on every page, 1 some page differs (each is listed), 2 usage or corpus error.
"""

import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import corpus

STRATEGIES = ["auto", "readability", "lectito", "fitness"]


def fail(message):
    print(f"same_output.py: {message}", file=sys.stderr)
    sys.exit(2)


def binary_hash(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def without_timings(answer):
    diagnostics = answer.get("diagnostics")
    if isinstance(diagnostics, dict):
        diagnostics.pop("timings_us", None)
        # diagnostics.pages (issue 27) is null unless an article is followed
        # over its pages, which these runs never ask: binaries before it lack it.
        if diagnostics.get("pages", 0) is None:
            diagnostics.pop("pages")
        for run in diagnostics.get("passes") or []:
            run.pop("duration_us", None)
    return answer


def without_fields(answer, paths):
    """`answer` without the fields at each dotted path of `paths`."""
    for path in paths:
        *parents, last = path.split(".")
        node = answer
        for key in parents:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(last, None)
    return answer


def run_pith(pith, strategy, files, names):
    """{page name: normalised answer} for `files` under `strategy`."""
    args = [pith, "extract", "--format", "json", "--diagnostics", "--with", "text,markdown",
            "--strategy", strategy, "--jobs", "2"]
    answers = {}
    batch = 400  # keeps the command line short
    for start in range(0, len(files), batch):
        chunk = files[start:start + batch]
        out = subprocess.run(args + [str(f) for f in chunk], capture_output=True, check=False).stdout
        lines = [line for line in out.decode("utf-8", "replace").split("\n") if line.strip()]
        if len(lines) != len(chunk):
            fail(f"{pith} answered {len(lines)} lines for {len(chunk)} pages ({strategy})")
        for line in lines:
            answer = json.loads(line)
            answers[names[answer.pop("file")]] = without_timings(answer)
    return answers


def first_difference(a, b, path=""):
    """The path of the first field where a and b differ, and both values."""
    if type(a) is not type(b):
        return path or ".", a, b
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b or a[key] != b[key]:
                if key in a and key in b:
                    return first_difference(a[key], b[key], f"{path}.{key}")
                return f"{path}.{key}", a.get(key, "<absent>"), b.get(key, "<absent>")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return path or ".", a, b


def main():
    parser = argparse.ArgumentParser(description="pith's output before and after a change, page by page")
    parser.add_argument("--before", required=True, help="the reference pith binary")
    parser.add_argument("--after", required=True, help="the changed pith binary")
    parser.add_argument("--cache", help="folder keeping the reference answers, keyed by its hash")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--corpora", default="mozilla,trafilatura,wcxb")
    parser.add_argument("--ignore", action="append", default=[], metavar="PATH",
                        help="a field left out of the comparison, as a dotted path (diagnostics.cost)")
    args = parser.parse_args()
    root, tried = corpus.find_root()
    if root is None:
        fail("no corpus found; tried " + ", ".join(tried))
    with tempfile.TemporaryDirectory() as tmp:
        files, names = [], {}
        for name in args.corpora.split(","):
            for page in corpus.pages(root, name, unpack_to=Path(tmp)):
                key = f"{name}/{page.parent.name if name == 'mozilla' else page.stem}"
                files.append(page)
                names[str(page)] = key
        before_hash = binary_hash(args.before)
        differing = 0
        compared = 0
        for strategy in args.strategies.split(","):
            cached = Path(args.cache) / f"{before_hash}-{strategy}-{args.corpora.replace(',', '+')}.json" \
                if args.cache else None
            if cached and cached.exists():
                before = json.loads(cached.read_text(encoding="utf-8"))
            else:
                before = run_pith(args.before, strategy, files, names)
                if cached:
                    cached.parent.mkdir(parents=True, exist_ok=True)
                    cached.write_text(json.dumps(before), encoding="utf-8")
            after = run_pith(args.after, strategy, files, names)
            for answers in (before, after):
                for answer in answers.values():
                    without_fields(answer, args.ignore)
            changed = [key for key in before if before[key] != after.get(key)]
            compared += len(before)
            differing += len(changed)
            print(f"{strategy:<12} {len(before):>5} pages  {len(changed):>4} differ")
            for key in changed[:20]:
                where, old, new = first_difference(before[key], after.get(key, {}))
                print(f"  {key}: {where}: {str(old)[:120]!r} -> {str(new)[:120]!r}")
    print(f"{compared} answers compared, {differing} differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
