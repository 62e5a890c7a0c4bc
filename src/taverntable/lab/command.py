"""``tavern lab``: ``list`` the studies, ``run`` one, ``report`` on them, ``scale`` (timings),
``fit-drop-model`` (the Tonk drop model from the ``drop-model`` study)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taverntable.bots import make_bot
from taverntable.engine import TavernError
from taverntable.games import get_game
from taverntable.lab.core.config import LabError, StudyConfig, parse_options, parse_players
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import STUDIES, get_study

LAB = Path("lab-out")


def add_parser(subparsers: Any) -> None:
    """Register ``tavern lab`` and its subcommands."""
    lab: argparse.ArgumentParser = subparsers.add_parser(
        "lab", help="simulate many games, measure, and report (HTML, plots, CSV)"
    )
    sub = lab.add_subparsers(dest="lab_command", required=True, metavar="ACTION")

    sub.add_parser("list", help="list the studies").set_defaults(run=run_list)

    run = sub.add_parser("run", help="run a study (resumes where a stopped run left off)")
    run.add_argument("study", choices=sorted(STUDIES), metavar="STUDY")
    run.add_argument(
        "--size",
        choices=("small", "full"),
        help="default: small; a study run before keeps its size (see --shrink)",
    )
    run.add_argument(
        "--games",
        type=int,
        help="games in all (overrides --size); more than a "
        "study run before has makes them its new size",
    )
    run.add_argument(
        "--shrink",
        action="store_true",
        help="make a --games or --size below the study's saved size its new size "
        "(without it, the smaller number limits this run only)",
    )
    run.add_argument("--seed", type=int, help="study seed (default 1)")
    run.add_argument(
        "--preset",
        action="append",
        metavar="GAME",
        help="a game of the study's family, e.g. tor (repeatable; default: all)",
    )
    run.add_argument("--players", action="append", help="e.g. 4, 2-10, 2,3,5 (repeatable)")
    run.add_argument("--bots", help="bot per seat, comma-separated, repeated round the table")
    run.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="rule option for every preset (repeatable)",
    )
    run.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="towers-options: a variant to play (repeatable; default all)",
    )
    run.add_argument(
        "--records",
        action="store_true",
        default=None,
        help="also write every game's record to records.jsonl",
    )
    run.add_argument("--workers", type=int, help="processes (default: all cores; 1 = inline)")
    run.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on a Ray cluster at ADDRESS, or 'local' to start Ray here",
    )
    run.add_argument("--lab", type=Path, default=LAB, help="lab folder (default lab-out)")
    run.add_argument("--out", type=Path, help="study folder (default LAB/STUDY)")
    run.add_argument("--fresh", action="store_true", help="discard earlier results first")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(run=run_study_command)

    rep = sub.add_parser("report", help="write LAB/report/index.html and the CSVs")
    rep.add_argument("studies", nargs="*", metavar="STUDY", help="study folders (default all)")
    rep.add_argument("--lab", type=Path, default=LAB, help="lab folder (default lab-out)")
    rep.add_argument("--out", type=Path, help="report folder (default LAB/report)")
    rep.set_defaults(run=run_report)

    fit = sub.add_parser(
        "fit-drop-model",
        help="fit the Tonk drop model on the drop-model "
        "study and write it (default: the file the package ships)",
    )
    fit.add_argument(
        "study_folder",
        nargs="?",
        type=Path,
        metavar="FOLDER",
        help="the drop-model study's folder (default LAB/drop-model)",
    )
    fit.add_argument(
        "--seed",
        type=int,
        default=1,
        help="which games are held out to measure the fit (default 1)",
    )
    fit.add_argument("--lab", type=Path, default=LAB, help="lab folder (default lab-out)")
    fit.add_argument(
        "--out", type=Path, help="model file (default: the package's bots/tonk/drop_model.json)"
    )
    fit.add_argument(
        "--update",
        action="store_true",
        help="keep the model file's models of "
        "presets the study does not play (e.g. add pagat's from a pagat study)",
    )
    fit.set_defaults(run=run_fit_drop_model)

    scale = sub.add_parser("scale", help="measure games/s on one core, all cores and Ray")
    scale.add_argument("--study", action="append", choices=sorted(STUDIES))
    scale.add_argument("--games", type=int, help="games per measurement")
    scale.add_argument("--workers", type=int, help="processes for the parallel runs")
    scale.add_argument("--ray", metavar="ADDRESS", help="also time Ray (an address or 'local')")
    scale.add_argument("--lab", type=Path, default=LAB, help="lab folder (default lab-out)")
    scale.set_defaults(run=run_scale)


def run_list(args: argparse.Namespace) -> int:
    for study in STUDIES.values():
        sizes = ", ".join(f"{k} {study.size_games(k):,}" for k in study.sizes)
        each = (
            f"; {', '.join(f'{k} {v:,}' for k, v in study.sizes.items())} passes through "
            f"{len(study.variant_names())} variants"
            if study.passes
            else ""
        )
        print(f"{study.name:16} {study.title} ({sizes} games{each})\n{'':16} {study.summary}")
    return 0


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What ``tavern lab run`` does: the study's config (saved in its folder), the games this run
    may play (``up_to``: below that index only) and what to tell the user about the size."""

    config: StudyConfig
    up_to: int | None = None
    note: str = ""


