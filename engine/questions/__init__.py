"""Questions asked before a page reveals its numbers, generated from what it shows, graded with named mistakes.

Importing this package registers every template (one module per page family); a new page adds a module that
registers its own through a `Templates(context)` of its input (`.number`, `.choice`, or `.keyed` for options
whose mistakes are a table) and is imported here.
"""

from engine.questions import context, learning, multihead, pipeline, real_model, scaling, softmax, walkthrough
from engine.questions.context import WordPairView
from engine.questions.core import (
    CHANGE_KEYS,
    LINE_KEYS,
    TEMPLATES,
    Grade,
    Kind,
    OptionKind,
    Outcome,
    Params,
    Question,
    Template,
    Templates,
    default_tolerance,
    generate,
    grade,
    questions_for,
    sections,
    template,
    templates_for,
)
from engine.questions.learning import LearningView
from engine.questions.multihead import MultiHeadView
from engine.questions.real_model import RealModelView
from engine.questions.scaling import ScalingSetup
from engine.questions.softmax import SoftmaxRow

__all__ = [
    "CHANGE_KEYS",
    "LINE_KEYS",
    "TEMPLATES",
    "Grade",
    "Kind",
    "LearningView",
    "MultiHeadView",
    "OptionKind",
    "Outcome",
    "Params",
    "Question",
    "RealModelView",
    "ScalingSetup",
    "SoftmaxRow",
    "Template",
    "Templates",
    "WordPairView",
    "context",
    "default_tolerance",
    "generate",
    "grade",
    "learning",
    "multihead",
    "pipeline",
    "questions_for",
    "real_model",
    "scaling",
    "sections",
    "softmax",
    "template",
    "templates_for",
    "walkthrough",
]
