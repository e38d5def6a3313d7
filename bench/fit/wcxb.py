"""wcxb-dev for the fitting scripts and the quality bench: its pages and their
truth, the benchmark's word F1, the folds grouped by domain, and pith run on
each fold with the models fitted without that fold (`--model-fold`), so that
every figure it gives is out of fold.

The word F1 is WCXB's: lowercase both texts, take their \\w+ tokens as
multisets; precision = overlap / extracted tokens, recall = overlap /
reference tokens (../shared/tools/wcxb_score.py scores the same way)."""

import collections
import gzip
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import corpus  # noqa: E402
from gbdt import group_folds  # noqa: E402

TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"]
FOLDS = 5


def root_or_exit(script):
    root, tried = corpus.find_root()
    if root is None or not (root / corpus.WCXB / "pages.json").is_file():
        sys.exit(f"{script}: no wcxb-dev corpus (set PITH_CORPUS); tried {', '.join(tried)}")
    return root


def load(root):
    """[(key, page type, domain, truth)] sorted by key; truth is ground_truth's dict."""
    folder = root / corpus.WCXB
    pages = json.loads((folder / "pages.json").read_text(encoding="utf-8"))["pages"]
    out = []
    for key in sorted(pages):
        truth = json.loads((folder / "ground-truth" / f"{key}.json").read_text(encoding="utf-8"))["ground_truth"]
        out.append((key, pages[key]["page_type"], pages[key]["domain"], truth))
    return out


def folds(pages):
    return group_folds([domain for _, _, domain, _ in pages], FOLDS)


def tokens(text):
    return re.findall(r"\w+", (text or "").lower())


def word_prf(extracted, reference):
    p, r = tokens(extracted), tokens(reference)
    if not r:
        return (1.0, 1.0, 1.0) if not p else (0.0, 0.0, 0.0)
    if not p:
        return (0.0, 0.0, 0.0)
    overlap = sum((collections.Counter(p) & collections.Counter(r)).values())
    precision, recall = overlap / len(p), overlap / len(r)
    return precision, recall, (2 * precision * recall / (precision + recall) if overlap else 0.0)


def page_html(root, key):
    """The bytes of wcxb-dev's page `key`."""
    return gzip.open(root / corpus.WCXB / "html" / f"{key}.html.gz").read()


def extract_fold(pith, files, fold, extra=(), jobs=2):
    """[pith's JSON answer] for `files`, with the models fitted without `fold`
    (None: the models fitted on every page), text and diagnostics included."""
    args = [pith, "extract", "--format", "json", "--diagnostics", "--with", "text", "--jobs", str(jobs)]
    args += (["--model-fold", str(fold)] if fold is not None else []) + list(extra) + [str(f) for f in files]
    out = subprocess.run(args, capture_output=True, check=False).stdout
    return [json.loads(line) for line in out.decode("utf-8", "replace").split("\n") if line.strip()]


def run_pith(pith, root, pages, fold_of, extra=(), out_of_fold=True, jobs=2):
    """{key: pith's JSON answer} for every page, each fold's pages run with
    --model-fold FOLD (out_of_fold) or with the models fitted on every page."""
    answers = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for key, *_ in pages:
            path = Path(tmp) / f"{key}.html"
            path.write_bytes(page_html(root, key))
            paths[key] = path
        for fold in range(FOLDS) if out_of_fold else [None]:
            files = [paths[key] for (key, *_), f in zip(pages, fold_of) if fold is None or f == fold]
            for answer in extract_fold(pith, files, fold, extra, jobs):
                answers[Path(answer.get("file", "")).stem] = answer
    return answers


def run_pith_trafilatura(pith, root, extra=(), out_of_fold=True, jobs=2):
    """{page name: pith's JSON answer} for every trafilatura-dev page, each fold
    of its sites run with --model-fold FOLD (out_of_fold), as run_pith does
    wcxb-dev's domains, or with the models fitted on every page."""
    _, names, sites = trafilatura_pages(root)
    folder = root / "trafilatura-dev" / "html"
    folds = group_folds(sites, FOLDS) if out_of_fold else [None] * len(names)
    answers = {}
    for fold in sorted(set(folds), key=lambda f: -1 if f is None else f):
        files = [folder / n for n, f in zip(names, folds) if f == fold]
        for answer in extract_fold(pith, files, fold, extra, jobs):
            answers[Path(answer.get("file", "")).name] = answer
    return answers


def trafilatura_pages(root):
    """trafilatura-dev: its annotations, the names of the pages present, and
    each page's site (from the annotation's url, "kind::host-slug") for folds."""
    annotations = json.loads((root / "trafilatura-dev" / "annotations.json").read_text(encoding="utf-8"))
    folder = root / "trafilatura-dev" / "html"
    names = [name for name in sorted(annotations) if (folder / name).is_file()]
    sites = [annotations[n].get("url", n).split("::")[-1].split("-")[0] for n in names]
    return annotations, names, sites


def snippets_found(text, note):
    """(with snippets found, with snippets missed, without snippets found) in
    `text`, white space collapsed as trafilatura's evaluation does."""
    collapse = lambda s: " ".join((s or "").split())  # noqa: E731
    text = collapse(text)
    with_ = [collapse(s) in text for s in note.get("with") or []]
    without = [collapse(s) in text for s in note.get("without") or []]
    return sum(with_), len(with_) - sum(with_), sum(without)