def config_from_args(args: argparse.Namespace, folder: Path) -> StudyConfig:
    """The study's config: what the folder saved (when resuming) or the defaults, changed by the
    options given on the command line."""
    return plan_from_args(args, folder).config


def plan_from_args(args: argparse.Namespace, folder: Path) -> RunPlan:
    """The run's plan (``RunPlan``). A study keeps the size it was run with: a larger --games or
    --size grows it, a smaller one limits this run only unless --shrink says otherwise."""
    study = get_study(args.study)
    saved = folder / "study.json"
    resuming = saved.exists() and not args.fresh
    base = StudyStore.read(folder)[0] if resuming else study.config(args.size or "small")
    variants = tuple(dict.fromkeys(args.variant)) if args.variant else base.variants
    asked = (
        args.games
        if args.games is not None
        else (study.size_games(args.size, variants) if args.size else None)
    )
    changes: dict[str, Any] = {}
    up_to: int | None = None
    note = ""
    if asked is not None and asked != base.games:
        if not resuming or asked > base.games or getattr(args, "shrink", False):
            changes["games"] = asked
            if resuming:
                note = f"the study's size changes from {base.games:,} to {asked:,} games"
        else:
            up_to = asked
            note = (
                f"the study keeps its size of {base.games:,} games (its report uses them "
                f"all); this run plays only games below {asked:,} (--shrink makes "
                f"{asked:,} the study's size)"
            )
    if args.seed is not None:
        changes["seed"] = args.seed
    if args.preset:
        changes["presets"] = tuple(dict.fromkeys(args.preset))
    if args.players:
        changes["players"] = parse_players(args.players)
    if args.bots:
        changes["bots"] = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if args.option:
        # Given options change the study's (or the saved) ones; NAME=null resets one to none.
        changes["options"] = {**base.options, **parse_options(args.option)}
    if args.variant:
        changes["variants"] = variants
    if args.records is not None:
        changes["records"] = True
    config = StudyConfig.from_json(
        {
            **base.to_json(),
            **{k: list(v) if isinstance(v, tuple) else v for k, v in changes.items()},
        }
    )
    check_config(config)
    if up_to is not None and up_to < 0:
        raise LabError("--games must be 0 or more")
    return RunPlan(config, up_to, note)


def check_config(config: StudyConfig) -> None:
    """LabError for a config the study cannot play, before any worker starts."""
    study = get_study(config.study)
    if config.games < 0:
        raise LabError("--games must be 0 or more")
    if not config.presets or not config.players or not config.bots:
        raise LabError("a study needs at least one preset, player count and bot")
    games = study.games()
    for preset in config.presets:
        if preset not in games:
            raise LabError(f"{config.study} plays {', '.join(games)}, not {preset!r}")
        game = get_game(preset)
        rules = game.rules(config.options)
        for n in config.players:
            game.check_players(rules, n)
        if study.takes_bots:
            for name in config.bots:
                make_bot(name, preset)
    if study.check is not None:
        from taverntable.lab.core.studies import load

        load(study.check)(config)
    elif config.variants:
        raise LabError(f"{config.study} has no variants")
    if config.records and not study.keeps_records:
        raise LabError(f"{config.study} plays no whole games: it keeps no records")


