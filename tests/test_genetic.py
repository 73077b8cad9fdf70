import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from featsieve import FewerFeaturesWarning
from featsieve.evaluation import area_under_front
from featsieve.genetic import (
    FASTENER,
    POSS,
    BitFlipMutation,
    GenePurge,
    InformationGainCrossover,
    ParetoFront,
    RandomMatingPool,
    f1_from_labels,
    from_bits,
    half_plus_one,
    log2_plus_one,
    popcount,
    sqrt_plus_one,
    to_bits,
)
from featsieve.genetic._bitset import bits_from_mask
from featsieve.genetic._operators import FrontItem


# ------------------------------------------------------------------ bitsets
def test_bitset_is_little_endian_as_in_the_seed():
    # seed §3: "binary string 11010 represents features 0, 1 and 3 ... decimal number 11"
    assert to_bits([0, 1, 3]) == 11
    np.testing.assert_array_equal(from_bits(11, 6), [0, 1, 3])
    # adding features keeps the number
    np.testing.assert_array_equal(from_bits(11, 100), [0, 1, 3])
    assert popcount(11) == 3
    assert bits_from_mask([True, True, False, True, False, False]) == 11
    assert to_bits([]) == 0 and from_bits(0, 5).size == 0
    big = to_bits([0, 700, 9999])
    np.testing.assert_array_equal(from_bits(big, 10000), [0, 700, 9999])


# ---------------------------------------------------------------- operators
def test_gene_scalings():
    assert [half_plus_one(x) for x in (0, 1, 2, 5, 8)] == [1, 1, 2, 3, 5]
    assert [sqrt_plus_one(x) for x in (0, 1, 4, 9, 10)] == [1, 2, 3, 4, 4]
    assert [log2_plus_one(x) for x in (0, 1, 3, 7)] == [1, 2, 3, 4]


def test_crossover_intersection_plus_exact_weighted_picks():
    a = to_bits([0, 1, 2, 3, 4, 5])  # |a| = 6
    b = to_bits([0, 1, 6, 7])  # |b| = 4; XOR = {2,3,4,5,6,7}; addNum = floor(2/2)+1 = 2
    w = np.zeros(10)
    w[[4, 7]] = [0.3, 0.1]  # only two XOR genes carry information
    w[[0, 1, 8, 9]] = 5.0  # heavy genes outside the XOR must never be drawn
    cx = InformationGainCrossover()
    for seed in range(20):
        child = cx(a, b, w, np.random.default_rng(seed))
        assert child == to_bits([0, 1, 4, 7])  # intersection {0,1} + the two informative
    # order of the parents does not matter (the larger one is item1)
    assert cx(b, a, w, np.random.default_rng(0)) == to_bits([0, 1, 4, 7])


