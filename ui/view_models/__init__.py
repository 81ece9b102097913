"""The pages' view-models: what a page shows and decides, as frozen dataclasses and pure functions over them.

No Streamlit, no session state and no strings here (a test checks the import graph): a page's `*_ui` functions
in `ui/sections/` read the session and the widgets, call these, and say the result in the reader's language. A
verdict ("the run converged", "the outputs collapsed") is computed here, as a name the strings are keyed by, so
that it can be tested without a page and a text changed without touching the logic.
"""
