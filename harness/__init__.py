"""The harness shared by the tests and the benchmarks (benchmarks/): a server, a browser, a model's files.

- `harness.server`: start `streamlit run` on a free local port, wait until it is healthy, stop it.
- `harness.browser`: find and launch Debian's Chromium, and wait on Streamlit's own readiness signals (the
  server's "script finished" messages and the page's attributes), never on sleeps.
- `harness.tiny_model`: a BERT model directory (config.json, model.safetensors, tokenizer.json) in the real file
  formats, tiny for the tests, any shape for the benchmarks.

It lives outside tests/ so that the benchmarks do not depend on the test suite.
"""
