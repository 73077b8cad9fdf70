"""The genetic search engine: one run's state, the generation loop, FASTENER's and POSS's strategies.

The estimators (:class:`~featsieve.genetic.FASTENER`, :class:`~featsieve.genetic.POSS`)
only validate, build a :class:`SearchState` and a strategy, call
:func:`run_search` and read the result off the state; the state lives in
``fit``'s frame, so nothing of a search (data, cache, models, generator) is
left on the estimator, whether the fit ends or fails. A strategy is
optuna's sampler of this loop: ``start`` makes the first population from the
initial items, ``step`` makes one generation; both receive the state, and
through it the random generator, explicitly.
"""

from __future__ import annotations

import logging

import numpy as np
from joblib import delayed

from ..progress import bar
from ._bitset import popcount
from ._front import area_under_front
from ._operators import FrontItem, ParetoFront

__all__ = ["SearchState", "FastenerStrategy", "PossStrategy", "run_search"]

_log = logging.getLogger("featsieve.genetic")


class SearchState:
    """What one search run holds: the evaluator, the cache, the front, the generator, the record.

    Parameters
    ----------
    evaluator : SubsetEvaluator
        Fits and scores items (it holds the training and selection-val rows).
    rng : numpy.random.Generator
    budget : int or float
        Distinct evaluations allowed (``inf``: no limit).
    empty_score : float
        ``opt(k)`` of the AUF below the front's smallest item.
    auf_max_features : int
        K of the AUF recorded per generation.
    name : str, default="search"
        Shown in the log lines.

    Attributes
    ----------
    cache : dict of int to float
        Score of every evaluated item (bitset).
    order : dict of int to int
        Index of the evaluation that scored each item.
    front : ParetoFront
        Items with their fitted models (kept for purging).
    n_hits, n_predictions : int
        Items answered from the cache; permutation predictions of purging.
    history, front_history : list
        One record and one front (size, score) list per generation.
    """

    def __init__(self, evaluator, rng, *, budget, empty_score, auf_max_features, name="search"):
        self.evaluator, self.rng, self.budget = evaluator, rng, budget
        self.empty_score, self.auf_max_features, self.name = (empty_score, auf_max_features,
                                                               name)
        self.cache: dict[int, float] = {}
        self.order: dict[int, int] = {}
        self.front = ParetoFront()
        self.n_hits = self.n_predictions = 0
        self.history: list[dict] = []
        self.front_history: list[list] = []

    @property
    def n_features(self) -> int:
        return self.evaluator.n_features

    @property
    def spent(self) -> bool:
        """Whether the evaluation budget is used up."""
        return len(self.cache) >= self.budget

    def evaluate(self, items: list[int], parallel) -> list[tuple[int, float]]:
        """Score ``items`` (deduplicated, order kept) and offer them to the front.

        New items are fitted in parallel, at most up to the budget (the rest
        are dropped). A model is kept only for an item whose score beat the
        front's best score at its size or below when its batch was dispatched:
        below that it can never enter the front.

        Returns
        -------
        scored : list of (bits, score)
            The items that have a score (cached or new), in order.
        """
        uniq = list(dict.fromkeys(items))
        new = [b for b in uniq if b not in self.cache]
        room = self.budget - len(self.cache)
        if len(new) > room:
            new = new[: int(max(room, 0))]
        self.n_hits += sum(1 for b in uniq if b in self.cache)
        models = {}
        if new:
            thr = [self.front.opt(popcount(b)) for b in new]
            res = parallel(delayed(self.evaluator.evaluate_batch)([b], [t])
                           for b, t in zip(new, thr, strict=True))
            for b, r in zip(new, res, strict=True):
                score, model = r[0]
                self.order[b] = len(self.cache)
                self.cache[b] = score
                if model is not None:
                    models[b] = model
        scored = [(b, self.cache[b]) for b in uniq if b in self.cache]
        # an item without a model had a score not above the front when it was
        # dispatched, so it cannot stay on the front: offering it changes nothing
        for b, s in scored:
            self.front.offer(FrontItem(b, s, self.order.get(b, 0), models.get(b)))
        self.front.remove_dominated()
        return scored

    def auf(self, pairs) -> float:
        return area_under_front(pairs, self.auf_max_features, empty_score=self.empty_score)

    def record(self, generation: int, n_new: int, hits: int, **extra) -> None:
        """Append this generation's record and front."""
        pairs = self.front.pairs()
        self.front_history.append(pairs)
        best = max((s for _, s in pairs), default=np.nan)
        rec = {"generation": generation, "n_evaluations": len(self.cache), "n_new": n_new,
               "cache_hits": hits, "auf": self.auf(pairs),
               "front_size": len(pairs), "best_score": float(best)}
        rec.update(extra)
        self.history.append(rec)
        _log.info("%s generation %d: %d evaluations (%d new, %d cached), AUF %.4f, front %d",
                  self.name, generation, rec["n_evaluations"], n_new, hits, rec["auf"],
                  rec["front_size"])


