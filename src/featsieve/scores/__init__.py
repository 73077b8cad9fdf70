"""Pure score functions ``(X, y) -> one score per column`` (STYLE.md habit 4).

Higher is more relevant. Each plugs into :class:`featsieve.UnivariateFilter` and
scikit-learn's ``SelectKBest``. The scores here need no method family: HSIC
scores are built from the kernel family's kernels and blocks and live in
:mod:`featsieve.kernel` (``featsieve.kernel.hsic_scores``).
"""

from __future__ import annotations

from ._baselines import anova_f_scores, relieff_scores
from ._pca import pca_loading_scores
from ._separation import class_mean_separation
from ._univariate import abs_correlation_scores, mutual_info_scores, stump_gain_scores

__all__ = [
    "abs_correlation_scores",
    "anova_f_scores",
    "class_mean_separation",
    "mutual_info_scores",
    "pca_loading_scores",
    "relieff_scores",
    "stump_gain_scores",
]