def test_crossover_picks_never_leave_the_xor_and_follow_the_weights():
    rng = np.random.default_rng(0)
    cx = InformationGainCrossover()
    w = rng.random(40)
    for _ in range(300):
        a = bits_from_mask(rng.random(40) < 0.3)
        b = bits_from_mask(rng.random(40) < 0.2)
        child = cx(a, b, w, rng)
        inter, xor = a & b, a ^ b
        assert child & inter == inter  # intersection kept
        assert child & ~(inter | xor) == 0  # nothing outside a | b
        diff = abs(popcount(a) - popcount(b))
        assert popcount(child) == popcount(inter) + min(diff // 2 + 1, popcount(xor))
    # one pick among two XOR genes with weights 3:1 -> the first in ~75% of draws
    a, b = to_bits([0, 1]), to_bits([2])  # XOR {0,1,2}: diff 1 -> addNum 1
    w = np.array([3.0, 0.0, 1.0])
    picks = [cx(a, b, w, rng) for _ in range(4000)]
    share = np.mean([p == to_bits([0]) for p in picks])
    assert set(picks) == {to_bits([0]), to_bits([2])}
    assert share == pytest.approx(0.75, abs=0.025)
    # all weights zero in the XOR: uniform, still inside
    picks = {cx(to_bits([0, 1, 2]), to_bits([3]), np.zeros(5), rng) for _ in range(200)}
    assert picks == {to_bits([k, j]) for k in range(4) for j in range(4) if k < j}


def test_identical_parents_give_the_parent():
    a = to_bits([2, 5])
    assert InformationGainCrossover()(a, a, np.ones(8), np.random.default_rng(0)) == a


def test_mutation_rate_and_exact_flips():
    n = 200
    item = to_bits([1, 2, 3])
    # a = N: every bit flips
    assert BitFlipMutation(a=n)(item, n, np.random.default_rng(0)) == ((1 << n) - 1) ^ item
    # the flips are exactly Bernoulli(a/N) draws of the generator
    got = BitFlipMutation(a=3)(item, n, np.random.default_rng(7))
    want = item ^ bits_from_mask(np.random.default_rng(7).random(n) < 3 / n)
    assert got == want
    rng = np.random.default_rng(1)
    for a in (1, 5):
        mut = BitFlipMutation(a=a)
        flips = [popcount(mut(item, n, rng) ^ item) for _ in range(3000)]
        assert np.mean(flips) == pytest.approx(a, rel=0.06)
    # a rate that changes during the run
    sched = BitFlipMutation(a=lambda gen: 1 + gen)
    assert sched.probability(n, 0) == 1 / n and sched.probability(n, 4) == 5 / n


def test_mating_pool_draws_distinct_items_and_mates_every_pair():
    pool = RandomMatingPool(3)
    pop = [to_bits([i]) for i in range(10)]
    got = pool.select(pop, np.random.default_rng(0))
    assert len(set(got)) == 3
    assert len(pool.pairs(got)) == 3
    assert pool.select(pop[:2], np.random.default_rng(0)) != []
    assert len(pool.select(pop[:2], np.random.default_rng(0))) == 2
    # with replacement (the reference's draw) the pool keeps its size on a tiny population
    assert RandomMatingPool(3, replace=True).select(pop[:1], np.random.default_rng(0)) == \
        [pop[0]] * 3


def test_pareto_front_dominance_removal():
    front = ParetoFront()
    for cols, score in [([0], 0.5), ([0, 1], 0.7), ([0, 1, 2], 0.6), ([0, 1, 2, 3], 0.9),
                        ([4, 5], 0.65), ([0, 1, 2, 3, 4], 0.9)]:
        front.offer(FrontItem(to_bits(cols), score))
    removed = front.remove_dominated()
    assert front.pairs() == [(1, 0.5), (2, 0.7), (4, 0.9)]
    assert sorted(popcount(it.bits) for it in removed) == [3, 5]
    assert front[2].bits == to_bits([0, 1])  # 0.65 < 0.7 did not replace the incumbent
    front.offer(FrontItem(to_bits([7, 8]), 0.95))  # a small item dominating larger ones
    front.remove_dominated()
    assert front.pairs() == [(1, 0.5), (2, 0.95)]
    assert front.opt(1) == 0.5 and front.opt(10) == 0.95


def test_area_under_front_hand_made():
    # opt(1..4) = 0.5, 0.5, 0.8, 0.8 -> 0.65
    assert area_under_front({1: 0.5, 3: 0.8}, max_features=4) == pytest.approx(0.65)
    # a larger but worse item changes nothing; items beyond K are ignored
    assert area_under_front([(1, 0.5), (3, 0.8), (4, 0.7), (9, 1.0)], 4) == pytest.approx(0.65)
    # no item of size 1: opt(1) = empty_score
    assert area_under_front({2: 0.6}, 3) == pytest.approx((0 + 0.6 + 0.6) / 3)
    assert area_under_front({2: 0.6}, 3, empty_score=0.1) == pytest.approx((0.1 + 1.2) / 3)
    df = pd.DataFrame({"size": [1, 3], "score": [0.5, 0.8]})
    assert area_under_front(df, 4) == pytest.approx(0.65)
    # default K = 20
    assert area_under_front({1: 1.0}) == 1.0
    with pytest.raises(ValueError, match="max_features"):
        area_under_front({1: 1.0}, 0)


def test_f1_matches_scikit_learn():
    rng = np.random.default_rng(0)
    t, p = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    assert f1_from_labels(t, p, 2, "binary") == pytest.approx(f1_score(t, p))
    t, p = rng.integers(0, 5, 300), rng.integers(0, 4, 300)
    assert f1_from_labels(t, p, 5, "macro") == pytest.approx(f1_score(t, p, average="macro"))
    assert f1_from_labels(t, p, 5, "weighted") == pytest.approx(
        f1_score(t, p, average="weighted"))


# ---------------------------------------------------------------- FASTENER
@pytest.fixture(scope="module")
def five_of_sixty():
    # the first 5 columns are informative (shuffle=False); 3 clusters per class so
    # that one or two columns are not enough
    X, y = make_classification(n_samples=1000, n_features=60, n_informative=5, n_redundant=0,
                               n_repeated=0, n_clusters_per_class=3, class_sep=1.0,
                               shuffle=False, random_state=0)
    return X, y


def test_fastener_recovers_informative_features(five_of_sixty):
    X, y = five_of_sixty
    # columns permuted so that the search's start (the first column) is noise; with this
    # permutation, random_state 0-7 give 4, 3, 4, 4, 4, 4, 4, 4 informative at size 5
    perm = np.random.default_rng(5).permutation(60)
    assert perm[0] >= 5
    sel = FASTENER(n_generations=60, random_state=0).fit(X[:, perm], y)
    front = sel.pareto_front_
    # best item with at most 5 features (the front's size-5 entry, or a smaller dominating one)
    row = front[front["size"] <= 5].iloc[-1]
    informative = set(np.flatnonzero(perm < 5))
    assert row["size"] == 5
    assert len(informative & set(row["columns"])) >= 4  # acceptance of issue 5
    assert set(np.flatnonzero(sel.support_)) & informative
    # the front is Pareto: sizes and scores both strictly increase
    assert front["size"].is_monotonic_increasing and front["score"].is_monotonic_increasing
    assert len(set(front["score"])) == len(front)
    assert sel.n_model_fits_ == sel.n_evaluations_ == sum(h["n_new"] for h in sel.history_)
    assert sel.history_[-1]["auf"] == pytest.approx(area_under_front(front))


def test_fastener_same_seed_same_front_and_n_jobs_identical(five_of_sixty):
    X, y = five_of_sixty
    kw = dict(n_generations=12, random_state=3)
    a = FASTENER(n_jobs=1, **kw).fit(X, y)
    b = FASTENER(n_jobs=2, **kw).fit(X, y)
    c = FASTENER(n_jobs=1, **kw).fit(X, y)
    pd.testing.assert_frame_equal(a.pareto_front_, b.pareto_front_)
    pd.testing.assert_frame_equal(a.pareto_front_, c.pareto_front_)
    assert a.history_ == b.history_ == c.history_
    d = FASTENER(n_generations=12, random_state=4).fit(X, y)
    assert d.history_ != a.history_


def test_float32_input_stays_float32_and_gives_the_same_front(five_of_sixty, monkeypatch):
    from featsieve.genetic import _fastener

    X, y = five_of_sixty
    X32 = X.astype(np.float32)
    seen = []
    orig = _fastener._GeneticSearch._new_search

    def spy(self, X, y, X_val, y_val, groups=None):
        seen.append(X.dtype)
        return orig(self, X, y, X_val, y_val, groups)

    monkeypatch.setattr(_fastener._GeneticSearch, "_new_search", spy)
    kw = dict(n_generations=8, random_state=0)
    a = FASTENER(**kw).fit(X32.astype(np.float64), y)
    b = FASTENER(**kw).fit(X32, y)
    pd.testing.assert_frame_equal(a.pareto_front_, b.pareto_front_)
    from sklearn.linear_model import LogisticRegression

    FASTENER(LogisticRegression(), n_generations=1, random_state=0).fit(X32, y)
    assert seen == [np.float64, np.float32, np.float64]  # float32 kept for the tree only


@pytest.mark.parametrize("carry_front", [False, True])
def test_carry_front_mutates_every_front_item_each_generation(five_of_sixty, monkeypatch,
                                                              carry_front):
    from featsieve.genetic._search import SearchState

    X, y = five_of_sixty
    fronts, inputs = [], {}
    orig = SearchState.record

    def spy(self, generation, *a, **kw):
        fronts.append(set(self.front.bits()))
        return orig(self, generation, *a, **kw)

    monkeypatch.setattr(SearchState, "record", spy)
    flip = BitFlipMutation(1.0)

    def recording(item, n, rng, gen):
        inputs.setdefault(gen, set()).add(item)
        return flip(item, n, rng, gen)

    sel = FASTENER(n_generations=12, mutation=recording, carry_front=carry_front,
                   reset_to_front=None, purge_front=None, random_state=0).fit(X, y)
    covered = [fronts[g - 1] <= inputs[g] for g in range(1, len(sel.history_))]
    assert all(covered) if carry_front else not all(covered)


def test_fastener_budget_and_cache(five_of_sixty):
    X, y = five_of_sixty
    sel = FASTENER(n_generations=500, max_evaluations=57, random_state=0).fit(X, y)
    assert sel.n_evaluations_ == 57
    assert sel.history_[-1]["n_evaluations"] == 57
    assert sel.n_cache_hits_ > 0  # carried-over items that no flip changed come back cached
    hits = sum(h["cache_hits"] for h in sel.history_)
    assert hits == sel.n_cache_hits_


def test_front_scores_are_selection_val_scores_of_a_refit(five_of_sixty):
    X, y = five_of_sixty
    Xt, yt, Xv, yv = X[:400], y[:400], X[400:], y[400:]
    tree = DecisionTreeClassifier(random_state=0)
    sel = FASTENER(tree, n_generations=6, random_state=0, tree_kernel=False).fit(
        Xt, yt, X_val=Xv, y_val=yv)
    assert sel.tree_kernel_ == "estimator"
    for _, row in sel.pareto_front_.iterrows():
        cols = list(row["columns"])
        m = DecisionTreeClassifier(random_state=0).fit(Xt[:, cols], yt)
        assert row["score"] == pytest.approx(f1_score(yv, m.predict(Xv[:, cols])))
        assert row["bits"] == to_bits(cols)


def test_purge_drops_the_gene_whose_permutation_costs_least():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] > 0).astype(int)
    # one item {0, 3}: no flips (a=0), a single item cannot mate; generation 1 purges
    sel = FASTENER(n_generations=1, mutation=BitFlipMutation(a=0), initial=[[0, 3]],
                   purge_front=1, reset_to_front=1, random_state=0).fit(X, y)
    assert sel.n_evaluations_ == 2  # the item and its purged child {0}
    assert sel.n_permutation_predictions_ == 2
    assert sel.pareto_front_["columns"].tolist()[0] == (0,)
    assert sel.history_[1]["cache_hits"] == 1 and sel.history_[1]["purged"]


