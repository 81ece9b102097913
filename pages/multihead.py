"""Multi-head attention: h heads side by side, what each one does (measured), W_O, the residual, one big head."""

import streamlit as st

from ui import questions, shell
from ui.i18n import t
from ui.layout import page_header
from ui.sections import where
from ui.sections.multihead import common, compare, concat, heads, inputs, residual
from ui.view_models.multihead import Source

shell.page("multihead")
page_header("mh.title", "mh.lead")
st.header(t("mh.source.title"))
source = inputs.source_ui()


@st.fragment
def heads_onward_ui(source: Source) -> None:
    """Everything that depends on h and the preset: changing them reruns this part only, not the input above, and
    draws only the open tab."""
    st.header(t("mh.h.title"))
    h, preset, seed = inputs.heads_controls_ui(source)
    built = inputs.build_heads(source, h, preset, seed)
    result = inputs.run_or_stop(source, built)
    view = inputs.question_view(source, result)
    if not questions.gate_ui("multihead.sizes", view):
        return  # the heads' widths and everything after them wait for a prediction
    inputs.cost_ui(source, h)
    part, tab = inputs.part_ui()
    with tab:
        if part != "compare" and not questions.gate_ui(f"multihead.{part}", view):
            pass  # the part waits for a prediction
        elif part == "heads":
            heads.heads_ui(source, built, result)
            heads.head_detail_ui(source, built, result)
        elif part == "concat":
            concat.concat_ui(source, result)
        elif part == "residual":
            residual.residual_ui(source, result, residual.single_head(source, built))
        else:
            compare.compare_ui(source, built, result, seed)


heads_onward_ui(source)
where.where_ui()
common.summary_ui()
