"""Three faults a new user met: near-unique ID columns (Ames' ``Id`` with repeated rows, a text
``customer_id`` with one repeated value), ``?`` and padded text in categorical columns (UCI
Adult), and mutual information favouring many-level categorical columns by chance."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import mutual_info_classif

import featsieve
from featsieve._validation import ColumnKindWarning, describe_columns, encode_columns
from featsieve.scores import mutual_info_scores


def _ames_like(seed=0):
    rng = np.random.default_rng(seed)
    n = 1460
    X = pd.DataFrame({
        "Id": np.arange(1, n + 1),
        "LotArea": rng.normal(10000, 2000, n).round(),
        "OverallQual": rng.integers(1, 11, n),
        "income": (rng.lognormal(10, 1.5, n)).round().astype(int),
    })
    X = pd.concat([X, X.iloc[:9]], ignore_index=True)  # 9 duplicated rows: 1,469 rows
    y = 20000 * X["OverallQual"] + 3 * X["LotArea"] + rng.normal(0, 1000, len(X))
    return X, y


def test_near_unique_id_columns_are_left_out_with_the_warning():
    X, y = _ames_like()
    n = len(X)
    assert X["Id"].nunique() == n - 9 and X["income"].nunique() / n >= 0.98
    ids = [f"C{i:05d}" for i in range(n)]
    ids[5] = ids[4]  # one repeated value
    X["customer_id"] = ids
    with pytest.warns(ColumnKindWarning, match=r"'Id'.*'customer_id'.*ID-like"):
        desc = describe_columns(X)
    left = dict(zip(desc.names, desc.left_out, strict=True))
    assert left == {"Id": True, "LotArea": False, "OverallQual": False, "income": False,
                    "customer_id": True}
    assert "98%" in desc.notes[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = featsieve.UnivariateFilter("mi", n_features_to_select=2, random_state=0).fit(X, y)
    kept = set(np.asarray(X.columns)[sel.get_support()])
    assert kept.isdisjoint({"Id", "customer_id"})


@pytest.mark.parametrize("name, values, expected", [
    ("row num", lambda n: np.r_[np.arange(n - 5), np.arange(5)], True),   # named, repeats
    ("code", lambda n: np.r_[np.arange(n - 5), np.arange(5)] + 1000, True),  # near range
    ("income", lambda n: np.r_[np.arange(n - 5), np.arange(5)] * 37 + 11, False),  # spread
    ("id", lambda n: np.r_[np.arange(n - 5), np.arange(5)] + 0.5, False),  # fractions
    ("key", lambda n: np.r_[np.arange(n - 20), np.arange(20)], False),  # below 98% distinct
])
def test_near_unique_rule(name, values, expected):
    n = 500
    desc = describe_columns(pd.DataFrame({name: values(n)}), warn=False)
    assert bool(desc.left_out[0]) is expected


def test_text_id_and_row_number_are_not_reported_as_copies():
    rng = np.random.default_rng(1)
    n = 200
    X = pd.DataFrame({"row num": np.arange(n), "customer_id": [f"C{i:04d}" for i in range(n)],
                      "a": rng.normal(size=n), "b": rng.normal(size=n)})
    y = (X["a"] > 0).astype(int)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        sel = featsieve.UnivariateFilter("mi", n_features_to_select=1, random_state=0).fit(X, y)
    assert not [w for w in rec if issubclass(w.category, featsieve.DuplicateFeatureWarning)]
    assert (sel.duplicate_of_ == -1).all()
    assert list(sel.columns_.left_out) == [True, True, False, False]


def test_question_marks_and_padded_text_in_categories():
    work = [" Private", "Private", " ?", "?", " Self-emp", "Self-emp ", "  ", None] * 5
    X = pd.DataFrame({"workclass": work})
    desc = describe_columns(X, warn=False)
    assert desc.kinds[0] == "categorical"
    assert list(desc.categories[0]) == ["Private", "Self-emp"]
    enc = encode_columns(X, desc)[:8, 0]
    np.testing.assert_array_equal(enc, [0, 0, np.nan, np.nan, 1, 1, np.nan, np.nan])
    data = featsieve._validation.validate_Xy(X, np.arange(40) % 2)
    assert data.columns.n_missing[0] == 20
    assert X["workclass"].iloc[0] == " Private"  # the caller's table is not modified


def _mi_table(seed=0):
    rng = np.random.default_rng(seed)
    n = 600
    y = rng.integers(0, 2, n)
    signal = np.where(rng.random(n) < 0.8, y, 1 - y) + 2 * rng.integers(0, 2, n)  # 4 levels
    noise = rng.integers(0, 334, n)  # a random many-level categorical
    numeric = y + rng.normal(0, 0.7, n)
    return np.column_stack([signal, noise, numeric]).astype(float), y


def test_mi_of_a_many_level_random_categorical_is_near_zero():
    X, y = _mi_table()
    disc = np.array([True, True, False])
    mi = mutual_info_scores(X, y, random_state=0, discrete=disc)
    # the random column's counted MI beats the real signals; adjusted it is ~0
    counted = mutual_info_classif(X, y, discrete_features=disc, random_state=0)
    assert counted[1] > counted[0] and counted[1] > counted[2]
    assert mi[1] < 0.03
    assert mi[0] > 0.15 and mi[2] > 0.15 and mi[1] < min(mi[0], mi[2])
    assert mi[2] == pytest.approx(counted[2])  # numeric columns: the k-NN estimator as is
    np.testing.assert_array_equal(mi, mutual_info_scores(X, y, random_state=0, discrete=disc))
    np.testing.assert_array_equal(
        mi, mutual_info_scores(X, y, random_state=0, discrete=disc, n_jobs=2))


def test_mi_filter_prefers_the_real_signal_over_a_many_level_category():
    X, y = _mi_table(1)
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"signal": [f"s{int(v)}" for v in X[:, 0]],
                       "ticket": [f"T{int(v)}" for v in X[:, 1]],
                       "pad": rng.normal(size=len(y))})
    sel = featsieve.UnivariateFilter("mi", n_features_to_select=1, random_state=0).fit(df, y)
    assert list(df.columns[sel.get_support()]) == ["signal"]


def test_mi_adjustment_for_a_numeric_target():
    rng = np.random.default_rng(0)
    n = 600
    signal, noise = rng.integers(0, 4, n), rng.integers(0, 334, n)
    y = signal + rng.normal(0, 1, n)
    X = np.column_stack([signal, noise]).astype(float)
    mi = mutual_info_scores(X, y, task="regression", random_state=0,
                            discrete=np.array([True, True]))
    assert mi[0] > 0.3 and mi[1] < 0.03


def test_compare_says_a_split_constant_column_is_constant_in_a_repeat_only():
    """A column with one rare value is constant in some training rows only: compare's
    warning says so (a repeat's training rows), not that it is never selected."""
    import featsieve
    from featsieve._validation import ConstantFeatureWarning

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 4)), columns=list("abcd"))
    X["rare"] = 0.0
    X.loc[3, "rare"] = 1.0
    y = (X.a > 0).astype(int)
    with pytest.warns(ConstantFeatureWarning) as rec:
        featsieve.compare(X, y, methods=["cc"], n_repeats=3)
    texts = [str(w.message) for w in rec if issubclass(w.category, ConstantFeatureWarning)]
    assert texts and all("in its training rows" in t and "never" not in t for t in texts)
    assert any("'rare'" in t for t in texts)


def test_mi_regression_with_a_categorical_column_of_single_rows_scores_it_zero():
    """Cars93's `Model` (every level once) made scikit-learn's estimator raise on a
    regression target; it scores 0 and the other columns keep their scores."""
    rng = np.random.default_rng(0)
    n = 60
    X = np.column_stack([np.arange(n, dtype=float),  # codes: every level seen once
                         rng.integers(0, 3, n).astype(float), rng.normal(size=n)])
    y = X[:, 2] * 2 + 0.1 * rng.normal(size=n)
    disc = np.array([True, True, False])
    s = mutual_info_scores(X, y, task="regression", random_state=0, discrete=disc)
    assert s[0] == 0.0 and s[2] > 0.5
    ref = mutual_info_scores(X[:, 1:], y, task="regression", random_state=0,
                             discrete=disc[1:])
    np.testing.assert_allclose(s[1:], ref)
