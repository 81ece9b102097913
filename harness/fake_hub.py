"""A model hub on 127.0.0.1 for the download's tests: the files of one repository at one revision, served the way
the Hugging Face Hub answers `huggingface_hub` (HEAD for a file's size, hash and commit; GET with byte ranges).

It can cut a file's first download after some bytes (a connection lost half way) and remembers every request, so a
test sees that the next try asks only for the rest.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class FakeHub:
    """`files` of `repo` at `revision`, served on 127.0.0.1 until stop()."""

    repo: str
    revision: str
    files: dict[str, bytes]
    cut_after: dict[str, int] = field(default_factory=dict)  # file -> bytes its first GET sends before it drops
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)  # (method, file, Range header)
    answer: int | None = None  # an HTTP status to answer every request with instead (503, 404, ...)

    def __post_init__(self) -> None:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:
                hub.serve(self, body=False)

            def do_GET(self) -> None:
                hub.serve(self, body=True)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def serve(self, request: BaseHTTPRequestHandler, *, body: bool) -> None:
        prefix = f"/{self.repo}/resolve/{self.revision}/"
        name = request.path[len(prefix) :] if request.path.startswith(prefix) else ""
        self.requests.append((request.command, name, request.headers.get("Range")))
        if self.answer is not None:
            self.refuse(request, self.answer)
            return
        if name not in self.files:
            self.refuse(request, 404, entry_not_found=True)
            return
        data = self.files[name]
        start = 0
        wanted = request.headers.get("Range")
        if wanted and wanted.startswith("bytes=") and wanted.endswith("-"):
            start = int(wanted[len("bytes=") : -1])
        request.send_response(206 if start else 200)
        request.send_header("X-Repo-Commit", self.revision)
        # the hub gives an LFS file's sha256 as its linked ETag (a small file's ETag is its git hash)
        request.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
        if name.endswith(".safetensors"):
            request.send_header("X-Linked-Etag", f'"{hashlib.sha256(data).hexdigest()}"')
            request.send_header("X-Linked-Size", str(len(data)))
        if start:
            request.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        request.send_header("Content-Length", str(len(data) - start))
        request.end_headers()
        if not body:
            return
        cut = self.cut_after.pop(name, None)
        if cut is not None:  # the connection is lost half way: only `cut` bytes arrive
            request.wfile.write(data[start : start + cut])
            request.wfile.flush()
            request.close_connection = True
            request.connection.shutdown(2)
            return
        request.wfile.write(data[start:])

    def refuse(self, request: BaseHTTPRequestHandler, status: int, *, entry_not_found: bool = False) -> None:
        request.send_response(status)
        if entry_not_found:
            request.send_header("X-Error-Code", "EntryNotFound")
        request.send_header("Content-Length", "0")
        request.end_headers()


def model_files_of(directory: Path, names: tuple[str, ...]) -> dict[str, bytes]:
    """The bytes of `names` in `directory`, for a FakeHub to serve."""
    return {name: (directory / name).read_bytes() for name in names}