def test_gene_purge_rule_exact():
    genes, dec = np.array([3, 7, 9, 11]), np.array([0.2, -0.1, 0.05, -0.1])
    rng = np.random.default_rng(0)
    always = lambda g: True  # noqa: E731
    assert GenePurge()(genes, dec, always, rng) == 7  # least decrease, first on ties
    assert GenePurge()(genes, dec, lambda g: g != 7, rng) == 7  # Algorithm 3 repeats itself
    assert GenePurge(skip_tried=True)(genes, dec, lambda g: g not in (7, 11), rng) == 9
    assert GenePurge(skip_tried=True)(genes, dec, lambda g: False, rng) is None
    assert GenePurge(max_decrease=0.1)(genes, dec, lambda g: g not in (7, 11), rng) == 7
    assert GenePurge(max_decrease=0.0, skip_tried=True)(
        genes, dec, lambda g: g not in (7, 11), rng) is None  # 9 costs 0.05 > 0


def test_purge_rule_is_replaceable():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] > 0).astype(int)
    calls = []

    def keep_all(genes, decrease, is_new, rng):
        calls.append((genes.tolist(), decrease.tolist(), is_new(int(genes[0]))))

    sel = FASTENER(n_generations=1, mutation=BitFlipMutation(a=0), initial=[[0, 3]],
                   purge_front=True, gene_purge=keep_all, random_state=0).fit(X, y)
    assert sel.n_evaluations_ == 1 and sel.n_permutation_predictions_ == 2
    ((genes, dec, new),) = calls
    assert genes == [0, 3] and dec[0] > dec[1] and new


