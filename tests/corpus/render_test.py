#!/usr/bin/python3
"""render_test.py PITH: Markdown and clean text of every corpus page, checked.

Every page of Mozilla's test pages and of trafilatura-dev goes through
`pith extract --with markdown,text`. Then:

- Markdown: cmark-gfm (tables and strikethrough on, raw HTML rendered) turns
  pith's Markdown back into HTML. Its text against the text of `content`
  (textContent split at block boundaries, see block_text): token F1 >= 0.99 on
  average and >= 0.95 on every page. The counts of
  headings, list items, table cells, code blocks, links and images in it
  equal those in `content`, counted as the Markdown can hold them: headings,
  list items with text (or an image); cells of a table with text; code blocks with text (a <pre>
  holding blocks is read as those blocks); links
  with an href and text or an image, not inside code and holding no heading,
  list, table, code block or quote with text (a link around those cannot stay
  one link in Markdown; paragraphs inside a link run on inline), but not a
  heading's link to a fragment of the page (its words stay, unlinked);
  images with a src, not inside code. Permalink marks (a fragment link
  showing only "¶", "§", "#"...) are no text, and no link, of either, and
  neither is text that shows nothing (a zero-width joiner, an icon font's
  private-use glyph: shows_nothing).
- Clean text: no line starts or ends with white space, never two blank lines
  in a row, and token F1 >= 0.99 on every page against textContent (split at
  block boundaries), with the list markers clean text gives items added to it
  and "|" left out of both (clean text separates cells with " | ").

Prints the figures and the worst pages. Needs PITH_CORPUS (or ../shared/corpus)
and cmark-gfm; fails loudly without either.
"""

import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from token_f1 import JS_SPACE_CHARS as JS_SPACE, token_f1 as f1, tokens  # noqa: E402
BLOCKS = {"address", "article", "aside", "blockquote", "center", "dd", "details", "dialog", "div", "dl", "dt",
          "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
          "hgroup", "hr", "legend", "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table",
          "caption", "tr", "td", "th", "thead", "tbody", "tfoot", "ul"}
