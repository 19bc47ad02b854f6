"""The command line's example, made from the fight it is typed over: lines it takes as they
are shown (the system's roll by its own people's names where its roll names any, a condition
on one of them), not another system's words or names nobody in the fight has."""

from __future__ import annotations

from rules.errors import Rejected
from tracker.line_commands.action_fields import people_field
from tracker.line_commands.names import handles
from tracker.line_commands.outcomes import Context
from tracker.line_commands.table import AS_KEY
from tracker.store.library_find import foes_example

JOIN = " · "


def example_line(ctx: Context) -> str:
    """``attack orla goblin-sneak · cond goblin-sneak prone · next · undo 3``, in this fight's
    names, those the seat may give now (``Context.mine``: a player's, for their own); a
    fight with nobody in it offers adding someone first."""
    names = {c.id: handle for handle, c in handles(ctx.state)}
    if not names:
        entries = ctx.library.of(ctx.system.name) if ctx.library is not None else []
        foes = foes_example(entries).split(", ")[0] if entries else "NAME x3"
        lines = [f"add {foes}", "note a line for the log", "help"]
    else:
        picked = _roll_people(ctx, names)
        mine = ctx.mine
        lines = [f"attack {' '.join(names[p] for p in picked)}"] if picked else []
        # A condition on the roll's target; a player's, on one of their own.
        ours = [cid for cid in names if mine is None or cid in mine]
        someone = picked[-1] if picked and mine is None else next(iter(ours), None)
        if someone is not None:
            lines.append(f"cond {names[someone]} prone")
        if mine is None or ctx.state.current_id in mine:  # a player passes only their turn
            lines.append("next")
        lines.append("undo 3")
    # Only what this seat may give: a player is not shown the GM's undo, say.
    given = [line for line in lines if ctx.allows(AS_KEY[line.split()[0]], "")]
    return JOIN.join(given or ["dice 2d6", "help"])  # plain dice are anyone's


def _roll_people(ctx: Context, names: dict[str, str]) -> list[str]:
    """Whom the system's roll would name, in its fields' order (as its dialog would
    open: each field's own default first), two at most; none where its roll names nobody."""
    try:
        fields = ctx.system.action_form(ctx.state, "roll", ctx.selected)
    except Rejected:
        return []
    picked: list[str] = []
    for form_field in fields:
        if len(picked) == 2 or not people_field(ctx.state, form_field):
            continue
        offered = [value for value, _ in form_field.choices if value in names]
        fresh = [value for value in offered if value not in picked]
        if not picked and ctx.mine is not None:  # a player rolls for one of their own
            fresh = [value for value in fresh if value in ctx.mine]
        if not fresh:
            if not picked:
                return []  # nobody of theirs (the GM has not assigned them any yet)
            continue
        picked.append(form_field.default if form_field.default in fresh else fresh[0])
    return picked
