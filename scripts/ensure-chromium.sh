#!/usr/bin/env bash
# Makes sure the browser suite has a Chromium to drive before any test runs (README, "Requirements").
# CHROMIUM_PATH names another Chromium or Chrome binary; otherwise Debian's /usr/bin/chromium is used
# and, when missing, installed as root or through passwordless sudo. Anything else stops here with
# one line that names the command to run, instead of a Playwright stack trace later.
set -uo pipefail

fail() {
  echo "npm test: $*" >&2
  exit 1
}

if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && [ -f "$CHROMIUM_PATH" ] && exit 0
  fail "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file: point it at a Chromium or Chrome binary, or unset it and run: sudo apt-get install -y chromium"
fi

chromium=/usr/bin/chromium
[ -x "$chromium" ] && exit 0

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    fail "Chromium is missing at $chromium and this user cannot install it (not root, no passwordless sudo); run: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH)"
  fi
fi
command -v apt-get >/dev/null 2>&1 ||
  fail "Chromium is missing at $chromium and there is no apt-get here; install Chromium or Chrome and set CHROMIUM_PATH to its binary"

echo "npm test: installing Debian's Chromium for the browser suite (apt-get install -y chromium)"
log=$(mktemp)
if ! { "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium; } >"$log" 2>&1; then
  tail -n 5 "$log" >&2
  rm -f "$log"
  fail "installing Chromium failed (see the lines above); run: sudo apt-get update && sudo apt-get install -y chromium"
fi
rm -f "$log"
[ -x "$chromium" ] || fail "apt-get installed chromium but $chromium is still missing; set CHROMIUM_PATH to a Chromium binary"
