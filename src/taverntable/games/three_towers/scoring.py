"""The round's end and count (R12–R14, A; R28), the game's end, and the results as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .cards import TEXT, suit, total
from .phases import CLUB, DARK, DEAL, OVER

if TYPE_CHECKING:
    from .state import TowersState

CLUB_TAKE = 4  # R13: the ♣ builder takes up to 4 cards
DARK_GIVE = 4  # R13: the dark tower's builder gives up to 4 cards
TOWERS_TO_WIN = 3  # R14
WIN_BONUS = 150  # R14
DIAMOND_BONUS = 50  # R13
HEARTS, DIAMONDS, CLUBS = 1, 2, 3

EndKind = Literal["towers", "rounds"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round's count: each seat's round points, the finished tower, the stores counted."""

    points: tuple[int, ...]
    builder: int  # the seat that finished a tower, or -1
    tower: int  # the finished tower's base ace, or -1
    stores: tuple[tuple[int, ...], ...]  # turned face up for the count (R19)

    def to_json(self) -> dict[str, Any]:
        tower = None if self.builder < 0 else [self.builder, TEXT[self.tower]]
        return {"points": list(self.points), "tower": tower}


@dataclass(frozen=True, slots=True)
class GameResult:
    """The game's end: why, the winners, final scores and finished towers per seat."""

    end: EndKind
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    towers: tuple[int, ...]
    rounds: tuple[RoundResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the records spec."""
        return {
            "end": self.end,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "towers": list(self.towers),
            "rounds": [r.to_json() for r in self.rounds],
        }


def end_round(state: TowersState) -> None:
    """R13: hands, towers (and the nobility, R19) into the stores; then the tower's bonus choice
    (♣ take, dark give), else the count. R28: when warriors in a nobility score, the nobility
    stays on the table until the count (so the ♣ builder cannot take it from a store)."""
    keep_nobility = state.rules.nobility_points > 0
    for s in range(state.num_players):
        # The hand goes into the store face down: the count then shows the whole store (R19),
        # not which of its cards were the hand.
        state.note("collect", s, state.hands[s], f"hand:{s}", f"store:{s}", 1 << s)
        state.note("collect", s, state.towers[s], f"tower:{s}", f"store:{s}")
        state.stores[s].extend(state.hands[s] + state.towers[s])
        state.hands[s].clear()
        state.towers[s].clear()
        if not keep_nobility:
            _collect_nobility(state, s)
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
        count(state)


def _collect_nobility(state: TowersState, seat: int) -> None:
    """R19: the nobility joins its owner's store (warriors score 0 there)."""
    state.note("collect", seat, state.nobility[seat], f"nobility:{seat}", f"store:{seat}")
    state.stores[seat].extend(state.nobility[seat])
    state.nobility[seat].clear()


def take(state: TowersState, seat: int, card: int) -> None:
    """R13 (♣): one card from an opponent's store into the builder's, in the open."""
    b = state.finished
    _move_store_card(state, seat, b, card, "club_take")
    state.picks += 1
    if state.picks >= CLUB_TAKE or not any(state.stores[o] for o in state.opponents(b)):
        count(state)


def give(state: TowersState, card: int, seat: int) -> None:
    """R13 (dark tower): one card from the builder's store to another player's."""
    b = state.finished
    _move_store_card(state, b, seat, card, "dark_give")
    state.picks += 1
    if state.picks >= DARK_GIVE or not state.stores[b]:
        count(state)


def _move_store_card(state: TowersState, source: int, dest: int, card: int, kind: str) -> None:
    state.note(kind, state.finished, (card,), f"store:{source}", f"store:{dest}")
    state.stores[source].remove(card)
    state.known[source].remove(card)
    state.stores[dest].append(card)
    state.known[dest].append(card)


def count(state: TowersState) -> None:
    """R13: round points from the stores, ♥ doubles, ♦ +50, the tower mark; R14 the game end."""
    n, b, ace = state.num_players, state.finished, state.tower_ace
    # R28: each warrior still in a nobility scores (0 by default); then R19 collects it.
    noble = [state.rules.nobility_points * len(state.nobility[s]) for s in range(n)]
    for s in range(n):
        if state.nobility[s]:
            _collect_nobility(state, s)
            state.known[s] = state.stores[s][:]  # R19: the count is public
    store_points = [total(state.stores[s]) for s in range(n)]
    points = [store_points[s] + noble[s] for s in range(n)]
    bonus = 0
    if b >= 0:
        if suit(ace) == HEARTS:
            bonus = points[b]
        elif suit(ace) == DIAMONDS:
            bonus = DIAMOND_BONUS
        points[b] += bonus
        state.marks[b] += 1
    for s in range(n):
        state.scores[s] += points[s]
    state.rounds.append(
        RoundResult(
            tuple(points), b, ace if b >= 0 else -1, tuple(tuple(sorted(st)) for st in state.stores)
        )
    )
    state.picks = 0
    if state.noting:
        state.note(
            "round_end",
            None,
            (),
            "",
            "",
            data={
                "round": state.round_no,
                **state.rounds[-1].to_json(),
                "store_points": store_points,
                "nobility_points": noble,
                "tower_bonus": bonus,
                "scores": list(state.scores),
                "marks": list(state.marks),
            },
        )
    if b >= 0 and state.team_marks(b) >= TOWERS_TO_WIN:
        state.scores[b] += WIN_BONUS
        state.note("win_bonus", b, (), "", "", data={"points": WIN_BONUS})
        finish(state, "towers")
    elif state.rules.max_rounds is not None and state.round_no >= state.rules.max_rounds:
        finish(state, "rounds")
    else:
        # R3: the next seat deals the next round.
        state.dealer = (state.dealer + 1) % n
        state.mover = (state.dealer + 1) % n
        state.phase = DEAL
        state.decider = -1


def team_scores(state: TowersState) -> list[int]:
    """R15: each seat's score with its partner's (the seat's own score without teams)."""
    return [
        state.scores[s] + (state.scores[p] if (p := state.partner(s)) >= 0 else 0)
        for s in range(state.num_players)
    ]


def finish(state: TowersState, end: EndKind) -> None:
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
    if state.noting:
        state.note("game_end", None, (), "", "", data=state.result.to_json())
