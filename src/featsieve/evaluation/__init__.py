"""Evaluation: the honest comparison, and measurements of what a selection costs."""

from ..genetic import area_under_front
from ._compare import (
    ComparisonResult,
    compare,
    default_repeats,
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
from ._stats import corrected_t, holm, nogueira_stability

__all__ = [
    "AuditConfig",
    "FRONT_END_AUDIT",
    "ComparisonResult",
    "InflationResult",
    "NoisePoolResult",
    "add_audit_columns",
    "area_under_front",
    "audit_method",
    "compare",
    "corrected_t",
    "default_repeats",
    "evaluate_support",
    "holm",
    "nested_cv_score",
    "noise_pool_test",
    "nogueira_stability",
    "selection_inflation",
]
