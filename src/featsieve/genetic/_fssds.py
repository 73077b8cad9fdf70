"""FS-SDS: feature selection by stochastic diffusion search (seed 001's baseline [12]).

Alhakbani and al-Rifaie (GECCO 2017) search subsets of a *fixed* size ``k`` with
a swarm of agents. Each agent holds a hypothesis (a ``k``-subset) and its score;
every iteration has a test phase (an agent is *active* when its score is at least
that of another agent picked at random) and a diffusion phase (passive
recruitment: an inactive agent polls a random agent and copies its hypothesis,
one feature swapped, if that agent is active, or draws a new random hypothesis
otherwise; context-sensitive diffusion: an active agent that polls an active
agent holding the same hypothesis becomes inactive and draws a new one). The
seed runs it once per ``k`` up to ``K = 20`` (§5.3-5.4, Tables 2-3) with an
extreme learning machine as the classifier (§5.1).

Here the subsets are scored by the genetic family's evaluator and cache (fit on
the training part, score on the selection-validation part, each subset fitted
once), so FS-SDS's evaluations are counted exactly like FASTENER's and every
evaluated subset is offered to the same Pareto front.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils._param_validation import HasMethods, Interval

from ..progress import bar
from ._bitset import bits_mask, to_bits
from ._fastener import _ATTR_DOC, _COMMON_DOC, _SEARCH_CONSTRAINTS, _GeneticSearch

__all__ = ["FSSDS"]


def _default_elm(task, seed):
    from .._elm import ELMClassifier, ELMRegressor

    cls = ELMClassifier if task == "classification" else ELMRegressor
    return cls(n_hidden=160, activation="sigmoid", random_state=seed)


def _random_subset(d: int, k: int, rng) -> int:
    return to_bits(rng.choice(d, size=k, replace=False))


def _offset(bits: int, d: int, rng) -> int:
    """The hypothesis with one selected feature swapped for one unselected (the
    reference's ``set_hypotesis_with_offset``); unchanged when no swap exists."""
    mask = bits_mask(bits, d)
    on, off = np.flatnonzero(mask), np.flatnonzero(~mask)
    if on.size == 0 or off.size == 0:
        return bits
    out_j, in_j = int(rng.choice(on)), int(rng.choice(off))
    return (bits & ~(1 << out_j)) | (1 << in_j)


def _other(i: int, n: int, rng) -> int:
    """A random agent index other than ``i``."""
    j = int(rng.integers(n - 1))
    return j + (j >= i)


class FSSDS(_GeneticSearch):
    __doc__ = """FS-SDS: stochastic diffusion search over subsets of each size ``k``.

    For every ``k`` in ``sizes`` a swarm of ``n_agents`` agents starts from
    random ``k``-subsets and runs ``n_iterations`` test and diffusion phases
    (Alhakbani and al-Rifaie 2017, the seed's ref. [12]):

    * test: agent ``i`` polls a random other agent ``j`` and is active when
      ``score_i >= score_j``;
    * diffusion: an inactive agent polls a random other agent; if that one is
      active it copies its hypothesis with an offset (one selected feature
      swapped for an unselected one), else it takes a new random ``k``-subset;
      an active agent that polls an active agent with the same hypothesis
      becomes inactive and takes a new random ``k``-subset.

    New hypotheses are scored by the shared evaluator (fit on train, score on
    selection-val, cached). Every scored subset is offered to the Pareto front
    of (size, score) that FASTENER keeps, so the result has the same
    ``pareto_front_``, ``auf_`` and evaluation counts; ``best_per_size_`` keeps
    the best subset the swarm of each ``k`` found (one result per ``k``, as the
    seed compares it).

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model fit for every subset; None: an extreme learning machine with
        160 sigmoid hidden neurons (:class:`featsieve._elm.ELMClassifier`, or
        the regressor; seed 001 §5.1).
    sizes : int, list of int or None, default=None
        Subset sizes searched, each by its own swarm: an int ``K`` means
        ``1..K``; None means ``1..min(auf_max_features, n_features)`` (the
        seed's ``K = 20``). Sizes above the number of usable columns are
        dropped.
    n_agents : int, default=20
        Agents per swarm (the reference code uses 100; 30 in its test run).
    n_iterations : int, default=20
        Test and diffusion iterations per swarm (the reference: 50). Each
        iteration proposes at most ``n_agents`` subsets; the seed's ~30,000
        evaluations per ``k`` correspond to e.g. ``n_agents=100,
        n_iterations=300``.
""" + _COMMON_DOC + """
    Attributes
    ----------
    best_per_size_ : DataFrame
        One row per searched ``k``: ``size``, ``score``, ``features``,
        ``columns`` (input indices), ``n_evaluations`` (new fits of that
        swarm), ``n_proposals`` (hypotheses scored, cached ones included:
        the count the seed reports per ``k``).
""" + _ATTR_DOC + """
    Notes
    -----
    Choices where the paper (and its reference code, github.com/mohmaj/SDS-FS)
    is open or where we differ:

    - The diffusion phase is synchronous: every agent polls the state left by
      the test phase, so one iteration's new hypotheses are evaluated as one
      parallel batch. The reference code updates the agents in turn, so a
      later agent may poll an agent already changed in the same iteration.
    - A subset is fitted once (the cache): the reference re-scores a
      hypothesis on a fresh random 80/20 split every time, so re-drawn
      hypotheses get new noisy scores. ``n_proposals`` counts every scoring
      as the reference does; ``n_evaluations_`` counts fits.
    - The reference runs several independent trials per ``k`` and returns
      the best hypothesis ever seen; one swarm per ``k`` with the best seen
      subset is what ``best_per_size_`` reports (more trials = more
      iterations).
    - The seed's classifier is an ELM (the reference code uses an SVM); the
      ELM's ridge penalty and input scaling are ours
      (:class:`featsieve._elm.ELMClassifier`).
    - ``history_`` has one record per iteration of every swarm
      (``generation`` counts them over all sizes), plus ``size`` and
      ``iteration``; ``n_active`` is the number of active agents after the
      test phase.

    Time: about ``len(sizes) * n_agents * (n_iterations + 1)`` model fits at
    most (fewer with cache hits).

    References
    ----------
    H. Alhakbani, M. M. al-Rifaie, "Feature selection using stochastic
    diffusion search", Proc. GECCO 2017, 385-392 (algorithm of §3; reference
    code github.com/mohmaj/SDS-FS). Seed 001 (001_d348067f051b51fa.txt) §2.1,
    §5.1 (ELM, 160 sigmoid neurons), §5.3 Table 2, §5.4 Table 3 (one run per
    ``k``, ~30,000 evaluations per ``k``).

    Examples
    --------
    >>> from featsieve.genetic import FSSDS
    >>> from featsieve.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> sel = FSSDS(sizes=3, n_agents=6, n_iterations=4, random_state=0).fit(X, y)
    >>> sel.best_per_size_["size"].tolist()
    [1, 2, 3]
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "sizes": [Interval(numbers.Integral, 1, None, closed="left"), list, None],
        "n_agents": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_iterations": [Interval(numbers.Integral, 0, None, closed="left")],
        **_SEARCH_CONSTRAINTS,
    }

    def __init__(self, estimator=None, *, sizes=None, n_agents=20, n_iterations=20,
                 scoring="auto", max_evaluations=None, select="plateau", tol=0.01,
                 auf_max_features=20, validation_fraction=0.2, task="auto", random_state=None,
                 n_jobs=None, progress=False, max_samples=None):
        self.max_samples = max_samples
        self.estimator = estimator
        self.sizes = sizes
        self.n_agents = n_agents
        self.n_iterations = n_iterations
        self.scoring = scoring
        self.max_evaluations = max_evaluations
        self.select = select
        self.tol = tol
        self.auf_max_features = auf_max_features
        self.validation_fraction = validation_fraction
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.progress = progress

    def _input_dtype(self):
        return np.float64

    def _missing_strategy(self):
        # the default ELM takes no NaN: missing values are imputed for it (BaseSelector)
        return "impute" if self.estimator is None else super()._missing_strategy()

    def _default_estimator(self, seed):
        return _default_elm(self.task_, seed)

    def _sizes(self, d: int) -> list[int]:
        s = self.sizes
        if s is None:
            ks = range(1, min(self.auf_max_features, d) + 1)
        elif isinstance(s, numbers.Integral):
            ks = range(1, int(s) + 1)
        else:
            bad = [v for v in s if not isinstance(v, numbers.Integral) or isinstance(v, bool)
                   or v < 1]
            if bad or not s:
                raise ValueError(f"sizes must be a positive int or a non-empty list of positive "
                                 f"ints; got {s!r}.")
            ks = sorted({int(v) for v in s})
        return [k for k in ks if k <= d]

    def _search(self, state, parallel):
        """One stochastic diffusion search per size ``k``; the best hypothesis of each."""
        d = state.n_features
        sizes = self._sizes(d)
        names = self._fit_feature_names
        usable_idx = self._fit_index
        per_size = []
        with bar(len(sizes), desc="sizes", unit="k", enabled=self.progress) as pbar:
            for k in sizes:
                if state.spent:
                    break
                before = len(state.cache)
                best, proposals = self._diffuse(state, k, parallel)
                if best is not None:
                    cols = np.flatnonzero(bits_mask(best[0], d))
                    per_size.append({
                        "size": k, "score": float(best[1]),
                        "features": tuple(names[c] for c in cols),
                        "columns": tuple(int(c) for c in usable_idx[cols]),
                        "n_evaluations": len(state.cache) - before,
                        "n_proposals": proposals})
                pbar.update(1)
        import pandas as pd

        return {"best_per_size_": pd.DataFrame(
            per_size, columns=["size", "score", "features", "columns", "n_evaluations",
                               "n_proposals"])}

    def _diffuse(self, state, k: int, parallel):
        """The agents' test and diffusion phases for size ``k``; the best (bits, score) seen
        and the hypotheses proposed."""
        rng, d, n = state.rng, state.n_features, self.n_agents
        hyp = [_random_subset(d, k, rng) for _ in range(n)]
        score = self._score(state, hyp, parallel)
        proposals = n
        best = self._best(hyp, score, None)
        for it in range(1, self.n_iterations + 1):
            if state.spent:
                break
            ev0, hits0 = len(state.cache), state.n_hits
            # test phase
            active = np.array([score[i] >= score[_other(i, n, rng)] for i in range(n)])
            # diffusion phase (synchronous: every poll sees the tested state)
            new, changed = list(hyp), []
            for i in range(n):
                j = _other(i, n, rng)
                if not active[i]:
                    new[i] = _offset(hyp[j], d, rng) if active[j] else _random_subset(d, k, rng)
                    changed.append(i)
                elif active[j] and hyp[j] == hyp[i]:
                    new[i] = _random_subset(d, k, rng)
                    changed.append(i)
            hyp = new
            if changed:
                sc = self._score(state, [hyp[i] for i in changed], parallel)
                for i, s in zip(changed, sc, strict=True):
                    score[i] = s
                proposals += len(changed)
            best = self._best(hyp, score, best)
            state.record(len(state.history) + 1, len(state.cache) - ev0, state.n_hits - hits0,
                         size=k, iteration=it, n_active=int(active.sum()))
        return best, proposals

    @staticmethod
    def _score(state, items, parallel) -> np.ndarray:
        """Scores of ``items`` in order (NaN for items the budget left unevaluated); every
        scored item is offered to the front."""
        got = dict(state.evaluate(items, parallel))
        return np.array([got.get(b, np.nan) for b in items], dtype=float)

    @staticmethod
    def _best(hyp, score, best):
        for b, s in zip(hyp, score, strict=True):
            if np.isfinite(s) and (best is None or s > best[1]):
                best = (b, float(s))
        return best
