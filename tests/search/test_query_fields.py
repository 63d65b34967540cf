"""The query language's fields are declared once (:data:`paperdeck.search.query_fields.FIELDS`): the
parser, the help and the docs' page all follow the table."""

from __future__ import annotations

import pytest
from paperdeck.search.query import QUERY_HELP, Term, parse_query, query_markdown
from paperdeck.search.query_fields import EXAMPLES, FIELDS, SYNTAX, Field, field_named


@pytest.mark.parametrize("field", FIELDS, ids=lambda field: field.name)
def test_every_field_and_alias_is_parsed_as_that_field(field: Field) -> None:
    for name in (field.name, *field.aliases):
        assert field_named(name) is field and field_named(name.upper()) is field
    query = parse_query(field.example)
    assert query.error is None, field.example
    if field.kind == "like":
        assert query.like == ["starred"]
    else:
        assert isinstance(query.tree, Term) and query.tree.field == field.name
        for alias in field.aliases:
            aliased = parse_query(field.example.replace(field.name, alias, 1)).tree
            assert isinstance(aliased, Term) and aliased.field == field.name


def test_a_missing_value_names_the_fields_example() -> None:
    for field in FIELDS:
        if field.kind != "number":
            assert parse_query(f"{field.name}:").error == f"{field.name}: needs a value, e.g. {field.example}"
        else:
            assert parse_query(f"{field.name}>=x").error == f"{field.name} needs {field.needs}, e.g. {field.example}"


def test_the_help_shows_every_field_and_the_syntax() -> None:
    for field in FIELDS:
        assert f"{field.name}:" in QUERY_HELP or f"{field.name}>" in QUERY_HELP or f"{field.name}<" in QUERY_HELP
        assert (field.usage or field.example) in QUERY_HELP
    for syntax in SYNTAX:
        assert f"  {syntax.usage}   {syntax.hint}\n" in QUERY_HELP
    assert QUERY_HELP.split("Examples:\n")[1] == "".join(f"  {example}\n" for example in EXAMPLES)


def test_the_markdown_page_has_a_row_per_field_and_its_examples_parse() -> None:
    page = query_markdown()
    assert page.startswith("# ") and page.endswith("\n")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(rows) == len(FIELDS) + len(SYNTAX)
    for field, row in zip(FIELDS, rows, strict=False):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert cells[0] == f"`{field.name}:`" and cells[2] == f"`{field.example}`", row
        assert all(f"`{alias}:`" in cells[1] for alias in field.aliases)
    for example in EXAMPLES:
        assert f"- `{example}`" in page
        assert parse_query(example).error is None


def test_the_help_names_each_term_once_and_each_range_hint_its_own_field() -> None:
    """A tester's find: `time:10..12` twice (the day's usage named it, then the time's), and the
    year's line said `open ranges rating:6..`."""
    field_lines = QUERY_HELP.split("Examples:\n")[0].splitlines()[1:]
    for line in field_lines:
        terms = line.split("   ")[0].split()
        assert len(terms) == len(set(terms)), line
    for field in FIELDS:
        if field.hint and "open ranges" in field.hint:
            assert f"open ranges {field.name}:" in field.hint, field.name
