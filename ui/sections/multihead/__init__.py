"""The multi-head page's sections, one module per part: the input, h and the preset and what they cost
(`inputs`), h heads side by side and what each one measurably does, one cell of one head derived (`heads`), the
concatenation and W_O (`concat`), the residual and layer norm (`residual`), and one big head against h small ones
(`compare`). What the page decides is the view-model's, `ui.view_models.multihead`; `common` holds what the parts
share (the choices kept in the session, head names, the heads' panels, what a head does in words, the summary).
"""
