"""Three Towers points by action: each card's points credited to the action that stored it.

A finished game is replayed from its history; after every move each seat's store value is
compared with the value before it, and the change is credited to the kind of the move *group*
that caused it: a trade's lead and its answers are one ``trade`` (R7; a failed answer's hand into
the failing seat's own store is ``fail``, R6), an attack and its defence one ``raid`` (R9
plunder) or ``curse`` (Thief, Warlock, the Witch's trade, a repelled curse into its owner's
store), a redeal with its stores, gives and shuffle one ``redeal`` (A4, R10).

At a round's end (R12, R13) the cards of each seat's tower count as ``tower``, its hand as
``round_end``; the ♥ doubling, the ♦ 50 and the ♣ takes / dark gives count as ``tower`` too,
R28 nobility points as ``round_end``, and the 150 for a third tower (R14) as ``win_bonus``.
So a seat's points per action sum to its round points, and over the game to its score.
``own`` is the part from the seat's own doing: groups it opened (its trades, raids, curses,
redeals), its failed answers, ♣ takes and dark gives, its tower and hand at the round end; the
rest came from opponents' actions (a curse suffered, a ♣ take from its store, a jacks redeal
into it, another seat's trade it won).

The split of the move that ends a round (the refill came up short, R12) needs the stores just
before the hands go in: the replay's state is a subclass whose ``end_turn`` notes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.cards import HAND_SIZE, total
from taverntable.games.three_towers.moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Deal,
    Defend,
    Done,
    Fail,
    Give,
    Hidden,
    Name,
    Pass,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Shuffle,
    Steal,
    Store,
    Trade,
    TradeJoker,
    Yield,
)
from taverntable.games.three_towers.phases import CLUB, DARK
from taverntable.games.three_towers.scoring import DIAMOND_BONUS, DIAMONDS, HEARTS

ACTION_SOURCES = ("trade", "fail", "tower", "raid", "curse", "redeal", "round_end", "win_bonus")
_OPENERS: dict[type, str] = {
    Trade: "trade", TradeJoker: "trade", Build: "tower", Add: "tower", Raid: "raid",
    Curse: "curse", RedealJoker: "redeal", RedealWarriors: "redeal", RedealJacks: "redeal",
    RedealQueens: "redeal", RedealKings: "redeal", Pass: "round_end",
}
# Moves that belong to the group opened before them (answers, defence, chance steps, choices).
_FOLLOWERS = (Answer, AnswerJoker, Defend, Yield, Name, Steal, Store, Give, Done, Shuffle)


class _Replay(TowersState):
    """A state that notes the stores and towers when a refill is about to end the round."""

    __slots__ = ("snap",)

    snap: tuple[list[int], list[int]] | None

    def end_turn(self) -> None:
        need = sum(max(0, HAND_SIZE - len(h)) for h in self.hands)
        if need > len(self.deck):  # R12: the refill comes up short, end_round follows
            self.snap = ([total(s) for s in self.stores], [total(t) for t in self.towers])
        super().end_turn()


@dataclass(frozen=True, slots=True)
class ActionPoints:
    """Points by action: per round (``rounds[r][action][seat]``) and for the whole game.

    ``bonus[r][seat]`` is the part of a round's points that is not in the store (♥ doubling,
    ♦ 50, R28 nobility): a round's points by action minus it is the store's value.
    """

    rounds: list[dict[str, list[int]]]
    bonus: list[list[int]]
    game: dict[str, list[int]]
    own: dict[str, list[int]]  # the part of ``game`` from the seat's own doing


def points_by_action(played: TowersState) -> ActionPoints:
    """Replay ``played`` (a finished game, or one in progress) and credit every store change."""
    n = played.num_players
    state = _Replay.new(played.rules, n, dealer=played.first_dealer)
    assert isinstance(state, _Replay)
    state.snap = None
    rounds: list[dict[str, list[int]]] = []
    bonus: list[list[int]] = []
    cur = {a: [0] * n for a in ACTION_SOURCES}
    own = {a: [0] * n for a in ACTION_SOURCES}
    base = [0] * n
    group = "round_end"
    opener = -1
    for seat, move in played.history:
        assert not isinstance(move, Hidden)
        if isinstance(move, Deal):
            state.apply_unchecked(move)
            base = [0] * n
            continue
        phase = state.phase
        actor = opener
        if phase in (CLUB, DARK):
            kind, actor = "tower", seat  # R13: the ♣ takes and dark gives
        elif isinstance(move, Fail):
            kind, actor = "fail", seat
        elif isinstance(move, _FOLLOWERS):
            kind = group
        else:
            kind = group = _OPENERS[type(move)]
            actor = opener = seat
        towers_pre = None
        if isinstance(move, (Add, Pass)):  # may end the round at once (R8, R17)
            towers_pre = [total(t) for t in state.towers]
            if isinstance(move, Add):
                towers_pre[state.mover] += total((move.card,))
        done = len(state.rounds)
        state.snap = None
        state.apply_unchecked(move)
        after = [total(s) for s in state.stores]
        ended = phase not in (CLUB, DARK) and (
            state.phase in (CLUB, DARK) or len(state.rounds) > done)
        if ended:
            if state.snap is not None:
                stores_pre, towers = state.snap
            else:
                stores_pre, towers = base, towers_pre or [0] * n
            for s in range(n):
                cur[kind][s] += stores_pre[s] - base[s]
                if s == actor:
                    own[kind][s] += stores_pre[s] - base[s]
                cur["tower"][s] += towers[s]
                own["tower"][s] += towers[s]
                cur["round_end"][s] += after[s] - stores_pre[s] - towers[s]
                own["round_end"][s] += after[s] - stores_pre[s] - towers[s]
        else:
            for s in range(n):
                cur[kind][s] += after[s] - base[s]
                if s == actor:
                    own[kind][s] += after[s] - base[s]
        base = after
        if len(state.rounds) > done:  # the count (R13)
            r = state.rounds[-1]
            extra = [r.points[s] - after[s] for s in range(n)]
            for s in range(n):
                tower_bonus = 0
                if s == r.builder and r.tower // 13 == HEARTS:
                    tower_bonus = r.points[s] // 2
                elif s == r.builder and r.tower // 13 == DIAMONDS:
                    tower_bonus = DIAMOND_BONUS
                cur["tower"][s] += tower_bonus
                cur["round_end"][s] += extra[s] - tower_bonus
                own["tower"][s] += tower_bonus
                own["round_end"][s] += extra[s] - tower_bonus
            rounds.append(cur)
            bonus.append(extra)
            cur = {a: [0] * n for a in ACTION_SOURCES}
    game = {a: [sum(r[a][s] for r in rounds) for s in range(n)] for a in ACTION_SOURCES}
    if played.result is not None:
        for s in range(n):
            game["win_bonus"][s] = own["win_bonus"][s] = played.result.scores[s] - sum(
                sum(r[a][s] for a in ACTION_SOURCES) for r in rounds)
    return ActionPoints(rounds, bonus, game, own)
