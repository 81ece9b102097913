"""Streamlit and plotly helpers shared by the pages: strings, state, heatmaps, editors, derivations."""
