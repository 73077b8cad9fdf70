"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ._compare import (
    ComparisonResult,
    SeedsComparison,
    compare,
    compare_seeds,
    evaluate_support,
)
from ._front import area_under_front
from ._inflation import *  # noqa: F401,F403  the selection audit (seed 002); see _inflation.__all__

__all__ = ["ComparisonResult", "SeedsComparison", "compare", "compare_seeds",
           "evaluate_support", "area_under_front"]
