"""Turn the bytes of a paper-list file into text, or refuse it with a clear reason."""

from __future__ import annotations

import re
from pathlib import Path

from paperdeck.model.errors import SourceError

#: Control characters other than tab, newline and carriage return: their presence means "not text".
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: A CJK character wedged between Latin letters: the mark of Latin-1 bytes misread as GB18030.
_MISREAD = re.compile(r"[A-Za-z][\u3400-\u9fff\uac00-\ud7af][A-Za-z]")
_SNIFF_BYTES = 65_536


def decode_text(raw: bytes, path: Path | str) -> str:
    """Decode a text file: UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030.

    GB18030 is what a Chinese Windows machine writes for a list whose header reads
    ``ICLR 2026 论文列表``; it is accepted only when the result reads as text.

    Args:
        raw: the whole file, bytes.
        path: the file, named in errors.

    Returns:
        The text, BOM removed, line endings untouched.

    Raises:
        SourceError: the bytes are binary (NUL or other control bytes) or in no encoding above.
    """
    if raw.startswith(_UTF16_BOMS):
        try:
            return _checked(raw.decode("utf-16"), path)
        except UnicodeDecodeError as exc:
            raise SourceError(path, f"not valid UTF-16 text (byte {exc.start}); save it as UTF-8") from None
    if looks_utf16(raw[:_SNIFF_BYTES]):
        raise SourceError(path, "the file is UTF-16 without a byte-order mark; save it as UTF-8")
    if b"\x00" in raw[:_SNIFF_BYTES]:
        raise SourceError(path, "not a text file (it contains NUL bytes)", _line_of(raw, raw.index(b"\x00")))
    try:
        return _checked(raw.decode("utf-8-sig"), path)
    except UnicodeDecodeError as exc:
        utf8_error = exc
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None and not _MISREAD.search(text):
        return _checked(text, path)
    raise _NotTextEncoding(
        path,
        "not UTF-8 or GB18030 text; re-save it as UTF-8",
        _line_of(raw, utf8_error.start),
    )


class _NotTextEncoding(SourceError):
    """Text in none of :func:`decode_text`'s encodings (not binary: :func:`decode_table_text`
    reads it as a spreadsheet's)."""


#: What a table's import report says of a file read as Windows-1252 or Latin-1 (once, naming it).
WINDOWS_1252 = "read as Windows-1252: not UTF-8"
LATIN_1 = "read as Latin-1: not UTF-8"


def decode_table_text(raw: bytes, path: Path | str) -> tuple[str, str | None]:
    """Decode a table (CSV, TSV) as :func:`decode_text` does, and one in none of its encodings as
    a spreadsheet on Windows saves it (Excel's "CSV" is the system's code page): Windows-1252,
    which maps every byte but five (``0x81``, ``0x8D``, ``0x8F``, ``0x90``, ``0x9D``), else
    Latin-1, which maps every byte.

    Returns:
        The text, and ``None`` or the remark the import reports once for the file
        (:data:`WINDOWS_1252`, :data:`LATIN_1`).

    Raises:
        SourceError: binary bytes (NUL, control characters), UTF-16 without a byte-order mark, or
            invalid UTF-16: as :func:`decode_text`.
    """
    try:
        return decode_text(raw, path), None
    except _NotTextEncoding:
        pass
    try:
        return _checked(raw.decode("cp1252"), path), WINDOWS_1252
    except UnicodeDecodeError:
        return _checked(raw.decode("latin-1"), path), LATIN_1


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def looks_utf16(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes, no byte-order mark) is UTF-16 text: Latin text in
    UTF-16 has a NUL in most of its even (big-endian) or odd (little-endian) bytes, and few in
    the others; binary data has no such pattern."""
    pairs = len(head) // 2
    if pairs < 2:
        return False
    even, odd = head[0 : pairs * 2 : 2].count(0), head[1 : pairs * 2 : 2].count(0)
    return max(even, odd) >= pairs * 0.6 and min(even, odd) <= pairs * 0.05


def head_text(raw: bytes) -> str:
    """A file's first bytes as text, to tell its format (leniently: a cut character or a bad byte
    is replaced, never refused): UTF-16 with a byte-order mark (or a UTF-16 file without one,
    :func:`looks_utf16`) decoded as UTF-16, else UTF-8; the byte-order mark removed. The readers
    decode the whole file as :func:`decode_text` does, so a format told from this is read right."""
    if raw.startswith(_UTF16_BOMS):
        return raw[: len(raw) - len(raw) % 2].decode("utf-16", errors="replace").lstrip("\ufeff")
    return raw.decode("utf-8", errors="replace").lstrip("\ufeff")


def _checked(text: str, path: Path | str) -> str:
    """Return ``text`` without a BOM, unless it has so many control characters it is binary."""
    if text.startswith("\ufeff"):
        text = text[1:]
    controls = _CONTROL.findall(text)
    # A stray escape code in an abstract is data (shown made visible); many of them mean binary.
    if len(controls) > max(8, len(text) // 100):
        first = _CONTROL.search(text)
        line = text.count("\n", 0, first.start()) + 1 if first else None
        raise SourceError(path, "not a text file (too many control characters)", line)
    return text


def _line_of(raw: bytes, offset: int) -> int:
    """1-based line number of byte ``offset`` in ``raw``."""
    return raw.count(b"\n", 0, offset) + 1
