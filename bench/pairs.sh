#!/usr/bin/env bash
# Compares the CPU per command of two rekv builds, which a shared
# machine's state moves by 15-50% from one minute to the next: both
# servers run at once, pinned to CPU 0 (Badger, default settings, each
# its own data directory), and each round loads one then the other with
# redis-benchmark on CPU 1 (-c 50 -r 100000), the order alternating
# round by round. The ratio of a round's two figures is what the
# machine moves least.
#
#   bench/pairs.sh OLD_BIN NEW_BIN [test] [pipeline] [requests] [rounds]
#   e.g. git stash; go build -o /tmp/old .; git stash pop; go build -o /tmp/new .
#        bench/pairs.sh /tmp/old /tmp/new get 16 200000 15
#
# Prints each build's median microseconds per command (the server's
# utime+stime from /proc over the run, divided by the requests), every
# round's ratio new/old and their median. Bounded: each run has a fixed
# request count and a 300 s limit.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 t=${3:-get} P=${4:-16} n=${5:-200000} rounds=${6:-9}
source bench/tools.sh

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 1; rm -rf "$work"' EXIT
ports=()
for b in "$old" "$new"; do
  port=$(free_port)
  taskset -c 0 "$b" --port "$port" --dir "$work/data-$port" --log-level warn >"$work/$port.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
  wait_port "$port"
  # Warm up: the first run of a fresh server pays for its start.
  taskset -c 1 timeout 300 redis-benchmark -p "$port" -n 100000 -c 50 -r 100000 -P "$P" -t "$t" -q >/dev/null 2>&1
done
hz=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
one() { # index: prints us per command
  local pid=${pids[$1]} port=${ports[$1]} c0 c1
  c0=$(cpu "$pid")
  taskset -c 1 timeout 300 redis-benchmark -p "$port" -n "$n" -c 50 -r 100000 -P "$P" -t "$t" -q >/dev/null 2>&1
  c1=$(cpu "$pid")
  awk -v c=$((c1 - c0)) -v hz="$hz" -v n="$n" 'BEGIN{printf "%.3f", c/hz*1e6/n}'
}
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
a=() b=() r=()
for i in $(seq "$rounds"); do
  if ((i % 2)); then x=$(one 0); y=$(one 1); else y=$(one 1); x=$(one 0); fi
  a+=("$x") b+=("$y") r+=("$(awk -v x="$x" -v y="$y" 'BEGIN{printf "%.3f", y/x}')")
done
echo "$t -P $P, $rounds rounds of $n: old $(med "${a[@]}") us/op, new $(med "${b[@]}") us/op (medians)"
echo "new/old per round: ${r[*]}; median $(med "${r[@]}")"
