"""OpenSpiel's card games as peers in ``tavern bench`` (issue 14's comparison), measured in the
same run as ours; pyspiel comes with the ``rl`` extra, which CI installs."""

from __future__ import annotations

import json

import pytest

from taverntable.bench import peers
from taverntable.bench.command import BENCHES
from taverntable.cli import main


def test_the_peers_come_after_the_tonk_benches_they_are_compared_with() -> None:
    names = list(BENCHES)
    for peer in peers.PEERS:
        assert names.index("tonk") < names.index("fast-tonk") < names.index(peer)


def test_bench_json_gives_the_peers_transitions_beside_our_moves_from_one_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra: pip install -e '.[rl]'")
    assert (
        main(
            [
                "bench",
                "--seconds",
                "0.2",
                "--players",
                "4",
                "--json",
                "--only",
                "tonk,fast-tonk,openspiel-crazy-eights,openspiel-gin-rummy",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    eights, gin = report["openspiel-crazy-eights"], report["openspiel-gin-rummy"]
    assert eights["players"] == 4.0 and gin["players"] == 2.0  # gin_rummy seats only two
    for peer in (eights, gin):
        # Decisions are some of the transitions: the chance outcomes (a card dealt at a time) are
        # the others.
        assert 0 < peer["decisions_per_s"] < peer["moves_per_s"]
        assert peer["moves_per_game"] > 20  # a whole hand of cards dealt one outcome at a time
        assert peer["tonk_ratio"] == pytest.approx(
            report["tonk"]["moves_per_s"] / peer["moves_per_s"]
        )
        assert peer["fast_tonk_ratio"] == pytest.approx(
            report["fast-tonk"]["moves_per_s"] / peer["moves_per_s"]
        )


def test_a_peer_line_says_transitions_and_a_missing_pyspiel_is_said_not_raised(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(peers, "available", lambda: False)
    assert main(["bench", "--seconds", "0.1", "--only", "openspiel-gin-rummy"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("openspiel-gin-rummy") and "pyspiel is not installed" in line
    assert main(["bench", "--seconds", "0.1", "--only", "openspiel-gin-rummy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["openspiel-gin-rummy"]["unavailable"] == 1.0
