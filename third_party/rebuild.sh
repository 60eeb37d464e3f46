#!/usr/bin/env bash
# rebuild.sh [--check] [dir...]: rebuilds third_party/<dir> from the
# pristine upstream module and its patch series (forks.tsv,
# patches/<dir>/*.patch, each a git patch whose message says why and names
# the test that guards it). With --check nothing is written: it fails when
# a directory differs from what the upstream and its patches make (CI runs
# it so). Without a dir, every fork in forks.tsv.
set -euo pipefail
cd "$(dirname "$0")"
check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi
export PATH="$PATH:/usr/local/go/bin"
status=0
while IFS=$'\t' read -r dir module version hash leftout; do
  case "$dir" in ''|'#'*) continue ;; esac
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$dir"; then continue; fi
  # Outside rekv's module, with the checksum database off: the pinned
  # hash below is the check (the proxy is the only registry reachable).
  json=$(cd "$(mktemp -d)" && GOSUMDB=off GOFLAGS= go mod download -json "$module@$version")
  src=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  sum=$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
  if [ "$sum" != "$hash" ]; then
    echo "$module@$version: the proxy's module hashes to $sum, forks.tsv pins $hash" >&2
    exit 1
  fi
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  (cd "$src" && find . -type f ! -name '*_test.go' ! -path './testdata/*' ! -path '*/testdata/*' -print) | while read -r f; do
    f=${f#./}
    skip=false
    for l in $leftout; do
      case "$f" in "$l"*) skip=true ;; esac
    done
    $skip && continue
    mkdir -p "$out/$(dirname "$f")"
    cp "$src/$f" "$out/$f"
  done
  chmod -R u+w "$out"
  for p in patches/"$dir"/*.patch; do
    [ -e "$p" ] || continue
    (cd "$out" && git apply --whitespace=nowarn "$OLDPWD/$p") || { echo "$p does not apply to $module@$version" >&2; exit 1; }
  done
  cp patches/"$dir"/README.rekv.md "$out/README.rekv.md"
  if $check; then
    if ! diff -r -q "$out" "$dir" >/dev/null; then
      echo "third_party/$dir differs from $module@$version with patches/$dir applied:" >&2
      diff -r -q "$out" "$dir" >&2 || true
      status=1
    fi
  else
    rm -rf "$dir"
    cp -r "$out" "$dir"
    echo "third_party/$dir: $module@$version with $(ls patches/"$dir"/*.patch 2>/dev/null | wc -l) patch(es)"
  fi
  rm -rf "$out"
  trap - EXIT
done < forks.tsv
exit $status
