"""The package's shape, checked at run time: what a bare ``paperdeck`` start leaves unimported, and
that no module takes a private name from another (import-linter, run by ``make lint``, checks the
rooms' arrows)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import paperdeck

PACKAGE = Path(paperdeck.__file__).resolve().parent

#: Imported only when something needs them, never by a bare ``paperdeck`` before the app runs.
DEFERRED = (
    "argparse",
    "numpy",
    "rapidfuzz",
    "pylatexenc",
    "bibtexparser",
    "pyarrow",
    "rich.progress",
    "paperdeck.sources",
    "paperdeck.search",
    "paperdeck.export",
    "paperdeck.stats",
    "paperdeck.text",
    "paperdeck.cli.commands",
    "paperdeck.fetch",
    "httpx",
    "tenacity",
    "keyring",
)

_PROBE = """
import json, sys
import textual.app

def run(self, *args, **kwargs):
    print(json.dumps(sorted(sys.modules)))

textual.app.App.run = run
from paperdeck.cli.main import main
main([])
"""


def test_a_bare_start_defers_parsing_search_and_importers(tmp_path: Path) -> None:
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(tmp_path)}
    seeds = sorted((PACKAGE.parent.parent / "seeds").glob("*.txt"))
    subprocess.run([sys.executable, "-m", "paperdeck", "import", *map(str, seeds)], env=env, check=True,
                   capture_output=True)  # fmt: skip
    result = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "paperdeck.ui.app" in loaded and "paperdeck.store.store" in loaded  # the app was reached
    early = sorted(name for name in loaded if any(name == d or name.startswith(d + ".") for d in DEFERRED))
    assert early == []


def _private_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("paperdeck"):
            found += [
                f"{path.name}:{node.lineno} {node.module}.{a.name}"
                for a in node.names
                if a.name.startswith("_") and not a.name.endswith("__")
            ]
    return found


def test_no_module_imports_a_private_name_of_another() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50
    assert [found for path in modules for found in _private_imports(path)] == []


def test_the_private_name_check_can_fail(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from paperdeck.text.abstract_parser import _Parser\n", "utf-8")
    assert _private_imports(probe) == ["probe.py:1 paperdeck.text.abstract_parser._Parser"]
