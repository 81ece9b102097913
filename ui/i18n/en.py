"""English strings."""

STRINGS: dict[str, str] = {
    # --- shell ---
    "app.title": "Self-attention, number by number",
    "sidebar.presentation": "Presentation mode",
    "sidebar.presentation_help": "Larger type and charts for a projector; editors are folded away.",
    "page.home": "Home",
    "page.softmax": "Softmax",
    "page.walkthrough": "Step by step",
    "page.builder": "Q/K/V builder",
    "page.scaling": "The √d_k experiment",
    "page.pipeline": "From sentence to vectors",
    # --- home ---
    "home.title": "Self-attention, number by number",
    "home.lead": (
        "This is the piece that turns isolated words into words **in context**. Here you can see, and change, "
        "every number involved: nothing is precomputed, the engine works everything out live."
    ),
    "home.problem.title": "The problem: every word is on its own",
    "home.problem.body": (
        "After the embedding and the positional encoding, each token has a vector of its own, but that vector "
        'knows nothing about its neighbours. Look at this (Spanish) sentence, "the dog eats meat because it is '
        'hungry":'
    ),
    "home.problem.sentence": "el perro come carne porque tiene hambre",
    "home.problem.question": (
        'Who is hungry? You know at once it is the **dog** (perro), not the meat. But for the model, "tiene" '
        'sits four words after "perro" and, without a mechanism to connect them, nothing links the two. '
        "Self-attention is that mechanism: every token looks at all the others and keeps what helps it make "
        "sense of itself."
    ),
    "home.search.title": "An analogy: the search engine",
    "home.search.body": "When you search the web, three different things are at play:",
    "home.search.query.title": "Query: what you look for",
    "home.search.query.body": "Your question, say *“gluten-free pasta recipes”*.",
    "home.search.key.title": "Key: what each page advertises",
    "home.search.key.body": "Its tags: *pasta*, *Italian*, *gluten-free*. The sign the search engine sees.",
    "home.search.value.title": "Value: what you take away",
    "home.search.value.body": "The actual content: the full recipe, pictures and all.",
    "home.search.match": (
        "The search engine compares your query with every page's key; where they match well it hands you that "
        "page's value, and what does not match is left out. Attention does the same, but instead of picking one "
        "page it blends the values of all of them, each in proportion to how well it matched."
    ),
    "home.self.title": "The twist: every token is all three",
    "home.self.body": (
        "With a search engine, you are the question and the pages are the answers. In self-attention there is "
        "nobody outside: every token builds its own query, shows its own key and offers its own value. When "
        '"perro" asks, it looks at the keys of **all** tokens, its own included; when "come" asks, the key '
        'of "perro" is among the candidates. The sentence attends to itself: hence *self*.'
    ),
    "home.map.title": "The route",
    "home.map.softmax": "Softmax: how to turn arbitrary scores into shares that add up to 1.",
    "home.map.walkthrough": 'Step by step: the algorithm\'s five steps on "el perro come", every sum in view.',
    "home.map.builder": "Q/K/V builder: your own case; edit x and the W matrices and watch what changes.",
    "home.map.scaling": "The √d_k experiment: why scores are divided by √d_k, measured live.",
    "home.map.pipeline": "From sentence to vectors: type a sentence and follow it to contextualised vectors.",
    "home.formula": "The whole formula, which we will take apart piece by piece:",
    # --- softmax playground ---
    "softmax.title": "Softmax: from scores to shares",
    "softmax.lead": (
        "You have a list of unconstrained scores and you want shares: numbers between 0 and 1 that add up to "
        "exactly 1. Edit the scores (add, delete, go negative) and move the temperature."
    ),
    "softmax.scores": "Scores",
    "softmax.score_column": "score",
    "softmax.temperature": "Temperature T",
    "softmax.temperature_help": "Softmax uses e^(x/T): a small T sharpens differences, a large T flattens them.",
    "softmax.preset.lesson": "Example: 2, 5, 1",
    "softmax.preset.negative": "With negatives",
    "softmax.preset.huge": "Huge: 1000, 1001",
    "softmax.naive.title": "Naive attempt: divide by the sum",
    "softmax.softmax.title": "Softmax",
    "softmax.chart.title": "Shares: softmax against the naive division",
    "softmax.chart.softmax": "softmax",
    "softmax.chart.naive": "divide by the sum",
    "softmax.chart.y": "share",
    "softmax.total": "Sum of the scores: {total}",
    "softmax.naive.ok": "It works here, but it does not widen the gaps: the top score weighs only {naive} times the lowest; with softmax (T = 1), {soft} times.",
    "softmax.naive.problem.sum_zero": "The sum is 0: you cannot divide by zero. The naive division gives no result at all.",
    "softmax.naive.problem.sum_negative": "The sum is negative: signs flip and the highest score ends up with the lowest share.",
    "softmax.naive.problem.negative_entries": "Some scores are negative: out come negative “shares”, meaningless as probabilities.",
    "softmax.formula.title": "The recipe",
    "softmax.formula.body": (
        "Softmax fixes all of this with the exponential: apply e^x to each score (always positive), then divide "
        "each result by the sum of them all. Positivity guarantees valid shares, and the exponential widens the "
        "gaps between scores."
    ),
    "softmax.steps.title": "The arithmetic, step by step",
    "softmax.steps.body": "First e^x of each score, then their sum, then each one divided by the sum; last, the check.",
    "softmax.steps.tempered": "With T = {t}, each score is first divided by T.",
    "softmax.steps.shifted": (
        "These scores are so large that e^x overflows (it is ∞ in float64). So the arithmetic subtracts the "
        "maximum, {shift}, first: the result is identical, because e^(x−m) / Σ e^(x−m) = e^x / Σ e^x."
    ),
    "softmax.negative.title": "What about negative scores?",
    "softmax.negative.body": (
        "With {scores} the sum is {total}. Dividing by the sum breaks; softmax instead gives {weights}: all "
        "positive, summing to 1, order kept."
    ),
    "softmax.huge.title": "What about huge scores?",
    "softmax.huge.body": (
        "With {scores}, plain e^x overflows: e^1000 no longer fits in a float64 and gives {naive}. Subtracting "
        "the maximum first (e^(x−1001)) leaves small numbers and the result comes out right: {weights}."
    ),
    "softmax.check": "Check: they add up to {total}",
    # --- scenario, walkthrough and builder ---
    "scenario.reset": "Back to the lesson's example",
    "scenario.random": "Random numbers",
    "scenario.seed": "Seed",
    "scenario.scale": "Divide the scores by",
    "scenario.scale.none": "nothing",
    "scenario.scale.sqrt": "√d_k",
    "scenario.scale.dk": "d_k",
    "scenario.temperature": "Softmax temperature",
    "scenario.causal": "Causal mask",
    "scenario.causal_help": "Each token looks only at earlier tokens and itself, as when generating text.",
    "scenario.edited": "You are looking at your own scenario, not the lesson's: the numbers follow your edits.",
    "scenario.query_token": "Token asking",
    "scenario.key_token": "Token looked at",
    "walk.title": 'Step by step: "el perro come"',
    "walk.lead": (
        "The algorithm's five steps, one at a time, every sum in view. Everything is computed live from the "
        "shared scenario: change W_Q in the builder and the arithmetic here changes with it."
    ),
    "walk.step": "Step",
    "walk.prev": "Previous",
    "walk.next": "Next",
    "walk.progress": "Step {step} of {total}: {name}",
    "walk.keys_hint": "Tip: the ← and → keys change steps too.",
    "walk.inputs": "The input vectors x (embedding + position, from step 3)",
    "walk.name.1": "Q, K and V for each token",
    "walk.name.2": "Scores: Q · Kᵀ",
    "walk.name.3": "Divide by √d_k",
    "walk.name.4": "Softmax of each row",
    "walk.name.5": "Weighted sum of the values",
    "walk.1.body": (
        "Each token builds three vectors from its x by multiplying it by three weight matrices: Q = x · W_Q "
        "(what it looks for), K = x · W_K (what it offers to be found by) and V = x · W_V (what it hands over if "
        "chosen). In a real model the W are learned; here they are made up, but the mechanics are the same."
    ),
    "walk.1.role": "Projection to derive",
    "walk.1.derivation": (
        "Each dimension j of the result is the dot product of x with **column j** of the matrix. This is "
        "how {role} of “{token}” comes out, dimension by dimension:"
    ),
    "walk.1.repeat": "The same for the other matrices and tokens: {count} vector × matrix products in all.",
    "walk.2.body": (
        "Now every query is compared with every key by a dot product: the larger, the better they match. "
        "With {n} tokens that is {n2} products, arranged in a matrix S = Q · Kᵀ: each **row** is a token "
        "asking and each **column** a token being looked at."
    ),
    "walk.2.pair": "The whole product for “{q}” → “{k}”:",
    "walk.2.reading": (
        "In the row of “{token}”, the best match is “{best}” ({best_score}) and the worst “{worst}” "
        "({worst_score}). Careful: these are not percentages yet; scaling and softmax come next."
    ),
    "walk.3.body": (
        "Before softmax, every score is divided by √d_k, where d_k is the length of the keys (here {dk}, so "
        "the divisor is {divisor})."
    ),
    "walk.3.body_mode": "With the option chosen in the builder, the divisor is {divisor}.",
    "walk.3.why": (
        "Why? A dot product adds up d_k terms, some positive and some negative, that partly cancel: its typical "
        "size grows like √d_k, not like d_k (like a random walker, who after n steps is about √n from the "
        "start). Without the division, long vectors make the scores huge and softmax puts nearly everything on "
        "one token; dividing by √d_k brings them back to a scale near 1, where softmax still tells tokens apart "
        "without saturating. The √d_k experiment shows it in numbers."
    ),
    "walk.3.row": "The row of “{token}”, before and after:",
    "walk.4.body": (
        "Softmax turns each row of scaled scores into shares that add up to 1: how much attention that token "
        "pays to each of the others (itself included)."
    ),
    "walk.4.row": "The arithmetic for the row of “{token}”:",
    "walk.4.masked": "With the causal mask, “{token}” can only look at {allowed}; the rest stays at 0.",
    "walk.4.compare": "The same row without dividing by √d_k, beside it:",
    "walk.4.with": "dividing by {divisor}",
    "walk.4.without": "without dividing",
    "walk.4.reading": "“{token}” spreads its attention like this: {shares}.",
    "walk.5.body": (
        "The last step: each token's new vector is a blend of everyone's values, each entering the blend with "
        "the attention weight it got."
    ),
    "walk.5.mix": (
        "Think of a smoothie: lots of banana and a little mango, and it tastes mostly of banana. Here the "
        "ingredients are the V vectors and the proportions are the softmax weights, which add up to 1."
    ),
    "walk.5.scalar": (
        "With one number per token it is plain to see: values {values} with weights {weights} give {result}. "
        "Neither the smallest nor the largest: an average pulled towards the heavier ones."
    ),
    "walk.5.derivation": "Now with vectors: the output of “{token}”, dimension by dimension:",
    "walk.5.before": "Before: x of “{token}” (just itself and its position)",
    "walk.5.after": "After: output of “{token}” (with the sentence's context)",
    "walk.5.closing": (
        "The vector changed: it no longer stands for “{token}” in the abstract but for “{token}” in this "
        "sentence. That is what self-attention adds: context. Step 5 of the series, multi-head attention, "
        "repeats this several times in parallel with different matrices, to catch several kinds of relation "
        "at once."
    ),
    "matrix.x": "x",
    "matrix.q": "Q = x · W_Q",
    "matrix.k": "K = x · W_K",
    "matrix.v": "V = x · W_V",
    "matrix.scores": "Scores Q · Kᵀ",
    "matrix.scaled": "Scores ÷ {divisor}",
    "matrix.weights": "Weights (softmax)",
    "matrix.output": "Output = weights · V",
    "matrix.rows_query": "who asks",
    "matrix.rows_token": "token",
    "matrix.dim": "d{j}",
    # --- builder ---
    "builder.title": "Q/K/V builder",
    "builder.lead": (
        "Your own test case: edit the tokens and their x vectors, the W_Q, W_K and W_V matrices, and the "
        "options. Every heatmap is recomputed at once, and the step-by-step page uses these same numbers."
    ),
    "builder.edit": "Edit the scenario",
    "builder.x": "Tokens and x vectors (add, delete and rename rows)",
    "builder.weights": "Weight matrices (rows: dimensions of x; columns: output dimensions)",
    "builder.options": "Options",
    "builder.projections": "Q, K and V",
    "builder.attention": "Scores, scaling and weights",
    "builder.output": "Output",
    "builder.cell": "One cell, end to end",
    "builder.cell.score": "Score:",
    "builder.cell.scaled": "Scaled: {score} ÷ {divisor} = {scaled}",
    "builder.cell.masked": "The causal mask stops “{q}” from looking at “{k}”, which comes later: its weight is 0.",
    "builder.cell.weight": "Attention weight from “{q}” to “{k}”: {weight} ({percent}) of its row.",
    "builder.learned.title": "What is learned?",
    "builder.learned.body": (
        "In a trained Transformer, x comes from the earlier steps and what gets adjusted is W_Q, W_K and W_V "
        "(together with the embeddings). Learning W_Q and W_K is learning **what each word asks and what each "
        "word advertises**, so that useful pairs (a verb and its subject, a pronoun and what it stands for) get "
        "high scores. Learning W_V is learning **what information is worth passing on** when someone attends to "
        "you. The divisor, the mask and softmax are not learned: they are the fixed part of the recipe."
    ),
    # --- scaling experiment (pages/scaling_experiment.py) ---
    "scaling.title": "Why divide by √d_k? Measure it yourself",
    "scaling.lead": (
        "In the attention formula the scores are divided by √d_k before the softmax. You don't have to take "
        "that on faith: draw random vectors, measure, compare. The engine computes everything live."
    ),
    "scaling.tab.idea": "1 · The idea",
    "scaling.tab.walk": "2 · A random walk",
    "scaling.tab.experiment": "3 · The experiment",
    "scaling.tab.row": "4 · Three divisors",
    "scaling.tab.summary": "5 · In short",
    "scaling.why.title": "The idea: a dot product is a sum of d_k terms",
    "scaling.why.body": (
        "The score between a query and a key is their dot product: multiply coordinate by coordinate and add "
        "it all up. With d_k = 64 you are adding 64 products:"
    ),
    "scaling.why.cancel": (
        "If every product were +1, the sum would be d_k: it would grow in a straight line with the dimension. "
        "But q and k have mixed coordinates, positive and negative, and so do the products: some push up, "
        "others push down, and much of it cancels out. The sum grows, but far more slowly. How much more "
        "slowly? The random walk answers that."
    ),
    "scaling.walk.title": "The intuition: a random walk",
    "scaling.walk.body": (
        "Picture someone who flips a coin before every step: heads, one step right; tails, one step left. "
        "After n steps, how far from the start are they? Not n steps: going back and forth cancels most of "
        "it, and the typical distance ends up around **√n**. Move the controls and check."
    ),
    "scaling.walk.walks": "Number of walks",
    "scaling.walk.steps": "Steps per walk",
    "scaling.walk.sqrt_n": "√n",
    "scaling.walk.paths_title": "{shown} of the walks and the ±√n band",
    "scaling.walk.measured": "measured spread ({walks} walks)",
    "scaling.walk.spread_title": "Spread of the position against √n",
    "scaling.walk.step_axis": "step n",
    "scaling.walk.position_axis": "position",
    "scaling.walk.spread_axis": "standard deviation of the position",
    "scaling.walk.reading": (
        "After **{steps}** steps the typical distance from the start (the standard deviation across all "
        "walks) is **{spread}**, and √{steps} = **{sqrt}**. Had everyone walked in a straight line, they "
        "would be {steps} steps away."
    ),
    "scaling.walk.bridge": (
        "The dot product q·k is such a walk: each coordinate contributes a “step” qᵢ·kᵢ of random sign. "
        "That is why its typical size is not d_k but √d_k."
    ),
    "scaling.experiment.title": "The experiment: measure the spread of q·k",
    "scaling.experiment.body": (
        "For each d_k you pick, the engine draws many pairs q, k with random coordinates (normal, mean 0, "
        "variance 1), computes q·k and measures its spread (the standard deviation). If the random-walk "
        "intuition holds it should come out ≈ √d_k, and dividing by √d_k should leave ≈ 1 whatever d_k is."
    ),
    "scaling.experiment.dks": "Values of d_k",
    "scaling.experiment.samples": "Samples per d_k",
    "scaling.experiment.samples_help": (
        "How many dot products q·k are drawn for each d_k. More samples measure more precisely (and take a "
        "little longer the first time)."
    ),
    "scaling.seed": "Seed",
    "scaling.experiment.pick_one": "Pick at least one value of d_k to run the experiment.",
    "scaling.experiment.running": "Drawing random vectors and measuring…",
    "scaling.experiment.caption": (
        "{samples} dot products per row. Try another seed: the numbers move a little, but the last column "
        "stays glued to 1."
    ),
    "scaling.experiment.measured": "measured spread",
    "scaling.experiment.sqrt_dk": "√d_k",
    "scaling.experiment.plot_title": "Spread of q·k against d_k (logarithmic axes)",
    "scaling.experiment.spread_axis": "spread of q·k",
    "scaling.experiment.reading": (
        "With both axes logarithmic, √d_k is a straight line of slope 1/2, and the measured points land right "
        "on it. Dividing by √d_k keeps the scores on a scale of about 1 however large the vectors are: a "
        "neutral, constant scale for the softmax."
    ),
    "scaling.average.title": "What happens to the softmax, on average",
    "scaling.average.body": (
        "From those same dot products the engine builds rows of {n} scores ({rows} rows per d_k), applies "
        "softmax with each divisor and averages two things: the largest weight of each row and its entropy, "
        "which measures how spread out the attention is (a perfectly even row has entropy ln {n} = {ln})."
    ),
    "scaling.col.dk": "d_k",
    "scaling.col.spread": "spread of q·k",
    "scaling.col.sqrt_dk": "√d_k",
    "scaling.col.scaled": "spread ÷ √d_k",
    "scaling.col.divisor": "divisor",
    "scaling.col.max_weight": "largest weight",
    "scaling.col.entropy": "entropy",
    "scaling.col.verdict": "verdict",
    "scaling.divisor.none": "no divisor",
    "scaling.divisor.sqrt": "÷ √d_k = {value}",
    "scaling.divisor.dk": "÷ d_k = {value}",
    "scaling.verdict.saturated": "saturated",
    "scaling.verdict.balanced": "balanced",
    "scaling.verdict.flat": "flat",
    "scaling.row.title": "One concrete row, three divisors",
    "scaling.row.body": (
        "Now up close: one random query against n random keys gives a row of n scores. See which weights that "
        "same row becomes with no divisor, divided by √d_k and divided by d_k."
    ),
    "scaling.row.dk": "d_k",
    "scaling.row.length": "Row length (n)",
    "scaling.row.seed": "Row seed",
    "scaling.row.scores": "This row's scores q·kⱼ, before dividing:",
    "scaling.row.chart_title": "Softmax weights for the same row (d_k = {d_k})",
    "scaling.row.weight_axis": "weight",
    "scaling.row.rule": (
        "How the verdict is decided: “saturated” if the largest weight exceeds 0.9; “flat” if the entropy "
        "exceeds 95% of ln {n} = {ln}; otherwise “balanced”."
    ),
    "scaling.row.reading": (
        "With no divisor and a large d_k the scores are huge and the exponential hands nearly everything to "
        "one token: the softmax saturates and almost no gradient is left to learn from. Dividing by d_k "
        "overshoots: the scores become tiny, everyone gets about the same and attention tells nothing apart. "
        "Dividing by √d_k keeps the scores on a scale of ~1, so the softmax can prefer without crushing the rest."
    ),
    "scaling.summary.title": "In short",
    "scaling.summary.body": (
        "- q·k adds up d_k terms of random sign; as in the random walk, its typical size grows like √d_k.\n"
        "- Dividing by √d_k (no more, no less) leaves the scores with spread ≈ 1 for any d_k.\n"
        "- That keeps the softmax in its useful range: neither saturated nor flat."
    ),
    # --- full pipeline (pages/full_pipeline.py) ---
    "pipeline.title": "From sentence to vectors in context",
    "pipeline.lead": (
        "Type a sentence and follow it all the way: tokens, embeddings, positional encoding, attention and "
        "output. The engine computes every number on the spot."
    ),
    "pipeline.sentence": "Your sentence",
    "pipeline.sentence_help": "Split into words and punctuation marks, lower-cased. Up to {limit} tokens are used.",
    "pipeline.example.lesson": "Example: el perro come",
    "pipeline.example.ambiguity": "Example: who is hungry?",
    "pipeline.d_model": "d_model",
    "pipeline.d_model_help": "How many numbers each token's vector has.",
    "pipeline.weights": "Matrices W_Q, W_K, W_V",
    "pipeline.weights.lesson": "the lesson's",
    "pipeline.weights.random": "random, from a seed",
    "pipeline.weights.only_random": "The lesson's matrices are {d}×{d}; with this d_model random matrices are used.",
    "pipeline.seed": "Matrix seed",
    "pipeline.causal": "Causal mask",
    "pipeline.causal_help": (
        "Each token looks only at the ones before it and at itself, like a model writing left to right."
    ),
    "pipeline.empty": "The sentence is empty: it has no word or punctuation mark. Type something to see the journey.",
    "pipeline.dropped": (
        "The sentence is over the limit of {limit} tokens: the first {limit} are used and {dropped} were left out."
    ),
    "pipeline.token": "token",
    "pipeline.position": "position",
    "pipeline.tokens.title": "1. Tokens",
    "pipeline.tokens.body": (
        "The sentence is cut into {count} tokens: words and single punctuation marks, lower-cased. Above each "
        "one, its position."
    ),
    "pipeline.embed.title": "2. Embeddings",
    "pipeline.embed.body": (
        "Each token becomes a vector of d_model numbers. In a real model that table is learned. Here, with "
        "d_model = 4, “el”, “perro” and “come” get the vectors that reproduce the lesson, and any other word "
        "gets a pseudo-random vector that is always the same for the same word. They mean nothing: they are "
        "there to show the mechanics."
    ),
    "pipeline.pe.title": "3. Positional encoding",
    "pipeline.pe.body": (
        "The embedding does not say where the word is. So a vector that depends only on the position is "
        "added: sines in the even columns and cosines in the odd ones, each pair with its own frequency."
    ),
    "pipeline.pe.heat_title": "PE of your sentence's positions",
    "pipeline.pe.waves_title": "Some PE columns over 64 positions",
    "pipeline.pe.column": "column {j} ({wave})",
    "pipeline.pe.value_axis": "value",
    "pipeline.pe.waves_caption": (
        "The shaded band is your sentence's {n} positions. The first columns oscillate fast and the last ones "
        "slowly: together they give every position a different signature."
    ),
    "pipeline.x.title": "4. x = embedding + PE",
    "pipeline.x.body": (
        "Adding the two, each token gets a vector that says which word it is and where it stands. These are "
        "the inputs of self-attention."
    ),
    "pipeline.x.lesson_match": "These are exactly the lesson's x: x_el, x_perro and x_come, number for number.",
    "pipeline.attention.title": "5. Self-attention",
    "pipeline.attention.body": (
        "From x come Q = x·W_Q, K = x·W_K and V = x·W_V; the scores Q·Kᵀ are divided by √d_k and each row "
        "goes through softmax. In the map, each row is a token asking and each column the token it looks at."
    ),
    "pipeline.attention.weights_lesson": "Matrices: the lesson's made-up ones (4×4).",
    "pipeline.attention.weights_random": (
        "Matrices: random numbers drawn from the seed. Change the seed and the whole attention pattern changes."
    ),
    "pipeline.attention.matrices": "Show the matrices W_Q, W_K, W_V",
    "pipeline.attention.weights_title": "Attention weights (each row sums to 1)",
    "pipeline.attention.asks": "token asking",
    "pipeline.attention.reading": (
        "With the causal mask on, the cells above the diagonal stay at 0: nobody looks into the future."
    ),
    "pipeline.output.title": "6. Output: vectors in context",
    "pipeline.output.body": (
        "Each output is a blend of every token's V, with the attention weights as the proportions."
    ),
    "pipeline.effect.title": "What attention did",
    "pipeline.effect.body": (
        "For each token: which tokens it paid most attention to (the two highest weights in its row) and how "
        "far its vector moved, ‖output − x‖."
    ),
    "pipeline.effect.col.token": "token (position)",
    "pipeline.effect.col.top": "most attended #{rank}",
    "pipeline.effect.col.weight": "weight #{rank}",
    "pipeline.effect.col.moved": "‖output − x‖",
    "pipeline.effect.x_points": "x (before)",
    "pipeline.effect.output_points": "output (after)",
    "pipeline.effect.plot_title": "From x to output: one arrow per token",
    "pipeline.effect.axis": "principal axis {axis} ({share} of the variance)",
    "pipeline.effect.caption": (
        "The vectors have d_model dimensions; to draw them, x and output are projected together onto the two "
        "axes along which they vary most (PCA). The picture shows {shown} of the variance; the distances in "
        "the table are measured in all dimensions."
    ),
    "pipeline.ambiguity.title": "Who is hungry?",
    "pipeline.ambiguity.body": (
        "Your sentence has “tiene” (has) and “perro” (dog): it is the question from the start. To understand "
        "“tiene”, the model needs to connect it to “perro”. This is the attention “tiene” gives each candidate "
        "with these matrices:"
    ),
    "pipeline.ambiguity.metric": "tiene → {word}",
    "pipeline.ambiguity.score": "score q·k: {score}",
    "pipeline.ambiguity.favourite": "The token “tiene” looks at most is “{token}” ({weight}).",
    "pipeline.ambiguity.lucky": (
        "Here “perro” comes out on top among the candidates, but let's be honest: it is luck. The matrices are "
        "made up and the embeddings mean nothing, so the model does not “know” that “tiene” refers to “perro”. "
        "Change the seed or d_model and watch the winner change."
    ),
    "pipeline.ambiguity.unlucky": (
        "And “perro” does not even win among the candidates. That is not a mistake in the arithmetic: with "
        "made-up matrices and meaningless embeddings, the model has no way to “know” that “tiene” refers to "
        "“perro”. The mechanics work; what is missing is learning."
    ),
    "pipeline.ambiguity.learning_title": "What the model would have to learn",
    "pipeline.ambiguity.learning": (
        "For “tiene” to look at “perro”, that score must be the highest in its row, and that score is the dot "
        "product of the query of “tiene” with the key of “perro”. Training means adjusting W_Q and W_K (and "
        "the embeddings) until, in sentences like this one, a verb's query points the same way as its "
        "subject's key:"
    ),
    "pipeline.ambiguity.bridge": (
        "Nobody writes that rule by hand: it emerges as the model sees millions of sentences and corrects the "
        "weights every time it gets one wrong. This page uses exactly the same mechanics; all that training "
        "changes is the numbers in the matrices."
    ),
    # --- share and export ---
    "share.title": "Share and export",
    "share.link": "**Link** that opens this same view (scenario, language and step). Copy it with the box's button:",
    "share.download": "**Download** the scenario:",
    "share.json": "Scenario (JSON)",
    "share.figures": "Every figure is an SVG image: right-click it → “Save image as…”. It stays sharp at any size, good for slides.",
    "share.upload": "**Upload** a scenario (a JSON downloaded from here)",
    "share.bad_link": "The link could not be read (problem in “{field}”): showing the lesson's example.",
    "share.bad_file": "The file could not be used (problem in “{field}”): the scenario did not change.",
    # --- editors and errors ---
    "editor.token": "token",
    "editor.d_model": "d_model (size of x)",
    "editor.d_k": "d_k (columns of W)",
    "editor.refused": "A change was not applied:",
    "error.not_a_number": "“{value}” is not a number; cell {where} keeps its previous value.",
    "error.empty_or_nan": "Cell {where} was left empty or NaN; it keeps its previous value.",
    "error.infinite": "“{value}” is infinite; cell {where} keeps its previous value.",
    "error.too_large": "{value} is too large (the limit is ±{limit}); cell {where} keeps its previous value.",
    "error.empty_token": "A token name cannot be empty; {where} keeps its name.",
    "error.duplicate_token": "There is already a token called “{name}”; {where} keeps its name.",
    "error.token_too_long": "Token names have at most {limit} characters; {where} keeps its name.",
    "error.too_many_tokens": "This scenario takes up to {limit} tokens.",
    "error.no_tokens": "At least one token must remain.",
    "error.too_many_scores": "The list takes up to {limit} scores.",
    "error.no_scores": "At least one score must remain.",
}
