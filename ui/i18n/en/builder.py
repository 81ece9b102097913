"""English strings: the Q/K/V builder."""

STRINGS: dict[str, str] = {
    "builder.title": "Q/K/V builder",
    "builder.lead": "Your own test case: edit the tokens and their x vectors, the W_Q, W_K and W_V matrices, and the options. Every heatmap is recomputed at once, and “Step by step” uses these same numbers.",
    "builder.edit": "Edit the scenario",
    "builder.x": "Tokens and x vectors (add, delete and rename rows)",
    "builder.weights": "Weight matrices (rows: dimensions of x; columns: output dimensions)",
    "builder.options": "Options",
    "builder.projections": "Q, K and V",
    "builder.attention": "Scores, scaling and weights",
    "builder.output": "Output",
    "builder.cell": "One cell, end to end",
    "builder.cell.masked": "The causal mask stops “{q}” from looking at “{k}”, which comes later: its weight is 0.",
    "builder.cell.weight": "Attention weight from “{q}” to “{k}”: {weight} ({percent}) of its row.",
    "builder.learned.title": "What is learned?",
    "builder.learned.body": "In a trained Transformer, x comes from the earlier steps of the series (embedding and position) and what gets adjusted is W_Q, W_K and W_V (together with the embeddings). Learning W_Q and W_K is learning **what each word asks and what each word advertises**, so that useful pairs (a verb and its subject, a pronoun and what it stands for) get high scores. Learning W_V is learning **what information is worth passing on** when someone attends to you. The divisor, the mask and softmax are not learned: they are the fixed part of the recipe.",
    "builder.cell.row": "The whole row of “{q}” through softmax:",
}
