"""Extreme learning machine: a random hidden layer and a regularised least-squares readout.

The classifier FS-SDS evaluates its subsets with in seed 001 (§5.1: "FS-SDS uses
Extreme Learning Machine (ELM) for classification ... configured with 160 hidden
neurons and the sigmoid activation function"). The model is Huang, Zhu and Siew's
(Neurocomputing 70, 2006): input weights and biases drawn once at random and
never trained, hidden outputs ``H = g(X W + b)``, output weights ``beta`` the
least-squares solution of ``H beta = T``; with the ridge term of Huang, Zhou,
Ding and Zhang (IEEE TSMC-B 42(2), 2012), ``beta = (H^T H + alpha I)^{-1} H^T T``
(their ``C`` is ``1 / alpha``), with an unpenalised intercept: scikit-learn's
``Ridge(alpha, fit_intercept=True)`` solved directly (centred normal equations,
Cholesky), as its ``"cholesky"`` solver does, without its per-call input checks
(FS-SDS fits thousands of these small networks; the equality is tested).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["ELMClassifier", "ELMRegressor"]

_ACTIVATIONS = {
    "sigmoid": lambda z: 0.5 * (1.0 + np.tanh(0.5 * z)),  # 1 / (1 + e^-z), overflow-free
    "tanh": np.tanh,
    "relu": lambda z: np.maximum(z, 0.0),
}


def _ridge(H, T, alpha):
    """``Ridge(alpha, fit_intercept=True).fit(H, T)``'s ``coef_.T`` and ``intercept_``:
    the centred normal equations ``(Hc^T Hc + alpha I) beta = Hc^T Tc`` by Cholesky
    (least squares when ``alpha`` is 0 or the system is singular)."""
    from scipy.linalg import LinAlgError, lstsq, solve

    h_mean, t_mean = H.mean(axis=0), T.mean(axis=0)
    Hc, Tc = H - h_mean, T - t_mean
    A = Hc.T @ Hc
    A.flat[:: A.shape[0] + 1] += alpha
    try:
        beta = solve(A, Hc.T @ Tc, assume_a="pos", check_finite=False)
    except LinAlgError:
        beta = lstsq(Hc, Tc, check_finite=False)[0]
    return beta, t_mean - h_mean @ beta


class _BaseELM(BaseEstimator):
    _parameter_constraints = {
        "n_hidden": [Interval(numbers.Integral, 1, None, closed="left")],
        "activation": [StrOptions(set(_ACTIVATIONS))],
        "alpha": [Interval(numbers.Real, 0, None, closed="left")],
        "scale_inputs": ["boolean"],
        "categorical": ["array-like", None],
        "random_state": ["random_state"],
    }

    def __init__(self, n_hidden=160, *, activation="sigmoid", alpha=1.0, scale_inputs=True,
                 categorical=None, random_state=None):
        self.n_hidden = n_hidden
        self.activation = activation
        self.alpha = alpha
        self.scale_inputs = scale_inputs
        self.categorical = categorical
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # TablePrep: median plus a missing indicator
        return tags

    def _prepare(self, X, y=None, *, fit: bool):
        """Validated X through the table preparation (missing cells, one-hot categories)."""
        from .models import TablePrep

        if fit:
            X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan",
                                 y_numeric=isinstance(self, RegressorMixin))
            self.prep_ = TablePrep(categorical=self.categorical).fit(X)
            return self.prep_.transform(X), y
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        return self.prep_.transform(X)

    def _hidden(self, X):
        Z = X
        if self.scale_inputs:
            Z = (X - self.mean_) / self.scale_
        return _ACTIVATIONS[self.activation](Z @ self.input_weights_ + self.biases_)

    def _fit_hidden(self, X, T):
        rng = check_random_state(self.random_state)
        d = X.shape[1]
        if self.scale_inputs:
            self.mean_ = X.mean(axis=0)
            sd = X.std(axis=0)
            self.scale_ = np.where(sd > 0, sd, 1.0)
        # Huang et al. 2006: input weights and biases uniform, never trained
        self.input_weights_ = rng.uniform(-1.0, 1.0, size=(d, self.n_hidden))
        self.biases_ = rng.uniform(-1.0, 1.0, size=self.n_hidden)
        self.coef_, self.intercept_ = _ridge(self._hidden(X), T, self.alpha)
        return self

    def _readout(self, X):
        return self._hidden(X) @ self.coef_ + self.intercept_


class ELMClassifier(ClassifierMixin, _BaseELM):
    """Extreme learning machine classifier (Huang et al. 2006; seed 001 §5.1).

    Parameters
    ----------
    n_hidden : int, default=160
        Hidden neurons (seed 001 §5.1: 160).
    activation : {"sigmoid", "tanh", "relu"}, default="sigmoid"
        Hidden activation (seed 001 §5.1: sigmoid).
    alpha : float, default=1.0
        Ridge penalty of the readout (``1/C`` of Huang et al. 2012). The seed
        gives none; 0 is the original pseudo-inverse, which interpolates the
        training rows whenever ``n_hidden`` exceeds them (the seed's
        scikit-feature sets have 50-200 rows).
    scale_inputs : bool, default=True
        Standardise each input column with the training mean and standard
        deviation before the random layer (our choice: the seed does not say;
        the weights are uniform on [-1, 1] as in Huang et al. 2006, which
        expects inputs of unit scale).
    categorical : array-like of bool or int, or None, default=None
        Columns holding category codes (set by :func:`featsieve.models.fit_model`).
        Real tables: the input first goes through
        :class:`featsieve.models.TablePrep` (a missing cell takes the training
        median plus a 0/1 missing indicator; categorical columns one-hot, missing
        rows a category of their own), so the hidden layer sees numbers only.
    random_state : int, RandomState or None, default=None
        Draws the hidden layer. The same seed gives the same network, so a
        subset scored twice gets the same score.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    prep_ : TablePrep
        The fitted table preparation.
    input_weights_ : ndarray of shape (n_prepared_columns, n_hidden)
        One row per column after ``prep_`` (``n_features_in_`` on a numeric
        table without missing cells).
    biases_ : ndarray of shape (n_hidden,)
    coef_ : ndarray of shape (n_hidden, n_outputs)
    intercept_ : ndarray of shape (n_outputs,)
        The ridge readout, fit on ``{0, 1}`` class indicators (one output, of
        class 1, for two classes); the predicted class is the largest output.

    Notes
    -----
    Time ``O(n d h + n h^2)`` for ``n`` rows, ``d`` inputs, ``h`` hidden
    neurons; memory ``O(n h)``.

    References
    ----------
    Huang, Zhu, Siew, "Extreme learning machine: theory and applications",
    Neurocomputing 70 (2006) 489-501; Huang, Zhou, Ding, Zhang, "Extreme learning
    machine for regression and multiclass classification", IEEE TSMC-B 42(2),
    2012 (the ridge readout); seed 001 (001_d348067f051b51fa.txt) §5.1.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from featsieve._elm import ELMClassifier
    >>> X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    >>> ELMClassifier(random_state=0).fit(X, y).score(X, y) > 0.9
    True
    """

    def fit(self, X, y):
        """Draw the hidden layer and fit the readout.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : ELMClassifier
        """
        self._validate_params()
        X, y = self._prepare(X, y, fit=True)
        check_classification_targets(y)
        # LabelBinarizer's indicators: one column (class 1) for two classes
        self.classes_, codes = np.unique(y, return_inverse=True)
        k = len(self.classes_)
        if k <= 2:
            T = (codes == 1).astype(np.float64)[:, None]
        else:
            T = np.zeros((len(codes), k))
            T[np.arange(len(codes)), codes] = 1.0
        return self._fit_hidden(X, T)

    def decision_function(self, X):
        """Readout outputs, shape (n_samples, n_classes); for two classes the output
        of class 1 less 1/2, shape (n_samples,) (positive: class 1)."""
        X = self._prepare(X, fit=False)
        out = self._readout(X)
        return out.ravel() - 0.5 if out.shape[1] == 1 else out

    def predict(self, X):
        """Class of the largest readout output (two classes: output above 1/2)."""
        out = self.decision_function(X)
        if len(self.classes_) == 1:
            return np.full(out.shape[0], self.classes_[0])
        if out.ndim == 1:
            return self.classes_[(out > 0).astype(int)]
        return self.classes_[np.argmax(out, axis=1)]


class ELMRegressor(RegressorMixin, _BaseELM):
    """Extreme learning machine regressor; parameters and attributes as :class:`ELMClassifier`.

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve._elm import ELMRegressor
    >>> X = np.linspace(-2, 2, 200)[:, None]
    >>> ELMRegressor(random_state=0, alpha=1e-3).fit(X, np.sin(X[:, 0])).score(X, np.sin(X[:, 0])) > 0.99
    True
    """

    def fit(self, X, y):
        """Draw the hidden layer and fit the readout on ``y``."""
        self._validate_params()
        X, y = self._prepare(X, y, fit=True)
        return self._fit_hidden(X, np.asarray(y, dtype=np.float64)[:, None])

    def predict(self, X):
        """The readout's output."""
        X = self._prepare(X, fit=False)
        return self._readout(X)[:, 0]
