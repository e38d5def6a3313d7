#!/usr/bin/python3
"""scrapy_test.py PITHD: the compose example's Scrapy crawl and its pith pipeline, live.

Debian's python3-scrapy runs docker/scraper's spider over a loopback site of
20 wcxb-dev pages (each linking to the next), with pithd behind a proxy that
can misbehave on purpose:
- busy: the first batch is answered 503 with Retry-After, and one line of the
  next is a 503 `overloaded` line; the crawl yields 20 items, each with the
  article pithd's /extract gives for that page, in batches, after retries;
- old: /extract/batch answers 404, as a pithd without it would; the pipeline
  falls back to one POST /extract a page and still yields 20 articles;
- down: nothing listens; after its tries each item carries `pith_error`
  instead of an article, so no page is lost without a word.
Exit status 0 when every check passes, 1 otherwise. The corpus comes from
$PITH_CORPUS or ../shared/corpus; a missing corpus or Scrapy fails the test.
"""

import gzip
import http.client
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRAPER = REPO / "docker" / "scraper"
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests" / "contract"))
sys.path.insert(0, str(REPO / "tests" / "support"))
import corpus  # noqa: E402
from checklist import check, failures  # noqa: E402
from deploy_check import Pithd  # noqa: E402

PAGES = 20


