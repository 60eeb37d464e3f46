#!/usr/bin/env bash
# Memory and time of huge string values on rekv (Badger) beside Debian's
# redis-server: one SET of SIZE MiB, GET of it, then APPENDs of 8 MiB up to
# SIZE MiB and a GETRANGE of 1 MiB in its middle. For each step it prints
# the seconds taken and the server's peak anonymous resident memory (heap;
# sampled every 10 ms from /proc, so brief peaks can be missed), minus
# what it used before: file-backed pages (Badger's memory-mapped value log)
# are left out, as the kernel reclaims them. Meanwhile another client
# PINGs every 5 ms: its p99 and longest wait show whether the big command
# holds up everyone else.
#
#   bench/bigvalues.sh [SIZE]      (default 256)
#
# Bounded: fixed sizes, one pass; the servers it starts are stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-256}
source "$(dirname "$0")/lib.sh"
rpid=${pids[0]}; kpid=${pids[1]}
echo "| server | step | seconds | peak anon MiB over idle | other client's PING p99 / max ms |"
echo "|---|---|---|---|---|"
for name in redis rekv; do
  port=$rport; pid=$rpid
  if [ "$name" = rekv ]; then port=$kport; pid=$kpid; fi
  python3 - "$name" "$port" "$pid" "$size" <<'PY'
import socket, sys, threading, time
name, port, pid, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def anon():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("RssAnon"):
            return int(line.split()[1]) // 1024
    return 0
s = socket.create_connection(("127.0.0.1", port))
f = s.makefile("rb")
def reply():
    line = f.readline()
    if line[:1] == b"$":
        n = int(line[1:])
        if n >= 0:
            left = n + 2
            while left:
                left -= len(f.read(min(left, 1 << 20)))
        return n
    return line.strip()
def send(*args):
    s.sendall(b"*%d\r\n" % len(args))
    for a in args:
        if isinstance(a, int):  # a value of a MiB
            s.sendall(b"$%d\r\n" % (a << 20))
            chunk = b"x" * (1 << 20)
            for _ in range(a):
                s.sendall(chunk)
            s.sendall(b"\r\n")
        else:
            a = a.encode() if isinstance(a, str) else a
            s.sendall(b"$%d\r\n%s\r\n" % (len(a), a))
def step(label, fn):
    base, peak, done = anon(), [0], threading.Event()
    pings = []
    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], anon())
            time.sleep(0.01)
    def pinger():
        p = socket.create_connection(("127.0.0.1", port))
        pf = p.makefile("rb")
        while not done.is_set():
            t0 = time.time()
            p.sendall(b"PING\r\n")
            pf.readline()
            pings.append(time.time() - t0)
            time.sleep(0.005)
        p.close()
    t = threading.Thread(target=sample); t.start()
    pt = threading.Thread(target=pinger); pt.start()
    t0 = time.time(); fn(); dt = time.time() - t0
    done.set(); t.join(); pt.join()
    pings.sort()
    p99 = pings[min(len(pings) - 1, len(pings) * 99 // 100)] * 1000 if pings else 0
    pmax = pings[-1] * 1000 if pings else 0
    print(f"| {name} | {label} | {dt:.2f} | {max(peak[0] - base, 0)} | {p99:.1f} / {pmax:.0f} |", flush=True)
    time.sleep(1.5)  # let the server settle
send("flushall"); reply()
step(f"SET {size} MiB", lambda: (send("set", "big", size), reply()))
step(f"GET {size} MiB", lambda: (send("get", "big"), reply()))
send("del", "big"); reply()
def appends():
    for _ in range(size // 8):
        send("append", "big", 8); reply()
step(f"APPEND 8 MiB x {size // 8}", appends)
step("GETRANGE 1 MiB", lambda: (send("getrange", "big", str(size << 19), str((size << 19) + (1 << 20) - 1)), reply()))
send("flushall"); reply()
PY
done
