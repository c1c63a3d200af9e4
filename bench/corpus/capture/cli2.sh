#!/usr/bin/env bash
# Capture script for the `cli2` corpus group: CLI / CI tool output of other ecosystems
# (tables, test runners, linters, service logs, JSON that an agent fetches).
# Usage: bash bench/corpus/capture/cli2.sh <section>
#   sections: json table test lint stack all check
# `stack` starts real services (PostgreSQL 15 with jsonlog, gunicorn + httpbin, verdaccio, nginx,
# memcached) inside a fresh PID namespace, drives them, and captures their logs, `ps aux` and a psql
# query; logs embed run-specific pids and timings: after a re-run, re-pick those facts (`check` says).
# Everything is built under /tmp/corpus-cli2; only payloads are written to bench/corpus/.
# Needs (Debian bookworm): postgresql-15, nginx-light, memcached, golang-go, shellcheck, go-staticcheck,
#   golang-gopkg-check.v1-dev golang-github-stretchr-testify-dev golang-github-gorilla-mux-dev
#   golang-gopkg-yaml.v3-dev; rust toolchain (cargo 1.95); node 20 + npm 11; python3.11; PyPI + npm.
set -euo pipefail
S=/tmp/corpus-cli2
OUT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
DIFFS=$S/diffs
mkdir -p "$S" "$DIFFS" "$S/dl" "$S/src"
export GOCACHE=$S/gocache XDG_CACHE_HOME=$S/cache GOFLAGS='' GOPROXY=off
# shellcheck source=common.sh
. "$HERE/common.sh"

# Allowed normalisation: scratch paths -> runner-style paths.
norm() { norm_paths -e "s#$S/venv-web#/home/runner/work/httpbin-app/.venv#g" \
             -e "s#$S/venv-md#/home/runner/work/markdown/.venv#g" \
             -e "s#$S/venv-tools#/home/runner/work/tqdm/.venv#g" \
             -e "s#$S/src/markdown-3.11.3#/home/runner/work/markdown/markdown#g" \
             -e "s#$S/src/tqdm-4.70.1#/home/runner/work/tqdm/tqdm#g" \
             -e "s#$S/cargo-home#/home/runner/.cargo#g" \
             -e "s#$S/csv#/home/runner/work/rust-csv/rust-csv#g" \
             -e "s#$S/golist#/home/runner/go#g" \
             -e "s#$S/gt#/home/runner/go#g" \
             -e "s#$S/sc#/home/runner/go#g" \
             -e "s#$S/express/express#/home/runner/work/express/express#g" \
             -e "s#$S/qs/qs#/home/runner/work/qs/qs#g"; }

pip_sdist() {  # name version -> unpacked into $S/src/<name>-<version>
  sdist "$1" "$2"; unpack "$S/dl/$1-$2.tar.gz" "$S/src/$1-$2"
}

