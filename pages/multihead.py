"""Multi-head attention: h heads side by side, what each one does (measured), W_O, the residual, one big head."""

import streamlit as st

from ui import questions, shell
from ui.i18n import t
from ui.layout import page_header
from ui.sections import multihead as mh

shell.page("multihead")
page_header("mh.title", "mh.lead")
st.header(t("mh.source.title"))
source = mh.source_ui()


@st.fragment
def heads_onward_ui(source: mh.Source) -> None:
    """Everything that depends on h and the preset: changing them reruns this part only, not the input above, and
    draws only the open tab."""
    st.header(t("mh.h.title"))
    h, preset, seed = mh.heads_controls_ui(source)
    heads = mh.build_heads(source, h, preset, seed)
    result = mh.run_or_stop(source, heads)
    view = mh.question_view(source, result)
    if not questions.gate_ui("multihead.sizes", view):
        return  # the heads' widths and everything after them wait for a prediction
    mh.cost_ui(source, h)
    part, tab = mh.part_ui()
    with tab:
        if part != "compare" and not questions.gate_ui(f"multihead.{part}", view):
            pass  # the part waits for a prediction
        elif part == "heads":
            mh.heads_ui(source, heads, result)
            mh.head_detail_ui(source, heads, result)
        elif part == "concat":
            mh.concat_ui(source, result)
        elif part == "residual":
            mh.residual_ui(source, result, mh.single_head(source, heads))
        else:
            mh.compare_ui(source, heads, result, seed)


heads_onward_ui(source)
mh.summary_ui()
