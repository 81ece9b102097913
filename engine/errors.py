"""One exception type the UI can translate: a code, its parameters, and an English message."""


class EngineInputError(ValueError):
    """Invalid input to the engine.

    `code` names the problem (a key the UI looks up in its strings) and `params` fills that message,
    so a page can tell the user what is wrong in their own language; `str(error)` stays English for logs.
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
