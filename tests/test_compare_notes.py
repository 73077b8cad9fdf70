"""What ``compare`` says about its own numbers: a summary sentence that never contradicts
itself, rows tested by the sign test, messages that were only on stderr, the k grid's top,
constant columns."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve._resources import LeftOutWarning
from featsieve._validation import ConstantFeatureWarning
from featsieve.cli import _pm, main
from featsieve.evaluation import _compare
from featsieve.evaluation._compare import ComparisonResult, _k_top


# ------------------------------------------------------------- 1. the summary sentence
def _row(method, vs_all, mean):
    return {"method": method, "vs_all": vs_all, "test_mean": mean, "test_ci": [mean - 0.01,
            mean + 0.01], "test_se": 0.01, "n_selected": 3, "constant_model": 0, "gap": None}


def _result(verdicts):
    rows = [_row("all", None, 0.80), _row("baseline", "worse", 0.5)]
    rows += [_row(m, v, {"better": 0.9, "worse": 0.7, "tie": 0.8}[v])
             for m, v in verdicts.items()]
    return ComparisonResult(dataset="d", task="classification", metric="accuracy",
                            greater_is_better=True, n_samples=100, n_features=10,
                            split={}, seeds=[0, 1, 2], rows=rows)


def test_verdict_none_better_some_worse_does_not_say_indistinguishable():
    text = _result({"cc": "tie", "hsic-lasso": "worse"}).verdict()
    assert "distinguishable" not in text
    assert text.startswith("No method is better than all features (")
    assert "all 10 columns score 0.8 (95% interval 0.79 to 0.81); worse: hsic-lasso." in text
    assert "Worse than all features" not in text


def test_verdict_none_better_none_worse_and_some_better_some_worse():
    text = _result({"cc": "tie", "mi": "tie"}).verdict()
    assert text.startswith("No method is distinguishable from all features (")
    assert "worse" not in text.lower()
    text = _result({"cc": "better", "mi": "worse"}).verdict()
    assert text.startswith("Better than all 10 columns (0.8;") and "cc (0.9, 3 columns)" in text
    assert "Worse than all features: mi." in text and "distinguishable" not in text


# ------------------------------------------------------------- 2, 3, 5 end to end
@pytest.fixture(scope="module")
def odd_table():
    """200 rows: ``a`` separates the classes, ``b``/``c`` noise, ``const`` constant, the
    target missing on 3 rows."""
    rng = np.random.default_rng(0)
    y = np.tile([0.0, 1.0], 100)
    X = pd.DataFrame({"a": y + 0.1 * rng.normal(size=200), "b": rng.normal(size=200),
                      "const": 1.0, "c": rng.normal(size=200)})
    y[[5, 50, 150]] = np.nan
    return X, y


@pytest.fixture(scope="module")
def odd_result(odd_table):
    X, y = odd_table
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = featsieve.compare(X, y, methods=["cc"], estimator="tree", task="classification",
                              n_repeats=3, n_jobs=1)
    return r, caught


def test_constant_column_is_out_of_the_count_and_all_and_named_once(odd_result):
    r, caught = odd_result
    assert r.n_features == 3
    row = {x["method"]: x for x in r.rows}
    assert row["all"]["n_selected"] == 3 and "const" not in row["all"]["repeats"][0]["selected"]
    assert [n for n in r.notes if "const" in n] == [
        "constant, left out (not counted as features): const"]
    assert not [w for w in caught if issubclass(w.category, ConstantFeatureWarning)
                and "'const'" in str(w.message)]


def test_missing_target_is_in_the_notes(odd_result):
    r, _ = odd_result
    assert "target missing on 3 of 200 rows; those rows are left out" in r.notes
    assert r.n_samples == 197


def test_equal_differences_name_the_sign_test(odd_result):
    r, _ = odd_result
    base = {x["method"]: x for x in r.rows}["baseline"]
    assert base["diff_test"] == "sign" and base["p_value"] == 0.25
    assert base["diff_ci"][0] == base["diff_ci"][1] == base["diff_vs_all"]
    line = [n for n in r.notes if n.startswith("baseline:")]
    assert line == [f"baseline: all 3 paired differences to all features equal "
                    f"({base['diff_vs_all']:+.3g}), no interval; sign test p = 0.25 (too few "
                    "repeats to call it)"]


def test_cli_shows_all_equal_not_plus_minus_zero():
    assert _pm(-0.281, 0.0, sign=True, repeats=3) == "-0.281 (all equal)"
    assert _pm(0.7191, 0.0, repeats=1) == "0.7191"
    assert _pm(0.7191, 0.02, repeats=3) == "0.7191 ± 0.02"


def test_left_out_and_missing_target_in_notes_json_and_stderr_once(tmp_path, capsys,
                                                                      monkeypatch, odd_table):
    X, y = odd_table
    path = tmp_path / "t.csv"
    X.assign(target=y).to_csv(path, index=False)
    line = "left out mi: estimated ~99 s, far beyond the others' median of ~1 s"
    monkeypatch.setattr(_compare, "default_methods", lambda *a, **k: (["cc"], [line]))
    out = tmp_path / "r.json"
    assert main(["compare", str(path), "-t", "target", "--model", "tree", "--repeats", "3",
                 "--n-jobs", "1", "--json", str(out)]) == 0
    cap = capsys.readouterr()
    notes = json.loads(out.read_text())["notes"]
    assert line in notes and "target missing on 3 of 200 rows; those rows are left out" in notes
    assert cap.err.count(line) == 1 and cap.err.count("is missing on 3 of 200") == 1
    assert f"note: {line}" in cap.out


def test_left_out_warning_is_kept(monkeypatch, odd_table):
    X, y = odd_table
    monkeypatch.setattr(_compare, "default_methods",
                        lambda *a, **k: (["cc"], ["left out mi: too slow here"]))
    with pytest.warns(LeftOutWarning, match="left out mi"):
        r = featsieve.compare(X, y, estimator="tree", task="classification", n_repeats=2,
                              n_jobs=1)
    assert "left out mi: too slow here" in r.notes


# ------------------------------------------------------------- 4. the k grid's top
def test_k_at_the_top_of_the_grid_in_every_repeat_is_a_note():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = X[:, :4] @ np.array([3.0, 3.0, 3.0, 3.0]) + 0.1 * rng.normal(size=300)
    r = featsieve.compare(X, y, methods=["cc"], estimator="linear", n_repeats=3, n_jobs=1,
                          k_grid=[1, 2])
    row = {x["method"]: x for x in r.rows}["cc"]
    assert row["k_at_top"] == 2 and row["tuned"] == "k=2"
    assert ("cc: tuned k at the top of its grid in every repeat (largest 2; a repeat's grid "
            "ends at the columns usable in it); a larger k may score better (--k-grid 2,3,4, "
            "or k_grid= in Python)") in r.notes
    r = featsieve.compare(X, y, methods=["cc"], estimator="linear", n_repeats=3, n_jobs=1,
                          k_grid=[1, 4, 5])
    assert {x["method"]: x for x in r.rows}["cc"]["k_at_top"] is None
    assert not [n for n in r.notes if "top of its grid" in n]


def test_k_top_reads_merged_labels():
    spec = featsieve._registry.get_method("cc")

    class Fitted:
        pass

    from featsieve._registry import use_k_grid
    with use_k_grid([1, 2, 3]):
        assert _k_top(spec, Fitted(), 10, "k=2 (same as 3)") == 3
        assert _k_top(spec, Fitted(), 10, "k=2") is None


# ------------------------------------------------------------- a tiny table, one repeat
def test_thirty_rows_one_repeat_say_what_their_numbers_cannot_show():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(30, 6)), columns=list("abcdef"))
    y = pd.Series(2e8 * X["a"] + 1e8 * rng.normal(size=30) + 2e9, name="price")
    res = featsieve.compare(X, y, methods=["kbest", "cc"], n_repeats=1, random_state=0)
    assert res.split["test"] < 20
    assert any(n.startswith(f"{res.split['test']} test rows per repeat") for n in res.notes)
    rows = {r["method"]: r for r in res.rows}
    # one selection has no stability (it was 1.00): one note names both methods
    assert rows["kbest"]["stability"] is None and rows["cc"]["stability"] is None
    assert "kbest, cc: stability undefined for one selection" in " ".join(res.notes)
    assert featsieve.evaluation.nogueira_stability([[1, 0, 1]])["stability"] is None


def test_large_differences_print_in_significant_digits():
    assert _pm(2159520608.066, None, sign=True) == "+2.16e+09"
    assert _pm(-321373666.7, None, sign=True) == "-3.214e+08"
    assert _pm(0.0123, None, sign=True) == "+0.012"
