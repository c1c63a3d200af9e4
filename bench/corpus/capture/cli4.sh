#!/usr/bin/env bash
# Capture script for the `cli4` corpus group (all holdout): CLI / CI output of tools not yet in the corpus -
# release diffs built from PyPI sdists, mocha and ctest/GoogleTest runs, pyright and stylelint, a plain-Makefile
# C++ build and a `python -m build` of a C extension, Redis Sentinel and Celery worker logs.
# Usage: bash bench/corpus/capture/cli4.sh <section>
#   sections: diff test (= test-mocha + test-fmt) lint build stack all check
# `stack` starts Redis (a primary, two replicas, three sentinels, one combined log) and a Celery worker inside a
# fresh PID namespace, drives them, captures the two logs, then stops everything; the logs embed run-specific pids,
# run ids, task ids and times (and mocha's fast-check seed varies): after a re-run, re-pick those facts (`check`
# says which answers are gone). test-fmt and build compile fmt's test suite and re2 at -j1 (about 15 + 5 minutes).
# Everything is built under /tmp/corpus-cli4; only payloads are written to bench/corpus/.
# Needs (Debian bookworm): a deb-src line for bookworm (apt-get source), dpkg-dev, cmake, g++, make,
#   googletest (libgtest-dev libgmock-dev), unicode-data, perl, redis-server redis-sentinel; node 20 + npm;
#   python3.11 (with six) + PyPI, the npm registry.
set -euo pipefail
S=/tmp/corpus-cli4
OUT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
DIFFS=$S/diffs
W=$S/work
mkdir -p "$S" "$DIFFS" "$S/dl" "$S/debsrc" "$W"
export NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
# shellcheck source=common.sh
. "$HERE/common.sh"

# Allowed normalisation: scratch paths -> runner-style paths.
norm() { norm_paths -e "s#$S/venv-celery#/home/runner/work/shop/.venv#g" \
             -e "s#$S/stack/celery#/home/runner/work/shop/shop#g" \
             -e "s#$W/\([a-z0-9-]*\)#/home/runner/work/\1/\1#g" \
             -e "s#$S/venv-\([a-z0-9]*\)#/home/runner/work/\1/.venv#g" \
             -e "s#$S/git/\([a-z0-9]*\)#/home/runner/work/\1/\1#g" \
             -e "s#$S/stack#/home/runner/work/app-stack#g"; }

# ---------------------------------------------------------------- diff x2
diff_section() {
  release_repo requests HISTORY.md 2.31.0 2.32.3
  (cd "$S/git/requests" && git diff --stat -p 2.31.0 2.32.3) > "$OUT/diff-git-diff-requests-2-31-0-2-32-3.diff"
  release_repo click CHANGES.rst 8.1.8 8.2.1
  (cd "$S/git/click" && git diff -M 8.1.8 8.2.1 -- . ':(exclude)uv.lock') > "$OUT/diff-git-diff-click-8-1-8-8-2-1.diff"
  wc -c "$OUT"/diff-git-diff-requests-2-31-0-2-32-3.diff "$OUT"/diff-git-diff-click-8-1-8-8-2-1.diff
}

