"""Real tables (issue 16): every registered method on a DataFrame with missing values, text,
categories, booleans, nullable integers and dates; the column kinds, the target rules and
the ID-column policy of the validation layer."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve._validation import (
    ColumnKindWarning,
    MissingTargetWarning,
    describe_columns,
    detect_task,
    encode_columns,
    validate_Xy,
)
from test_robustness import build, takes_k

METHODS = [m for m in featsieve.methods() if m != "all"]


def messy(n=240, seed=0):
    """A table of every kind, the class decided by 'num' and 'colour'; 5-10% missing cells."""
    rng = np.random.default_rng(seed)
    num = rng.normal(size=n)
    colour = rng.choice(["red", "green", "blue"], size=n)
    y = np.where(num + (colour == "red") * 1.5 - 0.5 + 0.3 * rng.normal(size=n) > 0, "yes", "no")
    X = pd.DataFrame({
        "num": num,
        "colour": pd.Categorical(colour),
        "flag": rng.random(n) < 0.5,
        "count": pd.array(rng.integers(0, 5, size=n), dtype="Int64"),
        "city": pd.array(rng.choice(["Oslo", "Lima", "Pune", "Kyiv"], size=n),
                         dtype="string[pyarrow]"),
        "when": pd.date_range("2021-01-01", periods=n, freq="D", tz="UTC")[rng.permutation(n)],
        "noise": rng.normal(size=n),
    })
    X.loc[rng.random(n) < 0.08, "num"] = np.nan
    X.loc[rng.random(n) < 0.05, "colour"] = np.nan
    X.loc[rng.random(n) < 0.05, "count"] = pd.NA
    X.loc[rng.random(n) < 0.05, "city"] = pd.NA
    X.loc[rng.random(n) < 0.05, "when"] = pd.NaT
    return X, pd.Series(y, name="target")


def test_messy_table_kinds():
    X, _ = messy()
    desc = describe_columns(X)
    assert list(desc.kinds) == ["numeric", "categorical", "boolean", "numeric", "categorical",
                                "datetime", "numeric"]
    assert list(desc.categories[4]) == ["Kyiv", "Lima", "Oslo", "Pune"]
    enc = encode_columns(X, desc)
    assert np.isnan(enc[:, 0]).sum() == X["num"].isna().sum()
    assert np.isnan(enc[:, 1]).sum() == X["colour"].isna().sum()
    day = X["when"].iloc[0]
    if not pd.isna(day):
        assert enc[0, 5] == (day.tz_localize(None) - pd.Timestamp("1970-01-01")).days


MAY_SELECT_NONE = {"boruta", "knockoff"}


@pytest.mark.parametrize("name", METHODS)
def test_every_method_takes_a_messy_table(name):
    X, y = messy()
    before = X.copy()
    k = 3 if takes_k(name) else None
    sel = build(name, "classification", k=k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        sel.fit(X, y)
    pd.testing.assert_frame_equal(X, before)  # the input is unchanged
    # all-relevant / FDR-controlled selections may be empty on 80 rows; the others keep some
    assert sel.n_features_selected_ >= (0 if name in MAY_SELECT_NONE else 1)
    assert set(sel.get_feature_names_out()) <= set(X.columns)
    assert list(sel.columns_.kinds)[1] == "categorical"
    # new rows: NaN everywhere it can be, and a category never seen in training
    new = X.head(6).copy()
    new["city"] = pd.array(["Rome", None, "Oslo", "Lima", None, "Pune"], dtype="string[pyarrow]")
    new["colour"] = pd.Categorical(["red", None, "green", "blue", "red", "red"])
    new.loc[new.index[:3], "num"] = np.nan
    out = sel.transform(new)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(sel.get_feature_names_out())
    for c in out.columns:
        assert out[c].dtype == new[c].dtype
    if "colour" in out.columns:
        assert out["colour"].dtype == "category"


def test_informative_categorical_column_found():
    X, y = messy(n=400)
    for score in ("mi", "cc"):
        sel = featsieve.UnivariateFilter(score, n_features_to_select=2, random_state=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            sel.fit(X, y)
        assert set(sel.get_feature_names_out()) == {"num", "colour"}, score


def test_missing_strategy_per_method():
    X, y = messy()
    lgbm = featsieve.make_selector("embedded", task="classification", random_state=0)
    assert lgbm._missing_strategy() == "native"  # LightGBM takes NaN
    from sklearn.linear_model import LogisticRegression

    lin = featsieve.EmbeddedSelector(LogisticRegression())
    assert lin._missing_strategy() == "impute"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lin.fit(X, y)
    at = {int(j): i for i, j in enumerate(lin._fit_index)}  # input column -> fit column
    fill = lin._missing_fill
    assert fill[at[1]] == 3  # colour's missing rows: a category of their own (codes 0..2 seen)
    assert fill[at[0]] == pytest.approx(np.nanmedian(X["num"]))


def test_numbers_stored_as_text_read_and_named():
    X = pd.DataFrame({"price": ["1.5", "?", "3", "4.25"] * 10,
                      "eu": ["1,5", "2,0", "", "3,75"] * 10})
    with pytest.warns(ColumnKindWarning, match="'price'.*numbers stored as text"):
        desc = describe_columns(X)
    assert list(desc.kinds) == ["numeric", "numeric"]
    enc = encode_columns(X, desc)
    np.testing.assert_array_equal(enc[:4, 0], [1.5, np.nan, 3, 4.25])
    np.testing.assert_array_equal(enc[:4, 1], [1.5, 2.0, np.nan, 3.75])
    desc = describe_columns(X, categorical=["price"], warn=False)
    assert desc.kinds[0] == "categorical"


def test_refused_kind_named():
    X = pd.DataFrame({"a": np.arange(30.0), "dur": pd.to_timedelta(np.arange(30), unit="s")})
    with pytest.raises(ValueError, match="'dur'.*total_seconds"):
        describe_columns(X)
    with pytest.raises(ValueError, match="'zzz'"):
        describe_columns(X[["a"]], categorical=["zzz"])


@pytest.mark.parametrize("col", [
    np.random.default_rng(0).permutation(60) + 1,    # R's rownames, rows in another order
    np.arange(100, 160),                              # a saved pandas index after filtering
    [f"P{i:03d}" for i in range(60)],                 # text codes
])
def test_id_like_column_left_out(col):
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"rownames": col, "x": rng.normal(size=60), "z": rng.normal(size=60)})
    y = (X["x"] > 0).astype(int)
    with pytest.warns(ColumnKindWarning, match="'rownames'.*ID-like"):
        sel = featsieve.UnivariateFilter("cc", n_features_to_select=2).fit(X, y)
    assert not sel.support_[0] and sel.columns_.left_out[0]
    keep = {"categorical" if isinstance(col[0], str) else "numeric": ["rownames"]}
    kept = featsieve.UnivariateFilter("cc", n_features_to_select=3).fit(X, y, **keep)
    assert kept.support_[0] and not kept.columns_.left_out[0]


def test_named_id_and_float_columns():
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"PassengerId": rng.permutation(50) * 7, "x": rng.normal(size=50)})
    assert list(describe_columns(X, warn=False).left_out) == [True, False]


def test_missing_target_rows_left_out_with_one_warning():
    X, y = messy(n=60)
    y = y.copy()
    y.iloc[[3, 7, 11]] = None
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        data = validate_Xy(X, y)
    miss = [w for w in rec if issubclass(w.category, MissingTargetWarning)]
    assert len(miss) == 1 and "3 of 60" in str(miss[0].message)
    assert data.X.shape[0] == 57 and len(data.y) == 57
    assert data.table.shape[0] == 57


def test_target_rules():
    assert detect_task(np.array([True, False] * 10)) == "classification"
    assert detect_task(pd.array(["a", "b"] * 10, dtype="string[pyarrow]")) == "classification"
    balance = np.random.default_rng(0).integers(0, 2000, size=400)  # Credit's Balance
    assert detect_task(balance) == "regression"
    assert detect_task(balance, "classification") == "classification"
    assert detect_task(np.arange(400) % 10) == "classification"
    y = pd.Series(pd.array([1, 2, None, 1] * 10, dtype="Int64"))
    with pytest.warns(MissingTargetWarning):
        data = validate_Xy(np.random.default_rng(0).normal(size=(40, 2)), y)
    assert data.task == "classification" and len(data.y) == 30


def test_nan_handled_for_numpy_input():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 4))
    y = (X[:, 0] > 0).astype(int)
    X[::7, 0] = np.nan
    sel = featsieve.UnivariateFilter("cc", n_features_to_select=1).fit(X, y)
    assert sel.support_[0]
    assert sel.columns_.n_missing[0] == 12


def test_column_groups_kept_or_dropped_together():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(120, 5)), columns=list("abcde"))
    y = (X["a"] > 0).astype(int)
    sel = featsieve.UnivariateFilter("cc", n_features_to_select=1).fit(
        X, y, column_groups={"ad": ["a", "d"], "be": ["b", "e"]})
    assert list(sel.get_feature_names_out()) == ["a", "d"]
    assert sel.support_at(n_features=2)[[0, 3]].all()
    table = sel.scores_table()
    assert table.loc[table["column"] == "d", "group"].item() == "ad"
    assert str(table["rank"].dtype) == "Int64" and table["rank"].min() == 1  # whole ranks
    with pytest.raises(ValueError, match="'zz'"):
        featsieve.UnivariateFilter("cc").fit(X, y, column_groups={"g": ["a", "zz"]})


@pytest.mark.parametrize("name", ["gbmo", "fastener", "hsic-lasso"])
def test_column_groups_close_path_cuts(name):
    X, y = messy()
    sel = build(name, "classification", k=2 if takes_k(name) else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        sel.fit(X, y, column_groups={"place": ["city", "when"]})
    s = sel.get_support()
    assert s[4] == s[5]
    cut = featsieve.get_method(name).tuning.cut
    value = {"slack": 0.05}.get(cut, 1)
    s = sel.support_at(**{cut: value})
    assert s[4] == s[5]


def test_bundled_messy_tables():
    from featsieve.datasets import load_auto_mpg, load_penguins

    b = load_penguins()
    assert b.data.shape == (344, 7) and "CC0" in b.DESCR
    assert int(b.data["sex"].isna().sum()) == 11
    X, y = load_auto_mpg(return_X_y=True)
    assert X.shape == (398, 8) and y.name == "mpg" and int(X["horsepower"].isna().sum()) == 6
    desc = describe_columns(X, warn=False)
    assert desc.kinds[list(X.columns).index("origin")] == "categorical"
    assert validate_Xy(X, y).task == "regression"


def test_cli_compare_penguins(capsys):
    from featsieve.cli import main

    rc = main(["compare", "penguins", "--target", "species", "-m", "mi,cc,embedded", "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "penguins: 344 rows x 7 columns, classification" in out
    assert "embedded" in out


@pytest.mark.parametrize("family", ["classic", "mask", "genetic", "kernel", "pca"])
def test_every_family_states_its_handling(family):
    import importlib

    doc = importlib.import_module(f"featsieve.{family}").__doc__
    assert "Real tables" in doc and "missing" in doc


def test_strategy_declared_for_every_method():
    for name in METHODS:
        spec = featsieve.get_method(name)
        sel = featsieve.make_selector(name, task=spec.tasks[0], random_state=0)
        assert sel._missing in ("impute", "native", "model"), name
        assert sel._missing_strategy() in ("impute", "native"), name


@pytest.mark.parametrize("name", ["fastener", "dt-forward"])
def test_genetic_regression_with_missing_values(name):
    X, _ = messy()
    y = X["noise"].fillna(0) * 2 + np.nan_to_num(X["num"].to_numpy(dtype=float))
    sel = build(name, "regression", k=None)
    # a budget that leaves the start (the first column in the canonical order, 'city')
    sel.set_params(**{p: v for p, v in {"n_generations": 10, "max_evaluations": 600}.items()
                      if p in sel.get_params()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        sel.fit(X, y)
    assert np.isfinite(getattr(sel, "feature_weights_", np.zeros(1))).all()
    assert {"num", "noise"} & set(sel.get_feature_names_out())


def test_a_column_that_gives_the_target_is_named_as_a_leak():
    """Titanic's ``alive`` beside ``survived``: a text copy of the target (with a missing
    cell) gets one TargetLeakWarning; a merely informative column does not."""
    import warnings

    import featsieve
    from featsieve._validation import target_copies

    rng = np.random.default_rng(0)
    n = 300
    df = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    y = (df.a > 0).astype(int)
    df["alive"] = np.where(y == 1, "yes", "no")
    df.loc[3, "alive"] = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        featsieve.compare(df, y, methods=["cc"], estimator="tree", n_repeats=2)
    leaks = [str(w.message) for w in caught if w.category is featsieve.TargetLeakWarning]
    assert len(leaks) == 1 and "'alive'" in leaks[0] and "--drop alive" in leaks[0]
    X = np.column_stack([df.a, df.b, np.round(df.a * 3)])  # 'a' decides y but is near unique
    assert target_copies(X, y.to_numpy(), "classification") == []
    yr = 2 * df.a.to_numpy() + 1
    assert target_copies(X, yr, "regression") == [0]
