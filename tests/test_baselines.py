"""The seeds' baselines: FS-SDS with its ELM (seed 001), SpAM, FVM, HSIC Lasso with
covariates and NOCCO's epsilon (seed 004)."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification

from featsieve._elm import ELMClassifier, ELMRegressor
from featsieve.datasets import make_hsic_additive, make_hsic_nonadditive
from featsieve.evaluation import area_under_front
from featsieve.genetic._bitset import popcount, to_bits
from featsieve.genetic._fssds import FSSDS, _offset
from featsieve.kernel import FVM, HSICLasso, NOCCOLasso, SpAM

DATA = Path(__file__).parent / "data"


# ------------------------------------------------------------------ ELM
def test_elm_passes_sklearn_checks():
    from sklearn.utils.estimator_checks import check_estimator

    for est in (ELMClassifier(random_state=0), ELMRegressor(random_state=0)):
        failed = [r for r in check_estimator(est, on_fail=None) if r["status"] == "failed"]
        assert failed == []


def test_elm_learns_and_is_deterministic():
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, random_state=0)
    a = ELMClassifier(random_state=1).fit(X[:200], y[:200])
    b = ELMClassifier(random_state=1).fit(X[:200], y[:200])
    assert a.input_weights_.shape == (6, 160)
    np.testing.assert_array_equal(a.predict(X[200:]), b.predict(X[200:]))
    assert a.score(X[200:], y[200:]) > 0.8
    c = ELMClassifier(random_state=2).fit(X[:200], y[:200])
    assert not np.array_equal(a.input_weights_, c.input_weights_)


@pytest.mark.parametrize("n_classes", [2, 4])
def test_elm_readout_is_sklearns_ridge(n_classes):
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import LabelBinarizer

    X, y = make_classification(n_samples=120, n_features=5, n_informative=3, n_classes=n_classes,
                               random_state=3)
    elm = ELMClassifier(n_hidden=40, alpha=0.5, random_state=0).fit(X, y)
    H = elm._hidden(X)
    ref = Ridge(alpha=0.5).fit(H, LabelBinarizer().fit_transform(y).astype(float))
    np.testing.assert_allclose(elm.coef_, np.atleast_2d(ref.coef_).T, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(elm.intercept_, np.atleast_1d(ref.intercept_), atol=1e-10)
    reg = ELMRegressor(n_hidden=30, alpha=0.0, random_state=1).fit(X, X[:, 0] ** 2)
    ref = Ridge(alpha=0.0).fit(reg._hidden(X), X[:, 0] ** 2)
    np.testing.assert_allclose(reg.predict(X), ref.predict(reg._hidden(X)), atol=1e-6)


def test_make_model_elm():
    from featsieve.models import make_model

    m = make_model("elm", "classification", random_state=0)
    assert isinstance(m, ELMClassifier) and m.n_hidden == 160 and m.activation == "sigmoid"
    assert isinstance(make_model("elm", "regression"), ELMRegressor)


# --------------------------------------------------------------- FS-SDS
def test_offset_swaps_exactly_one_feature():
    rng = np.random.default_rng(0)
    bits = to_bits([1, 4, 6])
    for _ in range(20):
        new = _offset(bits, 8, rng)
        assert popcount(new) == 3
        assert popcount(new & bits) == 2  # one out, one in


def _informative_problem():
    return make_classification(n_samples=300, n_features=12, n_informative=3, n_redundant=0,
                               n_repeated=0, shuffle=False, class_sep=2.0, random_state=0)


def test_fssds_finds_the_informative_columns():
    X, y = _informative_problem()
    sel = FSSDS(sizes=[3], n_agents=10, n_iterations=15, random_state=0).fit(X, y)
    row = sel.best_per_size_.iloc[0]
    assert row["size"] == 3
    assert set(row["columns"]) == {0, 1, 2}
    assert sel.support_[:3].all()


def test_fssds_front_counts_and_auf():
    X, y = _informative_problem()
    sel = FSSDS(sizes=4, n_agents=6, n_iterations=5, random_state=0).fit(X, y)
    bp = sel.best_per_size_
    assert bp["size"].tolist() == [1, 2, 3, 4]
    # every evaluation is a distinct subset; proposals also count the cache hits and the
    # agents of one iteration that proposed the same subset
    assert sel.n_evaluations_ == bp["n_evaluations"].sum()
    assert bp["n_proposals"].sum() >= sel.n_evaluations_ + sel.n_cache_hits_
    assert bp["n_proposals"].sum() <= 4 * 6 * (5 + 1)
    assert bp.loc[0, "n_evaluations"] <= 12  # only 12 singletons exist
    # the front is the best of each size, Pareto-filtered; its AUF is the seed's
    front = dict(zip(sel.pareto_front_["size"], sel.pareto_front_["score"], strict=True))
    for k, s in zip(bp["size"], bp["score"], strict=True):
        assert s <= max(v for kk, v in front.items() if kk <= k) + 1e-12
    assert sel.auf_ == pytest.approx(area_under_front(sel.pareto_front_, 20))
    assert sel.history_[-1]["n_evaluations"] == sel.n_evaluations_


def test_fssds_deterministic_for_any_n_jobs():
    X, y = _informative_problem()
    a = FSSDS(sizes=2, n_agents=5, n_iterations=3, random_state=3, n_jobs=1).fit(X, y)
    b = FSSDS(sizes=2, n_agents=5, n_iterations=3, random_state=3, n_jobs=2).fit(X, y)
    assert a.best_per_size_.equals(b.best_per_size_)
    assert a.n_evaluations_ == b.n_evaluations_


def test_fssds_budget_and_bad_sizes():
    X, y = _informative_problem()
    sel = FSSDS(sizes=3, n_agents=5, n_iterations=10, max_evaluations=20,
                random_state=0).fit(X, y)
    assert sel.n_evaluations_ == 20
    with pytest.raises(ValueError, match="sizes"):
        FSSDS(sizes=[0, 2]).fit(X, y)


# ----------------------------------------------------------------- SpAM
def _recovery(sel_factory, maker, n, d, k, seeds):
    out = []
    for s in seeds:
        X, y, sup = maker(n_samples=n, n_features=d, random_state=s)
        out.append(sel_factory(k).fit(X, y).support_[sup].sum() / k)
    return float(np.mean(out))


def test_spam_recovers_data1_at_n200():
    # seed 004 Figure 1(a): SpAM finds the four additive features at n = 200
    assert _recovery(SpAM, make_hsic_additive, 200, 256, 4, range(3)) == 1.0


def test_spam_worse_than_hsic_lasso_on_nonadditive_data2():
    # seed 004 Figure 1(b): X1 exp(2 X2) is not additive; SpAM misses features HSIC Lasso finds
    spam = _recovery(SpAM, make_hsic_nonadditive, 150, 300, 3, range(3))
    hsic = _recovery(HSICLasso, make_hsic_nonadditive, 150, 300, 3, range(3))
    assert spam < hsic
    assert spam <= 2 / 3


def test_spam_path_and_gcv():
    X, y, sup = make_hsic_additive(n_samples=200, n_features=30, random_state=0)
    sel = SpAM().fit(X, y)  # lambda by GCV over the whole path
    assert len(sel.lambdas_) == 50 and sel.lambda_ == sel.lambdas_[np.argmin(sel.gcv_)]
    assert np.flatnonzero(sel.support_).tolist() == [0, 1, 2, 3]
    assert set(np.flatnonzero(sel.ranking_ <= 4)) == {0, 1, 2, 3}
    two = SpAM(2).fit(X, y)  # the path stops at the first lambda with two components
    assert two.support_.sum() == 2 and two.lambda_ >= sel.lambda_
    assert (two.path_norms_[:, :-1] > 0).sum(axis=0).max() < 2


def test_spam_classification_variant():
    X, y = make_classification(n_samples=200, n_features=15, n_informative=3, n_redundant=0,
                               n_classes=3, n_clusters_per_class=1, shuffle=False,
                               random_state=0)
    assert np.flatnonzero(SpAM(3).fit(X, y).support_).tolist() == [0, 1, 2]


# ------------------------------------------------------------------ FVM
def test_fvm_solves_the_fvm_program():
    """The solution satisfies eq. (2)'s constraints |D_k alpha - MI(u_k, y)| <= lambda/2,
    with equality (and the sign of alpha) on the non-zero coefficients (Li et al. Thm 1)."""
    from featsieve.kernel._baselines import _discretize, discrete_mutual_info
    from featsieve.kernel._fvm import mutual_info_matrix

    X, y, sup = make_hsic_additive(n_samples=200, n_features=40, random_state=0)
    sel = FVM(4).fit(X, y)
    Q = _discretize(X, 3)
    D = mutual_info_matrix(Q) + sel.ridge_ * np.eye(40)
    h = discrete_mutual_info(Q, _discretize(y, 3)[:, 0])
    grad = D @ sel.coef_ - h
    lam = sel.lambda_
    assert np.all(np.abs(grad) <= lam / 2 + 1e-8)
    nz = sel.coef_ != 0
    np.testing.assert_allclose(grad[nz], -np.sign(sel.coef_[nz]) * lam / 2, atol=1e-8)
    assert sel.support_.sum() == 4 and sel.support_[:4].sum() >= 2
    np.testing.assert_allclose(sel.mi_, h)


def test_fvm_runs_on_data1_and_data2():
    for maker, k in ((make_hsic_additive, 4), (make_hsic_nonadditive, 3)):
        X, y, _ = maker(n_samples=100, n_features=120, random_state=1)
        sel = FVM(k).fit(X, y)
        assert sel.support_.sum() == k
        assert sorted(sel.ranking_[sel.support_]) == list(range(1, k + 1))


def test_fvm_seed_lambda_selects_nothing_and_says_so():
    X, y, _ = make_hsic_additive(n_samples=100, n_features=20, random_state=0)
    with pytest.warns(UserWarning, match="lambda_max"):
        sel = FVM().fit(X, y)
    assert sel.support_.sum() == 0
    assert FVM(lam=0.05).fit(X, y).support_.sum() > 0


# ------------------------------------------------- HSIC Lasso covariates
def _reference_case():
    d = np.load(DATA / "pyhsiclasso_regression.npz")
    return d["X"].astype(np.float64), d["y"].astype(np.float64)


def test_hsic_covariates_equal_pyhsiclasso():
    """pyHSICLasso's own covariates test (tests/test_regression.py): covars = columns 99
    and 299 of its matlab_data.mat give [199, 1477, 1405, 1073, 1596]."""
    X, y = _reference_case()
    expected = [199, 1477, 1405, 1073, 1596]
    sel = HSICLasso(5, covariates=[99, 299]).fit(X, y)
    assert sel.selected_order_.tolist() == expected
    assert not sel.support_[[99, 299]].any()
    # the separate-array form keeps 99 and 299 as candidates, exactly as the reference
    sel2 = HSICLasso(5).fit(X, y, covariates=X[:, [99, 299]])
    assert sel2.selected_order_.tolist() == expected
    assert HSICLasso(5).fit(X, y).selected_order_.tolist() == [1099, 99, 199, 1299, 299]
    pyhsic = pytest.importorskip("pyHSICLasso")
    import contextlib
    import io

    ref = pyhsic.HSICLasso()
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref.input(X, y)
        ref.regression(5, B=0, n_jobs=1, covars=X[:, [99, 299]])
    assert ref.A == expected


def test_hsic_covariates_by_label_and_errors():
    import pandas as pd

    X, y, _ = make_hsic_additive(n_samples=80, n_features=12, random_state=0)
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(12)])
    a = HSICLasso(3, covariates=["f0", "f1"]).fit(df, y)
    b = HSICLasso(3, covariates=[0, 1]).fit(X, y)
    assert not a.support_[:2].any()
    np.testing.assert_array_equal(a.support_, b.support_)
    assert a.ranking_[:2].tolist() == [11, 11]  # after the 10 candidates
    c = HSICLasso(3, covariates=[1], covariates_kernel="delta").fit(X, y)
    assert not c.support_[1]
    with pytest.raises(ValueError, match="covariates has unknown"):
        HSICLasso(3, covariates=["nope"]).fit(df, y)
    with pytest.raises(ValueError, match="covariates has 5 rows"):
        HSICLasso(3).fit(X, y, covariates=np.zeros((5, 1)))


# ---------------------------------------------------------------- NOCCO
def test_nocco_frobenius_scale_recovers_data1():
    X, y, sup = make_hsic_additive(n_samples=150, n_features=40, random_state=0)
    a = NOCCOLasso(4, epsilon_scale="frobenius").fit(X, y)
    assert a.support_[:4].all()


def test_kbest_scores_a_text_column_whatever_its_categories_are_called():
    import pandas as pd

    from featsieve import make_selector

    rng = np.random.default_rng(0)
    n = 300
    port = rng.choice(["S", "C", "Q"], n, p=[0.7, 0.2, 0.1])
    y = ((port == "C") | (rng.random(n) < 0.3)).astype(int)
    X = pd.DataFrame({"port": port, "noise": rng.normal(size=n)})
    renamed = X.assign(port=X["port"].replace({"S": "A"}))  # S sorted last, A first
    a = make_selector("kbest", task="classification", random_state=0).fit(X, y)
    b = make_selector("kbest", task="classification", random_state=0).fit(renamed, y)
    assert a.scores_[0] == b.scores_[0] > a.scores_[1]
    # the largest F over the levels' indicators, by hand for level "C"
    from sklearn.feature_selection import f_classif

    best = max(f_classif((port == lv).astype(float)[:, None], y)[0][0] for lv in "SCQ")
    assert a.scores_[0] == pytest.approx(best, rel=1e-12)
