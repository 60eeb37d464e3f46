# Shared by the bench scripts (sourced): installs redis-server and
# redis-tools if missing, and defines free_port and last_rps. Starts
# nothing.
if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null
fi

# free_port prints a free loopback TCP port.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# last_rps reads redis-benchmark --csv output and prints the requests/s.
last_rps() {
  python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 1 and r[0] != "test"]
print(rows[-1][1])'
}
