"""Tall tables (issue 17): the stated row subsamples, and compare's shared refits.

Each scalable form is checked against the exact path where both run: the cap is
set low through ``max_samples`` so that a small table is "tall", and the
selection must be the one every row gives. Memory estimates of the capped forms
are checked against what the fit allocates (tracemalloc sees numpy's buffers).
"""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

import featsieve
from featsieve._registry import get_method, make_selector, method_cost
from featsieve._resources import ScalableFormWarning, capped_rows
from featsieve.classic import RFESelector, UnivariateFilter
from featsieve.genetic import FASTENER
from featsieve.kernel import MRMR, HSICLasso
from featsieve.mask import FLBMO, GBMO


def _data(n, d, seed=0, strong=(0, 1, 2), weights=(1.0, 0.8, 0.6)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, list(strong)] @ np.asarray(weights) + 0.3 * rng.normal(size=n) > 0.4).astype(int)
    return X, y


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScalableFormWarning)
        return fn()


def _peak(fn):
    tracemalloc.start()
    try:
        _quiet(fn)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ------------------------------------------------------------------ the subsample
def test_capped_rows_is_seeded_stratified_and_states_itself():
    y = np.r_[np.zeros(900, int), np.ones(100, int)]
    with pytest.warns(ScalableFormWarning, match=r"T: scores on a seeded stratified "
                                                 r"subsample of 200 of 1,000 rows"):
        rows, text = capped_rows("T", y, 200, auto=5, stratify=True, random_state=3)
    again, _ = _quiet(lambda: capped_rows("T", y, 200, auto=5, stratify=True, random_state=3))
    other, _ = _quiet(lambda: capped_rows("T", y, 200, auto=5, stratify=True, random_state=4))
    assert len(rows) == 200 and np.all(np.diff(rows) > 0)
    assert rows.tolist() == again.tolist() and rows.tolist() != other.tolist()
    assert y[rows].sum() == 20  # the class shares are kept
    assert text == "scores on a seeded stratified subsample of 200 of 1,000 rows"
    assert capped_rows("T", y, 1000, auto=5, stratify=True) == (None, "")
    assert capped_rows("T", y, None, auto=5, stratify=True) == (None, "")
    auto, _ = _quiet(lambda: capped_rows("T", y, "auto", auto=50, stratify=False))
    assert len(auto) == 50


# --------------------------------------------- scalable form = exact path where both run
def test_mi_filter_on_a_subsample_selects_what_every_row_selects():
    X, y = _data(3000, 12, seed=1)
    exact = UnivariateFilter("mi", n_features_to_select=3, random_state=0,
                             max_samples=None).fit(X, y)
    with pytest.warns(ScalableFormWarning, match="subsample of 800 of 3,000 rows"):
        sub = UnivariateFilter("mi", n_features_to_select=3, random_state=0,
                               max_samples=800).fit(X, y)
    assert exact.n_samples_used_ == 3000 and exact.strategy_ == ""
    assert sub.n_samples_used_ == 800
    assert np.flatnonzero(sub.support_).tolist() == np.flatnonzero(exact.support_).tolist() \
        == [0, 1, 2]
    assert not np.allclose(sub.scores_, exact.scores_)  # the scores did come from fewer rows
    # "auto" subsamples only the k-NN estimate; linear scores read every row
    assert UnivariateFilter("cc")._row_cap() is None
    assert UnivariateFilter("mi")._row_cap() == 100_000


@pytest.mark.parametrize("make", [lambda m: MRMR(3, max_samples=m),
                                  lambda m: MRMR(3, dependence="hsic", max_samples=m),
                                  lambda m: HSICLasso(3, max_samples=m, random_state=0)],
                         ids=["mrmr", "mrmr-hsic", "hsic-lasso"])
