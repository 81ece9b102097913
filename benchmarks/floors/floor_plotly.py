"""The plotly floor for bench_latency.py: one slider and one 3×3 plotly heatmap whose values follow it, shown
with plain `st.plotly_chart(fig)` defaults: what any Streamlit app pays to redraw one small plotly figure."""

import plotly.graph_objects as go
import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=50)
z = [[(value + 7 * i + 3 * j) % 100 / 100 for j in range(3)] for i in range(3)]
fig = go.Figure(go.Heatmap(z=z, x=["a", "b", "c"], y=["a", "b", "c"], text=z, texttemplate="%{text:.2f}"))
st.plotly_chart(fig)
