#!/usr/bin/env bash
# CPU time the server spends per command: rekv (Badger, default settings)
# beside Debian's redis-server (no persistence), each pinned to CPU 0,
# redis-benchmark pinned to CPU 1 (-c 50 -r 100000). The server's
# utime+stime from /proc over the run, divided by the requests. Unlike
# requests/s, this barely moves with the load of a shared machine.
#
#   bench/cpu-per-op.sh [rounds] [requests] [tests] [pipelines]
#   e.g. bench/cpu-per-op.sh 3 400000 get,set "1 16"
#   BENCH_REKV_FLAGS="--driver tikv --pd 127.0.0.1:2379" measures a node
#   on another store (not REKV_*: rekv reads those as settings)
#
# Prints, per test and pipeline depth, the median over the rounds of each
# server's microseconds per command, their ratio (rekv / Redis) and each
# median requests/s. Before each run the server is flushed and the
# script waits until it is idle (rekv's FLUSHALL leaves its old records
# to the background collector; that work is FLUSHALL's, not the next
# test's). Bounded: each run has a fixed request count and a 300 s limit.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
n=${2:-400000}
tests=${3:-get,set,incr,lpush,sadd,hset,zadd,mset}
pipes=${4:-1 16}
source bench/tools.sh

work=$(mktemp -d)
rpid= kpid=
trap '[ -n "$rpid" ] && kill $rpid 2>/dev/null; [ -n "$kpid" ] && kill $kpid 2>/dev/null; sleep 1; rm -rf "$work"' EXIT
go build -o "$work/rekv" .
rport=$(free_port)
kport=$(free_port)
taskset -c 0 redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >/dev/null 2>&1 &
rpid=$!
# shellcheck disable=SC2086 # BENCH_REKV_FLAGS is a list of flags
taskset -c 0 "$work/rekv" --port "$kport" --dir "$work/data" --log-level warn ${BENCH_REKV_FLAGS:-} >"$work/rekv.log" 2>&1 &
kpid=$!
wait_port "$rport"
wait_port "$kport"

hz=$(getconf CLK_TCK)
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
# settle waits (at most 20 s) until the server used no CPU for 0.5 s.
settle() {
  local a b
  for _ in $(seq 40); do
    a=$(ticks "$1"); sleep 0.5; b=$(ticks "$1")
    [ "$b" -le "$a" ] && return 0
  done
  return 0 # still busy after 20 s (a node on TiKV may never be idle): measure anyway
}
# measure pid port test P: prints "us_per_op ops_per_s".
measure() {
  local pid=$1 port=$2 t=$3 P=$4 c0 c1 ops
  redis-cli -p "$port" flushall >/dev/null
  settle "$pid"
  c0=$(ticks "$pid")
  ops=$(taskset -c 1 timeout 300 redis-benchmark -p "$port" -n "$n" -c 50 -r 100000 -P "$P" -t "$t" --csv 2>/dev/null | last_rps)
  c1=$(ticks "$pid")
  awk -v c=$((c1 - c0)) -v hz="$hz" -v n="$n" -v ops="$ops" 'BEGIN{printf "%.2f %.0f\n", c/hz*1e6/n, ops}'
}
median() { sort -g | awk '{v[NR]=$1} END{print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

echo "CPU microseconds per command, median of $rounds rounds of $n requests (-c 50 -r 100000); servers on CPU 0, redis-benchmark on CPU 1"
echo
echo "| test | -P | redis us/op | rekv us/op | ratio | redis ops/s | rekv ops/s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for t in ${tests//,/ }; do
  for P in $pipes; do
    : >"$work/r" ; : >"$work/k"
    for _ in $(seq "$rounds"); do
      measure "$rpid" "$rport" "$t" "$P" >>"$work/r"
      measure "$kpid" "$kport" "$t" "$P" >>"$work/k"
    done
    ru=$(cut -d' ' -f1 "$work/r" | median); ro=$(cut -d' ' -f2 "$work/r" | median)
    ku=$(cut -d' ' -f1 "$work/k" | median); ko=$(cut -d' ' -f2 "$work/k" | median)
    awk -v t="$t" -v P="$P" -v ru="$ru" -v ku="$ku" -v ro="$ro" -v ko="$ko" \
      'BEGIN{printf "| %s | %s | %.2f | %.2f | %.1fx | %.0f | %.0f |\n", t, P, ru, ku, (ru>0 ? ku/ru : 0), ro, ko}'
  done
done
