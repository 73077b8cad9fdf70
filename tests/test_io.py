"""Input formats: CSV, Parquet, pandas and polars (through narwhals) give the same results."""

import json
import re

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve._validation import to_pandas, validate_Xy
from featsieve.cli import main
from featsieve.io import data_fingerprint, read_table

pl = pytest.importorskip("polars")


def _table(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    df = pd.DataFrame(X, columns=[f"col {i}" for i in range(6)])
    df["count"] = rng.integers(0, 5, size=n)  # an integer column
    df["label"] = np.where(X[:, 1] - X[:, 3] > 0, "pos", "neg")
    return df


def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "repeats")} for r in rows]


def test_to_pandas_leaves_numpy_and_pandas_alone():
    a = np.zeros((3, 2))
    df = pd.DataFrame(a)
    assert to_pandas(a) is a and to_pandas(df) is df and to_pandas([1, 2]) == [1, 2]


def test_polars_frame_becomes_the_same_pandas_frame():
    df = _table()
    got = to_pandas(pl.from_pandas(df))
    assert isinstance(got, pd.DataFrame)
    pd.testing.assert_frame_equal(got, df, check_dtype=False)
    s = to_pandas(pl.from_pandas(df["label"]))
    assert isinstance(s, pd.Series) and s.tolist() == df["label"].tolist()


def test_validate_polars_equals_pandas():
    df = _table()
    X, y = df.drop(columns="label"), df["label"]
    a = validate_Xy(X, y)
    b = validate_Xy(pl.from_pandas(X), pl.from_pandas(y))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert b.feature_names == list(X.columns) and list(b.classes) == ["neg", "pos"]


def test_selector_on_polars_finds_the_informative_columns():
    df = _table(n=300)
    X, y = df.drop(columns="label"), df["label"]
    sel = featsieve.UnivariateFilter("cc", n_features_to_select=2)
    sel.fit(pl.from_pandas(X), pl.from_pandas(y))
    assert list(sel.get_feature_names_out()) == ["col 1", "col 3"]
    ref = featsieve.UnivariateFilter("cc", n_features_to_select=2).fit(X, y)
    np.testing.assert_array_equal(sel.scores_, ref.scores_)


def test_compare_polars_equals_pandas():
    df = _table()
    X, y = df.drop(columns="label"), df["label"]
    kw = dict(methods=["cc", "embedded"], estimator="tree", n_repeats=2, n_jobs=1)
    a = featsieve.compare(X, y, **kw)
    b = featsieve.compare(pl.from_pandas(X), pl.from_pandas(y), **kw)
    assert _strip(a.rows) == _strip(b.rows)
    assert a.fingerprint == b.fingerprint


def test_fingerprint_identifies_content():
    df = _table()
    X, y = df.drop(columns="label"), df["label"]
    fp = data_fingerprint(X, y)
    assert fp["rows"] == 120 and fp["columns"] == 7 and len(fp["sha256"]) == 64
    assert data_fingerprint(X.astype(float), y) == fp  # int vs float storage: same data
    X2 = X.copy()
    X2.iloc[5, 2] += 1e-9
    assert data_fingerprint(X2, y)["sha256"] != fp["sha256"]
    assert data_fingerprint(X.rename(columns={"col 0": "c0"}), y)["sha256"] != fp["sha256"]
    assert data_fingerprint(X, y.iloc[::-1].to_numpy())["sha256"] != fp["sha256"]


def _run_cli(args, capsys):
    rc = main(args + ["--quiet"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return out


def test_cli_compare_parquet_gives_the_same_table_as_csv(tmp_path, capsys):
    df = _table(n=160)
    csv, pq = tmp_path / "t.csv", tmp_path / "t.parquet"
    df.to_csv(csv, index=False)
    df.to_parquet(pq, index=False)
    pd.testing.assert_frame_equal(read_table(pq), read_table(csv))
    outs, jsons = [], []
    for path in (csv, pq):
        js = tmp_path / f"{path.suffix[1:]}.json"
        outs.append(_run_cli(["compare", str(path), "--target", "label", "--methods",
                              "cc,forward,embedded", "--model", "tree", "--repeats", "2",
                              "--n-jobs", "1", "--json", str(js)],
                             capsys))
        jsons.append(json.loads(js.read_text()))
    # same printed table once the file name and the wall-clock column are masked
    def mask(text):
        lines = text.replace("t.parquet", "t.csv").replace("parquet.json", "csv.json").splitlines()
        return [re.sub(r"\s+\d+\.\d\d(\s+\d+\s+[^.]*)$", r" <s>\1", ln) for ln in lines]

    assert mask(outs[0]) == mask(outs[1])
    assert len([ln for ln in outs[0].splitlines() if ln.startswith(("cc", "forward"))]) == 2
    assert _strip(jsons[0]["results"]) == _strip(jsons[1]["results"])
    assert jsons[0]["fingerprint"] == jsons[1]["fingerprint"]


def test_a_target_name_with_spaces_around_it_is_suggested(tmp_path):
    """UCI Adult's header has a space before each name: '--target Y' points to ' Y'."""
    from featsieve.io import load_data

    path = tmp_path / "sp.csv"
    path.write_text("a, Y\n1,x\n2,y\n3,x\n")
    with pytest.raises(ValueError, match=r"did you mean ' Y'\? \(--target ' Y'\)"):
        load_data(str(path), target="Y")


def test_compare_and_audit_fingerprint_one_table_alike(tmp_path, capsys):
    df = _table(n=150)
    df["colour"] = np.where(df["col 2"] > 0, "red", None)  # text with missing cells
    df["n"] = pd.array(np.where(df["col 4"] > 1, pd.NA, df["count"]), dtype="Int64")
    csv, pq = tmp_path / "t.csv", tmp_path / "t.parquet"
    df.to_csv(csv, index=False)
    df.to_parquet(pq, index=False)
    prints = []
    for path in (csv, pq):
        for cmd in (["compare", str(path), "--methods", "cc", "--repeats", "2"],
                    ["audit", str(path), "--method", "cc", "--noise-features", "10"]):
            js = tmp_path / f"{cmd[0]}.json"
            _run_cli(cmd + ["--target", "label", "--model", "tree", "--n-jobs", "1", "-q",
                            "--json", str(js)], capsys)
            prints.append(json.loads(js.read_text())["fingerprint"])
    assert prints[0]["rows"] == 150 and prints[0]["columns"] == 9
    assert all(p == prints[0] for p in prints)  # CSV (floats) and Parquet (Int64) alike
