"""Progress for long calls: a callback, a tqdm bar, or nothing (the default: nothing printed)."""
import contextlib
import sys


class _TextBar:
    """A bar on stderr when tqdm is not installed: one line per 10 %."""

    def __init__(self, description):
        self._description = description
        self._decile = -1

    def __call__(self, fraction, stage):
        decile = int(fraction * 10)
        if decile != self._decile:
            self._decile = decile
            print(f"{self._description}: {decile * 10:3d}% {stage}", file=sys.stderr, flush=True)

    def close(self):
        pass


class _TqdmBar:
    def __init__(self, tqdm, description):
        self._bar = tqdm(total=1000, desc=description, unit="", bar_format=(
            "{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}"))

    def __call__(self, fraction, stage):
        self._bar.n = int(round(fraction * 1000))
        self._bar.set_postfix_str(stage, refresh=False)
        self._bar.refresh()

    def close(self):
        self._bar.close()


@contextlib.contextmanager
def progress_callback(progress, description):
    """What the core calls with (fraction, stage) for ``progress``.

    None or False: nothing. A callable: itself (on the calling thread, at most every 50 ms and
    when the fraction changed). True: a tqdm bar when tqdm is installed, else a line on stderr
    per 10 %.
    """
    if progress is None or progress is False:
        yield None
        return
    if callable(progress):
        yield progress
        return
    try:
        from tqdm.auto import tqdm
        bar = _TqdmBar(tqdm, description)
    except ImportError:
        bar = _TextBar(description)
    try:
        yield bar
    finally:
        bar.close()