# ---------------------------------------------------------------- test x2
test_fmt() {
  # ctest --output-on-failure (GoogleTest 1.12.1 from Debian googletest) on fmt 9.1.0's test suite (Debian source
  # package fmtlib 9.1.0+ds1-2 with its patches: tests built against the system googletest) after two injected
  # bugs: an off-by-one in the 53-week ISO year test (chrono.h) and the space character treated as needing an
  # escape in debug ({:?}) output (format.h)
  debsrc fmtlib fmtlib_9.1.0+ds1.orig.tar.gz
  rm -f "$DIFFS/test-ctest-gtest-fmt.diff"
  unpack "$S/debsrc/fmtlib_9.1.0+ds1.orig.tar.gz" "$W/fmt"
  tar xJf "$S/debsrc/fmtlib_9.1.0+ds1-2.debian.tar.xz" -C "$W/fmt"
  (cd "$W/fmt" && for p in $(cat debian/patches/series); do patch -p1 -s < "debian/patches/$p"; done)
  inject test-ctest-gtest-fmt "$W/fmt" include/fmt/chrono.h \
    '    return 52 + ((curr_p == 4 || prev_p == 3) ? 1 : 0);' '    return 52 + ((curr_p == 4 || prev_p == 2) ? 1 : 0);'
  inject test-ctest-gtest-fmt "$W/fmt" include/fmt/format.h \
    '  return cp < 0x20 || cp == 0x7f' '  return cp <= 0x20 || cp == 0x7f'
  (cd "$W/fmt" && cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFMT_TEST=ON && cmake --build build -j1) > "$S/fmt-build.log" 2>&1
  (cd "$W/fmt" && ctest --test-dir build --output-on-failure 2>&1 || true) | norm > "$OUT/test-ctest-gtest-fmt.log"
  wc -c "$OUT"/test-ctest-gtest-fmt.log
}

test_mocha() {
  # mocha 8 (spec reporter; devDependencies resolved by `npm install` from the npm registry) on js-yaml 4.1.0
  # (Debian source package node-js-yaml 4.1.0+dfsg+~4.0.5-7, upstream tarball with its tests) after two injected
  # bugs: 0o octal integers parsed in base 10, the sign of a timestamp's time zone offset inverted
  debsrc node-js-yaml 'node-js-yaml_4.1.0+dfsg+~4.0.5.orig.tar.xz'
  rm -f "$DIFFS/test-mocha-js-yaml.diff"
  unpack "$S/debsrc/node-js-yaml_4.1.0+dfsg+~4.0.5.orig.tar.xz" "$W/js-yaml"
  (cd "$W/js-yaml" && NPM_CONFIG_USERCONFIG=/dev/null npm install --ignore-scripts > "$S/js-yaml-install.log" 2>&1)
  inject test-mocha-js-yaml "$W/js-yaml" lib/type/int.js \
    "    if (value[1] === 'o') return sign * parseInt(value.slice(2), 8);" "    if (value[1] === 'o') return sign * parseInt(value.slice(2), 10);"
  inject test-mocha-js-yaml "$W/js-yaml" lib/type/timestamp.js \
    "    if (match[9] === '-') delta = -delta;" "    if (match[9] === '+') delta = -delta;"
  (cd "$W/js-yaml" && NPM_CONFIG_USERCONFIG=/dev/null npx mocha 2>&1 || true) | norm > "$OUT/test-mocha-js-yaml.log"
  wc -c "$OUT"/test-mocha-js-yaml.log
}

test_section() { test_mocha; test_fmt; }

# ---------------------------------------------------------------- lint x2
# Linters installed from the npm registry into $S/tools: pyright 1.1.414, stylelint 16.26.1 (the version bootstrap
# pins) with stylelint-config-standard-scss 14.0.0.
tools() {
  [ -x "$S/tools/node_modules/.bin/stylelint" ] && [ -x "$S/tools/node_modules/.bin/pyright" ] && return
  mkdir -p "$S/tools" && echo '{"private": true}' > "$S/tools/package.json"
  (cd "$S/tools" && NPM_CONFIG_USERCONFIG=/dev/null npm install --ignore-scripts pyright@1.1.414 stylelint@16.26.1 \
     stylelint-config-standard-scss@14.0.0 > "$S/tools-install.log" 2>&1)
}

