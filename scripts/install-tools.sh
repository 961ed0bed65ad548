#!/usr/bin/env bash
# Installs the real external tools that benchrig's adapters, R scripts, tests
# (PostgreSQL for the history store; scripts/postgres-local.sh starts it)
# (headless Chromium renders the SVG figures and HTML reports, node_exporter
# reads --prometheus files) and
# performance benchmarks drive. Idempotent: a tool already on PATH is skipped.
# Usage: scripts/install-tools.sh            (needs root or sudo, Debian/Ubuntu)
set -euo pipefail

# tool-on-PATH -> Debian package that provides it
declare -A PACKAGE_FOR=(
  [wrk]=wrk
  [h2load]=nghttp2-client
  [nginx]=nginx
  [Rscript]=r-base-core
  [chromium]=chromium
  [python3]=python3
  [slurmctld]=slurm-wlm
  [munged]=munge
  [valgrind]=valgrind
  [hyperfine]=hyperfine
  [prometheus-node-exporter]=prometheus-node-exporter
)
R_PACKAGES=(ggplot2:r-cran-ggplot2 plyr:r-cran-plyr)

missing=()
for tool in "${!PACKAGE_FOR[@]}"; do
  if command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ]; then
    echo "install-tools: $tool is present, skipped"
  else
    missing+=("${PACKAGE_FOR[$tool]}")
  fi
done
for pair in "${R_PACKAGES[@]}"; do
  lib=${pair%%:*}; pkg=${pair##*:}
  if command -v Rscript >/dev/null 2>&1 && Rscript -e "quit(status = !requireNamespace('$lib', quietly = TRUE))" >/dev/null 2>&1; then
    echo "install-tools: R package $lib is present, skipped"
  else
    missing+=("$pkg")
  fi
done
if ! command -v taskset >/dev/null 2>&1; then missing+=(util-linux); fi
# PyYAML: a second reader of `benchrig load --format yaml` in the tests
if ! python3 -c 'import yaml' >/dev/null 2>&1; then missing+=(python3-yaml); fi
# PostgreSQL for the history store's tests (scripts/postgres-local.sh starts a
# cluster of its own): Debian keeps initdb off PATH, under /usr/lib/postgresql/V/bin
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then missing+=(postgresql); fi
# script(1): the live view's tests run `benchrig load` on a pseudo-terminal
if ! command -v script >/dev/null 2>&1; then missing+=(bsdutils); fi

install_validator() {
  # action-validator (npm @action-validator/cli: the GitHub workflow schema and its
  # own checks, compiled to WebAssembly) checks examples/github-actions/ in the
  # tests; a tool, not a dependency: into .tools/, outside package.json
  validator_dir="$(cd "$(dirname "$0")/.." && pwd)/.tools/action-validator"
  if [ -x "$validator_dir/node_modules/.bin/action-validator" ]; then
    echo "install-tools: action-validator is present, skipped"
  else
    npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$validator_dir" @action-validator/cli@0.6.0 >/dev/null
    echo "install-tools: installed action-validator into $validator_dir"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-tools: nothing to install"
  install_validator
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-tools: need root to install: ${missing[*]} (run as root or install them by hand)" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-tools: apt-get not found; install these Debian/Ubuntu packages by hand: ${missing[*]}" >&2
  exit 1
fi
echo "install-tools: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# nginx's Debian package may start a system-wide server on port 80; our tests and
# benchmarks start their own on 127.0.0.1 with their own config, so stop it.
if printf '%s\n' "${missing[@]}" | grep -qx nginx; then
  (command -v service >/dev/null 2>&1 && $SUDO service nginx stop >/dev/null 2>&1) || true
fi
# and postgresql's may start the system cluster on :5432; ours runs on a free port
if printf '%s\n' "${missing[@]}" | grep -qx postgresql; then
  (command -v service >/dev/null 2>&1 && $SUDO service postgresql stop >/dev/null 2>&1) || true
fi
# likewise node_exporter's package may start one on :9100; the tests start their own
if printf '%s\n' "${missing[@]}" | grep -qx prometheus-node-exporter; then
  (command -v service >/dev/null 2>&1 && $SUDO service prometheus-node-exporter stop >/dev/null 2>&1) || true
fi
echo "install-tools: installed ${missing[*]}"
install_validator
