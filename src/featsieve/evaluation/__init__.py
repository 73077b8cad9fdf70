"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ..genetic import area_under_front
from ._compare import (
    ComparisonResult,
    SeedsComparison,
    compare,
    compare_seeds,
    evaluate_support,
)
from ._inflation import (
    FRONT_END_AUDIT,
    AuditConfig,
    InflationResult,
    NoisePoolResult,
    add_audit_columns,
    audit_method,
    nested_cv_score,
    noise_pool_test,
    selection_inflation,
)

__all__ = [
    "AuditConfig",
    "FRONT_END_AUDIT",
    "ComparisonResult",
    "InflationResult",
    "NoisePoolResult",
    "SeedsComparison",
    "add_audit_columns",
    "area_under_front",
    "audit_method",
    "compare",
    "compare_seeds",
    "evaluate_support",
    "nested_cv_score",
    "noise_pool_test",
    "selection_inflation",
]
