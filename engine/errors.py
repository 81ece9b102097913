"""One exception type the UI can translate: a code, its parameters, and an English message."""

from __future__ import annotations

import numbers


class EngineInputError(ValueError):
    """Invalid input to the engine.

    `code` names the problem (a key the UI looks up in its strings) and `params` fills that message,
    so a page can tell the user what is wrong in their own language; `str(error)` stays English for logs.
    Every code is listed in CODES with the parameters its message may use.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


# code -> (the parameters every error with this code carries, what it means). The UI translates each code;
# a test checks that the engine raises no code missing here and that the listed parameters are present.
CODES: dict[str, tuple[tuple[str, ...], str]] = {
    # a number typed into a cell (parse_number); the grammar is in parse_number's docstring
    "empty_or_nan": ((), "the cell is empty, or holds NaN"),
    "not_a_number": ((), "not a number: `value` (a cell's shortened text) or `name` (a matrix) says which"),
    "ambiguous_number": (("value",), "two separators (1.000,5; 1,2,3) or one that may group thousands (1,000)"),
    "number_too_long": (("limit", "length"), "a number written with more than `limit` characters"),
    "infinite": (("value",), "inf, Infinity or ∞"),
    "too_large": (("value", "limit"), "beyond ±`limit`"),
    # a token name (check_token_name)
    "empty_token": ((), "the name is empty"),
    "token_not_text": ((), "the name is neither text nor a number"),
    "token_too_long": (("limit",), "more than `limit` characters"),
    "token_bad_characters": (("char",), "holds `char` (e.g. U+D800): a lone surrogate, control or bidi character"),
    "token_invisible": ((), "only spaces, zero-width or other invisible characters"),
    "token_hidden_character": (
        ("char",),
        "holds `char`, there but not seen: a format character, selector or blank",
    ),
    "duplicate_token": (("name",), "another token already has this name"),
    "token_lookalike": (("name",), "looks the same as `name`, another token's name (Cyrillic «р» for Latin «p»…)"),
    # the pipeline's sentence and options
    "sentence_not_text": ((), "the sentence is not text"),
    "sentence_too_long": (("limit", "length"), "more than `limit` characters; refused before any work"),
    "sentence_bad_characters": (("char",), "holds `char`: a lone surrogate, control (not whitespace) or bidi"),
    "empty_sentence": ((), "the sentence has no tokens"),
    "out_of_range": (("name", "low", "high"), "the whole number `name` must be from `low` to `high`"),
    "lesson_weights_shape": (("d_model", "d_k"), "the lesson's weights are 4×4"),
    "bad_weights": ((), "weights are 'lesson' or 'random'"),
    # softmax, the naive division, attention
    "scores_not_numbers": (("name",), "text, None, complex, bool, objects or ragged lists instead of real numbers"),
    "scores_shape": (("name",), "not a row of scores (softmax_steps, naive_normalize) or no such axis (softmax)"),
    "empty_scores": (("name",), "no scores at all"),
    "nan_input": (("name",), "a score is NaN"),
    "not_finite": (("name",), "a number is NaN or infinite where finite numbers are needed"),
    "bad_temperature": (("value",), "the temperature is not a finite number > 0 (or outside the scenario's range)"),
    "overflow": (("name",), "numbers this large overflow float64 in `name`"),
    "not_matrix": (("name",), "`name` is not a non-empty 2-D matrix of real numbers"),
    "shape_mismatch": ((), "the matrices' shapes do not multiply; `name` says which, when known"),
    "bad_scale": ((), "the scale is not one of none, sqrt, dk"),
    "bad_mask": ((), "the mask is not None, 'causal' or an n×n boolean array"),
    "no_heads": ((), "multi-head attention with no head"),
    "movement_shapes": (("x_shape", "output_shape"), "x and the attention output are not matrices of one shape"),
    # the scaling page's experiment
    "bad_dks": (("low", "high"), "no d_k to measure: the list of d_k values is empty or not a list"),
    # a scenario
    "bad_tokens": ((), "a scenario's tokens are not a list of names"),
    "bad_causal": ((), "causal is not true or false"),
    "bad_scenario": (("field",), "a link or file that cannot be read; `field` names the part that is wrong"),
    # multi-head attention and the designed heads
    "bad_head": (("head",), "head `head` is not three matrices (W_Q, W_K, W_V)"),
    "bad_d_model": (("d_model",), "d_model is not a whole number >= 1"),
    "heads_do_not_divide": (("columns", "h"), "`columns` columns cannot be split into `h` heads"),
    "bad_seed": ((), "a seed outside the allowed range"),
    "designed_heads_count": (("h", "supported"), "the designed heads exist for `supported` heads only"),
    "designed_heads_rank": (("n", "d_model"), "the construction needs 2 <= n <= d_model and independent rows of x"),
    "designed_heads_sentence": (("subject", "verbs"), "the sentence lacks the subject or both verbs"),
    # training W_Q and W_K toward a target
    "bad_d_k": (("limit",), "d_k outside 1…`limit`"),
    "bad_n": (("limit",), "more tokens than `limit`"),
    "bad_learning_rate": (("lo", "hi"), "the learning rate is outside `lo`…`hi`"),
    "bad_loss_weight": (("name",), "a weight of the loss is negative or not finite"),
    "bad_optimiser": ((), "the optimiser is not gd or adam"),
    "bad_steps": (("limit", "value"), "a run of `value` steps would pass the `limit` steps a run may take"),
    "bad_tolerance": ((), "the tolerance is not a finite number > 0"),
    "missing_target_output": ((), "the output term is on but no target output was given"),
    "bad_preset": (("name",), "no target preset called `name`"),
    "preset_needs_tokens": ((), "the preset needs words this sentence lacks"),
    "bad_token_index": (("n",), "a token index outside 0…n−1"),
    "no_tokens": ((), "there are no tokens"),
    "target_negative": (("row", "col"), "the target has a negative entry"),
    "target_row_zero": (("row",), "a target row adds up to 0"),
    "target_not_square": (("got",), "the target is not n × n"),
    "target_on_masked": (("row", "col"), "the target puts weight on a masked cell"),
    "target_not_normalised": (("rows",), "target rows that do not add up to 1"),
    # the real model
    "model_missing_files": (("missing",), "the model directory lacks `missing` (its path only in the English text)"),
    "model_bad_config": (("field",), "config.json is unreadable or `field` is wrong"),
    "model_unsupported": (("field", "found"), "config.json's `field` is `found`, not what this page computes"),
    "model_bad_weights": ((), "model.safetensors is unreadable or a tensor is wrong"),
    "model_positions_after_pad": (("row",), "a bert config over a position table whose pad row `row` is zero"),
    "model_positions_from_zero": (("row",), "an xlm-roberta config over a position table whose pad row is trained"),
    "model_bad_tokenizer": ((), "tokenizer.json is unreadable"),
    "model_offline": (("repo",), "the model hub cannot be reached and there is no local copy"),
    "model_download_failed": (("repo", "reason"), "the download failed: `reason`, the exception's type only"),
    "model_download_refused": (("repo", "status"), "the hub answered HTTP `status`"),
    "model_download_cut": (("repo", "file", "done", "size"), "`done` of `size` MB arrived, kept for the next try"),
    "model_download_damaged": (("repo", "file"), "`file` arrived without the hub's sha256: discarded"),
    "model_disk_space": (("needed", "free"), "the disk has `free` MB, the download needs `needed`"),
    "model_too_many_tokens": (("count", "limit"), "the sentence has `count` pieces; the page takes `limit`"),
    "bad_text": ((), "the sentence is not text"),
    "bad_token_ids": ((), "token ids outside the vocabulary"),
    "index_out_of_range": (("name", "limit"), "`name` outside 0…`limit`"),
    "word_not_in_sentence": (("word",), "`word` is not in the sentence"),
    # questions
    "unknown_question": (("template",), "no question template called `template`"),
    "question_context": (("template",), "the template needs another kind of input"),
    "question_not_applicable": (("template",), "no fair question of this template for this input"),
    "bad_question_input": (("name",), "the question's input `name` is wrong"),
    "bad_response": ((), "an answer that is not a finite number or an option"),
}


def checked_int(value: object, name: str, bounds: tuple[int, int]) -> int:
    """`value` as an int within `bounds`, or EngineInputError("out_of_range") before any work uses it."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
        raise EngineInputError(
            "out_of_range", f"{name} must be a whole number from {low} to {high}", name=name, low=low, high=high
        )
    return int(value)
