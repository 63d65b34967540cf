"""``paperdeck completion bash|zsh|fish`` and ``paperdeck man``: the shell's knowledge of paperdeck,
made from the command line's own argparse parsers, so that it cannot drift from them.

- :func:`shell_parser`: one parser for the whole command line: the app's options (``--data-dir``,
  ``--format``, ``--version``) and every subcommand with its options, choices and help, the
  arguments that name files, folders, venues and time zones marked for completion (:data:`COMPLETIONS`).
- :func:`completion_script`: bash and zsh from ``shtab`` (which walks the parser); fish, which
  ``shtab`` does not write, from :func:`fish_script`, a small walker of the same parser.
- :func:`man_page`: ``paperdeck.1`` in roff (``man 7 man``'s macros), made here rather than by
  argparse-manpage, which is no dependency of paperdeck: a page needs only the parser's usage,
  descriptions and arguments, and a few dozen lines write them. ``docs/generate.py`` writes it to
  ``man/paperdeck.1``, which the wheel ships as ``paperdeck/_data/man/paperdeck.1``; a test checks
  the committed page is the parser's. ``paperdeck man`` prints it (``paperdeck man | man -l -``).

Nothing here opens the store. The output depends on the parsers alone (never on the terminal's
width), but for the venue names, whose years run to next year.
"""

from __future__ import annotations

import argparse
import datetime
from collections.abc import Iterator
from typing import Any

from paperdeck import __version__
from paperdeck.fetch.venues import CONFERENCES
from paperdeck.paths import DATA_DIR_ENV

__all__ = [
    "COMPLETIONS",
    "SHELLS",
    "add_shell_commands",
    "completion_script",
    "fish_script",
    "man_page",
    "shell_parser",
    "venue_words",
    "zone_words",
]

#: The shells ``paperdeck completion`` writes for.
SHELLS = ("bash", "zsh", "fish")
#: The subcommands here, which open no store.
SHELL_COMMANDS = frozenset({"completion", "man"})
#: How an argument is completed, by ``(subcommand, dest)`` (``""``: the app's own options; ``"*"``:
#: the app's and every subcommand's): ``"file"``, ``"dir"``, ``"venue"`` (:func:`venue_words`) or
#: ``"zone"`` (:func:`zone_words`). Choices complete themselves.
COMPLETIONS: dict[tuple[str, str], str] = {
    ("*", "data_dir"): "dir",
    ("import", "files"): "file",
    ("export", "output"): "file",
    ("fetch", "sources"): "venue",
    ("plan", "tz"): "zone",
}
#: Years of the venue names offered: from this many years back to next year.
_VENUE_YEARS_BACK = 3
_MAN_WIDTH = 78


