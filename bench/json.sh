#!/usr/bin/env bash
# JSON's cost: rekv's JSON.SET (a small document, and one path of it),
# JSON.GET, JSON.NUMINCRBY and JSON.ARRAPPEND beside rekv's and
# redis-server's SET, GET and INCR (Debian's Redis 7 has no JSON), each
# server pinned to CPU 0 and redis-benchmark to CPU 1: CPU microseconds
# per command and ops/s, -c 50 -r 100000.
# Usage: bench/json.sh [REKV_BIN] [N] [PIPES]
set -u
bin=${1:-/tmp/rekv-bin}; n=${2:-200000}; pipes=${3:-"1 16"}
base=44000
. "$(dirname "$0")/pinned.sh"
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
