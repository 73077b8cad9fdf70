"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ._compare import (
    ComparisonResult,
    SeedsComparison,
    compare,
    compare_seeds,
    evaluate_support,
)
from ._front import area_under_front

__all__ = ["ComparisonResult", "SeedsComparison", "compare", "compare_seeds",
           "evaluate_support", "area_under_front"]
