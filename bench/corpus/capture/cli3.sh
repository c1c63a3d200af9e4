#!/usr/bin/env bash
# Capture script for the `cli3` corpus group: more CLI / CI output of other ecosystems - release diffs and
# histories built from PyPI sdists, Jest and RSpec runs, cppcheck and RuboCop, autotools and meson builds,
# Apache httpd and MariaDB error logs, lsof and du tables, a Django traceback chain and a valgrind report.
# Usage: bash bench/corpus/capture/cli3.sh <section>
#   sections: diff gitlog test lint build trace stack table all check
# `stack` starts Apache httpd 2.4, MariaDB 10.11 and a python http.server backend inside a fresh PID namespace,
# drives them, captures their error logs and `lsof`, then stops them; logs, lsof and the Django/valgrind traces
# embed run-specific pids, ports, timestamps and timings: after a re-run, re-pick those facts (`check` says).
# Everything is built under /tmp/corpus-cli3; only payloads are written to bench/corpus/.
# Needs (Debian bookworm): a deb-src line for bookworm (apt-get source), dpkg-dev, ruby ruby-rspec rubocop
#   ruby-rspec-pending-for ruby-activesupport ruby-rack-test ruby-sinatra, cppcheck, meson ninja-build pkg-config,
#   autoconf automake libtool, apache2, mariadb-server mariadb-client, lsof, valgrind, gcc; node 20 + npm;
#   python3.11 + PyPI, the npm registry.
set -euo pipefail
S=/tmp/corpus-cli3
OUT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
DIFFS=$S/diffs
W=$S/work
mkdir -p "$S" "$DIFFS" "$S/dl" "$S/debsrc" "$W"
# shellcheck source=common.sh
. "$HERE/common.sh"

# Allowed normalisation: scratch paths -> runner-style paths.
norm() { norm_paths -e "s#$W/hashie-rubo#/home/runner/work/hashie/hashie#g" \
             -e "s#$W/\(commander\|hashie\|lua\|jansson\|pixman\|libyaml\|shop\)\b#/home/runner/work/\1/\1#g" \
             -e "s#$S/venv-django#/home/runner/work/shop/.venv#g" \
             -e "s#$S/git/\([a-z0-9]*\)#/home/runner/work/\1/\1#g" \
             -e "s#$S/stack#/home/runner/work/app-stack#g"; }

# ---------------------------------------------------------------- diff x2
diff_section() {
  release_repo flask CHANGES.rst 3.0.3 3.1.0
  (cd "$S/git/flask" && git diff --stat -p 3.0.3 3.1.0) > "$OUT/diff-git-diff-flask-3-0-3-3-1-0.diff"
  release_repo werkzeug CHANGES.rst 3.0.6 3.1.3
  (cd "$S/git/werkzeug" && git diff --stat -p 3.0.6 3.1.3) > "$OUT/diff-git-diff-werkzeug-3-0-6-3-1-3.diff"
  wc -c "$OUT"/diff-git-diff-flask-3-0-3-3-1-0.diff "$OUT"/diff-git-diff-werkzeug-3-0-6-3-1-3.diff
}

# ---------------------------------------------------------------- gitlog x2
gitlog_section() {
  release_repo six CHANGES 1.12.0 1.13.0 1.14.0 1.15.0 1.16.0 1.17.0
  (cd "$S/git/six" && git log -p) > "$OUT/gitlog-git-log-p-six.txt"
  release_repo idna HISTORY.rst 3.0 3.1 3.2 3.3 3.4 3.5 3.6 3.7 3.8 3.9 3.10
  (cd "$S/git/idna" && git log --stat) > "$OUT/gitlog-git-log-stat-idna.txt"
  wc -c "$OUT"/gitlog-git-log-p-six.txt "$OUT"/gitlog-git-log-stat-idna.txt
}

