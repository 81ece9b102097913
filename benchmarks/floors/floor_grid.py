"""One slider and the app's four-panel figure (grid_sample.py) following it, through `st.plotly_chart` as the app
shows it: what the multi-head page pays to redraw its heads' figure."""

import streamlit as st
from grid_sample import sample_grid

value = st.slider("Value", min_value=0, max_value=100, value=50)
st.plotly_chart(sample_grid(value), theme="streamlit", width="content", key="chart")
