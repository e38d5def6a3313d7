#!/usr/bin/python3
"""fit_fitness.py: fits the fitness strategy's weights and thresholds (seed 002)
on the development corpora, and prints the defaults extract.hpp ships.

The objective is the mean of the fitness strategy's snippet F1 on trafilatura-dev
and its mean token F1 on Mozilla's pages, both measured by build/bench/
pith_bench_quality --strategy fitness. The search is a coordinate descent from
the given start: each option in turn tries a ladder of values around its
current one and keeps the best; rounds repeat until one changes nothing. It is
deterministic, so a run from the same start on the same corpora reproduces the
committed defaults.

Usage (from the repository root, after a Release build):
  python3 bench/fit/fit_fitness.py [--bench build/bench/pith_bench_quality] [--rounds 3]
      [--start NAME=VALUE ...]
Exit status: 0 done, 2 usage, corpus or bench error.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

# bench/ holds the helpers every bench script shares.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import corpus  # noqa: E402

REPO = Path(__file__).resolve().parent.parent.parent

# Every option the fitness strategy takes (extract.hpp FitnessOptions), with
# the values a coordinate step may try: weights scale, the ratios step within
# [0, 1], the punctuation norm scales.
WEIGHTS = ["link_density_weight", "tag_density_weight", "title_case_weight", "punctuation_weight",
           "word_count_weight", "depth_weight"]
RATIOS = ["document_word_postweight", "min_child_fitness_ratio", "min_text_percentage"]
SCALES = ["punctuation_norm"]

# Where the search starts when no --start is given: equal weights and the
# thresholds the strategy had before it was fitted. From here, three rounds on
# the development corpora reproduce extract.hpp's defaults.
START = {name: 1.0 for name in WEIGHTS}
START.update({"document_word_postweight": 0.25, "min_child_fitness_ratio": 0.66,
              "min_text_percentage": 0.25, "punctuation_norm": 0.05})


def fail(message):
    print(f"fit_fitness.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    parser = argparse.ArgumentParser(description="fit the fitness strategy's options")
    parser.add_argument("--bench", default=str(REPO / "build" / "bench" / "pith_bench_quality"))
    parser.add_argument("--rounds", type=int, default=3, help="coordinate descent rounds at most")
    parser.add_argument("--strategy", default="fitness", choices=["fitness", "auto"],
                        help="whose figures the objective reads: fitness alone (the defaults), or auto")
    parser.add_argument("--start", nargs="*", default=[], metavar="NAME=VALUE",
                        help="start values (default: extract.hpp's defaults)")
    return parser.parse_args()


def candidates(name, value):
    """The values one coordinate step tries for option `name` at `value`."""
    if name in RATIOS:
        ladder = [value - 0.2, value - 0.1, value - 0.05, value + 0.05, value + 0.1, value + 0.2]
        return sorted({round(min(1.0, max(0.0, v)), 3) for v in ladder} - {round(value, 3)})
    factors = [0.0, 0.25, 0.5, 0.75, 1.5, 2.0, 4.0] if name in WEIGHTS else [0.25, 0.5, 2.0, 4.0]
    found = {round(value * f, 4) for f in factors}
    if value == 0.0:
        found |= {0.5, 1.0}
    return sorted(found - {round(value, 4)})


class Evaluator:
    """Runs the quality bench on a set of options; caches by value."""

    def __init__(self, bench, root, strategy):
        self.bench = bench
        self.root = root
        self.strategy = strategy
        self.cache = {}

    def __call__(self, options):
        key = tuple(sorted(options.items()))
        if key in self.cache:
            return self.cache[key]
        command = [self.bench, "--corpus", str(self.root), "--strategy", self.strategy, "--json"]
        for name, value in sorted(options.items()):
            command += ["--fitness", f"{name}={value}"]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            fail(f"{' '.join(command)} failed: {result.stderr.strip()}")
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        objective = (figures["f1"] + figures["mozilla_f1"]) / 2.0
        self.cache[key] = (objective, figures)
        return self.cache[key]


def show(options, figures, objective):
    values = " ".join(f"{name}={options[name]:g}" for name in WEIGHTS + SCALES + RATIOS)
    print(f"objective {objective:.4f}  f1 {figures['f1']:.4f}  mozilla_f1 {figures['mozilla_f1']:.4f}  {values}",
          flush=True)


def main():
    args = parse_args()
    root, tried = corpus.find_root()
    if root is None:
        fail("corpora not found; tried " + ", ".join(tried))
    if not Path(args.bench).is_file():
        fail(f"{args.bench} not found: build first (make build)")
    options = dict(START)
    for assignment in args.start:
        name, _, value = assignment.partition("=")
        if name not in options:
            fail(f"unknown option {name!r}")
        options[name] = float(value)
    evaluate = Evaluator(args.bench, root, args.strategy)
    best, figures = evaluate(options)
    print("start:")
    show(options, figures, best)
    for round_number in range(1, args.rounds + 1):
        changed = False
        for name in WEIGHTS + SCALES + RATIOS:
            for value in candidates(name, options[name]):
                trial = dict(options, **{name: value})
                objective, trial_figures = evaluate(trial)
                if objective > best + 1e-9:
                    best, figures, options, changed = objective, trial_figures, trial, True
            print(f"round {round_number}, after {name}:")
            show(options, figures, best)
        if not changed:
            break
    print("\nfitted (FitnessOptions defaults):")
    for name in WEIGHTS + SCALES + RATIOS:
        print(f"  {name} = {options[name]:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
