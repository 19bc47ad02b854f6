"""Stat blocks converted from another tool's data (a GM's download, a published set), as a
system's ``convert_stat_blocks`` hook makes them: each block's library text, what it could
not carry over and what it corrected, so nothing is lost without a word. Pure: data in,
text out; the tracker reads and writes the files."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConvertedBlock:
    """One stat block: ``text`` is a library file (TOML) that ``tracker.store.library`` reads."""

    name: str
    text: str
    facts: str  # its figures in a few words ("HP 7, AC 15, CR 1/4"), for a dry run
    left_out: tuple[str, ...] = ()  # what the sheet cannot hold, in a few words each
    corrections: tuple[str, ...] = ()  # where the data was mended to say what its rules say


@dataclass(frozen=True)
class Conversion:
    """What a system made of the data: its blocks, and for a bundled set its folder's name
    (``stat_blocks/<set_name>/``), the notice its licence asks for, and the generated page
    listing what was left out and corrected (``page_name`` in the system's folder)."""

    blocks: tuple[ConvertedBlock, ...]
    set_name: str = ""
    notice: str = ""
    page_name: str = ""
    page: str = ""
