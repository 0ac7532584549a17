#!/usr/bin/env bash
# bootstraptest with every program in a child VM of one long-lived process.
#   tool/mvm-bt/run.sh RUBY SRC [runner options and test files]
set -euo pipefail
ruby=$1 src=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
# KILL: the server traps TERM and the like, which the programs send their own process
trap 'kill -KILL $server 2>/dev/null; [ -n "${MVM_BT_KEEP_LOG:-}" ] && cp "$tmp/server.log" "$MVM_BT_KEEP_LOG"; rm -rf "$tmp"' EXIT
export MVM_BT_SOCKET=$tmp/bt.sock
"$ruby" "$here/server.rb" "$MVM_BT_SOCKET" > "$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q ready "$tmp/server.log" 2>/dev/null && break; sleep 0.1; done
# the client itself is a short-lived ruby without RubyGems
"$ruby" --disable-gems "$src/bootstraptest/runner.rb" --ruby="$ruby --disable-gems $here/client.rb" "$@"
