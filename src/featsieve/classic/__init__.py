"""Classic selectors: the filter, wrapper and embedded families of seed 002.

Seed: ``002_2595f2849cd4c4da.txt`` (FS15-FS21). The filter scores each column
alone (mutual information and absolute correlation are the MI and CC baselines
of seed 000 §4.1; the single-split purity gain is FS17); the wrapper is forward
selection read on a validation set (FS18); the embedded method keeps the
columns that carry at least a share of a fitted model's importance (FS19).
RFE and RFECV are scikit-learn's and are only registered here.

Real tables (``BaseSelector``: one encoded column per original column): the
model-based selectors (forward, embedded, RFE/RFECV) give missing values to a
model that takes NaN (LightGBM, scikit-learn trees) as NaN and impute them for
any other (training median; a categorical column's missing rows are a category
of their own); every model fit goes through :func:`featsieve.models.fit_model`,
so LightGBM splits categorical columns natively and the scikit-learn models
one-hot encode them inside their Pipeline (RFE's elimination is scikit-learn's
loop written out for that; RFECV passes column subsets the model cannot
identify, so categories reach it as codes). The filter imputes, then
scores categories by Cramér's V / the correlation ratio (``cc``) or as discrete
(``mi``); ``purity``, ANOVA F and ReliefF see the codes.
"""

from __future__ import annotations

from ._embedded import EmbeddedSelector, RFECVSelector, RFESelector
from ._filter import UnivariateFilter
from ._forward import ForwardSelector
from ._random import RandomSelector

__all__ = [
    "UnivariateFilter",
    "ForwardSelector",
    "EmbeddedSelector",
    "RFESelector",
    "RFECVSelector",
    "RandomSelector",
]
