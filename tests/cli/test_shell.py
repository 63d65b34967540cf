"""What the shell knows of paperdeck (:mod:`paperdeck.cli.shell`): ``paperdeck completion
bash|zsh|fish`` and ``paperdeck man``, made from the parser. The bash script is parsed by bash and
run as bash runs it on a tab (``COMP_WORDS`` in, ``COMPREPLY`` out); zsh is not on the test
machines, so its script is checked for its shape, as fish's is (each line a ``complete -c
paperdeck`` command whose quotes close); the committed manual page is the parser's, and troff
reads it without a warning."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from paperdeck.cli.main import build_app_parser, build_command_parser
from paperdeck.cli.shell import fish_script, man_page, shell_parser, venue_words, zone_words
from paperdeck.export.formats import FILE_FORMATS
from paperdeck.model.user import STATUSES
from paperdeck.store.settings import SORTS

from tests.helpers import run

REPO = Path(__file__).resolve().parents[2]


def _commands() -> list[str]:
    parser = build_command_parser()
    actions = parser._subparsers._group_actions if parser._subparsers is not None else []
    return [name for a in actions if isinstance(a, argparse._SubParsersAction) for name in a.choices]


def _script(capsys: pytest.CaptureFixture[str], shell: str) -> str:
    code, out, err = run(capsys, "completion", shell)
    assert code == 0 and err == ""
    return out


def _bash_complete(script: Path, *words: str) -> list[str]:
    """What bash offers for ``paperdeck WORDS…`` (the last word the one being completed)."""
    line = " ".join(f"'{word}'" for word in ("paperdeck", *words))
    program = (
        f"source {script}\nCOMP_WORDS=({line})\nCOMP_CWORD={len(words)}\n"
        '_shtab_paperdeck\nprintf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "--norc", "-c", program], capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.split()


def test_the_bash_script_parses_and_completes_commands_options_formats_and_venues(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "paperdeck.bash"
    script.write_text(_script(capsys, "bash"))
    subprocess.run(["bash", "-n", str(script)], check=True, timeout=30)
    assert set(_bash_complete(script, "")) >= set(_commands())
    assert _bash_complete(script, "sea") == ["search"]
    assert _bash_complete(script, "compl") == ["completion"]
    assert _bash_complete(script, "completion", "") == ["bash", "zsh", "fish"]
    assert set(_bash_complete(script, "export", "--format", "")) >= set(FILE_FORMATS)
    assert "--to" in _bash_complete(script, "export", "--t")
    assert _bash_complete(script, "export", "--to", "") == ["zotero"]
    for command in ("export", "search", "list"):  # the app's sort orders, wherever --sort is
        assert set(_bash_complete(script, command, "--sort", "")) == set(SORTS)
    assert set(_bash_complete(script, "status", "ID", "")) >= {"read", "to-read", "skimmed"}
    # status ID... STATUS: the status may follow any number of ids, but not stand first
    assert set(_bash_complete(script, "status", "A", "B", "C", "")) == set(STATUSES)
    assert _bash_complete(script, "status", "A", "B", "to") == ["to-read"]
    assert _bash_complete(script, "status", "--json", "A", "") == list(STATUSES)
    assert _bash_complete(script, "status", "") == []
    assert _bash_complete(script, "star", "A", "") == []
    offered = _bash_complete(script, "fetch", "iclr")
    assert offered and all(word.startswith("iclr") for word in offered) and "iclr2026" in venue_words(2026)
    assert set(offered) == {word for word in venue_words() if word.startswith("iclr")}
    # plan --tz: the system's IANA zone names
    assert _bash_complete(script, "plan", "--tz", "Europe/Par") == ["Europe/Paris"]
    assert set(_bash_complete(script, "plan", "--tz", "America/Sao")) == {"America/Sao_Paulo"}
    assert len(_bash_complete(script, "plan", "--tz", "")) == len(zone_words()) > 300


def test_time_zone_names_are_read_only_to_make_a_completion_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing the zones reads the system's zone database: the parsers, the manual page and the
    commands never ask for it (the command line's start-up is measured); a completion script does."""
    import zoneinfo

    asked: list[int] = []
    listed = zoneinfo.available_timezones

    def counted() -> set[str]:
        asked.append(1)
        return listed()

    monkeypatch.setattr(zoneinfo, "available_timezones", counted)
    build_command_parser(), build_app_parser(), build_command_parser("plan")
    assert run(capsys, "man")[0] == 0
    assert run(capsys, "plan", "--tz", "Europe/Paris", "--data-dir", str(tmp_path / "none"))[0] == 2  # no store
    assert asked == []
    for shell in ("bash", "zsh", "fish"):
        assert "Europe/Paris" in _script(capsys, shell)
    assert asked


def test_venue_names_are_the_venue_table_s_conferences_by_year() -> None:
    words = venue_words(2026)
    assert {"iclr2026", "neurips2027", "icml2023", "colm2025", "papercopilot:iclr2026"} <= set(words)
    assert "iclr2022" not in words and "iclr2028" not in words


