"""Fight reports: Markdown and JSON, with GM-only combatants left out unless asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rules.commands import AddCombatant, AddCondition, AddNote, NextTurn
from rules.dice import ScriptedDice
from rules.history import History
from rules.systems.livehack.system import LiveHackRoll
from tests.helpers import new_history, run
from tracker.store import export, storage


def fight_with_a_secret():
    history = new_history("Ambush")
    run(history, AddCombatant(name="Orla", side="party"))
    run(history, AddCombatant(name="*Lurker*", gm_only=True))
    run(history, AddCombatant(name="Goblin"))
    run(history, LiveHackRoll(attacker_id="c1", defender_id="c3"), ScriptedDice([9, 2, 3, 3]))
    run(history, LiveHackRoll(attacker_id="c2", defender_id="c1"), ScriptedDice([5, 5, 5, 5]))
    run(history, AddCondition("c2", "Invisible"))
    run(history, NextTurn())
    run(history, NextTurn())
    run(history, NextTurn())  # round 2
    run(history, AddNote("Torches gutter"))
    return history


def test_markdown_has_rounds_turns_rolls_and_the_final_state() -> None:
    text = export.to_markdown(fight_with_a_secret(), gm=True)
    assert text.startswith("# Ambush\n")
    assert "## Round 1" in text and "## Round 2" in text
    assert "### Goblin's turn" in text
    assert "Orla vs Goblin (vs Reflex) 7 vs 0 HIT, margin +7" in text
    assert "boon [9] - bane [2]" in text
    assert "## Final state" in text and "| Orla | party |" in text
    assert "\\*Lurker\\*" in text  # a typed name is escaped, not emphasis


def test_players_never_see_the_gm_only_combatant() -> None:
    history = fight_with_a_secret()
    for text in (export.to_markdown(history), json.dumps(export.to_json(history))):
        assert "Lurker" not in text
        assert "Invisible" not in text
        assert "Orla vs Goblin" in text
    gm = json.dumps(export.to_json(history, gm=True))
    assert "Lurker" in gm and "Invisible" in gm


def test_json_lists_every_visible_event_with_its_round_and_dice() -> None:
    data = json.loads(json.dumps(export.to_json(fight_with_a_secret())))
    assert data["encounter"] == "Ambush" and data["system"] == "livehack" and data["round"] == 2
    kinds = [e["event"]["type"] for e in data["events"]]
    assert kinds[0] == "encounter-created"
    roll = next(e for e in data["events"] if e["event"]["type"] == "livehack.rolled")
    assert roll["event"]["attacker"]["dice"] == {"boon": [9], "bane": [2]}
    assert data["events"][-1]["round"] == 2 and data["events"][-1]["text"].endswith(
        "Torches gutter"
    )
    assert [c["name"] for c in data["combatants"]] == ["Orla", "Goblin"]


def tracker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
    )


def test_the_cli_writes_a_report_but_never_over_a_save(tmp_path: Path) -> None:
    save = tmp_path / "ambush.fight"
    storage.write(save, fight_with_a_secret())
    out = tmp_path / "report.md"
    result = tracker("export", str(save), "-o", str(out))
    assert result.returncode == 0 and out.read_text().startswith("# Ambush")
    before = save.read_bytes()
    refused = tracker("export", str(save), "--format", "json", "-o", str(save))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert save.read_bytes() == before
    as_json = json.loads(tracker("export", str(save), "--format", "json").stdout)
    assert as_json["gm"] is False


def test_exporting_a_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fight"
    bad.write_text("nope")
    result = tracker("export", str(bad))
    assert result.returncode == 2
    assert result.stderr == f"tracker: {bad}: not a combat tracker save\n"


def test_export_does_not_load_textual(tmp_path: Path) -> None:
    save = tmp_path / "a.fight"
    storage.write(save, fight_with_a_secret())
    code = (
        "import sys, contextlib, io; from tracker.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()): main(['export', {str(save)!r}])\n"
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip() == "False"


def test_a_discarded_result_is_in_the_report_like_any_event() -> None:
    from rules.commands import DiscardConsequence

    history = new_history("Ambush")
    run(history, AddCombatant(name="Orla", side="party"))
    run(history, AddCombatant(name="Goblin"))
    damage = LiveHackRoll(attacker_id="c1", defender_id="c2", defense="fortitude")
    run(history, damage, ScriptedDice([9, 2, 3, 3]))
    run(history, DiscardConsequence())
    line = "⊘ Discarded, not applied: Goblin takes 2 Wounds, Discombobulated"
    assert line in export.to_markdown(history)
    data = json.loads(json.dumps(export.to_json(history)))
    [event] = [e for e in data["events"] if e["event"]["type"] == "consequence-discarded"]
    assert event["text"] == line


def fight_to_the_end() -> History:
    """Orla knocks the Goblin down and kills it; the Lurker, hidden, is out of it already."""
    history = fight_with_a_secret()
    run(history, AddCondition("c2", "Dead"))
    damage = LiveHackRoll(attacker_id="c1", defender_id="c3", defense="fortitude")
    run(history, damage, ScriptedDice([5, 1, 1, 1]))
    run(history, AddCondition("c3", "Dying"))
    return history


def test_the_json_carries_the_outcome() -> None:
    data = json.loads(json.dumps(export.to_json(fight_with_a_secret())))
    assert data["outcome"]["over"] is False and data["outcome"]["winner"] is None
    history = fight_to_the_end()
    data = json.loads(json.dumps(export.to_json(history)))
    outcome = data["outcome"]
    assert (outcome["over"], outcome["winner"], outcome["rounds"]) == (True, "party", 2)
    assert outcome["rolls"] == 2  # the players' report: the Lurker's roll is hidden
    assert outcome["damage_unit"] == "levels"
    goblin = next(c for c in outcome["combatants"] if c["name"] == "Goblin")
    assert (goblin["out"], goblin["rolls"]) == ("dying", 2)
    assert [s["side"] for s in outcome["luck"]] == ["party", "foes"]
    assert all(isinstance(s["luck"], float) for s in outcome["luck"])
    assert "Lurker" not in json.dumps(outcome)
    gm = export.to_json(history, gm=True)["outcome"]
    assert gm["rolls"] == 3 and [c["name"] for c in gm["combatants"]][1] == "*Lurker*"


def test_the_markdown_carries_the_outcome(tmp_path: Path) -> None:
    text = export.to_markdown(fight_to_the_end())
    assert "## Outcome" in text
    assert "Fight over: party won: 2 rounds, 2 rolls (damage in levels)." in text
    assert "| Goblin | foes | ✗ dying | 0 | 0 | 2 |" in text
    assert "- party: " in text and "over 2 rolls" in text
    save = tmp_path / "ambush.fight"
    storage.write(save, fight_to_the_end())
    assert "Fight over: party won" in tracker("export", str(save)).stdout
    as_json = json.loads(tracker("export", str(save), "--format", "json").stdout)
    assert as_json["outcome"]["winner"] == "party"
