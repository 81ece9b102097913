"""The floor app with the one thing app.py does to Streamlit's own cost: its long-lived objects frozen (see
ui/heap.py), so the full garbage collection Streamlit runs after every run skips them. Compared with this floor,
a page's ratio shows only what the page itself costs: `bench_latency.py --floor-app benchmarks/floor_app_frozen.py`.
"""

import gc

import streamlit as st

value = st.slider("Value", min_value=0, max_value=100, value=50)
st.write(f"Value: {value}")
if not gc.get_freeze_count():
    gc.collect()
    gc.freeze()
