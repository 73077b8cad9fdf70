"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ._compare import (
    ComparisonResult,
    SeedsComparison,
    compare,
    compare_seeds,
    evaluate_support,
)

__all__ = ["ComparisonResult", "SeedsComparison", "compare", "compare_seeds",
           "evaluate_support"]
