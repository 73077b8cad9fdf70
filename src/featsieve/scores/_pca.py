"""PCA loading scores (seed ``003_94dbcfb9c5faa87c.txt``, section "PCLFS")."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_array


def _one_hot(X, categorical):
    """Categorical columns (codes) as 0/1 dummies; returns the matrix and each part's column."""
    parts, owner = [], []
    for j in range(X.shape[1]):
        if categorical[j]:
            cats = np.unique(X[:, j])
            parts.append((X[:, j][:, None] == cats[None, :]).astype(np.float64))
            owner += [j] * len(cats)
        else:
            parts.append(X[:, j:j + 1])
            owner.append(j)
    return np.hstack(parts), np.asarray(owner)


def pca_loading_scores(X, y=None, *, n_components: int = 2,
                       loadings: str = "coefficients", categorical=None) -> np.ndarray:
    """Sum of the absolute principal-component loadings of each column.

    The columns are standardized (mean 0, population standard deviation 1),
    the principal components are computed by a thin SVD of the standardized
    matrix, and the score of column j is ``sum_k |L_jk|`` over the first
    ``n_components`` components.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite numbers.
    y : ignored
        Present so that the function plugs into scikit-learn's
        ``SelectKBest(score_func=pca_loading_scores)``, which calls
        ``score_func(X, y)``; PCA is unsupervised.
    n_components : int, default=2
        Number of leading components summed (the seed uses the first two).
        More than ``min(n_samples, n_features)`` uses that many.
    loadings : {"coefficients", "correlations"}, default="coefficients"
        ``"coefficients"``: L_jk is the entry j of the k-th unit eigenvector of
        the correlation matrix (scikit-learn's ``PCA.components_`` on
        standardized data). This is the seed's definition, "the PC loadings
        are the coefficients of the linear combination of the original
        variables constructed by the PCs", and it weights the first two
        components equally. ``"correlations"``: the textbook "loading" scaled
        by the square root of the component's variance, which for
        standardized data is the correlation between column j and component k
        (so every entry is in [-1, 1] and the first component weighs more).
    categorical : array-like of bool, shape (n_features,), or None, default=None
        Columns holding category codes: each is one-hot encoded (one 0/1 column
        per category seen, standardized like every column) before the PCA, and
        its score is the sum of its dummies' scores, so a category code's
        number plays no part.

    Returns
    -------
    scores : ndarray of shape (n_features,), float64, >= 0
        Dimensionless. Constant columns score 0. The sign of an eigenvector is
        arbitrary; the absolute value removes it. When eigenvalues k and k+1
        are tied the components (and so the scores) are not unique.

    Raises
    ------
    ValueError
        ``X`` is not a finite 2-D numeric array, or ``n_components < 1``, or
        ``loadings`` is unknown.

    Notes
    -----
    Cost: one thin SVD, O(n_samples * n_features * min(n_samples, n_features)).

    References
    ----------
    Seed 003 (003_94dbcfb9c5faa87c.txt), section "PCLFS": "orders features
    using the sum of the first two PC loadings' absolute values";
    Matharaarachchi, Domaratzki & Muthukumarana (2021).

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve import pca_loading_scores
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=(200, 1))
    >>> X = np.hstack([z, z + 0.1 * rng.normal(size=(200, 1)), rng.normal(size=(200, 3))])
    >>> int(np.argmax(pca_loading_scores(X, loadings="correlations")))  # doctest: +SKIP
    0
    """
    if not isinstance(n_components, numbers.Integral) or n_components < 1:
        raise ValueError(f"n_components must be an integer >= 1; got {n_components!r}.")
    if loadings not in ("coefficients", "correlations"):
        raise ValueError(
            f"loadings must be 'coefficients' or 'correlations'; got {loadings!r}.")
    X = check_array(X, dtype=np.float64, ensure_min_samples=1)
    if categorical is not None and np.any(categorical):
        parts, owner = _one_hot(X, np.asarray(categorical, dtype=bool))
        part_scores = pca_loading_scores(parts, n_components=n_components, loadings=loadings)
        return np.bincount(owner, weights=part_scores, minlength=X.shape[1])
    n, d = X.shape
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    const = sd <= 1e-12 * np.maximum(1.0, np.abs(mean))
    Z = np.zeros_like(X)
    Z[:, ~const] = (X[:, ~const] - mean[~const]) / sd[~const]
    k = int(min(n_components, n, d))
    _, s, vt = np.linalg.svd(Z, full_matrices=False)
    L = vt[:k]
    if loadings == "correlations":
        L = L * (s[:k, None] / np.sqrt(n))
    scores = np.abs(L).sum(axis=0)
    scores[const] = 0.0
    return scores

