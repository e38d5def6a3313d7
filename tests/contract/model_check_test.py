#!/usr/bin/python3
"""model_check_test.py: the fits' --check accepts the same fit made on
another CPU and refuses a different one (bench/fit/gbdt.py, finish_model).

Two machines round numpy's sums apart in the last bits: a committed model
must still be recognised when its numbers differ by that much, when its lines
wrap elsewhere, and when rounding made a split take another feature that
parts the training rows alike. A model whose weights or splits really differ
must not pass.
"""
import re
import sys
import unittest
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "fit"))
from gbdt import Booster, differences, forest_table, same_splits  # noqa: E402


def fitted():
    """A small booster whose features 0 and 3 part every row alike: x0 <= 0.5
    and x3 <= 1.0 are the same cut."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 4))
    X[:, 0] = rng.integers(0, 2, size=400)
    X[:, 3] = X[:, 0] * 2.0
    y = ((X[:, 0] > 0.5) & (X[:, 1] > -0.5)).astype(np.float64)
    booster = Booster(rounds=8, max_depth=2, min_child_weight=1.0).fit(X, y)
    return booster, forest_table([booster], 4, ["test model"], bases=True)


def last_bits_apart():
    """The fit's text with every leaf value moved by two units in its last place."""
    booster, _ = fitted()
    for tree in booster.flat_trees():
        for node in tree:
            if node[0] < 0:
                node[4] = float(np.nextafter(np.nextafter(node[4], np.inf), np.inf))
    return forest_table([booster], 4, ["test model"], bases=True)


def leaf_changed(text):
    """`text` with its first leaf's value moved by a tenth."""
    return re.sub(r"\{-1,-1,-1,0\.0,([^}]+)\}", lambda m: f"{{-1,-1,-1,0.0,{float(m.group(1)) + 0.1!r}}}",
                  text, count=1)


def splits_moved(text, to_feature, to_threshold):
    """`text` with every split on x0 <= 0.5 moved to another feature and threshold."""
    moved, count = re.subn(r"\{0,(\d+),(\d+),0\.5,", rf"{{{to_feature},\1,\2,{to_threshold},", text)
    assert count > 0, "the fit split on x0 nowhere"
    return moved


class ModelCheck(unittest.TestCase):
    def test_the_same_text_is_the_same_fit(self):
        _, text = fitted()
        self.assertEqual(differences(text, text), (False, 0.0))

    def test_rounding_and_line_breaks_are_not_differences(self):
        _, text = fitted()
        moved = last_bits_apart()
        self.assertNotEqual(moved, text)
        differ, largest = differences(text, moved.replace("},{", "},\n{", 3))
        self.assertFalse(differ)
        self.assertGreater(largest, 0.0)

    def test_a_changed_weight_or_split_is_a_difference(self):
        _, text = fitted()
        self.assertTrue(differences(text, leaf_changed(text))[0])
        self.assertTrue(differences(text, splits_moved(text, 1, 0.5))[0])

    def test_a_split_on_a_feature_that_parts_the_rows_alike_is_the_same_fit(self):
        booster, text = fitted()
        moved = splits_moved(text, 3, 1.0)
        self.assertTrue(differences(text, moved)[0])
        self.assertTrue(same_splits(moved, text, [booster]))

    def test_a_split_that_parts_the_rows_otherwise_is_not(self):
        booster, text = fitted()
        self.assertFalse(same_splits(splits_moved(text, 1, 0.5), text, [booster]))

    def test_a_split_alike_does_not_excuse_a_changed_weight(self):
        booster, text = fitted()
        self.assertFalse(same_splits(leaf_changed(splits_moved(text, 3, 1.0)), text, [booster]))


if __name__ == "__main__":
    unittest.main()
