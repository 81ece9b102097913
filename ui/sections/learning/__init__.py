"""The learning page's sections, one module per tab: a target attention pattern (`target`), W_Q and W_K trained
toward it live (`train`), what changed inside them (`inside`), what the runs teach about dividing (`stall`) and the
learned weights sent to the shared scenario, so the walkthrough derives the learned attention (`send`); `tabs`
shows one of them at a time. What the page decides (the run, its chunks and replay, the verdicts) is the
view-model's, `ui.view_models.learning`; `common` keeps the page's values in the session.
"""
