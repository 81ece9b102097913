"""From a sentence to contextualised vectors: tokens, embeddings, positional encoding, attention, what it did."""

from ui import shell
from ui.layout import page_header
from ui.sections import pipeline

shell.page("pipeline")
page_header("pipeline.title", "pipeline.lead")
sentence, d_model = pipeline.controls_ui()
vectors = pipeline.vectors_or_stop(sentence, d_model)
if pipeline.vectors_question_ui(vectors):  # predict first: the tokens, a positional encoding, an entry of x
    pipeline.tokens_ui(vectors)
    pipeline.embeddings_ui(vectors)
    pipeline.positional_ui(vectors)
    pipeline.x_ui(vectors, pipeline.is_lesson_case(vectors, d_model))
    pipeline.attention_intro_ui(vectors)
    pipeline.attention_onward_ui(vectors)
pipeline.code_ui()
