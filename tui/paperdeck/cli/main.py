"""The ``paperdeck`` command: the app (``paperdeck [FILE ...]``) and its subcommands.

``paperdeck import|search|list|show|stats|star|unstar|note|status|tag|untag|export|similar|follow|unfollow|``
``following|changes|fetch|remove`` share the core with the app: the same store, the same importers, the same
ranking. Each takes ``--json``. ``paperdeck completion bash|zsh|fish`` and ``paperdeck man`` print what
the shell knows of paperdeck, made from these parsers (:mod:`paperdeck.cli.shell`); they open no store.
"""

from __future__ import annotations

import os
import sys

from paperdeck import __version__

# What this module imports at its top is paid by every command, `--version` too: the standard
# library's os and sys only (typing, pathlib and contextlib cost more than the interpreter's own
# start). What a command needs is imported as it is reached.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from pathlib import Path

    from paperdeck.model.errors import PaperdeckError
    from paperdeck.store.store import Store

#: Subcommands (implemented in :mod:`paperdeck.cli.commands`, imported only when one is used).
COMMAND_NAMES = (
    "import",
    "search",
    "list",
    "show",
    "reviews",
    "stats",
    "star",
    "unstar",
    "note",
    "status",
    "tag",
    "untag",
    "export",
    "similar",
    "follow",
    "unfollow",
    "following",
    "changes",
    "fetch",
    "remove",
    "plan",
    "completion",
    "man",
)


def _add_common(parser: argparse.ArgumentParser) -> None:
    from paperdeck.paths import DATA_DIR_ENV

    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help=f"where the store lives (default: ${DATA_DIR_ENV}, else the user data directory)",
    )


def build_app_parser() -> argparse.ArgumentParser:
    """The parser of ``paperdeck [FILE ...]`` (open the app)."""
    from pathlib import Path

    # deferred, as FORMAT_NAMES (argparse with it): a bare ``paperdeck`` parses nothing
    from paperdeck.cli.arg_errors import OneLineErrors
    from paperdeck.cli.selecting import add_import_venue_option
    from paperdeck.sources import FORMAT_NAMES, format_help

    parser = OneLineErrors(
        prog="paperdeck",
        description="Browse, filter, star and annotate conference paper lists in the terminal. "
        f"Subcommands: {', '.join(COMMAND_NAMES)} (paperdeck COMMAND --help).",
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        type=Path,
        help=f"paper lists to import before opening ({format_help()}); default: the store as it is, "
        "the bundled ICLR 2026 lists on first run",
    )
    parser.add_argument("--format", choices=FORMAT_NAMES, help="read FILEs in this format")
    add_import_venue_option(parser)  # as `paperdeck import --venue`
    _add_common(parser)
    parser.add_argument("--version", action="version", version=f"paperdeck {__version__}")
    return parser


