"""Study ``designer`` (issue 28): the styles play as named, the measurements hold what the rules
say, and the answer letter is written from the rows, in English and Ukrainian."""

from __future__ import annotations

import copy
import html
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from taverntable.bots.ismcts import search
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.bots.three_towers.search import TowersSearch
from taverntable.bots.three_towers.styles import allowed
from taverntable.cli import main
from taverntable.games import get_game
from taverntable.games.three_towers import TowersMove, TowersState, TowersView, view_of
from taverntable.games.three_towers.cards import IS_TOWER_ACE
from taverntable.games.three_towers.moves import Add, Build, Raid
from taverntable.lab.arena.bots import build_bot
from taverntable.lab.arena.table import ArenaError
from taverntable.lab.core.store import StudyStore
from taverntable.lab.report import letter
from taverntable.lab.report.towers_designer import POINTS, analyse
from taverntable.lab.studies.towers_bots import play_lab_out
from taverntable.lab.studies.towers_designer import VARIANTS
from taverntable.lab.studies.towers_measures import measure

from browser_helpers import new_page, overflows

GAMES = 16  # seeded two-player games per pairing: enough for the habits to show every time


def _actions(names: list[str], games: int = GAMES) -> dict[str, dict[str, int]]:
    """Each bot's raids and tower moves (starts and adds) over ``games`` seeded games, seats
    swapped every game."""
    game = get_game("three-towers")
    rules = game.rules({"max_rounds": 10})
    count = {name: {"raid": 0, "build": 0} for name in names}
    for seed in range(games):
        seats = names if seed % 2 == 0 else names[::-1]
        rng = random.Random(seed)
        state = TowersState.start(rules, 2, rng=rng, dealer=0)
        play_lab_out(state, list(seats), rng, game.max_moves)
        for seat, move in state.history:
            if seat < 0:
                continue
            bot = seats[seat]
            count[bot]["raid"] += isinstance(move, Raid)
            count[bot]["build"] += isinstance(move, Build | Add)
    return count


def test_a_raider_raids_and_never_builds_a_builder_builds_and_never_raids() -> None:
    count = _actions(["heuristic:style=builder", "heuristic:style=raider"])
    builder, raider = count["heuristic:style=builder"], count["heuristic:style=raider"]
    assert raider["build"] == 0 and builder["raid"] == 0  # the styles' own definitions
    assert raider["raid"] > builder["raid"] and builder["build"] > raider["build"]
    assert raider["raid"] >= GAMES  # more than one raid a game: it raids whenever it can


def test_mixed_raids_more_than_the_plain_heuristic_and_builds_less() -> None:
    count = _actions(["heuristic", "heuristic:style=mixed"])
    plain, mixed = count["heuristic"], count["heuristic:style=mixed"]
    assert mixed["raid"] > plain["raid"] and mixed["build"] < plain["build"]
    assert mixed["build"] > 0  # mostly raids, but still builds (unlike the raider)


def test_styles_are_bot_settings_of_the_heuristic_and_the_hard_bot() -> None:
    bot = build_bot("heuristic:style=raider", "three-towers")
    assert isinstance(bot, ThreeTowersHeuristicBot) and bot.name == "heuristic:style=raider"
    assert build_bot("ismcts:style=builder", "three-towers").style == "builder"  # type: ignore[attr-defined]
    with pytest.raises(ArenaError, match="unknown style 'sneaky'"):
        build_bot("heuristic:style=sneaky", "three-towers")
    with pytest.raises(ArenaError, match="unknown style"):
        build_bot("ismcts:style=sneaky", "three-towers")


def test_the_hard_raider_compares_no_tower_move_on_its_turn() -> None:
    """The search's root moves for a style are the moves the style plays."""
    rules = get_game("three-towers").rules({})
    seen = 0
    for seed in range(40):
        state = TowersState.start(rules, 2, rng=random.Random(seed), dealer=0)
        seat = state.current_seat
        assert seat is not None
        view = view_of(state, seat)
        if not any(isinstance(m, Build) for m in view.legal_moves):
            continue
        roots = TowersSearch(style="raider").root_moves(view)
        assert roots and not any(isinstance(m, Build | Add) for m in roots)
        # The styled heuristic's move first: the anchor the search must beat.
        assert roots[0] == ThreeTowersHeuristicBot("raider").choose(view, random.Random(0))
        seen += 1
    assert seen >= 5


