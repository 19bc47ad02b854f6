"""Turn alerts: a player's seat is told, once each, that one of theirs acts now ("Your
turn: Orla"), rolls what waits off its turn ("Your roll: Orla") or acts next ("Up next:
Orla"): its header says so (``TableApp.table_line``),
and its terminal is sent the bell and a desktop notification (OSC 9 and OSC 777, which the
terminals that take them show and the others ignore); a browser seat's page is sent the
alert as a packet of its own (tracker/serve/web.py), flashes its title and, where the
player allowed it, shows a browser notification.

Off for the whole table (the GM's ``b`` in the seats dialog) or for one seat (the player's
own ``b``). What is sent is written whole, between frames, never inside any text: the
combatant's name in it is made inert first (no control character, so no escape of its own
can end the notification early or start another), and cut short.
"""

from __future__ import annotations

from rules import passing
from rules.text import inert

BEL = "\a"
ST = "\x1b\\"  # the string terminator that ends an OSC
TITLE = "Combat tracker"
WORDS = 80  # characters of an alert at most


def words(news: passing.News, name: str) -> str:
    """What the alert says, inert and bounded: "Your turn: Orla", "Your roll: Orla"."""
    said = f"{news.capitalize()}: {inert(name)}"
    return " ".join(said.split())[:WORDS].replace(";", ",")  # ";" parts OSC 777's fields


def terminal_alert(text: str) -> str:
    """The bell, then the notification as OSC 9 (iTerm2, Windows Terminal, kitty, WezTerm)
    and OSC 777 (VTE terminals, foot, urxvt); ``text`` is ``words``'."""
    return f"{BEL}\x1b]9;{text}{ST}\x1b]777;notify;{TITLE};{text}{ST}"
