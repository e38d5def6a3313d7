#!/usr/bin/python3
"""lxml_peer.py: readability-lxml (Debian's python3-readability) timed in-process
on a list of pages, for bench/compare.py (issue 6).

Run it with /usr/bin/python3: the package is installed by apt, and another
python3 earlier on PATH does not see Debian's dist-packages.

Every page is read and decoded to a str before any timing, as readability_peer.js
does: a BOM, else the <meta> prescan of the first 1024 bytes, else UTF-8. An
untimed pass checks that each page gives an article (non-empty summary text) and
warms up; a timed run is Document(text).title() + .summary() for every page (the
parse happens inside, once), and the best of --repeat runs counts. Prints one JSON
object on stdout.

Usage: /usr/bin/python3 lxml_peer.py [--repeat N] [--pages-from LIST] [FILE...]
"""

import argparse
import codecs
import gc
import json
import logging
import re
import resource
import sys
import time

import lxml
import lxml.html
import readability

# WHATWG labels whose Python codec of the same name decodes differently: the web
# treats latin1/ASCII as windows-1252 and the CJK labels as the Microsoft supersets.
WHATWG_TO_PYTHON = {
    "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "l1": "cp1252",
    "ascii": "cp1252", "us-ascii": "cp1252", "cp819": "cp1252", "x-user-defined": "cp1252",
    "iso-8859-9": "cp1254", "latin5": "cp1254",
    "iso-8859-11": "cp874", "tis-620": "cp874",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030",
    "shift_jis": "cp932", "sjis": "cp932", "ms_kanji": "cp932",
    "euc-kr": "cp949", "ks_c_5601-1987": "cp949",
    "big5": "big5hkscs",
}

META = re.compile(rb"<meta[\s/][^>]*>?", re.I)
CHARSET_ATTR = re.compile(rb"\scharset\s*=\s*[\"']?\s*([^\s\"'>;/]+)", re.I)
HTTP_EQUIV = re.compile(rb"http-equiv\s*=\s*[\"']?\s*content-type", re.I)
CONTENT_ATTR = re.compile(rb"content\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
CONTENT_CHARSET = re.compile(rb"charset\s*=\s*[\"']?\s*([^\s\"';]+)", re.I)
COMMENT = re.compile(rb"<!--.*?(-->|$)", re.S)


def prescan_charset(data):
    """The charset label the markup declares in its first 1024 bytes, '' if none."""
    head = COMMENT.sub(b"", data[:1024])
    for tag in META.finditer(head):
        text = tag.group(0)
        direct = CHARSET_ATTR.search(text)
        if direct:
            return direct.group(1).decode("latin-1")
        if HTTP_EQUIV.search(text):
            content = CONTENT_ATTR.search(text)
            inner = content and CONTENT_CHARSET.search(content.group(1))
            if inner:
                return inner.group(1).decode("latin-1")
    return ""


def python_codec(label):
    label = label.strip().lower()
    if label.startswith("utf-16"):  # named inside the markup it means UTF-8 (HTML standard)
        return "utf-8"
    label = WHATWG_TO_PYTHON.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return "utf-8"  # unknown label: ignored, as a browser does


def decode_page(data):
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", "replace"), "utf-8"
    if data.startswith(codecs.BOM_UTF16_LE):
        return data[2:].decode("utf-16-le", "replace"), "utf-16-le"
    if data.startswith(codecs.BOM_UTF16_BE):
        return data[2:].decode("utf-16-be", "replace"), "utf-16-be"
    codec = python_codec(prescan_charset(data))
    return data.decode(codec, "replace"), codec


def extract(text):
    """title and summary HTML; (None, None) when readability-lxml raises."""
    try:
        document = readability.Document(text)
        # title first, as Readability.js reads it before mutating the tree
        return document.title(), document.summary()
    except Exception:  # one bad page must not end the run; it counts as no article
        return None, None


def summary_text(summary):
    if not summary:
        return ""
    return lxml.html.fromstring(summary).text_content().strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages-from", help="a file with one HTML path per line")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = list(args.files)
    if args.pages_from:
        with open(args.pages_from, encoding="utf-8") as listing:
            files += [line.strip() for line in listing if line.strip()]
    if not files:
        parser.error("no pages given")
    # readability-lxml logs its retries; the driver wants only the JSON line.
    logging.getLogger("readability").setLevel(logging.CRITICAL)

    pages = []
    total_bytes = 0
    charsets = {}
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        text, codec = decode_page(data)
        total_bytes += len(data)
        charsets[codec] = charsets.get(codec, 0) + 1
        pages.append((path, text))

    # Sanity and warm-up: a fast wrong answer cannot win.
    insane = [path for path, text in pages if not summary_text(extract(text)[1])]

    best_seconds = float("inf")
    best_page_seconds = []
    sink = 0  # keeps the results observable
    for _ in range(max(1, args.repeat)):
        gc.collect()  # start each run from a clean heap
        page_seconds = []
        for _, text in pages:
            t0 = time.perf_counter()
            title, summary = extract(text)
            page_seconds.append(time.perf_counter() - t0)
            sink += len(summary or "") + len(title or "")
        seconds = sum(page_seconds)
        if seconds < best_seconds:
            best_seconds, best_page_seconds = seconds, page_seconds

    version = getattr(readability, "__version__", "")
    result = {
        "tool": f"readability-lxml {version}".strip() + f" on lxml {lxml.__version__}",
        "runtime": f"python {sys.version.split()[0]}",
        "docs": len(pages),
        "bytes": total_bytes,
        "repeat": max(1, args.repeat),
        "seconds": best_seconds,
        "docs_per_s": len(pages) / best_seconds,
        "mb_per_s": total_bytes / 1e6 / best_seconds,
        "sane": len(pages) - len(insane),
        "insane": insane[:10],
        "charsets": charsets,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # KiB on Linux
        "page_seconds": best_page_seconds,
        "sink": sink,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
