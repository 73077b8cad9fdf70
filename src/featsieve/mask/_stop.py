"""Where masked elimination stops: GBMO's slack rule and FLBMO's size rule (seed 000 §3).

A stop rule answers two questions about one SLUF path (Algorithm 1): while
the path is being built, whether an iteration's elimination is kept
(:meth:`accepts`) and how far down the loop must go (:meth:`target_size`);
and, on a finished path, how many eliminations the rule makes
(:meth:`n_removed`). The elimination order does not depend on the rule, so
one path answers every ``mu`` and every ``eta`` it reaches.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SlackStop", "SizeStop", "gbmo_stop_iteration"]


def _gbmo_stops(loss_t: float, loss_prev: float, slack: float) -> bool:
    """Algorithm 2, line 12: stop when ``Loss_t > Loss_{t-1} (1 + mu)``.

    ``Loss_0 = inf`` never stops. For a negative ``Loss_{t-1}`` (a loss made from
    a higher-is-better scorer) the tolerance is read as relative to its size,
    ``Loss_{t-1} (1 - mu)``; for non-negative losses this is the seed's rule.
    """
    if not np.isfinite(loss_prev):
        return False
    if not np.isfinite(slack):
        return False
    thr = loss_prev * (1 + slack) if loss_prev >= 0 else loss_prev * (1 - slack)
    return bool(loss_t > thr)


def gbmo_stop_iteration(losses, slack: float) -> int | None:
    """First iteration (1-based) at which GBMO with slack ``mu`` stops on a path.

    Parameters
    ----------
    losses : sequence of float
        ``Loss_1^min, Loss_2^min, ...`` of one elimination path (eq. 13).
    slack : float
        ``mu`` (Algorithm 2).

    Returns
    -------
    t : int or None
        The rejected iteration (features eliminated: ``t - 1``), or None when
        the rule never fires on the given losses.

    Examples
    --------
    >>> gbmo_stop_iteration([1.0, 1.0005, 1.1], slack=0.001)
    3
    """
    prev = np.inf
    for t, loss_t in enumerate(losses, start=1):
        if _gbmo_stops(loss_t, prev, slack):
            return t
        prev = loss_t
    return None


class SlackStop:
    """GBMO's rule (seed 000 Algorithm 2): stop at the first ``Loss_t > Loss_{t-1} (1 + mu)``.

    Parameters
    ----------
    slack : float >= 0
        ``mu``; ``inf`` never stops (the path runs down to one feature).

    Notes
    -----
    The rejected iteration is part of the path (its SLUF choice was computed)
    and of the history, marked not accepted.
    """

    def __init__(self, slack: float):
        self.slack = slack

    def target_size(self, n_features: int) -> int:
        return 1  # the last feature is never eliminated

    def accepts(self, loss_t: float, loss_prev: float) -> bool:
        return not _gbmo_stops(loss_t, loss_prev, self.slack)

    def n_removed(self, losses, n_features: int) -> int:
        """Eliminations this rule makes on a path of ``losses`` from ``n_features`` columns.

        Raises
        ------
        ValueError
            The path ends before the rule fires and before one feature is left.
        """
        t = gbmo_stop_iteration(losses, self.slack)
        if t is not None:
            return t - 1
        if len(losses) >= n_features - 1:  # the path went all the way down to one feature
            return len(losses)
        raise ValueError(
            f"The fitted path has {len(losses)} iterations and does not show where GBMO with "
            f"slack={self.slack} stops; refit with slack >= {self.slack}.")

    def n_recorded(self, n_removed: int, n_iterations: int) -> int:
        """Iterations a run of this rule records: the kept ones and the rejected one."""
        return min(n_iterations, n_removed + 1)


class SizeStop:
    """FLBMO's rule (seed 000 Algorithm 3): eliminate until ``eta`` features remain.

    Parameters
    ----------
    n_features : int >= 1
        ``eta``.
    """

    def __init__(self, n_features: int):
        self.n_features = int(n_features)

    def target_size(self, n_features: int) -> int:
        return self.n_features

    def accepts(self, loss_t: float, loss_prev: float) -> bool:
        return True

    def n_removed(self, losses, n_features: int) -> int:
        """``n_features - eta``, checked against what the path reached.

        Raises
        ------
        ValueError
            ``eta`` outside ``[1, n_features]``, or below the path's last size.
        """
        eta, d, T = self.n_features, n_features, len(losses)
        if not 1 <= eta <= d:
            raise ValueError(f"n_features must be in [1, {d}]; got {eta}.")
        if d - eta > T:
            raise ValueError(
                f"The fitted path reached {d - T} features; n_features={eta} needs a path "
                f"down to {eta} (refit with n_features_to_select <= {eta}).")
        return d - eta

    def n_recorded(self, n_removed: int, n_iterations: int) -> int:
        return n_removed


def stop_rule(*, slack=None, n_features=None):
    """The rule of a ``support_at`` cut: ``slack=`` (GBMO) or ``n_features=`` (FLBMO)."""
    if (slack is None) == (n_features is None):
        raise ValueError("Give exactly one of slack (GBMO) or n_features (FLBMO).")
    return SlackStop(slack) if slack is not None else SizeStop(n_features)