def run_study_command(args: argparse.Namespace) -> int:
    from taverntable.lab.core.execute import run_study

    folder = args.out or args.lab / args.study
    try:
        plan = plan_from_args(args, folder)
        config = plan.config
        if args.workers is not None and args.workers < 1:
            raise LabError("--workers must be 1 or more")
        print(config.describe())
        if plan.note:
            print(f"Note: {plan.note}.")
        summary = run_study(
            config,
            folder,
            workers=args.workers,
            ray=args.ray,
            fresh=args.fresh,
            progress=not args.quiet,
            up_to=plan.up_to,
        )
    except TavernError as e:
        print(f"tavern lab run: {e}", file=sys.stderr)
        return 2
    print(
        f"{summary.games_run} games played ({summary.games_done}/{summary.games_total} done) "
        f"in {summary.seconds:.1f} s, {summary.games_per_s:.1f} games/s "
        f"({summary.backend}, {summary.workers} worker{'s' if summary.workers != 1 else ''}); "
        f"results in {folder}"
    )
    return 0


def run_report(args: argparse.Namespace) -> int:
    from rich.console import Console

    from taverntable.lab.report.build import build_report, progress_bar

    try:
        with progress_bar(Console(stderr=True)) as progress:
            path = build_report(args.lab, args.out or args.lab / "report", args.studies, progress)
    except TavernError as e:
        print(f"tavern lab report: {e}", file=sys.stderr)
        return 2
    print(f"report: {path}")
    return 0


def run_scale(args: argparse.Namespace) -> int:
    from taverntable.lab.report.scaling import DEFAULT_GAMES, measure

    try:
        entries = measure(
            args.lab,
            args.study or tuple(DEFAULT_GAMES),
            games=args.games,
            workers=args.workers,
            ray=args.ray,
        )
    except TavernError as e:
        print(f"tavern lab scale: {e}", file=sys.stderr)
        return 2
    for entry in entries:
        print(
            f"{entry['study']:16} {entry['setup']:20} {entry['games_per_s']:>10.1f} games/s "
            f"({entry['games_run']} games, {entry['seconds']:.1f} s, "
            f"same rows: {entry['same_rows']})"
        )
    return 0


def run_fit_drop_model(args: argparse.Namespace) -> int:
    """Fit the drop model on a drop-model study folder and write the model file."""
    import json

    from taverntable.bots.tonk import drop_model
    from taverntable.lab.studies.drop_fit import fit_models

    folder = args.study_folder or args.lab / "drop-model"
    out = args.out or Path(drop_model.__file__).with_name(drop_model.MODEL_FILE)
    try:
        if not (folder / "study.json").exists():
            raise LabError(f"no study in {folder}; run `tavern lab run drop-model` first")
        config, _, rows = StudyStore.read(folder)
        keep = None
        if args.update and out.exists():
            keep = json.loads(out.read_text(encoding="utf-8"))
        document = fit_models(config, rows, args.seed, keep)
        out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except (TavernError, OSError, ValueError) as e:  # ValueError: a model file not JSON
        print(f"tavern lab fit-drop-model: {e}", file=sys.stderr)
        return 2
    for preset in config.presets:
        m = document["trained"]["measures"].get(preset, {})
        if "examples" not in m:
            continue
        print(
            f"{preset}: {m['examples']:,} examples ({m['decisions']:,} decisions) fitted; held "
            f"out {m['held_out_examples']:,}: caught {m['held_out_caught_rate']:.3f}, "
            f"predicted {m['held_out_mean_predicted']:.3f}, log loss "
            f"{m['held_out_log_loss']:.4f} (base rate {m['held_out_log_loss_base_rate']:.4f})"
        )
    print(f"model: {out}")
    return 0
