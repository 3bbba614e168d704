#!/usr/bin/env bash
# `npm run test:e2e`: the extension as a user meets it, in a real VS Code (code-server + Debian chromium), offline.
# 1. installs code-server, Node 24 and playwright-core once into $E2E_DIR (skipped when already there),
# 2. builds the bundles and the transpiled suite, packages psconfig-vscode.vsix,
# 3. installs that .vsix into a fresh code-server and runs the in-host suite and the UI pass against it.
# Prints `N passed, N failed` last and exits non-zero on any failure. Options: see test/e2e/host/main.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
export E2E_DIR="${E2E_DIR:-$HOME/.cache/psconfig-vscode-e2e}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if command -v jq >/dev/null; then export JQ_PATH="${JQ_PATH:-$(command -v jq)}"; fi
start=$(date +%s)
bash test/e2e/setup-code-server.sh
node scripts/build.mjs --tests
npm run --silent package
echo "[e2e] psconfig-vscode.vsix: $(stat -c %s psconfig-vscode.vsix) bytes"
status=0
node out/test/e2e/host/main.js psconfig-vscode.vsix || status=$?
echo "[e2e] total $(( $(date +%s) - start )) s"
exit $status
