"""The generated page of the SRD bestiary (``srd-conversion.md``, part of Generic d20's
pages in the docs): how the data is read, and each monster the sheet cannot hold whole, with
what was left out, and every slip of the data mended. Made by ``make srd`` with the bundle,
and checked against it by the suite."""

from __future__ import annotations

from collections.abc import Sequence

from rules.conversion import ConvertedBlock

from .srd_shape import NOTICE

HEAD = """\
## The SRD bestiary: what the conversion left out and mended

<!-- Made by `make srd` (rules/systems/d20/srd_convert.py) from the SRD 5.1's data: do not
edit; the suite checks this page is what the converter makes. -->

The {count} monsters of the System Reference Document 5.1 are bundled in
`stat_blocks/srd/` (`tracker library list --system d20`), converted by the project's own
code from the SRD's structured data (the 5e-bits database's shape, which `tracker library
import` reads too): names and numbers, never the SRD's prose.

{notice}

How the data is read:

- **Hit points** are the hit dice (`19d12+133`), rolled as each joins; the number where the
  dice cannot be rolled.
- **Saves**: a saving throw the monster is proficient in as the data gives it, the others its
  ability modifier; **initiative** its Dexterity modifier; **challenge** as the SRD writes it
  (`1/4`).
- **Attacks** take their bonus and damage, melee or ranged as the SRD's words say ("Ranged
  Weapon Attack"); where a weapon may deal another damage (two-handed, or another type), the
  first is kept. A condition a hit lays ("the target is grappled") is kept, and so is a
  saving throw a hit asks for ("it must succeed on a DC 10 Constitution saving throw"): its
  DC and ability, the damage it deals on a failure (half or none on a success as the words
  say), the condition it lays, and whether the target repeats it at the end of each of its
  turns (`save ends`). What else a failure does is left out (a giant spider's poison
  paralysing at 0 hit points, a pit fiend's poison each turn, the worse effect of failing by
  5 or more); a save none of whose effects a sheet holds (a disease, a curse, a lowered hit
  point maximum, being swallowed or pulled) is listed below, the hit kept alone.
- **Save effects** take their DC, ability, damage and the condition they lay ("or be
  frightened"), half or none on a success as the SRD's words say (each mending listed), and
  whether the condition's target repeats the save at the end of each of its turns.
- **Recharge** and **uses a day** as the data gives them; an action back after a rest is
  once a day. A choice of breath weapons (or a sphinx's roars) is an action each.
- **A Multiattack** makes what the data lists, matched to the block's actions by name (in
  any case, without words in brackets, or in the singular: each such match is listed), the
  first of its choices where it offers several (the others listed).
- **Legendary actions**: 3 a round, each action's cost from its name ("Costs 2 Actions");
  one that makes an attack ("makes a tail attack") makes that action. **Legendary
  resistance** from its trait's uses a day. **Reactions** by name, with their roll where
  they have one.
- **Resistances, vulnerabilities and immunities** are damage types. One "from nonmagical
  weapons" is typed as the sheet types it (`nonmagical slashing`): it counts against a
  weapon attack that is not magical, and a silvered or adamantine weapon is not told apart
  (each such listed). A trait saying its weapon attacks are magical (Magic Weapons, Angelic
  Weapons) makes the sheet's *Magical attacks* yes. Another qualified one ("piercing from
  magic weapons wielded by good creatures") counts as its types, listed; one naming no type
  ("damage from spells") is left out.
- Where the data's fields say what the SRD's words do not (no damage on a save the words
  halve, an attack roll for what is no attack, a Multiattack's count or an action's name
  given otherwise), the words win: each is listed under the slips below.
- **Traits** the tracker plays are the sheet's *Traits*: Undead Fortitude (a zombie's save
  to stay up at 1 hit point), Regeneration (its hit points and the damage types that stop
  it: `Regeneration 10 acid fire`, and `at 0` for the troll's, down at 0 until its turn
  starts without regenerating), Relentless (a boar's 1 hit point, with the damage its words
  say it shrugs off: `Relentless 7`), Magic Resistance (advantage on saves against a
  magical effect), Brave, Fey Ancestry and Dark Devotion (advantage on saves against
  being frightened or charmed) and Blood Frenzy (a shark's advantage against the wounded);
  the others are listed by name below, for the GM to play.
- **Condition immunities** are the sheet's: a rule never lays such a condition on it (a
  golem's save against Hold Monster failed, it is not paralyzed).
- Never carried: speed, senses, skills, languages and XP (the challenge gives it).

### Slips of the data mended

{corrections}

### What each stat block leaves out

"""


def page(blocks: Sequence[ConvertedBlock]) -> str:
    """The page for ``blocks``, in their order."""
    mended = [f"- **{b.name}**: {c}." for b in blocks for c in b.corrections]
    notice = "> " + "\n> ".join(NOTICE.splitlines())
    text = HEAD.format(count=len(blocks), notice=notice, corrections="\n".join(mended) or "None.")
    lines = []
    for block in blocks:
        if block.left_out:
            lines.append(f"- **{block.name}**: " + "; ".join(block.left_out) + ".")
    return text + "\n".join(lines) + "\n"
