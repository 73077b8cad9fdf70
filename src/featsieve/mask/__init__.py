"""GBMO and FLBMO: training-free selection with binary feature masks (seed ``000_dd912381c0e6a8a4.txt``).

Real tables: missing values reach a model that takes NaN (LightGBM, scikit-learn
trees) as NaN and are imputed for any other (``BaseSelector``); the model is
fit through :func:`featsieve.models.fit_model` (LightGBM: native categorical
splits); a categorical column is its category codes, and masking it makes it
missing (NaN for a model that takes NaN, else the imputation's missing-value
category; ``GBMO``'s ``mask_value``).

Estimators in ``_gbmo``; the engine apart: the SLUF loop over a candidate
evaluator (batched predict or the compiled tree kernel) in ``_sluf``, the stop
rules (GBMO's slack, FLBMO's size) in ``_stop``, the losses in ``_losses``.
"""

from __future__ import annotations

from ._gbmo import FLBMO, GBMO, MU_GRID
from ._sluf import unused_columns
from ._stop import SizeStop, SlackStop, gbmo_stop_iteration

__all__ = ["GBMO", "FLBMO", "MU_GRID", "SizeStop", "SlackStop", "gbmo_stop_iteration",
           "unused_columns"]
