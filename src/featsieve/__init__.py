"""featsieve: supervised feature selection for tabular data, measured honestly.

The classic selectors and the registry load with the package; the method
families (GBMO/FLBMO, HSIC Lasso, FASTENER, PCLFS) load on first use, and
``import featsieve`` never imports matplotlib, LightGBM, dask or ray.
"""

from __future__ import annotations

import importlib

from ._base import BaseSelector
from ._registry import (
    MethodSpec,
    MethodUnavailableError,
    Tuning,
    get_method,
    make_selector,
    methods,
    register_method,
    resolve_method,
)
from ._validation import (
    ConstantFeatureWarning,
    DuplicateFeatureWarning,
    FewerFeaturesWarning,
    TargetLeakWarning,
)
from ._warnings import DataWarning, FeatsieveWarning, ParameterWarning, ProtocolWarning
from .classic import (
    EmbeddedSelector,
    ForwardSelector,
    RandomSelector,
    RFECVSelector,
    RFESelector,
    UnivariateFilter,
)
from .scores import (
    abs_correlation_scores,
    anova_f_scores,
    class_mean_separation,
    mutual_info_scores,
    pca_loading_scores,
    relieff_scores,
    stump_gain_scores,
)

__version__ = "0.1.0"

# sub-modules reachable as attributes without an explicit import
_SUBMODULES = ("models", "datasets", "method_table", "scores", "protocol", "io", "evaluation",
               "report", "classic", "mask", "genetic", "kernel", "pca", "comparators", "reproduce")

# public name -> module that defines it (imported on first access)
_LAZY = {
    "compare": "featsieve.evaluation",
    "ComparisonResult": "featsieve.evaluation",
    "write_report": "featsieve.report",
    "selection_inflation": "featsieve.evaluation",
    "InflationResult": "featsieve.evaluation",
    "noise_pool_test": "featsieve.evaluation",
    "NoisePoolResult": "featsieve.evaluation",
    "nested_cv_score": "featsieve.evaluation",
    "area_under_front": "featsieve.genetic",
    "GBMO": "featsieve.mask",
    "FLBMO": "featsieve.mask",
    "HSICLasso": "featsieve.kernel",
    "NOCCOLasso": "featsieve.kernel",
    "hsic_scores": "featsieve.kernel",
    "GroupHSICLasso": "featsieve.kernel",
    "MRMR": "featsieve.kernel",
    "CKTA": "featsieve.kernel",
    "QPFS": "featsieve.kernel",
    "SpAM": "featsieve.kernel",
    "FVM": "featsieve.kernel",
    "FHSIC": "featsieve.kernel",
    "GaussianKernel": "featsieve.kernel",
    "LookupGaussianKernel": "featsieve.kernel",
    "DeltaKernel": "featsieve.kernel",
    "pyhsiclasso_permutations": "featsieve.kernel",
    "FASTENER": "featsieve.genetic",
    "FSSDS": "featsieve.genetic",
    "POSS": "featsieve.genetic",
    "PCLFS": "featsieve.pca",
    "pclfs_extended_size": "featsieve.pca",
    "BorutaSelector": "featsieve.comparators",
    "ShapRFESelector": "featsieve.comparators",
    "L1Selector": "featsieve.comparators",
    "PermutationSelector": "featsieve.comparators",
    "SFSSelector": "featsieve.comparators",
    "KnockoffSelector": "featsieve.comparators",
    "AbessSelector": "featsieve.comparators",
}

__all__ = [
    "BaseSelector",
    "ConstantFeatureWarning",
    "DuplicateFeatureWarning",
    "EmbeddedSelector",
    "FewerFeaturesWarning",
    "FeatsieveWarning",
    "ParameterWarning",
    "DataWarning",
    "ProtocolWarning",
    "TargetLeakWarning",
    "ForwardSelector",
    "MethodSpec",
    "RandomSelector",
    "Tuning",
    "anova_f_scores",
    "class_mean_separation",
    "pca_loading_scores",
    "relieff_scores",
    "RFECVSelector",
    "RFESelector",
    "UnivariateFilter",
    "abs_correlation_scores",
    "get_method",
    "make_selector",
    "methods",
    "mutual_info_scores",
    "register_method",
    "resolve_method",
    "MethodUnavailableError",
    "stump_gain_scores",
    *_LAZY,
]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in _SUBMODULES:
        return importlib.import_module(f"featsieve.{name}")
    raise AttributeError(f"module 'featsieve' has no attribute {name!r}")


def __dir__():
    return sorted([*__all__, *_SUBMODULES])
