"""The floor app with the one thing app.py does to Streamlit's own cost: its long-lived objects frozen (see
ui/heap.py), so the full garbage collection Streamlit runs after every run skips them. Compared with this floor,
a page's ratio shows only what the page itself costs:
`bench_latency.py --floor-app benchmarks/floors/floor_app_frozen.py`.
"""

import gc

import streamlit as st


@st.cache_resource  # once per process, and a cheap check on every later run
def freeze_once() -> bool:
    gc.collect()
    gc.freeze()
    return True


freeze_once()
value = st.slider("Value", min_value=0, max_value=100, value=50)
st.write(f"Value: {value}")
