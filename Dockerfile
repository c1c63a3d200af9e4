# ctxhub over streamable HTTP (/mcp) and SSE (/sse) for dev containers and remote agents.
#   docker build -t ctxhub .
#   docker run --rm -p 127.0.0.1:8765:8765 -e CTXHUB_TOKEN=... -v "$PWD:/workspace" -v ctxhub-store:/data ctxhub
# The hub refuses to start on 0.0.0.0 without CTXHUB_TOKEN. See docs/dev-containers.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# git: mcp-server-git in the default config needs the binary; a bind-mounted repo belongs to another uid.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && git config --system --add safe.directory '*'


WORKDIR /opt/ctxhub
COPY pyproject.toml README.md ./
COPY context_mode ./context_mode
COPY hub ./hub
COPY tools ./tools
# A plain install, as scripts/check-wheel tests it: the packaged default config's downstreams
# (mcp-server-time, mcp-server-git) are runtime dependencies.
RUN pip install .

# Non-root; the store (XDG_CACHE_HOME/ctxhub/store) lives on the /data volume. /data is world-writable
# (sticky) so the container may also run as the host user (compose `user:`) to write into a bind mount.
RUN useradd --create-home --uid 10001 ctxhub \
    && mkdir -p /data /workspace \
    && chown ctxhub:ctxhub /data /workspace \
    && chmod 1777 /data
USER ctxhub
ENV XDG_CACHE_HOME=/data \
    CTXHUB_WORKSPACE=/workspace
VOLUME ["/data"]
WORKDIR /workspace
EXPOSE 8765

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=2)"]

# The token comes from the environment (CTXHUB_TOKEN), never from the image.
ENTRYPOINT ["ctxhub"]
CMD ["serve", "--transport", "http", "--host", "0.0.0.0", "--port", "8765"]
