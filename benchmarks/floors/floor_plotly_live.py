"""The plotly floor (floor_plotly.py) drawn by live_chart.py (beside it) instead of `st.plotly_chart`: what a chart
kept mounted would save. Measurement only; run with STREAMLIT_SERVER_ENABLE_STATIC_SERVING=true."""

import plotly.graph_objects as go
import streamlit as st
from live_chart import live_chart

value = st.slider("Value", min_value=0, max_value=100, value=50)
z = [[(value + 7 * i + 3 * j) % 100 / 100 for j in range(3)] for i in range(3)]
fig = go.Figure(go.Heatmap(z=z, x=["a", "b", "c"], y=["a", "b", "c"], text=z, texttemplate="%{text:.2f}"))
fig.update_layout(width=700, height=450)
live_chart(fig, key="chart")