def _raider_with_only_tower_moves() -> TowersView:
    """A view of the raider's turn in a seeded game of two heuristic raiders where every legal
    move builds or adds (no raid, trade or redeal left): the style plays none of them."""
    rules = get_game("three-towers").rules({})
    raider = ThreeTowersHeuristicBot("raider")
    for seed in range(20):
        rng = random.Random(seed)
        state = TowersState.start(rules, 2, rng=rng, dealer=0)
        for _ in range(5_000):
            seat = state.current_seat
            if seat is None:
                break
            if seat < 0:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            view = view_of(state, seat)
            legal = view.legal_moves
            busy = view.phase == "turn" and len(legal) > 1
            if busy and not any(allowed("raider", view, m, 0.0) for m in legal):
                return view
            state.apply_unchecked(raider.choose(view, rng))
    raise AssertionError("no raider's turn with only tower moves in 20 games")


def test_a_hard_raider_whose_every_move_builds_plays_the_styled_move_and_does_not_hang() -> None:
    """The designer study's stall (issue 28 item 7): with no move its style plays, the styled
    search had no root move and its paired loop sampled worlds for ever (done stayed 0)."""
    view = _raider_with_only_tower_moves()
    forced = ThreeTowersHeuristicBot("raider").choose(view, random.Random(0))
    assert isinstance(forced, Build | Add) and forced in view.legal_moves
    assert TowersSearch(style="raider").root_moves(view) == [forced]
    bot = build_bot("ismcts:style=raider", "three-towers")
    assert bot.choose(view, random.Random(1)) == forced  # one root move: the search ends


def test_a_search_with_no_root_move_refuses_instead_of_looping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = _raider_with_only_tower_moves()
    game = TowersSearch(style="raider")
    monkeypatch.setattr(game, "root_moves", lambda view: [])
    with pytest.raises(ValueError, match="no root move"):
        search(game, view, random.Random(1), iterations=100)


def test_measures_count_turns_and_waiting_as_the_state_shows() -> None:
    game = get_game("three-towers")
    rules = game.rules({"max_rounds": 10})
    rng = random.Random(5)
    state = TowersState.start(rules, 2, rng=rng, dealer=0)
    play_lab_out(state, ["heuristic", "heuristic"], rng, game.max_moves)
    m = measure(state)
    assert state.result is not None
    # A turn is a decision of the mover (A1-A4): every one is one of the kinds counted.
    assert sum(m["turns"]) == sum(sum(v) for v in m["turn_kinds"].values())
    assert sum(m["round_turns"]) == sum(m["turns"])
    assert len(m["round_turns"]) == len(state.result.rounds) == len(m["jokers_left"])
    # R13: one finished tower per round that a builder ended; each took at least one turn.
    finished = [r for r in state.result.rounds if r.builder >= 0]
    assert m["tower_builders"] == [r.builder for r in finished]
    assert all(1 <= own <= whole for own, whole in m["towers_built"])
    assert all(0 <= w <= t for w, t in zip(m["waiting_turns"], m["towerless_turns"], strict=True))
    # Replay by hand: a towerless turn with no ♥♦♣ ace in hand is a turn waiting for an ace.
    replay = TowersState.new(state.rules, 2, dealer=state.first_dealer)
    waiting = [0, 0]
    for seat, move in state.history:
        if replay.phase == "turn" and seat >= 0 and not replay.towers[seat]:
            waiting[seat] += not any(IS_TOWER_ACE[c] for c in replay.hands[seat])
        assert isinstance(move, TowersMove)
        replay.apply(move)
    assert waiting == m["waiting_turns"]
    # R1: four jokers; those in the hands at the round's end are at most all of them.
    assert all(0 <= k <= 4 for k in m["jokers_left"])
    # A Warlock curse through costs the victim 40 (R9), repelled costs its owner 40.
    for figure, through, margin in m["curses"]:
        if figure == "warlock":
            assert margin == (40.0 if through else -40.0)


# --- the study, its report and the letter -----------------------------------------------------