CODE = {"pre", "code", "kbd", "samp", "tt"}
# Blocks that end a link: Markdown runs paragraphs inside a link on inline, not these.
LINK_BREAKERS = {"h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "pre", "blockquote", "hr", "li"}
END_OF_BLOCK = object()
END_OF_LIST = object()
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []


class Tree(html.parser.HTMLParser):
    def __init__(self, markup):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", [], None)
        self.at = self.root
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.at)
        self.at.children.append(element)
        if tag not in VOID:
            self.at = element

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Element(tag, attrs, self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.children.append(data)


def elements(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Element):
            yield n
            stack.extend(reversed(n.children))


def text(node, marks=True):
    """The text of `node`; without permalink marks, the text the renderings
    show, unless `marks`."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, str):
            out.append(n)
        elif marks or not is_permalink_mark(n):
            stack.extend(reversed(n.children))
    return "".join(out)


PERMALINK_MARKS = ("\u00b6", "\u00a7", "#", "\U0001f517", "\u2693")


def is_permalink_mark(node):
    """render.hpp's is_permalink_mark: a link into the page showing only
    pilcrows, section signs, hashes, link or anchor signs (16 bytes at most),
    which the renderings leave out."""
    if not isinstance(node, Element) or node.tag != "a" or any(e.tag == "img" for e in elements(node)):
        return False
    if not (node.attrs.get("href") or "").strip(JS_SPACE).startswith("#"):
        return False
    shown = text(node)
    if len(shown.encode("utf-8")) > 16:
        return False
    rest = "".join(c for c in shown if c not in HTML_SPACE)
    for mark in PERMALINK_MARKS:
        rest = rest.replace(mark, "")
    return rest == "" and any(c not in HTML_SPACE for c in shown)


HTML_SPACE = " \t\n\f\r"
ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")


def reads_apart(element, previous):
    """Whether an inline element reads apart from the inline element just
    before it (render.hpp's reads_apart_from_previous): no text between them,
    neither a superscript or subscript, each showing two characters or more,
    an ASCII letter or digit on both sides of the join."""
    def inline(n):
        return isinstance(n, Element) and n.tag not in BLOCKS and n.tag not in ("br", "sup", "sub")
    if not inline(element) or not inline(previous):
        return False
    before, after = text(previous).strip(HTML_SPACE), text(element).strip(HTML_SPACE)
    shown = lambda t: len([c for c in t if c not in HTML_SPACE]) >= 2  # noqa: E731
    return (shown(before) and shown(after) and ASCII_ALNUM.fullmatch(before[-1]) is not None
            and ASCII_ALNUM.fullmatch(after[0]) is not None)


def block_text(node, list_markers=False, marks=False):
    """The text of `node` with a space where a block or a <br> begins or ends.

    textContent runs the words of two blocks together when the page has no
    white space between them ("said.The"); Markdown and clean text keep the
    blocks apart, as a browser shows them, and two inline elements with no
    white space between them apart where they read as words apart
    (reads_apart). Their words are compared with these words, which are
    textContent's split at those boundaries. With
    `list_markers`, each list item starts with the marker clean text gives
    it ("- ", or "3. " in an ordered list). Permalink marks are left out, as
    the renderings leave them, unless `marks`.
    """
    out = []
    numbers = []  # per open list: the next number, or None when unordered
    pending = None  # the marker of an item that has written no text yet
    previous = {}  # id of an element: the node before it among its siblings
    stack = [node]
    while stack:
        n = stack.pop()
        if n is END_OF_BLOCK:
            out.append(" ")
        elif n is END_OF_LIST:
            numbers.pop()
        elif not marks and is_permalink_mark(n):
            continue
        elif isinstance(n, str):
            if pending is not None and not shows_nothing(n):
                out.append(" " + pending)
                pending = None
            out.append(n)
        else:
            if n.tag in BLOCKS or n.tag == "br":
                out.append(" ")
                stack.append(END_OF_BLOCK)
            elif reads_apart(n, previous.get(id(n))):
                out.append(" ")
            if list_markers and n.tag in ("ul", "ol"):
                numbers.append(list_start(n) if n.tag == "ol" else None)
                stack.append(END_OF_LIST)
            if list_markers and n.tag == "li":
                if numbers and numbers[-1] is not None:
                    pending = f"{numbers[-1]}. "
                    numbers[-1] += 1
                else:
                    pending = "- "
            for before, child in zip(n.children, n.children[1:]):
                previous[id(child)] = before
            stack.extend(reversed(n.children))
    return "".join(out)


def list_start(ol):
    start = (ol.attrs.get("start") or "").strip()
    return int(start) if start.isdigit() and int(start) <= 1000 else 1


def has_image(node):
    return any(e.tag == "img" and (e.attrs.get("src") or "").strip() for e in elements(node))


def inside(node, tags):
    n = node.parent
    while n is not None:
        if n.tag in tags:
            return True
        n = n.parent
    return False


# What text::shows_nothing (text.hpp) reads as nothing, beside white space:
# line-breaking hints, joiners and direction marks, and private-use characters
# (an icon font's glyphs). The renderings leave out a line or a heading made
# only of them.
NOTHING = set(JS_SPACE) | set("\u00ad\u200b\u200c\u200d\u200e\u200f\u2060")


def shows_nothing(t):
    return all(c in NOTHING or 0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000 for c in t)


def has_text(node):
    return not shows_nothing(text(node, marks=False))


def counts(tree, rendered):
    """The constructs of one document, as described in the module docstring."""
    c = {"headings": 0, "list items": 0, "table cells": 0, "code blocks": 0, "links": 0, "images": 0}
    for e in elements(tree.root):
        if e.tag in ("h1", "h2", "h3", "h4", "h5", "h6") and (has_text(e) or has_image(e)):
            c["headings"] += 1
        elif e.tag == "li" and (has_text(e) or has_image(e)):
            c["list items"] += 1
        elif e.tag in ("td", "th") and has_text(e) and inside(e, {"table"}):
            c["table cells"] += 1
        elif e.tag == "pre" and has_text(e) and not any(d.tag in BLOCKS for d in elements(e) if d is not e):
            c["code blocks"] += 1
        elif e.tag == "a" and (e.attrs.get("href") or "").strip() and (has_text(e) or has_image(e)):
            # A heading linked to its own place in the page gives its words without the link.
            if rendered or (not inside(e, CODE) and not (e.attrs["href"].strip(JS_SPACE).startswith("#") and
                                                         inside(e, {"h1", "h2", "h3", "h4", "h5", "h6"})) and
                            not any(d.tag in LINK_BREAKERS and has_text(d) for d in elements(e) if d is not e)):
                c["links"] += 1
        elif e.tag == "img" and (e.attrs.get("src") or "").strip():
            if rendered or not inside(e, CODE):
                c["images"] += 1
    return c


def visible_tokens(text, bars=True):
    """The tokens of `text` that show something; without clean text's cell
    separators (and any "|" of the page's) unless `bars`."""
    return " ".join(t for t in tokens(text) if not shows_nothing(t) and (bars or t != "|"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    pith = sys.argv[1]
    corpus = Path(os.environ.get("PITH_CORPUS", REPO.parent / "shared" / "corpus"))
    mozilla = sorted((corpus / "readability-test-pages").glob("*/source.html"))
    trafilatura = sorted((corpus / "trafilatura-dev" / "html").glob("*.html"))
    if not mozilla or not trafilatura:
        sys.exit(f"FAIL: no corpus at {corpus} (set PITH_CORPUS)")
    cmark = shutil.which("cmark-gfm")
    if cmark is None:
        sys.exit("FAIL: cmark-gfm is not installed (Debian package cmark-gfm)")
    pages = [str(p) for p in mozilla + trafilatura]
    done = subprocess.run([pith, "extract", "--jobs", "2", "--with", "markdown,text", *pages],
                          capture_output=True, check=False)
    answers = done.stdout.decode("utf-8").rstrip("\n").split("\n")
    if len(answers) != len(pages):
        sys.exit(f"FAIL: {len(answers)} answers for {len(pages)} pages: {done.stderr.decode()[:400]}")

    failures = []
    markdown_f1, text_f1 = [], []
    totals = {}
    checked = 0
    for page, line in zip(pages, answers):
        article = json.loads(line)
        if article.get("markdown") is None:
            continue  # no article
        checked += 1
        name = os.path.relpath(page, corpus)
        content_tree = Tree(article["content"])
        expected = block_text(content_tree.root)
        if "".join(tokens(block_text(content_tree.root, marks=True))) != "".join(tokens(article["textContent"])):
            failures.append(f"{name}: the text of content is not textContent's")
        rendered = subprocess.run([cmark, "--unsafe", "-e", "table", "-e", "strikethrough"],
                                  input=article["markdown"].encode("utf-8"), capture_output=True, check=True)
        rendered_tree = Tree(rendered.stdout.decode("utf-8"))
        score = f1(visible_tokens(block_text(rendered_tree.root)), visible_tokens(expected))
        markdown_f1.append((score, name))
        if score < 0.95:
            failures.append(f"{name}: Markdown text F1 {score:.4f} < 0.95")
        want = counts(content_tree, rendered=False)
        got = counts(rendered_tree, rendered=True)
        for key in want:
            totals.setdefault(key, [0, 0])
            totals[key][0] += want[key]
            totals[key][1] += got[key]
            if want[key] != got[key]:
                failures.append(f"{name}: {key}: content has {want[key]}, the Markdown {got[key]}")

        clean = article["text"]
        text_lines = clean.split("\n")
        for number, text_line in enumerate(text_lines, 1):
            if text_line != text_line.strip(JS_SPACE):
                failures.append(f"{name}: clean text line {number} has white space at an end: {text_line[:60]!r}")
                break
        if "\n\n\n" in clean:
            failures.append(f"{name}: clean text has two blank lines in a row")
        score = f1(visible_tokens(clean, bars=False),
                   visible_tokens(block_text(content_tree.root, list_markers=True), bars=False))
        text_f1.append((score, name))
        if score < 0.99:
            failures.append(f"{name}: clean text F1 {score:.4f} < 0.99")

    mean_markdown = sum(s for s, _ in markdown_f1) / len(markdown_f1)
    mean_text = sum(s for s, _ in text_f1) / len(text_f1)
    print(f"pages with an article: {checked} of {len(pages)}")
    print(f"Markdown, rendered by cmark-gfm, text against the text of content: mean token F1 {mean_markdown:.4f} "
          f"(>= 0.99), lowest {min(markdown_f1)[0]:.4f} (>= 0.95)")
    print(f"clean text against the text of content: mean token F1 {mean_text:.4f}, lowest {min(text_f1)[0]:.4f} (>= 0.99)")
    print("constructs in content / in the rendered Markdown:")
    for key, (want, got) in totals.items():
        print(f"  {key:<12} {want:>7} / {got:<7}")
    print("lowest Markdown F1:", ", ".join(f"{n} {s:.4f}" for s, n in sorted(markdown_f1)[:5]))
    print("lowest clean text F1:", ", ".join(f"{n} {s:.4f}" for s, n in sorted(text_f1)[:5]))
    if mean_markdown < 0.99:
        failures.append(f"mean Markdown F1 {mean_markdown:.4f} < 0.99")
    for failure in failures[:60]:
        print("FAIL", failure)
    if len(failures) > 60:
        print(f"... and {len(failures) - 60} more")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