def build_command_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``paperdeck COMMAND …``; given ``command``, of that subcommand only (so that a
    command does not import every other command's module)."""
    from paperdeck.cli.commands import CommandParser, add_command_parsers

    parser = CommandParser(prog="paperdeck")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_command_parsers(commands, _add_common, command)
    return parser


def run_shell_command(args_list: list[str]) -> int:
    """``paperdeck completion SHELL`` or ``paperdeck man`` (``args_list`` from the command on):
    print the script or the page, made from the whole command line's parsers; no store is opened."""
    from paperdeck.cli.shell import completion_script, man_page, shell_parser

    args = build_command_parser(args_list[0]).parse_args(args_list)
    if args.command == "man":
        text = man_page(build_app_parser(), build_command_parser())
    else:
        text = completion_script(args.shell, shell_parser(build_app_parser(), build_command_parser()))
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


def open_store(
    data_dir_option: str | None, files: Sequence[Path], format: str | None = None, venue: str = ""
) -> tuple[Store, list[str]]:
    """Open the store and import ``files`` (or the bundled seeds into an empty store); ``venue``:
    as ``paperdeck import --venue``, the venue of the papers whose file names none.

    Returns:
        The store and one-line messages for the user (import summaries, notices).

    Raises:
        PaperdeckError: the store cannot be opened or a file cannot be imported.
    """
    from paperdeck.paths import bundled_seed_files, data_dir
    from paperdeck.store.store import Store

    # The first frame needs the marks of the rows it shows and the counts, not every user record.
    # The papers without their texts: each screen reads the texts it shows (lean_papers).
    store = Store(data_dir(data_dir_option), lazy=True, user_records=False, lean=True)
    messages: list[str] = []
    if store.recovered:
        from paperdeck.store.store import RECOVERED

        messages.append(RECOVERED)
    to_import = list(files) or (bundled_seed_files() if store.is_empty else [])
    if to_import:
        from paperdeck.cli.caches import caches_key, said_saved_when_interrupted
        from paperdeck.cli.output import import_progress
        from paperdeck.model.safe_text import file_name
        from paperdeck.sources.importer import import_files

        # `paperdeck import`'s progress, cleared before the app opens; a Ctrl-C once the import
        # is committed says it was saved
        with said_saved_when_interrupted(store, caches_key(store), "the import", "paperdeck import --undo"):
            with import_progress(len(to_import)) as bar:
                summary = import_files(
                    store,
                    to_import,
                    format,
                    bar.reading if bar else None,
                    venue,
                    bar.merging if bar else None,
                    told=bar.read_bytes if bar else None,
                    records=bar.read_records if bar else None,
                )
                if bar:
                    bar.done()  # drawn full before it is cleared
            messages.extend(summary.notices)
            messages.extend(f"Restored {file_name(path)}: {report.summary()}" for path, report in summary.restored)
            if files:
                messages.append(f"Imported {len(summary.files)} file(s): {summary.summary()}")
                from paperdeck.cli.follows import followed_news

                if (followed := followed_news(store, summary.new_ids)[0]) is not None:
                    messages.append(followed)
    return store, messages


def _remove_if_empty(directory: Path | None) -> None:
    """Take away the data directory a failed run made, when nothing was written into it (a file
    refused before any write): a refused import changes nothing, not even by a folder."""
    if directory is not None:
        import contextlib

        with contextlib.suppress(OSError):
            directory.rmdir()  # only when empty


def _command_position(args: list[str]) -> int | None:
    """Where the subcommand is, past leading ``--data-dir DIR`` options; ``None`` for the app."""
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in COMMAND_NAMES:
            return position
        if arg == "--data-dir":
            position += 2
        elif arg.startswith("--data-dir="):
            position += 1
        else:
            return None
    return None


def _mistyped_command(args: list[str]) -> str | None:
    """Why ``args`` (an app command line: no subcommand in it) is refused as a mistyped command, or
    ``None``. Its first word past leading ``--data-dir`` and ``--format`` options is taken for a command, not a
    file, when no file of that name exists and it is close to a command's name
    (:func:`difflib.get_close_matches`: ``serach`` → ``did you mean search?``) or is a bare lowercase
    word (no dot, no slash: ``xyzzy`` → the commands are listed). A path that does not exist and
    looks like one (``lists/iclr.csv``) is left to the import, which says "no such file"."""
    position = 0
    while position < len(args) and args[position].startswith(("--data-dir", "--format")):
        position += 2 if args[position] in ("--data-dir", "--format") else 1
    if position >= len(args):
        return None
    word = args[position]
    if word.startswith("-") or os.path.lexists(word):
        return None
    import difflib

    from paperdeck.model.safe_text import one_line

    shown = one_line(word)
    close = difflib.get_close_matches(word.lower(), COMMAND_NAMES, n=1)
    if close:
        return f'no command or file "{shown}" — did you mean {close[0]}?'
    if word.isascii() and word.replace("-", "").isalpha():
        return f'no command or file "{shown}"; commands: {", ".join(COMMAND_NAMES)} (paperdeck --help)'
    return None


def _dashed_text(parser: argparse.ArgumentParser, args: list[str]) -> list[str]:
    """``args`` (a subcommand and what follows it) with each argument that begins with one ``-``
    but names no option of that subcommand taken as text, not refused as an unknown option: a
    query's ``-decision:reject``, a tag ``-wip``, a note ``--text -1``. The options then go first
    (an option's value joined to it with ``=``), then ``--``, then the other arguments in their
    order. ``args`` unchanged when it holds no such argument, or a ``--`` already."""
    if "--" in args:
        return args
    import argparse

    # argparse has no public way to list a subcommand's options: its own tables are read.
    actions = parser._subparsers._group_actions if parser._subparsers is not None else []
    sub = next((a.choices.get(args[0]) for a in actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None:
        return args
    known = sub._option_string_actions
    options: list[str] = []
    words: list[str] = []
    dashed = False
    position = 1
    while position < len(args):
        arg = args[position]
        action = known.get(arg.split("=", 1)[0]) if arg.startswith("-") else None
        if action is not None and action.nargs != 0 and "=" not in arg and position + 1 < len(args):
            value = args[position + 1]
            options.append(f"{arg}={value}")  # its value, even one that begins with -
            dashed = dashed or value.startswith("-")
            position += 1
        elif action is not None or arg.startswith("--"):  # an unknown --option: argparse says so
            options.append(arg)
        else:
            dashed = dashed or (arg.startswith("-") and len(arg) > 1)
            words.append(arg)
        position += 1
    return [args[0], *options, "--", *words] if dashed else args


def _leading_data_dir(options: list[str]) -> str | None:
    """The ``--data-dir`` value of the options :func:`_command_position` passed over (the last one
    given), ``None`` when there is none."""
    value = None
    position = 0
    while position < len(options):
        arg = options[position]
        if arg == "--data-dir":
            value = options[position + 1]
            position += 2
        else:
            value = arg.removeprefix("--data-dir=")
            position += 1
    return value


#: The commands that name one paper (or a few, ``star``): they find it by the paper index.
_ONE_PAPER_COMMANDS = frozenset({"show", "reviews", "star", "unstar", "note", "status", "tag", "untag"})

#: The commands :mod:`paperdeck.cli.quick` may answer (its QUICK_COMMANDS: not imported for the others).
_QUICK_COMMANDS = frozenset({"show", "star", "unstar", "status", "note", "tag", "untag"})

#: The commands the collector stays off for, run from the process's own command line (see main()).
_READING_COMMANDS = frozenset({"search", "list", "show"})


def _read_index_ahead(args: list[str], command_at: int) -> None:
    """Start reading the saved search index of the store ``args`` name (the last ``--data-dir``
    before a ``--``, else the one before the command, else the default) in a thread, before the
    command's modules are imported and its arguments parsed: the search takes what was read when
    it is of the file it reads (:func:`paperdeck.search.index_file.take_read_ahead`); a guess
    that misses (an abbreviated option) costs a read, not a result."""
    given = _leading_data_dir(args[:command_at])
    position = command_at + 1
    while position < len(args) and (arg := args[position]) != "--":
        if arg == "--data-dir" and position + 1 < len(args):
            given = args[position + 1]
            position += 1
        elif arg.startswith("--data-dir="):
            given = arg.removeprefix("--data-dir=")
        position += 1
    import contextlib

    from paperdeck.paths import data_dir
    from paperdeck.search.index_file import INDEX_FILE, start_read_ahead

    with contextlib.suppress(OSError, ValueError, RuntimeError):  # no such path: the command says so if it must
        start_read_ahead(data_dir(given) / INDEX_FILE)


def _drop_index_read() -> None:
    """Let go of an index read :func:`_read_index_ahead` started that the command did not take."""
    index_file = sys.modules.get("paperdeck.search.index_file")
    if index_file is not None:
        index_file.drop_read_ahead()


#: Arguments that name files: bytes that are no UTF-8 are kept in them (a file may be named so).
_PATH_ARGUMENTS = frozenset({"files", "output", "data_dir"})
#: Text arguments given as options (the others are positional).
_OPTIONS = frozenset({"text", "since", "sort", "format"})


def _check_text_arguments(args: argparse.Namespace) -> None:
    """Refuse text arguments holding bytes that are not UTF-8 (Python keeps them as lone
    surrogates, which no file of the store can hold).

    Raises:
        NotText: naming the argument and the first such byte.
    """
    for name, value in vars(args).items():
        if name in _PATH_ARGUMENTS:
            continue
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError as exc:
                    code = ord(text[exc.start])
                    shown = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "a lone surrogate"
                    option = f"--{name.replace('_', '-')}" if name in _OPTIONS else name
                    from paperdeck.cli.refusals import NotText

                    raise NotText(f"the {option} argument is not valid UTF-8 ({shown}); nothing was changed") from None


def _failed(error: PaperdeckError | KeyboardInterrupt | BrokenPipeError) -> int:
    """Report ``error`` (a one-line message on stderr) and return the exit status: 1 for nothing
    to do (:class:`~paperdeck.model.errors.NothingToDo`), 2 for another error, 130 for an interrupt."""
    from paperdeck.model.errors import NothingToDo, PaperdeckError

    if isinstance(error, PaperdeckError):
        from paperdeck.cli.output import print_error

        print_error(str(error))
        return 1 if isinstance(error, NothingToDo) else 2
    if isinstance(error, KeyboardInterrupt):
        from paperdeck.model.errors import SavedThenInterrupted

        said = error.message if isinstance(error, SavedThenInterrupted) else "interrupted; nothing was changed"
        print(f"paperdeck: {said}", file=sys.stderr)
        return 130
    sys.stdout = None  # `paperdeck list | head`: the reader left; that is fine
    return 0


def _say_recovered() -> None:
    """Tell, on standard error, that opening the store finished a change an interrupted
    paperdeck had saved (:data:`paperdeck.store.store.RECOVERED`)."""
    from paperdeck.cli.output import print_error
    from paperdeck.store.store import RECOVERED

    print_error(RECOVERED)


def _disk_error(error: OSError) -> PaperdeckError:
    """An ``OSError`` no part of paperdeck reported (a directory that cannot be listed, a disk
    fault) as one line naming the path: no traceback."""
    from paperdeck.model.errors import StoreError

    where = error.filename if isinstance(error.filename, str | bytes) else "the data directory"
    return StoreError(os.fsdecode(where), f"{error.strerror or error}; check the disk and its permissions")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paperdeck`` console script; returns the exit status."""
    # paperdeck's numpy work is element-wise: OpenBLAS's thread pool would only cost its start
    # (numpy's import). A value the user set is kept. Only for the process's own command line: a
    # caller of main(argv) (a test) keeps its environment as it was.
    if argv is None:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:  # what argparse's version action prints, before any import
        sys.stdout.write(f"paperdeck {__version__}\n")
        sys.stdout.flush()
        return 0
    command_at = _command_position(args_list)
    if command_at is not None and args_list[command_at] in _QUICK_COMMANDS:
        # `show ID`, `star ID…`: answered without opening the store the full way when it can be exactly
        # (paperdeck.cli.quick); else (None: nothing printed) the full path below.
        from paperdeck.cli.quick import run as run_quick

        try:
            quick = run_quick(args_list[command_at:], _leading_data_dir(args_list[:command_at]))
        except KeyboardInterrupt as error:  # as the full path says it
            return _failed(error)
        if quick is not None:
            return quick
    import contextlib

    from paperdeck import runtime
    from paperdeck.model.errors import PaperdeckError
    from paperdeck.paths import data_dir

    fresh: Path | None = None  # the data directory this run makes, taken away again if it fails
    try:
        command_at = _command_position(args_list)
        if command_at is not None and args_list[command_at] in ("completion", "man"):
            return run_shell_command(args_list[command_at:])
        if command_at is not None:
            if args_list[command_at] == "search":
                _read_index_ahead(args_list, command_at)
            # What is imported, parsed and opened here lives as long as the process: the cycle
            # collector would walk it for nothing.
            with runtime.collector_paused():
                from paperdeck.cli.commands import COMMANDS, MARKING_COMMANDS, READ_ONLY_COMMANDS
                from paperdeck.store.store import Store

                # `paperdeck --data-dir DIR star ID` works like `paperdeck star ID --data-dir DIR`:
                # the options before the command are taken here, not moved after its arguments
                # (past a `--` they would be read as arguments). One given after the command wins.
                leading = _leading_data_dir(args_list[:command_at])
                parser = build_command_parser(args_list[command_at])
                args = parser.parse_args(_dashed_text(parser, args_list[command_at:]))
                _check_text_arguments(args)
                # A command reads the papers it names, not the rows (`stats` reads them at first need),
                # and makes the user records it reads (every shard is still checked).
                chosen = data_dir(args.data_dir if args.data_dir is not None else leading)
                # A command that only reads, or marks papers (which must be there), leaves a missing
                # (mistyped) data directory uncreated.
                create = args.command not in READ_ONLY_COMMANDS | MARKING_COMMANDS
                fresh = chosen if create and not os.path.lexists(chosen) else None
                # A command on one paper finds it by the paper index: the catalogue is opened
                # (its rows cache's ids read) only when something else needs it.
                one_paper = args.command in _ONE_PAPER_COMMANDS
                store = Store(chosen, lazy=True, rows=False, user_records=False, create=create,
                              catalogue_at_first_use=one_paper)  # fmt: skip
                if store.recovered:
                    _say_recovered()
                if argv is None:  # the process's own command line: all this lives until it exits
                    runtime.held_until_exit()
            # A command that reads the store and prints makes little the collector could free
            # (reference counting frees it) and the process ends with it: the collector stays off.
            reading = argv is None and args.command in _READING_COMMANDS
            try:
                with runtime.collector_paused() if reading else contextlib.nullcontext():
                    status = COMMANDS[args.command](store, args)
                    if argv is None:  # the process's own command line: it exits next
                        runtime.exiting()  # (before the collector is on again: nothing left to walk)
            finally:
                _drop_index_read()
            return status
        if (mistyped := _mistyped_command(args_list)) is not None:
            from paperdeck.cli.refusals import UnknownCommand

            raise UnknownCommand(mistyped)
        # A bare ``paperdeck`` (the usual start) has nothing to parse: argparse is not imported.
        app_args = build_app_parser().parse_args(args_list) if args_list else None
    except (PaperdeckError, KeyboardInterrupt, BrokenPipeError) as error:
        _remove_if_empty(fresh)
        return _failed(error)
    except OSError as error:  # a disk fault no part turned into its own line: one line still
        _remove_if_empty(fresh)
        return _failed(_disk_error(error))
    # The process is tuned for the app from here to its end (paperdeck.runtime); the main screen
    # turns the cycle collector back on once the catalogue is indexed. The process exits next, so
    # what was frozen stays frozen (not walked again by the interpreter's last collection).
    with runtime.tuned(unfreeze=False):
        chosen = data_dir(app_args.data_dir if app_args is not None else None)
        fresh = None if os.path.lexists(chosen) else chosen
        try:
            if app_args is None:
                store, messages = open_store(None, [])
            else:
                store, messages = open_store(app_args.data_dir, app_args.files, app_args.format, app_args.venue or "")
        except (PaperdeckError, KeyboardInterrupt, BrokenPipeError) as error:
            _remove_if_empty(fresh)
            return _failed(error)
        except OSError as error:
            _remove_if_empty(fresh)
            return _failed(_disk_error(error))
        from paperdeck.ui.app import PaperApp  # deferred: importing Textual is the slow part of start-up

        app = PaperApp(store=store, messages=messages)
        app.run()
    if app.failure is not None:  # the store turned out unreadable once the app ran: the CLI's line
        return _failed(app.failure)
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
