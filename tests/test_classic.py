import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from featsieve import (
    EmbeddedSelector,
    ForwardSelector,
    UnivariateFilter,
    abs_correlation_scores,
    stump_gain_scores,
)


def test_stump_gain_by_hand_10_rows():
    # x sorted 1..10, y = 0 0 0 1 0 1 1 1 1 1 ; min 2 rows a side, every threshold
    x = np.arange(1, 11, dtype=float)[:, None]
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1, 1])
    # parent: p = 0.6 -> G = 2*0.6*0.4 = 0.48
    # best split x < 6: left 5 rows (1 positive, G = 2*.2*.8 = 0.32), right 5 rows pure (G = 0)
    # gain = 0.48 - (5*0.32 + 5*0)/10 = 0.32
    # x < 4 gives left 3 pure, right 7 rows with 6 positives: G = 2*(6/7)*(1/7) = 12/49
    # gain = 0.48 - 7*(12/49)/10 = 0.48 - 0.1714... = 0.3086 < 0.32
    got = stump_gain_scores(x, y, min_samples_leaf=2, thresholds="all")
    assert got[0] == pytest.approx(0.32)
    # with 6 rows a side required only x < 5 (0.48 - ...) and x < 6 ... x < 6 needs 5|5: refused
    got6 = stump_gain_scores(x, y, min_samples_leaf=6)
    assert got6[0] == 0.0
    # 4 a side: thresholds 5, 6, 7 -> best is x < 6
    assert stump_gain_scores(x, y, min_samples_leaf=4)[0] == pytest.approx(0.32)


def test_stump_gain_seed_decile_thresholds():
    # 20 distinct values -> seed candidates are the values at positions 2, 4, ..., 18
    x = np.arange(20, dtype=float)[:, None]
    y = (np.arange(20) >= 3).astype(int)  # the perfect split x < 3 is not a decile candidate
    exact = stump_gain_scores(x, y, min_samples_leaf=1, thresholds="all")[0]
    seed = stump_gain_scores(x, y, min_samples_leaf=1, thresholds="seed")[0]
    p = 17 / 20
    assert exact == pytest.approx(2 * p * (1 - p))
    assert seed < exact


def test_abs_correlation_matches_numpy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    y = X[:, 2] * 2 + rng.normal(size=50)
    want = [abs(np.corrcoef(X[:, j], y)[0, 1]) for j in range(4)]
    np.testing.assert_allclose(abs_correlation_scores(X, y), want)


def test_filter_recovers_informative_and_keeps_names():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(300, 8)), columns=[f"c{i}" for i in range(8)])
    y = np.where(X["c1"] - X["c5"] > 0, "yes", "no")
    sel = UnivariateFilter("cc", n_features_to_select=2).fit(X, y)
    assert list(sel.get_feature_names_out()) == ["c1", "c5"]
    assert list(sel.classes_) == ["no", "yes"]
    out = sel.set_output(transform="pandas").transform(X)
    assert list(out.columns) == ["c1", "c5"]


def test_purity_filter_threshold():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 5))
    y = (X[:, 0] > 0).astype(int)
    sel = UnivariateFilter("purity", threshold=0.004).fit(X, y)
    assert sel.support_[0]
    assert sel.scores_[0] > 0.3


def test_forward_selector_finds_the_signal_and_records_history():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 10))
    y = ((X[:, 4] > 0) ^ (X[:, 7] > 0.5)).astype(int)
    sel = ForwardSelector(DecisionTreeClassifier(max_depth=3, random_state=0),
                          random_state=0).fit(X, y)
    assert set(np.flatnonzero(sel.support_)) >= {4, 7}
    assert sel.history_[0]["n_candidates"] == 10
    assert sel.n_model_fits_ == sum(h["n_candidates"] for h in sel.history_)
    accepted = [h["score"] for h in sel.history_ if h["accepted"]]
    assert accepted == sorted(accepted) and sel.selection_score_ == accepted[-1]


def test_forward_selector_without_early_stop_runs_every_round():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 20))
    y = (X[:, 4] > 0).astype(int)  # one column decides: later rounds cannot improve
    early = ForwardSelector(DecisionTreeClassifier(max_depth=2, random_state=0), max_rounds=15,
                            random_state=0).fit(X, y)
    full = ForwardSelector(DecisionTreeClassifier(max_depth=2, random_state=0), max_rounds=15,
                           tol=None, random_state=0).fit(X, y)
    assert early.support_.sum() < 15
    # seed 001 Table 4's DT-forward count: 15 full rounds over d columns = 15 d - 105
    assert full.support_.sum() == 15 and full.n_model_fits_ == 15 * 20 - 105
    assert all(h["accepted"] for h in full.history_)
    assert full.ranking_[4] == 1


def test_forward_selector_n_jobs_identical():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 12))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    a = ForwardSelector(random_state=5, n_jobs=1).fit(X, y)
    b = ForwardSelector(random_state=5, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.support_, b.support_)
    assert a.history_ == b.history_


def test_mi_filter_n_jobs_identical(sonar):
    X, y = sonar
    a = UnivariateFilter("mi", n_features_to_select=10, random_state=0, n_jobs=1).fit(X, y)
    b = UnivariateFilter("mi", n_features_to_select=10, random_state=0, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.support_, b.support_)


def test_embedded_shares_sum_to_one_and_threshold():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 6))
    y = (X[:, 2] > 0).astype(int)
    sel = EmbeddedSelector(threshold=0.01, random_state=0).fit(X, y)
    assert sel.scores_.sum() == pytest.approx(1.0)
    assert sel.ranking_[2] == 1
    np.testing.assert_array_equal(sel.support_, sel.scores_ >= 0.01)


def test_input_never_modified(sonar):
    X, y = sonar
    X_np = X.to_numpy().copy()
    X_before, y_before = X_np.copy(), y.copy()
    for sel in (UnivariateFilter("purity", threshold=0.004), ForwardSelector(random_state=0),
                EmbeddedSelector(random_state=0)):
        sel.fit(X_np, y)
    np.testing.assert_array_equal(X_np, X_before)
    pd.testing.assert_series_equal(y, y_before)
