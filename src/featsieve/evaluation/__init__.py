"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ._compare import (
    ComparisonResult,
    SeedsComparison,
    compare,
    compare_seeds,
    evaluate_support,
)
from ._front import area_under_front
from ._inflation import (
    InflationResult,
    NoisePoolResult,
    RandomSelector,
    add_audit_columns,
    audit_method,
    class_mean_separation,
    nested_cv_score,
    noise_pool_test,
    selection_inflation,
)

__all__ = [
    "ComparisonResult",
    "InflationResult",
    "NoisePoolResult",
    "RandomSelector",
    "SeedsComparison",
    "add_audit_columns",
    "area_under_front",
    "audit_method",
    "class_mean_separation",
    "compare",
    "compare_seeds",
    "evaluate_support",
    "nested_cv_score",
    "noise_pool_test",
    "selection_inflation",
]