def test_select_rules(five_of_sixty):
    X, y = five_of_sixty
    base = FASTENER(n_generations=10, random_state=0, select="best").fit(X, y)
    front = base.pareto_front_
    assert base.selected_size_ == front["size"].iloc[-1]
    tol = float(front["score"].max() - front["score"].iloc[0]) + 1e-9
    plateau = FASTENER(n_generations=10, random_state=0, select="plateau", tol=tol).fit(X, y)
    assert plateau.selected_size_ == front["size"].iloc[0]
    # an intermediate tolerance: the smallest item within tol of the best score
    assert len(front) >= 3
    tol = float(front["score"].max() - front["score"].iloc[1]) + 1e-9
    plateau = FASTENER(n_generations=10, random_state=0, select="plateau", tol=tol).fit(X, y)
    assert plateau.selected_size_ == front["size"].iloc[1]
    tol = float(front["score"].max() - front["score"].iloc[1]) / 2
    plateau = FASTENER(n_generations=10, random_state=0, select="plateau", tol=tol).fit(X, y)
    assert plateau.selected_size_ == front["size"][front["score"] >= front["score"].max()
                                                   - tol].iloc[0]
    assert plateau.selected_size_ > front["size"].iloc[1]
    k2 = FASTENER(n_generations=10, random_state=0, select=2).fit(X, y)
    want = front[front["size"] <= 2]
    assert k2.selected_size_ == want["size"].iloc[-1]
    assert k2.selection_score_ == want["score"].iloc[-1]
    np.testing.assert_array_equal(k2.support_, k2.front_support(k2.selected_size_))


