"""Class-mean separation of each column (seed 002 FS21)."""

from __future__ import annotations

import numpy as np
from sklearn.utils.multiclass import type_of_target

__all__ = ["class_mean_separation"]


def class_mean_separation(X, y) -> np.ndarray:
    """Distance between the class means of each column (seed 002, FS21).

    For two classes this is the seed's ``separation``:
    ``|mean(x | y = 1) - mean(x | y = 0)|``. For more classes it is the largest
    distance between two class means, ``max_c mean_c - min_c mean_c``, which
    reduces to the seed's formula for two classes.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels (any type, at least two classes).

    Returns
    -------
    scores : ndarray of shape (n_features,)
        In the units of each column; higher separates more.

    Raises
    ------
    ValueError
        A continuous target (the score is defined for classes only), a single
        class, or mismatched lengths.

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS21, functions ``separation`` and
    ``top_k``. Top-k by this score is ``UnivariateFilter(class_mean_separation,
    n_features_to_select=k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve.scores import class_mean_separation
    >>> X = np.array([[0.0, 1.0], [2.0, 1.0], [4.0, 3.0], [6.0, 3.0]])
    >>> class_mean_separation(X, [0, 0, 1, 1]).tolist()
    [4.0, 2.0]
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X.shape}.")
    y = np.asarray(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]}.")
    if y.dtype.kind == "f" and type_of_target(y) == "continuous":
        raise ValueError(
            "class_mean_separation needs class labels; the target is continuous. "
            "Use abs_correlation_scores for a regression target."
        )
    classes, codes = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"class_mean_separation needs at least 2 classes; got {len(classes)}.")
    counts = np.bincount(codes, minlength=len(classes)).astype(np.float64)
    sums = np.zeros((len(classes), X.shape[1]))
    np.add.at(sums, codes, X)
    means = sums / counts[:, None]
    return means.max(axis=0) - means.min(axis=0)