def test_kernel_selectors_on_a_subsample_select_what_every_row_selects(make):
    X, y = _data(1500, 10, seed=2)
    exact = _quiet(lambda: make(None).fit(X, y))
    with pytest.warns(ScalableFormWarning, match="subsample of 500 of 1,500 rows"):
        sub = make(500).fit(X, y)
    assert sub.n_samples_used_ == 500 and exact.n_samples_used_ == 1500
    assert "subsample of 500" in sub.strategy_
    assert set(np.flatnonzero(sub.support_)) == set(np.flatnonzero(exact.support_)) \
        == {0, 1, 2}


def test_gbmo_and_flbmo_predict_masked_copies_on_a_subsample_with_the_same_path():
    from lightgbm import LGBMClassifier

    X, y = _data(4000, 8, seed=3)
    model = LGBMClassifier(n_estimators=30, random_state=0, verbose=-1, n_jobs=1)
    Xv, yv = X[3000:], y[3000:]
    exact = GBMO(model, slack=0.01, random_state=0, max_samples=None).fit(X[:3000], y[:3000],
                                                                         X_val=Xv, y_val=yv)
    with pytest.warns(ScalableFormWarning, match="masked copies predicted on a seeded "
                                                 "stratified subsample of 400 of 1,000 rows"):
        sub = GBMO(model, slack=0.01, random_state=0, max_samples=400).fit(
            X[:3000], y[:3000], X_val=Xv, y_val=yv)
    assert sub.n_samples_used_ == 400 and exact.n_samples_used_ == 1000
    assert np.flatnonzero(sub.support_).tolist() == np.flatnonzero(exact.support_).tolist() \
        == [0, 1, 2]
    fl = _quiet(lambda: FLBMO(model, n_features_to_select=3, random_state=0,
                              max_samples=400).fit(X[:3000], y[:3000], X_val=Xv, y_val=yv))
    assert np.flatnonzero(fl.support_).tolist() == [0, 1, 2]


def test_rfe_on_a_subsample_eliminates_like_every_row():
    X, y = _data(3000, 15, seed=4)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    exact = RFESelector(tree, n_features_to_select=3, max_samples=None).fit(X, y)
    with pytest.warns(ScalableFormWarning, match="RFESelector: elimination fits on a seeded"):
        sub = RFESelector(tree, n_features_to_select=3, max_samples=600,
                          random_state=0).fit(X, y)
    assert sub.n_samples_used_ == 600 and exact.n_samples_used_ == 3000
    assert np.flatnonzero(sub.support_).tolist() == np.flatnonzero(exact.support_).tolist() \
        == [0, 1, 2]
    # the cost model reads the cap: fewer rows per fit, the same number of fits
    assert sub.estimate_cost(3000, 15).fit_seconds < exact.estimate_cost(3000, 15).fit_seconds
    assert sub.estimate_cost(3000, 15).fits == exact.estimate_cost(3000, 15).fits


def test_fastener_row_cap_keeps_the_strong_columns_and_is_off_by_default():
    X, y = _data(4000, 10, seed=5)
    kw = dict(n_generations=20, max_evaluations=80, random_state=0, select="best")
    exact = FASTENER(**kw).fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sub = FASTENER(max_samples=600, **kw).fit(X, y)
    said = [str(w.message) for w in caught if w.category is ScalableFormWarning]
    assert said == ["FASTENER: evaluations' training rows on a seeded stratified subsample of "
                    "600 of 3,200 rows.", "FASTENER: evaluations' selection-val rows on a "
                    "seeded stratified subsample of 600 of 800 rows."]
    assert exact.n_samples_used_ == 3200 and exact.strategy_ == ""
    assert sub.n_samples_used_ == 600 and "selection-val rows" in sub.strategy_
    assert {0, 1, 2} <= set(np.flatnonzero(sub.support_))
    assert {0, 1, 2} <= set(np.flatnonzero(exact.support_))
    assert get_method("fastener").build(task="classification").max_samples == "auto"


