# Sourced by the pinned benchmarks (probabilistic.sh, json.sh): starts
# Debian's redis-server and rekv ($bin, a scratch directory), each on CPU
# 0, stops them on exit, and defines run, which measures one
# redis-benchmark test on CPU 1 (-c 50 -r 100000, $n requests): the
# server's CPU microseconds per request (utime+stime from /proc) and
# its ops/s. Expects bin, n and base (a port range start) set.
rp=$((base + RANDOM % 1000)); kp=$((rp + 1000)); d=$(mktemp -d)
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