LETTER_VARIANTS = (
    "2p",
    "2p-builder-vs-raider",
    "2p-builder-vs-mixed",
    "2p-noble-vs-heuristic",
    "2p-nobility-5-noble-vs-heuristic",
    "2p-hard",
    "2p-hard-builder-vs-hard-raider",
    "2p-hard-builder-vs-hard-mixed",
)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small designer study with every variant the letter reads (the hard ones once)."""
    lab = tmp_path_factory.mktemp("designer")
    args = ["lab", "run", "designer", "--quiet", "--workers", "1", "--lab", str(lab)]
    args += [a for v in LETTER_VARIANTS for a in ("--variant", v)]
    # Five passes: the heuristic's variants five times, the hard bot's once (HARD_EVERY).
    assert main([*args, "--games", str(5 * len(LETTER_VARIANTS))]) == 0
    # The options study's table is the widest of the Three Towers report (32 columns).
    small = ["lab", "run", "towers-options", "--quiet", "--workers", "1", "--lab", str(lab)]
    assert main(small) == 0
    assert main(["lab", "report", "--lab", str(lab)]) == 0
    return lab


def _facts(lab: Path, change: Any = None) -> dict[str, Any]:
    config, _, rows = StudyStore.read(lab / "designer")
    if change is not None:
        rows = copy.deepcopy(rows)
        for _, row in rows:
            change(row)
    return analyse(config, rows).facts


@pytest.mark.slow
def test_every_point_is_answered_with_figures_in_english_and_ukrainian(lab: Path) -> None:
    facts = _facts(lab)
    for lang in ("en", "uk", "ru"):
        answers = letter.answers(facts, lang)
        assert len(answers) == len(POINTS) == 7
        missing = letter.LANGS[lang].missing
        assert all(a != missing and "n = " in a for a in answers), lang
        assert all("{" not in a for a in answers)
    page = (lab / "report" / "letter-uk.html").read_text()
    for k, title in enumerate(letter.POINT_TITLES["uk"]):
        assert f"Пункт {k + 1}. {title}" in page
    for slug in ("towers", "nobility", "spades", "jokers", "styles", "length", "answers"):
        assert f"index.html#designer-{slug}'" in page
    index = (lab / "report" / "index.html").read_text()
    # The letter opens the report, before the contents, and its links reach the parts.
    assert index.index("<section class=letter") < index.index("<nav class=toc>")
    for slug in ("towers", "styles", "answers"):
        assert f"href='#designer-{slug}'" in index and f"<h2 id='designer-{slug}'>" in index


@pytest.mark.slow
def test_the_letter_is_filled_from_the_rows(lab: Path) -> None:
    facts = _facts(lab)
    base = [r for _, r in StudyStore.read(lab / "designer")[2] if r.get("variant") == "2p"]
    base = [r for r in base if r.get("end") not in ("skipped", "stalled")]
    share = sum(r["end"] == "towers" for r in base) / len(base)
    first = letter.answers(facts, "en")[0]
    assert first.split(": ", 1)[1].startswith(f"{100 * share:.0f}% [")
    assert f"n = {len(base)} games" in first

    def no_third_tower(row: dict[str, Any]) -> None:
        if row.get("variant") == "2p" and row.get("end") == "towers":
            row["end"] = "rounds"

    changed = letter.answers(_facts(lab, no_third_tower), "en")
    assert changed[0] != first and changed[0].split(": ", 1)[1].startswith("0% [")
    assert changed[1:] == letter.answers(facts, "en")[1:]  # only what read the rows changed

    def all_turns_doubled(row: dict[str, Any]) -> None:
        if "round_turns" in row:
            row["round_turns"] = [2 * t for t in row["round_turns"]]

    before = letter.answers(facts, "uk")[5]
    after = letter.answers(_facts(lab, all_turns_doubled), "uk")[5]
    assert before != after


@pytest.mark.slow
def test_a_point_without_its_games_says_what_to_run(lab: Path) -> None:
    def forget_styles(row: dict[str, Any]) -> None:
        if "vs" in row.get("variant", ""):
            row["variant"] = "gone"

    answers = letter.answers(_facts(lab, forget_styles), "en")
    assert answers[4] == letter.LANGS["en"].missing and "tavern lab run designer" in answers[4]


@pytest.mark.slow
def test_every_variant_is_named_in_words_on_the_page(lab: Path) -> None:
    page = (lab / "report" / "index.html").read_text()
    for name in LETTER_VARIANTS:
        assert html.escape(VARIANTS[name].note) in page
    for name in VARIANTS:  # codes stay in the CSVs, never in a table's cell
        assert f"<td class=text>{name}</td>" not in page


@pytest.mark.slow
def test_the_page_never_scrolls_sideways_and_no_table_is_wider_than_its_column(
    lab: Path, browser: Browser
) -> None:
    """At 1,280 px, the report, its letters and every table fit the page's column."""
    page = new_page(browser, width=1280, height=900)
    for name in ("index.html", "letter-en.html", "letter-uk.html"):
        page.goto((lab / "report" / name).as_uri())
        assert not overflows(page), name
    page.goto((lab / "report" / "index.html").as_uri())
    column = page.evaluate("document.body.clientWidth")
    widths = page.evaluate(
        "[...document.querySelectorAll('div.wide')].map(d => [d.scrollWidth, d.clientWidth])"
    )
    assert len(widths) > 20 and column <= 1280
    # No box scrolls inside itself either: every table is within the column.
    assert all(inner <= outer + 1 <= column + 1 for inner, outer in widths), widths
    shot = lab / "report" / "screenshot-1280.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000
    assert not page.errors  # type: ignore[attr-defined]
