"""A saved search index read back (:func:`~paperdeck.search.index_file.read_sections`) leaves
resident only the pages its queries read: the CRC check reads every page of the file, and those
pages are let go from the process (the page cache keeps them), not counted in the app's resident
memory (issue 32: the 5x store's index is 88 MB). Counted in ``/proc/self/smaps``, not timed."""

from __future__ import annotations

from array import array
from pathlib import Path

from paperdeck.search.index_file import SECTIONS, read_sections, write_sections


def _resident_kb(path: Path) -> int:
    """Kilobytes of ``path``'s mappings resident in this process."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if line[:1].isalnum() and "-" in line.split(" ", 1)[0] and not line.split(" ", 1)[0].endswith(":"):
            inside = line.endswith(str(path))
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


def test_a_saved_index_read_back_holds_no_page_the_check_read(tmp_path: Path) -> None:
    path = tmp_path / "search-index.bin"
    big = array("I", range(1 << 20))  # 4 MB of postings
    sections = {name: (big if name == "postings" else array(code)) for name, code in SECTIONS.items()}
    write_sections(path, {"papers": 0}, sections)
    header, read = read_sections(path)
    assert header["papers"] == 0 and len(read["postings"]) == len(big)
    assert _resident_kb(path) < 64  # the whole file was read by the CRC; 4,096 KB if kept
    assert read["postings"][123_456] == 123_456  # still read through the map
