"""The drop model (issue 16): its shipped file, its features (public only), its fit and the
``drop-model`` study's rows, checked against the engine's drop result (T6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from taverntable.bots.tonk.drop_model import (
    FEATURES,
    DropModel,
    kept_points,
    model_for,
    opponent_features,
    read_models,
    shipped_models,
)
from taverntable.cli import main
from taverntable.games.tonk import TonkState, rules_from
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies.drop_fit import fit_logistic, reliability
from taverntable.lab.studies.drop_model import play

from paths import SRC
from tonk_helpers import play as play_moves
from tonk_helpers import stacked, swap_hidden


def test_the_shipped_file_has_a_model_for_every_preset_with_this_versions_features() -> None:
    models = shipped_models()
    assert set(models) == {"tonk", "tor", "pagat"}
    for preset, model in models.items():
        assert model_for(preset) is model and model.preset == preset
        assert len(model.weights) == len(model.means) == len(model.scales) == len(FEATURES)
    assert model_for("no such preset") is None


def test_each_shipped_model_says_what_it_was_fitted_on_and_how_it_did() -> None:
    path = SRC / "bots/tonk/drop_model.json"
    measures = json.loads(path.read_text(encoding="utf-8"))["trained"]["measures"]
    assert set(measures) == set(shipped_models())
    for preset, m in measures.items():
        assert f"presets {preset}" in m["study"] or f", {preset}" in m["study"]
        # Better than the base rate on games the fit did not see, and about as often as seen.
        assert m["held_out_log_loss"] < m["held_out_log_loss_base_rate"]
        assert abs(m["held_out_mean_predicted"] - m["held_out_caught_rate"]) < 0.05


def test_a_file_of_another_version_or_feature_list_is_refused() -> None:
    path = SRC / "bots/tonk/drop_model.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="version"):
        read_models({**data, "version": 999})
    with pytest.raises(ValueError, match="features"):
        read_models({**data, "features": data["features"][:-1]})


def mid_deal(preset: str, players: int, seed: int, moves: int) -> TonkState:
    """A deal after ``moves`` random legal moves other than a drop, still going on (the first
    seed from ``seed`` on whose deal does not end sooner)."""
    for tried in range(seed, seed + 50):
        rng = random.Random(tried)
        state = TonkState.deal(rules_from(preset), players, rng=rng, dealer=0)
        for _ in range(moves):
            legal = [m for m in state.legal_moves() if str(m) != "drop"]
            if state.is_over or not legal:
                break
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over:
            return state
    raise AssertionError("no deal lasted that long")


@pytest.mark.parametrize("seed", range(8))
def test_features_are_the_same_when_only_hidden_cards_differ(seed: int) -> None:
    state = mid_deal("tonk" if seed % 2 else "tor", 3 + seed % 2, 100 * seed, 6 + 3 * seed)
    assert not state.is_over
    seat = state.current_seat
    assert seat is not None
    twin = swap_hidden(state, seat, random.Random(seed))
    assert twin is not None
    assert twin.hands != state.hands or twin.stock != state.stock
    for other in range(state.num_players):
        if other != seat:
            assert opponent_features(state.view(seat), other) == opponent_features(
                twin.view(seat), other
            )


def test_features_follow_what_an_opponent_showed() -> None:
    # Seat 0 draws and discards a king; seat 2's features of seat 0 show that discard (T9) and
    # a turn taken without a drop (T6).
    state = stacked(
        "tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S", stock="2D"
    )
    before = dict(zip(FEATURES, opponent_features(state.view(2), 0), strict=True))
    play_moves(state, "draw stock", "discard KH")
    after = dict(zip(FEATURES, opponent_features(state.view(2), 0), strict=True))
    assert (before["turns"], before["last_discard"], before["not_acted"]) == (0, 0, 1)
    assert (after["turns"], after["last_discard"], after["not_acted"]) == (1, 10, 0)
    assert after["stock_draws"] == 1 and after["unknown_cards"] == 5
    assert (before["min_discard"], before["max_discard"], before["high_discards"]) == (0, 0, 0)
    assert (after["min_discard"], after["max_discard"], after["high_discards"]) == (10, 10, 1)
    assert after["prev_discard"] == 0  # one discard so far
    play_moves(
        state, "draw stock", "discard 10C", "draw stock", "discard 2C", "draw stock", "discard 4H"
    )
    later = dict(zip(FEATURES, opponent_features(state.view(2), 0), strict=True))
    assert (later["min_discard"], later["max_discard"], later["high_discards"]) == (4, 10, 1)
    assert (later["last_discard"], later["prev_discard"], later["turns"]) == (4, 10, 2)
    # The products are of the features they name.
    assert later["margin_sq"] == later["margin"] ** 2
    assert later["margin_turns"] == later["margin"] * later["turns"]
    assert later["margin_unknown"] == later["margin"] * later["unknown_cards"]
    assert later["own_total_sq"] == later["own_total"] ** 2
    assert later["kept_margin_sq"] == later["kept_margin"] ** 2


def test_kept_points_are_the_low_cards_of_more_draws() -> None:
    unseen = sorted([1, 2, 2, 3, 5, 7, 8, 10, 10, 10, 10, 10])
    # Without draws the cards are spread evenly over the unseen values; holding every unseen
    # card, they are all of them.
    assert kept_points(unseen, len(unseen), 0) == sum(unseen)
    assert kept_points(unseen, 0, 5) == 0 and kept_points([], 3, 2) == 0
    # Each draw is one more card seen and the highest let go: the kept points never rise.
    for unknown in range(1, 6):
        kept = [kept_points(unseen, unknown, draws) for draws in range(12)]
        assert kept == sorted(kept, reverse=True) and kept[-1] < kept[0]
        # Never below the lowest cards there are, never above the highest.
        assert sum(unseen[:unknown]) <= kept[-1] and kept[0] <= sum(unseen[-unknown:])


@pytest.mark.parametrize(("hit_lock", "turns"), [(True, 1), (False, 2)])
def test_T6_a_hit_locked_turn_is_not_a_drop_declined(hit_lock: bool, turns: int) -> None:
    # pagat: seat 1 hits seat 0's spread, so seat 0's second turn allows no drop (T6 hit_lock);
    # without the option the same moves make it a turn on which seat 0 chose not to drop.
    state = stacked(
        rules_from("pagat", hit_lock=hit_lock),
        ["7S 7D 7H AC 2C", "7C 3H 2S 4H 9H", "QH 8C 6D 5C KD"],
        upcard="KS",
        stock="AD 10D 3D 5H",
    )
    play_moves(
        state,
        "draw stock",
        "spread 7S 7D 7H",
        "discard 2C",
        "draw stock",
        "hit 0 7C",
        "discard 9H",
        "draw stock",
        "discard KD",
    )
    assert state.hit_locked[0] == hit_lock
    play_moves(state, "draw stock", "discard 5H")
    for viewer in (1, 2):
        features = dict(zip(FEATURES, opponent_features(state.view(viewer), 0), strict=True))
        assert features["turns"] == turns and features["stock_draws"] == 2


def test_the_expected_gain_is_a_clean_drops_win_less_twice_each_catch() -> None:
    # T6: with catch chances p_j, (n - 1) * prod(1 - p_j) - 2 * sum(p_j).
    class Fixed(DropModel):
        def catch_probabilities(self, view: object) -> list[float]:  # type: ignore[override]
            return [0.1, 0.3]

    state = stacked("tonk", ["AC 4H 3D 9S KH", "KC 10C 3C 2S 9H", "QH 8C 6D 2C 7D"], upcard="5S")
    model = Fixed("tonk", (), (), (), 0.0)
    assert model.drop_gain(state.view(state.current_seat or 0)) == pytest.approx(
        2 * 0.9 * 0.7 - 2 * 0.4
    )


@pytest.mark.parametrize("index", range(8))
@pytest.mark.parametrize("presets", [None, ("pagat",)])
def test_each_decision_is_labelled_by_the_engines_drop_result(
    index: int, presets: tuple[str, ...] | None
) -> None:
    config = get_study("drop-model").config("small", presets=presets)
    row, records = play(config, index, 1000 + index)
    assert records == []
    assert row["preset"] == config.cell(index)[0]
    players = row["players"]
    assert row["decisions"], "every deal of this size has a drop decision"
    for seat, turn, total, net, others in row["decisions"]:
        assert 0 <= seat < players and turn >= 1
        assert len(others) == players - 1
        caught = sum(o[-1] for o in others)
        # T6: a clean drop wins 1 from each other player; a burned one pays 2 to each catcher.
        assert net == (players - 1 if caught == 0 else -2 * caught)
        assert all(o[0] == total for o in others)  # own_total, the drop's d
        assert all(len(o) == len(FEATURES) + 1 for o in others)


def test_the_fit_finds_the_direction_of_a_simple_rule() -> None:
    rng = random.Random(3)
    rows, caught = [], []
    for _ in range(600):
        x = [rng.uniform(-5, 5) for _ in FEATURES]
        rows.append(x)
        caught.append(int(x[2] + rng.gauss(0, 1) > 0))  # caught when the margin is positive
    model = fit_logistic(rows, caught, "tonk")
    others = [w for k, w in enumerate(model.weights) if k != 2]
    assert model.weights[2] > 1 and all(abs(w) < model.weights[2] / 4 for w in others)


def test_reliability_bins_count_and_average_what_falls_in_them() -> None:
    bins = reliability([0.05, 0.07, 0.55, 0.99], [0, 1, 1, 1])
    assert bins == [(0, 0.0, pytest.approx(0.06), 2, 1), (5, 0.5, 0.55, 1, 1), (9, 0.9, 0.99, 1, 1)]


def test_run_fit_and_report_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lab = tmp_path / "lab"
    assert (
        main(
            [
                "lab",
                "run",
                "drop-model",
                "--games",
                "120",
                "--workers",
                "1",
                "--quiet",
                "--lab",
                str(lab),
            ]
        )
        == 0
    )
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        assert main(["lab", "fit-drop-model", "--lab", str(lab), "--out", str(out)]) == 0
    assert first.read_text() == second.read_text()  # the same study and seed: the same model
    models = read_models(json.loads(first.read_text()))
    assert set(models) == {"tonk", "tor"}
    assert "held out" in capsys.readouterr().out
    assert main(["lab", "report", "--lab", str(lab)]) == 0
    assert (lab / "report" / "drop-model" / "drop-model-catch.csv").exists()
    assert (lab / "report" / "drop-model" / "drop-model-catch.png").exists()
    # Each preset's shipped model says what it was fitted on: here the same seed, in-sample.
    page = (lab / "report" / "index.html").read_text(encoding="utf-8")
    for preset in ("tonk", "tor"):
        assert f"The shipped {preset} model was fitted on drop-model: presets tonk, tor" in page
    assert "in-sample" in page


def test_update_adds_a_presets_model_and_keeps_the_others_unchanged(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    pagat = lab / "drop-model-pagat"
    assert (
        main(
            [
                "lab",
                "run",
                "drop-model",
                "--games",
                "120",
                "--workers",
                "1",
                "--quiet",
                "--lab",
                str(lab),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "lab",
                "run",
                "drop-model",
                "--preset",
                "pagat",
                "--games",
                "80",
                "--workers",
                "1",
                "--quiet",
                "--out",
                str(pagat),
            ]
        )
        == 0
    )
    out = tmp_path / "model.json"
    assert main(["lab", "fit-drop-model", "--lab", str(lab), "--out", str(out)]) == 0
    before = json.loads(out.read_text())
    assert main(["lab", "fit-drop-model", str(pagat), "--update", "--out", str(out)]) == 0
    after = json.loads(out.read_text())
    assert set(read_models(after)) == {"tonk", "tor", "pagat"}
    for preset in ("tonk", "tor"):
        assert after["models"][preset] == before["models"][preset]
        assert after["trained"]["measures"][preset] == before["trained"]["measures"][preset]
    assert "presets pagat;" in after["trained"]["measures"]["pagat"]["study"]
    # Without --update the file holds the study's presets only.
    assert main(["lab", "fit-drop-model", str(pagat), "--out", str(out)]) == 0
    assert set(read_models(json.loads(out.read_text()))) == {"pagat"}


def test_fitting_without_a_study_says_what_to_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lab", "fit-drop-model", "--lab", str(tmp_path)]) == 2
    assert "run `tavern lab run drop-model` first" in capsys.readouterr().err
