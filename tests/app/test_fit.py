"""tracker.terminal.fit: header parts that wrap, columns that give way, footer keys that fit."""

from __future__ import annotations

from rich.text import Text

from tracker.terminal.fit import Column, Part, abbreviate, fit_columns, keys_that_fit, wrap_parts


def texts(*plains: str) -> list[Text]:
    return [Text(plain) for plain in plains]


def test_parts_wrap_onto_a_second_line_and_are_never_cut() -> None:
    parts = [Part(t) for t in texts("⚔ Ironbridge Skirmish", "Fatigue & Thresholds", "Round 2")]
    parts.append(Part(Text("to pay (d): Mara, Bad defense")))
    assert wrap_parts(parts, 200).plain == (
        "⚔ Ironbridge Skirmish  ·  Fatigue & Thresholds  ·  Round 2  ·  "
        "to pay (d): Mara, Bad defense"
    )
    lines = wrap_parts(parts, 80).plain.split("\n")
    assert lines == [
        "⚔ Ironbridge Skirmish  ·  Fatigue & Thresholds  ·  Round 2",
        "to pay (d): Mara, Bad defense",
    ]
    assert all(len(line) <= 80 for line in lines)


def test_parts_least_kept_give_way_when_the_lines_run_out() -> None:
    parts = [
        Part(Text("A long encounter name"), keep=0),
        Part(Text("System title"), keep=1),
        Part(Text("Round 2"), keep=3),
        Part(Text("to land: Mags 4 on Bouncer (d)"), keep=3),
    ]
    assert wrap_parts(parts, 30, max_lines=2).plain == (
        "System title  ·  Round 2\nto land: Mags 4 on Bouncer (d)"
    )
    # Parts all kept alike stay, however many lines they take.
    same = [Part(Text("x" * 20)), Part(Text("y" * 20)), Part(Text("z" * 20))]
    assert wrap_parts(same, 25, max_lines=2).plain.split("\n") == ["x" * 20, "y" * 20, "z" * 20]


def test_a_kept_part_too_long_for_a_line_costs_no_other_part_its_place() -> None:
    # What waits wraps onto a line of its own: leaving the name or the title out could not
    # save that line, so they stay (the header at 80x24 lost the encounter's name for it).
    name, title = Part(Text("⚔ The Old Mill"), keep=2), Part(Text("A System"), keep=0)
    turn = [Part(Text("Round 3"), keep=3), Part(Text("▶ Ada's turn"), keep=3)]
    waiting = Part(Text("waiting (d): " + "a long result to apply " * 3), keep=3)
    parts = [name, title, *turn, waiting]
    lines = wrap_parts(parts, 70, max_lines=2).plain.split("\n")
    assert lines == [
        "⚔ The Old Mill  ·  A System  ·  Round 3  ·  ▶ Ada's turn",
        waiting.text.plain,
    ]
    # Narrower, the lines run out all the same: the title goes first, then the name.
    lines = wrap_parts(parts, 50, max_lines=2).plain.split("\n")
    assert lines[0] == "⚔ The Old Mill  ·  Round 3  ·  ▶ Ada's turn"
    lines = wrap_parts(parts, 40, max_lines=2).plain.split("\n")
    assert lines[0] == "Round 3  ·  ▶ Ada's turn"
    # A part that gives way gets no such allowance: too long for a line, it goes.
    solo = Part(Text("⚙ solo: " + "foes, " * 15), keep=1)
    assert "solo" not in wrap_parts([name, *turn, solo], 70, max_lines=2).plain


def test_abbreviating_shortens_words_before_it_cuts_and_keeps_styles() -> None:
    text = Text("Incapacitated, Prone", style="italic")
    assert abbreviate(text, 40) is text
    assert abbreviate(text, 14).plain == "Incapa., Prone"
    assert abbreviate(text, 10).plain == "Inc., Pro."
    cut = abbreviate(text, 8)
    assert cut.plain == "Inc., P…" and cut.cell_len == 8
    assert all(span.style == "italic" for span in cut.spans) or cut.style == "italic"
    # Numbers and dice are left whole; only runs of letters are shortened.
    assert abbreviate(Text("Brawling d8, Health d5/6"), 20).plain == "Braw. d8, Heal. d5/6"


def test_abbreviating_may_drop_a_bar_that_repeats_the_number_beside_it() -> None:
    assert abbreviate(Text("▮▮▯▯ 13/40"), 6, glyphs=True).plain == "13/40"
    assert abbreviate(Text("▮▮▯▯ 13/40"), 6).plain == "▮▮▯▯ …"
    assert abbreviate(Text("-"), 0, glyphs=True, cut=False).plain == "-"  # never to nothing


def test_columns_give_way_by_rank_and_numbers_are_never_cut() -> None:
    name = Column(Text("Name"), texts("Goblin Sneak", "Orla"), rank=3, limit=10)
    side = Column(Text("Side"), texts("party", "foes"), rank=0, limit=4)
    stats = Column(Text("R/F/W"), texts("+2/+11/+1", "+3/+1/+0"), rank=1)
    bars = Column(Text("Wind"), texts("▮▮▯▯ 13/40", "▯▯▯▯ -7/40"), rank=1, glyphs=True)
    conditions = Column(Text("Conditions"), texts("Incapacitated, Prone", ""), rank=2, limit=10)
    empty = Column(Text("Pos"), texts("", ""), rank=1)
    columns = [name, side, stats, bars, conditions, empty]
    natural = [12, 5, 9, 10, 20, 3]
    assert fit_columns(columns, 100, gap=1, protect=3) == natural
    widths = {
        space: fit_columns(columns, space, gap=1, protect=3) for space in (62, 60, 55, 50, 45, 42)
    }
    assert widths[62] == [12, 5, 9, 10, 20, 0]  # the empty column goes first
    assert widths[60] == [12, 4, 9, 10, 20, 0]  # then the side's words ("par.")
    assert widths[55] == [12, 4, 9, 5, 20, 0]  # the bars
    assert widths[50] == [12, 4, 9, 5, 15, 0]  # the conditions' words ("Incap., Prone")
    assert widths[45] == [12, 4, 9, 5, 10, 0]  # the conditions cut, the numbers never
    assert widths[42] == [9, 4, 9, 5, 10, 0]  # and only then the names ("Gob. Sne.")
    assert fit_columns(columns, 30, gap=1, protect=3) == widths[42]  # no further: it scrolls
    assert bars.fit_cell(Text("▯▯▯▯ 0/40"), 5).plain == "0/40"  # every row loses its bar


def test_keys_that_fit_are_whole_entries_the_ones_kept_first() -> None:
    widths = [8, 14, 16, 19, 7, 13, 8]
    assert keys_that_fit(widths, 200) == set(range(7))
    assert keys_that_fit(widths, 60) == {0, 1, 2, 3}
    assert keys_that_fit(widths, 60, first=lambda i: i == 6) == {6, 0, 1, 2, 4}
