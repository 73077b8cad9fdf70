"""A selector that ignores y: the null reference of the selection audit (seed 002 FS21)."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

from .._base import BaseSelector
from .._validation import N_FEATURES_CONSTRAINT


class RandomSelector(BaseSelector):
    """Keep k columns drawn at random: a selector that ignores ``y``.

    The null reference of the selection audit: its choice carries no
    information about the target, so the noise-pool inflation of
    :func:`noise_pool_test` must be zero up to noise.

    The draw is seeded by ``random_state`` *and the number of rows seen*, so
    that fits on different rows (training rows only vs all rows) draw
    different columns, as two independent random choices would; refitting on
    the same rows gives the same columns.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        Columns to keep (a float in (0, 1] is a fraction; None keeps half).
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        The random draw in [0, 1); the kept columns have the highest.
    ranking_ : ndarray of int, shape (n_features_in_,)
    support_ : ndarray of bool, shape (n_features_in_,)

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve.classic import RandomSelector
    >>> X = np.random.default_rng(0).normal(size=(20, 6))
    >>> RandomSelector(n_features_to_select=2, random_state=0).fit(X, [0, 1] * 10).n_features_selected_
    2
    """

    _missing = "native"  # the draw ignores the values

    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "random_state": ["random_state"],
    }

    def __init__(self, n_features_to_select=None, *, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    def _fit(self, X, y):
        seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
        rng = np.random.default_rng([seed, X.shape[0]])
        scores = rng.random(X.shape[1])
        order = np.argsort(-scores, kind="stable")
        ranking = np.empty(X.shape[1], dtype=np.int64)
        ranking[order] = np.arange(1, X.shape[1] + 1)
        k = self._n_to_select(X.shape[1])
        self.scores_, self.ranking_, self.support_ = scores, ranking, ranking <= k
        self.n_model_fits_ = 0
        return self