lint_section() {
  tools
  # pyright (basic type checking, no configuration) on paramiko 3.5.1 (PyPI sdist), its dependencies installed in a
  # venv that pyright resolves imports from
  local V=$S/venv-paramiko
  [ -x "$V/bin/python" ] || { python3 -m venv "$V"; "$V/bin/pip" install -q pip==26.0.1; \
    "$V/bin/pip" install -q cryptography==44.0.2 bcrypt==4.3.0 pynacl==1.5.0; }
  sdist paramiko 3.5.1
  unpack "$S/dl/paramiko-3.5.1.tar.gz" "$W/paramiko"
  (cd "$W/paramiko" && "$S/tools/node_modules/.bin/pyright" --pythonpath "$V/bin/python" paramiko 2>&1 || true) | norm > "$OUT/lint-pyright-paramiko.txt"
  # stylelint with stylelint-config-standard-scss on bootstrap 5.3.9's scss/ (npm tarball; bootstrap's own
  # stylelint-config-twbs-bootstrap is not used)
  [ -f "$S/dl/bootstrap-5.3.9.tgz" ] || (cd "$S/dl" && NPM_CONFIG_USERCONFIG=/dev/null npm pack bootstrap@5.3.9 > /dev/null)
  unpack "$S/dl/bootstrap-5.3.9.tgz" "$W/bootstrap"
  echo '{"extends": "stylelint-config-standard-scss"}' > "$S/tools/stylelintrc.json"
  (cd "$W/bootstrap" && "$S/tools/node_modules/.bin/stylelint" --config "$S/tools/stylelintrc.json" "scss/**/*.scss" 2>&1 || true) \
    | norm > "$OUT/lint-stylelint-bootstrap.txt"
  wc -c "$OUT"/lint-pyright-paramiko.txt "$OUT"/lint-stylelint-bootstrap.txt
}

# ---------------------------------------------------------------- build x2
build_section() {
  # re2 2022-06-01 (Debian source package re2 20220601+dfsg-1 with its patches; the +dfsg tarball drops the generated
  # Unicode tables, so, as debian/rules does, REBUILD_TABLES=1 regenerates them from Debian's unicode-data): its
  # plain Makefile, `make -k` (static and shared library objects), after two injected bugs: a call_once lambda that
  # drops the const of the RE2 it is handed, a PODArray passed where Regexp::Alternate takes a Regexp**
  debsrc re2 re2_20220601+dfsg.orig.tar.xz
  rm -f "$DIFFS/build-make-re2.diff"
  unpack "$S/debsrc/re2_20220601+dfsg.orig.tar.xz" "$W/re2"
  tar xJf "$S/debsrc/re2_20220601+dfsg-1.debian.tar.xz" -C "$W/re2"
  (cd "$W/re2" && for p in $(cat debian/patches/series); do patch -p1 -s < "debian/patches/$p"; done)
  inject build-make-re2 "$W/re2" re2/re2.cc \
    '  std::call_once(named_groups_once_, [](const RE2* re) {' '  std::call_once(named_groups_once_, [](RE2* re) {'
  inject build-make-re2 "$W/re2" re2/set.cc \
    '  re2::Regexp* re = re2::Regexp::Alternate(sub.data(), size_, pf);' '  re2::Regexp* re = re2::Regexp::Alternate(sub, size_, pf);'
  (cd "$W/re2" && make -k -j1 REBUILD_TABLES=1 2>&1 || true) | norm > "$OUT/build-make-re2.log"
  # `python -m build` (build 1.6.1, isolated environments with setuptools and setuptools_scm from PyPI) of ujson
  # 5.10.0 (PyPI sdist): the sdist is built, then the wheel from it, whose C extension fails after two injected
  # bugs in python/objToJSON.c (a dropped argument to a local helper and to PyUnicode_AsEncodedString)
  local V=$S/venv-ujson
  [ -x "$V/bin/pyproject-build" ] || { python3 -m venv "$V"; "$V/bin/pip" install -q pip==26.0.1; "$V/bin/pip" install -q build==1.6.1; }
  sdist ujson 5.10.0
  rm -f "$DIFFS/build-python-build-ujson.diff"
  unpack "$S/dl/ujson-5.10.0.tar.gz" "$W/ujson"
  inject build-python-build-ujson "$W/ujson" python/objToJSON.c \
    '  return PyUnicodeToUTF8Raw(_obj, _outLen, &(GET_TC(tc)->newObj));' '  return PyUnicodeToUTF8Raw(_obj, &(GET_TC(tc)->newObj));'
  inject build-python-build-ujson "$W/ujson" python/objToJSON.c \
    'PyUnicode_AsEncodedString (obj, NULL, "surrogatepass");' 'PyUnicode_AsEncodedString (obj, "surrogatepass");'
  (cd "$W/ujson" && "$V/bin/python" -m build 2>&1 || true) | norm > "$OUT/build-python-build-ujson.log"
  wc -c "$OUT"/build-make-re2.log "$OUT"/build-python-build-ujson.log
}

