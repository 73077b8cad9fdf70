"""Small shared helpers of the base layer: one place for what several families need.

Nothing here knows a method: task -> scorer name, the default decision tree, the
cross-validation splitter, the rank of scores with ties broken by column order, and
the one atomic file writer of the front ends.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["scorer_for", "default_tree", "cv_splitter", "rank_from_scores", "atomic_write",
           "MethodUnavailableError", "canonical_rank"]


class MethodUnavailableError(ImportError, ValueError):
    """A method whose library is not installed; the message says what to install.

    An ``ImportError`` and a ``ValueError`` (so the front ends report it as
    bad input). Raised when the method is built (from the method table's
    ``requires``) and by a wrapper that imports its library at fit time.
    """


def scorer_for(task: str) -> str:
    """scikit-learn scorer name of the library's default metric for ``task``.

    Accuracy for classification, ``neg_mean_squared_error`` for regression (both
    higher is better, as scikit-learn's scorers are).

    Examples
    --------
    >>> scorer_for("regression")
    'neg_mean_squared_error'
    """
    return "accuracy" if task == "classification" else "neg_mean_squared_error"


def default_tree(task: str, *, random_state=None, **params):
    """An unfitted scikit-learn decision tree for ``task`` (``params`` passed on).

    Examples
    --------
    >>> default_tree("classification", max_depth=3, random_state=0)
    DecisionTreeClassifier(max_depth=3, random_state=0)
    """
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    cls = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    return cls(random_state=random_state, **params)


def cv_splitter(task: str, n_splits: int = 5, random_state=None):
    """Shuffled, seeded k-fold splitter: stratified for classification.

    The splitter's seed is drawn once from ``random_state`` (an int, a
    ``RandomState`` or None).
    """
    from sklearn.model_selection import KFold, StratifiedKFold

    seed = check_random_state(random_state).randint(0, 2**31 - 1)
    cls = StratifiedKFold if task == "classification" else KFold
    return cls(n_splits=n_splits, shuffle=True, random_state=seed)


def rank_from_scores(scores, tiebreak=None) -> tuple[np.ndarray, np.ndarray]:
    """Order and 1-based ranking of columns by descending score, ties by column index.

    Parameters
    ----------
    scores : array-like of shape (n_features,)
        Higher is more relevant; NaN ranks last.
    tiebreak : array-like of int, shape (n_features,), or None, default=None
        Ties go to the lower value (a selector's canonical column rank,
        :func:`canonical_rank`); None: to the lower column index.

    Returns
    -------
    order : ndarray of int, shape (n_features,)
        Column indices, best first.
    ranking : ndarray of int, shape (n_features,)
        ``ranking[j]`` is column ``j``'s place (1 = best).

    Examples
    --------
    >>> order, ranking = rank_from_scores([0.2, 0.9, 0.2])
    >>> order.tolist(), ranking.tolist()
    ([1, 0, 2], [2, 1, 3])
    """
    s = np.asarray(scores, dtype=np.float64)
    s = np.where(np.isnan(s), -np.inf, s)
    tie = np.arange(s.size) if tiebreak is None else np.asarray(tiebreak)
    order = np.lexsort((tie, -s))
    ranking = np.empty(s.size, dtype=np.int64)
    ranking[order] = np.arange(1, s.size + 1)
    return order, ranking


def _natural_key(label) -> tuple:
    parts = re.split(r"(\d+)", str(label))
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts))


def canonical_rank(labels) -> np.ndarray | None:
    """The place of every column label in featsieve's canonical column order.

    Selectors fit on named columns in this order, so an answer never depends
    on the order the columns were given in (issue 15, item 2): labels sorted
    naturally by their text (``x2`` before ``x10``, ``2`` before ``10``), then
    by type name and text; equal keys keep their given order.

    Parameters
    ----------
    labels : sequence of hashable, length n_features

    Returns
    -------
    rank : ndarray of int, shape (n_features,), or None
        ``rank[j]`` is column ``j``'s place (0 = first); None when the given
        order is the canonical one already.

    Examples
    --------
    >>> canonical_rank(["b", "x10", "x2", "a"]).tolist()
    [1, 3, 2, 0]
    >>> canonical_rank(["x0", "x1", "x10"]) is None
    True
    """
    keys = [(_natural_key(lab), type(lab).__name__, str(lab)) for lab in labels]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    if order == list(range(len(keys))):
        return None
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    return rank


@contextmanager
def atomic_write(path) -> Iterator[Path]:
    """Write a file through a temporary sibling and a rename, so it is never half written.

    Yields the temporary path to write; when the block ends without an error
    the file takes the permissions of the file it replaces (else ``0666`` less
    the umask, as ``open`` would give) and is renamed onto ``path``; on an
    error it is removed and ``path`` is left as it was. Missing parent
    directories are created.

    Parameters
    ----------
    path : str or path-like
        The destination.

    Yields
    ------
    tmp : pathlib.Path
        Where to write (in the destination's directory, so the rename is atomic).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.txt"
    >>> with atomic_write(out) as tmp:
    ...     _ = tmp.write_text("done")
    >>> out.read_text()
    'done'
    """
    out = Path(path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            mode = out.stat().st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    except OSError as exc:  # the message names the destination, never a temporary file
        raise OSError(exc.errno, f"cannot write {out}: {exc.strerror}") from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
