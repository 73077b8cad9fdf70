"""Genetic feature selection: FASTENER and POSS (seed 001), FS-SDS, and the seed's baselines.

Seed: ``001_d348067f051b51fa.txt`` (Koprivec, Kenda, Šircelj, FASTENER, Entropy
2020). FASTENER searches feature subsets held as bitsets with an
information-gain crossover, bit-flip mutation, a Pareto front of (size, score)
and front purging by permutation on stored models; POSS is its mutation-only
baseline on the same evaluator and front. The module also registers the other
baselines the seed compares with: decision-tree forward selection
(``dt-forward``, §5.4), k-best and ReliefF (§5.2).
"""

from __future__ import annotations

import importlib.util
from functools import partial

from .._registry import MethodSpec, ranking_candidates, register
from ._baselines import anova_f_scores, relieff_scores
from ._bitset import from_bits, popcount, to_bits
from ._evaluator import SubsetEvaluator, f1_from_labels, make_metric
from ._fastener import FASTENER, POSS
from ._fssds import FSSDS
from ._operators import (
    BitFlipMutation,
    EveryK,
    GenePurge,
    InformationGainCrossover,
    ParetoFront,
    RandomMatingPool,
    half_plus_one,
    log2_plus_one,
    sqrt_plus_one,
)

__all__ = [
    "FASTENER",
    "POSS",
    "FSSDS",
    "RandomMatingPool",
    "InformationGainCrossover",
    "BitFlipMutation",
    "GenePurge",
    "EveryK",
    "ParetoFront",
    "SubsetEvaluator",
    "half_plus_one",
    "sqrt_plus_one",
    "log2_plus_one",
    "to_bits",
    "from_bits",
    "popcount",
    "make_metric",
    "f1_from_labels",
    "anova_f_scores",
    "relieff_scores",
]

# budgets that keep the default ``featsieve compare`` quick (Sonar: a few seconds)
_COMPARE_GENERATIONS = 40
_COMPARE_EVALUATIONS = 600
_CANDIDATE_MAX_SIZE = 20


def _scoring(task):
    # compare reports the selection's own number in its metric (accuracy / MSE), so the
    # registered searches score items in it too; the classes' defaults are F1 / -RMSE (§5.1)
    return "accuracy" if task == "classification" else "neg_mse"


def front_candidates(selector, n_features: int) -> dict:
    """Supports ``compare`` tunes over: every front item of at most 20 features
    (AUF's K), plus the item ``select`` chose; all from one fit."""
    out = {}
    for size in selector.pareto_front_["size"]:
        if 0 < size <= _CANDIDATE_MAX_SIZE:
            out[f"size={int(size)}"] = selector.front_support(int(size))
    if selector.selected_size_ and f"size={selector.selected_size_}" not in out:
        out[f"size={selector.selected_size_}"] = selector.get_support()
    return out


register(MethodSpec(
    name="fastener",
    build=lambda *, task, random_state, n_jobs, **_: FASTENER(
        n_generations=_COMPARE_GENERATIONS, max_evaluations=_COMPARE_EVALUATIONS,
        scoring=_scoring(task), task=task, random_state=random_state, n_jobs=n_jobs),
    source="seed 001 Algorithms 1-3, §5.1",
    summary="FASTENER genetic search with a decision tree on selection-val (40 generations, "
            "<= 600 fits, items scored in compare's metric; front size tuned on model-val)",
    uses_selection_val=True,
    candidates=front_candidates,
))
register(MethodSpec(
    name="poss",
    build=lambda *, task, random_state, n_jobs, **_: POSS(
        n_generations=_COMPARE_EVALUATIONS, max_evaluations=_COMPARE_EVALUATIONS,
        scoring=_scoring(task), task=task, random_state=random_state, n_jobs=n_jobs),
    source="seed 001 §2.1, §5.3 (POSS baseline; Qian et al. 2015)",
    summary="POSS Pareto optimization, mutation only, decision tree on selection-val "
            "(<= 600 fits, items scored in compare's metric; front size tuned on model-val)",
    uses_selection_val=True,
    candidates=front_candidates,
))


register(MethodSpec(
    name="fs-sds",
    build=lambda *, task, random_state, n_jobs, **_: FSSDS(
        sizes=_CANDIDATE_MAX_SIZE, n_agents=6, n_iterations=4, scoring=_scoring(task),
        task=task, random_state=random_state, n_jobs=n_jobs),
    source="seed 001 §2.1, §5.1, §5.3-5.4 Tables 2-3 (FS-SDS baseline, ref. [12]: Alhakbani & "
           "al-Rifaie, 'Feature selection using stochastic diffusion search', GECCO 2017)",
    summary="FS-SDS: stochastic diffusion search per subset size k = 1..20 with an ELM (160 "
            "sigmoid neurons) on selection-val (6 agents x 5 rounds per k, <= 600 fits; front "
            "size tuned on model-val)",
    uses_selection_val=True,
    candidates=front_candidates,
    in_default=False,
))


def _dt_forward(*, task, random_state, n_jobs, **_):
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    from ..classic import ForwardSelector

    cls = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    return ForwardSelector(cls(min_samples_split=2, random_state=random_state),
                           max_rounds=_CANDIDATE_MAX_SIZE,
                           scoring="accuracy" if task == "classification" else
                           "neg_mean_squared_error", task=task,
                           random_state=random_state, n_jobs=n_jobs)


register(MethodSpec(
    name="dt-forward",
    build=_dt_forward,
    source="seed 001 §5.4 (DT-forward baseline)",
    summary="forward selection with a full decision tree (Gini, 2 samples to split) on "
            "selection-val, <= 20 rounds",
    uses_selection_val=True,
))


def _kbest(*, task, n_features_to_select, **_):
    from ..classic import UnivariateFilter

    return UnivariateFilter(partial(anova_f_scores, task=task),
                            n_features_to_select=n_features_to_select, task=task)


register(MethodSpec(
    name="kbest",
    build=_kbest,
    source="seed 001 §5.2 (KBest baseline; scikit-learn f_classif/f_regression)",
    summary="filter: ANOVA F statistic, scikit-learn SelectKBest's score (k tuned on model-val)",
    candidates=ranking_candidates, fits=lambda s: 0,
))

# ReliefF only through the maintained skrebate package (looked up, not imported)
_HAVE_SKREBATE = importlib.util.find_spec("skrebate") is not None

if _HAVE_SKREBATE:
    def _relieff(*, task, n_features_to_select, random_state, **_):
        from ..classic import UnivariateFilter

        return UnivariateFilter(
            partial(relieff_scores, n_neighbors=100, max_samples=2000,
                    random_state=random_state),
            n_features_to_select=n_features_to_select, task=task)

    register(MethodSpec(
        name="relieff",
        build=_relieff,
        source="seed 001 §5.2 (ReliefF baseline; skrebate)",
        summary="filter: ReliefF weights (skrebate, 100 neighbours, <= 2000 rows; k tuned on "
                "model-val)",
        candidates=ranking_candidates, fits=lambda s: 0,
    ))
