"""Kernel family (seed 004): HSIC Lasso, NOCCO Lasso, their kernels and baselines (mRMR,
cKTA, QPFS, FHSIC, SpAM, FVM).

Composed of three parts (STYLE.md, habit 11): a *kernel* per feature and for
the output (:mod:`._kernels`), a *blocking* of the samples with a streamed
design that never builds the ``n^2 x d`` matrix (:mod:`._design`), and a
*solver* on the Gram form (:mod:`._lars`; proximal for groups).

Real tables: missing values are imputed (training median; a categorical column's
missing rows are a category of their own, ``BaseSelector``); with a Gaussian
``kernel_x`` a categorical column gets the indicator kernel ``[a == b]``
(:class:`~featsieve.kernel._kernels.CategoricalColumns`), so its codes' order
plays no part; mRMR's discretized MI bins the codes.
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
