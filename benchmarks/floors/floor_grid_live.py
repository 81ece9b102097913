"""floor_grid.py drawn by benchmarks/floors/live_chart.py, a chart kept mounted, instead of `st.plotly_chart`.
Measurement only; run with STREAMLIT_SERVER_ENABLE_STATIC_SERVING=true."""

import streamlit as st
from grid_sample import sample_grid
from live_chart import live_chart

value = st.slider("Value", min_value=0, max_value=100, value=50)
live_chart(sample_grid(value), key="chart")
