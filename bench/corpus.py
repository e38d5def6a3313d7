"""Where the bench scripts find the corpora, as the C++ tests do
(tests/support/corpus.hpp): $PITH_CORPUS, else ../shared/corpus beside the
repository; and the pages of each corpus, sorted, as pith_bench_speed lists them.
wcxb-dev keeps its pages gzipped: pages() unpacks them into a folder first."""

import gzip
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# name: (folder under the corpus root, one page per directory as <page>/source.html?)
CORPORA = {
    "mozilla": ("readability-test-pages", True),
    "trafilatura": ("trafilatura-dev/html", False),
}


def find_root():
    """(the corpus root holding every corpus, or None; the roots tried)."""
    candidates = []
    if os.environ.get("PITH_CORPUS"):
        candidates.append(Path(os.environ["PITH_CORPUS"]))
    candidates.append(REPO.parent / "shared" / "corpus")
    for root in candidates:
        if all((root / folder).is_dir() for folder, _ in CORPORA.values()):
            return root.resolve(), [str(c) for c in candidates]
    return None, [str(c) for c in candidates]


# Pages kept as html/NNNN.html.gz, with ground-truth/NNNN.json beside them.
WCXB = "wcxb-dev"


def pages(root, name, limit=None, unpack_to=None):
    """The pages of corpus `name`, sorted by path; the first `limit` when given.
    wcxb's pages are unpacked into `unpack_to` (a folder) and returned from there."""
    if name == "wcxb":
        if unpack_to is None:
            raise ValueError("wcxb's pages are gzipped: give unpack_to")
        found = sorted((root / WCXB / "html").glob("*.html.gz"))[:limit] if limit else \
            sorted((root / WCXB / "html").glob("*.html.gz"))
        unpacked = []
        (unpack_to / "wcxb").mkdir(parents=True, exist_ok=True)
        for page in found:
            target = unpack_to / "wcxb" / page.name[:-3]
            with gzip.open(page, "rb") as src:
                target.write_bytes(src.read())
            unpacked.append(target)
        return unpacked
    folder, per_directory = CORPORA[name]
    if per_directory:
        found = sorted((root / folder).glob("*/source.html"))
    else:
        found = sorted(p for p in (root / folder).iterdir() if p.is_file() and p.suffix == ".html")
    return found[:limit] if limit else found