# ---------------------------------------------------------------- test x2
test_section() {
  # Jest 28 (the package-lock's devDependencies) on commander 9.4.1 (Debian source package node-commander
  # 9.4.1-1, upstream tarball with its tests/) after two injected bugs
  debsrc node-commander node-commander_9.4.1.orig.tar.gz
  rm -f "$DIFFS/test-jest-commander.diff"
  unpack "$S/debsrc/node-commander_9.4.1.orig.tar.gz" "$W/commander"
  (cd "$W/commander" && npm ci --ignore-scripts --no-audit --no-fund > "$S/commander-install.log" 2>&1)
  inject test-jest-commander "$W/commander" lib/suggestSimilar.js \
    '      if (distance < bestDistance) {' '      if (distance <= bestDistance) {'
  inject test-jest-commander "$W/commander" lib/command.js \
    "const s = (expected === 1) ? '' : 's';" "const s = (expected > 1) ? 's' : '';"
  (cd "$W/commander" && NPM_CONFIG_USERCONFIG=/dev/null NPM_CONFIG_UPDATE_NOTIFIER=false npx jest --ci 2>&1 || true) | norm > "$OUT/test-jest-commander.log"
  # RSpec 3.12 (Debian ruby-rspec) on hashie 5.0.0 (Debian source package ruby-hashie 5.0.0-2 with its
  # patches; integration specs excluded as the package's ruby-tests.rake does) after two injected bugs
  debsrc ruby-hashie ruby-hashie_5.0.0.orig.tar.gz
  rm -f "$DIFFS/test-rspec-hashie.diff"
  unpack "$S/debsrc/ruby-hashie_5.0.0.orig.tar.gz" "$W/hashie"
  tar xJf "$S/debsrc/ruby-hashie_5.0.0-2.debian.tar.xz" -C "$W/hashie"
  (cd "$W/hashie" && for p in $(cat debian/patches/series); do patch -p1 -s < "debian/patches/$p"; done)
  inject test-rspec-hashie "$W/hashie" lib/hashie/extensions/deep_locate.rb \
    '          search_key = search_key.to_s' '          search_key = search_key.to_sym'
  inject test-rspec-hashie "$W/hashie" lib/hashie/extensions/deep_fetch.rb \
    "at #{arg}\", e.backtrace" "at #{args.last}\", e.backtrace"
  (cd "$W/hashie" && rspec 2>&1 || true) | norm > "$OUT/test-rspec-hashie.log"
  wc -c "$OUT"/test-jest-commander.log "$OUT"/test-rspec-hashie.log
}

# ---------------------------------------------------------------- lint x2
lint_section() {
  # cppcheck 2.10 with every check on Lua 5.4.4's src/ (Debian source package lua5.4 5.4.4-3+deb12u1)
  debsrc lua5.4 lua5.4_5.4.4.orig.tar.gz
  unpack "$S/debsrc/lua5.4_5.4.4.orig.tar.gz" "$W/lua"
  (cd "$W/lua" && cppcheck --enable=all --suppress=missingIncludeSystem --inline-suppr src 2>&1 || true) | norm > "$OUT/lint-cppcheck-lua.txt"
  # RuboCop 1.39 (Debian) with its default configuration on hashie 5.0.0's lib/ (the project's own .rubocop.yml
  # targets RuboCop 0.x and is rejected as obsolete, so it is removed)
  debsrc ruby-hashie ruby-hashie_5.0.0.orig.tar.gz
  unpack "$S/debsrc/ruby-hashie_5.0.0.orig.tar.gz" "$W/hashie-rubo"
  rm -f "$W/hashie-rubo/.rubocop.yml" "$W/hashie-rubo/.rubocop_todo.yml"
  (cd "$W/hashie-rubo" && rubocop lib 2>&1 || true) | norm > "$OUT/lint-rubocop-hashie.txt"
  wc -c "$OUT"/lint-cppcheck-lua.txt "$OUT"/lint-rubocop-hashie.txt
}

