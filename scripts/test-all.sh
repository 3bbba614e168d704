#!/usr/bin/env bash
# The whole test suite, as CI runs it: set-up, type check, lint, unit + LSP + archive + webview tests, then the
# end-to-end suite in a real VS Code (code-server + Chromium), then the schedule model against a real pScheduler and
# pSConfig's agent (test/pscheduler: the CI subset, about 15 minutes; needs root for Debian's packages).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export JQ_PATH="${JQ_PATH:-$(command -v jq || true)}"
npm run typecheck
npm run lint
npm test
npm run test:e2e
npm run test:pscheduler
