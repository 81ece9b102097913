"""English strings: the questions asked before each step, their options and the mistakes they name.

`q.<template>` is the question (the key the engine gives); `quiz.mistake.<mistake>` names a mistake, the same in
every template that uses it, and `quiz.mistake.<mistake>.<template>` says it more precisely for one.
"""

STRINGS: dict[str, str] = {
    # --- the question box ---
    "quiz.title": "Before you go on: what do you predict?",
    "quiz.your_choice": "Your answer",
    "quiz.your_answer": "Your answer (a number)",
    "quiz.placeholder": "for example 0.954",
    "quiz.placeholder_whole": "for example 5",
    "quiz.number_help": "With a decimal point or a decimal comma: 0.954 and 0,954 are the same.",
    "quiz.tolerance.within": "Accepted within ±{tolerance}.",
    "quiz.tolerance.exact": "It must be exact.",
    "quiz.check": "Check",
    "quiz.another": "Another question",
    "quiz.show_me": "Show me the answer",
    "quiz.shown": "The answer: {answer}.",
    "quiz.others": "And the other answers? The mistake behind each one",
    "quiz.feedback.right": "Right! The answer is {answer}.",
    "quiz.feedback.after_tries": "(on try {n})",
    "quiz.feedback.mistake": "Not {given}. {mistake}",
    "quiz.feedback.wrong": "Not {given}, and it matches none of the usual mistakes.",
    "quiz.feedback.try_again": (
        "How it is computed is shown below now: check your arithmetic and try again, or ask to be shown the answer."
    ),
    "quiz.error.pick_one": "Pick an option before checking.",
    "quiz.error.not_a_number": "“{value}” is not a number. Type, for example, 0.954 or 0,954.",
    "quiz.error.empty_or_nan": "Type a number before checking.",
    "quiz.error.infinite": "“{value}” is infinite; the answer is a finite number.",
    "quiz.error.too_large": "“{value}” is too large for this question.",
    "quiz.given.title": "This step's input numbers:",
    "quiz.given.token": "token",
    "quiz.given.x": "**x** (one row per token)",
    "quiz.given.w_q": "**W_Q**",
    "quiz.given.w_k": "**W_K**",
    "quiz.given.w_v": "**W_V**",
    "quiz.given.q": "**Q** (one row per token)",
    "quiz.given.k": "**K** (one row per token)",
    "quiz.given.v": "**V** (one row per token)",
    "quiz.given.scores": "**Scores S = Q · Kᵀ**, not divided (row: who looks; column: who is looked at)",
    "quiz.given.scaled_scores": "**Scaled scores** (row: who looks; column: who is looked at)",
    "quiz.given.weights": "**Attention weights** (row: who looks; column: who is looked at)",
    "quiz.quoted": "“{token}”",
    "quiz.token_at": "{token} (position {position})",
    "quiz.mix_item": "{token}: V = {value}, weight {weight}",
    "quiz.shape": "{rows} × {cols}",
    "quiz.line.row": "row {index} of {matrix}",
    "quiz.line.column": "column {index} of {matrix}",
    "quiz.scale.sqrt": "÷ √d_k",
    "quiz.scale.dk": "÷ d_k",
    "quiz.scale.none": "no division",
    "quiz.rule.sqrt": "divide by √d_k = {divisor}",
    "quiz.rule.dk": "divide by d_k = {divisor}",
    "quiz.rule.none": "not divide at all",
    # --- presentation mode ---
    "quiz.lecture.numeric": "A numeric answer: write it down. {tolerance}",
    "quiz.lecture.answer": "Answer: {answer}",
    "quiz.lecture.reveal": "Reveal the answer (key {shortcut})",
    "quiz.lecture.keys": "Key {shortcut}: reveals the answer, the mistake behind each option, and the step.",
    # --- the sidebar and the download ---
    "quiz.sidebar.toggle": "Questions before each step",
    "quiz.sidebar.toggle_help": (
        "Each step asks you for a prediction before it shows its arithmetic. Turn them off to see everything "
        "at once; the choice stays while you move between pages."
    ),
    "quiz.tally": "Answered: {answered} · right: {right} · on the first try: {first}",
    "quiz.export.file": "self-attention-answers",
    "quiz.export.help": (
        "Your answers in this session, to hand in. They are not kept on the server: closing the tab loses them."
    ),
    "quiz.export.col.page": "page",
    "quiz.export.col.template": "template",
    "quiz.export.col.question": "question",
    "quiz.export.col.answers": "answers, in order",
    "quiz.export.col.right_answer": "right answer",
    "quiz.export.col.outcome": "outcome",
    "quiz.export.col.first_try_right": "right on the first try",
    "quiz.export.yes": "yes",
    "quiz.export.no": "no",
    "quiz.outcome.right": "right",
    "quiz.outcome.misconception": "named mistake",
    "quiz.outcome.wrong": "wrong",
    "quiz.outcome.shown": "shown without answering",
    # --- named options ---
    "quiz.option.spreads": "They spread out: more even",
    "quiz.option.concentrates": "They concentrate more on one token",
    "quiz.option.unchanged": "They stay the same",
    "quiz.option.symmetric": "Yes, S is symmetric",
    "quiz.option.not_symmetric": "No, S is not symmetric",
    "quiz.option.valid": "Valid shares: between 0 and 1, adding up to 1, in the scores' order",
    "quiz.option.negative_share": "A negative “share” comes out",
    "quiz.option.division_by_zero": "Nothing: the sum is 0 and cannot be divided by",
    "quiz.option.order_reversed": "The order flips: the highest score gets the smallest share",
    # --- the questions: step by step ---
    "q.walk.1.q_entry": "What is Q_{token}[{dim}], dimension {dim} of the Q vector of “{token}”?",
    "q.walk.1.k_entry": "What is K_{token}[{dim}], dimension {dim} of the K vector of “{token}”?",
    "q.walk.1.v_entry": "What is V_{token}[{dim}], dimension {dim} of the V vector of “{token}”?",
    "q.walk.1.which_column": "Q_{token}[{dim}] is the dot product of x_{token} with one line of a matrix. Which one?",
    "q.walk.1.q_shape": "With {n} tokens, d_model = {d_model} and d_k = {d_k}: what shape (rows × columns) is Q = x · W_Q?",
    "q.walk.2.score": (
        "What is the score “{token}” → “{other}”, that is, how well does what “{token}” looks for match what "
        "“{other}” offers?"
    ),
    "q.walk.2.best_match": "Before scaling and softmax: with which token does “{token}” have its highest score?",
    "q.walk.2.symmetric": (
        "This scenario's score matrix S = Q · Kᵀ is {n} × {n}. Is it symmetric, that is, is "
        "score(a → b) = score(b → a) for every pair of tokens?"
    ),
    "q.walk.2.score_count": "With {n} tokens, how many scores does attention compute in all?",
    "q.walk.3.scaled_score": (
        "The score “{token}” → “{other}” is {score}. With this scenario's scaling ({scale}) and d_k = {d_k}, "
        "what is that scaled score?"
    ),
    "q.walk.3.divisor": (
        "This scenario's scaling: {scale}. With d_k = {d_k}, d_model = {d_model} and {n} tokens, what number "
        "is each score divided by?"
    ),
    "q.walk.3.spread_effect": (
        "If “{token}”'s row of scores is divided by √d_k = {divisor} before the softmax (T = {temperature}), "
        "what happens to its attention weights, compared with not dividing?"
    ),
    "q.walk.4.weight": (
        "What attention weight does “{token}” give “{other}”? It is the softmax of “{token}”'s row of scaled "
        "scores, with T = {temperature}."
    ),
    "q.walk.4.most_weight": "After the softmax, which token does “{token}” pay the most attention to?",
    "q.walk.4.row_sum": "What do the attention weights in “{token}”'s row add up to?",
    "q.walk.4.without_scaling": (
        "If “{token}”'s scores were not divided at all, what weights would the softmax give (T = {temperature})? "
        "In order: {labels}."
    ),
    "q.walk.5.output_entry": "What is output_{token}[{dim}], dimension {dim} of “{token}”'s new vector?",
    "q.walk.5.dominant_value": (
        "“{token}”'s output is a sum of terms weight · V, one per token. Which token adds the longest term "
        "(the vector weight · V of greatest length)?"
    ),
    "q.walk.5.scalar_mix": "With one number per token ({mix}), what is the mix attention makes?",
    "q.walk.5.output_shape": "With {n} tokens, d_model = {d_model} and d_v = {d_v}: what shape (rows × columns) is output = weights · V?",
    # --- softmax ---
    "q.softmax.can_be_softmax": "Which of these rows can have come out of a softmax?",
    "q.softmax.of_scores": "What is the softmax of the scores {scores} at temperature T = {temperature}?",
    "q.softmax.largest_weight": (
        "With the scores {scores} and T = {temperature}, what is the largest weight the softmax gives?"
    ),
    "q.softmax.exp_step": (
        "First step of the softmax of {scores} with T = {temperature}: what is e^(x/T) for score {index}, x = {score}?"
    ),
    "q.softmax.exp_total": (
        "Second step of the softmax of {scores} with T = {temperature}: what do the e^(x/T) of all the scores "
        "add up to?"
    ),
    "q.softmax.temperature_up": (
        "With the scores {scores}, if the temperature goes from T = {temperature} to T = {new_temperature}, "
        "what happens to the weights?"
    ),
    "q.softmax.shift": (
        "If you add {shift} to every score in {scores} (with T = {temperature}), what happens to the softmax weights?"
    ),
    "q.softmax.naive_problem": "With the scores {scores}, what does dividing each by their sum, with no exponential, give?",
    # --- √d_k ---
    "q.scaling.spread": (
        "For random q and k with d_k = {d_k} coordinates (independent, mean 0, variance 1), what is the typical "
        "size (the standard deviation) of q·k?"
    ),
    "q.scaling.unit_divisor": (
        "With d_k = {d_k}, what number must q·k be divided by to bring its standard deviation back to about 1?"
    ),
    "q.scaling.scaled_spread": "With d_k = {d_k}, what is the standard deviation of q·k / √d_k?",
    "q.scaling.no_divisor": (
        "With d_k = {d_k}: if the scores are not divided (instead of dividing them by √d_k = {sqrt_d_k}), what "
        "happens to the softmax weights?"
    ),
    "q.scaling.dk_divisor": (
        "With d_k = {d_k}: if the scores are divided by d_k = {d_k} instead of by √d_k = {sqrt_d_k}, what "
        "happens to the softmax weights?"
    ),
    "q.scaling.walk_distance": (
        "After {steps} random steps of +1 or −1, how far from the start (the standard deviation) does the walker "
        "typically end up?"
    ),
    # --- from sentence to vectors ---
    "q.pipeline.token_count": "How many tokens of the sentence “{sentence}” go into attention?",
    "q.pipeline.pe_value": (
        "What is the positional encoding PE[{position}, {dimension}]: that of “{token}” (position {position}) in "
        "dimension {dimension}, with d_model = {d_model}? (PE[pos, 2i] = sin(pos / 10000^(2i / d_model)) and "
        "PE[pos, 2i + 1] = cos(pos / 10000^(2i / d_model)).)"
    ),
    "q.pipeline.x_entry": (
        "For “{token}” (position {position}), in dimension {dimension} the embedding is {embedding} and the "
        "positional encoding {positional}. What is x[{position}, {dimension}]?"
    ),
    "q.pipeline.most_attended": (
        "In the weight matrix above: which token does “{token}” (position {position}) pay the most attention to?"
    ),
    # --- named mistakes ---
    "quiz.mistake.always_self": (
        "A token does not always look at itself most: what counts is how well “{token}”'s Q matches each K."
    ),
    "quiz.mistake.lower_score": "{value}'s K matches Q_{token} less: in “{token}”'s row, its score is smaller than the answer's.",
    "quiz.mistake.less_weight": "{value} gets less weight from “{token}” than the answer does: in “{token}”'s row, its weight is smaller.",
    "quiz.mistake.less_weight.multihead.most_attended": "In head {head}, {value} gets less weight from “{token}” than the answer does: look at “{token}”'s row in that head's map.",
    "quiz.mistake.less_weight.real_model.most_attended": "In layer {layer}, head {head}, {value} gets less weight from “{token}” than the answer does: look at “{token}”'s row in that head's small map.",
    "quiz.mistake.shorter_term": "{value}'s weight · V term is shorter: what counts is the weight times the length of its V, not the weight alone nor the V alone.",
    "quiz.mistake.less_target": "The target of “{token}”'s row gives {value} less than the answer, and training takes each row toward its target.",
    "quiz.mistake.sqrt_of_one": "With d_k = 1, √d_k = d_k = 1: dividing by √d_k, by d_k or not at all is the same, and the weights do not change.",
    "quiz.mistake.nothing_changes_here": "Here dividing does not change the weights: with √d_k = {divisor} (or with every score of “{token}”'s row equal) there are no differences to shrink.",
    "quiz.mistake.equal_scores": "With every score equal, each weight is 1/n at any T: there is nothing more to spread.",
    "quiz.mistake.no_negative_share": "A quotient comes out negative only when a score has the opposite sign to the sum, and the sum is not 0: here the sum is {scores_total}, and no score has (or there are no quotients).",
    "quiz.mistake.no_zero_sum": "The sum of {scores} is {scores_total}: not 0, so you can divide by it.",
    "quiz.mistake.order_kept": "The order flips when every score is 0 or negative and so is the sum: then the largest score gets the smallest share. With {scores} the sum is {scores_total}, and that does not happen.",
    "quiz.mistake.symmetric_here": "With these matrices S is symmetric: score(a → b) = score(b → a) for every pair, as when W_Q = W_K.",
    "quiz.mistake.big_scores_spread": (
        "The other way round: undivided, with d_k = {d_k} the scores are about √d_k = {sqrt_d_k} times larger, "
        "and larger scores make the softmax concentrate, not spread."
    ),
    "quiz.mistake.cancels_out": (
        "On average the steps cancel out, but the typical distance is not 0: it grows as the square root of the "
        "number of steps, √{steps}."
    ),
    "quiz.mistake.characters": "That is the number of characters: a token is a word or a punctuation mark.",
    "quiz.mistake.counted_tokens": (
        "That is the number of tokens “{token}” looks at. Weights are shares: they always add up to 1."
    ),
    "quiz.mistake.degrees": (
        "That value comes from a calculator set to degrees: the positional encoding's angle is in radians."
    ),
    "quiz.mistake.divided_by_dk": "That is what dividing by d_k = {d_k} gives; here you should {rule}.",
    "quiz.mistake.divided_by_sqrt_dk": (
        "That is what dividing by √d_k = {sqrt_d_k}, the usual scaling, gives; but in this scenario you should {rule}."
    ),
    "quiz.mistake.dot_commutes": (
        "True, q·k = k·q, but score(a → b) = Q_a · K_b and score(b → a) = Q_b · K_a use different vectors: "
        "with W_Q different from W_K, S need not be symmetric."
    ),
    "quiz.mistake.dropped_counted": (
        "That also counts the tokens left out: attention takes at most the first ones and cuts the rest."
    ),
    "quiz.mistake.embedding_only": (
        "That is the embedding alone: x = embedding + positional encoding, you did not add {positional}."
    ),
    "quiz.mistake.exp_forgotten": (
        "You added up the scores divided by T without applying e^x: the second step adds up the e^(x/T)."
    ),
    "quiz.mistake.exp_not_normalised": (
        "That is e^(x/T) not normalised: it still has to be divided by the sum of all the e^(x/T), which is why "
        "it does not add up to 1."
    ),
    "quiz.mistake.exp_of_sum": (
        "That is e to the sum of the scores: apply e^x to each score, then add (e^(a+b) is not e^a + e^b)."
    ),
    "quiz.mistake.input_shape": (
        "That is the shape of x ({n} × {d_model}): the result has one row per token, but its width comes from "
        "the matrix on the right, not from x."
    ),
    "quiz.mistake.largest_weight_value": (
        "You took only the value of the heaviest token: the mix is pulled towards the others too, it is Σ weight · V."
    ),
    "quiz.mistake.linear_growth": (
        "That would be if the {d_k} terms of q·k added up without cancelling. With random signs they partly "
        "cancel, and the typical size grows as √d_k, not as d_k."
    ),
    "quiz.mistake.mask_ignored": (
        "You forgot the causal mask: “{token}” cannot look at the tokens after it, and those weights are 0."
    ),
    "quiz.mistake.multiplied": "You multiplied by {divisor} instead of dividing.",
    "quiz.mistake.multiplied_by_e": "That is e × (x/T), not e to the power x/T: e^(x/T) is a power.",
    "quiz.mistake.naive_division": (
        "That is each score divided by their sum, with no exponential: the naive division. Softmax applies e^x "
        "before dividing."
    ),
    "quiz.mistake.naive_division.softmax.naive_problem": (
        "With these scores, dividing by their sum gives no valid shares: look at the signs of the scores and of "
        "the sum."
    ),
    "quiz.mistake.negative_weight": (
        "That row has a negative weight: e^x is always positive, so no softmax weight can be negative."
    ),
    "quiz.mistake.no_divisor": "Dividing by 1 leaves the scores as they are; here you should {rule}.",
    "quiz.mistake.no_growth": (
        "1 is the size of a single product q_i · k_i. Adding up d_k = {d_k} of them makes it grow, as √d_k."
    ),
    "quiz.mistake.not_scaled": "That is the value before scaling: you still had to {rule}.",
    "quiz.mistake.one_per_token": (
        "That would be one score per token, but each token compares its query with the key of every one of the "
        "{n} tokens, itself included."
    ),
    "quiz.mistake.other_token": (
        "That is the value of “{neighbour}”, not of “{token}”: you used another token's row of x."
    ),
    "quiz.mistake.own_value": (
        "That is V_{token}[{dim}], “{token}”'s own value: the output mixes the values of all the tokens, each "
        "with its weight."
    ),
    "quiz.mistake.pair_not_halved": (
        "You used 10000^(dimension/d_model). The formula has 10000^(2i/d_model), with i the pair's number: "
        "dimensions 2i and 2i+1 share a frequency."
    ),
    "quiz.mistake.pairs_once": (
        "That counts each pair once, but score(a → b) and score(b → a) differ: both are computed."
    ),
    "quiz.mistake.plain_average": (
        "That is the plain average of the values: attention weighs each by its weight, it does not give them "
        "all the same."
    ),
    "quiz.mistake.position_dimension_swapped": (
        "You swapped position and dimension: that is PE[{dimension}, {position}]."
    ),
    "quiz.mistake.position_only": (
        "That is the positional encoding alone: x = embedding + positional encoding, you did not add {embedding}."
    ),
    "quiz.mistake.power_of_ten": "That is 10^(x/T): you used the calculator's 10^x key, not e^x.",
    "quiz.mistake.previous_token": (
        "That is the previous token. Attention does not look by position but by how well “{token}”'s Q matches the K's."
    ),
    "quiz.mistake.punctuation_skipped": "You skipped the punctuation marks: each one is a token of its own.",
    "quiz.mistake.q_dot_q": (
        "You multiplied Q_{token} · Q_{other}: the score uses one token's query and the other's key, "
        "Q_{token} · K_{other}."
    ),
    "quiz.mistake.row_instead_of_column": (
        "You used row {dim} of the matrix: in x · W, dimension {dim} of the result comes from column {dim}."
    ),
    "quiz.mistake.scaled_too_early": (
        "That score is already divided by the scaling, which is part 3. The score is just Q_{token} · K_{other}."
    ),
    "quiz.mistake.scaling_changes_nothing": (
        "They do change: the softmax depends on the differences between scores, and dividing by a number larger "
        "than 1 shrinks them."
    ),
    "quiz.mistake.scaling_sharpens": (
        "The other way round: dividing shrinks the scores and their differences, and the softmax of more similar "
        "scores is more even."
    ),
    "quiz.mistake.scores_shape": "That is the shape of the score matrix: one number per pair of tokens.",
    "quiz.mistake.self_excluded": (
        "That leaves out each token's score with itself, which is computed too: it is S's diagonal."
    ),
    "quiz.mistake.shift_flattens": (
        "Adding {shift} to every score does not change their differences, and the softmax depends on those "
        "differences only: the weights stay the same."
    ),
    "quiz.mistake.shift_sharpens": (
        "Adding {shift} to every score does not change their differences, and the softmax depends on those "
        "differences only: the weights stay the same."
    ),
    "quiz.mistake.sign_flipped": (
        "That is the row with the signs flipped: softmax(−x) gives the smallest score the most weight."
    ),
    "quiz.mistake.sin_cos_swapped": "You swapped sine and cosine: even dimensions use sine and odd ones cosine.",
    "quiz.mistake.single_row": "That would be one vector for the whole sentence: there is one row per token, {n} rows.",
    "quiz.mistake.sqrt_d_model": (
        "That is √d_model: the divisor uses the keys' dimension, d_k = {d_k}, not d_model = {d_model}."
    ),
    "quiz.mistake.sqrt_n": (
        "That is the square root of the number of tokens ({n}): the divisor depends on d_k = {d_k}, not on how "
        "many tokens there are."
    ),
    "quiz.mistake.still_scaled": (
        "That is this scenario's row, with the scores divided by {divisor}: the question is what would happen "
        "without dividing."
    ),
    "quiz.mistake.straight_line": (
        "That would be walking the same way every time ({steps} steps, {steps} away). Random steps partly cancel, and the typical distance "
        "is √{steps}."
    ),
    "quiz.mistake.subtracted": "You subtracted: x = embedding + positional encoding, they are added.",
    "quiz.mistake.sum_not_one": "That row does not add up to 1: a softmax's weights add up to exactly 1.",
    "quiz.mistake.sum_of_exps": (
        "That is the sum of the e^x, before dividing: once each is divided by that sum, the weights add up to 1."
    ),
    "quiz.mistake.sum_of_scores": (
        "That is the sum of “{token}”'s scaled scores, not of its softmax: the weights always add up to 1."
    ),
    "quiz.mistake.temperature_ignored": (
        "You forgot the temperature: each score is divided by T = {temperature} before e^x."
    ),
    "quiz.mistake.temperature_inverted": (
        "The other way round: raising the temperature shrinks the differences (x/T) and spreads the attention; "
        "lowering it concentrates it."
    ),
    "quiz.mistake.temperature_irrelevant": (
        "The temperature does change the result: dividing by T = {new_temperature} instead of T = {temperature} "
        "shrinks the differences between scores."
    ),
    "quiz.mistake.temperature_multiplied": "You multiplied by T = {temperature} instead of dividing: it is e^(x/T).",
    "quiz.mistake.transposed": "Rows and columns swapped: the result has one row per token.",
    "quiz.mistake.transposed.walk.2.score": (
        "That is the score “{other}” → “{token}” = Q_{other} · K_{token}. Order matters: the one looking brings "
        "its Q, the one looked at its K."
    ),
    "quiz.mistake.transposed.walk.2.best_match": (
        "You read “{token}”'s column: that is the token whose Q best matches “{token}”'s K. “{token}”'s row uses "
        "its Q: Q_{token} · each K."
    ),
    "quiz.mistake.transposed.walk.3.scaled_score": (
        "That is the scaled score “{other}” → “{token}”: order matters (the Q of who looks, the K of who is looked at)."
    ),
    "quiz.mistake.transposed.walk.4.weight": (
        "That is the weight “{other}” gives “{token}”: you read “{other}”'s row. Each row is the token looking."
    ),
    "quiz.mistake.transposed.walk.4.most_weight": (
        "You read “{token}”'s column: that is the token that pays “{token}” the most attention, not the one "
        "“{token}” looks at most. Each row is a token looking."
    ),
    "quiz.mistake.transposed.pipeline.most_attended": (
        "You read “{token}”'s column: that is the token that pays “{token}” the most attention, not the one "
        "“{token}” looks at most. Each row is a token looking."
    ),
    "quiz.mistake.transposed_weights": (
        "You used “{token}”'s column of weights (what the others give it) instead of its row (what “{token}” "
        "gives them)."
    ),
    "quiz.mistake.uniform": "That row shares everything equally: the softmax gives equal weights only to equal scores.",
    "quiz.mistake.unscaled_softmax": "That is the softmax of the unscaled scores: you still had to {rule}.",
    "quiz.mistake.unscaled_weights": (
        "You used the weights from the softmax of the unscaled scores; attention uses those of the scaled scores."
    ),
    "quiz.mistake.unweighted_sum": "You added the values without weighting them: each value is multiplied by its weight.",
    "quiz.mistake.used_w_q": "You used W_Q, the queries' matrix: {role}_{token} is computed with W_{role}.",
    "quiz.mistake.used_w_k": "You used W_K, the keys' matrix: {role}_{token} is computed with W_{role}.",
    "quiz.mistake.used_w_k.walk.1.which_column": "That is a column of W_K, the keys' matrix: Q is computed with W_Q.",
    "quiz.mistake.used_w_v": "You used W_V, the values' matrix: {role}_{token} is computed with W_{role}.",
    "quiz.mistake.w_q_shape": (
        "That is the shape of W_Q ({d_model} × {d_k}). Q = x · W_Q has one row per token and d_k columns."
    ),
    "quiz.mistake.weight_only": (
        "That token has the largest weight, but its V is short: what counts is weight × V, and a long V with "
        "less weight can beat it."
    ),
    "quiz.mistake.weights_ignored": "That token has the longest V, but little weight: what counts is weight × V.",
    "quiz.mistake.weights_times_x": "You mixed the x's instead of the V's: the output is Σ weight · V.",
    "quiz.mistake.words_only": (
        "You split at the spaces only: a punctuation mark stuck to a word is a token of its own too."
    ),
    "quiz.mistake.wrong_column": "That is another column: dimension {dim} of the result comes from column {dim}.",
    "quiz.mistake.x_dot_x": (
        "You multiplied x_{token} · x_{other}, the input vectors: the score compares Q_{token} with K_{other}, "
        "after projecting with W_Q and W_K."
    ),
    "quiz.mistake.x_instead_of_v": "You used the lengths of the x's, not of the V's: the output's terms are weight × V.",
    "quiz.mistake.x_similarity": (
        "That is the token whose x is most like “{token}”'s. The score compares Q with K, which go through W_Q "
        "and W_K: another token can win."
    ),
    "quiz.mistake.zero_weight": (
        "That row has an exact 0: e^x is never 0, so without a mask no softmax weight is exactly 0."
    ),
    # --- multi-head ---
    "q.multihead.head_width": (
        "With d_model = {d_model} shared among h = {h} equal heads, how many columns (d_k) does each head's W_Q have?"
    ),
    "q.multihead.most_attended": "In head {head}: which token does “{token}” (position {position}) pay the most attention to?",
    "q.multihead.concat_width": (
        "Each of the h = {h} heads gives each token an output of d_v = {d_v} numbers. How many numbers does each "
        "token have in Concat(head 1, …, head h)?"
    ),
    "q.multihead.residual": (
        "After the {h} heads, Concat and W_O, the residual connection gives each token's new vector. Which is it?"
    ),
    "quiz.option.x_plus_multihead": "x + MultiHead(x), with MultiHead(x) = Concat · W_O",
    "quiz.option.x_plus_concat": "x + Concat, without going through W_O",
    "quiz.option.x_plus_head": "x + head 1's output",
    "quiz.option.multihead_only": "MultiHead(x) alone: x is no longer needed",
    "quiz.option.x_times_multihead": "x · MultiHead(x), entry by entry",
    "quiz.mistake.heads_multiply": (
        "You multiplied: d_model × h = {d_model} × {h}. The heads share the d_model = {d_model} columns: each one "
        "gets d_model / h."
    ),
    "quiz.mistake.full_width_per_head": (
        "That would give every head the whole width, d_model = {d_model}. The h = {h} heads share those columns, "
        "d_model / h each: that is why they cost what one big head costs."
    ),
    "quiz.mistake.heads_as_width": (
        "That is the number of heads, h = {h}, not their width: each head gets d_model / h columns."
    ),
    "quiz.mistake.heads_alike": (
        "That is where “{token}” looks in another head. Each head has its own W_Q and W_K, and so its own "
        "softmax: they need not look at the same place."
    ),
    "quiz.mistake.transposed.multihead.most_attended": (
        "You read “{token}”'s column in head {head}: that is the token that pays “{token}” the most attention, "
        "not the one “{token}” looks at most. Each row is a token looking."
    ),
    "quiz.mistake.one_head_only": (
        "That is the width of one head, d_v = {d_v}: Concat puts the outputs of the h = {h} heads side by side."
    ),
    "quiz.mistake.one_per_head": "That would be one number per head: each head brings its d_v = {d_v} numbers, not one.",
    "quiz.mistake.whole_matrix": (
        "That is every number of the Concat matrix, for the {n} tokens: the question is per token, one row."
    ),
    "quiz.mistake.w_o_skipped": ("You skipped W_O: the heads' output is Concat · W_O, and that is what is added to x."),
    "quiz.mistake.one_head_added": (
        "That uses one head only: what is added is what they all give together, Concat(head 1, …, head {h}) · W_O."
    ),
    "quiz.mistake.residual_forgotten": (
        "That drops x: the residual connection adds the input, x + MultiHead(x), so each token keeps what it was."
    ),
    "quiz.mistake.residual_multiplied": "The residual connection adds, it does not multiply: x + MultiHead(x).",
    # --- what is learned ---
    "q.learning.trained_top": (
        "If you train W_Q and W_K toward the target matrix, which token will “{token}” (position {position}) look "
        "at most in the end?"
    ),
    "q.learning.start_loss": (
        "Before training (step 0): what is the loss L = −(1/n) Σᵢ Σⱼ T_ij · log A_ij of the starting weights A "
        "against the target T? (n = {rows} rows, natural log; A comes from the scores divided by {divisor})"
    ),
    "quiz.mistake.start_top": (
        "That is where “{token}” looks now, before training. Training lowers the loss, which is smallest when "
        "each row of weights equals its target row."
    ),
    "quiz.mistake.transposed.learning.trained_top": (
        "You read “{token}”'s column of the target: who should look at “{token}”. “{token}”'s row says whom it "
        "should look at."
    ),
    "quiz.mistake.always_self.learning.trained_top": (
        "Training does not favour a token's own column: it pulls “{token}”'s row toward its target row."
    ),
    "quiz.mistake.unscaled_softmax.learning.start_loss": (
        "That is the loss with the softmax of the undivided scores: the weights A come from the scores divided "
        "by {divisor}."
    ),
    "quiz.mistake.transposed.learning.start_loss": (
        "You crossed the rows: you used T_ji instead of T_ij. Each row of T goes with the same row of A, that of "
        "the token looking."
    ),
    "quiz.mistake.sum_not_mean": (
        "You added the terms of the {rows} rows without dividing by {rows}: the loss is their mean."
    ),
    "quiz.mistake.log10": "You used the base-10 log: the loss uses the natural log, ln.",
    # --- a real model ---
    "q.real_model.most_attended": (
        "In layer {layer}, head {head}: which piece does “{token}” (position {position}) pay the most attention to? "
        "Predict it, or find its row in that head's small square above."
    ),
    "q.real_model.scaled_score": (
        "In layer {layer}, head {head}, the score q·k from “{token}” (position {position}) to “{other}” (position "
        "{other_position}) is {score}. Each head works with d_k = {d_k} numbers (the whole model, with "
        "d_model = {d_model}). What number does the softmax receive for that cell?"
    ),
    "quiz.mistake.transposed.real_model.most_attended": (
        "You read “{token}”'s column in layer {layer}, head {head}: that is the piece that pays “{token}” the most "
        "attention, not the one “{token}” looks at most. Each row is a piece looking."
    ),
    "quiz.mistake.special_sink": (
        "Many heads of a real model park almost all their weight on [CLS]/[SEP] (or <s>/</s>), but not all of them "
        "and not in every row: in this head, “{token}”'s row gives more to another piece."
    ),
    "quiz.mistake.heads_alike.real_model.most_attended": (
        "That is where “{token}” looks in another head of layer {layer}. Each head has its own W_Q and W_K, hence "
        "its own softmax: they need not look at the same place."
    ),
    "quiz.mistake.divided_by_d_model": (
        "That is what dividing by d_model = {d_model}, the width of the whole model, gives; here you should {rule}, "
        "the root of one head's width."
    ),
}
