"""English strings: the step-by-step walkthrough."""

STRINGS: dict[str, str] = {
    "walk.title": "Step by step: “el perro come”",
    "walk.lead": (
        "Self-attention in five parts, one at a time, every sum in view (“el perro come”: *the dog eats*). "
        "Everything comes from the shared scenario: change W_Q in the builder and the arithmetic here changes "
        "with it. Every result is computed from the numbers as written on its own line, so you can redo it "
        "with a calculator; “≈” marks a rounding."
    ),
    "walk.part": "Part",
    "walk.prev": "Previous",
    "walk.next": "Next",
    "walk.progress": "Part {part} of {total}: {name}",
    "walk.inputs": "The input vectors x (embedding + position, as step 3 of the lesson leaves them)",
    "walk.code": "The code: the numpy lines the engine runs",
    "walk.name.1": "Q, K and V for each token",
    "walk.name.2": "Scores: Q · Kᵀ",
    "walk.name.3.sqrt": "Divide by √d_k",
    "walk.name.3.dk": "Divide by d_k",
    "walk.name.3.none": "No division",
    "walk.name.4": "Softmax of each row",
    "walk.name.5": "Weighted sum of the values",
    "walk.quoted": "“{token}”",
    "walk.share": "“{token}” {share}",
    "walk.masked_share": "masked",
    "walk.masked_cell": "masked: the causal mask does not let it look ahead (weight 0)",
    # part 1
    "walk.1.body": (
        "Each token builds three vectors from its x by multiplying it by three weight matrices: Q = x · W_Q "
        "(what it looks for), K = x · W_K (what it offers to be found by) and V = x · W_V (what it hands over if "
        "chosen). In a real model the W are learned; here they are made up, but the mechanics are the same."
    ),
    "walk.1.shapes": "Shapes: x {x} · W_Q {w} → Q {q}; the same for K; x {x} · W_V {wv} → V {v}.",
    "walk.1.role": "Projection to derive",
    "walk.1.derivation": (
        "Each dimension j of the result is the dot product of x with **column j** of the matrix. This is how "
        "{role} of “{token}” comes out, dimension by dimension:"
    ),
    "walk.1.column": "(column {j} of W_{role} = {column})",
    "walk.1.repeat": "The same for the other matrices and tokens: {count} vector × matrix products in all.",
    "walk.code.1": "q = x @ w_q   # (n, d_model) @ (d_model, d_k) → (n, d_k)\nk = x @ w_k   # (n, d_k)\nv = x @ w_v   # (n, d_v)",
    # part 2
    "walk.2.body": (
        "Now every query is compared with every key by a dot product: the larger, the better they match. With "
        "{n} tokens that is {n2} products, arranged in a matrix S = Q · Kᵀ: each **row** is a token asking and "
        "each **column** a token being looked at."
    ),
    "walk.2.shapes": "Shapes: Q {q} · Kᵀ {kt} → S {s}.",
    "walk.2.pair": "The whole product for “{q}” → “{k}”:",
    "walk.2.reading": (
        "In the row of “{token}”, the best match is “{best}” ({best_score}) and the worst “{worst}” "
        "({worst_score}). Careful: these are not percentages yet; scaling and softmax come next."
    ),
    "walk.2.asymmetry": (
        "S is not symmetric: “{q}” → “{k}” is {forward}, but “{k}” → “{q}” is {backward}. What “{q}” looks "
        "for (its Q) is not what it offers (its K); that is why W_Q and W_K are different matrices."
    ),
    "walk.code.2": "scores = q @ k.T   # (n, d_k) @ (d_k, n) → (n, n)",
    # part 3
    "walk.3.body.sqrt": (
        "Before softmax, every score is divided by √d_k, where d_k is the dimension of the keys (here {dk}, so "
        "the divisor is {divisor})."
    ),
    "walk.3.body.dk": (
        "With the option chosen in the builder, every score is divided by d_k = {divisor}, not by √d_k: that "
        "divides too much, and softmax goes flat."
    ),
    "walk.3.body.none": (
        "With the option chosen in the builder, the scores are **not** divided: they go into softmax as they "
        "are. With a large d_k, that saturates it."
    ),
    "walk.3.formula.sqrt": r"\mathrm{score}'_{ij} = \frac{Q_i \cdot K_j}{\sqrt{d_k}}",
    "walk.3.formula.dk": r"\mathrm{score}'_{ij} = \frac{Q_i \cdot K_j}{d_k}",
    "walk.3.formula.none": r"\mathrm{score}'_{ij} = Q_i \cdot K_j",
    "walk.3.why": (
        "Why? A dot product adds up d_k terms, some positive and some negative, that partly cancel: its typical "
        "size grows like √d_k, not like d_k (like a random walker, who after n steps is about √n from the "
        "start). Without the division, long vectors make the scores huge and softmax puts nearly everything on "
        "one token; dividing by √d_k brings them back to a scale near 1. That holds when the coordinates are "
        "independent with variance 1, as at the start of training: the lesson rightly calls it “a practical "
        "trick”."
    ),
    "walk.3.temperature": (
        "Another way to see it: dividing the scores by {divisor} before softmax is a softmax at temperature "
        "T = {divisor}. The higher the temperature, the more even the attention."
    ),
    "walk.3.link": "The √d_k experiment: measure it yourself",
    "walk.3.row": "The row of “{token}”, before and after:",
    "walk.code.3": "scaled = scores / np.sqrt(d_k)   # (n, n)\nscaled = np.where(allowed, scaled, -np.inf)   # the causal mask, if on",
    # part 4
    "walk.4.body": (
        "Softmax turns each row of scaled scores into shares that add up to 1: how much attention that token "
        "pays to each of the others (itself included)."
    ),
    "walk.4.temperature": (
        "With the temperature T = {t} chosen in the builder, every score is divided by T before e^x. (This "
        "temperature is here to explore: standard attention has none, and it is not the temperature a model "
        "samples words with when it generates text.)"
    ),
    "walk.4.row": "The arithmetic for the row of “{token}”:",
    "walk.4.masked": (
        "With the causal mask (the one GPT-style decoders use), “{token}” can only look at {allowed}; the rest "
        "stays at 0. The lesson's example is an encoder: everyone looks at everyone."
    ),
    "walk.4.reading": "“{token}” spreads its attention like this:",
    "walk.4.with": "dividing by {divisor}",
    "walk.4.without": "without dividing",
    "walk.4.compare_reading": (
        "Without dividing, the gaps between scores are larger and attention concentrates more on the largest "
        "score. With small scores like these the difference is slight; with a large d_k, not dividing "
        "saturates softmax (the √d_k experiment measures it)."
    ),
    "walk.errata.title": "**The lesson's errata**",
    "walk.errata.body": (
        "The lesson prints one row wrong: the softmax of “perro”'s row *without* dividing by √d_k comes out "
        "[0.222, 0.382, 0.396], but it is **[0.247, 0.427, 0.326]**. You can tell without a calculator: softmax "
        "keeps the order, and “come” (score 0.954) cannot get more attention than “perro” (1.223).\n\n"
        "The other differences are not errors but roundings: the lesson keeps computing with values already "
        "rounded. 0.611 for 0.612 (1.223268 ÷ 2 = 0.611634), 0.379 for 0.380 (0.379505), e^x 1.404 and 1.842 "
        "for 1.403 and 1.843 (e of the unrounded scores), 0.517 for 0.516 (0.779 × 0.663 = 0.516477) and 0.773 "
        "for 0.772 in output_perro[2] (rounded weights)."
    ),
    "walk.code.4": "weights = softmax(scaled / T, axis=-1)   # (n, n), each row sums to 1\n# softmax(z) = exp(z - max(z)) / sum(exp(z - max(z)))",
    # part 5
    "walk.5.body": (
        "The last step: each token's new vector is a blend of everyone's values, each entering the blend with "
        "the attention weight it got."
    ),
    "walk.5.shapes": "Shapes: weights {a} · V {v} → output {out}.",
    "walk.5.mix": (
        "Think of a smoothie: 50% banana, 30% strawberry (frutilla) and 20% mango add up to 100%, and it tastes "
        "mostly of banana; the larger a share, the more that ingredient dominates. Here the ingredients are the "
        "V vectors and the shares are the softmax weights."
    ),
    "walk.5.scalar_slider": "Weight of “come” (the rest is split between “el” and “perro” as 3 to 4)",
    "walk.5.scalar_lhs": "10·α_el + 20·α_perro + 30·α_come",
    "walk.5.scalar": (
        "With one number per token (V_el = 10, V_perro = 20, V_come = 30) the blend is {result}. With the "
        "lesson's weights (0.3, 0.4, 0.3) it is exactly 20, the plain mean; move the weight of “come” and "
        "watch the blend pulled toward the value that weighs most."
    ),
    "walk.5.vector": "With vectors it is the same, component by component (the lesson's example):",
    "walk.5.vector_lhs": "0.5·A + 0.3·B + 0.2·C",
    "walk.5.derivation": "Now with the real V: the output of “{token}”, dimension by dimension:",
    "walk.5.collapse": (
        "Look at the outputs: they are almost the same vector (the cosine between any two is at least "
        "{cosine}). With nearly even weights, the weighted sum averages the values and erases their "
        "differences: here attention has not yet given each token a context of its own. Real Transformers have "
        "two remedies: they add the output back to the input x (the residual connection, after a projection "
        "W_O), and they use several heads with different matrices, each attending to something else."
    ),
    "walk.5.distinct": (
        "The tokens' outputs differ from one another (the lowest cosine between two of them is {cosine}): each "
        "token got a blend of its own."
    ),
    "walk.5.next": (
        "What comes next in the lesson is multi-head attention: this same thing, several times in parallel "
        "with different matrices, plus the residual connection."
    ),
    "walk.code.5": "output = weights @ v   # (n, n) @ (n, d_v) → (n, d_v)",
}
