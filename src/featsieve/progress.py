"""Progress bars for long loops: terminal only, one bar per level, off when quiet.

Library code never prints; a progress bar is the one exception that a caller
switches on explicitly (``progress=True``), and even then it is drawn only
when standard error is a terminal. Every long loop of featsieve (model
evaluations, elimination steps, generations, kernel blocks, seeds, methods)
goes through :func:`track` or :func:`bar`, so the policy lives in one place:

- ``progress=False`` (the library default): no bar, no import of tqdm.
- ``progress=True``: a tqdm bar with a rate and an ETA on standard error, but
  only when standard error is a TTY (never in logs, pipes, CI or notebooks).
- Nested loops get one bar per level; inner bars disappear when done
  (``leave=False``) so the terminal shows only live levels.

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

import sys
from collections.abc import Iterable, Iterator

__all__ = ["bar", "is_enabled", "track"]


def is_enabled(enabled: bool | None, *, stream=None) -> bool:
    """Whether a progress bar should be drawn.

    Parameters
    ----------
    enabled : bool or None
        The caller's wish (``progress=`` of the public function). None and
        False mean off.
    stream : file-like or None, default=None
        Where the bar would go; standard error when None.

    Returns
    -------
    on : bool
        True only when ``enabled`` is truthy and ``stream`` is a terminal.
    """
    if not enabled:
        return False
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # closed or detached stream
        return False


class _NullBar:
    """Stand-in with tqdm's small API when progress is off."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def set_description_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _LineBar:
    """Without a terminal: one line per finished step on standard error (``lines=True``)."""

    def __init__(self, total, desc, stream):
        import time

        self.n, self.total, self.desc, self.stream = 0, total, desc, stream
        self._clock = time.perf_counter
        self._label, self._start = "", self._clock()

    def update(self, n: int = 1) -> None:
        self.n += n
        of = f"/{self.total}" if self.total else ""
        what = f" {self._label}" if self._label else ""
        self.stream.write(f"featsieve: {self.desc} {self.n}{of}:{what} done in "
                          f"{self._clock() - self._start:.1f} s\n")
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
        enabled: bool | None = False, leave: bool = False, lines: bool = False):
    """A progress bar to update by hand (e.g. as parallel results arrive).

    Parameters
    ----------
    total : int or None, default=None
        Number of steps (None: unknown, no ETA).
    desc : str, default=""
        Label shown before the bar (the level: "methods", "seeds", ...).
    unit : str, default="it"
        Unit shown in the rate.
    enabled : bool or None, default=False
        The caller's ``progress`` flag; see :func:`is_enabled`.
    leave : bool, default=False
        Keep the finished bar on screen (True for the outermost level only).
    lines : bool, default=False
        When ``enabled`` but standard error is no terminal (a log, a pipe, CI):
        one line per finished step (``featsieve: methods 3/17: forward done in
        12.3 s``) instead of nothing. For the few long, coarse loops (a
        comparison's methods).

    Returns
    -------
    bar : tqdm.tqdm or a null object
        Supports ``update(n)``, ``set_postfix_str(s)``, ``close()`` and use as
        a context manager.
    """
    if not is_enabled(enabled):
        return _LineBar(total, desc, sys.stderr) if enabled and lines else _NullBar()
    import os

    from tqdm import tqdm  # terminal bar, not the notebook widget

    # a terminal that reports a 0 x 0 size (a pty opened without one) makes tqdm draw nothing
    try:
        cols, rows = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        cols = rows = 0
    sized = cols > 0 and rows > 0
    return tqdm(total=total, desc=desc, unit=unit, leave=leave, file=sys.stderr,
                dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24)


def track(iterable: Iterable, *, desc: str = "", total: int | None = None, unit: str = "it",
          enabled: bool | None = False, leave: bool = False) -> Iterator:
    """Iterate over ``iterable``, drawing a bar when progress is on.

    Parameters
    ----------
    iterable : iterable
    desc, unit, enabled, leave
        As for :func:`bar`.
    total : int or None, default=None
        Length when ``iterable`` has no ``len``.

    Yields
    ------
    item
        The items of ``iterable``, unchanged and in order.
    """
    if not is_enabled(enabled):
        yield from iterable
        return
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = None
    with bar(total, desc=desc, unit=unit, enabled=True, leave=leave) as b:
        for item in iterable:
            yield item
            b.update(1)
