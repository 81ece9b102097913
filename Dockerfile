# The app in a container, the way Streamlit's "Deploy Streamlit using Docker" tutorial builds one: a slim Python, the
# pinned runtime packages, a non-root user, a health check on Streamlit's own /_stcore/health. The serving
# configuration is .streamlit/config.toml (copied with the app), plus the address and port below.
#
#   docker build -t attention-app .
#   docker run --rm -p 8501:8501 attention-app             # one container; the class store stays in-process
#   docker compose up --build                              # replicas behind haproxy, with Redis (compose.yaml)
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app
COPY --chown=app:app . .
# The app's own bytecode, compiled once here: PYTHONDONTWRITEBYTECODE above keeps a running container from writing
# it, so without this every start compiled app.py, pages/, ui/ and engine/ from source again (pip compiles the
# packages' own at install).
RUN python -m compileall -q app.py pages ui engine
USER 10001

EXPOSE 8501
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=2).status != 200)"]
ENTRYPOINT ["streamlit", "run", "app.py", "--server.port=8501", "--server.address=0.0.0.0"]
