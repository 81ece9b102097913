"""English strings: multi-head attention, W_O and the residual connection."""

STRINGS: dict[str, str] = {
    "mh.title": "Several heads: multi-head attention, W_O and the residual",
    "mh.lead": (
        "A **head** is one complete attention, with its own W_Q, W_K and W_V and its own softmax. Multi-head "
        "attention runs several in parallel, each on a slice of the columns, puts together what each one found, "
        "projects it with W_O and adds it to x. Here you see every step in numbers, and what each head does, "
        "measured on its weights."
    ),
    "mh.from_walk": "What comes next: several heads, W_O and the residual connection",
    # the input
    "mh.source.title": "1. The input",
    "mh.source": "Which tokens go in",
    "mh.source.scenario": "The shared scenario (the step-by-step's and the builder's)",
    "mh.source.sentence": "The sentence “el perro come carne porque tiene hambre” (d_model = 8)",
    "mh.source.options.one": (
        "1 token, d_model = {d_model}. Every head uses the shared scenario's options: divide by {scale}, "
        "{mask}, temperature {temperature} (change them in the builder)."
    ),
    "mh.source.options.other": (
        "{n} tokens, d_model = {d_model}. Every head uses the shared scenario's options: divide by {scale}, "
        "{mask}, temperature {temperature} (change them in the builder)."
    ),
    "mh.mask.on": "with the causal mask",
    "mh.mask.off": "no mask",
    "mh.source.x": "The input vectors x {shape}",
    # how many heads
    "mh.h.title": "2. How many heads?",
    "mh.h": "Heads (h)",
    "mh.h_help": "h has to divide d_model = {d_model}, so that every head gets the same number of columns.",
    "mh.preset": "The heads' matrices",
    "mh.preset.designed": "Designed: one job per head",
    "mh.preset.random": "Random, from a seed",
    "mh.preset.scenario": "Head 1 = the scenario's W, the others random",
    "mh.seed": "Seed",
    "mh.h.sizes": (
        "With h = {h} and d_model = {d_model}, each head works with **d_k = d_v = {d_model} / {h} = {d_k}** "
        "columns: its W_Q, W_K and W_V are {d_model} × {d_k}."
    ),
    "mh.cost.body": (
        "Do more heads cost more? No: the h heads' W, side by side, are exactly as big as those of one big head "
        "with d_k = d_model. Each head computes n² scores of d_model / h products:"
    ),
    "mh.cost.col.what": "count",
    "mh.cost.col.one": "1 head, d_k = {d_k}",
    "mh.cost.col.many": "{h} heads, d_k = {d_k}",
    "mh.cost.projections": "multiplications in x·W_Q, x·W_K, x·W_V",
    "mh.cost.scores": "multiplications in the scores Q·Kᵀ",
    "mh.cost.weighted_sums": "multiplications in the weighted sums",
    "mh.cost.output_projection": "multiplications in Concat · W_O",
    "mh.cost.multiply_adds": "multiplications in all",
    "mh.cost.exponentials": "softmax exponentials",
    "mh.cost.parameters": "numbers in W_Q, W_K, W_V and W_O",
    "mh.cost.reading.one": (
        "With h = 1 the one head is the single head, d_k = {d_k} = d_model = {d_model}: {n2} scores of {d_k} "
        "products, {n2} × {d_k} = {scores} multiplications, and {one_exp} exponentials ({many_exp} with h = 1)."
    ),
    "mh.cost.reading.other": (
        "The {n} heads compute {n2} scores each, of {d_k} products: {n} × {n2} × {d_k} = {scores} "
        "multiplications, the same as the {n2} scores of {d_model} products of a single head "
        "({n2} × {d_model} = {scores}). The only thing that grows with h is the softmax: {one_exp} exponentials "
        "with one head, {many_exp} with {n}, little next to the multiplications."
    ),
    "mh.refused.count": (
        "There are no designed heads for h = {h} on this input: each head needs at least two columns. There "
        "are for h = {supported}."
    ),
    "mh.refused.sentence": (
        "The designed heads need “{subject}” and one of the verbs {verbs} among the tokens (one of them takes "
        "the verbs to their subject)."
    ),
    "mh.refused.rank.one": (
        "The designed heads need between 2 and d_model tokens whose vectors are linearly independent (here there "
        "are 1 token and d_model = {d_model}): only then can x·W give any Q and K one chooses."
    ),
    "mh.refused.rank.other": (
        "The designed heads need between 2 and d_model tokens whose vectors are linearly independent (here there "
        "are {n} tokens and d_model = {d_model}): only then can x·W give any Q and K one chooses."
    ),
    "mh.refused.instead": "Below are random heads (seed 0); try the lesson's sentence.",
    "mh.error": "With these numbers the computation cannot be done ({code}): try smaller values.",
    # the heads side by side
    "mh.part.heads": "3. The heads",
    "mh.part.concat": "4. Concat and W_O",
    "mh.part.residual": "5. The residual",
    "mh.part.compare": "6. One big head or h small ones",
    "mh.heads.body": (
        "Each head computes its own scores, its own softmax and its own weighted sum, exactly as in the step by "
        "step. These are their weights, all on the same 0-to-1 scale: row = who asks, column = whom it looks at."
    ),
    "mh.heads.figure": "Each head's weights",
    "mh.heads.caption": "Hover over a cell: its score, the division and the weight.",
    "mh.head": "head {k}",
    "mh.measured.title": "What each head does, measured",
    "mh.measured.body": "Read off the weights, not declared: which token each row gives the most weight to, the **entropy** of each row (0 = all the weight on one token; ln {n} = {max_entropy} = spread evenly over the {n}), and how each head spreads, by the √d_k experiment's rule: “saturated” if the mean largest weight exceeds {sat}, “flat” if the effective tokens exceed {flat} of n, otherwise “balanced” (rows the mask leaves a single token are not counted).",
    "mh.measured.col.head": "head",
    "mh.measured.col.built": "built to",
    "mh.measured.col.rows": "rows that do it",
    "mh.measured.col.does": "what it does (measured)",
    "mh.measured.col.entropy": "mean entropy",
    "mh.measured.col.peak": "how it spreads (mean largest weight)",
    "mh.measured.peak": "{word} ({weight})",
    "mh.measured.rows": "{hits} of {n}",
    "mh.top.col.token": "token",
    "mh.top.cell": "{token} · {weight}",
    "mh.top.even": "spreads ({weight} each)",
    "mh.top.forced": "only {token}: the mask's doing",
    "mh.top.caption": (
        "Each cell: the token that row gives the most weight to, and how much. A row “looks at” a token when it "
        "gives it at least {focus} of its weight; below that, the row spreads."
    ),
    "mh.job.previous": "each token looks at the one before (the first at itself)",
    "mh.job.self": "each token looks at itself",
    "mh.job.previous.masked": "each token looks at the one before; the first has none, and the mask leaves it only itself",
    "mh.job.self.masked": "each token looks at itself; for the first the mask imposes it, leaving it only itself",
    "mh.job.one_token": "all look at “{token}”",
    "mh.job.spread": "no row focuses: every row spreads its weight",
    "mh.job.look": "“{q}” → “{k}” ({weight})",
    "mh.job.mixed": "each row focuses on one token: {looks}",
    "mh.job.mixed_rest": "{looks}; the other rows spread their weight",
    "mh.quoted": "“{token}”",
    "mh.and": " and ",
    "mh.or": " or ",
    "mh.built.previous": "look at the previous token",
    "mh.built.subject": "take {verbs} to the subject “{subject}”",
    "mh.built.self": "look at itself",
    "mh.built.first": "look at the first token",
    "mh.construction.title": "How the designed heads were built",
    "mh.construction.body": (
        "Nobody typed these numbers: for each head, first the queries Q* and keys K* its job needs are chosen "
        "(in its d_k columns), then the matrices are solved for.\n\n"
        "- **Look at the previous token** and **look at itself**: the tokens are placed on a circle, an angle "
        "ω = 2π/n apart. The key of token j points at angle ωj; the query of token i at the angle of its target "
        "(i − 1, or i). So q_i · k_j is largest exactly at the target.\n"
        "- **The subject**: only the verbs have a query (in the direction e₁) and only “perro” has a key in that "
        "direction; the other queries are 0, so those rows spread evenly.\n"
        "- **The first token**: every query points at e₁ and only the first token's key does too.\n"
        "- Then W_Q = x⁺ · Q* and W_K = x⁺ · K*, with x⁺ the pseudo-inverse of x. When the rows of x are "
        "linearly independent, x · x⁺ = I and x · W_Q gives exactly the chosen queries (hence at most d_model "
        "tokens: 7 tokens, d_model = 8).\n"
        "- The sharpness c scales queries and keys just enough that, dividing by √d_k at T = 1, the target token "
        "gets at least {top} of its row's weight.\n"
        "- W_V is the identity split into heads: each head passes on its own d_k columns of x."
    ),
    "mh.construction.sharpness": "Each head's sharpness on this input: {values}.",
    # one head in detail
    "mh.detail.title": "One head up close",
    "mh.detail.head": "Head",
    "mh.detail.qkv": "W_Q, W_K, W_V and Q, K, V of {head}",
    "mh.detail.cell": "The arithmetic of one cell of {head}: how much “{q}” looks at “{k}”.",
    "mh.detail.masked": "The causal mask covers this cell: “{q}” cannot look at “{k}”, which comes later. Its weight is 0.",
    "mh.detail.row": "The softmax of the whole row of “{q}” in {head}:",
    "mh.detail.weight": "In {head}, “{q}” gives “{k}” a weight of **{weight}**.",
    # concat and W_O
    "mh.concat.body": (
        "Each head returns an n × d_v output. They are placed side by side (the concatenation) and one more "
        "matrix, **W_O**, mixes what each head brought and takes it back to d_model columns, the size of x."
    ),
    "mh.concat.shapes": "Concat {concat} · W_O {w_o} = MultiHead(x) {out}",
    "mh.col": "h{k}·d{j}",
    "mh.concat.figure": "Concat(head 1, …, head h) {shape}",
    "mh.output.figure": "MultiHead(x) = Concat · W_O {shape}",
    "mh.w_o.body": (
        "W_O has one row per column of the concatenation and d_model columns. A trained model learns it; here "
        "you can pick one that mixes nothing (1 on the diagonal) or a random one, and edit its cells."
    ),
    "mh.w_o.kind": "W_O",
    "mh.w_o.kind.identity": "Identity: mixes nothing",
    "mh.w_o.kind.random": "Random, from a seed",
    "mh.w_o.edit": "Edit W_O {shape}",
    "mh.w_o.identity_reading": (
        "With this W_O, MultiHead(x) is the concatenation as it is: each head's block of columns is what that "
        "head gathered."
    ),
    # the residual
    "mh.residual.body": (
        "The output does not replace x: **it is added to it**. Each token keeps its own vector and attention "
        "adds what it gathered from the others. That is why W_O returns d_model columns: so it can be added to x."
    ),
    "mh.output.short": "MultiHead(x)",
    "mh.residual.short": "x + MultiHead(x)",
    "mh.ln.toggle": "Apply layer norm after the residual",
    "mh.ln.help": "Transformers normalise each row after the sum: mean 0 and variance 1.",
    "mh.ln.body": (
        "Layer norm takes each row r of x + MultiHead(x) (its {d_model} numbers), subtracts its mean μ and "
        "divides by its standard deviation, with an ε = {eps} that avoids dividing by 0. This version has none "
        "of the gain and bias a model learns."
    ),
    "mh.ln.figure": "LayerNorm(x + MultiHead(x)) {shape}",
    "mh.cos.title": "How different do the tokens end up?",
    "mh.cos.body.collapsed": (
        "The step by step ended with a warning: with one head, the tokens' outputs were almost the same vector "
        "(the cosine between any two is at least {cosine}). The cosine between two rows measures it: "
        "1 = same direction, 0 = nothing in common."
    ),
    "mh.cos.body.plain": (
        "How alike are the tokens' rows at each stage? The cosine between two rows measures it: "
        "1 = same direction, 0 = nothing in common."
    ),
    "mh.cos.one_token": "With a single token there are no pairs to compare.",
    "mh.cos.figure": "Cosine between the tokens' rows",
    "mh.cos.x": "x",
    "mh.cos.single.walk": "one head (the step-by-step's)",
    "mh.cos.single.merged": "one head with all the heads' W together",
    "mh.cos.single.short": "1 head",
    "mh.cos.norm.short": "LayerNorm(…)",
    "mh.cos.multi": "MultiHead(x)",
    "mh.cos.residual": "x + MultiHead(x)",
    "mh.cos.norm": "LayerNorm(x + MultiHead(x))",
    "mh.cos.col.stage": "rows of",
    "mh.cos.col.mean": "mean cosine between pairs",
    "mh.cos.col.lowest": "lowest cosine",
    "mh.cos.reading.one": (
        "Mean cosine between the tokens: {single} with {single_name}, {multi} with the one head, "
        "{residual} in x + MultiHead(x) and {x} in x alone."
    ),
    "mh.cos.reading.other": (
        "Mean cosine between the tokens: {single} with {single_name}, {multi} with the {n} heads, "
        "{residual} in x + MultiHead(x) and {x} in x alone."
    ),
    "mh.cos.many_name.one": "the only head",
    "mh.cos.many_name.other": "the {n} heads",
    "mh.distinct.many": "With {many_name} the rows end up more distinct than with {one_name}: mean cosine {many} against {one}.",
    "mh.distinct.one": "With {one_name} the rows end up more distinct than with {many_name}: mean cosine {one} against {many}.",
    "mh.distinct.same": "With {one_name} and with {many_name} the rows end up equally alike: mean cosine {one}.",
    "mh.distinct.peaks": "What separates the rows is weights that pick: mean largest weight {one_peak} ({one_word}) with {one_name}, {many_peak} ({many_word}) with {many_name}.",
    "mh.distinct.agree": "Here the one that picks more is also the one that leaves the rows more distinct.",
    "mh.distinct.disagree": "Here they do not agree: the one that picks more is not the one that leaves the rows more distinct, because how far they separate also depends on which values each row mixes.",
    "mh.distinct.heads_add": "What several heads add is something else: several patterns at once, each head looking somewhere else; here, being several did not leave the rows more distinct.",
    "mh.distinct.heads_add.many": "What several heads add is something else: several patterns at once, each head looking somewhere else. Being several does not guarantee more distinct rows: what counts is how much their weights pick and which values they mix.",
    "mh.rows.body": "Row by row: what does x + MultiHead(x) resemble more, x or the attention's output? The sum's cosine with each measures it; the length (‖·‖) of each explains it.",
    "mh.rows.col.to_x": "cos(sum, x)",
    "mh.rows.col.to_output": "cos(sum, MultiHead(x))",
    "mh.rows.col.closer": "resembles more",
    "mh.rows.x": "x",
    "mh.rows.output": "MultiHead(x)",
    "mh.rows.tie": "both equally",
    "mh.rows.all_x.one": "In the only row, x + MultiHead(x) resembles x more than the attention's output.",
    "mh.rows.all_x.other": "In all {n} rows, x + MultiHead(x) resembles x more than the attention's output: each token keeps mostly its own.",
    "mh.rows.all_output.one": "In the only row, x + MultiHead(x) resembles the attention's output more than x.",
    "mh.rows.all_output.other": "In all {n} rows, x + MultiHead(x) resembles the attention's output more than x: what attention brought weighs more in the sum.",
    "mh.rows.mixed": "In {to_x} of the {n} rows ({x_tokens}) x + MultiHead(x) resembles x more; in {to_output} ({out_tokens}), the attention's output.",
    "mh.rows.why": "In a sum of two vectors, the sum points more toward the longer one: in each row the one with the larger ‖·‖ wins.",
    # one big head against h small ones
    "mh.compare.one": "With h = 1 both are the same head: choose more heads to compare them.",
    "mh.compare.body": (
        "The same numbers, used two ways: the h heads' W placed side by side form the W of a single head with "
        "d_k = d_model. That big head's score is the sum of the small heads' scores:"
    ),
    "mh.compare.random": "(These heads' W do not form d_model × d_model matrices: random W from the chosen seed are compared instead.)",
    "mh.compare.one_head": "1 head",
    "mh.compare.one_name": "the big head",
    "mh.compare.many_name": "the {h} small ones",
    "mh.compare.col.heads": "heads",
    "mh.compare.col.entropy": "mean entropy of the weights",
    "mh.compare.col.cosine": "mean cosine of MultiHead(x)",
    "mh.compare.does": "The big head, measured: {does}.",
    "mh.compare.reading": (
        "The cost is the same. The difference is the softmax: the big head divides the sum of the {h} scores by "
        "{one_divisor} and takes one softmax per row; the small ones each divide by {many_divisor} and take "
        "their own, so each can look somewhere else."
    ),
    "mh.compare.spreads": (
        "One row of weights has to please them all: the big head spreads more (mean entropy {one} against "
        "{many} for the small ones)."
    ),
    "mh.compare.sharper": (
        "With these numbers the big head focuses more than the small ones (mean entropy {one} against {many}), "
        "but on one place per row."
    ),
    "mh.summary": (
        "**To take away**\n\n"
        "- A **head** is one complete attention with its own W_Q, W_K and W_V: its own softmax decides whom "
        "each token looks at.\n"
        "- **Several heads** look at different things at once (the previous token, the subject, itself); a "
        "single one would have to average them in one softmax. And they cost what one big head costs: d_model "
        "is split in h.\n"
        "- **W_O** mixes what each head gathered and brings it back to the size of x.\n"
        "- **The residual connection** adds that to x: each token keeps its own and attention adds context, "
        "instead of replacing it."
    ),
}