venv() {  # dir packages... : a fresh venv with pip 26.0.1 and the packages
  local dir=$1; shift
  [ -x "$dir/bin/python" ] || python3 -m venv "$dir"
  "$dir/bin/pip" install -q pip==26.0.1
  [ $# -eq 0 ] || "$dir/bin/pip" install -q "$@"
}

gopath_copy() {  # gopath import-path: copy a Debian golang-*-dev source into a scratch GOPATH
  local gp=$1 path=$2
  rm -rf "${gp:?}/src/$path"; mkdir -p "$gp/src/$(dirname "$path")"
  cp -rL "/usr/share/gocode/src/$path" "$gp/src/$(dirname "$path")/"
}

# ---------------------------------------------------------------- json x3
json_section() {
  # cargo metadata of the csv crate (Debian librust-csv-dev), offline against the Debian registry
  mkdir -p "$S/cargo-home"
  printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n[net]\noffline = true\n' > "$S/cargo-home/config.toml"
  rm -rf "$S/csv"; cp -r /usr/share/cargo/registry/csv-1.1.6 "$S/csv"; rm -f "$S/csv/Cargo.lock"
  (cd "$S/csv" && CARGO_HOME=$S/cargo-home cargo metadata --format-version 1) | norm > "$OUT/json-cargo-metadata-csv.json"
  # go list -json of testify (Debian golang-github-stretchr-testify-dev), GOPATH mode
  gopath_copy "$S/golist" github.com/stretchr/testify
  (cd "$S/golist/src/github.com/stretchr/testify" && GO111MODULE=off GOPATH=$S/golist:/usr/share/gocode go list -json ./...) \
    | norm > "$OUT/json-go-list-testify.json"
  # pip inspect of a venv with httpbin + gunicorn (also the app of the stack section)
  venv "$S/venv-web" httpbin==0.10.4 gunicorn==27.0.1
  "$S/venv-web/bin/pip" inspect | norm > "$OUT/json-pip-inspect-httpbin.json"
  wc -c "$OUT"/json-cargo-metadata-csv.json "$OUT"/json-go-list-testify.json "$OUT"/json-pip-inspect-httpbin.json
}

# ---------------------------------------------------------------- table x2 (+2 in stack)
table_section() {
  # dpkg -l of this runner image, as a non-tty shell gets it
  env -u COLUMNS dpkg -l > "$OUT/table-dpkg-l-bookworm-runner.txt"
  # npm outdated --all of express 4.18.2 (npm tarball) after a plain npm install
  local E=$S/express
  rm -rf "$E"; mkdir -p "$E"
  (cd "$E" && npm pack -q express@4.18.2 > /dev/null && tar xzf express-4.18.2.tgz && mv package express)
  (cd "$E/express" && npm install --ignore-scripts --no-audit --no-fund > "$E/install.log" 2>&1)
  (cd "$E/express" && npm outdated --all || true) | norm > "$OUT/table-npm-outdated-express.txt"
  wc -c "$OUT"/table-dpkg-l-bookworm-runner.txt "$OUT"/table-npm-outdated-express.txt
}

# ---------------------------------------------------------------- test x3
test_section() {
  # go test -v of gorilla/mux 1.8.0 (Debian golang-github-gorilla-mux-dev) with two injected bugs
  rm -f "$DIFFS/test-gotest-gorilla-mux.diff"
  gopath_copy "$S/gt" github.com/gorilla/mux
  local M=$S/gt/src/github.com/gorilla/mux
  inject test-gotest-gorilla-mux "$M" regexp.go \
    'if queryVal := strings.SplitN(template, "=", 2)[1]; queryVal == "" {' \
    'if queryVal := strings.SplitN(template, "=", 2)[1]; queryVal == "*" {'
  inject test-gotest-gorilla-mux "$M" regexp.go \
    $'if v.host.wildcardHostPort {\n\t\t\t// Don\'t be strict on the port match\n\t\t\tif i := strings.Index(host, ":"); i != -1 {\n\t\t\t\thost = host[:i]\n' \
    $'if v.host.wildcardHostPort {\n\t\t\t// Don\'t be strict on the port match\n\t\t\tif i := strings.Index(host, ":"); i != -1 {\n\t\t\t\thost = host[:i+1]\n'
  (cd "$M" && GO111MODULE=off GOPATH=$S/gt:/usr/share/gocode go test -v ./... 2>&1 || true) | norm > "$OUT/test-gotest-gorilla-mux.log"
  # tape (TAP) run of qs 6.14.0's own test suite (npm tarball) with two injected bugs;
  # devDependencies cut to what the tests require (the lint/bundle tools are not needed to run them)
  rm -f "$DIFFS/test-tape-qs.diff"
  local Q=$S/qs
  rm -rf "$Q"; mkdir -p "$Q"
  (cd "$Q" && npm pack -q qs@6.14.0 > /dev/null && tar xzf qs-6.14.0.tgz && mv package qs)
  (cd "$Q/qs" && node -e '
const fs = require("fs"); const p = JSON.parse(fs.readFileSync("package.json"));
const keep = ["tape", "es-value-fixtures", "for-each", "has-bigints", "has-override-mistake", "has-property-descriptors",
  "has-proto", "has-symbols", "iconv-lite", "mock-property", "object-inspect", "qs-iconv", "safer-buffer"];
p.devDependencies = Object.fromEntries(Object.entries(p.devDependencies).filter(([k]) => keep.includes(k)));
fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\n");' && npm install --ignore-scripts --no-audit --no-fund > "$Q/install.log" 2>&1)
  inject test-tape-qs "$Q/qs" lib/parse.js '&& (options.parseArrays && index <= options.arrayLimit)' '&& (options.parseArrays && index < options.arrayLimit)'
  inject test-tape-qs "$Q/qs" lib/stringify.js "String(key).replace(/\\./g, '%2E')" "String(key).replace('.', '%2E')"
  (cd "$Q/qs" && npx tape 'test/**/*.js' 2>&1 || true) | norm > "$OUT/test-tape-qs.log"
  # python -m unittest -v of Python-Markdown 3.11.3 (PyPI sdist) with two injected bugs
  rm -f "$DIFFS/test-unittest-markdown.diff"
  pip_sdist markdown 3.11.3
  local P=$S/src/markdown-3.11.3
  rm -rf "$S/venv-md"; venv "$S/venv-md" -e "${P}[testing]"
  inject test-unittest-markdown "$P" markdown/extensions/abbr.py 'abbr_list.sort(key=len, reverse=True)' 'abbr_list.sort(key=len)'
  inject test-unittest-markdown "$P" markdown/extensions/toc.py "unicodedata.normalize('NFKD', value)" "unicodedata.normalize('NFC', value)"
  (cd "$P" && "$S/venv-md/bin/python" -m unittest discover -v tests 2>&1 || true) | norm > "$OUT/test-unittest-markdown.log"
  wc -c "$OUT"/test-gotest-gorilla-mux.log "$OUT"/test-tape-qs.log "$OUT"/test-unittest-markdown.log
}

# ---------------------------------------------------------------- lint x3
lint_section() {
  # pylint 4.1.4 (default checks) on tqdm 4.70.1 (PyPI sdist)
  pip_sdist tqdm 4.70.1
  venv "$S/venv-tools" pylint==4.1.4
  (cd "$S/src/tqdm-4.70.1" && "$S/venv-tools/bin/pylint" tqdm 2>&1 || true) | norm > "$OUT/lint-pylint-tqdm.txt"
  # ShellCheck 0.9.0 on git 2.39.5's POSIX shell commands as Debian installs them
  local scripts
  scripts=$(cd /usr/lib/git-core && file ./* | grep 'POSIX shell script' | cut -d: -f1 | sed 's#^\./##' | sort | tr '\n' ' ')
  # shellcheck disable=SC2086  # the list is meant to split into file names
  (cd /usr/lib/git-core && shellcheck -s sh $scripts 2>&1 || true) > "$OUT/lint-shellcheck-git-core.txt"
  # staticcheck 2023.1 with every check on gopkg.in/yaml.v3 3.0.1 (Debian golang-gopkg-yaml.v3-dev)
  gopath_copy "$S/sc" gopkg.in/yaml.v3
  (cd "$S/sc/src/gopkg.in/yaml.v3" && GO111MODULE=off GOPATH=$S/sc:/usr/share/gocode go-staticcheck -checks all ./... 2>&1 || true) \
    | norm > "$OUT/lint-staticcheck-yaml-v3.txt"
  wc -c "$OUT"/lint-pylint-tqdm.txt "$OUT"/lint-shellcheck-git-core.txt "$OUT"/lint-staticcheck-yaml-v3.txt
}

# ---------------------------------------------------------------- stack: log x3, table x2
# Runs `stack-inner` in a new PID namespace (unshare --pid --fork --mount-proc) so that `ps aux` shows
# only the services started here (and none of the host's processes).
stack_section() {
  venv "$S/venv-web" httpbin==0.10.4 gunicorn==27.0.1
  # verdaccio 6 needs Node 22; 5.33.0 is the newest that runs on Debian's Node 20
  [ -x "$S/verdaccio/node_modules/.bin/verdaccio" ] || { mkdir -p "$S/verdaccio"; (cd "$S/verdaccio" && npm init -y > /dev/null && npm install -q --no-audit --no-fund verdaccio@5.33.0); }
  ls "$S/dl/qs-6.14.0.tgz" "$S/dl/n-10.2.0.tgz" > /dev/null 2>&1 || (cd "$S/dl" && npm pack -q qs@6.14.0 n@10.2.0 > /dev/null)
  unshare --pid --fork --mount-proc bash "$HERE/cli2.sh" stack-inner
}

stack_inner() {
  local P=$S/pg PB=/usr/lib/postgresql/15/bin G=$S/gunicorn V=$S/verdaccio/run N=$S/nginx
  local DATA=$S/venv-data/lib/python3.11/site-packages/vega_datasets/_data
  [ -d "$DATA" ] || { venv "$S/venv-data" vega_datasets==0.9.0 pandas; }
  rm -rf "$P" "$G" "$V" "$N"; mkdir -p "$P" "$G" "$V/storage" "$N"/{logs,tmp}; chown postgres:postgres "$P"
  # -- PostgreSQL 15, JSON log through the logging collector
  su postgres -c "$PB/initdb -D $P/data -E UTF8 --locale=C.UTF-8 -U postgres" > /dev/null
  cat >> "$P/data/postgresql.conf" <<PGCONF
listen_addresses = '127.0.0.1'
port = 25432
unix_socket_directories = '$P'
logging_collector = on
log_destination = 'jsonlog'
log_directory = 'log'
log_filename = 'postgresql.log'
log_connections = on
log_disconnections = on
log_statement = 'ddl'
log_min_duration_statement = 30
log_checkpoints = on
log_lock_waits = on
deadlock_timeout = 200ms
log_autovacuum_min_duration = 0
autovacuum_naptime = 2s
log_temp_files = 0
work_mem = 64kB
PGCONF
  su postgres -c "$PB/pg_ctl -D $P/data -l $P/startup.log -w start" > /dev/null
  local PSQL="$PB/psql -X -h 127.0.0.1 -p 25432 -U postgres"
  # -- memcached (a cache next to the app; in the process table only)
  memcached -u nobody -l 127.0.0.1 -p 25411 -m 64 -c 256 -d -P "$S/memcached.pid"
  # -- gunicorn + httpbin, behind nginx
  (cd "$G" && "$S/venv-web/bin/gunicorn" -w 3 --pid "$G/gunicorn.pid" -b 127.0.0.1:25300 --timeout 3 --graceful-timeout 2 --max-requests 60 \
     --max-requests-jitter 0 --access-logfile - --error-logfile - --log-level debug --capture-output \
     --forwarded-allow-ips 127.0.0.1 httpbin:app > "$G/gunicorn.log" 2>&1 &)
  cat > "$N/nginx.conf" <<NGX
worker_processes 2;
pid $N/tmp/nginx.pid;
error_log $N/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log $N/logs/access.log;
    client_body_temp_path $N/tmp/body; proxy_temp_path $N/tmp/proxy; fastcgi_temp_path $N/tmp/fcgi;
    uwsgi_temp_path $N/tmp/uwsgi; scgi_temp_path $N/tmp/scgi;
    server {
        listen 127.0.0.1:25380;
        location / { proxy_pass http://127.0.0.1:25300; proxy_set_header X-Forwarded-For \$remote_addr; proxy_read_timeout 10s; }
        location /-/npm/ { proxy_pass http://127.0.0.1:24873/; }
    }
}
NGX
  /usr/sbin/nginx -c "$N/nginx.conf" -e "$N/logs/error.log"
  # -- verdaccio: a private npm registry whose uplink (the public registry mirror) is down
  cat > "$V/config.yaml" <<VCFG
storage: $V/storage
auth:
  htpasswd:
    file: $V/htpasswd
    max_users: 5
uplinks:
  npmjs:
    url: http://127.0.0.1:25499/
    timeout: 2s
    max_fails: 2
    fail_timeout: 10s
packages:
  '@acme/*':
    access: \$authenticated
    publish: \$authenticated
  '**':
    access: \$all
    publish: \$authenticated
    proxy: npmjs
publish:
  allow_offline: true
server:
  keepAliveTimeout: 5
listen: 127.0.0.1:24873
log: { type: stdout, format: json, level: http }
VCFG
  "$S/verdaccio/node_modules/.bin/verdaccio" --config "$V/config.yaml" > "$V/verdaccio.log" 2>&1 &
  local vpid=$!
  for _ in $(seq 1 30); do curl -sf -o /dev/null http://127.0.0.1:24873/-/ping && break; sleep 0.5; done
  # -- PostgreSQL workload: real vega_datasets tables, with the errors the data itself causes
  $PSQL -c "CREATE DATABASE vega;" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "CREATE TABLE cars (id serial PRIMARY KEY, name text NOT NULL, miles_per_gallon real, cylinders smallint, displacement real, horsepower smallint, weight_in_lbs integer, acceleration real, year date, origin text);" > /dev/null
  python3 - "$DATA/cars.json" > "$P/cars.csv" <<'PY'
import csv, json, sys
out = csv.writer(sys.stdout)
for car in json.load(open(sys.argv[1])):
    out.writerow([car[k] for k in ("Name", "Miles_per_Gallon", "Cylinders", "Displacement", "Horsepower", "Weight_in_lbs", "Acceleration", "Year", "Origin")])
PY
  PGAPPNAME=loader $PSQL vega -c "\\copy cars (name, miles_per_gallon, cylinders, displacement, horsepower, weight_in_lbs, acceleration, year, origin) FROM '$P/cars.csv' WITH (FORMAT csv)" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "CREATE UNIQUE INDEX cars_name_key ON cars (name);" > /dev/null 2>&1 || true
  PGAPPNAME=loader $PSQL vega -c "CREATE INDEX cars_origin_year_idx ON cars (origin, year);" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "CREATE TABLE la_riots (first_name text, last_name text, age smallint NOT NULL, gender text, race text, death_date date, address text, neighborhood text, type text, longitude double precision, latitude double precision);" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "\\copy la_riots FROM '$DATA/la-riots.csv' WITH (FORMAT csv, HEADER true)" > /dev/null 2>&1 || true
  PGAPPNAME=loader $PSQL vega -c "ALTER TABLE la_riots ALTER COLUMN age DROP NOT NULL;" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "\\copy la_riots FROM '$DATA/la-riots.csv' WITH (FORMAT csv, HEADER true)" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "CREATE TABLE airports (iata varchar(4) PRIMARY KEY, name text, city text, state char(2), country text, latitude double precision, longitude double precision);" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "\\copy airports FROM '$DATA/airports.csv' WITH (FORMAT csv, HEADER true)" > /dev/null 2>&1 || true
  PGAPPNAME=loader $PSQL vega -c "ALTER TABLE airports ALTER COLUMN state TYPE text;" > /dev/null
  PGAPPNAME=loader $PSQL vega -c "\\copy airports FROM '$DATA/airports.csv' WITH (FORMAT csv, HEADER true)" > /dev/null 2>&1 || true
  PGAPPNAME=report $PSQL vega -c "SELECT origin, sum(horsepower) / sum(CASE WHEN cylinders = 3 THEN 1 ELSE 0 END) AS hp_per_rotary FROM cars GROUP BY origin;" > /dev/null 2>&1 || true
  PGAPPNAME=report $PSQL vega -c "SELECT name, mpg FROM cars WHERE origin = 'Japan';" > /dev/null 2>&1 || true
  PGAPPNAME=report $PSQL vega -c "SELECT a.iata, b.iata, a.state FROM airports a JOIN airports b ON a.state = b.state AND a.iata < b.iata ORDER BY a.latitude - b.latitude LIMIT 5;" > /dev/null 2>&1 || true
  PGAPPNAME=report $PSQL vega -c "SET statement_timeout = '200ms'; SELECT count(*) FROM airports a CROSS JOIN airports b WHERE a.latitude < b.latitude;" > /dev/null 2>&1 || true
  # a lock wait that times out: a migration while a long report holds the table
  (PGAPPNAME=report $PSQL vega -c "BEGIN; SELECT count(*) FROM cars; SELECT pg_sleep(1.5); COMMIT;" > /dev/null 2>&1) &
  local hold=$!; sleep 0.3
  PGAPPNAME=migrate $PSQL vega -c "SET lock_timeout = '600ms'; ALTER TABLE cars ADD COLUMN model_year smallint;" > /dev/null 2>&1 || true
  wait $hold
  PGAPPNAME=app $PSQL vega_prod -c "select 1" > /dev/null 2>&1 || true
  # -- httpbin through nginx and gunicorn
  local H=http://127.0.0.1:25380
  for p in /get /uuid /headers /ip "/status/418" "/status/500" "/status/503" "/redirect/3" "/bytes/2048" "/basic-auth/ci/s3cret" "/base64/aGVsbG8gaHR0cGJpbg==" "/cookies/set?session=abc123" "/range/abc" "/drip?duration=1&numbytes=5&code=200" "/links/3/1" "/image/png" "/xml" "/deny"; do
    curl -s -o /dev/null -A "curl/7.88.1" "$H$p" || true; done
  curl -s -o /dev/null -A "python-requests/2.32.3" -X POST -H 'content-type: application/json' -d '{"order": 1042, "items": ["a", "b"]}' "$H/post" || true
  curl -s -o /dev/null -A "python-requests/2.32.3" -X PUT -d 'x=1' "$H/get" || true
  curl -s -o /dev/null -A "python-requests/2.32.3" -u ci:s3cret "$H/basic-auth/ci/s3cret" || true
  curl -s -o /dev/null -m 8 -A "python-requests/2.32.3" "$H/delay/6" || true   # > --timeout 3: WORKER TIMEOUT
  # -- verdaccio: a CI user, publishes, a conflict, an unauthorised publish, installs through the dead uplink
  local R=http://127.0.0.1:24873 C=$S/npmclient
  rm -rf "$C"; mkdir -p "$C"
  local token
  token=$(curl -s -X PUT -H 'content-type: application/json' -d '{"name": "ci-bot", "password": "ci-bot-pass-2024"}' "$R/-/user/org.couchdb.user:ci-bot" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  printf '//127.0.0.1:24873/:_authToken=%s\nregistry=%s/\n' "$token" "$R" > "$C/.npmrc"
  for t in qs-6.14.0 n-10.2.0; do
    rm -rf "${C:?}/$t"; mkdir -p "$C/$t"; tar xzf "$S/dl/$t.tgz" -C "$C/$t"
    (cd "$C/$t/package" && npm publish --fetch-retries 0 --userconfig "$C/.npmrc" --ignore-scripts > /dev/null 2>&1) || true
  done
  (cd "$C/qs-6.14.0/package" && npm publish --fetch-retries 0 --userconfig "$C/.npmrc" --ignore-scripts > /dev/null 2>&1) || true   # 409: already there
  (cd "$C/n-10.2.0/package" && npm publish --fetch-retries 0 --registry "$R/" --ignore-scripts --userconfig /dev/null > /dev/null 2>&1) || true   # no token: 401
  curl -s -o /dev/null "$R/-/verdaccio/data/packages" || true
  (cd "$C" && npm view --userconfig "$C/.npmrc" qs versions --json > /dev/null 2>&1) || true
  (cd "$C" && npm view --userconfig "$C/.npmrc" @acme/billing > /dev/null 2>&1) || true
  mkdir -p "$C/app" && (cd "$C/app" && npm init -y > /dev/null && npm install --userconfig "$C/.npmrc" --no-audit --no-fund --fetch-retries 0 qs@6.14.0 side-channel@1.1.0 > /dev/null 2>&1) || true
  curl -s -o /dev/null -X PUT -H 'content-type: application/json' -d '{"name": "ci-bot", "password": "wrong"}' "$R/-/user/org.couchdb.user:ci-bot" || true
  curl -s -o /dev/null "$R/-/ping" || true
  # -- ps aux while a pgbench run and a slow request are in flight
  su postgres -c "$PB/pgbench -h 127.0.0.1 -p 25432 -U postgres -i -s 2 vega" > /dev/null 2>&1
  (su postgres -c "$PB/pgbench -h 127.0.0.1 -p 25432 -U postgres -c 10 -j 2 -T 5 vega" > /dev/null 2>&1 &)
  (curl -s -o /dev/null -m 8 -A "python-requests/2.32.3" "$H/delay/2" || true) &
  sleep 1.5
  ps auxww > "$S/ps-aux.txt"
  norm < "$S/ps-aux.txt" > "$OUT/table-ps-aux-app-stack.txt"
  sleep 5
  # -- the psql table: every car, grouped by origin
  PGAPPNAME=psql $PSQL vega -c "SELECT name, origin, extract(year FROM year)::int AS year, cylinders, displacement, horsepower, miles_per_gallon AS mpg, weight_in_lbs, acceleration FROM cars ORDER BY origin, name, year;" \
    > "$OUT/table-psql-vega-cars.txt"
  # -- gunicorn signals: HUP (reload), TTIN (one more worker), then TERM
  local gpid; gpid=$(cat "$G/gunicorn.pid")
  kill -HUP "$gpid"; sleep 3; kill -TTIN "$gpid"; sleep 2
  for i in $(seq 1 70); do curl -s -o /dev/null -A "kube-probe/1.29" "$H/status/200" || true; done   # max-requests restarts
  kill -TERM "$gpid"; sleep 3
  kill -TERM "$vpid" || true; sleep 1
  kill -QUIT "$(cat "$N/tmp/nginx.pid")" || true
  PGAPPNAME=dba $PSQL vega -c "CHECKPOINT;" > /dev/null
  sleep 3
  su postgres -c "$PB/pg_ctl -D $P/data -m fast -w stop" > /dev/null
  kill "$(cat "$S/memcached.pid")" || true
  norm < "$P/data/log/postgresql.json" > "$OUT/log-postgresql-jsonlog-vega.json"
  norm < "$G/gunicorn.log" > "$OUT/log-gunicorn-httpbin.log"
  norm < "$V/verdaccio.log" > "$OUT/log-verdaccio-private-registry.log"
  wc -c "$OUT"/log-postgresql-jsonlog-vega.json "$OUT"/log-gunicorn-httpbin.log "$OUT"/log-verdaccio-private-registry.log \
    "$OUT"/table-ps-aux-app-stack.txt "$OUT"/table-psql-vega-cars.txt
}

# ---------------------------------------------------------------- check
check_section() {
  python3 - "$HERE" <<'PYCHK'
import sys
sys.path.insert(0, sys.argv[1])
import common
rules = common.Rules(sizes=(5_000, 400_000), forbidden=("/tmp/", "corpus-cli2"), answer_length=(5, 60), max_edge_facts=2)
sys.exit(common.check_cli("cli2", rules))
PYCHK
}

case "${1:-}" in
  json) json_section ;;
  table) table_section ;;
  test) test_section ;;
  lint) lint_section ;;
  stack) stack_section ;;
  stack-inner) stack_inner ;;
  check) check_section ;;
  all) for s in json table test lint stack; do bash "$HERE/cli2.sh" "$s"; done ;;
  *) echo "usage: $0 json|table|test|lint|stack|all|check"; exit 2 ;;
esac
