#!/usr/bin/env bash
# Installs everything the extension, its tests and its benchmarks need on a fresh Debian machine:
# Debian's jq (for `{% jq %}` variables) and chromium (webview tests), then the npm packages.
# Offline-safe: node-jq's own jq download is skipped when JQ_PATH is set (we point it at Debian's jq);
# with internet and no Debian jq, node-jq downloads its own as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v jq >/dev/null || need+=(jq)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup: please install ${need[*]} (Debian: sudo apt-get install ${need[*]})" >&2
  fi
fi
if command -v jq >/dev/null; then export JQ_PATH="${JQ_PATH:-$(command -v jq)}"; fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1   # Debian's chromium is used instead
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "setup: node_modules is up to date"
else
  npm ci --no-audit --no-fund
fi
npm run build
