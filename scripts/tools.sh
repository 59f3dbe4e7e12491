#!/usr/bin/env bash
# The tools SMI needs, on a machine that may have only an older Node and npm:
# Node >= 22 (from the npm registry's `node` package, which ships the binary) and pnpm,
# both installed into .tools/ beside this script's repository when missing.
#
#   scripts/tools.sh <command> [args...]   run a command with those tools first on PATH
#   source scripts/tools.sh                put them on PATH in the current shell
#
# Nothing is installed when the Node on PATH is already new enough and pnpm is present
# at the pinned version.
SMI_NODE_MAJOR=22
SMI_PNPM_VERSION=10.34.8
SMI_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SMI_TOOLS="$SMI_REPO/.tools"

smi_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

smi_tools() {
  # Tools installed by an earlier run come first.
  if [ -d "$SMI_TOOLS/node_modules/.bin" ]; then
    export PATH="$SMI_TOOLS/node_modules/.bin:$PATH"
  fi
  local want=()
  if [ "$(smi_node_major)" -lt "$SMI_NODE_MAJOR" ]; then
    echo "smi tools: Node $(node --version 2>/dev/null || echo 'not found') is older than $SMI_NODE_MAJOR; installing node@$SMI_NODE_MAJOR into $SMI_TOOLS" >&2
    want+=("node@$SMI_NODE_MAJOR")
  fi
  if [ "$(pnpm --version 2>/dev/null || true)" != "$SMI_PNPM_VERSION" ]; then
    echo "smi tools: installing pnpm@$SMI_PNPM_VERSION into $SMI_TOOLS" >&2
    want+=("pnpm@$SMI_PNPM_VERSION")
  fi
  if [ "${#want[@]}" -gt 0 ]; then
    # Saved in .tools/package.json, so a later install into the prefix keeps the earlier one.
    mkdir -p "$SMI_TOOLS"
    npm install --no-audit --no-fund --loglevel=error --prefix "$SMI_TOOLS" "${want[@]}" >&2
    export PATH="$SMI_TOOLS/node_modules/.bin:$PATH"
    hash -r
  fi
  if [ "$(smi_node_major)" -lt "$SMI_NODE_MAJOR" ]; then
    echo "smi tools: could not get Node $SMI_NODE_MAJOR (have $(node --version 2>/dev/null || echo none))" >&2
    return 1
  fi
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  # Sourced: set PATH in the caller's shell and leave its options as they were.
  smi_tools
else
  set -euo pipefail
  smi_tools
  if [ "$#" -eq 0 ]; then
    echo "node $(node --version), pnpm $(pnpm --version) ($SMI_TOOLS)"
    exit 0
  fi
  exec "$@"
fi
