#!/usr/bin/env python3
"""Articles split over several pages (issue 27), against a loopback site.

The site serves six multi-page articles, each page with the same headline,
byline, share line and pagination around its own part:
  relnext    three pages chained by <link rel="next">;
  numbered   three pages with numbered pagination only ("story-2.html");
  nextonly   two pages with a "Next »" link only;
  loop       three pages whose last rel=next leads back to the first;
  foreign    a rel=next to the same path on another host name;
  single     a site rule's single_page_link to the whole article, besides a
             rel=next that is then not followed;
  ruled      a site rule's next_page_link on a link nothing else would take;
  slow       a second page that answers after 3 s.

pithd (fetch.allow 127.0.0.1) must bring each article back whole, each part
once and in order, without the repeated furniture or the pagination; stop
the loop and the foreign host with their reason; hold max_pages, the
request's deadline and the server's fetch.max_pages; leave max_pages 1 (the
default) exactly as before. `pith extract FILE --url U --max-pages N` does
the same for a local first page.

Usage: pages_test.py PITHD PITH
"""
import http.server
import json
import os
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checklist import check, failures  # noqa: E402
from pithd_process import Pithd  # noqa: E402

WORDS = ("river harbour lantern meadow granite orchard falcon copper willow quarry beacon ember thistle "
         "cobalt saddle juniper marble tundra velvet canyon").split()


def part_text(slug, number):
    """Three paragraphs of prose that belong to one part only."""
    paragraphs = []
    for p in range(3):
        words = [WORDS[(number * 7 + p * 3 + i) % len(WORDS)] for i in range(60)]
        sentences = [" ".join(words[i:i + 12]).capitalize() + "." for i in range(0, 60, 12)]
        paragraphs.append(f"Marker {slug} part {number} paragraph {p}. " + " ".join(sentences))
    return paragraphs


def page(slug, number, head="", pagination="", title=None):
    title = title or f"The {slug} story"
    body = "".join(f"<p>{p}</p>\n" for p in part_text(slug, number))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - Example News</title>{head}</head>
