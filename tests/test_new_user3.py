"""Gaps a third new user met (taxis tables): select keeping nothing on a tiny table, the
quick reproductions, shell-quoted fixes, -k 0, and audit's missing targets (in
test_inflation.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from featsieve.cli import main


def _tiny_csv(tmp_path, n=30):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({f"f{j}": rng.normal(size=n) for j in range(4)})
    df["label"] = np.where(df["f0"] + rng.normal(scale=0.5, size=n) > 0, "a", "b")
    path = tmp_path / "tiny.csv"
    df.to_csv(path, index=False)
    return str(path)


# ------------------------------------------------------------ select keeps nothing
def test_select_nothing_kept_gives_compares_small_table_hint(tmp_path, capsys):
    path = _tiny_csv(tmp_path)
    out_path = str(tmp_path / "out.csv")
    rc = main(["select", path, "-t", "label", "--method", "embedded", "-o", out_path, "-q"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "embedded: kept 0 of 4 columns" in out
    assert ("No column was selected: embedded chose nothing with --model lightgbm on 30 rows; "
            "the table is too small for it (try --model tree or logistic/linear).") in out
    assert "--------" not in out  # no empty listing
    assert list(pd.read_csv(out_path).columns) == ["label"]
    # the hint's advice works
    assert main(["select", path, "-t", "label", "--method", "embedded", "--model", "tree",
                 "-q"]) == 0
    assert "No column was selected" not in capsys.readouterr().out


# ------------------------------------------------------------ shell-quoted fixes
def test_target_leak_fix_is_shell_quoted():
    from featsieve._validation import TargetLeakWarning, validate_Xy, warn_target_leaks

    rng = np.random.default_rng(0)
    y = pd.Series(rng.choice(["cash", "card"], size=60), name="payment")
    X = pd.DataFrame({"fare": rng.normal(size=60), "payment copy": y.to_numpy()})
    data = validate_Xy(X, y)
    with pytest.warns(TargetLeakWarning) as rec:
        assert warn_target_leaks(data, list(X.columns)) == ["payment copy"]
    assert "(--drop 'payment copy' in the CLI" in str(rec[0].message)


# ------------------------------------------------------------ -k and count options
@pytest.mark.parametrize("k", ["0", "-3", "0.0", "1.5", "nan", "inf", "five"])
def test_select_bad_k_is_one_line_naming_the_option(tmp_path, capsys, k):
    path = _tiny_csv(tmp_path)
    assert main(["select", path, "-t", "label", "--method", "mi", "-k", k, "-q"]) == 2
    err = capsys.readouterr().err
    assert err == (f"featsieve: error: -k/--n-features must be a positive count (1, 2, ...) or "
                   f"a fraction in (0, 1]; got {k!r}.\n")


def test_select_k_count_and_fraction_still_work(tmp_path, capsys):
    path = _tiny_csv(tmp_path)
    assert main(["select", path, "-t", "label", "--method", "mi", "-k", "2", "-q"]) == 0
    assert "mi: kept 2 of 4 columns" in capsys.readouterr().out
    assert main(["select", path, "-t", "label", "--method", "mi", "-k", "0.5", "-q"]) == 0
    assert "mi: kept 2 of 4 columns" in capsys.readouterr().out


def test_compare_k_grid_refuses_nan(capsys):
    assert main(["compare", "sonar", "-m", "cc", "--k-grid", "nan", "-q"]) == 2
    assert capsys.readouterr().err.startswith("featsieve: error: --k-grid: nan is neither")


# ------------------------------------------------------------ README
README = Path(__file__).parents[1] / "README.md"


def test_readme_lists_every_model_of_the_cli():
    from featsieve.models import MODEL_NAMES

    text = README.read_text()
    listed = re.search(r"\[--model ([a-z|]+)\]", text).group(1).split("|")
    assert listed == list(MODEL_NAMES)


def test_readme_explains_stability_as_nogueiras_estimator():
    text = " ".join(README.read_text().split())
    assert ("stability of the selection (Nogueira's estimator: 1 = the same columns every "
            "repeat, about 0 = what chance gives, negative = less agreement than chance)") in text
