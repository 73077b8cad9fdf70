"""featsieve's warning classes: one base class, one subclass per cause.

Every warning featsieve emits is a :class:`FeatsieveWarning`, so a user can
silence or escalate all of them at once
(``warnings.simplefilter("ignore", featsieve.FeatsieveWarning)``) or one cause
by its class. ``tests/test_architecture.py`` checks that no ``warnings.warn``
in the package uses a bare ``UserWarning``.
"""

from __future__ import annotations

from sklearn.exceptions import ConvergenceWarning as _SklearnConvergenceWarning

__all__ = ["FeatsieveWarning", "ParameterWarning", "DataWarning", "ProtocolWarning",
           "ConvergenceWarning"]


class FeatsieveWarning(UserWarning):
    """Base class of every warning featsieve emits."""


class ParameterWarning(FeatsieveWarning):
    """A parameter was clipped or not used (the message gives the value in force)."""


class DataWarning(FeatsieveWarning):
    """The data allow the run, but its answer deserves caution (e.g. very few rows)."""


class ProtocolWarning(FeatsieveWarning):
    """Part of the protocol could not honour a request (e.g. groups in the audit)."""


class ConvergenceWarning(FeatsieveWarning, _SklearnConvergenceWarning):
    """A solver stopped before its tolerance; also a scikit-learn ConvergenceWarning, so
    filters written for scikit-learn's class catch it."""