# ---------------------------------------------------------------- stack: log x2
# Runs `stack-inner` in a new PID namespace (unshare --pid --fork --mount-proc): every process started there is
# gone when it returns.
stack_section() {
  local V=$S/venv-celery
  [ -x "$V/bin/celery" ] || { python3 -m venv "$V"; "$V/bin/pip" install -q pip==26.0.1; \
    "$V/bin/pip" install -q "celery[redis]==5.7.0" kombu==5.7.0 redis==8.1.0 billiard==4.3.2 requests==2.34.2; }
  unshare --pid --fork --mount-proc bash "$HERE/cli4.sh" stack-inner
}

redis_up() {  # port dir log [extra config lines]: a redis-server in a background job, logging to stdout >> log
  local port=$1 dir=$2 log=$3; shift 3
  mkdir -p "$dir"
  { printf 'port %s\nbind 127.0.0.1\ndir %s\nlogfile ""\npidfile %s/redis.pid\nsave ""\nappendonly no\n' \
      "$port" "$dir" "$dir"; printf '%s\n' "$@"; } > "$dir/redis.conf"
  redis-server "$dir/redis.conf" >> "$log" 2>&1 &
  for _ in $(seq 1 50); do redis-cli -p "$port" ping > /dev/null 2>&1 && return; sleep 0.1; done
}