<body>
<header><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
<main><article>
<h1>{title}</h1>
<p class="byline">By Jane Doe, staff writer</p>
<h3>Everything you need to know about the {slug} case, told in full</h3>
{body}<p>Share this story with your friends and followers on every network you use.</p>
<div class="pagination">{pagination}</div>
</article></main>
<footer><p>Copyright 2026 Example News. All rights reserved.</p></footer>
</body></html>"""


def numbers_nav(base, count, current, suffix):
    links = []
    for n in range(1, count + 1):
        href = suffix(base, n)
        links.append(f"<span>{n}</span>" if n == current else f'<a href="{href}">{n}</a>')
    return " ".join(links)


def build_site(port):
    other = f"http://localhost:{port}"
    site = {}
    # relnext: ?page=N, chained by <link rel=next>, with numbers and Next shown too
    for n in (1, 2, 3):
        url = "/relnext/story" + ("" if n == 1 else f"?page={n}")
        head = f'<link rel="next" href="/relnext/story?page={n + 1}">' if n < 3 else ""
        nav = numbers_nav("/relnext/story", 3, n, lambda b, k: b if k == 1 else f"{b}?page={k}")
        if n < 3:
            nav += f' <a href="/relnext/story?page={n + 1}">Next »</a>'
        site[url] = page("relnext", n, head, nav)
    # numbered: story.html, story-2.html, story-3.html; numbers only
    for n in (1, 2, 3):
        url = "/numbered/story.html" if n == 1 else f"/numbered/story-{n}.html"
        nav = numbers_nav("/numbered/story", 3, n, lambda b, k: f"{b}.html" if k == 1 else f"{b}-{k}.html")
        site[url] = page("numbered", n, "", nav)
    # nextonly: /article/ and /article/2/
    site["/nextonly/article/"] = page("nextonly", 1, "", '<a href="/nextonly/article/2/">Next »</a>')
    site["/nextonly/article/2/"] = page("nextonly", 2, "", '<a href="/nextonly/article/">« Previous</a>')
    # loop: the last page's rel=next is the first page
    for n in (1, 2, 3):
        url = "/loop/a" if n == 1 else f"/loop/a/{n}"
        target = "/loop/a" if n == 3 else f"/loop/a/{n + 1}"
        site[url] = page("loop", n, f'<link rel="next" href="{target}">')
    # foreign: rel=next to another host name of the same server
    site["/foreign/story"] = page("foreign", 1, f'<link rel="next" href="{other}/foreign/story?page=2">')
    site["/foreign/story?page=2"] = page("foreign", 2)
    # single: the rule's single_page_link wins over rel=next
    site["/single/story"] = page("single", 1, '<link rel="next" href="/single/story?page=2">',
                                 '<a href="/single/story?page=2">2</a> <a href="/single/story?all=1">View as one page</a>')
    site["/single/story?page=2"] = page("single", 2)
    whole = page("single", 1).replace("</article>", "".join(
        f"<p>{p}</p>" for n in (2, 3) for p in part_text("single", n)) + "</article>")
    site["/single/story?all=1"] = whole
    # ruled: a link only the rule's next_page_link names
    site["/ruled/first"] = page("ruled", 1, "", '<a class="read-on" href="/ruled/continued">Keep reading</a>')
    site["/ruled/continued"] = page("ruled", 2)
    # slow: page 2 answers after 3 s
    site["/slow/story"] = page("slow", 1, '<link rel="next" href="/slow/story?page=2">')
    site["/slow/story?page=2"] = page("slow", 2)
    return site


class Site:
    def __init__(self):
        self.hits = []
        site_holder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                site_holder.hits.append(self.path)
                body = site_holder.pages.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                if self.path == "/slow/story?page=2":
                    time.sleep(3)
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.pages = build_site(self.port)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"


def post(pithd, body):
    request = urllib.request.Request(pithd.url("/extract"), method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def parts_in_order(text, slug, count):
    """Each part's three markers once, in order; nothing of another part."""
    where = []
    for n in range(1, count + 1):
        for p in range(3):
            marker = f"Marker {slug} part {n} paragraph {p}."
            if text.count(marker) != 1:
                return f"{marker!r} appears {text.count(marker)} times"
            where.append(text.index(marker))
    if where != sorted(where):
        return "the parts are out of order"
    if f"Marker {slug} part {count + 1} " in text:
        return f"part {count + 1} is there too"
    return ""


def check_article(name, answer, slug, count, via, stopped):
    status, body = answer
    if not check(status == 200, f"{name}: 200", f"{status} {body.get('error')}"):
        return
    text = body.get("textContent", "")
    problem = parts_in_order(text, slug, count)
    check(not problem, f"{name}: parts 1..{count} whole, once, in order", problem)
    check(text.count("Share this story") <= 1, f"{name}: the share line once", text.count("Share this story"))
    check("Next »" not in text and "View as one page" not in text, f"{name}: no pagination in the text")
    pages = (body.get("diagnostics") or {}).get("pages") or {}
    got_via = [p["via"] for p in pages.get("pages", [])]
    check(got_via == via, f"{name}: pages reached via {via}", got_via)
    check(pages.get("stopped") == stopped, f"{name}: stopped {stopped}", pages)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pithd_binary, pith_binary = sys.argv[1], sys.argv[2]
    site = Site()
    with tempfile.TemporaryDirectory() as rules_dir:
        with open(os.path.join(rules_dir, "127.0.0.1.txt"), "w") as f:
            f.write("single_page_link: //a[contains(@href, 'all=1')]\n"
                    "next_page_link: //a[@class='read-on']\n")
        pithd = Pithd(pithd_binary, "--fetch-allow", "127.0.0.0/8", "--rules-dir", rules_dir,
                      "--fetch-max-pages", "5")
        try:
            run_checks(pithd, site, pith_binary)
        finally:
            pithd.stop()
    print(f"pages: {'ok' if not failures else f'{len(failures)} failures'}")
    sys.exit(1 if failures else 0)


def ask(pithd, site, path, max_pages=5, **more):
    options = {"max_pages": max_pages, "diagnostics": True}
    options.update(more)
    return post(pithd, {"url": site.url(path), "options": options})


