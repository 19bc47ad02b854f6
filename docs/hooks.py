"""mkdocs hooks: the pages made at build time, so none of them is ever out of date.

- ``reference/keys.md`` and ``reference/command-line.md`` from the app (docs/generate.py);
- one page per rule system, read from its own folder (``rules/systems/<name>/*.md``), and
  ``systems/index.md`` listing them: a system added or deleted changes the site by itself;
- the list of each system's rulings in ``rulings.md``, from the registry too.

A system's pages are written to be read in the repository as well, so their links are
relative to their folder (``../../../docs/reference/dice.md``); here they become links inside the
site, and a link that would leave the site fails the strict build (mkdocs.yml's
``validation``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path, PurePosixPath
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # mkdocs loads this file by its path: the project's packages

from docs.generate import pages  # noqa: E402
from rules.registry import get_system, names  # noqa: E402

SYSTEMS = ROOT / "rules" / "systems"
DOCS = ROOT / "docs"
# A Markdown link's target: ``](target)`` or ``](target#anchor)``, no scheme.
LINK = re.compile(r"\]\((?![a-z]+:)([^)#\s]+)")
RULINGS_INDEX = "<!-- the rulings of each system: made from the registry -->"
DEMOS = "<!-- the demos: made from the registry -->"


def in_site(text: str, folder: Path, page: str) -> str:
    """``text``'s links relative to ``folder`` in the repository, made relative to ``page``
    in the site where they land in ``docs/``; any other stays as it was (and fails the
    strict build, as a link out of the site should)."""

    def moved(match: re.Match[str]) -> str:
        target = (folder / match.group(1)).resolve()
        if not target.is_relative_to(DOCS):
            return match.group(0)
        inside = PurePosixPath(target.relative_to(DOCS).as_posix())
        up = "../" * (len(PurePosixPath(page).parts) - 1)
        return f"]({up}{inside}"

    return LINK.sub(moved, text)


def system_pages() -> dict[str, tuple[str, str]]:
    """Each system's page in the site (``systems/<name>.md``): its title and its text."""
    found = {}
    for name in names():
        uri = f"systems/{name}.md"
        texts = [
            in_site(page.read_text(), page.parent, uri)
            for page in sorted((SYSTEMS / name).glob("*.md"))
        ]
        if texts:
            found[uri] = (get_system(name).title, "\n\n".join(texts))
    return found


def systems_index(found: dict[str, tuple[str, str]]) -> str:
    lines = [
        "# Rule systems",
        "",
        "The tracker plays these systems by their own rule texts. Each page says how the "
        "tracker plays the system and how it reads what the text leaves open.",
        "",
    ]
    lines += [f"- [{title}]({Path(uri).name})" for uri, (title, _) in found.items()]
    return "\n".join(lines) + "\n"


def rulings_index(found: dict[str, tuple[str, str]]) -> str:
    """The list in ``rulings.md`` of each system's page, where its rulings are."""
    return "\n".join(f"- [{title}]({uri})" for uri, (title, _) in found.items())


def demos() -> str:
    """The bundled demos, one per system that has one, the first a fresh start opens first."""
    from rules.registry import part
    from tracker.store.defaults import systems

    found = [
        (get_system(name).title, demo.STEM)
        for name in systems()
        if (demo := part(name, "demo")) is not None
    ]
    return "\n".join(f"- {title}: `saves/{stem}.fight`" for title, stem in found)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri == "rulings.md":
        return markdown.replace(RULINGS_INDEX, rulings_index(system_pages()))
    if page.file.src_uri == "guide/install.md":
        return markdown.replace(DEMOS, demos())
    return markdown


def on_config(config: Any) -> Any:
    found = system_pages()
    entries = [{"Overview": "systems/index.md"}, *({t: uri} for uri, (t, _) in found.items())]
    config["nav"] = [
        {"Rule systems": entries} if item == {"Rule systems": "systems/index.md"} else item
        for item in config["nav"]
    ]
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    generated = pages()
    found = system_pages()
    generated |= {uri: text for uri, (_, text) in found.items()}
    generated["systems/index.md"] = systems_index(found)
    for uri, text in generated.items():
        files.append(File.generated(config, uri, content=text))
    return files
