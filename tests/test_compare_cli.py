import json

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve.cli import main
from featsieve.protocol import honest_split


def test_honest_split_parts_disjoint_and_stratified():
    y = np.array([0] * 120 + [1] * 80)
    s = honest_split(y, "classification", random_state=0)
    parts = [s.train, s.selection_val, s.model_val, s.test]
    allidx = np.concatenate(parts)
    assert len(np.unique(allidx)) == len(y) == len(allidx)
    assert [len(p) for p in parts] == [90, 60, 20, 30]
    for p in parts:
        assert abs(y[p].mean() - 0.4) < 0.06
    s2 = honest_split(y, "classification", random_state=0)
    np.testing.assert_array_equal(s.test, s2.test)


def test_compare_rows_and_schema(sonar):
    X, y = sonar
    kw = dict(methods=["cc", "forward", "embedded"], estimator="tree", n_repeats=2, n_jobs=1)
    r = featsieve.compare(X, y, dataset="sonar", **kw)
    d = r.to_dict()
    assert d["task"] == "classification" and d["metric"] == "accuracy"
    assert [x["method"] for x in d["results"]] == ["all", "cc", "forward", "embedded"]
    assert d["baseline"]["method"] == "baseline" and d["baseline"]["n_selected"] == 0
    for row in d["results"]:
        for rep in row["repeats"]:
            assert len(rep["selected"]) == rep["n_selected"]
            assert 0 <= rep["test_score"] <= 1
        assert row["n_selected_mean"] == pytest.approx(np.mean([x["n_selected"]
                                                                for x in row["repeats"]]))
        assert row["n_selected"] == len(row["selected"]) > 0
        m = round(float(np.median([x["n_selected"] for x in row["repeats"]])))
        assert row["selected"] == list(row["selection_frequency"])[:m]  # most often kept
    fwd = d["results"][2]["repeats"][0]  # the first repeat's selector is kept
    assert fwd["selection_score"] == pytest.approx(r.selectors["forward"].selection_score_)
    assert fwd["gap"] == pytest.approx(fwd["selection_score"] - fwd["test_score"])
    assert fwd["model_fits"] == r.selectors["forward"].n_model_fits_
    again = featsieve.compare(X, y, **kw)
    assert [x["selection_frequency"] for x in again.to_dict()["results"]] == \
        [x["selection_frequency"] for x in d["results"]]


def test_compare_regression_metric():
    from featsieve.datasets import load_residential_building

    X, y = load_residential_building(return_X_y=True)
    r = featsieve.compare(X, y, methods=["cc"], estimator="linear", n_repeats=2, n_jobs=1)
    assert r.task == "regression" and r.metric == "mse" and not r.greater_is_better
    assert all(np.isfinite(x["test_score"]) for x in r.rows)
    base = r.rows[1]  # the mean's MSE: far worse than the linear model on all columns
    assert base["method"] == "baseline" and base["test_mean"] > r.rows[0]["test_mean"]


def _user_csv(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    df = pd.DataFrame(X, columns=[f"col {i}" for i in range(6)])
    df.insert(2, "label", np.where(X[:, 0] + X[:, 4] > 0, "yes", "no"))
    path = tmp_path / "user.csv"
    df.to_csv(path, index=False)
    return path


def test_cli_select_writes_reduced_table(tmp_path, capsys):
    path = _user_csv(tmp_path)
    before = path.read_bytes()
    out = tmp_path / "reduced.csv"
    rc = main(["select", str(path), "--target", "label", "--method", "cc", "-k", "2",
               "-o", str(out), "--quiet"])
    assert rc == 0
    d = pd.read_csv(out)
    assert list(d.columns) == ["col 0", "col 4", "label"]
    assert path.read_bytes() == before


def test_cli_refuses_to_overwrite_input(tmp_path, capsys):
    path = _user_csv(tmp_path)
    before = path.read_bytes()
    rc = main(["select", str(path), "--target", "label", "--method", "cc", "-o", str(path), "-q"])
    assert rc == 2 and path.read_bytes() == before
    assert "overwrite" in capsys.readouterr().err


@pytest.mark.parametrize("args,needle", [
    (["compare", "{csv}", "--target", "nope"], "nope"),
    (["compare", "{csv}", "--target", "label", "--methods", "bogus"], "bogus"),
    (["compare", "{missing}", "--target", "label"], "No such file"),
    (["compare", "{dir}", "--target", "label"], "directory"),
])
def test_cli_errors_one_line_exit_2(tmp_path, capsys, args, needle):
    path = _user_csv(tmp_path)
    subs = {"{csv}": str(path), "{missing}": str(tmp_path / "x.csv"), "{dir}": str(tmp_path)}
    rc = main([subs.get(a, a) for a in args] + ["--quiet"])
    err = capsys.readouterr().err
    assert rc == 2
    assert needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_cli_compare_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    rc = main(["compare", "--methods", "cc,embedded", "--model", "tree", "--repeats", "2",
               "--n-jobs", "1", "--json", str(out), "-q"])
    assert rc == 0
    r = json.loads(out.read_text())
    assert r["dataset"] == "sonar" and r["n_samples"] == 208 and r["n_features"] == 60
    assert "all features" not in capsys.readouterr().err


def test_repeats_with_audit_show_the_audit_columns(capsys):
    rc = main(["compare", "sonar", "-m", "cc", "--seeds", "2", "--audit", "--model", "tree",
               "--n-jobs", "1"])
    out = capsys.readouterr().out
    assert rc == 0 and "noise infl" in out and "nested cv" in out


def test_a_failing_method_leaves_a_failed_row_and_the_others(tmp_path, monkeypatch):
    import json

    import numpy as np

    import featsieve
    from featsieve._registry import _REGISTRY, MethodSpec
    from featsieve.classic import UnivariateFilter
    from featsieve.cli import EXIT_PARTIAL, main

    class Broken(UnivariateFilter):
        def _fit(self, X, y):
            raise RuntimeError("boom in the method\nsecond line")

    monkeypatch.setitem(_REGISTRY, "broken", MethodSpec("broken", Broken,
                                                        params={"score_func": "cc"}))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 5))
    y = (X[:, 0] > 0).astype(int)
    res = featsieve.compare(X, y, methods=["cc", "broken"], estimator="tree", n_repeats=2)
    assert [r["method"] for r in res.rows] == ["all", "baseline", "cc"]
    assert res.failed == [{"method": "broken", "failed": "RuntimeError: boom in the method"}]
    path = tmp_path / "t.csv"
    import pandas as pd

    pd.DataFrame(X, columns=list("abcde")).assign(t=y).to_csv(path, index=False)
    out = tmp_path / "r.json"
    rc = main(["compare", str(path), "--target", "t", "--methods", "cc,broken", "--model", "tree",
               "--repeats", "2", "-q", "--json", str(out)])
    assert rc == EXIT_PARTIAL
    doc = json.loads(out.read_text())
    assert doc["complete"] is False and doc["failed"][0]["method"] == "broken"
    assert [r["method"] for r in doc["results"]] == ["all", "cc"]
