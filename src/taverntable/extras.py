"""How to install an optional extra, said the same way by every command that needs one.

Tavern Table is installed from its checkout (the README's commands), where pip finds an extra as
``pip install -e ".[lab]"``; ``pip install 'taverntable[lab]'`` would ask PyPI for a package that
is not published there.
"""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """The command that installs ``extra``, to append to an error message."""
    return f'pip install -e ".[{extra}]" (in the project\'s folder)'
