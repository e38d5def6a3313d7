#!/usr/bin/python3
"""batch_stream.py: how soon POST /extract/batch gives its first line, and how
many of a batch's items the memory budget lets through.

One pithd (2 workers), trafilatura-dev's pages in a size range sent as one
batch asking for text, --repeat times on one connection each: the seconds to
the first answer line and to the whole answer, and their ratio (the baseline
is the whole answer of the same run). Then, with --memory-budget-bytes of
16 MiB, batches of growing size, in the items' order and with
order=completion: the lines by HTTP status and code.

Usage, from the repository root:
  /usr/bin/python3 bench/batch_stream.py [--pithd build/pithd] [--corpus DIR]
"""

import collections
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pithd_process import Pithd, arguments  # noqa: E402

REPEAT = 3
BUDGET = 16 << 20
# (pages, smallest and largest page in MB): the latency batch, then the budget's.
LATENCY_BATCH = (230, 0.0, 0.1)
BUDGET_BATCHES = [(100, 0.0, 0.1), (30, 0.22, 0.40), (60, 0.15, 0.40)]


def batch_body(corpus, count, smallest_mb, largest_mb):
    folder = os.path.join(corpus, "trafilatura-dev", "html")
    if not os.path.isdir(folder):
        sys.exit(f"batch_stream.py: no trafilatura-dev pages in {folder} (set --corpus or PITH_CORPUS)")
    pages = [os.path.join(folder, name) for name in sorted(os.listdir(folder))
             if smallest_mb * 1e6 <= os.path.getsize(os.path.join(folder, name)) <= largest_mb * 1e6][:count]
    lines = []
    for page in pages:
        with open(page, "rb") as f:
            html = f.read().decode("utf-8", "replace")
        lines.append(json.dumps({"html": html, "options": {"format": "text"}}) + "\n")
    return len(pages), "".join(lines).encode()


def post_batch(port, body, order="items", timeout=120):
    """(seconds to the first answer line, seconds to the whole answer, the answer's bytes after its head)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        head = (b"POST /extract/batch?order=%s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-ndjson\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
                % (order.encode(), len(body)))
        start = time.perf_counter()
        s.sendall(head + body)
        received, first = b"", None
        while True:
            data = s.recv(1 << 16)
            if not data:
                break
            received += data
            end_of_head = received.find(b"\r\n\r\n")
            if first is None and end_of_head >= 0 and b'"item":' in received[end_of_head:]:
                first = time.perf_counter() - start
        whole = time.perf_counter() - start
    return first, whole, received[received.find(b"\r\n\r\n") + 4:]


def answer_lines(raw):
    """The NDJSON lines of a chunked or a Content-Length body."""
    text = raw
    if raw[:1] not in (b"{", b""):  # chunked: size lines between the chunks
        chunks, rest = [], raw
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                break
            chunks.append(rest[:size])
            rest = rest[size + 2:]
        text = b"".join(chunks)
    return [json.loads(line) for line in text.decode().split("\n") if line.strip()]


def main():
    args = arguments(__doc__)
    count, body = batch_body(args.corpus, *LATENCY_BATCH)
    print(f"pithd: {args.pithd}, 2 workers")
    print(f"\nlatency: one batch of {count} pages ({len(body) / 1e6:.1f} MB, "
          f"{LATENCY_BATCH[1]}-{LATENCY_BATCH[2]} MB each), asking for text")
    print(f"{'run':<5} {'first line s':>13} {'whole answer s':>15} {'first / whole':>14}")
    with Pithd(args.pithd, workers=2) as pithd:
        for run in range(REPEAT):
            first, whole, raw = post_batch(pithd.port, body)
            lines = answer_lines(raw)
            if len(lines) != count:
                sys.exit(f"batch_stream.py: {len(lines)} answer lines for {count} items")
            print(f"{run + 1:<5} {first:>13.3f} {whole:>15.3f} {first / whole:>14.2f}")
    print(f"\nmemory budget {BUDGET >> 20} MiB: the lines of each batch by HTTP status and code")
    with Pithd(args.pithd, workers=2, extra_args=["--memory-budget-bytes", str(BUDGET)]) as pithd:
        for batch in BUDGET_BATCHES:
            count, body = batch_body(args.corpus, *batch)
            for order in ("items", "completion"):
                _, _, raw = post_batch(pithd.port, body, order)
                outcomes = collections.Counter(
                    f"{line['http_status']} {(line.get('error') or {}).get('code') or line.get('status')}"
                    for line in answer_lines(raw))
                print(f"  {count} pages of {batch[1]}-{batch[2]} MB ({len(body) / 1e6:.1f} MB), order={order}: "
                      + ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items())))


if __name__ == "__main__":
    main()
