#!/usr/bin/env bash
# Installs everything the extension, its tests and its benchmarks need on a fresh Debian machine:
# Debian's jq (for `{% jq %}` variables) and chromium (webview tests), Neovim and Emacs with eglot (the language
# server's npm package tried in real editors, test/editors/; about 1.5 minutes of apt on a fresh machine), then the
# npm packages.
# Offline-safe: node-jq's own jq download is skipped when JQ_PATH is set (we point it at Debian's jq);
# with internet and no Debian jq, node-jq downloads its own as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v jq >/dev/null || need+=(jq)
command -v chromium >/dev/null || need+=(chromium)
command -v nvim >/dev/null || need+=(neovim)
command -v emacs >/dev/null || need+=(emacs-nox)
# eglot is built into Emacs 29+; Debian 12's Emacs 28 gets it from elpa-eglot.
if command -v dpkg >/dev/null && ! dpkg -s elpa-eglot >/dev/null 2>&1 &&
  ! { command -v emacs >/dev/null && emacs --batch --eval '(require (quote eglot))' >/dev/null 2>&1; }; then
  need+=(elpa-eglot)
fi
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