def run_search(strategy, state: SearchState, initial: list[int], *, n_generations: int,
               parallel, progress: bool = False) -> None:
    """The loop of seed 001 Algorithm 1 around any strategy; the result stays in ``state``.

    Generation 0 is ``strategy.start`` on the ``initial`` items; then up to
    ``n_generations`` calls of ``strategy.step``, stopped early when the
    budget is spent. Each generation is recorded in ``state.history``.
    """
    population, extra = strategy.start(state, initial, parallel)
    state.record(0, len(state.cache), 0, **extra)
    desc, unit = strategy.progress_label
    with bar(n_generations, desc=desc, unit=unit, enabled=progress) as pbar:
        for gen in range(1, n_generations + 1):
            if state.spent:
                break
            before, hits0 = len(state.cache), state.n_hits
            population, extra = strategy.step(state, gen, population, parallel)
            state.record(gen, len(state.cache) - before, state.n_hits - hits0, **extra)
            pbar.update(1)
            if not getattr(pbar, "disable", False):
                pbar.set_postfix_str(f"evals={len(state.cache)} auf={state.history[-1]['auf']:.4f}")


class FastenerStrategy:
    """One FASTENER generation (seed 001 Algorithm 1, lines 3-14).

    Mating pool and information-gain crossover (Algorithm 2), bit-flip
    mutation of the population and the children (and of the front with
    ``carry_front``), evaluation, buckets of ``max_bucket_size`` items per
    size, front purging (Algorithm 3) and reset of the population to the
    front on their predicates.

    Parameters
    ----------
    mating_pool, crossover, mutation, gene_purge : operators
        As the :class:`~featsieve.genetic.FASTENER` parameters (resolved).
    weights : ndarray of shape (n_features,)
        Crossover weights.
    max_bucket_size : int
    carry_front : bool
    reset, purge : callable
        ``predicate(generation) -> bool``.
    """

    progress_label = ("generations", "gen")

    def __init__(self, *, mating_pool, crossover, mutation, gene_purge, weights,
                 max_bucket_size, carry_front, reset, purge):
        self.mating_pool, self.crossover, self.mutation = mating_pool, crossover, mutation
        self.gene_purge, self.weights = gene_purge, weights
        self.max_bucket_size, self.carry_front = max_bucket_size, carry_front
        self.reset, self.purge = reset, purge

    def start(self, state, initial, parallel):
        population = self._bucket(state.evaluate([b for b in initial if b != 0], parallel))
        return population, {"purged": False, "reset": False,
                            "population_size": len(population)}

    def step(self, state, generation, population, parallel):
        rng, d = state.rng, state.n_features
        pool = self.mating_pool.select(population, rng)
        children = [self.crossover(a, b, self.weights, rng)
                    for a, b in self.mating_pool.pairs(pool)]
        parents = population + children
        if self.carry_front:
            have = set(population)
            parents += [b for b in state.front.bits() if b not in have]
        mutated = [self.mutation(b, d, rng, generation) for b in parents]
        population = self._bucket(state.evaluate([b for b in mutated if b != 0], parallel))
        purged = bool(self.purge(generation))
        if purged:
            self._purge_front(state, parallel)
        reset = bool(self.reset(generation))
        if reset:
            population = state.front.bits()
        return population, {"purged": purged, "reset": reset,
                            "population_size": len(population)}

    def _bucket(self, scored):
        """Keep the best ``max_bucket_size`` items of each size (stable)."""
        by_size: dict[int, list] = {}
        for b, s in scored:
            by_size.setdefault(popcount(b), []).append((b, s))
        out = []
        for k in sorted(by_size):
            items = sorted(by_size[k], key=lambda t: -t[1])[: self.max_bucket_size]
            out.extend(b for b, _ in items)
        return out

    def _purge_front(self, state, parallel):
        """Algorithm 3: drop from every front item the gene ``gene_purge`` picks from the
        permutation costs on its stored model, and evaluate the smaller items."""
        items = [it for it in state.front.items() if it.size > 1 and it.model is not None]
        if not items:
            return
        seeds = [int(s) for s in state.rng.integers(2**31 - 1, size=len(items))]
        res = parallel(delayed(state.evaluator.permutation_decrease)(it.model, it.bits,
                                                                      it.score, s)
                       for it, s in zip(items, seeds, strict=True))
        new = []
        for it, (cols, dec) in zip(items, res, strict=True):
            state.n_predictions += len(cols)
            gene = self.gene_purge(cols, dec,
                                   lambda g, b=it.bits: (b & ~(1 << g)) not in state.cache,
                                   state.rng)
            if gene is not None:
                new.append(it.bits & ~(1 << gene))
        state.evaluate(new, parallel)


class PossStrategy:
    """One POSS iteration (Qian, Yu & Zhou 2015, Algorithm 1): mutate archive items.

    Parameters
    ----------
    mutation : callable
        ``mutation(item, n_features, rng, generation) -> item``.
    batch_size : int
        Offspring per iteration, each from a uniformly drawn archive item.
    max_size : int
        Offspring larger than this are discarded unevaluated.
    """

    progress_label = ("iterations", "it")

    def __init__(self, *, mutation, batch_size, max_size):
        self.mutation, self.batch_size, self.max_size = mutation, batch_size, max_size

    def start(self, state, initial, parallel):
        state.evaluate(initial, parallel)
        return None, {}

    def step(self, state, generation, population, parallel):
        rng, d = state.rng, state.n_features
        archive = state.front.bits()
        parents = rng.integers(len(archive), size=self.batch_size)
        kids = [self.mutation(archive[i], d, rng, generation) for i in parents]
        state.evaluate([b for b in kids if popcount(b) <= self.max_size], parallel)
        return None, {}
