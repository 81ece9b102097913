"""The browser harness shared by the browser tests (tests/e2e) and the benchmarks (benchmarks/).

- `harness.server`: start `streamlit run` on a free local port, wait until it is healthy, stop it.
- `harness.browser`: find and launch Debian's Chromium, and wait on Streamlit's own readiness signals (the
  server's "script finished" messages and the page's attributes), never on sleeps.

It lives outside tests/ so that the benchmarks do not depend on the test suite.
"""
