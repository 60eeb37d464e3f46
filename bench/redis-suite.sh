#!/usr/bin/env bash
# Redis 7.0's own test suite (from Debian's redis source package, the
# version of Debian's redis-server) in external mode, against rekv and
# against redis-server, one unit at a time, each server restarted before
# each unit: a unit that aborts (an exception, a test timeout) or leaves
# settings behind (maxmemory, a stuck BGSAVE child) spoils only itself.
# Prints, per unit, the tests passed and failed and whether it aborted
# on each server, then the totals. DEBUG is enabled on both
# (enable-debug-command yes), so tests tagged needs:debug run; DEBUG=no
# leaves both servers at their default (the suite's default-tags run:
# those tests then fail or abort on both).
#
#   bench/redis-suite.sh [units...]   e.g. bench/redis-suite.sh unit/multi
#   SERVERS="rekv redis" (default both)   TEST_TIMEOUT=120 (s, per test)
#   LOGS=dir keeps each unit's output there (<server>-<unit>.log)
#
# Needs deb-src in apt's sources (added if missing) and tclsh (installed
# if missing). Bounded: every unit has TEST_TIMEOUT per test and 900 s in
# all; the servers it starts are stopped by pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/tools.sh
command -v tclsh >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tcl >/dev/null; }

cache="${XDG_CACHE_HOME:-$HOME/.cache}/rekv-bench/redis-src"
if [ ! -d "$cache/tests" ]; then
  if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$(. /etc/os-release && echo "$VERSION_CODENAME")" > /etc/apt/sources.list.d/rekv-deb-src.sources
  fi
  apt-get update -qq
  dl=$(mktemp -d)
  (cd "$dl" && apt-get source --download-only redis >/dev/null 2>&1)
  mkdir -p "$cache"
  tar xzf "$dl"/redis_*.orig.tar.gz -C "$cache" --strip-components 1
  rm -rf "$dl"
fi
# Units that run the tools (integration/redis-cli, redis-benchmark) use
# the Debian build of the same version.
for tool in redis-cli redis-benchmark; do ln -sf "$(command -v $tool)" "$cache/src/$tool"; done

work=$(mktemp -d)
[ -n "${LOGS:-}" ] && mkdir -p "$LOGS"
pid=
cleanup() { if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi; rm -rf "$work"; }
trap cleanup EXIT
go build -o "$work/rekv" .
debug=${DEBUG:-yes}
printf 'server:\n  redis:\n    enable-debug-command: "%s"\n' "$debug" > "$work/rekv.yaml"
# The suite's helpers bind baseport-32..baseport-1 and each port+10000
# (baseport = port+100): a port past 55,400 leaves none they can use.
port=$(free_port)
while [ "$port" -gt 55400 ]; do port=$(free_port); done

units=("$@")
if [ ${#units[@]} -eq 0 ]; then
  mapfile -t units < <(sed -n '/^set ::all_tests {/,/^}/p' "$cache/tests/test_helper.tcl" | grep -v 'all_tests\|^}' | tr -d ' ')
fi

start() { # server
  [ -n "$pid" ] && { kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  pkill -9 -f "redis-rdb-bgsave|redis-aof-rewrite" 2>/dev/null || true
  rm -rf "$work/data"; mkdir -p "$work/data"
  if [ "$1" = rekv ]; then
    "$work/rekv" --port "$port" --dir "$work/data" --config "$work/rekv.yaml" --log-level warn >>"$work/server.log" 2>&1 &
  else
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --enable-debug-command "$debug" \
      --dir "$work/data" >>"$work/server.log" 2>&1 &
  fi
  pid=$!
  wait_port "$port"
}

declare -A ok fail aborted
for server in ${SERVERS:-rekv redis}; do
  for u in "${units[@]}"; do
    start "$server"
    log="${LOGS:-$work}/$server-${u//\//_}.log"
    (cd "$cache" && timeout 900 ./runtest --host 127.0.0.1 --port "$port" --single "$u" \
      --timeout "${TEST_TIMEOUT:-120}" --baseport $((port + 100)) >"$log" 2>&1) || true
    # The suite colours its verdicts: green ok, red err, exception, TIMEOUT.
    ok[$server,$u]=$(grep -a -c '32;49mok' "$log" || true)
    fail[$server,$u]=$(grep -a -c '^\[.*31;49merr' "$log" || true)
    aborted[$server,$u]=$(grep -a -q '31;49mexception\|31;49mTIMEOUT' "$log" && echo yes || echo no)
  done
done

printf '%-42s %s\n' "unit" "$(for s in ${SERVERS:-rekv redis}; do printf '%-24s' "$s ok/failed/aborted"; done)"
declare -A total
for u in "${units[@]}"; do
  line=$(printf '%-42s' "$u")
  for s in ${SERVERS:-rekv redis}; do
    line+=$(printf '%-24s' "${ok[$s,$u]}/${fail[$s,$u]}/${aborted[$s,$u]}")
    total[$s]=$(( ${total[$s]:-0} + ${ok[$s,$u]} ))
  done
  echo "$line"
done
for s in ${SERVERS:-rekv redis}; do echo "$s: ${total[$s]} tests passed"; done