def test_cost_models_read_the_row_caps():
    tall = method_cost("mi", "classification", 1_000_000, 40)
    capped_like = method_cost("mi", "classification", 200_000, 40)
    assert tall.flops == capped_like.flops > 0  # the k-NN estimate reads 100,000 rows of both
    for name in ("gbmo", "fastener", "hsic-lasso", "mrmr"):
        a = method_cost(name, "classification", 1_000_000, 40)
        b = method_cost(name, "classification", 4_000_000, 40)
        # beyond the caps only the model fits grow with the rows
        assert b.predictions == a.predictions and b.kernel_entries == a.kernel_entries, name


def test_memory_estimates_of_capped_fits_bound_what_they_allocate():
    X, y = _data(20_000, 30, seed=6)
    table = X.nbytes  # validation's copy of the input: the table, not working memory
    for sel in (MRMR(3, max_samples=2000), HSICLasso(3, max_samples=2000, block_size=20)):
        est = sel.estimate_cost(*X.shape).memory_bytes
        peak = _peak(lambda s=sel: s.fit(X, y))
        exact = type(sel)(3, max_samples=None, block_size=20)
        full, full_peak = exact.estimate_cost(*X.shape).memory_bytes, _peak(
            lambda s=exact: s.fit(X, y))
        assert peak - table <= 1.1 * est + (1 << 20), (type(sel).__name__, peak, est)
        assert full_peak - table <= 1.1 * full + (1 << 20), (type(sel).__name__, full_peak)
        assert est < full / 4 and peak - table < (full_peak - table) / 2


# --------------------------------------------------------- compare's shared refits
class _Counting(ClassifierMixin, BaseEstimator):
    """A tree that counts its fits in a class attribute (clones share it)."""

    fits = 0

    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, X, y):
        type(self).fits += 1
        self.tree_ = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        self.feature_importances_ = self.tree_.feature_importances_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def test_refits_of_the_same_columns_are_shared_within_a_repeat():
    from featsieve.evaluation._compare import _Refits
    from featsieve.models import resolve_metric
    from featsieve.protocol import honest_split

    X, y = _data(400, 6, seed=7)
    split = honest_split(y, "classification", random_state=0)
    refits = _Refits(X, y, split, _Counting(), "classification",
                     resolve_metric(None, "classification", y), n_jobs=2)
    a = np.array([1, 1, 0, 0, 0, 0], bool)
    b = np.array([1, 1, 1, 0, 0, 0], bool)
    _Counting.fits = 0
    first = refits.score_many("model_val", [a, b, a.copy()])
    assert _Counting.fits == 2 and first[0] == first[2]
    assert refits.score("model_val", b) == first[1] and _Counting.fits == 2
    refits.score("test", a)  # another part is another refit
    assert _Counting.fits == 3


def test_compare_states_each_scalable_form_in_its_notes_and_rows():
    X, y = _data(600, 8, seed=8)
    sel = UnivariateFilter("mi", n_features_to_select=3, random_state=0, max_samples=200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = featsieve.compare(X, y, methods=[sel, "cc"], estimator="tree", n_repeats=2)
    row = next(x for x in r.rows if x["method"] == "UnivariateFilter")
    assert row["strategy"].startswith("scores on a seeded stratified subsample of 200 of")
    assert any(n.startswith("UnivariateFilter: scores on a seeded stratified subsample of 200")
               for n in r.notes)
    assert next(x for x in r.rows if x["method"] == "cc")["strategy"] == ""
    one = featsieve.compare(X, y, methods=["cc", "kbest"], estimator="tree", n_repeats=1,
                            n_jobs=1)
    two = featsieve.compare(X, y, methods=["cc", "kbest"], estimator="tree", n_repeats=1,
                            n_jobs=2)
    assert [x["test_score"] for x in one.rows] == [x["test_score"] for x in two.rows]
    assert [x["tuned"] for x in one.rows] == [x["tuned"] for x in two.rows]
    assert make_selector("mi", task="classification").max_samples == "auto"
