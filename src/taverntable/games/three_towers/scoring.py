"""The round's end and count (R12–R14, A; R28, R30, R36, R37) and the game's end, with events."""

from __future__ import annotations

from collections.abc import Callable

from .cards import JOKER, suit, total
from .events import NO_EVENTS, Events, moved, told
from .phases import CLUB, DARK, DEAL, OVER
from .position import TowersPosition
from .results import EndKind as EndKind  # re-exported: the kernel reads it here
from .results import GameResult, RoundResult

CLUB_TAKE = 4  # R13: the ♣ builder takes up to 4 cards
DARK_GIVE = 4  # R13: the dark tower's builder gives up to 4 cards
TOWERS_TO_WIN = 3  # R14
WIN_BONUS = 150  # R14
DIAMOND_BONUS = 50  # R13
HEARTS, DIAMONDS, CLUBS = 1, 2, 3


def end_round(state: TowersPosition, noting: bool) -> Events:
    """R13: hands, towers (and the nobility, R19) into the stores; then the tower's bonus choice
    (♣ take, dark give), else the count. R28: when warriors in a nobility score, the nobility
    stays on the table until the count (so the ♣ builder cannot take it from a store)."""
    keep_nobility = state.rules.nobility_points > 0
    events = NO_EVENTS
    for s in range(state.num_players):
        if noting:
            # The hand goes into the store face down: the count then shows the whole store
            # (R19), not which of its cards were the hand.
            store = f"store:{s}"
            events += (
                moved("collect", s, state.hands[s], f"hand:{s}", store, 1 << s),
                moved("collect", s, state.towers[s], f"tower:{s}", store),
            )
        state.stores[s].extend(state.hands[s] + state.towers[s])
        state.hands[s].clear()
        state.towers[s].clear()
        if not keep_nobility:
            events += _collect_nobility(state, noting, s)
        # R19: the stores are turned face up for the count, so every card in them is known.
        state.known[s] = state.stores[s][:]
    state.trade = None
    state.attack = None
    state.picks = 0
    b, ace = state.finished, state.tower_ace
    if b >= 0 and suit(ace) == CLUBS and any(state.stores[o] for o in state.opponents(b)):
        state.phase = CLUB
        state.decider = b
    elif b >= 0 and suit(ace) == 0 and state.stores[b]:
        state.phase = DARK
        state.decider = b
    else:
        events += count(state, noting)
    return events


def _collect_nobility(state: TowersPosition, noting: bool, seat: int) -> Events:
    """R19: the nobility joins its owner's store (warriors score 0 there)."""
    nobility = state.nobility[seat]
    events = (
        (moved("collect", seat, nobility, f"nobility:{seat}", f"store:{seat}"),)
        if noting
        else NO_EVENTS
    )
    state.stores[seat].extend(nobility)
    nobility.clear()
    return events


def take(state: TowersPosition, noting: bool, seat: int, card: int) -> Events:
    """R13 (♣): one card from an opponent's store into the builder's, in the open."""
    b = state.finished
    events = _move_store_card(state, noting, seat, b, card, "club_take")
    state.picks += 1
    if state.picks >= CLUB_TAKE or not any(state.stores[o] for o in state.opponents(b)):
        events += count(state, noting)
    return events


def give(state: TowersPosition, noting: bool, card: int, seat: int) -> Events:
    """R13 (dark tower): one card from the builder's store to another player's."""
    b = state.finished
    events = _move_store_card(state, noting, b, seat, card, "dark_give")
    state.picks += 1
    if state.picks >= DARK_GIVE or not state.stores[b]:
        events += count(state, noting)
    return events


def _move_store_card(
    state: TowersPosition, noting: bool, source: int, dest: int, card: int, kind: str
) -> Events:
    state.stores[source].remove(card)
    state.known[source].remove(card)
    state.stores[dest].append(card)
    state.known[dest].append(card)
    if noting:
        return (moved(kind, state.finished, (card,), f"store:{source}", f"store:{dest}"),)
    return NO_EVENTS


