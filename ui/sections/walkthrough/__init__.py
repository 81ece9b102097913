"""The walkthrough's five parts, each drawn from the shared scenario, one module per part: Q, K, V
(`projections`), the scores (`scores`), dividing them (`dividing`), softmax (`softmax`) and the weighted sum
(`weighted_sum`); `navigation` steps through them (the buttons, the picker, the URL's ?step=, the presenter's
keys), `handout` offers the printable handout of all five, and `common` holds what the parts share (the tokens
derived, their order on a projector, how wide a derivation may be).

Every heading and sentence says what is actually computed with the scenario's options (divisor, temperature,
causal mask); every number is the engine's, every derivation the engine's written arithmetic. What a part reads
off the numbers, and how wide a derivation may be, is the view-model's (`ui.view_models.walkthrough`).
"""
