# Shared by the bench scripts (sourced): installs redis-server and
# redis-tools if missing, and defines free_port, wait_port, repl_field, last_rps
# and start_rekv (which starts a server when called). Sourcing it starts
# nothing.
if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null
fi

# free_port prints a free loopback TCP port.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_port waits until a server answers PING on loopback port $1, or
# exits after 10 s.
wait_port() { for _ in $(seq 100); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "server on $1 did not start" >&2; exit 1; }

# repl_field prints the INFO replication field $2 of the server on port $1.
repl_field() { redis-cli -p "$1" info replication | tr -d '\r' | awk -F: -v f="$2" '$1 == f {print $2}'; }

# last_rps reads redis-benchmark --csv output and prints the requests/s.
last_rps() {
  python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 1 and r[0] != "test"]
print(rows[-1][1])'
}

# start_rekv: builds rekv into a new temporary directory (work), starts it
# (default configuration) on a free port with its data in $work/data and
# its log in $work/rekv.log, and waits until it answers; sets work, port
# and pid, and stops the server and removes work on exit.
start_rekv() {
  work=$(mktemp -d)
  pid=
  trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
  go build -o "$work/rekv" .
  port=$(free_port)
  "$work/rekv" --port "$port" --dir "$work/data" --log-level warn >"$work/rekv.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
}

# tikv_bench_setup: for the scripts on the network TiKV cluster of
# ../shared/tikv (TIKV_CLUSTER_SCRIPT): its ports (PD_PORT, KV_PORT:
# 22379 / 22160 unless set), a work directory with rekv built in it, pids
# (append what you start), and on exit everything in pids stopped, the
# cluster stopped and work removed. Sets cluster, work and pids.
tikv_bench_setup() {
  export PD_PORT=${PD_PORT:-22379} KV_PORT=${KV_PORT:-22160}
  cluster=${TIKV_CLUSTER_SCRIPT:-../shared/tikv/tikv-cluster.sh}
  work=$(mktemp -d)
  pids=()
  trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; bash "$cluster" stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  go build -o "$work/rekv" .
}