def run_checks(pithd, site, pith_binary):
    check_article("rel=next", ask(pithd, site, "/relnext/story"), "relnext", 3,
                  ["request", "rel=next", "rel=next"], "no_next_page")
    check_article("numbered", ask(pithd, site, "/numbered/story.html"), "numbered", 3,
                  ["request", "pagination", "pagination"], "no_next_page")
    check_article("next link", ask(pithd, site, "/nextonly/article/"), "nextonly", 2,
                  ["request", "next link"], "no_next_page")
    check_article("loop", ask(pithd, site, "/loop/a"), "loop", 3, ["request", "rel=next", "rel=next"], "loop")
    check_article("other host", ask(pithd, site, "/foreign/story"), "foreign", 1, ["request"], "other_host")
    check_article("single page", ask(pithd, site, "/single/story"), "single", 3,
                  ["request", "single_page_link"], "single_page")
    check_article("rule's next_page_link", ask(pithd, site, "/ruled/first"), "ruled", 2,
                  ["request", "site rule"], "no_next_page")
    check_article("max_pages 2", ask(pithd, site, "/relnext/story", max_pages=2), "relnext", 2,
                  ["request", "rel=next"], "max_pages")

    # The deadline: page 2 is slow; what was read comes back in time.
    started = time.monotonic()
    answer = ask(pithd, site, "/slow/story", timeout_ms=1500)
    took = time.monotonic() - started
    check_article("deadline", answer, "slow", 1, ["request"], "deadline")
    check(took < 2.5, f"deadline: answered in {took:.2f} s (timeout_ms 1500)")

    # Above the server's fetch.max_pages: refused, naming the limit.
    status, body = ask(pithd, site, "/relnext/story", max_pages=6)
    check(status == 400 and "fetch.max_pages" in body.get("error", {}).get("message", ""),
          "max_pages 6 over fetch.max_pages 5: 400 naming the limit", body)

    # max_pages 1, the default: one page, no pages diagnostics, no fetch beyond it.
    before = len(site.hits)
    status, one = post(pithd, {"url": site.url("/relnext/story"), "options": {"diagnostics": True}})
    check(status == 200 and len(site.hits) == before + 1, "default: one fetch", site.hits[before:])
    check(one.get("diagnostics", {}).get("pages") is None, "default: no pages diagnostics")
    check("Marker relnext part 2 " not in one.get("textContent", ""), "default: page 1 only")

    # The CLI: a local first page, the next ones fetched.
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(site.pages["/relnext/story"])
        first = f.name
    try:
        run = subprocess.run([pith_binary, "extract", first, "--url", site.url("/relnext/story"), "--max-pages", "5",
                              "--fetch-allow", "127.0.0.1", "--diagnostics"],
                             capture_output=True, text=True, timeout=120)
        check(run.returncode == 0, "pith extract --max-pages: exit 0", run.stderr)
        if run.returncode == 0:
            check_article("pith extract --max-pages", (200, json.loads(run.stdout)), "relnext", 3,
                          ["request", "rel=next", "rel=next"], "no_next_page")
        # Without --fetch-allow the guard refuses loopback: page 1 and the reason.
        run = subprocess.run([pith_binary, "extract", first, "--url", site.url("/relnext/story"), "--max-pages", "5",
                              "--diagnostics"], capture_output=True, text=True, timeout=120)
        pages = json.loads(run.stdout).get("diagnostics", {}).get("pages", {}) if run.returncode == 0 else {}
        check(pages.get("stopped") == "fetch_failed" and "127.0.0.1" in pages.get("detail", "")
              and [p["via"] for p in pages.get("pages", [])] == ["request"],
              "pith extract without --fetch-allow: loopback refused, page 1 kept", pages)
        run = subprocess.run([pith_binary, "extract", first, "--max-pages", "3"], capture_output=True, text=True)
        check(run.returncode != 0 and "--url" in run.stderr, "pith extract --max-pages without --url: usage error",
              run.stderr)
    finally:
        os.unlink(first)


if __name__ == "__main__":
    main()
