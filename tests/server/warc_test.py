#!/usr/bin/python3
"""warc_test.py PITH: pith warc on WARC files others wrote, and on damaged ones.

- wget --warc-file fetches 20 corpus pages from a loopback server (some sent
  gzipped, some chunked, some in other charsets), a text file and a 404;
  pith warc gives one line per page, each with the same article text as
  pith extract of the same page, and its summary counts what it skipped.
- A WARC with a truncated record, a bad length and a non-HTML response in the
  middle: each is reported, the rest extracted, and the counts add up.
- pith warc --format text writes conversion records that pith warc reads back
  as a WARC, each referring to a response record of the source.
- warcio.js, a WARC library no one here wrote (npm, in tests/server/warcio),
  writes a WARC that pith warc reads, and reads pith warc's WARC output
  without error, each record pointing at its source.
Exit status 0 when every check passes, 1 otherwise. Needs wget, node and
`npm ci --prefix tests/server/warcio` (make test runs it); the corpus comes
from $PITH_CORPUS or ../shared/corpus. Whatever is missing fails the test.
"""

import gzip
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WARCIO = REPO / "tests" / "server" / "warcio"
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests" / "support"))
import corpus  # noqa: E402
import warc_records  # noqa: E402
from checklist import check, failures  # noqa: E402


def pages(root, count):
    folder = root / "trafilatura-dev" / "html"
    return [(p.name, p.read_bytes()) for p in sorted(folder.glob("*.html"))[:count]]


class Site(http.server.BaseHTTPRequestHandler):
    """Serves /plain/, /gzip/, /chunked/ and /latin1/ pages, /notes.txt and 404s."""
    protocol_version = "HTTP/1.1"
    served = {}  # path -> (body as sent before any coding, charset or None)

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/notes.txt":
            return self.send(b"plain notes, not a page\n", "text/plain")
        if self.path not in self.served:
            return self.send(b"<html><body><p>not here</p></body></html>", "text/html", status=404)
        body, charset = self.served[self.path]
        kind = self.path.split("/")[1]
        content_type = "text/html" + (f"; charset={charset}" if charset else "")
        if kind == "gzip":
            return self.send(gzip.compress(body), content_type, extra={"Content-Encoding": "gzip"})
        if kind == "chunked":
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for at in range(0, len(body), 1500):
                piece = body[at:at + 1500]
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
            return None
        return self.send(body, content_type)

    def send(self, body, content_type, status=200, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, timeout=300, **kwargs)


def lines_of(output):
    return [json.loads(line) for line in output.decode("utf-8").split("\n") if line.strip()]


def summary_counts(stderr):
    """(records, extracted, skipped, failed) from pith warc's summary line."""
    match = re.search(r"pith warc: (\d+) records: (\d+) extracted.*?, (\d+) skipped.*?, (\d+) failed", stderr)
    return tuple(int(g) for g in match.groups()) if match else None


def warc_record(fields, block):
    return warc_records.record(fields, block, version="WARC/1.0")


