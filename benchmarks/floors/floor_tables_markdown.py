"""floor_tables.py's two tables, each as one markdown table (`st.markdown`), as ui.tables draws tables."""

import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=50)
for t in range(2):
    lines = ["| " + " | ".join(f"col {j}" for j in range(5)) + " |", "|" + " --: |" * 5]
    for i in range(4):
        lines.append("| " + " | ".join(f"{(value + 7 * i + 3 * j + t) % 100 / 100:.3f}" for j in range(5)) + " |")
    st.markdown("\n".join(lines))