def site_pages(root):
    """The first wcxb-dev pages that are UTF-8 and do not refresh to another address."""
    chosen = []
    for path in sorted((root / corpus.WCXB / "html").glob("*.html.gz")):
        with gzip.open(path, "rb") as page:
            body = page.read()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if "http-equiv=\"refresh\"" in text.lower() or "http-equiv=refresh" in text.lower():
            continue
        chosen.append(text)
        if len(chosen) == PAGES:
            break
    return chosen


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def make_site(texts):
    """/pages/N.html for N in 1..20, each with a link to the next by absolute URL
    (a page's <base> must not send the crawl elsewhere); everything else is 404."""

    class Site(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        pages = {}

        def log_message(self, *args):
            pass

        def do_GET(self):
            body = self.pages.get(self.path)
            status = 200 if body is not None else 404
            body = body if body is not None else b"<html><body><p>not here</p></body></html>"
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = serve(Site)
    base = f"http://127.0.0.1:{server.server_port}"
    served = {}
    for number, text in enumerate(texts, 1):
        link = (f'<p><a href="{base}/pages/{number + 1}.html">next</a></p>'
                if number < len(texts) else "")
        at = text.lower().rfind("</body>")
        html = text[:at] + link + text[at:] if at >= 0 else text + link
        Site.pages[f"/pages/{number}.html"] = html.encode("utf-8")
        served[f"{base}/pages/{number}.html"] = html
    return server, base, served


class Proxy(http.server.BaseHTTPRequestHandler):
    """Forwards POSTs to pithd, misbehaving as `mode` says, and counts what it saw."""
    protocol_version = "HTTP/1.1"
    pithd_port = 0
    mode = "busy"
    seen = []
    refused_pages = 0  # pages of the batch answered 503 whole
    largest_batch = 0
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with self.lock:
            self.seen.append(self.path)
            batches = self.seen.count("/extract/batch")
            if self.path == "/extract/batch":
                Proxy.largest_batch = max(Proxy.largest_batch, len(body.splitlines()))
        if self.mode == "old" and self.path == "/extract/batch":
            return self.answer(404, b'{"error":"not_found","message":"no such path"}')
        if self.mode == "busy" and self.path == "/extract/batch" and batches == 1:
            Proxy.refused_pages = len(body.splitlines())
            return self.answer(503, b'{"error":"overloaded","message":"queue full"}',
                               {"Retry-After": "1"})
        upstream = http.client.HTTPConnection("127.0.0.1", self.pithd_port, timeout=120)
        try:
            upstream.request("POST", self.path, body, {"Content-Type": self.headers["Content-Type"]})
            answer = upstream.getresponse()
            status, data = answer.status, answer.read()
        finally:
            upstream.close()
        if self.mode == "busy" and self.path == "/extract/batch" and batches == 2:
            lines = data.decode("utf-8").splitlines()
            lines[0] = json.dumps({"item": 0, "http_status": 503, "error": "overloaded",
                                   "message": "no room for this item"})
            data = ("\n".join(lines) + "\n").encode("utf-8")
        return self.answer(status, data)

    def answer(self, status, data, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def crawl(start, pithd_url, folder, settings=()):
    """Runs the example spider from `start` with extra -s settings; (items, Scrapy's log, exit)."""
    output = Path(folder) / "items.jsonl"
    output.unlink(missing_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PITH", "SCRAPER"))}
    env.update({"PITHD_URL": pithd_url, "SCRAPER_OUTPUT": str(output),
                "SCRAPER_DEPTH_LIMIT": "0", "SCRAPER_DOWNLOAD_DELAY": "0"})
    command = ["/usr/bin/python3", "-m", "scrapy", "crawl", "site", "-a", f"start_urls={start}"]
    for setting in ("PITH_BATCH_ITEMS=8", "CLOSESPIDER_PAGECOUNT=0", *settings):
        command += ["-s", setting]
    run = subprocess.run(command, cwd=SCRAPER, env=env, capture_output=True, text=True, timeout=300)
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()] \
        if output.exists() else []
    return items, run.stdout + run.stderr, run.returncode


def direct_extract(pithd, url, html):
    conn = http.client.HTTPConnection("127.0.0.1", pithd.port, timeout=60)
    try:
        conn.request("POST", "/extract", json.dumps({"html": html, "url": url}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return json.loads(answer.read())
    finally:
        conn.close()


def stat(log, name):
    """A counter from the stats Scrapy dumps at the end of the crawl."""
    for line in log.splitlines():
        if f"'{name}':" in line:
            return int(line.split(":")[-1].strip().rstrip(",}"))
    return 0


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    root, tried = corpus.find_root()
    if not check(root is not None and (root / corpus.WCXB).is_dir(),
                 "the corpus is found", f"tried {tried}"):
        return 1
    done = subprocess.run(["/usr/bin/python3", "-c", "import scrapy; print(scrapy.__version__)"],
                          capture_output=True, text=True)
    if not check(done.returncode == 0, f"Debian's python3-scrapy is installed ({done.stdout.strip()})",
                 "apt-get install python3-scrapy (make deps does)"):
        return 1

    site, base, served = make_site(site_pages(root))
    pithd = Pithd(sys.argv[1])
    Proxy.pithd_port = pithd.port
    proxy = serve(Proxy)
    proxy_url = f"http://127.0.0.1:{proxy.server_port}"
    start = f"{base}/pages/1.html"
    try:
        with tempfile.TemporaryDirectory() as folder:
            Proxy.mode, Proxy.seen = "busy", []
            # A partial batch waits up to 2 s for more pages: the chain of links
            # yields one page at a time.
            items, log, status = crawl(start, proxy_url, folder, ["PITH_BATCH_WAIT=2"])
            urls = [item.get("url") for item in items]
            check(status == 0 and sorted(urls) == sorted(served),
                  f"busy pithd: the crawl yields one item per page ({len(items)} of {len(served)})",
                  f"exit {status}\n{log[-3000:]}")
            wrong = []
            for item in items:
                expected = direct_extract(pithd, item["url"], served.get(item["url"], ""))
                article = item.get("article") or {}
                if "html" in item or article.get("textContent") != expected.get("textContent") \
                        or article.get("title") != expected.get("title"):
                    wrong.append(item.get("url"))
            check(items and not wrong,
                  "each item has the article pithd's /extract gives for its page, and no HTML",
                  f"differ: {wrong[:5]}")
            batches = Proxy.seen.count("/extract/batch")
            check(Proxy.largest_batch == 8 and "/extract" not in Proxy.seen,
                  f"the pages go in batches of up to 8 ({batches} POST /extract/batch, "
                  f"the largest of {Proxy.largest_batch})")
            retries = stat(log, "pith/retries")
            check(retries == Proxy.refused_pages + 1 and stat(log, "pith/extracted") == PAGES,
                  f"a batch answered 503 with Retry-After ({Proxy.refused_pages} pages) and a 503 line "
                  f"are tried again ({retries} retries), and all {PAGES} pages extracted", log[-2000:])

            Proxy.mode, Proxy.seen = "old", []
            items, log, status = crawl(start, proxy_url, folder)
            check(status == 0 and len(items) == PAGES and all(item.get("article") for item in items)
                  and Proxy.seen.count("/extract") == PAGES,
                  f"pithd without /extract/batch: one POST /extract a page, {len(items)} articles",
                  f"exit {status}, seen {Proxy.seen[:5]}\n{log[-2000:]}")

            with socket.socket() as closed:
                closed.bind(("127.0.0.1", 0))
                nowhere = f"http://127.0.0.1:{closed.getsockname()[1]}"
            items, log, status = crawl(start, nowhere, folder,
                                       ["PITH_MAX_TRIES=2", "PITH_MAX_RETRY_WAIT=0.2"])
            errors = [item.get("pith_error", {}).get("error") for item in items]
            check(len(items) == PAGES and errors == ["unreachable"] * PAGES
                  and not any(item.get("article") for item in items),
                  f"pithd down: every item carries pith_error ({errors[:1]}), none is lost",
                  f"{len(items)} items\n{log[-2000:]}")
    finally:
        proxy.shutdown()
        site.shutdown()
        status = pithd.stop()
    check(status == 0, "pithd exits 0 on SIGTERM")
    print(f"{len(failures)} failed" if failures else "scrapy test passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
