"""The user's keymap (``keymap`` in config.json: binding id → comma-separated keys), checked
against the command table (:data:`paperdeck.ui.commands.COMMANDS`) before the app hands it to
Textual: what is refused and why, and what applies (:func:`check_keymap`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from paperdeck.ui.commands import BY_ID, COMMANDS, SUMMARIES, keys_in_effect
from paperdeck.values import TupleValue

#: Keys that keep their meaning whatever the keymap says: ``q`` quits, ``?`` lists the keys and
#: ``ctrl+c`` copies or quits (as in a shell).
#: A keymap can give these commands more keys, never take these keys from them or give them to
#: another command (a dialog keeps the ones it has by default: ``q`` closes the views list).
PROTECTED_KEYS: dict[str, str] = {"q": "app.quit", "question_mark": "app.help", "ctrl+c": "app.interrupt"}
#: Keys Textual binds itself (the palette, focus moves, its own quit): no command may take them.
TEXTUAL_KEYS: frozenset[str] = frozenset(
    {summary.keys for summary in SUMMARIES if summary.keys} | {"shift+tab", "ctrl+q"}
)
#: Owners whose bindings are live at the same time (one binding chain: the main screen with the
#: list or the filter bar focused; the note editor; the reader, the reviews and the statistics
#: under the app's keys; each dialog on its own, as a modal screen stops the chain of
#: non-priority keys, the export prompt with its tick box). A key runs one command per group;
#: every owner is in one (a test checks it).
CHAINS: tuple[frozenset[str], ...] = (
    frozenset({"app", "reading", "main", "list"}),
    frozenset({"app", "note"}),
    frozenset({"app", "reader"}),
    frozenset({"app", "reviews"}),
    frozenset({"app", "stats"}),
    frozenset({"app", "schedule"}),
    frozenset({"export", "tickbox"}),
    *(frozenset({owner}) for owner in ("help", "confirm", "tags", "links", "views", "venues", "save_view")),
    *(frozenset({owner}) for owner in ("follows", "follow_author", "follow_keyword", "refused")),
)


def normalise_key(key: str) -> str:
    """A key as Textual names it: ``"?"`` → ``"question_mark"``, ``"/"`` → ``"slash"``; a name
    (``"ctrl+s"``, ``"f"``) as it is, without surrounding spaces."""
    import unicodedata

    from textual.keys import KEY_NAME_REPLACEMENTS

    key = key.strip()
    if len(key) != 1 or key.isalnum():
        return key
    if key == "\t":
        return "tab"
    try:
        name = unicodedata.name(key).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return key
    return KEY_NAME_REPLACEMENTS.get(name, name)


#: The modifiers Textual puts before a key's name (``ctrl+shift+left``).
_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def is_key_name(key: str) -> bool:
    """Whether ``key`` (as :func:`normalise_key` gives it) is a key Textual can report: a
    printable character (``s``, ``S``, ``5``), a character's name (``question_mark``, ``slash``,
    ``left_square_bracket``), one of Textual's named keys (``escape``, ``f5``, ``pagedown``,
    ``space``), each after any of the modifiers ``ctrl+``, ``shift+``, ``alt+``… A typo
    (``ctlr+s``, ``stra``, ``F55``) is none: bound, it would never run its command."""
    import unicodedata

    from textual.keys import KEY_NAME_REPLACEMENTS, Keys

    *modifiers, base = key.split("+")
    if not base or any(modifier not in _MODIFIERS for modifier in modifiers) or len(set(modifiers)) < len(modifiers):
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    if base in {k.value for k in Keys} and not base.startswith("<"):
        return True
    unicode_name = {named: name for name, named in KEY_NAME_REPLACEMENTS.items()}.get(base, base)
    try:
        character = unicodedata.lookup(unicode_name.replace("_", " "))
    except KeyError:  # a name with a hyphen in Unicode: LESS-THAN SIGN is less_than_sign
        return base in _hyphenated_names()
    return normalise_key(character) == base  # the name Textual gives it, not another (latin_small_letter_a)


@functools.cache
def _hyphenated_names() -> frozenset[str]:
    """The key names of the printable characters below U+3000 whose Unicode names have a hyphen."""
    import unicodedata

    return frozenset(
        normalise_key(char)
        for char in map(chr, range(0x21, 0x3000))
        if char.isprintable() and "-" in unicodedata.name(char, "")
    )


class KeymapCheck(TupleValue):
    """A user's keymap, checked (:func:`check_keymap`): a tuple ``(keys, applied, problems)``,
    as the named tuple it was (:class:`~paperdeck.values.TupleValue`: made before the first paint).

    Attributes:
        keys: binding id → the keys in effect (comma-separated Textual key names), for every
            command that has keys: what the help screen and the palette show.
        applied: what to hand to ``App.set_keymap``: the ids the user remapped and every id shown
            in the footer (so that a remapped key keeps its place there, as Textual moves each
            remapped binding to the end); empty when the user remapped nothing.
        problems: what was refused, one short phrase each (``""``-free, no newlines).
    """

    __slots__ = ()
    FIELDS = ("keys", "applied", "problems")

    def __new__(cls, keys: dict[str, str], applied: dict[str, str], problems: tuple[str, ...]) -> KeymapCheck:
        return tuple.__new__(cls, (keys, applied, problems))

    @property
    def keys(self) -> dict[str, str]:
        """Binding id → the keys in effect."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def applied(self) -> dict[str, str]:
        """What to hand to ``App.set_keymap``."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def problems(self) -> tuple[str, ...]:
        """What was refused, one short phrase each."""
        return self[2]  # type: ignore[no-any-return]

    def report(self, where: str = "config.json", settings: Sequence[str] = ()) -> str | None:
        """The problems in one line, after ``settings``: the other settings' problems, one phrase
        each (``None`` when there are none at all)."""
        if not self.problems and not settings:
            return None
        count = len(self.problems) + len(settings)
        problems = f"{count} problem{'' if count == 1 else 's'}: "
        if not settings:
            return f"{where} keymap: {problems}" + "; ".join(self.problems) + "; the other keys apply."
        keymap = [f"keymap {problem}" for problem in self.problems]
        return f"{where}: {problems}" + "; ".join([*settings, *keymap]) + "; defaults stand in, the rest applies."


def check_keymap(keymap: Mapping[str, str]) -> KeymapCheck:
    """Check a user's keymap (binding id → comma-separated keys) against the command table.

    Refused, each with a problem phrase: an id that is no command with keys; an entry with no
    keys; a key that is no key name (:func:`is_key_name`: a typo, bound, would never run); a key
    of :data:`PROTECTED_KEYS` (unless among the command's own defaults: ``q`` closes the views
    list) or :data:`TEXTUAL_KEYS` given to another command; a key that would run two
    commands live at the same time (:data:`CHAINS`) where the defaults do not already share it —
    the command that had it by default keeps it (of two remapped ones, the first in the keymap).
    ``q`` and ``?`` stay on Quit and Help even when those are remapped. A command left with no
    key keeps its default keys. Never raises: the rest of the keymap applies.
    """
    from paperdeck.model.safe_text import one_line

    defaults = {c.id: keys_in_effect(c, {}) for c in COMMANDS if c.keys}
    effective = {ident: list(keys) for ident, keys in defaults.items()}
    problems: list[str] = []
    remapped: list[str] = []

    def name(text: str) -> str:
        return repr(one_line(str(text))[:40])

    def label(ident: str) -> str:
        return f"{BY_ID[ident].description} [{ident}]"

    for ident, text in keymap.items():
        if ident not in defaults:
            problems.append(f"{name(ident)} is no command id (the help screen lists them)")
            continue
        given = list(dict.fromkeys(k for k in (normalise_key(part) for part in str(text).split(",")) if k))
        kept: list[str] = []
        for key in given:
            owner = PROTECTED_KEYS.get(key)
            if not is_key_name(key):
                problems.append(
                    f"{name(key)} is no key name (as s, S, ctrl+s, f5, space, question_mark), not {label(ident)}"
                )
            elif owner is not None and owner != ident and key not in defaults[ident]:
                problems.append(f"{name(key)} stays {label(owner)}, not {label(ident)}")
            elif key in TEXTUAL_KEYS:
                problems.append(f"{name(key)} is Textual's own key, not {label(ident)}")
            else:
                kept.append(key)
        for key, owner in PROTECTED_KEYS.items():
            if owner == ident and kept and key not in kept:
                kept.append(key)
                problems.append(f"{name(key)} stays {label(ident)} beside {', '.join(map(name, kept[:-1]))}")
        if not kept:
            if not given:
                problems.append(f"{label(ident)} is given no keys: kept its own")
            continue
        effective[ident] = kept
        remapped.append(ident)

    def live_together(a: str, b: str) -> bool:
        owners = {BY_ID[a].owner, BY_ID[b].owner}
        return any(owners <= chain for chain in CHAINS)

    for _ in range(4 * len(effective)):  # each round drops a key; a few rounds settle it
        clash = next(
            (
                (key, ident, other)
                for ident in remapped
                for key in effective[ident]
                for other in effective
                if other != ident
                and key in effective[other]
                and live_together(ident, other)
                and not (key in defaults[ident] and key in defaults[other])
            ),
            None,
        )
        if clash is None:
            break
        key, ident, other = clash
        loser, keeper = ident, other  # the remapped one gives way to a default …
        if other in remapped and remapped.index(other) > remapped.index(ident):
            loser, keeper = other, ident  # … or to the one remapped first
        effective[loser] = [k for k in effective[loser] if k != key]
        problems.append(f"{name(key)} would run both {label(keeper)} and {label(loser)}: kept {label(keeper)}")
        if not effective[loser]:
            effective[loser] = list(defaults[loser])
            remapped.remove(loser)
    keys = {ident: ",".join(found) for ident, found in effective.items()}
    applied: dict[str, str] = {}
    if remapped:
        applied = {c.id: keys[c.id] for c in COMMANDS if c.id in keys and (c.show or c.id in remapped)}
    return KeymapCheck(keys, applied, tuple(problems))