def add_shell_commands(commands: argparse._SubParsersAction[Any]) -> None:
    """Declare ``completion`` and ``man`` on the subcommands (neither takes ``--json`` nor
    ``--data-dir``: they read no store)."""
    parser = commands.add_parser(
        "completion",
        help="print a shell completion script for bash, zsh or fish",
        description="print a shell completion script for bash, zsh or fish, made from paperdeck's own parser: "
        "subcommands, options, formats, sort orders, statuses, venue short names and time zones",
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    commands.add_parser(
        "man",
        help="print paperdeck's manual page (paperdeck man | man -l -)",
        description="print paperdeck's manual page (roff), made from its parser; the wheel installs it too",
    )


def venue_words(year: int | None = None) -> list[str]:
    """The venue short names ``paperdeck fetch`` takes, for completion: each conference of
    :data:`CONFERENCES` with each year from :data:`_VENUE_YEARS_BACK` years before ``year``
    (default: this year) to the one after, then the same as ``papercopilot:`` lists."""
    now = year if year is not None else datetime.date.today().year
    years = range(now - _VENUE_YEARS_BACK, now + 2)
    short = [f"{conference}{y}" for conference in sorted(CONFERENCES) for y in years]
    return short + [f"papercopilot:{name}" for name in short]


def zone_words() -> list[str]:
    """The IANA time zone names ``--tz`` takes, for completion: :func:`zoneinfo.available_timezones`,
    sorted. Computed only when a completion script is made (it reads the system's zone database):
    no other command, and no parser, asks for it."""
    import zoneinfo

    return sorted(zoneinfo.available_timezones())


def _words_of(kind: str) -> list[str]:
    """The words a ``"venue"`` or ``"zone"`` argument (:data:`COMPLETIONS`) is completed from."""
    return venue_words() if kind == "venue" else zone_words()


def _bash_function(kind: str) -> str:
    """The name of the bash function that completes a ``"venue"`` or ``"zone"`` argument."""
    return f"_paperdeck_{kind}s"


def shell_parser(app: argparse.ArgumentParser, commands: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """One parser of the whole command line: ``app``'s options (not its ``FILE``s, which the
    subcommands' names take the place of for completion) and ``commands``' subcommands, each
    argument of :data:`COMPLETIONS` marked for ``shtab`` (its ``complete`` attribute)."""
    parser = argparse.ArgumentParser(prog=app.prog, description=app.description, add_help=True)
    for action in app._actions:
        if action.option_strings and not isinstance(action, argparse._HelpAction):
            parser._add_action(action)
    for action in commands._actions:
        if isinstance(action, argparse._SubParsersAction):
            parser._add_action(action)
    parsers = {"": parser, **_subcommands(parser)}
    for name, target in parsers.items():
        for action in target._actions:
            if (kind := _completion_of(name, action.dest)) is not None:
                action.complete = _shtab_complete(kind)  # type: ignore[attr-defined]
        if (shape := last_word_choices(target)) is not None:
            _complete_the_last_word(name, *shape)
    return parser


def last_word_choices(parser: argparse.ArgumentParser) -> tuple[argparse.Action, argparse.Action] | None:
    """The two positionals of a command shaped ``COMMAND ITEM... CHOICE`` (``status ID...
    STATUS``): a free list (``nargs="+"``), then one word with choices; ``None`` for another
    shape. ``shtab`` offers nothing after such a list (it cannot tell where the list ends)."""
    positionals = [a for a in parser._actions if not a.option_strings and a.help is not argparse.SUPPRESS]
    if len(positionals) != 2:
        return None
    items, last = positionals
    if items.nargs != "+" or items.choices is not None or last.choices is None or last.nargs is not None:
        return None
    return items, last


def _function_name(command: str) -> str:
    return "_paperdeck_" + "".join(char if char.isalnum() else "_" for char in command) + "_last_word"


def _complete_the_last_word(command: str, items: argparse.Action, last: argparse.Action) -> None:
    """Have ``command``'s list ``items`` (in this completion parser only) offer ``last``'s choices
    at each of its words but the first, for any may be the last: bash by a function of
    :func:`_last_word_functions` (``shtab`` keeps completing the list, never ``last``); zsh by a
    rest argument (``shtab``'s spec of a ``+`` list is one word); fish offers the choices already
    at every word after the command."""
    words = " ".join(map(str, last.choices or ()))
    items.nargs = argparse.REMAINDER  # zsh: "*::ID:(...)", every word after the first
    items.complete = {"bash": _function_name(command), "zsh": f"({words})"}  # type: ignore[attr-defined]
    items.last_words = words  # type: ignore[attr-defined]


def _last_word_functions(parser: argparse.ArgumentParser) -> str:
    """The bash functions :func:`_complete_the_last_word` names: the choices, but for the list's
    first word (``current_action_args_start_index``: where ``shtab``'s script says it began)."""
    out = []
    for name, sub in _subcommands(parser).items():
        for words in [getattr(action, "last_words", None) for action in sub._actions]:
            if words is None:
                continue
            out.append(
                f"{_function_name(name)}() {{\n"
                f'  (( COMP_CWORD > ${{current_action_args_start_index:-0}} )) && compgen -W "{words}" -- "$1"\n'
                "}\n"
            )
    return "".join(out)


def _completion_of(command: str, dest: str) -> str | None:
    """How ``command``'s argument ``dest`` is completed (:data:`COMPLETIONS`), ``None``: as argparse
    says (its choices, else nothing)."""
    return COMPLETIONS.get((command, dest)) or COMPLETIONS.get(("*", dest))


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help_of(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each subcommand's one-line help, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._get_subactions()}
    return {}


def _shtab_complete(kind: str) -> dict[str, str]:
    import shtab  # deferred: only the completion scripts need it

    if kind in ("file", "dir"):
        return {shell: how for shell, how in (shtab.FILE if kind == "file" else shtab.DIRECTORY).items()
                if isinstance(how, str)}  # fmt: skip
    zsh_words = " ".join(word.replace(":", "\\:") for word in _words_of(kind))  # a colon ends a zsh spec's part
    return {"bash": _bash_function(kind), "zsh": f"({zsh_words})"}


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`) of :func:`shell_parser`'s parser,
    ending with a newline (printed, the shell's prompt starts on a line of its own).

    Raises:
        ValueError: an unknown shell.
    """
    if shell == "fish":
        return fish_script(parser)
    if shell not in SHELLS:
        raise ValueError(f"no completion for {shell!r}; one of {', '.join(SHELLS)}")
    import shtab

    words = "".join(
        f'{_bash_function(kind)}() {{\n  compgen -W "{" ".join(_words_of(kind))}" -- "$1"\n}}\n'
        for kind in ("venue", "zone")
    )
    preamble = words + _last_word_functions(parser) if shell == "bash" else ""
    script: str = shtab.complete(parser, shell, preamble=preamble)
    return script if script.endswith("\n") else script + "\n"


# -- fish ----------------------------------------------------------------------------------------


def _fish_quote(text: str) -> str:
    """``text`` as one single-quoted fish word."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _short_help(text: str | None) -> str:
    """A description for a completion: the help up to its first ``;``, one line, at most 60
    characters."""
    line = " ".join((text or "").replace("%(default)s", "").split())
    line = line.split(";", 1)[0].strip().rstrip(":,")
    return line if len(line) <= 60 else line[:59].rstrip() + "…"


def _fish_arguments(action: argparse.Action, command: str) -> list[str]:
    """The ``complete`` arguments for one option or positional of ``command`` ("" for the app)."""
    kind = _completion_of(command, action.dest)
    words: list[str] = []
    if action.choices is not None:
        words = ["-x", "-a", _fish_quote(" ".join(map(str, action.choices)))]
    elif kind in ("venue", "zone"):
        words = ["-x", "-a", _fish_quote(" ".join(_words_of(kind)))]
    elif kind == "dir":
        words = ["-x", "-a", "'(__fish_complete_directories)'"]
    elif kind == "file":
        words = ["-r", "-F"]
    elif action.option_strings and action.nargs != 0:
        words = ["-x"]  # a value of its own: no file names offered
    if action.help and action.help is not argparse.SUPPRESS:
        words += ["-d", _fish_quote(_short_help(action.help))]
    return words


def _fish_lines(parser: argparse.ArgumentParser, command: str, condition: str) -> Iterator[str]:
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction | argparse._VersionAction):
            continue
        if action.help is argparse.SUPPRESS:
            continue
        names: list[str] = []
        for option in action.option_strings:
            names += ["-l", option[2:]] if option.startswith("--") else ["-s", option[1:]]
        if not names and action.choices is None and _completion_of(command, action.dest) is None:
            continue  # a free positional (a query, an id): nothing to offer
        described = _fish_arguments(action, command)
        yield " ".join(["complete -c paperdeck", "-n", _fish_quote(condition), *names, *described])


def fish_script(parser: argparse.ArgumentParser) -> str:
    """A fish completion script of :func:`shell_parser`'s parser: one ``complete -c paperdeck``
    line per subcommand (offered while none is given), per option (``-l``/``-s``, with its choices,
    a file or folder, or a value of its own: ``-x``) and per positional that has choices, files
    or venue names; each with its help's first clause as the description."""
    lines = [
        f"# fish completion for paperdeck {__version__}, made from its parser (paperdeck completion fish).",
        "# Install: paperdeck completion fish > ~/.config/fish/completions/paperdeck.fish",
        "complete -c paperdeck -e",
        "complete -c paperdeck -f",
    ]
    help_of = _help_of(parser)
    for name in _subcommands(parser):
        lines.append(
            f"complete -c paperdeck -n '__fish_use_subcommand' -a {_fish_quote(name)} "
            f"-d {_fish_quote(_short_help(help_of.get(name)))}"
        )
    lines += ["complete -c paperdeck -n '__fish_use_subcommand' -s h -l help -d 'show the help'"]
    lines += ["complete -c paperdeck -n '__fish_use_subcommand' -l version -d 'print the version'"]
    lines += _fish_lines(parser, "", "__fish_use_subcommand")
    for name, sub in _subcommands(parser).items():
        lines += ["", f"# paperdeck {name}"]
        lines.append(f"complete -c paperdeck -n '__fish_seen_subcommand_from {name}' -s h -l help -d 'show the help'")
        lines += _fish_lines(sub, name, f"__fish_seen_subcommand_from {name}")
    return "\n".join(lines) + "\n"


# -- the manual page -----------------------------------------------------------------------------


def _roff(text: str) -> str:
    """``text`` as roff running text: backslashes and hyphens escaped, a character beyond ASCII
    as its ``\\[uXXXX]`` escape (troff reads the page as bytes of one encoding), a line that
    starts with ``.`` or ``'`` guarded with ``\\&``."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(char if ord(char) < 128 else f"\\[u{ord(char):04X}]" for char in text)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n"))


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=_MAN_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def _invocation(action: argparse.Action) -> str:
    if not action.option_strings:
        return str(action.metavar or action.dest)
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = action.metavar or (
        action.dest.upper() if action.choices is None else "{" + ",".join(map(str, action.choices)) + "}"
    )
    return ", ".join(f"{option} {metavar}" for option in action.option_strings)


def _help_text(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=_MAN_WIDTH)
    return " ".join(formatter._expand_help(action).split()) if action.help else ""


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    out: list[str] = []
    for action in parser._actions:
        if action.help is argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        out += [".TP", f"\\fB{_roff(_invocation(action))}\\fR", _roff(_help_text(parser, action))]
    return out


def man_page(app: argparse.ArgumentParser, commands: argparse.ArgumentParser) -> str:
    """``paperdeck(1)`` in roff: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (the app's), COMMANDS (each
    subcommand's usage, description, arguments and epilog), ENVIRONMENT, FILES, SEE ALSO. The same
    text for the same parsers (no date: the version stands for it)."""
    out = [
        f'.TH PAPERDECK 1 "" "paperdeck {__version__}" "User Commands"',
        ".SH NAME",
        "paperdeck \\- a keyboard\\-driven terminal browser for conference paper lists",
        ".SH SYNOPSIS",
        ".nf",
        _roff(_usage(app)),
        "paperdeck COMMAND [OPTION ...] [ARGUMENT ...]",
        ".fi",
        ".SH DESCRIPTION",
        _roff(app.description or ""),
        ".PP",
        "Run without a command, paperdeck opens the app on the store (importing each FILE first); "
        "press \\fB?\\fR in it for every key.",
        ".SH OPTIONS",
        *_arguments(app),
        ".SH COMMANDS",
        "Each command takes \\fB\\-h\\fR for its help.",
    ]
    for name, sub in _subcommands(commands).items():
        out += [".SS " + _roff(name), _roff(sub.description or ""), ".PP", ".nf", _roff(_usage(sub)), ".fi"]
        out += _arguments(sub)
        if sub.epilog:
            out += [".PP", _roff(" ".join(sub.epilog.split()))]
    out += [
        ".SH ENVIRONMENT",
        ".TP",
        f"\\fB{_roff(DATA_DIR_ENV)}\\fR",
        "The data directory (the store, config.json), unless \\fB\\-\\-data\\-dir\\fR is given.",
        ".TP",
        "\\fBNO_COLOR\\fR",
        "Set: the app shows no colour; the highlighted row, marks and matches stay readable.",
        ".SH FILES",
        ".TP",
        "\\fIconfig.json\\fR",
        "In the data directory: the theme, the sort order, the layout, saved views, remapped keys, "
        "the Zotero address (zotero_url).",
        ".SH SEE ALSO",
        "The guide in the project's docs/ folder; \\fBpaperdeck completion\\fR for shell completion.",
    ]
    return "\n".join(out) + "\n"
