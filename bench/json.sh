#!/usr/bin/env bash
# JSON's cost: rekv's JSON.SET (a small document, and one path of it),
# JSON.GET, JSON.NUMINCRBY and JSON.ARRAPPEND beside rekv's and
# redis-server's SET, GET and INCR (Debian's Redis 7 has no JSON), each
# server pinned to CPU 0 and redis-benchmark to CPU 1: CPU microseconds
# per command and ops/s, -c 50 -r 100000.
# Usage: bench/json.sh [REKV_BIN] [N] [PIPES]
set -u
bin=${1:-/tmp/rekv-bin}; n=${2:-200000}; pipes=${3:-"1 16"}
rp=$((44000 + RANDOM % 1000)); kp=$((rp + 1000)); d=$(mktemp -d)
taskset -c 0 redis-server --port $rp --bind 127.0.0.1 --save '' --appendonly no --daemonize no >/dev/null 2>&1 & r=$!
taskset -c 0 "$bin" --port $kp --dir $d >$d.log 2>&1 & k=$!
trap 'kill $r $k 2>/dev/null; sleep 1; rm -rf $d $d.log' EXIT
for p in $rp $kp; do for _ in $(seq 100); do redis-cli -p $p PING 2>/dev/null | grep -q PONG && break; sleep 0.1; done; done
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
hz=$(getconf CLK_TCK)
run() { # pid port P command...
  local pid=$1 port=$2 P=$3; shift 3
  local c0 c1 ops
  c0=$(cpu $pid)
  ops=$(taskset -c 1 timeout 300 redis-benchmark -p $port -n $n -c 50 -r 100000 -P $P -q "$@" 2>/dev/null | tr '\r' '\n' | sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1)
  c1=$(cpu $pid)
  awk -v c=$((c1-c0)) -v hz=$hz -v n=$n -v ops="$ops" 'BEGIN{printf "%6.2f us/op %9s/s", c/hz*1e6/n, ops}'
}
doc='{"name":"user","age":42,"tags":["a","b"],"addr":{"city":"x","zip":"12345"}}'
# Every key redis-benchmark can pick holds the document first (JSON
# commands on a missing key are errors, which cost nothing).
fill() {
  awk -v doc="$doc" 'BEGIN{for(i=0;i<100000;i++){k="j:" sprintf("%012d",i); printf "*4\r\n$8\r\nJSON.SET\r\n$%d\r\n%s\r\n$1\r\n$\r\n$%d\r\n%s\r\n", length(k), k, length(doc), doc}}' |
    redis-cli -p $kp --pipe >/dev/null
}
for P in $pipes; do
  redis-cli -p $kp FLUSHALL >/dev/null; redis-cli -p $rp FLUSHALL >/dev/null
  fill
  echo "P$P redis SET            $(run $r $rp $P SET k:__rand_int__ "$doc")"
  echo "P$P rekv  SET            $(run $k $kp $P SET k:__rand_int__ "$doc")"
  echo "P$P rekv  JSON.SET $     $(run $k $kp $P JSON.SET j:__rand_int__ '$' "$doc")"
  echo "P$P rekv  JSON.SET path  $(run $k $kp $P JSON.SET j:__rand_int__ '$.addr.city' '"y"')"
  echo "P$P redis GET            $(run $r $rp $P GET k:__rand_int__)"
  echo "P$P rekv  GET            $(run $k $kp $P GET k:__rand_int__)"
  echo "P$P rekv  JSON.GET $.age $(run $k $kp $P JSON.GET j:__rand_int__ '$.age')"
  echo "P$P redis INCR           $(run $r $rp $P INCR c:__rand_int__)"
  echo "P$P rekv  JSON.NUMINCRBY $(run $k $kp $P JSON.NUMINCRBY j:__rand_int__ '$.age' 1)"
  echo "P$P rekv  JSON.ARRAPPEND $(run $k $kp $P JSON.ARRAPPEND j:__rand_int__ '$.tags' '"c"')"
done
