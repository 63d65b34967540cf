"""A BibTeX ``author`` field of one name, in each form bibtexparser's name splitting knows, is one
author; a field of one comma list (OpenReview's ``A B, C D``) is still a list of names.

The sixteenth round (left16): ``de la Cruz, Juan Pablo`` — one name in BibTeX's ``von Last, First``
form, both parts two words — was read as the comma list ``de la Cruz`` and ``Juan Pablo``, and
``{Acme Labs, Research Division}`` (a name in braces) was parted at its comma. A first part that
begins with a von particle (a word in lower case, as BibTeX's ``von`` is) or is one braced group
now makes the field one name, and a comma inside braces parts nothing. One case per form (names
made up, or well known)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.export.bibtex import bibtex_entries
from paperdeck.model.paper import Paper
from paperdeck.sources.bibtex import split_authors
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

FORMS = [
    # First Last, First von Last
    ("Juan Pablo Cruz", ("Juan Pablo Cruz",)),
    ("Juan Pablo de la Cruz", ("Juan Pablo de la Cruz",)),
    ("Ludwig van Beethoven", ("Ludwig van Beethoven",)),
    # Last, First
    ("Cruz, Juan Pablo", ("Juan Pablo Cruz",)),
    ("Knuth, D. E.", ("D. E. Knuth",)),
    # von Last, First: the von of one word or several, the first name of one word or two
    ("van Beethoven, Ludwig", ("Ludwig van Beethoven",)),
    ("de la Cruz, Juan Pablo", ("Juan Pablo de la Cruz",)),
    ("van der Berg, Jan Willem", ("Jan Willem van der Berg",)),
    ("ibn Sina, Abu Ali", ("Abu Ali ibn Sina",)),
    ("da Silva, Jo\\~{a}o Pedro", ("João Pedro da Silva",)),
    # Last, Jr, First and von Last, Jr, First
    ("Steele, Jr., Guy L.", ("Guy L. Steele Jr.",)),
    ("de la Cruz, Jr., Juan Pablo", ("Juan Pablo de la Cruz Jr.",)),
    # a braced Last, and a name wholly in braces (a comma inside it parts nothing)
    ("{van der Berg}, Jan Willem", ("Jan Willem van der Berg",)),
    ("{Acme Labs, Research Division}", ("Acme Labs, Research Division",)),
    ("{Barnes and Noble, Inc.}", ("Barnes and Noble, Inc.",)),
    # accents as LaTeX, in braces
    ('{\\"O}zt{\\"u}rk, Ay{\\c{s}}e Nur', ("Ayşe Nur Öztürk",)),
]


@pytest.mark.parametrize(("field", "names"), FORMS, ids=[field for field, _ in FORMS])
def test_a_field_of_one_name_in_each_form_is_one_author(field: str, names: tuple[str, ...]) -> None:
    assert split_authors(field) == names


@pytest.mark.parametrize(
    ("field", "names"),
    [
        ("Alice Smith, Bob Jones", ("Alice Smith", "Bob Jones")),
        ("Alice Smith, Bob Jones, Carol White", ("Alice Smith", "Bob Jones", "Carol White")),
        ("Juan de la Cruz, Maria Lopez", ("Juan de la Cruz", "Maria Lopez")),  # the particle inside a name
        ("de la Cruz, Juan Pablo and Smith, John", ("Juan Pablo de la Cruz", "John Smith")),
    ],
)
def test_a_comma_list_and_names_joined_by_and_are_still_several(field: str, names: tuple[str, ...]) -> None:
    assert split_authors(field) == names


def test_a_lone_author_with_a_von_particle_comes_back_one_author(tmp_path: Path) -> None:
    """The export writes a lone author ``de la Cruz, Juan Pablo``: imported again, one author."""
    paper = Paper(
        id="abs:cruz", title="A Paper", abstract="", authors=("Juan Pablo de la Cruz",), venue="ICLR", year=2026
    )
    bib = tmp_path / "one.bib"
    bib.write_text(bibtex_entries([paper]), "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [bib])
    (back,) = store.papers
    assert back.authors == ("Juan Pablo de la Cruz",)