# ---------------------------------------------------------------- build x2
build_section() {
  # jansson 2.14 (Debian source package jansson 2.14-2, upstream tarball): autoreconf, configure, make -k
  debsrc jansson jansson_2.14.orig.tar.gz
  rm -f "$DIFFS/build-autotools-jansson.diff"
  unpack "$S/debsrc/jansson_2.14.orig.tar.gz" "$W/jansson"
  inject build-autotools-jansson "$W/jansson" src/value.c \
    '    return object->hashtable.size;' '    return object->hashtable->size;'
  inject build-autotools-jansson "$W/jansson" src/dump.c \
    'return strbuffer_append_bytes((strbuffer_t *)data, buffer, size);' 'return strbuffer_append_bytes((strbuffer_t *)data, buffer);'
  (cd "$W/jansson" && { autoreconf -fi && ./configure && make -k; } 2>&1 || true) | norm > "$OUT/build-autotools-jansson.log"
  # pixman 0.42.2 (Debian source package pixman 0.42.2-1, upstream tarball): meson setup + ninja -k 0
  debsrc pixman pixman_0.42.2.orig.tar.gz
  rm -f "$DIFFS/build-meson-pixman.diff"
  unpack "$S/debsrc/pixman_0.42.2.orig.tar.gz" "$W/pixman"
  inject build-meson-pixman "$W/pixman" pixman/pixman-matrix.c \
    $'    int64_t tmp[3][2], divint;\n    uint16_t divfrac;' $'    int64_t tmp[3][2];\n    uint16_t divfrac;'
  inject build-meson-pixman "$W/pixman" pixman/pixman-region.c \
    $'    GOOD (region);\n    numRects = PIXREGION_NUMRECTS (region);\n\n    if (!numRects || !INBOX' \
    $'    GOOD (region);\n    num_rects = PIXREGION_NUMRECTS (region);\n\n    if (!numRects || !INBOX'
  (cd "$W/pixman" && { meson setup build && ninja -C build -j1 -k 0; } 2>&1 || true) | norm > "$OUT/build-meson-pixman.log"
  wc -c "$OUT"/build-autotools-jansson.log "$OUT"/build-meson-pixman.log
}

