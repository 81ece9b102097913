"""English strings: what attention is for (the same word in two sentences) and where this step sits."""

STRINGS: dict[str, str] = {
    # the real model: the same word in two sentences
    "ctx.title": "What is attention for? The same word in two sentences",
    "ctx.body": (
        "The lesson says attention turns “perro” into “perro in this sentence”. Here it is measured: the same word "
        "in two sentences, and its vector at each stage of the model. The rule from pieces to words: a word's vector "
        "is the **mean of its pieces' vectors** (the rule sentence-transformers averages a sentence with, applied to "
        "one word). The stages: the word's row of the word table (the same in any sentence), the embeddings (the row "
        "+ the position, normalised) and the output of each layer."
    ),
    "ctx.open": "Open the measurement: the same word in two sentences, layer by layer",
    "ctx.word": "The word",
    "ctx.pair.a": "Sentence 1",
    "ctx.pair.b": "Sentence 2",
    "ctx.pair.help": "Two sentences where the word means different things.",
    "ctx.control.title": "Control pair: the same word with the same meaning",
    "ctx.control.body": (
        "Two sentences where the word means the same. The contexts change too, so its vector moves too: the control "
        "tells how much it moves from a change of sentence, without a change of meaning."
    ),
    "ctx.control.a": "Control 1",
    "ctx.control.b": "Control 2",
    "ctx.example.es": "Spanish example (“banco”)",
    "ctx.example.en": "English example (“bank”)",
    "ctx.no_word": "Type a word that is in the sentences.",
    "ctx.not_found": "“{word}” is not a word of “{sentence}”: write it the same in the sentences (case and punctuation do not count).",
    "ctx.stage.table": "table",
    "ctx.stage.embeddings": "embeddings",
    "ctx.stage.layer": "layer {layer}",
    "ctx.series.pair": "the two sentences",
    "ctx.series.control": "the control pair",
    "ctx.figure": "Cosine between the two vectors of “{word}”, stage by stage",
    "ctx.figure.x": "stage",
    "ctx.figure.y": "cosine",
    "ctx.figure.alt": "The cosine between the two vectors of “{word}” at each stage, for the two sentences and for the control pair.",
    "ctx.col.stage": "stage",
    "ctx.col.pair": "cosine, the two sentences",
    "ctx.col.control": "cosine, control",
    "ctx.col.heads": "the heads that brought it the most from the other words (sentence 1 and sentence 2)",
    "ctx.head": "head {head}: {first} and {second}",
    "ctx.heads.caption": (
        "What a head brought: the length of what it adds to the word's vector from the other words, "
        "‖Σ a_ij · v_j · W_O‖ over the pieces j of the other words (not the word itself nor the special tokens), "
        "averaged over the word's pieces. The two that brought the most in both sentences together are named."
    ),
    "ctx.vectors.title": "“{sentence}”: first {shown} of {d} dimensions",
    "ctx.vectors.figure": "The word's vector at each stage",
    "ctx.reading.same": (
        "“{word}” starts from the same rows of the table in both sentences (cosine {first}); after the last layer, "
        "the cosine between its two vectors is {pair}."
    ),
    "ctx.reading.split": (
        "“{word}” is not cut into the same pieces in both sentences (cosine in the table {first}); after the last "
        "layer, the cosine between its two vectors is {pair}."
    ),
    "ctx.reading.lower": (
        "In the control pair it ends at {control}: the context moved the pair's two vectors apart more than the "
        "control's (by more than {margin})."
    ),
    "ctx.reading.close": (
        "In the control pair it ends at {control}: the difference from the pair is less than {margin}, so these "
        "numbers do not show the model separating the two meanings more than any two contexts."
    ),
    "ctx.reading.higher": (
        "In the control pair it ends at {control}, below the pair: here the control moved more, and these numbers "
        "do not show the model separating the meanings."
    ),
    "ctx.caveat": (
        "A cosine says how alike two vectors are, not what each one means: the pair dropping more than the control "
        "is consistent with the model telling the two meanings apart, not proof that it understands them."
    ),
    # the pipeline: the same token in two sentences, made-up weights
    "pctx.title": "The same word in two sentences",
    "pctx.body": (
        "What attention does, with this same mechanism: a token's output is a blend of its sentence's V's. Put the "
        "same word at the same position of two sentences: it goes in with the same x (same embedding, same "
        "position), and if its neighbours are others, it comes out with another output. With the causal mask only "
        "the neighbours before it count."
    ),
    "pctx.word": "The word",
    "pctx.a": "Sentence 1",
    "pctx.b": "Sentence 2",
    "pctx.not_found": "“{word}” is not a token of “{sentence}”.",
    "pctx.col.sentence": "sentence",
    "pctx.col.position": "position",
    "pctx.col.top": "looks most at",
    "pctx.vectors": "x and output of “{word}” in the two sentences",
    "pctx.reading.same_x": (
        "“{word}” goes into both sentences the same (cosine between the two x: {x_cos}) and comes out different "
        "(cosine between the two outputs: {out_cos}): all that changed are its neighbours."
    ),
    "pctx.reading.other_x": (
        "“{word}” is not at the same position in both sentences, so it already goes in different (cosine between "
        "the two x: {x_cos}, from the positional encoding); it comes out with a cosine of {out_cos}. To see the "
        "neighbours' effect alone, put it at the same position."
    ),
    "pctx.reading.identical_causal": "With the causal mask, “{word}” only looks at the tokens up to its position, and in both sentences they are the same: it comes out with the same output (cosine {out_cos}). What comes after does not reach it.",
    "pctx.reading.identical": "Both sentences give “{word}” the same neighbours: it comes out with the same output (cosine {out_cos}).",
    "pctx.honest": (
        "Careful: with made-up matrices this is **mixing, not meaning**. The output changes because it averages "
        "other V's, not because the model knows what the word means; that only comes with trained weights (the "
        "real-model page measures it)."
    ),
    "pctx.real_link": "The same word in a trained model",
    # the question before it
    "q.real_model.same_word": (
        "Before you see the numbers: will the vector of “{word}” be the same in both sentences after the last layer?"
    ),
    "q.pipeline.same_word": "Before you see the numbers: will the output of “{word}” be the same in both sentences?",
    "quiz.option.word_mixes_context": "No: attention blends into it what it brings from the other words of each sentence",
    "quiz.option.word_same_vector": "Yes: it is the same word, so it has a single vector",
    "quiz.option.word_meaning_lookup": "No: the model looks up the right meaning in a list",
    "quiz.option.word_position_only": "Only if the word is at another position in the sentence",
    "quiz.mistake.one_vector_per_word": (
        "The word starts from a single row of the table, but that is only the input: attention adds what it brings "
        "from the other words, and those change from sentence to sentence."
    ),
    "quiz.mistake.meaning_lookup": (
        "There is no list of meanings: the vector changes because attention blends in the other words. Whether that "
        "separates the meanings is not taken for granted: it is measured."
    ),
    "quiz.mistake.only_position_counts": (
        "The position goes in too, but it is not all: with “{word}” at the same position, other neighbours give "
        "another blend."
    ),
    "quiz.mistake.same_neighbours": (
        "Here both sentences give “{word}” the same neighbours in the same order, and the same blend gives the same "
        "vector."
    ),
    "where.title": "Where this step sits",
    "where.body": "Self-attention does not work alone: it is the first piece of a **block** that a Transformer repeats N times, one on top of the other. Here is the block, from the bottom up.",
    "where.figure": "The Transformer block: encoder and decoder",
    "where.alt": "Two columns of boxes from the bottom up. Encoder: input (embeddings + position), multi-head self-attention (this step), residual sum + layer norm, feed-forward, residual sum + layer norm, output. Decoder: input, self-attention with the causal mask, residual sum + layer norm, cross-attention (reads the encoder's output), residual sum + layer norm, feed-forward, residual sum + layer norm, output. Dotted lines: each residual skips its sublayer.",
    "where.encoder": "Encoder",
    "where.decoder": "Decoder",
    "where.box.inputs": "embeddings + position",
    "where.box.attention": "self-attention (several heads)",
    "where.box.masked_attention": "self-attention with causal mask",
    "where.box.cross_attention": "cross-attention (K, V: the encoder's)",
    "where.box.add_norm": "x + sublayer → layer norm",
    "where.box.feed_forward": "feed-forward (per token)",
    "where.box.output": "output",
    "where.repeat": "× N layers",
    "where.here": "this step →",
    "where.boxes": "- **Self-attention**: what this app is about; each token gathers what it brings from the others.\n- **Residual + layer norm**: the output is added to what went in (the dotted lines) and each row is normalised, as in part 5 of “Several heads”.\n- **Feed-forward**: two matrix multiplications with a non-linearity between them, **to each token on its own**: here no token looks at another.\n- Another residual sum and another layer norm, and the result goes into the next block.",
    "where.encoder_decoder": "**Encoder against decoder.** An encoder reads a whole sentence at once: each token looks at all of them, those before and those after (BERT, or the model of the “A real model” page). A decoder **generates** text one token at a time: its self-attention carries the causal mask, and in between it has a cross-attention whose queries come from the decoder and whose keys and values come from the encoder's output (in a translator). A model such as GPT is the decoder column alone, without the cross-attention.",
    "where.mask": "**Why the decoder needs the causal mask.** When generating, the next token does not exist yet: token i can only look at tokens 1 … i. In training, the decoder sees the whole sentence and learns to predict each token from the ones before; without the mask, each position could copy the answer from the token after it, and what it learns would be useless for generating. The mask puts −∞ in the scores of future tokens before the softmax, so their weight is exactly 0 (try it with the builder's “Causal mask” toggle).",
    "where.real_model": "The model of the “A real model” page is an **encoder**: it uses no causal mask, and each piece looks at every piece of the sentence, also at those after it.",
    "where.mask_link": "What is the causal mask for? (at the end of “Several heads”)",
    "where.mask_caption": "A decoder uses it, to generate text. This app's real model is an encoder: it does not.",
}
