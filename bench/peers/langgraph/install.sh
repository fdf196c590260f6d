#!/usr/bin/env bash
# Installs the LangGraph.js benchmark peer (bench/peers/langgraph) for Node 24.
#
# The benchmark runs on the Node 24 that the repository root installs as its `node`
# devDependency (node_modules/.bin/node), not on the system Node. better-sqlite3 is a
# native addon: npm runs its `node-gyp rebuild`, which must target Node 24. So this
# script puts the root's node_modules/.bin first on PATH (npm, node-gyp and the install
# script then run on Node 24) and points node-gyp at Node 24's headers through
# npm_config_nodedir (overriding a user npmrc `nodedir=` that may name older headers).
#
# Prerequisite: `npm install` at the repository root.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
node_bin="$root/node_modules/.bin"

if [[ ! -x "$node_bin/node" ]]; then
  echo "install.sh: $node_bin/node not found; run 'npm install' in $root first" >&2
  exit 1
fi
node_version="$("$node_bin/node" -p 'process.versions.node')"
if [[ "${node_version%%.*}" != 24 ]]; then
  echo "install.sh: expected Node 24 at $node_bin/node, found $node_version" >&2
  exit 1
fi

# The `node` package installs its binary and headers as node-<platform>-<arch>.
platform="$("$node_bin/node" -p 'process.platform + "-" + process.arch')"
nodedir="$root/node_modules/node/node_modules/node-$platform"
if [[ ! -f "$nodedir/include/node/node.h" ]]; then
  # The `node` package installs node-<platform> with --no-save, so a later `npm install` at
  # the root prunes it (the binary, hard-linked, stays). Fetch it again, as its preinstall did.
  echo "install.sh: Node $node_version headers missing; installing node-$platform@$node_version again" >&2
  (cd "$root/node_modules/node" && npm install --no-save --no-audit --no-fund "node-$platform@$node_version")
fi
if [[ ! -f "$nodedir/include/node/node.h" ]]; then
  echo "install.sh: Node $node_version headers not found at $nodedir/include/node" >&2
  exit 1
fi

export PATH="$node_bin:$PATH"
export npm_config_nodedir="$nodedir"

cd "$here"
echo "install.sh: Node $node_version ($(command -v node)), headers $nodedir" >&2
if [[ -f package-lock.json ]]; then
  npm ci
else
  npm install
fi

node -e '
const Database = require("better-sqlite3");
const db = new Database(":memory:");
const { v } = db.prepare("select sqlite_version() as v").get();
db.close();
console.error(`install.sh: better-sqlite3 OK on Node ${process.version} (SQLite ${v})`);
'