def main():
    pith = sys.argv[1]
    root, tried = corpus.find_root()
    if root is None:
        sys.exit(f"warc_test.py: no corpus (set PITH_CORPUS); tried {', '.join(tried)}")
    kinds = ["plain"] * 7 + ["gzip"] * 5 + ["chunked"] * 5 + ["latin1"] * 3
    served = {}
    for (name, body), kind in zip(pages(root, len(kinds)), kinds):
        charset = None
        if kind == "latin1":
            # The page re-encoded: what it cannot hold becomes character references.
            text = body.decode("utf-8", "replace")
            text = re.sub(r"<meta[^>]*charset[^>]*>", "", text, flags=re.I)
            body, charset = text.encode("iso-8859-1", "xmlcharrefreplace"), "iso-8859-1"
        served[f"/{kind}/{name}"] = (body, charset)
    Site.served = served
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        urls = [base + path for path in served] + [base + "/notes.txt", base + "/missing.html"]
        got = run(["wget", "-q", "--tries=1", f"--warc-file={tmp / 'crawl'}", "-O", str(tmp / "all.out")] + urls,
                  env=env)
        warc = tmp / "crawl.warc.gz"
        check(warc.is_file(), f"wget wrote a WARC ({got.returncode}: {got.stderr.decode()[-200:]})")

        done = run([pith, "warc", "--jobs", "2", "--with", "text", str(warc)])
        answers = lines_of(done.stdout)
        stderr = done.stderr.decode()
        check(done.returncode == 0, f"pith warc exits 0 on wget's WARC ({done.returncode}: {stderr[-300:]})")
        check(len(answers) == len(served), f"one line per page: {len(answers)} for {len(served)}")
        by_uri = {a.get("warc_target_uri"): a for a in answers}
        same = 0
        for path, (body, charset) in served.items():
            page = tmp / "page.html"
            page.write_bytes(body)
            args = [pith, "extract", "--with", "text", "--url", base + path] + (["--charset", charset] if charset else [])
            alone = lines_of(run(args + [str(page)]).stdout)[0]
            answer = by_uri.get(base + path, {})
            ok = answer.get("text") == alone.get("text") and answer.get("textContent") == alone.get("textContent")
            same += ok
            if not ok:
                print(f"      differs: {path}")
        check(same == len(served), f"the same article text as pith extract of the same page: {same} of {len(served)}")
        check(all(a.get("http_status") == 200 and a.get("warc_record_id", "").startswith("<urn:") for a in answers),
              "each line has the record's id and the HTTP status")
        counts = summary_counts(stderr)
        check(counts is not None and counts[1] == len(served) and counts[3] == 0 and
              counts[0] == counts[1] + counts[2] + counts[3],
              f"the summary adds up: {stderr.strip().splitlines()[-1] if stderr.strip() else ''}")
        check("not HTML 1" in stderr and "HTTP status not 2xx 1" in stderr and "request record" in stderr,
              "the text file, the 404 and the requests are skipped by reason")

        # Damage in the middle of a plain WARC.
        page = served[next(iter(served))][0]
        response = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
        def fields(n):
            return [("WARC-Type", "response"), ("WARC-Target-URI", f"http://d.test/{n}"),
                    ("WARC-Record-ID", f"<urn:uuid:0000000{n}-0000-4000-8000-000000000000>"),
                    ("WARC-Date", "2026-01-01T00:00:00Z")]
        bad_length = warc_record(fields(2), response).replace(
            f"Content-Length: {len(response)}".encode(), f"Content-Length: {len(response) - 100}".encode())
        text_response = warc_record(fields(3), b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nnotes")
        truncated = warc_record(fields(5), response)[:-500]
        damaged = tmp / "damaged.warc"
        damaged.write_bytes(warc_record(fields(1), response) + bad_length + text_response +
                            warc_record(fields(4), response) + truncated)
        done = run([pith, "warc", str(damaged)])
        answers = lines_of(done.stdout)
        stderr = done.stderr.decode()
        extracted = [a["warc_target_uri"] for a in answers if "error" not in a]
        errors = [a["error"]["code"] for a in answers if "error" in a]
        check(extracted == ["http://d.test/1", "http://d.test/4"], f"the records around the damage are extracted: {extracted}")
        check(errors == ["damaged_record", "damaged_record"], f"the bad length and the truncation are reported: {errors}")
        check(done.returncode == 3, f"pith warc exits 3 when a record was damaged ({done.returncode})")
        counts = summary_counts(stderr)
        check(counts == (5, 2, 1, 2), f"the counts add up (5 records: 2 extracted, 1 skipped, 2 failed): {counts}")

        # WARC output, read back.
        converted = tmp / "converted.warc"
        done = run([pith, "warc", "--format", "text", str(warc)])
        converted.write_bytes(done.stdout)
        check(done.returncode == 0, "pith warc --format text exits 0")
        again = run([pith, "warc", "--format", "json", str(converted)])
        stderr = again.stderr.decode()
        counts = summary_counts(stderr)
        check(again.returncode == 0 and counts is not None and counts[0] == len(served) + 1 and counts[3] == 0,
              f"its output reads back as a WARC: {stderr.strip()}")
        ids = set(re.findall(r"WARC-Record-ID: (<urn:uuid:[^>]+>)", gzip.decompress(warc.read_bytes()).decode("latin-1")))
        refers = re.findall(r"WARC-Refers-To: (<urn:uuid:[^>]+>)", done.stdout.decode("utf-8", "replace"))
        check(len(refers) == len(served) and set(refers) <= ids, f"its {len(refers)} records refer to records of the source")

        # warcio.js writes, pith warc reads; pith warc writes, warcio.js reads.
        if not (WARCIO / "node_modules" / "warcio").is_dir():
            check(False, f"warcio.js is installed (npm ci --prefix {WARCIO.relative_to(REPO)})")
        else:
            node = ["node", str(WARCIO / "warcio_check.mjs")]
            chosen = list(served.items())[:5]
            for i, (path, (body, _)) in enumerate(chosen):
                (tmp / f"w{i}.html").write_bytes(body)
            theirs = tmp / "warcio.warc.gz"
            wrote = run(node + ["write", str(theirs)] + [f"{base}{path}={tmp / f'w{i}.html'}"
                                                          for i, (path, _) in enumerate(chosen)])
            check(wrote.returncode == 0, f"warcio.js writes a WARC ({wrote.stderr.decode()[-300:]})")
            done = run([pith, "warc", "--with", "text", str(theirs)])
            answers = lines_of(done.stdout)
            same = 0
            for i, (path, (body, charset)) in enumerate(chosen):
                args = [pith, "extract", "--with", "text", "--url", base + path] + (["--charset", charset] if charset else [])
                alone = lines_of(run(args + [str(tmp / f"w{i}.html")]).stdout)[0]
                same += any(a.get("warc_target_uri") == base + path and a.get("text") == alone.get("text")
                            for a in answers)
            check(done.returncode == 0 and len(answers) == len(chosen) and same == len(chosen),
                  f"pith warc reads warcio.js's WARC: {len(answers)} lines, {same} with pith extract's text")
            read = run(node + ["read", str(converted)])
            records = lines_of(read.stdout) if read.returncode == 0 else []
            conversions = [r for r in records if r["type"] == "conversion"]
            sources = {}
            for line in gzip.decompress(warc.read_bytes()).decode("latin-1").split("WARC/1.")[1:]:
                fields = dict(re.findall(r"^(WARC-[\w-]+): (.*?)\r$", line, re.M))
                if fields.get("WARC-Type") == "response":
                    sources[fields["WARC-Record-ID"]] = fields["WARC-Target-URI"].strip("<>")
            check(read.returncode == 0 and records and records[0]["type"] == "warcinfo",
                  f"warcio.js reads pith warc's WARC output without error ({read.stderr.decode()[-300:]})")
            check(len(conversions) == len(served) and
                  all(sources.get(r["refers_to"]) == r["target_uri"] for r in conversions),
                  f"its {len(conversions)} conversion records point at their sources (WARC-Refers-To, WARC-Target-URI)")

    server.shutdown()
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
