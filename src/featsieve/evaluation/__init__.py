"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ._compare import ComparisonResult, compare, evaluate_support

__all__ = ["ComparisonResult", "compare", "evaluate_support"]
