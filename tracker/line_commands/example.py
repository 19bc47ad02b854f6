"""The command line's example, made from the fight it is typed over: lines it takes as they
are shown (the system's roll by its own people's names where its roll names any, a condition
on one of them), not another system's words or names nobody in the fight has."""

from __future__ import annotations

from rules.errors import Rejected
from tracker.line_commands.action_fields import people_field
from tracker.line_commands.names import handles
from tracker.line_commands.outcomes import Context

JOIN = " · "


def example_line(ctx: Context) -> str:
    """``attack orla goblin-sneak · cond goblin-sneak prone · next · undo 3``, in this fight's
    names; a fight with nobody in it offers adding someone first."""
    names = {c.id: handle for handle, c in handles(ctx.state)}
    if not names:
        return JOIN.join(("add NAME x3", "note a line for the log", "help"))
    picked = _roll_people(ctx, names)
    lines = [f"attack {' '.join(names[p] for p in picked)}"] if picked else []
    someone = names[picked[-1]] if picked else next(iter(names.values()))
    if ctx.allows("add_condition", ""):
        lines.append(f"cond {someone} prone")
    return JOIN.join([*lines, "next", "undo 3"])


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
        if not fresh:
            continue
        picked.append(form_field.default if form_field.default in fresh else fresh[0])
    return picked
