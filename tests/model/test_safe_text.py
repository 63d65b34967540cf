"""Paper text is data: control characters are made visible, never sent to the terminal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paperdeck.model.safe_text import document, in_place, json_text, one_line, visible, web_link


def test_escape_sequences_become_visible() -> None:
    shown = visible("a\x1b[31mred\x1b]52;c;ZXZpbA==\x07b")
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown == "a␛[31mred␛]52;c;ZXZpbA==␇b"


def test_bidi_overrides_are_shown() -> None:
    assert visible("x\u202ey") == "x⟨U+202E⟩y"


def test_markup_like_text_is_untouched() -> None:
    text = "[CLS] [/INST] [bold]x[/bold] <think> 5% $x$"
    assert visible(text) == text


def test_one_line_folds_newlines_and_runs_of_space() -> None:
    assert one_line("a\n  b\tc\r\nd") == "a b c d"


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    shown = visible(text)
    assert not any(ord(ch) < 32 and ch != "\n" for ch in shown)
    assert not any(0x7F <= ord(ch) <= 0x9F for ch in shown)


def test_c1_controls_lone_surrogates_and_separators_are_shown() -> None:
    assert visible("a\x9b31m\x9d52\x9cb") == "a⟨U+009B⟩31m⟨U+009D⟩52⟨U+009C⟩b"
    assert visible("x\ud800y\u2028z") == "x⟨U+D800⟩y⟨U+2028⟩z"
    visible("\ud800").encode("utf-8")  # printable at all: a lone surrogate cannot be encoded


def test_a_document_keeps_tabs_and_line_ends_and_shows_the_rest() -> None:
    assert document("a\tb\r\nc\nd\re\x1b[2J\x07") == "a\tb\r\nc\nd␍e␛[2J␇"
    assert document("x\x9b\u202ey") == "x⟨U+009B⟩⟨U+202E⟩y"


@given(st.text())
def test_a_document_holds_no_control_but_tab_and_line_ends(text: str) -> None:
    shown = document(text)
    assert not re.search(r"\r(?!\n)|[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\ud800-\udfff]", shown)


JSON_DATA = st.recursive(
    st.text() | st.integers() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
)


@given(JSON_DATA)
def test_json_text_is_the_same_data_and_holds_no_raw_control(data: object) -> None:
    safe = json_text(json.dumps(data, ensure_ascii=False))
    assert json.loads(safe) == data
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]", safe)


@pytest.mark.parametrize(
    "url",
    [
        "https://openreview.net/forum?id=abc",
        "http://arxiv.org/abs/2601.00001v1",
        "HTTPS://Example.org/a_(b)?q=1#frag",
        "https://zh.wikipedia.org/wiki/论文",
    ],
)
def test_web_links_are_kept(url: str) -> None:
    assert web_link(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "",
        "javascript:alert(1)",
        "JavaScript:alert(1)//https://x",
        "file:///etc/passwd?openreview.net",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox",
        "/pdf/6befca6b.pdf",
        "//evil.example/x",
        "https://",
        "https:///path",
        "https://a.example/x\x07\x1b]52;c;cHduZWQ=\x07",
        "https://a.example/x␇␛]52;c;cHduZWQ=␇",
        "https://a.example/x⟨U+009B⟩",
        "https://a.example/x\x9b31m",
        "https://a.example/x\ny",
        "https://a.example/x y",
        "https://a.example/\u202eevil",
        "https://a.example/\u200bzero",
        "https://[::1",
    ],
)
def test_other_links_are_not(url: str) -> None:
    assert web_link(url) == ""


@given(st.text())
def test_a_web_link_never_holds_a_control(url: str) -> None:
    for candidate in (url, "https://a.example/" + url):
        link = web_link(candidate)
        assert link in ("", candidate)
        assert not re.search(r"[\x00-\x20\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2400-\u2426]", link)
        assert not link or link.lower().startswith(("http://", "https://"))


@given(st.text())
def test_in_place_keeps_every_position_and_shows_every_control(text: str) -> None:
    shown = in_place(text)
    assert len(shown) == len(text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]", shown)
    assert in_place("a\x1bb\x9bc\td\ne") == "a␛b�c\td\ne"


# The sanitiser's patterns as first written, each over the whole BMP: the ASCII shortcuts of
# visible, document, json_text and web_link (which compile these at the first non-ASCII text) must
# give exactly what they give.
_SHOWN_AS_CODE = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\ud800-\udfff]")
_JSON_RAW = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\ud800-\udfff]")
_NOT_IN_LINK = re.compile(
    "[\x00-\x20\x7f-\xa0\u2400-\u2426\u27e8\u27e9\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202f"
    "\u205f-\u206f\u3000\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
_C0_C1 = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")
_DOCUMENT_CONTROLS = re.compile(r"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else f"⟨U+{code:04X}⟩"


def _code(match: re.Match[str]) -> str:
    return f"⟨U+{ord(match.group()):04X}⟩"


_MIXED = st.text(st.sampled_from("a Z0:/.\t\n\r\x00\x1b\x7f\x85\xa0\u061c\u200e\u2028\u202e\u2066\u2400\ud800é★✎"))


@given(st.one_of(_MIXED, st.text(st.characters(max_codepoint=0x7F)), st.text()))
def test_ascii_shortcuts_give_what_the_whole_patterns_give(text: str) -> None:
    for keep in (True, False):
        plain = text.replace("\r\n", "\n").replace("\t", " ")
        plain = plain if keep else plain.replace("\n", " ")
        assert visible(text, keep_newlines=keep) == _SHOWN_AS_CODE.sub(_code, _C0_C1.sub(_picture, plain))
    assert document(text) == _SHOWN_AS_CODE.sub(_code, _DOCUMENT_CONTROLS.sub(_picture, text))
    assert json_text(text) == _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    for url in (text, "https://example.org/" + text, "https://" + text):
        assert web_link(url) == _web_link_as_first_written(url)


_LINKISH = st.text(st.sampled_from("aZ09.-/?#:@[]%_~ \x00é"), max_size=20)


@given(st.sampled_from(["http://", "https://", "HTTP://", "http:/", "https:", "ftp://", ""]), _LINKISH)
def test_a_plain_http_link_is_kept_as_urlsplit_would_keep_it(scheme: str, rest: str) -> None:
    """The shortcut that tells a plain ``http(s)://host/…`` link without urllib keeps what
    ``urlsplit`` keeps and nothing else."""
    url = scheme + rest
    assert web_link(url) == _web_link_as_first_written(url)


def test_a_plain_link_is_told_without_urllib() -> None:
    probe = (
        "import sys; from paperdeck.model.safe_text import web_link;"
        "assert web_link('https://openreview.net/forum?id=XK5C6pE1ki') and web_link('http://a-b.c.d')"
        " and web_link('https://arxiv.org') and web_link('https://x.org#f');"
        "assert 'urllib.parse' not in sys.modules; assert web_link('https://u@x.org');"
        "assert 'urllib.parse' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)


def _web_link_as_first_written(url: str) -> str:
    if not url or _NOT_IN_LINK.search(url):
        return ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or not parts.hostname:
        return ""
    return url


def test_printable_text_beyond_ascii_is_shown_without_the_whole_bmp_pattern() -> None:
    """A row's star and note marks and an accented title are printable: shown as they are, and
    the pattern spanning the whole BMP (costly to compile) is not needed for them."""
    from paperdeck.model import safe_text

    safe_text._shown_as_code.cache_clear()
    assert visible("★✎ openreview:x  Écoles\nnext line") == "★✎ openreview:x  Écoles\nnext line"
    assert one_line("★ Über\tgraphs") == "★ Über graphs"
    assert safe_text._shown_as_code.cache_info().misses == 0
    assert visible("★\u202eevil") == "★⟨U+202E⟩evil"  # one unprintable character: the pattern shows it
    assert safe_text._shown_as_code.cache_info().misses == 1


def test_the_patterns_and_tables_the_first_frame_does_not_use_are_made_at_first_use() -> None:
    """Importing the modules loaded before the app's first row compiles none of the patterns only
    later work uses, and builds no note-editor table: each is made at its first call."""
    probe = r"""
import re
compiled = []
compile = re.compile
re.compile = lambda pattern, flags=0: compiled.append(pattern) or compile(pattern, flags)
import paperdeck.model.safe_text as safe_text, paperdeck.model.venue, paperdeck.model.decision
import paperdeck.store.catalogue
later = {
    r"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]", r"[\x00-\x20\x7f]", r"[\x00-\x1f\x7f\x80-\x9f]",
    r"[^\W\d_]+", r"^\s*(-?\d+(?:\.\d+)?)\s*[-–]\s*(-?\d+(?:\.\d+)?)\s*$",
    r"^(?:.*/)?([^/]+)/((?:19|20)\d{2})(?:/|$)", rb'\},"[0-9]+":\{',
}
assert not later & set(compiled), later & set(compiled)
assert not [name for name in vars(safe_text) if name.isupper() and isinstance(vars(safe_text)[name], dict)]
assert safe_text.in_place("a\x00\ud800") == "a\u2400\ufffd" and safe_text.document("a\rb") == "a\u240db"
assert safe_text.file_name("a\tb") == "a\u2409b" and safe_text.web_link("https://x.org") == "https://x.org"
"""
    subprocess.run([sys.executable, "-c", probe], check=True)