def count(state: TowersPosition, noting: bool) -> Events:
    """R13: round points from the stores, ♥ doubles, ♦ +50, the tower mark; R14 the game end."""
    n, b, ace = state.num_players, state.finished, state.tower_ace
    # R28: each warrior still in a nobility scores (0 by default); then R19 collects it.
    noble = [state.rules.nobility_points * len(state.nobility[s]) for s in range(n)]
    events = NO_EVENTS
    for s in range(n):
        if state.nobility[s]:
            events += _collect_nobility(state, noting, s)
            state.known[s] = state.stores[s][:]  # R19: the count is public
    # R30: each joker in a store scores joker_points (0 by default, R2).
    jokers = state.rules.joker_points
    store_points = [
        total(state.stores[s]) + jokers * state.stores[s].count(JOKER) for s in range(n)
    ]
    points = [store_points[s] + noble[s] for s in range(n)]
    bonus = 0
    if b >= 0:
        if suit(ace) == HEARTS:
            bonus = points[b]
        elif suit(ace) == DIAMONDS:
            bonus = DIAMOND_BONUS
        points[b] += bonus
        state.marks[b] += 1
    cap = state.rules.round_cap
    if cap:
        points = [clamp(p, cap) for p in points]  # R36
    ends = b >= 0 and state.team_marks(b) >= TOWERS_TO_WIN
    win = WIN_BONUS if ends else 0
    lead = state.rules.lead_cap
    if lead:
        # R37: the 150 counts in its round's points, so the cap holds the two together; the
        # builder keeps its round's own points first and is paid what is left of the 150.
        whole = [p + (win if s == b else 0) for s, p in enumerate(points)]
        held = cap_leads(whole, lead, state.opponents)
        if ends:
            points = [*held[:b], min(points[b], held[b]), *held[b + 1 :]]
            win = held[b] - points[b]
        else:
            points = held
    for s in range(n):
        state.scores[s] += points[s]
    state.rounds.append(
        RoundResult(
            tuple(points), b, ace if b >= 0 else -1, tuple(tuple(sorted(st)) for st in state.stores)
        )
    )
    state.picks = 0
    if noting:
        data = {
            "round": state.round_no,
            **state.rounds[-1].to_json(),
            "store_points": store_points,
            "nobility_points": noble,
            "tower_bonus": bonus,
            "scores": list(state.scores),
            "marks": list(state.marks),
        }
        events += (told("round_end", None, data),)
    if ends:
        if cap:  # R36: the round's points and the 150 together stay within the cap.
            win = clamp(points[b] + WIN_BONUS, cap) - points[b]
        state.scores[b] += win
        if noting:
            events += (told("win_bonus", b, {"points": win}),)
        events += finish(state, noting, "towers")
    elif state.rules.max_rounds is not None and state.round_no >= state.rules.max_rounds:
        events += finish(state, noting, "rounds")
    else:
        # R3: the next seat deals the next round.
        state.dealer = (state.dealer + 1) % n
        state.mover = (state.dealer + 1) % n
        state.phase = DEAL
        state.decider = -1
    return events


def clamp(points: int, cap: int) -> int:
    """R36: a seat's points for one round, held within ±cap."""
    return max(-cap, min(cap, points))


def cap_leads(points: list[int], cap: int, opponents: Callable[[int], list[int]]) -> list[int]:
    """R37: each seat's points for one round at most ``cap`` above the best of its opponents'
    (every other seat without teams, so only a round's single top seat can be held; a tie at
    the top leads nothing). Read from the points before any is held: a held seat's opponents
    are below it, so none of them is held."""
    return [min(p, max(points[o] for o in opponents(s)) + cap) for s, p in enumerate(points)]


def team_scores(state: TowersPosition) -> list[int]:
    """R15: each seat's score with its partner's (the seat's own score without teams)."""
    return [
        state.scores[s] + (state.scores[p] if (p := state.partner(s)) >= 0 else 0)
        for s in range(state.num_players)
    ]


def finish(state: TowersPosition, noting: bool, end: EndKind) -> Events:
    """R14: the highest score (a pair's sum in team play) wins; ties share the win."""
    scores = team_scores(state)
    best = max(scores)
    state.result = GameResult(
        end,
        tuple(s for s in range(state.num_players) if scores[s] == best),
        tuple(state.scores),
        tuple(state.marks),
        tuple(state.rounds),
    )
    state.phase = OVER
    state.decider = -1
    return (told("game_end", None, state.result.to_json()),) if noting else NO_EVENTS
