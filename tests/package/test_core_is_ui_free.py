"""Only paperdeck.ui imports Textual: every other module is checked in a fresh interpreter."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import paperdeck


def test_importing_every_core_module_loads_no_textual() -> None:
    modules = [
        info.name
        for info in pkgutil.walk_packages(paperdeck.__path__, "paperdeck.")
        if not info.name.startswith("paperdeck.ui") and info.name != "paperdeck.__main__"
    ]
    assert "paperdeck.store.store" in modules and "paperdeck.text.render" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
