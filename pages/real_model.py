"""Your sentence in a real pretrained model: its pieces, every head of every layer, the lesson's question, and any
weight derived with the walkthrough's arithmetic, all computed by the app's own engine."""

from ui import model_source, questions, shell
from ui.layout import page_header
from ui.sections import real_model, real_model_context

shell.page("real_model")
page_header("real.title", "real.lead")
loaded = model_source.model_or_stop()
sentence = real_model.sentence_ui()
reading = real_model.reading_or_stop(loaded, sentence)
real_model.pieces_ui(loaded, reading)
question = real_model.asked(reading)
layer, head = real_model.all_heads_ui(reading, question)
# the picked head large, and everything below that reads its rows, wait for a prediction about one of its rows
if questions.gate_ui("real_model.head", real_model.question_view(reading, layer, head)):
    real_model.head_ui(reading, layer, head)
    real_model.measures_ui(reading)
    if question is not None:
        real_model.question_ui(question, sentence)
    real_model.cell_ui(reading, layer, head, question)
real_model_context.context_ui(loaded)
real_model.provenance_ui(loaded)