def test_the_zsh_script_has_the_shape_of_a_zsh_completion(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(capsys, "zsh")
    assert script.startswith("#compdef paperdeck")
    for name in _commands():
        assert re.search(rf"^\s+{name}:'", script, re.MULTILINE), name
    venues = " ".join(word.replace(":", "\\:") for word in venue_words())
    assert f':({venues})"' in script  # fetch's SOURCE, its colons escaped
    zones = re.escape(" ".join(zone_words()))
    assert re.search(r'^\s+"--tz\[[^]]*\]:NAME:\(' + zones + r'\)"$', script, re.MULTILINE)  # plan's --tz
    assert re.search(r'^\s+"--to\[[^]]*\]:to:\(zotero\)"$', script, re.MULTILINE)
    assert ":format:(" + " ".join(FILE_FORMATS) + ')"' in script
    statuses = " ".join(STATUSES)
    # status ID... STATUS: a rest argument, so that the statuses follow any number of ids
    assert f'"(-)*::ID:({statuses})"' in script and f':the status, the last word:({statuses})"' in script


def _fish_words(line: str) -> list[str]:
    """``line`` split as fish splits it: spaces between words, single quotes with ``\\'`` and
    ``\\\\`` inside. Raises ``AssertionError`` when a quote does not close."""
    words, word, quoted, at = [], "", False, 0
    while at < len(line):
        char = line[at]
        if quoted and char == "\\" and at + 1 < len(line) and line[at + 1] in "'\\":
            word, at = word + line[at + 1], at + 2
            continue
        if char == "'":
            quoted = not quoted
        elif char == " " and not quoted:
            if word:
                words.append(word)
            word = ""
        else:
            word += char
        at += 1
    assert not quoted, f"an open quote: {line}"
    return [*words, word] if word else words


def test_the_fish_script_is_one_complete_command_a_line_from_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script(capsys, "fish")
    commands = [_fish_words(line) for line in script.splitlines() if line and not line.startswith("#")]
    assert all(words[:3] == ["complete", "-c", "paperdeck"] for words in commands)
    offered = {words[words.index("-a") + 1] for words in commands if "__fish_use_subcommand" in words and "-a" in words}
    assert set(_commands()) <= offered

    def of(command: str, option: str) -> list[str]:
        (words,) = [w for w in commands if f"__fish_seen_subcommand_from {command}" in w and option in w]
        return words

    export_format = of("export", "format")
    assert export_format[export_format.index("-a") + 1].split() == list(FILE_FORMATS)
    assert "-F" in of("export", "output")  # a file name
    (venues,) = [w for w in commands if "__fish_seen_subcommand_from fetch" in w and "-l" not in w and "-s" not in w]
    assert venues[venues.index("-a") + 1].split() == venue_words()
    assert "(__fish_complete_directories)" in of("import", "data-dir")
    plan_tz = of("plan", "tz")
    assert plan_tz[plan_tz.index("-a") + 1].split() == zone_words()
    (statuses,) = [w for w in commands if "__fish_seen_subcommand_from status" in w and "-a" in w and "-l" not in w]
    assert statuses[statuses.index("-a") + 1].split() == list(STATUSES)  # at every word after status


def test_fish_quotes_help_that_holds_quotes() -> None:
    parser = argparse.ArgumentParser(prog="paperdeck")
    sub = parser.add_subparsers(dest="command")
    child = sub.add_parser("odd", help="it's a \\ back'slash")
    child.add_argument("--mode", choices=["a'b", "c"], help="the paper's mode")
    lines = [line for line in fish_script(parser).splitlines() if line and not line.startswith("#")]
    words = [_fish_words(line) for line in lines]
    assert [w[w.index("-d") + 1] for w in words if "odd" in w and "-a" in w] == ["it's a \\ back'slash"]
    assert any("a'b c" in w for w in words)


def test_an_unknown_shell_is_refused_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "completion", "tcshh")
    assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_completion_opens_no_store(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "no-store"
    code, out, _ = run(capsys, "--data-dir", str(data), "completion", "bash")
    assert code == 0 and "_shtab_paperdeck" in out and not data.exists()


# -- the manual page ---------------------------------------------------------------------------


def test_the_committed_manual_page_is_the_parser_s() -> None:
    committed = (REPO / "man" / "paperdeck.1").read_text("utf-8")
    assert committed == man_page(build_app_parser(), build_command_parser()), "run docs/generate.py"


def test_paperdeck_man_prints_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "man")
    assert code == 0 and out == (REPO / "man" / "paperdeck.1").read_text("utf-8")
    for name in _commands():
        assert f".SS {name}\n" in out
    assert "\\-\\-to {zotero}" in out and out.isascii()


def test_troff_reads_the_page_without_a_warning() -> None:
    groff = shutil.which("groff")
    assert groff is not None, "groff is on the test machines (man-db depends on it)"
    done = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", str(REPO / "man" / "paperdeck.1")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""


def test_the_page_escapes_what_roff_would_read_as_requests() -> None:
    parser = argparse.ArgumentParser(prog="paperdeck", description=".starts like a request\n'and so does this")
    parser.add_argument("--x", help="a \\ backslash, a – dash")
    page = man_page(parser, argparse.ArgumentParser(prog="paperdeck"))
    assert "\n\\&.starts like a request\n\\&'and so does this\n" in page
    assert "a \\e backslash, a \\[u2013] dash" in page


def test_the_shell_parser_holds_every_subcommand_and_the_app_s_options() -> None:
    parser = shell_parser(build_app_parser(), build_command_parser())
    options = {option for action in parser._actions for option in action.option_strings}
    assert {"--data-dir", "--format", "--version"} <= options
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(commands.choices) == _commands()


@pytest.mark.parametrize(
    ("typed", "meant"), [("serach", "search"), ("completoin", "completion"), ("complete", "completion"), ("mna", "man")]
)
def test_a_mistyped_command_still_suggests_the_right_one_beside_completion_and_man(
    typed: str, meant: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no file of that name
    code, out, err = run(capsys, typed, "--data-dir", str(tmp_path / "data"))
    assert code == 2 and out == ""
    assert f'no command or file "{typed}" — did you mean {meant}?' in err
    assert not (tmp_path / "data").exists()
