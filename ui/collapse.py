"""Why outputs came out (almost) one vector, said from the weights that mixed them: the walkthrough's part 5 and the
pipeline page say it the same way (engine.peakedness's words), and neither calls more heads the remedy."""

from __future__ import annotations

from ui import numbers
from ui.i18n import t
from ui.view_models.walkthrough import CollapseReading


def collapse_why(reading: CollapseReading) -> str:
    """How peaked the weights are (flat: they hardly pick; else: they pick, but almost the same), then what
    separates rows and what the residual and several heads do."""
    peak = reading.peaked
    if peak is None:
        return t("collapse.remedies")
    if peak.verdict == "flat":
        why = t(
            "collapse.flat",
            peak=numbers.fixed(peak.max_weight),
            effective=numbers.fixed(peak.effective, 2),
            n=numbers.short(peak.tokens, 2),
        )
    else:
        why = t("collapse.picks", word=t(f"peak.rows.{peak.verdict}"), peak=numbers.fixed(peak.max_weight))
    return why + " " + t("collapse.remedies")