def test_regression_uses_neg_rmse():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 10))
    y = 3 * X[:, 2] + rng.normal(scale=0.1, size=300)
    sel = FASTENER(n_generations=5, random_state=0, initial=[[2]]).fit(X, y)
    assert sel.scoring_ == "neg_rmse"
    assert (sel.pareto_front_["score"] < 0).all()
    assert sel.support_[2]
    # opt(k) below the smallest item is the score of no feature, not a perfect 0
    sel = FASTENER(n_generations=0, random_state=0, initial=[[2, 5, 7]]).fit(X, y)
    (score,) = sel.pareto_front_["score"]
    assert sel.auf_empty_score_ < score < 0
    assert sel.auf_ == pytest.approx((2 * sel.auf_empty_score_ + 18 * score) / 20)
    assert sel.auf_ < score


def test_class_defaults_f1_and_zero_below_the_front():
    X, y = make_classification(n_samples=300, n_features=10, n_informative=4, n_classes=3,
                               n_clusters_per_class=1, random_state=0)
    sel = FASTENER(n_generations=0, random_state=0, initial=[[0, 1]]).fit(X, y)
    assert sel.scoring_ == "f1_macro" and sel.auf_empty_score_ == 0.0
    (score,) = sel.pareto_front_["score"]
    assert sel.auf_ == pytest.approx(19 * score / 20)
    binary = FASTENER(n_generations=0, random_state=0).fit(X, y == 0)
    assert binary.scoring_ == "f1"


@pytest.mark.parametrize("value,every", [(True, 1), (False, None), (0, None), (3, 3)])
def test_predicates_accept_intervals_and_bools(value, every):
    from featsieve.genetic._fastener import _as_predicate

    pred = _as_predicate(value)
    assert [g for g in range(1, 7) if pred(g)] == (list(range(every, 7, every)) if every
                                                    else [])


def test_input_not_modified(five_of_sixty):
    X, y = five_of_sixty
    Xc, yc = X.copy(), y.copy()
    FASTENER(n_generations=3, random_state=0).fit(X, y)
    POSS(n_generations=20, random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(y, yc)


# -------------------------------------------------------------------- POSS
def test_poss_archive_and_determinism(five_of_sixty):
    X, y = five_of_sixty
    a = POSS(n_generations=150, random_state=0, max_size=8).fit(X, y)
    b = POSS(n_generations=150, random_state=0, max_size=8).fit(X, y)
    pd.testing.assert_frame_equal(a.pareto_front_, b.pareto_front_)
    assert a.pareto_front_["size"].iloc[0] == 0  # starts from the empty set
    assert a.pareto_front_["size"].max() <= 8
    assert a.history_[-1]["generation"] == 150
    # one offspring per iteration: new, cached, or discarded for being larger than max_size
    assert all(h["n_new"] + h["cache_hits"] <= 1 for h in a.history_[1:])
    assert a.n_evaluations_ == 1 + sum(h["n_new"] for h in a.history_[1:])
    assert a.n_model_fits_ == a.n_evaluations_ - 1  # the empty set fits no model
    # batches evaluated in parallel give the same archive
    c = POSS(n_generations=30, batch_size=4, random_state=1, n_jobs=1).fit(X, y)
    d = POSS(n_generations=30, batch_size=4, random_state=1, n_jobs=2).fit(X, y)
    pd.testing.assert_frame_equal(c.pareto_front_, d.pareto_front_)
    assert c.history_ == d.history_


# ------------------------------------------------------------ registration
def test_registered_methods_run_in_compare(sonar):
    import featsieve
    from featsieve.evaluation import compare

    names = set(featsieve.methods("classification"))
    assert {"fastener", "poss", "dt-forward", "kbest", "relieff"} <= names
    pytest.importorskip("skrebate")
    res = compare(*sonar, methods=["fastener", "poss", "kbest", "relieff"], estimator="tree",
                  random_state=0)
    rows = {r["method"]: r for r in res.rows}
    assert rows["fastener"]["model_fits"] > 100
    assert rows["fastener"]["tuned"].startswith("size=")
    assert 0 < rows["relieff"]["n_selected"] < 60


@parametrize_with_checks([FASTENER(n_generations=2), POSS(n_generations=5)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ------------------------------------------------------- baselines and data
def test_kbest_and_relieff_scores_rank_the_signal_first():
    pytest.importorskip("skrebate")
    from featsieve.scores import anova_f_scores, relieff_scores

    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 6))
    y = (X[:, 3] + 0.2 * rng.normal(size=200) > 0).astype(int)
    assert np.argmax(anova_f_scores(X, y)) == 3
    assert np.argmax(relieff_scores(X, y, n_neighbors=10)) == 3
    # max_samples takes a seeded subset: same seed, same weights
    a = relieff_scores(X, y, n_neighbors=10, max_samples=100, random_state=0)
    b = relieff_scores(X, y, n_neighbors=10, max_samples=100, random_state=0)
    np.testing.assert_array_equal(a, b)


def test_eo_generator_shape_balance_and_support():
    from featsieve.datasets._eo import make_eo_synthetic
    from featsieve.scores import anova_f_scores

    X, y, support = make_eo_synthetic(n_samples=2400, random_state=0)
    assert X.shape == (2400, 182) and X.dtype == np.float32
    np.testing.assert_array_equal(np.bincount(y), np.full(24, 100))
    assert support.sum() == 30
    X2, y2, s2 = make_eo_synthetic(n_samples=2400, random_state=0)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(support, s2)
    F = anova_f_scores(X, y)
    # 30 informative + 30 redundant columns carry the class; the other 122 are noise
    noise = np.argsort(F)[:122]
    assert not support[noise].any()
    with pytest.raises(ValueError, match="exceeds"):
        make_eo_synthetic(n_samples=100, n_features=20)


def test_sorted_mi_equals_scikit_learn():
    from sklearn.feature_selection import mutual_info_classif

    from featsieve.genetic._mi import mutual_info_classif_sorted
    from featsieve.scores._univariate import MI_BLOCK_ROWS

    for n in (300, MI_BLOCK_ROWS + 100):  # the compiled all-columns loop; the sorted path
        _sorted_mi_case(n, mutual_info_classif, mutual_info_classif_sorted)


def _sorted_mi_case(n, mutual_info_classif, mutual_info_classif_sorted):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 8))
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 1)
    y[5] = 7  # a class of one point (ignored by the estimator)
    X[:, 3] = np.round(X[:, 3], 1)  # ties, broken by the seeded noise
    X[:, 4] *= 1e6
    for rs in (0, 1):
        np.testing.assert_allclose(mutual_info_classif_sorted(X, y, random_state=rs),
                                   mutual_info_classif(X, y, random_state=rs),
                                   rtol=1e-12, atol=1e-12)
    for k in (1, 5):
        np.testing.assert_allclose(mutual_info_classif_sorted(X, y, n_neighbors=k, random_state=2),
                                   mutual_info_classif(X, y, n_neighbors=k, random_state=2),
                                   rtol=1e-12, atol=1e-12)


