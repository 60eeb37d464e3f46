#!/usr/bin/env bash
# The probabilistic types' cost: rekv's BF.ADD, BF.EXISTS, CF.ADD,
# CF.EXISTS, CMS.INCRBY, CMS.QUERY, TOPK.ADD, TDIGEST.ADD and
# TDIGEST.QUANTILE beside rekv's and
# redis-server's SADD and SISMEMBER (Debian's Redis 7 has none of them),
# each server pinned to CPU 0 and redis-benchmark to CPU 1: CPU
# microseconds per command and ops/s, -c 50 -r 100000.
# Usage: bench/probabilistic.sh [REKV_BIN] [N] [PIPES]
set -u
bin=${1:-/tmp/rekv-bin}; n=${2:-200000}; pipes=${3:-"1 16"}
base=43000
. "$(dirname "$0")/pinned.sh"
for P in $pipes; do
  redis-cli -p $kp FLUSHALL >/dev/null; redis-cli -p $rp FLUSHALL >/dev/null
  redis-cli -p $kp BF.RESERVE bf 0.01 1000000 >/dev/null
  redis-cli -p $kp CF.RESERVE cf 1000000 >/dev/null
  redis-cli -p $kp CMS.INITBYPROB cms 0.001 0.01 >/dev/null
  redis-cli -p $kp TOPK.RESERVE tk 50 2000 7 0.9 >/dev/null
  redis-cli -p $kp TDIGEST.CREATE td >/dev/null
  echo "P$P redis SADD       $(run $r $rp $P SADD s __rand_int__)"
  echo "P$P rekv  SADD       $(run $k $kp $P SADD s __rand_int__)"
  echo "P$P rekv  BF.ADD     $(run $k $kp $P BF.ADD bf __rand_int__)"
  echo "P$P rekv  CF.ADD     $(run $k $kp $P CF.ADD cf __rand_int__)"
  echo "P$P rekv  CMS.INCRBY $(run $k $kp $P CMS.INCRBY cms __rand_int__ 1)"
  echo "P$P rekv  TOPK.ADD   $(run $k $kp $P TOPK.ADD tk __rand_int__)"
  echo "P$P rekv  TDIGEST.ADD $(run $k $kp $P TDIGEST.ADD td __rand_int__)"
  echo "P$P redis SISMEMBER  $(run $r $rp $P SISMEMBER s __rand_int__)"
  echo "P$P rekv  SISMEMBER  $(run $k $kp $P SISMEMBER s __rand_int__)"
  echo "P$P rekv  BF.EXISTS  $(run $k $kp $P BF.EXISTS bf __rand_int__)"
  echo "P$P rekv  CF.EXISTS  $(run $k $kp $P CF.EXISTS cf __rand_int__)"
  echo "P$P rekv  CMS.QUERY  $(run $k $kp $P CMS.QUERY cms __rand_int__)"
  echo "P$P rekv  TDIGEST.QUANTILE $(run $k $kp $P TDIGEST.QUANTILE td 0.5)"
done
