"""Comparators: the selectors users already reach for, through their own libraries.

Boruta (``boruta``), recursive elimination by SHAP (``shap`` + RFECV),
L1 models, permutation importance and sequential forward selection
(scikit-learn), model-X knockoffs (``knockpy``) and best subset (``abess``).
None is re-implemented: each class is a thin adapter that gives the library
featsieve's input policy (:class:`featsieve.BaseSelector`), so every one runs
under the honest protocol of ``compare`` beside the seeds' methods.

The libraries are imported when a selector is fitted, so importing this
package costs nothing; a missing one raises
:class:`featsieve.MethodUnavailableError` naming the extra to install
(``pip install 'featsieve[comparators]'``). Their rows are in the method
table (group ``comparators``: ``--methods comparators`` names them all); none
is in ``compare``'s default set (time).
"""

from __future__ import annotations

from ._common import EXTRA
from ._forest import BorutaSelector, ShapRFESelector
from ._sklearn import L1Selector, PermutationSelector, SFSSelector
from ._statistical import AbessSelector, KnockoffSelector

__all__ = ["BorutaSelector", "ShapRFESelector", "L1Selector", "PermutationSelector",
           "SFSSelector", "KnockoffSelector", "AbessSelector", "EXTRA"]
