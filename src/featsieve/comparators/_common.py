"""What the comparator wrappers share: their libraries, imported on first use."""

from __future__ import annotations

import importlib

from sklearn.utils import check_random_state

from .._utils import MethodUnavailableError

EXTRA = "comparators"


def require(module: str, method: str):
    """Import a comparator's library, or say which extra installs it.

    Raises
    ------
    MethodUnavailableError
        The library is absent (an ``ImportError`` and a ``ValueError``).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MethodUnavailableError(
            f"Method {method!r} needs the {module!r} package, which is not installed ({exc}); "
            f"install it with: pip install 'featsieve[{EXTRA}]'.") from exc


def seed_of(random_state) -> int:
    """One int seed drawn from ``random_state`` (for libraries that take only ints)."""
    return int(check_random_state(random_state).randint(0, 2**31 - 1))