def test_a_front_of_only_the_empty_set_still_selects_the_best_evaluated_subset():
    from featsieve import POSS

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 15))
    y = ((X[:, 2] + X[:, 5]) > 0).astype(int)
    with pytest.warns(UserWarning, match="only the empty set"):
        sel = POSS(n_generations=10, random_state=2).fit(X, y)
    assert sel.n_features_selected_ >= 1
    assert np.isfinite(sel.selection_score_)


def test_figure_data_follow_the_history(five_of_sixty):
    from featsieve.report._genetic import (
        auf_plot_data,
        convergence_figure,
        figures,
        front_plot_data,
    )

    X, y = five_of_sixty
    sel = FASTENER(n_generations=12, auf_max_features=10, random_state=0).fit(X, y)
    a = auf_plot_data(sel)
    np.testing.assert_array_equal(a["auf"], [h["auf"] for h in sel.history_])
    assert a["delta"][0] == 0 and a["delta"][1:] == pytest.approx(np.diff(a["auf"]))
    assert a["purged"].tolist() == [g > 0 and g % 5 == 0 for g in a["generation"]]
    assert a["max_features"] == 10
    f = front_plot_data(sel, n_fronts=4)
    assert [d["generation"] for d in f["fronts"]][::3] == [0, 12]  # first and last kept
    last = f["fronts"][-1]
    assert last["sizes"].tolist() == sel.pareto_front_["size"].tolist()
    assert last["scores"].tolist() == sel.pareto_front_["score"].tolist()
    (_, fronts_fig), (_, auf_fig) = figures("FASTENER", sel)
    assert auf_fig.axes[0].get_ylabel() == "AUF (K = 10)"
    assert len(fronts_fig.axes[0].lines) == 5  # five generations by default
    conv = convergence_figure({"FASTENER": sel})
    assert conv.axes[0].get_ylabel() == "AUF (K = 10) on selection-val"


# ------------------------------------------------------- bad input (new user)
@pytest.fixture(scope="module")
def two_hundred_by_ten():
    X, y = make_classification(n_samples=200, n_features=10, n_informative=3, n_redundant=0,
                               shuffle=False, random_state=0)
    return X, y


