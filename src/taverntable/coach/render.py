"""A review at the terminal (Rich): a table per decision and the flagged mistakes."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .review import Decision, Review
from .texts import number, render, text


def print_review(console: Console, review: Review, lang: str = "en") -> None:
    """Every decision of ``review`` as a table (moves, value, 95% interval, marks), its
    sentence, then the mistakes and what they cost."""
    unit = review.unit

    def t(key: str, **params: object) -> str:
        return text(key, lang, params, unit)

    title = t(
        "ui.title",
        player=review.player,
        seat=review.seat,
        game=review.game,
        worlds=review.worlds,
        seed=review.seed,
    )
    console.print(f"[bold]{escape(title)}[/bold]")
    if not review.decisions:
        console.print(escape(t("ui.no_decisions")))
    for d in review.decisions:
        console.print(_table(d, review, lang))
        style = "red" if d.flagged else "dim"
        console.print(f"[{style}]{escape(render(d.note, lang))}[/{style}]", soft_wrap=True)
    mistakes = review.mistakes
    line = t("ui.mistakes", count=len(mistakes), lost=review.lost)
    console.print(f"[bold]{escape(line)}[/bold]")
    for d in mistakes:
        number_text = t("ui.decision", number=d.step + 1, player=review.player)
        sentence = escape(render(d.note, lang))
        console.print(f"  [red]{escape(number_text)}[/red]: {sentence}", soft_wrap=True)


def _table(d: Decision, review: Review, lang: str) -> Table:
    unit = review.unit

    def t(key: str, **params: object) -> str:
        return text(key, lang, params, unit)

    heading = t("ui.decision", number=d.step + 1, player=review.player)
    if d.flagged:
        heading += f" — {t('ui.mistake')} ({number(d.loss.mean, unit)})"
    table = Table(title=escape(heading), title_justify="left")
    table.add_column(t("ui.move"))
    table.add_column(t("ui.value"), justify="right")
    table.add_column(t("ui.interval"), justify="right")
    table.add_column("")
    for o in d.options:
        marks = []
        if o.move == d.chosen:
            marks.append(t("ui.chosen"))
        if o.move == d.best:
            marks.append(t("ui.best"))
        interval = f"[{number(o.value.low, unit)}, {number(o.value.high, unit)}]"
        style = "red" if d.flagged and o.move == d.chosen else None
        style = "green" if o.move == d.best else style
        table.add_row(
            escape(o.move),
            number(o.value.mean, unit),
            escape(interval),
            ", ".join(marks),
            style=style,
        )
    return table
