# Shared by bench/scripting.sh, bench/streams.sh and bench/types.sh: installs the Redis tools
# if missing (tools.sh), builds rekv, starts redis-server (no persistence) and rekv
# (Badger, default durability) on free loopback ports, and stops them on
# exit. Sets rport and kport.
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
go build -o "$work/rekv" .
rport=$(free_port); kport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >/dev/null 2>&1 &
pids+=("$!")
"$work/rekv" --port "$kport" --dir "$work/rekv-data" --log-level warn >"$work/rekv.log" 2>&1 &
pids+=("$!")
wait_port "$rport"; wait_port "$kport"

# median_table pipeline "redis rps..." "rekv rps..." prints a table row.
median_row() {
  python3 - "$@" <<'PY'
import statistics, sys
label, r, k = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
mr, mk = statistics.median(r), statistics.median(k)
print(f"| {label} | {mr:,.0f} | {mk:,.0f} | {mk/mr:.2f} |")
PY
}
