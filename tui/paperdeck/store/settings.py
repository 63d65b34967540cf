"""Settings that stay between sessions: theme, pane layout, key remapping — ``config.json`` in the
data directory, next to the store.

Example::

    {"theme": "gruvbox", "show_detail": true, "list_width": 55, "sort": "rating",
     "keymap": {"main.star": "f", "list.down": "j,down,ctrl+n"},
     "views": {"Orals to read": "decision:oral status:to-read"}, "view_sorts": {"Orals to read": "rating"},
     "venues": ["COLM 2025"]}

``keymap`` maps binding ids (listed in the help screen) to comma-separated keys (Textual's
``App.set_keymap``). A file paperdeck cannot read is reported and left alone: defaults are used and
the file is never overwritten.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.values import FrozenValue

CONFIG_FILE = "config.json"
#: Where a running Zotero's connector server listens (Zotero's own default: port 23119 on this machine).
ZOTERO_URL = "http://127.0.0.1:23119"
#: The sort orders, declared once: key (``config.json``, ``--sort``), how it is named to the user,
#: and its short form (the counts beside the filter bar, where they lack room for the name; ``↓``:
#: the largest first; 9 cells at most: at 80 columns that is the room beside a whole conference's
#: count and a venue scope named like ``ICLR 2025``). By relevance to the query's words (list order
#: without words), the order papers were imported, title, mean rating (unrated last), rating
#: spread, the lowest rating (the papers whose lowest rating is the highest first), decision (oral
#: first), most recently changed by me; the largest rise, the largest fall of the mean rating during
#: the discussion; the percentile in its venue.
SORT_TABLE = (
    ("relevance", "relevance", "relevance"),
    ("list", "list order", "as listed"),
    ("title", "title", "by title"),
    ("rating", "rating", "↓rating"),
    ("spread", "rating spread", "↓spread"),
    ("best_lowest", "best lowest rating", "↓lowest"),
    ("decision", "decision", "↓decision"),
    ("changed", "recently changed by me", "↓changed"),
    ("rise", "largest rating rise", "↓rise"),
    ("fall", "largest rating fall", "↓fall"),
    ("rating_pct", "rating percentile in its venue", "↓pctile"),
)
#: The sort orders' keys.
SORTS = tuple(key for key, _, _ in SORT_TABLE)
#: How each sort order is named to the user.
SORT_LABELS = {key: label for key, label, _ in SORT_TABLE}
#: Each sort order's short form.
SORT_SHORT_LABELS = {key: short for key, _, short in SORT_TABLE}
#: Former keys of sort orders, still read (``config.json``, ``--sort``) as the order they name now.
SORT_ALIASES = {"lowest": "best_lowest"}


def sort_key(name: str) -> str:
    """The sort order ``name`` is (``SORTS``), a former key (:data:`SORT_ALIASES`) read as the order
    it names now; any other name is itself."""
    return SORT_ALIASES.get(name, name)


#: The list pane's width in percent of the screen: bounds and step of ``<`` / ``>``.
LIST_WIDTH_MIN, LIST_WIDTH_MAX, LIST_WIDTH_STEP = 20, 80, 5


class Settings(FrozenValue):
    """What the user chose.

    Immutable, compared and hashed by its fields, as a frozen dataclass is
    (:class:`~paperdeck.values.FrozenValue`: the settings are read before the first paint, where
    making a dataclass would cost more than reading them); :meth:`replaced` and :meth:`to_dict`
    stand for ``dataclasses.replace`` and ``asdict``.

    Attributes:
        theme: a Textual theme name, ``""`` for the default.
        show_detail: whether the detail pane is shown.
        list_width: the list pane's share of the width, percent (20–80).
        keymap: binding id → comma-separated keys.
        sort: one of :data:`SORTS`.
        views: the user's saved views, name → query, in the order saved (:mod:`paperdeck.search.views`).
        view_sorts: the sort order (:data:`SORTS`) each of the user's views was saved with, by its
            name; a view not named (saved before views kept a sort, or with none picked) opens as
            its query ranks it. Apart from ``views`` so that an older paperdeck reads the views.
        zotero_url: the base URL of a running Zotero's connector server (``http(s)://host:port``),
            where ``paperdeck export --to zotero`` and the export prompt send papers.
        venues: the venue scope last chosen (:mod:`paperdeck.search.venues`): the venues shown, as
            their labels (``"COLM 2025"``); empty for every venue.
    """

    __slots__ = ("keymap", "list_width", "show_detail", "sort", "theme", "venues", "view_sorts", "views", "zotero_url")
    FIELDS = ("theme", "show_detail", "list_width", "keymap", "sort", "views", "view_sorts", "zotero_url", "venues")

    theme: str
    show_detail: bool
    list_width: int
    keymap: dict[str, str]
    sort: str
    views: dict[str, str]
    view_sorts: dict[str, str]
    zotero_url: str
    venues: list[str]

    def __init__(
        self,
        theme: str = "",
        show_detail: bool = True,
        list_width: int = 55,
        keymap: dict[str, str] | None = None,
        sort: str = "relevance",
        views: dict[str, str] | None = None,
        view_sorts: dict[str, str] | None = None,
        zotero_url: str = ZOTERO_URL,
        venues: list[str] | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "theme", theme)
        put(self, "show_detail", show_detail)
        put(self, "list_width", list_width)
        put(self, "keymap", {} if keymap is None else keymap)
        put(self, "sort", sort)
        put(self, "views", {} if views is None else views)
        put(self, "view_sorts", {} if view_sorts is None else view_sorts)
        put(self, "zotero_url", zotero_url)
        put(self, "venues", [] if venues is None else venues)

    def replaced(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (field name → value), as ``dataclasses.replace`` makes them.

        Raises:
            TypeError: a name is no field.
        """
        return Settings(**{**{name: getattr(self, name) for name in self.FIELDS}, **changes})

    def to_dict(self) -> dict[str, Any]:
        """Every field by name, as ``config.json`` holds them (the mappings and lists copied, as
        ``dataclasses.asdict`` copies them); ``view_sorts`` only when a view has a sort (an older
        paperdeck reads the file without a word on it)."""
        data = {
            "theme": self.theme,
            "show_detail": self.show_detail,
            "list_width": self.list_width,
            "keymap": dict(self.keymap),
            "sort": self.sort,
            "views": dict(self.views),
            "view_sorts": dict(self.view_sorts),
            "zotero_url": self.zotero_url,
            "venues": list(self.venues),
        }
        if not self.view_sorts:
            del data["view_sorts"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Settings from a JSON object; what :meth:`checked` refuses falls back to defaults."""
        return cls.checked(data)[0]

    @classmethod
    def checked(cls, data: dict[str, Any]) -> tuple[Settings, tuple[str, ...]]:
        """Settings from a JSON object, and what was refused: one short phrase each (no newlines,
        values cut to 40 characters), naming the key — a key that is no setting, a value of the
        wrong type, a sort not in :data:`SORTS` (a former key of one, :data:`SORT_ALIASES`, is read
        as the sort it names now), a list width outside 20–80 (the nearest bound is used), a view
        whose name or query is not text, a ``zotero_url`` that is no ``http(s)://`` address, a venue
        (of ``venues``) that is not text. A refused value falls back to the default; never raises.
        The theme's name is not checked here (the themes are the app's)."""
        defaults = cls()
        problems: list[str] = []

        def shown(value: object) -> str:
            return one_line(orjson.dumps(value).decode() if not isinstance(value, str) else repr(value))[:40]

        def typed(key: str, kind: type | tuple[type, ...], what: str) -> Any:
            value = data.get(key)
            if value is None and key not in data:
                return None
            if isinstance(value, kind) and not (isinstance(value, bool) and kind is int):
                return value
            problems.append(f"{key} {shown(value)} is not {what}")
            return None

        for key in data:
            if key not in _KEYS:
                problems.append(f"{shown(key)} is no setting ({', '.join(_KEYS)})")
        theme = typed("theme", str, "a theme name")
        show_detail = typed("show_detail", bool, "true or false")
        width = typed("list_width", int, f"a whole number from {LIST_WIDTH_MIN} to {LIST_WIDTH_MAX}")
        if width is not None and not LIST_WIDTH_MIN <= width <= LIST_WIDTH_MAX:
            problems.append(f"list_width {width} is outside {LIST_WIDTH_MIN}–{LIST_WIDTH_MAX}")
            width = max(LIST_WIDTH_MIN, min(LIST_WIDTH_MAX, width))
        keymap = typed("keymap", dict, "an object of command id → keys")
        sort = typed("sort", str, "a sort order")
        sort = sort_key(sort) if sort is not None else None
        if sort is not None and sort not in SORTS:
            problems.append(f"sort {shown(sort)} is none of {', '.join(SORTS)}")
            sort = None
        views = typed("views", dict, "an object of name → query")
        if views is not None:
            for name, query in views.items():
                if not isinstance(query, str):
                    problems.append(f"view {shown(name)}: its query {shown(query)} is not text")
            views = {k: v for k, v in views.items() if isinstance(v, str)}
        view_sorts = typed("view_sorts", dict, "an object of view name → sort order")
        if view_sorts is not None:
            kept: dict[str, str] = {}
            for name, order in view_sorts.items():
                wanted = sort_key(order) if isinstance(order, str) else None
                if wanted is not None and wanted in SORTS:
                    kept[str(name)] = wanted
                else:
                    problems.append(f"view_sorts {shown(name)}: {shown(order)} is none of {', '.join(SORTS)}")
            view_sorts = kept
        zotero_url = typed("zotero_url", str, "an http:// address")
        if zotero_url is not None and not zotero_url.strip().lower().startswith(("http://", "https://")):
            problems.append(f"zotero_url {shown(zotero_url)} is not an http:// or https:// address")
            zotero_url = None
        venues = typed("venues", list, "a list of venues")
        if venues is not None and not all(isinstance(venue, str) for venue in venues):
            problems.append(f"venues {shown(venues)}: a venue is not text")
            venues = [venue for venue in venues if isinstance(venue, str)]
        settings = cls(
            theme=theme if theme is not None else defaults.theme,
            show_detail=show_detail if show_detail is not None else defaults.show_detail,
            list_width=width if width is not None else defaults.list_width,
            keymap={str(k): str(v) for k, v in keymap.items()} if keymap is not None else {},
            sort=sort if sort is not None else defaults.sort,
            views=views if views is not None else {},
            view_sorts=view_sorts if view_sorts is not None else {},
            zotero_url=zotero_url.strip() if zotero_url is not None else defaults.zotero_url,
            venues=list(dict.fromkeys(venues)) if venues is not None else [],
        )
        return settings, tuple(problems)


#: The keys of ``config.json``.
_KEYS = Settings.FIELDS


class SettingsFile:
    """``config.json``: read once, written (atomically) on every change.

    Args:
        data_dir: the data directory.

    Attributes:
        problem: a one-line message when the file exists but could not be read (it is then never
            written), else ``None``.
        refused: the values read but refused, one phrase each (:meth:`Settings.checked`): the
            defaults stand in for them (and are written in their place at the next change).
    """

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / CONFIG_FILE
        self.problem: str | None = None
        self.refused: tuple[str, ...] = ()
        self.settings = Settings()
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            self.problem = f"{self.path}: cannot read ({exc.strerror or exc}); using default settings"
            return
        try:
            data = orjson.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            self.problem = f"{self.path}: not valid settings ({exc}); using defaults, the file is left as it is"
            return
        self.settings, self.refused = Settings.checked(data)

    def update(self, **changes: Any) -> Settings:
        """Change settings and write the file (unless it could not be read at start). The file is
        read again first, so what another paperdeck wrote meanwhile is kept, but for ``changes``.

        Raises:
            StoreError: the file cannot be written.
        """
        self.settings = self._fresh().replaced(**changes)
        if self.problem is None:
            atomic_write_bytes(self.path, orjson.dumps(self.settings.to_dict(), option=orjson.OPT_INDENT_2))
        return self.settings

    def save_view(self, name: str, query: str, sort: str = "") -> Settings:
        """Save the view ``name`` (replacing one of that name, any case, in its place) on top of
        the views in the file as it is now, with the sort order it opens in (``""``: none, the
        query ranks it).

        Raises:
            StoreError: the file cannot be written.
        """
        fresh = self._fresh()
        views: dict[str, str] = {}
        for known, known_query in fresh.views.items():
            if known.casefold() == name.casefold():
                views[name] = query
            else:
                views[known] = known_query
        views.setdefault(name, query)
        sorts = {known: order for known, order in fresh.view_sorts.items() if known.casefold() != name.casefold()}
        if sort:
            sorts[name] = sort
        return self.update(views=views, view_sorts=sorts)

    def delete_view(self, name: str) -> Settings:
        """Forget the view ``name`` (any case), as the file has it now, and its sort.

        Raises:
            StoreError: the file cannot be written.
        """
        fresh = self._fresh()
        views = {known: q for known, q in fresh.views.items() if known.casefold() != name.casefold()}
        sorts = {known: order for known, order in fresh.view_sorts.items() if known.casefold() != name.casefold()}
        return self.update(views=views, view_sorts=sorts)

    def rename_view(self, name: str, new_name: str) -> Settings:
        """Call the view ``name`` (any case) ``new_name``, in its place, with its query and sort,
        as the file has it now; nothing changes when the file holds no view ``name``.

        Raises:
            ValueError: another view is called ``new_name`` (any case): renaming would replace it.
            StoreError: the file cannot be written.
        """
        fresh = self._fresh()
        folded, new_folded = name.casefold(), new_name.casefold()
        if new_folded != folded and any(known.casefold() == new_folded for known in fresh.views):
            raise ValueError(f"a view called {new_name!r} exists")
        if not any(known.casefold() == folded for known in fresh.views):
            return fresh
        views = {new_name if known.casefold() == folded else known: q for known, q in fresh.views.items()}
        sorts = {new_name if known.casefold() == folded else known: order for known, order in fresh.view_sorts.items()}
        return self.update(views=views, view_sorts=sorts)

    def _fresh(self) -> Settings:
        """The settings as the file has them now (another paperdeck may have written it), else
        as this process has them."""
        if self.problem is not None:
            return self.settings
        try:
            data = orjson.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return self.settings
        return Settings.from_dict(data) if isinstance(data, dict) else self.settings


__all__ = [
    "CONFIG_FILE",
    "SORTS",
    "SORT_ALIASES",
    "SORT_LABELS",
    "SORT_SHORT_LABELS",
    "SORT_TABLE",
    "Settings",
    "SettingsFile",
    "StoreError",
    "sort_key",
]
