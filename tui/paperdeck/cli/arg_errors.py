"""argparse's parser with its errors in one line, as every other error of the command line.

argparse prints a refused command line as its usage (several lines), then
``paperdeck list: error: …``; paperdeck prints the error line alone, naming the command and how to
see its usage: ``paperdeck list: error: unrecognized arguments: --bogus (paperdeck list --help for
usage)``, exit status 2 as argparse's.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from paperdeck.model.safe_text import one_line

__all__ = ["OneLineErrors"]


class OneLineErrors(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose :meth:`error` is one line on standard error."""

    def error(self, message: str) -> NoReturn:
        """Print ``<prog>: error: <message> (<prog> --help for usage)`` and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {one_line(message)} ({self.prog} --help for usage)\n")
