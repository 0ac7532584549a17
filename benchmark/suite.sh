#!/usr/bin/env bash
# make bench / make bench-quick: install benchmark_driver into a git-ignored
# gem home (build/bench-gems) and run benchmark/suite.rb.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEMS=$ROOT/build/bench-gems
VERSION=0.16.5
if [ ! -f "$GEMS/gems/benchmark_driver-$VERSION/exe/benchmark-driver" ]; then
    echo "==> installing benchmark_driver $VERSION into $GEMS"
    gem install --no-document --install-dir "$GEMS" benchmark_driver -v "$VERSION" >/dev/null ||
        { echo "error: could not install benchmark_driver from RubyGems; check the network." >&2; exit 1; }
fi
export BENCH_GEMS=$GEMS
exec ruby "$ROOT/benchmark/suite.rb" "$@"
