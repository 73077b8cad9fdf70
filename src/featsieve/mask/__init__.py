"""GBMO and FLBMO: training-free selection with binary feature masks (seed ``000_dd912381c0e6a8a4.txt``).

Real tables: missing values reach a model that takes NaN (LightGBM, scikit-learn
trees) as NaN and are imputed for any other (``BaseSelector``); a categorical
column is its category codes, and masking it sets it to ``mask_value`` (a
constant code) like any column.
"""

from __future__ import annotations

from ._gbmo import FLBMO, GBMO, MU_GRID
from ._sluf import gbmo_stop_iteration, unused_columns

__all__ = ["GBMO", "FLBMO", "MU_GRID", "gbmo_stop_iteration", "unused_columns"]
