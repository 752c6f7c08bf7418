#!/usr/bin/env bash
# Installs the official MCP TypeScript SDK client that McpTypeScriptClientIT drives `factory mcp`
# with: `npm ci` of factory-cli/src/test/mcp-ts (pinned by its package-lock.json) into a directory of
# its own, by default factory-cli/target/mcp-ts-client (or $MCP_TS_CLIENT_DIR); nothing global. Needs
# node and npm (Debian: apt-get install nodejs npm) and the npm registry. Idempotent: quick when the
# lock file has not changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=factory-cli/src/test/mcp-ts
target=${MCP_TS_CLIENT_DIR:-factory-cli/target/mcp-ts-client}
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "mcp-ts-client.sh: $tool is missing; install it (Debian: apt-get install nodejs npm)." >&2; exit 1; }
done
mkdir -p "$target"
if [ -f "$target/node_modules/@modelcontextprotocol/sdk/package.json" ] && cmp -s "$source_dir/package-lock.json" "$target/package-lock.json"; then
  echo "mcp-ts-client.sh: the MCP TypeScript client is installed in $target"
  exit 0
fi
cp "$source_dir/package.json" "$source_dir/package-lock.json" "$target/"
(cd "$target" && npm ci --no-audit --no-fund --loglevel=error)
echo "mcp-ts-client.sh: installed the MCP TypeScript client ($(node -p "require('./$target/node_modules/@modelcontextprotocol/sdk/package.json').version")) in $target"
