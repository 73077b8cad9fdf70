"""Progress bars: tqdm on standard error, drawn only when asked for and on a terminal.

Library code never prints; a progress bar is the one exception that a caller
switches on explicitly (``progress=True``). The bar is plain tqdm with
``disable=None``, tqdm's own rule: it draws only when standard error is a
terminal (never in logs, pipes, CI or notebooks). The one thing added is a
size for a terminal that reports 0 x 0 (a pty opened without a size), on
which tqdm would draw nothing. tqdm is imported on first use, so
``import featsieve`` does not import it, and :func:`track` with progress off
does not either.

Examples
--------
>>> from featsieve.progress import track
>>> total = 0
>>> for i in track(range(3), desc="steps", enabled=False):
...     total += i
>>> total
3
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

__all__ = ["bar", "track"]


def _size() -> dict:
    """tqdm's size arguments: follow the terminal, or 80 x 24 where it reports none."""
    try:
        cols, rows = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        cols = rows = 0
    return {"dynamic_ncols": True} if cols > 0 and rows > 0 else {"ncols": 80, "nrows": 24}


def bar(total: int | None = None, *, desc: str = "", unit: str = "it",
        enabled: bool | None = False, leave: bool = False, iterable: Iterable | None = None):
    """A tqdm bar on standard error, off unless ``enabled`` and standard error is a terminal.

    Parameters
    ----------
    total : int or None, default=None
        Number of steps (None: the length of ``iterable``, or unknown).
    desc : str, default=""
        Label shown before the bar (the level: "methods", "seeds", ...).
    unit : str, default="it"
        Unit shown in the rate.
    enabled : bool or None, default=False
        The caller's ``progress`` flag; None and False mean off.
    leave : bool, default=False
        Keep the finished bar on screen (True for the outermost level only).
    iterable : iterable or None, default=None
        Iterate over the bar to advance it (else call ``update``).

    Returns
    -------
    bar : tqdm.tqdm
        Disabled (it counts, draws nothing) when progress is off.
    """
    from tqdm import tqdm  # the terminal bar, not the notebook widget

    return tqdm(iterable, total=total, desc=desc, unit=unit, leave=leave, file=sys.stderr,
                disable=None if enabled else True, **_size())


def track(iterable: Iterable, *, desc: str = "", total: int | None = None, unit: str = "it",
          enabled: bool | None = False, leave: bool = False) -> Iterable:
    """``iterable`` with a bar when progress is on (:func:`bar`); itself when off.

    Parameters
    ----------
    iterable : iterable
    desc, total, unit, enabled, leave
        As for :func:`bar`.

    Returns
    -------
    iterable
        Yields the items of ``iterable``, unchanged and in order.
    """
    if not enabled:
        return iterable
    return bar(total, desc=desc, unit=unit, enabled=True, leave=leave, iterable=iterable)
