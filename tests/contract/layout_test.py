#!/usr/bin/python3
"""layout_test.py: the extractor's folders keep the pipeline's order.

Each folder under extractor/src may include headers of its own folder and of
folders before it in the pipeline, never of a folder that depends on it, so
the folder graph has no cycle; no stage (a file in a folder) includes the
orchestrator's headers (pith/extract.hpp, pipeline.hpp), which only the
entry points at the top of src/ (extract.cpp, inspect.cpp, walk.cpp) use; and text/
knows nothing of the DOM. Prints the graph; exit 0 when every rule holds.
"""
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "extractor" / "src"
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)
ORCHESTRATOR = {"pith/extract.hpp", "pipeline.hpp"}


def main():
    edges = {}
    failures = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".inc") or path.parent == SRC:
            continue
        folder = path.parent.relative_to(SRC).parts[0]
        for header in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if header in ORCHESTRATOR:
                failures.append(f"{path.relative_to(SRC)} includes the orchestrator's {header}")
            target = header.split("/")[0]
            if "/" in header and (SRC / target).is_dir() and target != folder:
                edges.setdefault(folder, set()).add(target)
            if folder == "text" and (header == "pith/dom.hpp" or target == "dom"):
                failures.append(f"{path.relative_to(SRC)}: text/ includes the DOM ({header})")
    # A cycle: a folder reachable from itself.
    for start in sorted(edges):
        seen, todo = set(), list(edges.get(start, ()))
        while todo:
            node = todo.pop()
            if node == start:
                failures.append(f"folder cycle through {start}/")
                break
            if node not in seen:
                seen.add(node)
                todo.extend(edges.get(node, ()))
    for folder in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        print(f"{folder + '/':<14} includes {', '.join(t + '/' for t in sorted(edges.get(folder, ()))) or '-'}")
    for failure in failures:
        print("FAIL", failure)
    print("layout:", "ok" if not failures else f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
