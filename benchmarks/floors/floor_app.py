"""The floor for bench_latency.py: the cheapest app with a slider, so its latency is Streamlit's own overhead."""

import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=50)
st.write(f"Value: {value}")