stack_inner() {
  local T=$S/stack R=$S/stack/redis C=$S/stack/celery
  rm -rf "$T"; mkdir -p "$R" "$C"
  # -- Redis Sentinel: a primary (28379), two replicas, three sentinels (quorum 2), all six logging to the stdout
  #    of one job (the combined log is the payload); the primary is SIGKILLed, restarted (and demoted), a manual
  #    failover follows, then a replica and a sentinel go away
  local L=$R/ha.log
  redis_up 28379 "$R/node-28379" "$L"
  redis_up 28380 "$R/node-28380" "$L" "replicaof 127.0.0.1 28379"
  redis_up 28381 "$R/node-28381" "$L" "replicaof 127.0.0.1 28379"
  local sp=()
  for port in 28390 28391 28392; do
    mkdir -p "$R/sentinel-$port"
    printf '%s\n' "port $port" "bind 127.0.0.1" "dir $R/sentinel-$port" 'logfile ""' \
      "sentinel monitor orders-cache 127.0.0.1 28379 2" "sentinel down-after-milliseconds orders-cache 3000" \
      "sentinel failover-timeout orders-cache 12000" "sentinel parallel-syncs orders-cache 1" > "$R/sentinel-$port/sentinel.conf"
    redis-sentinel "$R/sentinel-$port/sentinel.conf" >> "$L" 2>&1 &
    sp+=($!)
  done
  sleep 6
  for i in $(seq 1 500); do echo "SET order:$i pending"; done | redis-cli -p 28379 > /dev/null
  redis-cli -p 28379 INCRBY orders:seq 500 > /dev/null
  kill -9 "$(cat "$R/node-28379/redis.pid")"
  local master=""
  for _ in $(seq 1 60); do
    master=$(redis-cli -p 28390 SENTINEL get-master-addr-by-name orders-cache | sed -n 2p)
    [ "$master" != 28379 ] && [ -n "$master" ] && break; sleep 0.5; done
  sleep 2
  redis_up 28379 "$R/node-28379" "$L"          # comes back believing it is still the primary
  sleep 14
  redis-cli -p "$master" SET order:501 paid > /dev/null
  redis-cli -p 28391 SENTINEL FAILOVER orders-cache > /dev/null || true
  sleep 12
  master=$(redis-cli -p 28390 SENTINEL get-master-addr-by-name orders-cache | sed -n 2p)
  local replica; replica=$(redis-cli -p 28390 SENTINEL replicas orders-cache | awk 'prev == "port" && $0 != "" {print; exit} {prev = $0}')
  redis-cli -p "$replica" SHUTDOWN NOSAVE > /dev/null 2>&1 || true
  sleep 5
  kill "${sp[2]}"; wait "${sp[2]}" || true
  sleep 6
  redis-cli -p 28390 SENTINEL ckquorum orders-cache > /dev/null 2>&1 || true
  redis-cli -p 28390 SENTINEL RESET orders-cache > /dev/null 2>&1 || true
  sleep 3
  kill "${sp[0]}" "${sp[1]}"; wait "${sp[0]}" "${sp[1]}" || true
  for port in 28379 28380 28381; do redis-cli -p "$port" SHUTDOWN NOSAVE > /dev/null 2>&1 || true; done
  sleep 1
  norm < "$L" > "$OUT/log-redis-sentinel-failover.log"
  # -- Celery 5.7 worker (prefork, 2 processes, redis broker and result backend on 28479) of a small `shop` app:
  #    receipts that succeed, a card charge with a bad payload, an inventory sync retried against a dead
  #    service, soft and hard time limits, an unregistered task, an ETA task, a broker restart, a warm shutdown
  local V=$S/venv-celery
  redis_up 28479 "$C/broker" "$C/broker.log"
  mkdir -p "$C/shop"
  cat > "$C/shop/__init__.py" <<'PYAPP'
from celery import Celery

app = Celery("shop", broker="redis://127.0.0.1:28479/0", backend="redis://127.0.0.1:28479/1", include=["shop.tasks"])
app.conf.update(
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_default_queue="shop",
    result_expires=3600,
    broker_connection_retry_on_startup=True,
)
PYAPP
  cat > "$C/shop/tasks.py" <<'PYTASKS'
import time
from decimal import Decimal

import requests
from celery.exceptions import SoftTimeLimitExceeded
from celery.utils.log import get_task_logger

from shop import app

log = get_task_logger(__name__)
INVENTORY_URL = "http://127.0.0.1:28999/api/stock/"


@app.task
def send_receipt(order_id, email):
    log.info("rendering receipt for order %s", order_id)
    return f"receipt {order_id} queued for {email}"


@app.task(bind=True)
def charge_card(self, order_id, payment):
    amount = Decimal(payment["amount"])
    if amount <= 0:
        raise ValueError(f"order {order_id}: refusing to charge non-positive amount {amount}")
    log.info("charging %s %s for order %s", amount, payment["currency"], order_id)
    return {"order": order_id, "charged": str(amount), "currency": payment["currency"]}


@app.task(autoretry_for=(requests.ConnectionError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def sync_inventory(sku):
    resp = requests.get(INVENTORY_URL + sku, timeout=2)
    resp.raise_for_status()
    return resp.json()


@app.task(soft_time_limit=2, time_limit=6)
def build_report(day):
    log.info("building sales report for %s", day)
    rows = 0
    while True:
        time.sleep(0.5)
        rows += 1200


@app.task(soft_time_limit=2, time_limit=4)
def export_orders(fmt):
    try:
        time.sleep(10)
    except SoftTimeLimitExceeded:
        log.warning("export_orders(%s) hit the soft limit, finishing the current batch", fmt)
        time.sleep(10)
    return "done"
PYTASKS
  (cd "$C" && exec "$V/bin/celery" -A shop worker -l INFO -c 2 -n worker1@shop-ci > "$C/worker.log" 2>&1) &
  local wpid=$!
  for _ in $(seq 1 60); do grep -q "ready\." "$C/worker.log" 2> /dev/null && break; sleep 0.5; done
  (cd "$C" && "$V/bin/python" - <<'PYSEND'
import time
from shop import app
from shop.tasks import send_receipt, charge_card, sync_inventory, build_report, export_orders

for n, mail in [(1001, "ana@example.com"), (1002, "li.wei@example.com"), (1003, "ops@example.com")]:
    send_receipt.delay(n, mail)
charge_card.delay(1004, {"amount": "49.90", "currency": "EUR"})
charge_card.delay(1005, {"amount": "19.00"})
charge_card.delay(1006, {"amount": "-5.00", "currency": "EUR"})
time.sleep(2)
sync_inventory.delay("SKU-88412")
time.sleep(1)
build_report.delay("2026-12-01")
time.sleep(4)
export_orders.delay("csv")
time.sleep(1)
app.send_task("shop.tasks.refund_order", args=[1007], kwargs={"reason": "damaged"})
send_receipt.apply_async((1008, "late@example.com"), countdown=5)
PYSEND
  )
  sleep 12
  redis-cli -p 28479 SHUTDOWN NOSAVE > /dev/null 2>&1 || true
  sleep 5
  redis_up 28479 "$C/broker" "$C/broker.log"
  sleep 6
  (cd "$C" && "$V/bin/python" -c 'from shop.tasks import send_receipt; send_receipt.delay(1009, "back@example.com")')
  sleep 3
  kill -TERM "$wpid"; wait "$wpid" || true
  redis-cli -p 28479 SHUTDOWN NOSAVE > /dev/null 2>&1 || true
  norm < "$C/worker.log" > "$OUT/log-celery-worker-shop.log"
  wc -c "$OUT"/log-redis-sentinel-failover.log "$OUT"/log-celery-worker-shop.log
}

# ---------------------------------------------------------------- check
# The part's records against the payloads: build.py's check_item (ids/files, 3-6 facts, answers verbatim, no query
# containing its answer), then this group's rules: sizes (8 KB - 600 KB each, group < 2.2 MB), every answer on one
# line of its payload, 8-90 characters, 3-10 query words, no scratch path left, two items per kind, every item
# holdout (this group is an all-holdout set).
check_section() {
  python3 - "$HERE" <<'PYCHK'
import sys
sys.path.insert(0, sys.argv[1])
import common

def group_rules(records):  # two items per kind, ids unique
    for kind, items in common.by_kind(records).items():
        if len(items) != 2:
            yield f"kind {kind} has {len(items)} items, expected 2"
    if len({record["id"] for record in records}) != len(records):
        yield "duplicate ids"

rules = common.Rules(
    sizes=(8 * 1024, 600 * 1000), max_group_bytes=2_200_000, only_set="holdout", required=("args", "project", "command"),
    no_computed=True, forbidden=("/tmp/corpus", "corpus-cli4", "/root/"), one_line=True, answer_length=(8, 90),
    query_words=(3, 10), max_edge_facts=3,
)
sys.exit(common.check_cli("cli4", rules, summary="{items} items, {bytes} bytes, {problems} with problems", group_rules=group_rules))
PYCHK
}

# Everything runs from main(), so that bash has parsed the whole file before any step runs (editing the script
# while a long section runs cannot derail it).
main() {
  case "${1:-}" in
    diff) diff_section ;;
    test) test_section ;;
    test-fmt) test_fmt ;;
    test-mocha) test_mocha ;;
    lint) lint_section ;;
    build) build_section ;;
    stack) stack_section ;;
    stack-inner) stack_inner ;;
    check) check_section ;;
    all) for s in diff test lint build stack; do bash "$HERE/cli4.sh" "$s"; done ;;
    *) echo "usage: $0 diff|test|test-mocha|test-fmt|lint|build|stack|all|check"; exit 2 ;;
  esac
}

main "$@"; exit $?