@pytest.mark.parametrize("weights, match", [
    (np.full(10, np.nan), r"^weights has 10 NaN values at columns \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]"),
    (-np.ones(10), r"^weights has 10 negative values at columns \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]"),
    (np.full(10, np.inf), r"^weights has 10 inf values at columns \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]"),
    (np.r_[1.0, np.nan, -2.0, 3, 4, 5, np.inf, -np.inf, 0, 1],
     r"^weights has 1 NaN values at columns \[1\]; 2 inf values at columns \[6, 7\]; "
     r"1 negative values at columns \[2\]: weights must be finite and >= 0"),
    (lambda X, y: np.r_[np.ones(9), -0.5],
     r"^weights\(X, y\) returned 1 negative values at positions \[9\]: weights must be finite"),
    (lambda X, y: np.full(X.shape[1], np.nan), r"^weights\(X, y\) returned 10 NaN values"),
    (np.ones(9), r"^weights has shape \(9,\); expected \(10,\), one per input column\."),
])
def test_fastener_given_weights_must_be_finite_and_non_negative(two_hundred_by_ten, weights,
                                                                 match):
    X, y = two_hundred_by_ten
    with pytest.raises(ValueError, match=match):
        FASTENER(n_generations=1, weights=weights, random_state=0).fit(X, y)


def test_fastener_zero_weights_stay_allowed_and_weights_follow_usable_columns(
        two_hundred_by_ten):
    X, y = two_hundred_by_ten
    sel = FASTENER(n_generations=3, weights=np.zeros(10), random_state=0).fit(X, y)
    np.testing.assert_array_equal(sel.feature_weights_, np.zeros(10))
    assert sel.n_evaluations_ >= 1
    # one weight per input column; the constant column's weight is unused (0)
    Xc = X.copy()
    Xc[:, 4] = 1.0
    w = np.arange(10.0) + 1
    with pytest.warns(UserWarning, match="Constant feature columns"):
        sel = FASTENER(n_generations=1, weights=w, random_state=0).fit(Xc, y)
    np.testing.assert_array_equal(sel.feature_weights_, np.where(np.arange(10) == 4, 0, w))


def test_fastener_rejects_an_empty_initial_item_poss_starts_from_it(two_hundred_by_ten):
    X, y = two_hundred_by_ten
    for initial in ([[]], [[0], []]):
        with pytest.raises(ValueError, match=r"^initial holds empty items \(at positions "
                           rf"\[{len(initial) - 1}\]\); FASTENER evaluates no empty item"):
            FASTENER(n_generations=1, initial=initial, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"^initial must hold at least one item\.$"):
        FASTENER(n_generations=1, initial=[], random_state=0).fit(X, y)
    # for POSS the empty item is the normal start: [[]] is initial="empty"
    a = POSS(n_generations=3, initial=[[]], random_state=0).fit(X, y)
    b = POSS(n_generations=3, initial="empty", random_state=0).fit(X, y)
    pd.testing.assert_frame_equal(a.pareto_front_, b.pareto_front_)
    assert a.history_[0]["n_evaluations"] == 1


@pytest.mark.parametrize("kwargs", [{"n_generations": 0}, {"max_evaluations": 1}])
def test_poss_with_only_the_empty_set_evaluated_selects_nothing_at_its_score(kwargs):
    X, y = make_classification(n_samples=200, n_features=10, weights=[0.6], flip_y=0,
                               random_state=0)
    assert np.bincount(y).tolist() == [120, 80]
    # accuracy of the majority class on the stratified 40 validation rows: 24 / 40
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        sel = POSS(scoring="accuracy", random_state=0, **kwargs).fit(X, y)
    # only the base class's notice; not the "only the empty set" warning
    assert [(w.category, str(w.message)) for w in rec] == [
        (FewerFeaturesWarning, "No feature was selected.")]
    assert sel.pareto_front_[["size", "score"]].to_dict("records") == [
        {"size": 0, "score": 0.6}]
    assert sel.selection_score_ == 0.6
    assert sel.selected_size_ == 0 and not sel.support_.any()
    assert (sel.n_evaluations_, sel.n_model_fits_) == (1, 0)
    # F1 of class 1 when the majority class 0 is predicted: 0.0, not nan
    with pytest.warns(FewerFeaturesWarning, match="No feature was selected"):
        sel = POSS(random_state=0, **kwargs).fit(X, y)
    assert sel.selection_score_ == 0.0
    assert sel.pareto_front_["score"].tolist() == [0.0]


