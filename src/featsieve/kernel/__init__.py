"""Kernel family (seed 004): HSIC Lasso, NOCCO Lasso, their kernels and baselines (mRMR,
cKTA, QPFS, FHSIC, SpAM, FVM).

Composed of three parts (STYLE.md, habit 11): a *kernel* per feature and for
the output (:mod:`._kernels`), a *blocking* of the samples with a streamed
design that never builds the ``n^2 x d`` matrix (:mod:`._design`), and a
*solver* on the Gram form (:mod:`._lars`; proximal for groups).
"""

from ._baselines import CKTA, FHSIC, MRMR, QPFS, GroupHSICLasso, discrete_mutual_info
from ._design import KernelDesign, covariate_gram, make_blocks, pyhsiclasso_permutations
from ._fvm import FVM
from ._kernels import (
    DeltaKernel,
    GaussianKernel,
    LookupGaussianKernel,
    center_gram,
    delta_kernel,
    gaussian_kernel,
    hsic,
    normalize_gram,
)
from ._lars import LarsPath, nonnegative_lars
from ._lasso import HSICLasso, NOCCOLasso, hsic_scores
from ._spam import SpAM

__all__ = [
    "HSICLasso",
    "NOCCOLasso",
    "GroupHSICLasso",
    "SpAM",
    "FVM",
    "covariate_gram",
    "MRMR",
    "CKTA",
    "QPFS",
    "FHSIC",
    "discrete_mutual_info",
    "hsic_scores",
    "GaussianKernel",
    "LookupGaussianKernel",
    "DeltaKernel",
    "gaussian_kernel",
    "delta_kernel",
    "center_gram",
    "normalize_gram",
    "hsic",
    "KernelDesign",
    "make_blocks",
    "pyhsiclasso_permutations",
    "LarsPath",
    "nonnegative_lars",
]


# ------------------------------------------------------------ registration
def _lasso_path_candidates(selector, n_features: int) -> dict:
    """HSIC/NOCCO Lasso with k features for every k of the grid, from one LARS path.

    The selection with ``k`` features is the active set just before the
    ``(k+1)``-th feature enters (what a fit with ``n_features_to_select=k``
    returns), so one path up to the largest ``k`` serves every candidate.
    """
    import numpy as _np

    from .._registry import k_grid

    d = len(selector.support_)
    out = {}
    for k in k_grid(n_features):
        chosen = None
        for s in selector.path_active_:
            if len(s) >= k + 1:
                chosen = s[:k]
                break
        if chosen is None:
            chosen = selector.path_active_[-1][:k]
        mask = _np.zeros(d, bool)
        mask[_np.asarray(chosen, dtype=int)] = True
        out[f"k={k}"] = mask
    return out


def _register():
    from .._registry import MethodSpec, ranking_candidates, register

    src = "seed 004 (004_aacbb39825c2197a.txt)"
    register(MethodSpec(
        name="hsic-lasso",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: HSICLasso(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} eq. (3)-(4), §2.3",
        summary="HSIC Lasso: non-negative Lasso on feature-wise centered Gaussian kernels "
                "(k tuned on model-val from one LARS path)",
        candidates=_lasso_path_candidates, fits=lambda s: 0,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="nocco-lasso",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: NOCCOLasso(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} §2.6",
        summary="NOCCO Lasso: HSIC Lasso on K(K + eps n I)^-1, eps=1e-3 (k tuned from one path)",
        candidates=_lasso_path_candidates, fits=lambda s: 0,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="mrmr",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: MRMR(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} §3.2 (Peng et al. 2005)",
        summary="mRMR: greedy relevance minus mean redundancy, discretized mutual information "
                "(k tuned on model-val)",
        candidates=ranking_candidates, fits=lambda s: 0,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="ckta",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: CKTA(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} §3.1 (Cortes et al. 2012)",
        summary="cKTA: non-negative least squares on the HSIC Gram (k tuned on model-val)",
        candidates=ranking_candidates, fits=lambda s: 0, in_default=False,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="qpfs",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: QPFS(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} §3.5 (Rodriguez-Lujan et al. 2010)",
        summary="QPFS on HSIC, sum-to-one, gamma=0.5, SciPy SLSQP (k tuned on model-val)",
        candidates=ranking_candidates, fits=lambda s: 0, in_default=False,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="spam",
        build=lambda *, task, n_features_to_select, **_: SpAM(
            0.5 if n_features_to_select is None else n_features_to_select, task=task),
        source=f"{src} §3.6, Figure 1 (Ravikumar, Lafferty, Liu, Wasserman, 'Sparse additive "
               "models', JRSS-B 2009)",
        summary="SpAM: sparse backfitting with cubic-spline smoothers along a lambda path (classes:"
                " multi-response least squares; k tuned on model-val from the entry order)",
        candidates=ranking_candidates, fits=lambda s: 0, in_default=False,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="fvm",
        build=lambda *, task, n_features_to_select, **_: FVM(
            0.5 if n_features_to_select is None else n_features_to_select, task=task),
        source=f"{src} eq. (2), §4 (Li, Yang, Xing, 'From Lasso regression to feature vector "
               "machine', NIPS 2006)",
        summary="FVM: Lasso on the discretized mutual-information matrix (+ diagonal constant), "
                "scikit-learn LARS path (k tuned on model-val from the entry order)",
        candidates=ranking_candidates, fits=lambda s: 0, in_default=False,
        path_params={"n_features_to_select": 0.5},
    ))
    register(MethodSpec(
        name="fhsic",
        build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: FHSIC(
            n_features_to_select, task=task, random_state=random_state, n_jobs=n_jobs),
        source=f"{src} §3.3 eq. (7) (Song et al. 2012)",
        summary="forward selection by HSIC of the selected set (k tuned on model-val)",
        candidates=ranking_candidates, fits=lambda s: 0, in_default=False,
        path_params={"n_features_to_select": 0.5},
    ))


_register()
