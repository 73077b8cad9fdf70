"""Reproductions of the seeds' experiments, run by ``featsieve reproduce NAME``.

Each experiment module exposes ``run(*, full=False, random_state=0,
progress=False, out_dir=None) -> ReproduceResult``: library code that returns
tables (and writes figures only into ``out_dir`` when given); the CLI prints.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import pandas as pd

__all__ = ["EXPERIMENTS", "ReproduceResult", "quick_line", "run"]

# experiment name -> (module, what it reproduces)
EXPERIMENTS = {
    "gbmo": ("featsieve.reproduce.gbmo", "seed 000: GBMO/FLBMO, synthetic Table 4 and real Tables 5-8"),
    "hsic": ("featsieve.reproduce.hsic", "seed 004: HSIC/NOCCO Lasso, Figure 1 and real data"),
    "fastener": ("featsieve.reproduce.fastener", "seed 001: FASTENER vs POSS vs DT-forward, AUF tables"),
    "pclfs": ("featsieve.reproduce.pclfs", "seed 003: PCLFS/PCLFS-ext simulation and Tables 1, 3"),
    "lesson": ("featsieve.reproduce.lesson", "seed 002: filter/wrapper/embedded and selection inflation"),
}


@dataclass
class ReproduceResult:
    """Tables (name -> DataFrame), notes (plain-language lines) and figure paths."""

    name: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    params: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "params": self.params,
            "tables": {k: v.to_dict(orient="records") for k, v in self.tables.items()},
            "notes": list(self.notes),
            "figures": list(self.figures),
        }


def run(name: str, **kwargs) -> ReproduceResult:
    """Run the experiment ``name`` (see ``EXPERIMENTS``).

    Raises
    ------
    KeyError
        Unknown experiment.
    NotImplementedError
        The experiment's module is not available in this version.
    """
    if name not in EXPERIMENTS:
        raise KeyError(f"Unknown experiment {name!r}; known: {', '.join(EXPERIMENTS)}.")
    module = EXPERIMENTS[name][0]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise NotImplementedError(f"Experiment {name!r} is not available yet.") from None
        raise
    return mod.run(**kwargs)


def quick_line(name: str) -> str:
    """The line that says a run of ``name`` is the quick, reduced one, and where the full is.

    The reductions are the module's ``QUICK_RUN``; the published full results
    are ``docs/reproductions/NAME.md`` in the featsieve repository.

    Raises
    ------
    KeyError
        Unknown experiment.
    """
    if name not in EXPERIMENTS:
        raise KeyError(f"Unknown experiment {name!r}; known: {', '.join(EXPERIMENTS)}.")
    reduced = importlib.import_module(EXPERIMENTS[name][0]).QUICK_RUN
    return (f"Quick, reduced run ({reduced}): expect numbers off the paper's. "
            f"`featsieve reproduce {name} --full` runs the paper's sizes; the published full "
            f"results are in docs/reproductions/{name}.md of the featsieve repository.")
