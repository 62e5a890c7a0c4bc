"""Study ``drop-model``, the analysis: how well the shipped drop model's probabilities match.

Reliability (calibration) of the model shipped in the package (``bots/tonk/drop_model.json``) on
the study's decisions, by bin of predicted probability: per other player (is the drop caught by
them?) and per decision (is the drop clean, the players taken as independent?). On the games of
the study the model was fitted on, the figures are in-sample; run the study with another
``--seed`` for an honest measure (the intro says which).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from taverntable.bots.tonk.drop_model import DropModel, shipped_models
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.stats import mean_ci95, wilson
from taverntable.lab.core.store import Row
from taverntable.lab.studies.drop_fit import BINS, examples, reliability

from . import plots
from .tables import Cell, Section, Table

COLUMNS = (
    "preset",
    "bin",
    "bin_low",
    "bin_high",
    "mean_predicted",
    "observed",
    "ci_low",
    "ci_high",
    "examples",
)


def reliability_rows(
    preset: str, probs: Sequence[float], observed: Sequence[int]
) -> list[tuple[Cell, ...]]:
    out: list[tuple[Cell, ...]] = []
    for b, low, mean, n, hits in reliability(probs, observed):
        lo, hi = wilson(hits, n)
        out.append(
            (
                preset,
                b,
                round(low, 4),
                round(low + 1 / BINS, 4),
                round(mean, 4),
                round(hits / n, 4),
                round(lo, 4),
                round(hi, 4),
                n,
            )
        )
    return out


def analyse(config: StudyConfig, rows: Sequence[tuple[int, Row]]) -> Section:
    """The section of the report for ``drop-model``."""
    section = Section("Would an opponent catch my drop? The drop model's calibration")
    try:
        models = shipped_models()
    except (OSError, ValueError) as e:
        section.intro.append(
            f"No drop model shipped in the package ({e}); `tavern lab fit-drop-model` fits one."
        )
        return section
    data = examples(rows)
    catch_rows: list[tuple[Cell, ...]] = []
    clean_rows: list[tuple[Cell, ...]] = []
    gain_rows: list[tuple[Cell, ...]] = []
    for preset, ex in sorted(data.items()):
        model: DropModel | None = models.get(preset)
        if model is None:
            section.intro.append(f"{preset}: no model shipped for this preset.")
            continue
        probs = [model.probability(f) for f in ex.features]
        catch_rows += reliability_rows(preset, probs, ex.caught)
        clean_p: dict[int, float] = {}
        caught_any: dict[int, int] = {}
        expected: dict[int, float] = {}
        for p, c, d in zip(probs, ex.caught, ex.decision, strict=True):
            clean_p[d] = clean_p.get(d, 1.0) * (1 - p)
            caught_any[d] = caught_any.get(d, 0) | c
            expected[d] = expected.get(d, 0.0) - 2 * p
        ids = sorted(clean_p)
        clean_rows += reliability_rows(
            preset, [clean_p[d] for d in ids], [1 - caught_any[d] for d in ids]
        )
        others = Counter(ex.decision)  # the other players at each decision
        chosen = [d for d in ids if others[d] * clean_p[d] + expected[d] > 0]
        real = [float(ex.net[d]) for d in chosen]
        predicted = [others[d] * clean_p[d] + expected[d] for d in chosen]
        mean, lo, hi = mean_ci95(real)
        gain_rows.append(
            (
                preset,
                len(ids),
                len(chosen),
                round(math.fsum(predicted) / len(chosen), 4) if chosen else None,
                round(mean, 4) if chosen else None,
                round(lo, 4) if len(chosen) > 1 else None,
                round(hi, 4) if len(chosen) > 1 else None,
            )
        )
    catch = Table(
        "drop-model-catch",
        "Per other player: predicted chance to catch the drop "
        "against the share that did (T6: total at most the dropper's)",
        COLUMNS,
        catch_rows,
        note="Bins of equal width in predicted probability; ci: 95% "
        "Wilson interval of the observed share.",
    )
    clean = Table(
        "drop-model-clean",
        "Per decision: predicted chance of a clean drop (nobody "
        "catches it; players taken as independent) against the share that was clean",
        COLUMNS,
        clean_rows,
        note="As above, per decision.",
    )
    gains = Table(
        "drop-model-gain",
        "The drops the model would make (expected gain above 0): "
        "predicted gain against the real result of dropping there, stakes",
        (
            "preset",
            "decisions",
            "model_drops",
            "mean_predicted_gain",
            "mean_real_gain",
            "ci_low",
            "ci_high",
        ),
        gain_rows,
        note="ci: 95% interval of the mean real gain (Student's t).",
    )
    section.tables += [catch, clean, gains]
    fits = shipped_trained().get("measures", {})
    for preset in sorted(data):
        fit = fits.get(preset) if isinstance(fits, dict) else None
        if preset not in models or not isinstance(fit, dict):
            continue
        same = fit.get("study_seed") == config.seed
        section.intro.append(
            f"The shipped {preset} model was fitted on "
            + str(fit.get("study", "an unknown study"))
            + f" (split seed {fit.get('split_seed')}). "
            + (
                "This study has the same seed: its games include the fit's, so these figures are "
                "in-sample (the held-out games' measures are in drop_model.json)."
                if same
                else "This study has another seed: the figures measure the model on games it never "
                "saw."
            )
        )
    for name, table, what in (
        ("catch", catch, "a player catches the drop"),
        ("clean", clean, "the drop is clean"),
    ):
        if table.rows:
            section.figures.append(
                plots.lines(
                    f"drop-model-{name}",
                    f"Is the drop model calibrated? Predicted chance that "
                    f"{what} against how often it happened",
                    table,
                    "mean_predicted",
                    "observed",
                    group="preset",
                    drawn="observed share",
                    band=("ci_low", "ci_high"),
                    extra=("mean_predicted", "perfect calibration (observed = predicted)"),
                    xlabel="predicted probability (mean of the bin)",
                    ylabel="observed share",
                )
            )
    return section


def shipped_trained() -> dict[str, object]:
    """The ``trained`` block of the shipped file (what it was fitted on)."""
    import json
    from importlib import resources

    from taverntable.bots.tonk import drop_model

    text = (
        resources.files(drop_model.__package__)
        .joinpath(drop_model.MODEL_FILE)
        .read_text(encoding="utf-8")
    )
    trained: dict[str, object] = json.loads(text).get("trained", {})
    return trained
