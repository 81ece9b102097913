"""One slider and two 4×5 tables of numbers following it, as `st.table`: with floor_tables_markdown.py, what a
table costs the browser drawn by Streamlit's table element (every cell its own markdown) or as one markdown
table (what ui.tables does)."""

import pandas as pd
import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=50)
for t in range(2):
    cells = {f"col {j}": [f"{(value + 7 * i + 3 * j + t) % 100 / 100:.3f}" for i in range(4)] for j in range(5)}
    st.table(pd.DataFrame(cells), hide_index=True)
