"""mkdocs hooks: the pages made at build time, so none of them is ever out of date.

- ``reference/keys.md`` and ``reference/command-line.md`` from the app (docs/generate.py);
- one page per rule system, read from its own folder (``rules/systems/<name>/*.md``), and
  ``systems/index.md`` listing them: a system added or deleted changes the site by itself.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # mkdocs loads this file by its path: the project's packages

from docs.generate import pages  # noqa: E402
from rules.registry import get_system, names  # noqa: E402

SYSTEMS = ROOT / "rules" / "systems"


def system_pages() -> dict[str, tuple[str, str]]:
    """Each system's page in the site (``systems/<name>.md``): its title and its text."""
    found = {}
    for name in names():
        texts = [page.read_text() for page in sorted((SYSTEMS / name).glob("*.md"))]
        if texts:
            found[f"systems/{name}.md"] = (get_system(name).title, "\n\n".join(texts))
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
