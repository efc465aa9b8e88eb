#!/usr/bin/env bash
# The labels tests and the scan screen's browser tests look at the PDFs as a printer would:
# poppler's pdftoppm renders them to images.
# Installs Debian's poppler-utils when pdftoppm is missing (as root or through passwordless sudo);
# otherwise stops with one line naming the command to run.
set -uo pipefail
command -v pdftoppm >/dev/null 2>&1 && exit 0

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
echo "npm test: installing Debian's poppler-utils for the labels tests (apt-get install -y poppler-utils)"
log=$(mktemp)
if ! { "${sudo[@]}" apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq poppler-utils; } >"$log" 2>&1; then
  tail -n 5 "$log" >&2
  rm -f "$log"
  echo "npm test: pdftoppm is missing and installing it failed; run: sudo apt-get install -y poppler-utils" >&2
  exit 1
fi
rm -f "$log"
