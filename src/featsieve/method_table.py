"""The method table: every registered method in one place.

One row per method: the selector class, the constructor arguments the
comparison uses, the tasks, the paper it comes from, and how ``compare`` tunes
it (the cut of ``support_at`` and its grid). Front ends, ``evaluation`` and the
report read this table and hold no method names; families never import it.

Adding a method is a class plus one row (``docs/extending.md``); a third party
registers a row with :func:`featsieve.register_method`.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ._registry import MethodSpec, Tuning, k_grid
from ._resources import (
    ROWS_MASKED,
    ROWS_SEARCH,
    Cost,
    fit_seconds,
    model_kind,
    row_cap,
    search_model_kind,
)
from ._utils import default_tree, scorer_for
from .classic import EmbeddedSelector, ForwardSelector, RFECVSelector, RFESelector, UnivariateFilter
from .comparators import (
    EXTRA,
    AbessSelector,
    BorutaSelector,
    KnockoffSelector,
    L1Selector,
    PermutationSelector,
    SFSSelector,
    ShapRFESelector,
)
from .genetic import FASTENER, FSSDS, POSS
from .kernel import CKTA, FHSIC, FVM, MRMR, QPFS, HSICLasso, NOCCOLasso, SpAM
from .mask import FLBMO, GBMO, MU_GRID
from .pca import PCLFS
from .scores import anova_f_scores, relieff_scores

__all__ = ["METHODS"]

# ----------------------------------------------------------------- papers
SEED_000 = ("Lorasdağı, Turalı & Kozat (2024), Binary Feature Mask Optimization for "
            "Feature Selection")
SEED_001 = ("Koprivec, Kenda & Šircelj (2020), FASTENER Feature Selection for Inference "
            "from Earth Observation Data, Entropy 22(11)")
SEED_002 = "Feature Selection (lesson on filter, wrapper and embedded selection)"
SEED_003 = ("Matharaarachchi, Domaratzki & Muthukumarana (2022), Minimizing features while "
            "maintaining performance in data classification problems, PeerJ Comput. Sci.")
SEED_004 = ("Yamada, Jitkrittum, Sigal, Xing & Sugiyama (2014), High-Dimensional Feature "
            "Selection by Feature-Wise Kernelized Lasso, Neural Computation 26(1)")

# budgets that keep the default ``featsieve compare`` quick (Sonar: a few seconds)
_GA_GENERATIONS = 40
_GA_EVALUATIONS = 600
_FRONT_MAX_SIZE = 20  # AUF's K (seed 001 §5.1)
# scalable forms by shape (issue 17): longest path of the rankers on wide tables, candidates
# of the forward wrappers per round, subset sizes of PCLFS's grid
_PATH_CAP = 100
_FORWARD_CANDIDATES = 50
_DT_FORWARD_CANDIDATES = 200
_PCLFS_GRID = 30
_HALF = {"n_features_to_select": 0.5}  # one path serves every k of the grid


# ------------------------------------------------------ parameters by task
def _purity(*, task, n_features_to_select, **_):
    fixed = task == "classification" and n_features_to_select is None
    return {"score_func": "purity", "threshold": 0.004 if fixed else None}


def _kbest(*, task, **_):
    return {"score_func": partial(anova_f_scores, task=task)}


def _relieff(*, task, random_state, **_):
    return {"score_func": partial(relieff_scores, n_neighbors=100, max_samples=2000,
                                  random_state=random_state, task=task)}


def _ga_scoring(*, task, **_):
    # compare reports the selection's own number in its metric (accuracy / MSE), so the
    # registered searches score items in it too; the classes' defaults are F1 / -RMSE (§5.1)
    return {"scoring": "accuracy" if task == "classification" else "neg_mse"}


def _fastener(**kw):
    # tall tables: each evaluation fits on at most 20,000 rows of each part (ROWS_SEARCH)
    return {"n_generations": _GA_GENERATIONS, "max_evaluations": _GA_EVALUATIONS,
            "max_samples": "auto", **_ga_scoring(**kw)}


def _poss(**kw):
    return {"n_generations": _GA_EVALUATIONS, "max_evaluations": _GA_EVALUATIONS,
            "max_samples": "auto", **_ga_scoring(**kw)}


def _fssds(**kw):
    return {"sizes": _FRONT_MAX_SIZE, "n_agents": 6, "n_iterations": 4, "max_samples": "auto",
            **_ga_scoring(**kw)}


def _half_by_default(*, n_features_to_select, **_):
    # one path serves every k of the grid; alone, half the columns
    return {"n_features_to_select": 0.5 if n_features_to_select is None else
            n_features_to_select}


def _dt_forward(*, task, random_state, **_):
    return {"estimator": default_tree(task, min_samples_split=2, random_state=random_state),
            "max_rounds": _FRONT_MAX_SIZE, "scoring": scorer_for(task),
            "max_candidates": _DT_FORWARD_CANDIDATES}


def _forward(*, task, **_):
    return {"scoring": scorer_for(task), "max_candidates": _FORWARD_CANDIDATES}


# ------------------------------------------- cost models of classes without estimate_cost
def _filter_cost(sel, n, d):
    """Univariate scores: one pass over the columns (k-NN mutual information: ``O(n log n)``
    per column on at most ``max_samples`` rows; ReliefF: ``O(m n d)`` with m <= 2000 sampled
    rows, six times that for RReliefF on a numeric target)."""
    func = sel.score_func
    name = getattr(func, "func", func)
    name = name if isinstance(name, str) else getattr(name, "__name__", "")
    cap = sel._row_cap()
    n = n if cap is None else min(n, cap)
    if name == "mi":
        flops = 300.0 * n * max(1.0, float(np.log2(max(n, 2)))) * d
    elif "relieff" in name:  # RReliefF (a numeric target) weighs every neighbour pair: ~6x
        task = (getattr(func, "keywords", None) or {}).get("task")
        flops = (60.0 if task == "regression" else 10.0) * min(n, 2000) * n * d
    else:
        flops = 20.0 * n * d
    return Cost(memory_bytes=16 * n * d, flops=flops)


def _mask_cost(sel, n, d):
    """One model fit on the training rows, then the masked elimination path: a step
    predicts one masked copy of the selection-val rows (at most ``max_samples``) per
    remaining candidate (columns the model uses, at most ~3,000 splits of 100 trees),
    ``u (u + 1) / 2`` copies in all."""
    kind = model_kind(sel.estimator)
    cap = row_cap(sel.max_samples, ROWS_MASKED)
    n_tr, n_val = 0.6 * n, (0.4 * n if cap is None else min(0.4 * n, cap))
    u = min(d, 3000)
    # the compiled tree kernel re-descends only the trees that split on the masked column
    # (about 50 / u of them for LightGBM's 100 trees of 31 leaves), a full predict otherwise
    per_copy = min(1.0, 50.0 / u) if getattr(sel, "tree_kernel", False) else 1.0
    copies = u * (u + 1) / 2
    return Cost(memory_bytes=4 * 8 * n * d, fits=1,
                fit_seconds=fit_seconds(kind, n_tr, d) + 2e-5 * copies,  # + per-copy overhead
                predictions=per_copy * copies * n_val, model=kind)


def _search_cost(cols):
    """Genetic / Pareto searches: ``max_evaluations`` model fits on the training rows with
    about ``cols(d)`` columns each, plus the mutual-information weights of the columns."""
    def cost(sel, n, d):
        kind = search_model_kind(getattr(sel, "estimator", None),
                                 getattr(sel, "tree_kernel", False))
        if type(sel).__name__ == "FSSDS":
            kind = "elm"
        evals = int(getattr(sel, "max_evaluations", None) or _GA_EVALUATIONS)
        cap = row_cap(getattr(sel, "max_samples", None), ROWS_SEARCH)
        n_tr, n_val = 0.6 * n, 0.4 * n
        if cap is not None:
            n_tr, n_val = min(n_tr, cap), min(n_val, cap)
        return Cost(memory_bytes=16 * n * d, fits=evals,
                    fit_seconds=evals * fit_seconds(kind, n_tr, min(d, cols)),
                    predictions=evals * n_val, model=kind,
                    flops=300.0 * min(n, 20000) * 15 * d)
    return cost


def _l1_penalties(selector, n_usable):
    """The penalties of the L1 path whose supports differ (model-val picks one)."""
    return selector.penalty_grid()


# ------------------------------------------------------------ tuning grids
def _k_grid(selector, n_usable):
    """:func:`featsieve._registry.k_grid` of the usable columns."""
    return k_grid(n_usable)


def _front_sizes(selector, n_usable):
    """Every front item of at most 20 columns (AUF's K), and the one ``select`` chose."""
    sizes = {int(s) for s in selector.pareto_front_["size"] if 0 < s <= _FRONT_MAX_SIZE}
    if selector.selected_size_:
        sizes.add(int(selector.selected_size_))
    return sorted(sizes)


def _purity_grid(selector, n_usable):
    return [] if selector.threshold is not None else k_grid(n_usable)


K = Tuning("n_features", _k_grid, label="k")
def _fits_cost(fits, kind="lightgbm", gram=False):
    """Comparators: ``fits(n, d)`` model fits of ``kind`` on ``n x d`` (their libraries'
    loops), plus a ``d x d`` matrix where the method builds one (knockoffs)."""
    def cost(sel, n, d):
        f = int(fits(n, d))
        mem = 16 * n * d + (3 * 8 * d * d if gram else 0)
        return Cost(memory_bytes=mem, fits=f, fit_seconds=f * fit_seconds(kind, n, d),
                    model=kind)
    return cost


_COMPARATOR = {"group": "comparators", "extra": EXTRA, "in_default": False}
_CLASSIC_FIGURES = "featsieve.report._classic:figures"

METHODS = (
    MethodSpec("all", None, source="baseline", summary="no selection: every column"),
    # ------------------------------------------------------------- classic
    MethodSpec(
        "mi", UnivariateFilter, params={"score_func": "mi"}, tuning=K, cost=_filter_cost,
        source=f"{SEED_000} §4.1 (MI baseline); {SEED_002}, filter family",
        summary="filter: mutual information with the target (k tuned on model-val)"),
    MethodSpec(
        "cc", UnivariateFilter, params={"score_func": "cc"}, tuning=K, cost=_filter_cost,
        source=f"{SEED_000} §4.1 (CC baseline); {SEED_002}, filter family",
        summary="filter: absolute correlation with the target (k tuned on model-val)"),
    MethodSpec(
        "purity", UnivariateFilter, params=_purity, cost=_filter_cost,
        tuning=Tuning("n_features", _purity_grid, label="k", default_label="threshold=0.004"),
        source=f"{SEED_002}, FS17",
        summary="filter: single-split Gini gain >= 0.004 with 20 rows a side (regression: "
                "variance gain, k tuned)"),
    MethodSpec(
        "forward", ForwardSelector, params=_forward, uses_selection_val=True,
        source=f"{SEED_002}, FS18",
        summary="wrapper: forward selection on the selection-val split, <= 8 rounds (above 50 "
                "columns: the 50 most important of one model fit are the candidates)"),
    MethodSpec(
        "embedded", EmbeddedSelector, source=f"{SEED_002}, FS19", prefit_full_model=True,
        summary="embedded: columns with >= 1% of the model's importance"),
    MethodSpec(
        "rfe", RFESelector, params={"step": "auto"}, tuning=K,
        path_params={"n_features_to_select": 1},
        source=f"Guyon, Weston, Barnhill & Vapnik (2002), Gene selection for cancer "
               f"classification using SVMs (scikit-learn RFE); baseline of {SEED_000} §4.1",
        summary="scikit-learn RFE, step 1 (1% of the columns above 1,000; k tuned on model-val "
                "from one elimination path)"),
    MethodSpec(
        "rfecv", RFECVSelector, params={"step": "auto", "cv": 5},
        in_default=False,  # 5 x RFE's fits: the slowest row of Sonar's default run
        source=f"scikit-learn RFECV; baseline of {SEED_003}",
        summary="scikit-learn RFECV, step 1 (1% of the columns above 1,000), 5-fold"),
    # ------------------------------------------------------- GBMO / FLBMO
    MethodSpec(
        "gbmo", GBMO, uses_selection_val=True, cost=_mask_cost,
        tuning=Tuning("slack", MU_GRID, label="mu"), path_params={"slack": max(MU_GRID)},
        source=f"{SEED_000}, §3.1, Algorithms 1-2", figures="featsieve.report._mask:figures",
        summary="GBMO: training-free masked backward elimination on one fitted model, stops "
                "when the selection-val loss rises by more than mu (mu tuned on model-val, "
                "one path)"),
    MethodSpec(
        "flbmo", FLBMO, uses_selection_val=True, cost=_mask_cost,
        tuning=Tuning("n_features", _k_grid, label="eta"),
        path_params={"n_features_to_select": 1},
        source=f"{SEED_000}, §3.2, Algorithm 3", figures="featsieve.report._mask:figures",
        summary="FLBMO: masked backward elimination on one fitted model down to eta features "
                "(eta tuned on model-val, one path)"),
    # ------------------------------------------------------------- kernel
    MethodSpec(
        "hsic-lasso", HSICLasso, tuning=K, path_params=_HALF, path_cap=_PATH_CAP,
        source=f"{SEED_004}, eq. (3)-(4), §2.3", figures="featsieve.report._kernel:figures",
        summary="HSIC Lasso: non-negative Lasso on feature-wise centered Gaussian kernels "
                "(k tuned on model-val from one LARS path)"),
    MethodSpec(
        "nocco-lasso", NOCCOLasso, tuning=K, path_params=_HALF, path_cap=_PATH_CAP,
        source=f"{SEED_004}, §2.6", figures="featsieve.report._kernel:figures",
        summary="NOCCO Lasso: HSIC Lasso on K(K + eps n I)^-1, eps=1e-3 (k tuned from one "
                "path)"),
    MethodSpec(
        "mrmr", MRMR, params={"dependence": "auto"}, tuning=K, path_params=_HALF,
        path_cap=_PATH_CAP,
        source=f"Peng, Long & Ding (2005), Feature selection based on mutual information, "
               f"IEEE TPAMI 27(8); in {SEED_004}, §3.2; below 500 rows the FCQ form of Ding "
               f"& Peng (2005)",
        summary="mRMR: greedy relevance minus mean redundancy, discretized mutual information "
                "(F-statistic over correlation below 500 rows; k tuned on model-val)"),
    MethodSpec(
        "ckta", CKTA, tuning=K, path_params=_HALF, path_cap=_PATH_CAP, in_default=False,
        source=f"Cortes, Mohri & Rostamizadeh (2012), Algorithms for learning kernels based "
               f"on centered alignment, JMLR 13; in {SEED_004}, §3.1",
        summary="cKTA: non-negative least squares on the HSIC Gram (k tuned on model-val)"),
    MethodSpec(
        "qpfs", QPFS, tuning=K, path_params=_HALF, path_cap=_PATH_CAP, in_default=False,
        source=f"Rodriguez-Lujan, Huerta, Elkan & Santa Cruz (2010), Quadratic programming "
               f"feature selection, JMLR 11; in {SEED_004}, §3.5",
        summary="QPFS on HSIC, sum-to-one, gamma=0.5, SciPy SLSQP (k tuned on model-val)"),
    MethodSpec(
        "fhsic", FHSIC, tuning=K, path_params=_HALF, path_cap=_PATH_CAP, in_default=False,
        source=f"Song, Smola, Gretton, Bedo & Borgwardt (2012), Feature selection via "
               f"dependence maximization, JMLR 13; in {SEED_004}, §3.3 eq. (7)",
        summary="forward selection by HSIC of the selected set (k tuned on model-val)"),
    MethodSpec(
        "spam", SpAM, params=_half_by_default, tuning=K, in_default=False,
        path_params=_HALF, path_cap=_PATH_CAP,
        source=f"Ravikumar, Lafferty, Liu & Wasserman (2009), Sparse additive models, JRSS-B "
               f"71(5); baseline of {SEED_004}, §3.6, Figure 1",
        summary="SpAM: sparse backfitting with cubic-spline smoothers along a lambda path "
                "(classes: multi-response least squares; k tuned on model-val from the entry "
                "order)"),
    MethodSpec(
        "fvm", FVM, params=_half_by_default, tuning=K, in_default=False,
        path_params=_HALF, path_cap=_PATH_CAP,
        source=f"Li, Yang & Xing (2006), From Lasso regression to feature vector machine, "
               f"NIPS; baseline of {SEED_004}, eq. (2)",
        summary="FVM: Lasso on the discretized mutual-information matrix (+ diagonal constant), "
                "scikit-learn LARS path (k tuned on model-val from the entry order)"),
    # ------------------------------------------------------------ genetic
    MethodSpec(
        "fastener", FASTENER, params=_fastener, uses_selection_val=True, uses_model=False,
        cost=_search_cost(50),
        tuning=Tuning("n_features", _front_sizes, label="size"),
        source=f"{SEED_001}, Algorithms 1-3, §5.1", figures="featsieve.report._genetic:figures",
        summary="FASTENER genetic search with a decision tree on selection-val (40 generations, "
                "<= 600 fits on <= 20,000 rows of each part, items scored in compare's metric; "
                "front size tuned on model-val)"),
    MethodSpec(
        "poss", POSS, params=_poss, uses_selection_val=True, uses_model=False,
        cost=_search_cost(10),
        tuning=Tuning("n_features", _front_sizes, label="size"),
        source=f"Qian, Yu & Zhou (2015), Subset selection by Pareto optimization, NIPS; "
               f"baseline of {SEED_001}, §2.1, §5.3", figures="featsieve.report._genetic:figures",
        summary="POSS Pareto optimization, mutation only, decision tree on selection-val "
                "(<= 600 fits, items scored in compare's metric; front size tuned on model-val)"),
    MethodSpec(
        "fs-sds", FSSDS, params=_fssds, uses_selection_val=True, uses_model=False,
        cost=_search_cost(10),
        in_default=False, tuning=Tuning("n_features", _front_sizes, label="size"),
        source=f"Alhakbani & al-Rifaie (2017), Feature selection using stochastic diffusion "
               f"search, GECCO; baseline of {SEED_001}, §5.1, §5.3-5.4, Tables 2-3",
        figures="featsieve.report._genetic:figures",
        summary="FS-SDS: stochastic diffusion search per subset size k = 1..20 with an ELM (160 "
                "sigmoid neurons) on selection-val (6 agents x 4 rounds per k, <= 600 fits; "
                "front size tuned on model-val)"),
    MethodSpec(
        "dt-forward", ForwardSelector, params=_dt_forward, uses_selection_val=True,
        uses_model=False, source=f"{SEED_001}, §5.4 (DT-forward baseline)",
        summary="forward selection with a full decision tree (Gini, 2 samples to split) on "
                "selection-val, <= 20 rounds"),
    MethodSpec(
        "kbest", UnivariateFilter, params=_kbest, tuning=K, cost=_filter_cost,
        source=f"scikit-learn SelectKBest (ANOVA F); baseline of {SEED_001}, §5.2",
        summary="filter: ANOVA F statistic, scikit-learn SelectKBest's score (k tuned on "
                "model-val)"),
    MethodSpec(
        "relieff", UnivariateFilter, params=_relieff, tuning=K, requires=("skrebate",),
        cost=_filter_cost,
        source=f"Kononenko (1994), Estimating attributes: analysis and extensions of RELIEF "
               f"(skrebate); baseline of {SEED_001}, §5.2",
        summary="filter: ReliefF weights (skrebate, 100 neighbours, <= 2000 rows; k tuned on "
                "model-val)"),
    # ---------------------------------------------------------------- pca
    MethodSpec(
        "pclfs", PCLFS, params={"scoring": "f1", "cv": 5, "extended": False,
                                "max_score_drop": 0.05, "max_grid_sizes": _PCLFS_GRID},
        tasks=("classification",), source=f"{SEED_003}, §PCLFS",
        # not in the default set: the same 5-fold grid as pclfs-ext (300 fits again per repeat)
        in_default=False,
        figures="featsieve.report._pca:figures",
        summary="PCLFS: order by |PC1|+|PC2| loadings, keep the nested subset with the best "
                "5-fold F1"),
    MethodSpec(
        "pclfs-ext", PCLFS, params={"scoring": "f1", "cv": 5, "extended": True,
                                    "max_score_drop": 0.05, "max_grid_sizes": _PCLFS_GRID},
        tuning=Tuning("max_score_drop", (0.01, 0.025, 0.05, 0.1), label="T"),
        tasks=("classification",), source=f"{SEED_003}, §Suggested method, Steps 1-5, "
                                          "eq. (1)-(2)",
        figures="featsieve.report._pca:figures",
        summary="PCLFS-ext: smallest local maximum of the PCLFS F1 grid within T/n per feature "
                "(T tuned on model-val)"),
    # -------------------------------------------------------- comparators
    # the selectors users already reach for, each through its own library
    # (`pip install 'featsieve[comparators]'`); `--methods comparators` names them all
    MethodSpec(
        "boruta", BorutaSelector, uses_model=False, requires=("boruta",), cost=_fits_cost(lambda n, d: 100), **_COMPARATOR,
        source="Kursa & Rudnicki (2010), Feature selection with the Boruta package, J. Stat. "
               "Softw. 36(11); the boruta package (BorutaPy)",
        summary="all-relevant: columns that beat their shuffled shadows in a random forest "
                "(BorutaPy, <= 100 iterations)"),
    MethodSpec(
        "shap", ShapRFESelector, requires=("shap",), cost=_fits_cost(lambda n, d: 5 * min(d, 100)), **_COMPARATOR,
        source="Lundberg et al. (2020), From local explanations to global understanding with "
               "explainable AI for trees, Nat. Mach. Intell. 2; shap TreeExplainer + "
               "scikit-learn RFECV",
        summary="recursive elimination by mean |SHAP| of the tree model, size by 5-fold CV on "
                "the training part"),
    MethodSpec(
        "l1", L1Selector, cost=_fits_cost(lambda n, d: 8, kind="logistic"), **_COMPARATOR,
        tuning=Tuning("penalty", _l1_penalties, label="penalty"),
        source="Tibshirani (1996), Regression shrinkage and selection via the lasso, JRSS-B "
               "58(1); scikit-learn SelectFromModel",
        summary="L1 logistic regression / Lasso on standardized columns (SelectFromModel); "
                "penalty (C / alpha) tuned on model-val over a 10-value path"),
    MethodSpec(
        "permutation", PermutationSelector, uses_selection_val=True, cost=_fits_cost(lambda n, d: 1 + d), **_COMPARATOR,
        tuning=Tuning("n_std", (0.0, 1.0, 2.0, 3.0), label="sd"),
        source="Breiman (2001), Random forests, Mach. Learn. 45; scikit-learn "
               "permutation_importance",
        summary="permutation importance on the selection-val split, keep mean - sd x std > 0 "
                "(sd tuned on model-val; 2 alone)"),
    MethodSpec(
        "sfs", SFSSelector, cost=_fits_cost(lambda n, d: 5 * d * min(d, 20)), **_COMPARATOR,
        source="Ferri, Pudil, Hatef & Kittler (1994), Comparative study of techniques for "
               "large-scale feature selection; scikit-learn SequentialFeatureSelector",
        summary="forward sequential selection, 5-fold CV, stops when a round gains < 0.005"),
    MethodSpec(
        "knockoff", KnockoffSelector, requires=("knockpy",), cost=_fits_cost(lambda n, d: 2, kind="logistic", gram=True), **_COMPARATOR,
        source="Candès, Fan, Janson & Lv (2018), Panning for gold: model-X knockoffs, JRSS-B "
               "80(3); knockpy",
        summary="Gaussian model-X knockoffs + lasso statistic, knockoff+ at FDR 0.1 (numbers "
                "or two classes)"),
    MethodSpec(
        "abess", AbessSelector, requires=("abess",), cost=_fits_cost(lambda n, d: d, kind="logistic"), **_COMPARATOR,
        source="Zhu, Wen, Zhu, Zhang & Wang (2020), A polynomial algorithm for best-subset "
               "selection problem, PNAS 117(52); abess",
        summary="best-subset linear / logistic model on standardized columns, size by EBIC"),
)
