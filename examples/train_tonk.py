"""Train a Tonk player through the PettingZoo environment, then enter it in the arena.

    .venv/bin/pip install -e ".[rl]" "torch==2.13.0+cpu"     # the CPU build: no CUDA libraries
    .venv/bin/python examples/train_tonk.py --minutes 5

An actor-critic policy gradient (REINFORCE with a learned baseline) in PyTorch. The learner
sits at a random seat of a two-player ``tonk`` deal (``taverntable.envs.pettingzoo_env``); the
other seat is our ``heuristic`` bot or the ``random`` bot, drawn for each deal, and plays from
its own view through the same environment. The network sees the learner's observation (its view
encoded, docs/environments.md) and scores only the legal action ids (the action mask): Tonk has
40,233 ids, so each id has a learned embedding and a legal action's score is the dot product of
the observation's features with it. The reward is the deal's result in stakes.

At the end the weights go to a NumPy file (no torch needed to play them) and the arena plays the
``learned`` bot (``learned:weights=FILE``) against ``random`` and against ``heuristic`` with
rotated duplicate deals.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from taverntable import cli
from taverntable.bots import make_bot
from taverntable.envs.pettingzoo_env import env as make_env

GAME = "tonk"


class Policy(nn.Module):
    """Observation -> features; a legal action's score is features . its embedding + bias."""

    def __init__(self, observation: int, actions: int, hidden: int = 256, features: int = 128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(observation, hidden), nn.ReLU(), nn.Linear(hidden, features), nn.ReLU()
        )
        self.embed = nn.Embedding(actions, features)
        self.bias = nn.Embedding(actions, 1)
        self.value = nn.Linear(features, 1)
        nn.init.normal_(self.embed.weight, std=0.05)
        nn.init.zeros_(self.bias.weight)

    def forward(
        self, obs: torch.Tensor, legal: torch.Tensor, pad: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores of the legal ids (padding at -inf) and the value, for a batch of steps."""
        h = self.body(obs)
        scores = (self.embed(legal) * h.unsqueeze(1)).sum(-1) + self.bias(legal).squeeze(-1)
        return scores.masked_fill(pad, float("-inf")), self.value(h).squeeze(-1)

    def save_numpy(self, path: Path) -> None:
        """The weights as ``learned`` reads them (``envs/learned_bot.py``)."""
        linear = [m for m in self.body if isinstance(m, nn.Linear)]
        arrays: dict[str, Any] = {"game": np.array(GAME)}
        for k, layer in enumerate(linear):
            arrays[f"w{k}"] = layer.weight.detach().numpy().T.copy()
            arrays[f"b{k}"] = layer.bias.detach().numpy().copy()
        arrays["embed"] = self.embed.weight.detach().numpy().copy()
        arrays["bias"] = self.bias.weight.detach().numpy()[:, 0].copy()
        np.savez_compressed(path, **arrays)


def play_deal(
    env: Any, policy: Policy, opponent: Any, rng: random.Random
) -> tuple[list[tuple[np.ndarray, list[int], int]], float]:
    """One deal: the learner's steps (observation, legal ids, index chosen) and its result."""
    env.reset(seed=rng.getrandbits(32))
    raw = env.unwrapped
    learner = rng.choice(env.agents)
    steps: list[tuple[np.ndarray, list[int], int]] = []
    result = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if agent == learner:
                result = float(reward)
            env.step(None)
            continue
        if agent == learner:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            with torch.no_grad():
                no_padding = torch.zeros(1, len(legal), dtype=torch.bool)
                scores, _ = policy(
                    torch.from_numpy(obs["observation"])[None], torch.tensor([legal]), no_padding
                )
            index = int(torch.distributions.Categorical(logits=scores[0]).sample())
            steps.append((obs["observation"], legal, index))
            env.step(legal[index])
        else:
            seat = raw.possible_agents.index(agent)
            move = opponent.choose(raw.state.view(seat), rng)
            env.step(raw.game.actions.encode(move))
    return steps, result


def update(
    policy: Policy,
    optimizer: torch.optim.Optimizer,
    batch: list[tuple[list[tuple[np.ndarray, list[int], int]], float]],
) -> None:
    """One actor-critic step on a batch of deals: every step's advantage is the deal's result
    minus the value of its observation."""
    rows = [(obs, legal, index, result) for steps, result in batch for obs, legal, index in steps]
    if not rows:
        return
    width = max(len(legal) for _, legal, _, _ in rows)
    obs = torch.from_numpy(np.stack([r[0] for r in rows]))
    legal = torch.zeros(len(rows), width, dtype=torch.long)
    pad = torch.ones(len(rows), width, dtype=torch.bool)
    for i, (_, ids, _, _) in enumerate(rows):
        legal[i, : len(ids)] = torch.tensor(ids)
        pad[i, : len(ids)] = False
    chosen = torch.tensor([r[2] for r in rows])
    results = torch.tensor([r[3] for r in rows], dtype=torch.float32)
    scores, value = policy(obs, legal, pad)
    logp = torch.log_softmax(scores, -1)
    advantage = results - value
    chosen_logp = logp.gather(1, chosen[:, None]).squeeze(1)
    entropy = -(logp.exp() * logp.masked_fill(pad, 0.0)).sum(-1)
    loss = (
        -(chosen_logp * advantage.detach()).mean()
        + 0.5 * advantage.pow(2).mean()
        - 0.01 * entropy.mean()
    )
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
    optimizer.step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--batch", type=int, default=32, help="deals per update")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("lab-out/tonk-policy.npz"))
    parser.add_argument("--deals", type=int, default=300, help="arena deals per match")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    env = make_env(GAME, players=2)
    env.reset(seed=args.seed)
    raw = env.unwrapped
    policy = Policy(raw.encoder.size, raw.game.actions.size)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    opponents = {"heuristic": make_bot("heuristic", GAME), "random": make_bot("random", GAME)}
    recent: dict[str, deque[float]] = {name: deque(maxlen=500) for name in opponents}
    start, deals, last_report = time.monotonic(), 0, 0.0
    while (elapsed := time.monotonic() - start) < args.minutes * 60:
        batch = []
        for _ in range(args.batch):
            name = "heuristic" if rng.random() < 0.5 else "random"
            steps, result = play_deal(env, policy, opponents[name], rng)
            recent[name].append(result)
            batch.append((steps, result))
        deals += args.batch
        update(policy, optimizer, batch)
        if elapsed - last_report >= 30:
            last_report = elapsed
            means = ", ".join(f"vs {name} {np.mean(r):+.3f}" for name, r in recent.items() if r)
            print(
                f"{elapsed / 60:4.1f} min, {deals} deals: mean result of the last 500 {means}",
                flush=True,
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    policy.save_numpy(args.out)
    print(f"trained on {deals} deals in {args.minutes:g} minutes; weights: {args.out}")
    for other in ("random", "heuristic"):
        cli.main(
            [
                "arena",
                "--game",
                GAME,
                "--players",
                "2",
                "--deals",
                str(args.deals),
                "--seed",
                str(args.seed),
                "--bots",
                f"learned:weights={args.out},{other}",
            ]
        )


if __name__ == "__main__":
    main()