def test_initial_accepts_column_names_of_a_dataframe(two_hundred_by_ten):
    X, y = two_hundred_by_ten
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(10)])
    by_name = FASTENER(n_generations=3, initial=[["f3"], ["f1", "f7"]], random_state=0)
    by_index = FASTENER(n_generations=3, initial=[[3], [1, 7]], random_state=0)
    pd.testing.assert_frame_equal(by_name.fit(df, y).pareto_front_,
                                  by_index.fit(df, y).pareto_front_)
    assert by_name.history_[0]["n_evaluations"] == 2
    # a lone name or index is a one-column item; names and indices mix
    sel = FASTENER(n_generations=0, initial=["f3", [2, "f5"]], random_state=0).fit(df, y)
    assert sel.n_evaluations_ == 2
    # names map to input columns when a constant column shifts the usable ones
    dfc = df.copy()
    dfc["f0"] = 1.0
    with pytest.warns(UserWarning, match="Constant feature columns"):
        sel = FASTENER(n_generations=0, initial=[["f3"]], random_state=0).fit(dfc, y)
    assert sel.pareto_front_["features"].tolist() == [("f3",)]
    assert sel.pareto_front_["columns"].tolist() == [(3,)]
    with pytest.warns(UserWarning, match="Constant feature columns"), \
            pytest.raises(ValueError, match=r"^initial refers to columns \['f0'\] that are "
                          r"constant or duplicated \(never selected\); usable columns are "
                          r"\[1, 2, 3, 4, 5, 6, 7, 8, 9\]\.$"):
        FASTENER(n_generations=0, initial=[["f0", "f3"]], random_state=0).fit(dfc, y)
    # unknown names and indices are named
    with pytest.raises(ValueError, match=r"^initial has unknown entries \['f10', 12, -1\]: "
                       r"items hold input column indices \(0 to 9\) or column names of X\.$"):
        FASTENER(n_generations=0, initial=[["f10", 12], [-1, "f2"]], random_state=0).fit(df, y)
    # names need a DataFrame
    with pytest.raises(ValueError, match=r"^initial has unknown entries \['f3'\]: items hold "
                       r"input column indices \(0 to 9\); column names only when X is a "
                       r"DataFrame\.$"):
        FASTENER(n_generations=0, initial=[["f3"]], random_state=0).fit(X, y)


def test_reproduce_split_keeps_rare_classes_where_selectors_fit():
    from featsieve.reproduce.fastener import _split_keeping_rare

    y = np.r_[np.repeat([0, 1, 2], 30), [3, 3]]  # lymphoma-like: a class of 2 rows
    tr, te = _split_keeping_rare(y, 0, min_rows=5, outer=True)
    assert sorted(np.r_[tr, te].tolist()) == list(range(92))
    assert (y[tr] == 3).sum() == 2 and (y[te] == 3).sum() == 0
    assert [(y[te] == c).sum() for c in range(3)] == [6, 6, 6]
    fit, val = _split_keeping_rare(y[tr], 0, min_rows=4, outer=False)
    assert (y[tr][fit] == 3).sum() == 2 and len(fit) + len(val) == len(tr)


class _FailsAfter(BaseEstimator):
    """A tree that raises on its ``n``-th fit (counted across clones)."""

    fits = 0

    def __init__(self, n=5):
        self.n = n

    def fit(self, X, y):
        type(self).fits += 1
        if type(self).fits >= self.n:
            raise RuntimeError("fit failed on purpose")
        from sklearn.tree import DecisionTreeClassifier

        self.tree_ = DecisionTreeClassifier(random_state=0).fit(X, y)
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def _holds_rows(value, n_rows):
    """Whether ``value`` holds an array of the training rows (searched one level deep)."""
    values = list(value.values()) if isinstance(value, dict) else [value]
    values += [v for obj in values if hasattr(obj, "__dict__") for v in vars(obj).values()]
    return any(isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] >= n_rows // 2
               and v.dtype.kind == "f" and v.ndim == 2 for v in values)


@pytest.mark.parametrize("cls", [FASTENER, POSS])
def test_nothing_of_the_search_stays_on_the_estimator(five_of_sixty, cls):
    X, y = five_of_sixty
    params = set(cls().get_params())
    sel = cls(n_generations=6, random_state=0).fit(X, y)
    from featsieve.genetic._evaluator import SubsetEvaluator
    from featsieve.genetic._operators import ParetoFront
    from featsieve.genetic._search import SearchState

    engine = (SearchState, SubsetEvaluator, ParetoFront, np.random.Generator)
    private = {k for k in vars(sel) if k.startswith("_")}
    assert not any(isinstance(v, engine) for v in vars(sel).values())
    assert not any(_holds_rows(v, len(y)) for k, v in vars(sel).items() if k not in params)
    # a fit that fails half way leaves no training data, cache, front or generator behind
    _FailsAfter.fits = 0
    failing = cls(_FailsAfter(5), n_generations=6, random_state=0)
    with pytest.raises(RuntimeError, match="on purpose"):
        failing.fit(X, y)
    left = {k: v for k, v in vars(failing).items() if k not in params}
    assert not {"pareto_front_", "history_", "support_"} & set(left)
    assert not any(_holds_rows(v, len(y)) for v in left.values())
    assert not any(isinstance(v, engine) for v in left.values())
    assert {k for k in left if k.startswith("_")} <= private
