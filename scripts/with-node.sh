#!/usr/bin/env bash
# Runs a command with Node.js <version> first on PATH: the release comes from the npm registry's
# node-linux-<arch> package (npm pack checks its integrity), unpacked once into
# ${CHAIN_ETL_NODE_CACHE:-~/.cache/chain-etl/node}/<version>. npm itself is the machine's, run by that node.
#   scripts/with-node.sh 22.23.5 npm test
set -euo pipefail
version="$1"
shift
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "with-node.sh: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
cache="${CHAIN_ETL_NODE_CACHE:-${HOME}/.cache/chain-etl/node}/${version}"
if [ ! -x "${cache}/bin/node" ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && npm pack --silent "node-linux-${arch}@${version}" >/dev/null && mkdir unpacked && tar xzf ./*.tgz -C unpacked)
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$scratch/unpacked/package" "$cache"
fi
found="$("${cache}/bin/node" --version)"
[ "$found" = "v${version}" ] || { echo "with-node.sh: ${cache}/bin/node is ${found}, not v${version}" >&2; exit 1; }
PATH="${cache}/bin:${PATH}" exec "$@"
