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


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or detached stream
        return False


def _size() -> dict:
    """tqdm's size arguments: follow the terminal, or 80 x 24 where it reports none."""
    try:
        cols, rows = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        cols = rows = 0
    return {"dynamic_ncols": True} if cols > 0 and rows > 0 else {"ncols": 80, "nrows": 24}


class _LineBar:
    """Without a terminal: one line per finished step on standard error (``lines=True``)."""

    def __init__(self, total, desc, stream):
        import time

        self.n, self.total, self.desc, self.stream = 0, total, desc, stream
        self._clock = time.perf_counter
        self._label, self._start = "", self._clock()
        self._t0 = self._start

    def update(self, n: int = 1) -> None:
        self.n += n
        of = f"/{self.total}" if self.total else ""
        now = self._clock()
        if self._label:  # a named step: its own time
            line = f"{self._label} done in {now - self._start:.1f} s"
        else:  # parallel steps (repeats) finish out of order: time since the start
            line = f" finished, {now - self._t0:.0f} s since the start"
        self.stream.write(f"featsieve: {self.desc} {self.n}{of}:{' ' if self._label else ''}"
                          f"{line}\n")
        self.stream.flush()
        self._start = self._clock()

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        self._label, self._start = s, self._clock()

    def set_description_str(self, s: str = "", refresh: bool = True) -> None:
        self.desc = s

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bar(total: int | None = None, *, desc: str = "", unit: str = "it",
        enabled: bool | None = False, leave: bool = False, iterable: Iterable | None = None,
        lines: bool = False):
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
    lines : bool, default=False
        When ``enabled`` but standard error is no terminal (a log, a pipe, CI):
        one line per finished step (``featsieve: methods 3/17: forward done in
        12.3 s``) instead of nothing. For the few long, coarse loops (a
        comparison's methods); not with ``iterable``.

    Returns
    -------
    bar : tqdm.tqdm
        Disabled (it counts, draws nothing) when progress is off.
    """
    if lines and enabled and iterable is None and not _isatty(sys.stderr):
        return _LineBar(total, desc, sys.stderr)
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
