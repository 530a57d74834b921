#!/usr/bin/env bash
# Runs npm for the Maven build with the machine's own Node.js; never downloads a Node runtime.
#   npm.sh install   npm ci, unless node_modules already matches package-lock.json
#   npm.sh <args>    npm <args>
set -euo pipefail
cd "${BASH_SOURCE[0]%/*}/.."
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  printf '%s\n' \
    "[web-console] npm and node were not found on the PATH." \
    "[web-console] The console is built with the machine's Node.js (20 or newer) and npm:" \
    "[web-console]   Debian/Ubuntu: apt-get install nodejs npm    macOS: brew install node" >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "[web-console] Node.js $(node --version) is too old; version 20 or newer is needed." >&2
  exit 1
fi
if [ "${1:-}" = install ]; then
  if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
    echo "[web-console] node_modules is up to date"
    exit 0
  fi
  exec npm ci --no-audit --no-fund
fi
exec npm "$@"
