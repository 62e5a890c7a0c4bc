"""The README's first command (issue 23, "fast bots in a default install"): the extras it
installs pull numba, so a server set up by it runs the hard bots through the compiled kernels."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]


def first_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)\n```", readme, re.S)
    assert block is not None, "the README has no command block"
    return block.group(1)


def extras_of(command: str) -> list[str]:
    found = re.search(r'pip install [^&]*-e "\.\[([a-z,]+)\]"', command)
    assert found is not None, f"no `pip install -e .[...]` in {command!r}"
    return found.group(1).split(",")


def test_the_readmes_first_command_installs_numba_and_starts_the_server() -> None:
    command = first_command()
    assert "tavern serve" in command
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras = config["project"]["optional-dependencies"]
    pulled = [req for extra in extras_of(command) for req in extras[extra]]
    names = {re.split(r"[=<>\[ ]", req)[0].lower() for req in pulled}
    assert "numba" in names and "numpy" in names
    # The same pin as the `fast` extra's (one numba for the server and the lab).
    fast = {req for req in extras["fast"] if req.startswith(("numba", "numpy"))}
    assert fast <= set(pulled)
