"""Tab completion at the prompt: the legal moves and the commands, through readline.

readline is part of Python on Linux and macOS but may be missing (Windows, some builds); then
the prompt works as before, without completion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Completer:
    """Completes the whole line typed so far to the words offered for this prompt."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def offer(self, words: Sequence[str]) -> None:
        """The candidates for the next prompt (the moves change from one prompt to the next)."""
        self.words = list(dict.fromkeys(words))

    def matches(self, typed: str) -> list[str]:
        """The candidates that start with ``typed``, ignoring case and extra spaces."""
        prefix = " ".join(typed.lower().split()) + (
            " " if typed.endswith(" ") and typed.strip() else ""
        )
        return [w for w in self.words if w.lower().startswith(prefix)]

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer protocol: the ``index``-th match, None when there are no more."""
        found = self.matches(text)
        return found[index] if index < len(found) else None


def install_completion() -> Callable[[Sequence[str]], None] | None:
    """Set up readline to complete whole lines; returns ``offer``, or None without readline."""
    try:
        import readline
    except ImportError:
        return None
    completer = Completer()
    readline.set_completer(completer.complete)
    # No word breaks: a move is several words ("draw stock"), completed as one line.
    readline.set_completer_delims("")
    if "libedit" in (readline.__doc__ or ""):  # macOS's readline is libedit underneath
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return completer.offer