# ---------------------------------------------------------------- trace x2
trace_section() {
  # Django 5.2.8 (PyPI) runserver of a fresh `startproject` whose sessions/admin migrations were never applied:
  # routine requests, an admin login that hits the missing django_session table (sqlite3 -> django.db chained
  # tracebacks), a stale session cookie, a CSRF rejection and a disallowed Host header; stopped with SIGINT
  local V=$S/venv-django D=$W/shop H=http://127.0.0.1:28000 J=$S/dj-jar
  [ -x "$V/bin/django-admin" ] || { python3 -m venv "$V"; "$V/bin/pip" install -q pip==26.0.1; "$V/bin/pip" install -q django==5.2.8; }
  rm -rf "$D" "$J"; mkdir -p "$D"
  (cd "$D" && "$V/bin/django-admin" startproject shop . && "$V/bin/python" manage.py migrate auth > /dev/null \
     && DJANGO_SUPERUSER_PASSWORD=ops-2024-pass "$V/bin/python" manage.py createsuperuser --noinput --username ops --email ops@example.com > /dev/null)
  (cd "$D" && exec "$V/bin/python" -u manage.py runserver --noreload 127.0.0.1:28000 > "$S/django-runserver.log" 2>&1) &
  local dpid=$!
  for _ in $(seq 1 30); do curl -s -o /dev/null "$H/" && break; sleep 0.5; done
  for p in /admin/ "/admin/login/?next=/admin/" /static/admin/css/base.css /static/admin/css/login.css /static/admin/js/nav_sidebar.js /favicon.ico /robots.txt; do
    curl -s -o /dev/null -c "$J" -b "$J" "$H$p" || true; done
  local tok; tok=$(awk '$6 == "csrftoken" {print $7}' "$J")
  curl -s -o /dev/null -c "$J" -b "$J" -H "Referer: $H/admin/login/" -d "csrfmiddlewaretoken=$tok&username=ops&password=wrong-pass&next=/admin/" "$H/admin/login/" || true
  curl -s -o /dev/null -c "$J" -b "$J" -H "Referer: $H/admin/login/" -d "csrfmiddlewaretoken=$tok&username=ops&password=ops-2024-pass&next=/admin/" "$H/admin/login/" || true
  curl -s -o /dev/null -b "csrftoken=$tok; sessionid=h3k2v9q1x0c7m4n8b5z6l2p0w9e1r3t7" "$H/admin/auth/user/" || true
  curl -s -o /dev/null -d "username=ops&password=ops-2024-pass" "$H/admin/login/" || true
  curl -s -o /dev/null -H "Host: shop.internal:8443" "$H/admin/" || true
  curl -s -o /dev/null "$H/admin/orders/order/42/change/" || true
  curl -s -o /dev/null "$H/api/v1/orders?page=2" || true
  sleep 1; kill -INT "$dpid"; wait "$dpid" || true
  norm < "$S/django-runserver.log" > "$OUT/trace-python-django-sessions.log"
  # valgrind memcheck on libyaml 0.2.5's run-loader (Debian source package libyaml 0.2.5-1, upstream tarball,
  # static -g -O0 build) over its examples/, after two injected bugs (an off-by-one memset in
  # yaml_string_extend, scalar values no longer freed in yaml_document_delete)
  debsrc libyaml libyaml_0.2.5.orig.tar.gz
  rm -f "$DIFFS/trace-valgrind-libyaml.diff"
  unpack "$S/debsrc/libyaml_0.2.5.orig.tar.gz" "$W/libyaml"
  inject trace-valgrind-libyaml "$W/libyaml" src/api.c \
    '    memset(new_start + (*end - *start), 0, *end - *start);' '    memset(new_start + (*end - *start), 0, (*end - *start) + 1);'
  inject trace-valgrind-libyaml "$W/libyaml" src/api.c \
    $'            case YAML_SCALAR_NODE:\n                yaml_free(node.data.scalar.value);\n                break;' \
    $'            case YAML_SCALAR_NODE:\n                break;'
  (cd "$W/libyaml" && autoreconf -fi && ./configure --disable-shared CFLAGS="-g -O0" && make && make -C tests run-loader) > "$S/libyaml-build.log" 2>&1
  (cd "$W/libyaml" && valgrind --leak-check=full tests/run-loader examples/*.yaml 2>&1 || true) | norm > "$OUT/trace-valgrind-libyaml.log"
  wc -c "$OUT"/trace-python-django-sessions.log "$OUT"/trace-valgrind-libyaml.log
}

# ---------------------------------------------------------------- stack: log x2, table x1
# Runs `stack-inner` in a new PID namespace (unshare --pid --fork --mount-proc) so that `lsof` shows only the
# services started here (and none of the host's processes).
stack_section() {
  debsrc lua5.4 lua5.4_5.4.4.orig.tar.gz
  unshare --pid --fork --mount-proc bash "$HERE/cli3.sh" stack-inner
}

stack_inner() {
  local T=$S/stack A=$S/stack/apache M=$S/stack/mariadb B=$S/stack/backend
  rm -rf "$T"; mkdir -p "$A"/{logs,run,htdocs} "$M" "$B"
  # -- content: Lua 5.4.4's HTML manual as /docs/, an upload folder without index, a password-protected area,
  #    a legacy folder whose .htaccess still carries mod_php flags, a folder with a self-matching rewrite
  tar xzf "$S/debsrc/lua5.4_5.4.4.orig.tar.gz" -C "$A/htdocs" lua-5.4.4/doc && mv "$A/htdocs/lua-5.4.4/doc" "$A/htdocs/docs" && rmdir "$A/htdocs/lua-5.4.4"
  mkdir -p "$A/htdocs"/{uploads,private,legacy,loop}
  cp "$A/htdocs/docs/logo.gif" "$A/htdocs/uploads/"; cp "$A/htdocs/docs/readme.html" "$A/htdocs/private/index.html"
  cp "$A/htdocs/docs/readme.html" "$A/htdocs/legacy/index.html"; cp "$A/htdocs/docs/readme.html" "$A/htdocs/loop/index.html"
  printf 'php_flag engine off\nOptions -Indexes\n' > "$A/htdocs/legacy/.htaccess"
  printf 'RewriteEngine On\nRewriteRule ^(.*)$ /loop/index.html/$1 [L]\n' > "$A/htdocs/loop/.htaccess"
  htpasswd -bcB "$A/htpasswd" ops 'ops-2024-pass' 2> /dev/null
  chmod -R a+rX "$S/stack"; chmod a+x "$S"
  local mods="mpm_event authz_core authz_host authz_user authn_core authn_file auth_basic mime dir alias rewrite
    proxy proxy_http proxy_fcgi status headers reqtimeout setenvif autoindex"
  { for m in $mods; do echo "LoadModule ${m}_module /usr/lib/apache2/modules/mod_$m.so"; done
    cat <<APC
ServerRoot $A
ServerName shop.internal
Listen 127.0.0.1:28080
PidFile $A/run/httpd.pid
DefaultRuntimeDir $A/run
User www-data
Group www-data
ErrorLog $A/logs/error.log
LogLevel info authz_core:debug
LogFormat "%h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"" combined
CustomLog $A/logs/access.log combined
TypesConfig /etc/mime.types
StartServers 2
ThreadsPerChild 10
MaxRequestWorkers 20
RequestReadTimeout header=2-4,MinRate=500 body=5,MinRate=500
DocumentRoot $A/htdocs
DirectoryIndex index.html
<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory $A/htdocs>
    Options FollowSymLinks
    AllowOverride All
    Require all granted
</Directory>
<Directory $A/htdocs/uploads>
    Options -Indexes
    AllowOverride None
</Directory>
<Directory $A/htdocs/private>
    AuthType Basic
    AuthName "ops"
    AuthUserFile $A/htpasswd
    Require valid-user
</Directory>
<Location /server-status>
    SetHandler server-status
    Require ip 10.20.0.0/16
</Location>
ProxyTimeout 3
ProxyPass /api/ http://127.0.0.1:28081/ retry=0
ProxyPass /catalog/ http://127.0.0.1:28082/ retry=0
ProxyPass /shop/ "unix:$A/run/php-fpm.sock|fcgi://localhost/" retry=0
APC
  } > "$A/httpd.conf"
  # -- a backend for /catalog/: python's http.server over the same manual
  (cd "$A/htdocs/docs" && exec python3 -m http.server 28082 --bind 127.0.0.1 > "$B/http-server.log" 2>&1) &
  local bpid=$!
  # -- MariaDB 10.11 in a scratch datadir
  chown mysql:mysql "$M"
  cat > "$M/my.cnf" <<MYC
[mysqld]
user = mysql
datadir = $M/data
socket = $M/mysqld.sock
pid-file = $M/mysqld.pid
port = 28306
bind-address = 127.0.0.1
log_error = $M/error.log
log_warnings = 3
innodb_buffer_pool_size = 64M
innodb_log_file_size = 48M
innodb_print_all_deadlocks = ON
innodb_lock_wait_timeout = 2
max_connections = 12
max_allowed_packet = 1M
myisam_recover_options = BACKUP,FORCE
[client]
socket = $M/mysqld.sock
MYC
  mariadb-install-db --defaults-file="$M/my.cnf" --auth-root-authentication-method=normal > "$M/install.log" 2>&1
  mariadbd --defaults-file="$M/my.cnf" > /dev/null 2>&1 &
  local mpid=$!
  local SQL="mariadb --defaults-file=$M/my.cnf -uroot"
  for _ in $(seq 1 60); do $SQL -e 'select 1' > /dev/null 2>&1 && break; sleep 0.5; done
  /usr/sbin/apache2 -f "$A/httpd.conf" -k start
  sleep 1
  # -- MariaDB workload: time zone tables, an app user, a deadlock, a crashed MyISAM table, bad logins, a
  #    connection storm past max_connections, a client killed mid-query
  mariadb-tzinfo-to-sql /usr/share/zoneinfo 2> /dev/null | $SQL mysql
  $SQL -e "CREATE DATABASE shop; CREATE USER 'app'@'localhost' IDENTIFIED BY 'app-pass-7'; GRANT ALL ON shop.* TO 'app'@'localhost';"
  $SQL shop -e "CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(40), balance INT) ENGINE=InnoDB;
    INSERT INTO accounts SELECT Time_zone_id, LEFT(Name, 40), 1000 FROM mysql.time_zone_name WHERE Time_zone_id <= 200;
    CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, at DATETIME, what VARCHAR(200), KEY (at)) ENGINE=MyISAM;
    INSERT INTO audit (at, what) SELECT NOW(), CONCAT('opened ', owner) FROM accounts;"
  deadlock() {  # two transfers that lock rows $1 and $2 in opposite order
    ( $SQL shop -e "BEGIN; UPDATE accounts SET balance = balance - 50 WHERE id = $1; DO SLEEP(1); UPDATE accounts SET balance = balance + 50 WHERE id = $2; COMMIT;" > /dev/null 2>&1 || true ) &
    local t1=$!; sleep 0.3
    $SQL shop -e "BEGIN; UPDATE accounts SET balance = balance - 20 WHERE id = $2; DO SLEEP(0.2); UPDATE accounts SET balance = balance + 20 WHERE id = $1; COMMIT;" > /dev/null 2>&1 || true
    wait $t1 || true
  }
  deadlock 7 12
  $SQL shop -e "FLUSH TABLES audit;"
  truncate -s 2048 "$M/data/shop/audit.MYI"
  $SQL shop -e "SELECT count(*) FROM audit WHERE at > NOW() - INTERVAL 1 DAY;" > /dev/null 2>&1 || true
  for pw in wrong-pass app app123 password 'app-pass-6'; do
    mariadb --defaults-file="$M/my.cnf" -uapp -p"$pw" shop -e 'select 1' > /dev/null 2>&1 || true; done
  mariadb --defaults-file="$M/my.cnf" -ureport -preport shop -e 'select 1' > /dev/null 2>&1 || true
  mariadb --defaults-file="$M/my.cnf" -h 127.0.0.1 -P 28306 -uapp -papp-pass-7 nosuchdb -e 'select 1' > /dev/null 2>&1 || true
  ( { echo "SET SESSION wait_timeout = 1;"; sleep 3; echo "SELECT 1;"; } | mariadb --defaults-file="$M/my.cnf" -uapp -papp-pass-7 shop > /dev/null 2>&1 || true ) &
  local idle=$!
  ( mariadb --defaults-file="$M/my.cnf" -uapp -papp-pass-7 shop -e 'SELECT SLEEP(20)' > /dev/null 2>&1 ) &
  local victim=$!
  sleep 0.5
  local pids=()
  for i in $(seq 1 14); do (mariadb --defaults-file="$M/my.cnf" -uapp -papp-pass-7 shop -e 'DO SLEEP(3)' > /dev/null 2>&1 || true) & pids+=($!); done
  sleep 1
  # -- Apache traffic: the manual, a bot scan, bad auth, the misconfigured folders, dead backends
  local H=http://127.0.0.1:28080
  for p in /docs/ /docs/readme.html /docs/manual.html /docs/contents.html /docs/lua.css /docs/manual.css /docs/logo.gif \
           /catalog/readme.html /catalog/index.css /uploads/ /uploads/logo.gif /legacy/ /loop/ /loop/index.html \
           /api/v1/orders /api/v1/health /shop/cart.php /server-status; do
    curl -s -o /dev/null -A "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" "$H$p" || true; done
  for p in /.env /.git/config /wp-login.php /xmlrpc.php /phpmyadmin/index.php /admin/config.php /vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php /cgi-bin/luci "/docs/../../../../etc/passwd"; do
    curl -s -o /dev/null --path-as-is -A "Mozilla/5.0 zgrab/0.x" "$H$p" || true; done
  curl -s -o /dev/null "$H/private/" || true
  curl -s -o /dev/null -u ops:wrong "$H/private/" || true
  curl -s -o /dev/null -u deploy:deploy "$H/private/" || true
  curl -s -o /dev/null -u ops:ops-2024-pass "$H/private/" || true
  timeout 8 bash -c 'exec 3<>/dev/tcp/127.0.0.1/28080; printf "GET /docs/ HTTP/1.1\r\nHost: shop.internal\r\n" >&3; sleep 6' || true
  printf 'GET /docs/ HTTP/1.1\r\nHost: shop.internal\r\nContent-Length: 12\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' > "$T/smuggle.req"
  timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/28080; cat $T/smuggle.req >&3; cat <&3 > /dev/null" || true
  # -- lsof while everything runs (the SELECT SLEEP(20) client still connected)
  sleep 1
  lsof -nP -K i > "$T/lsof.txt" 2> "$T/lsof.err" || true
  norm < "$T/lsof.txt" > "$OUT/table-lsof-apache-mariadb.txt"
  kill -9 "$victim" 2> /dev/null || true
  for p in "${pids[@]}"; do wait "$p" || true; done
  wait "$idle" || true
  # -- the database host loses mariadbd (SIGKILL): restart, crash recovery, another deadlock, a clean shutdown
  ( $SQL shop -e "UPDATE accounts SET balance = balance + 1; DO SLEEP(5);" > /dev/null 2>&1 || true ) &
  sleep 1; kill -9 "$mpid"; wait "$mpid" 2> /dev/null || true
  mariadbd --defaults-file="$M/my.cnf" > /dev/null 2>&1 &
  mpid=$!
  for _ in $(seq 1 60); do $SQL -e 'select 1' > /dev/null 2>&1 && break; sleep 0.5; done
  deadlock 101 33
  $SQL shop -e "REPAIR TABLE audit;" > /dev/null 2>&1 || true
  # -- graceful restart, one more failing backend call, then stop
  /usr/sbin/apache2 -f "$A/httpd.conf" -k graceful; sleep 2
  curl -s -o /dev/null "$H/api/v1/orders?page=2" || true
  /usr/sbin/apache2 -f "$A/httpd.conf" -k stop; sleep 2
  kill "$bpid" || true
  mariadb-admin --defaults-file="$M/my.cnf" -uroot shutdown; wait "$mpid" || true; wait || true
  norm < "$A/logs/error.log" > "$OUT/log-apache-httpd-error.log"
  norm < "$M/error.log" > "$OUT/log-mariadb-error.log"
  wc -c "$OUT"/log-apache-httpd-error.log "$OUT"/log-mariadb-error.log "$OUT"/table-lsof-apache-mariadb.txt
}

# ---------------------------------------------------------------- table x1 (+1 in stack)
table_section() {
  # du of commander 9.4.1's node_modules after `npm ci` (its package-lock: jest 28, eslint 8, typescript 4.7...)
  debsrc node-commander node-commander_9.4.1.orig.tar.gz
  unpack "$S/debsrc/node-commander_9.4.1.orig.tar.gz" "$W/commander-deps"
  (cd "$W/commander-deps" && npm ci --ignore-scripts --no-audit --no-fund > "$S/commander-deps-install.log" 2>&1)
  (cd "$W/commander-deps" && du -h --max-depth=2 node_modules | sort -h) > "$OUT/table-du-commander-node-modules.txt"
  wc -c "$OUT"/table-du-commander-node-modules.txt
}

# ---------------------------------------------------------------- check
check_section() {
  python3 - "$HERE" <<'PYCHK'
import sys
sys.path.insert(0, sys.argv[1])
import common

def group_rules(records):  # per kind: at least two items, alternately dev and holdout in id order
    for kind, items in common.by_kind(records).items():
        for n, item in enumerate(items):
            if item["set"] != ("dev" if n % 2 == 0 else "holdout"):
                yield f"split: {item['id']} should be {'dev' if n % 2 == 0 else 'holdout'}"
        if len(items) < 2:
            yield f"kind {kind} has only {len(items)} item"

rules = common.Rules(
    sizes=(8 * 1024, 600 * 1000), max_group_bytes=2_200_000, required=("args", "project", "command"),
    forbidden=("/tmp/corpus", "corpus-cli3"), one_line=True, answer_length=(8, 90), query_words=(3, 10),
    max_edge_facts=3,
)
sys.exit(common.check_cli("cli3", rules, group_rules=group_rules))
PYCHK
}

case "${1:-}" in
  diff) diff_section ;;
  gitlog) gitlog_section ;;
  test) test_section ;;
  lint) lint_section ;;
  build) build_section ;;
  trace) trace_section ;;
  stack) stack_section ;;
  stack-inner) stack_inner ;;
  table) table_section ;;
  check) check_section ;;
  all) for s in diff gitlog test lint build trace stack table; do bash "$HERE/cli3.sh" "$s"; done ;;
  *) echo "usage: $0 diff|gitlog|test|lint|build|trace|stack|table|all|check"; exit 2 ;;
esac
