#!/usr/bin/env bash
# `npm test`: the unit suites (Vitest), then the browser suite (Playwright) against a build of the
# app. The build starts beside the unit suites at the lowest CPU and I/O priority: it takes only
# the CPU they leave idle (their one-file-at-a-time part leaves about half of the two cores), so
# their latency-bound tests see the cores as before. Once they are done it is waited for, at
# normal priority again where the system lets it be raised back. Arguments go to Playwright.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-chromium.sh || exit
bash scripts/ensure-poppler.sh || exit

log=$(mktemp)
# The build in a process group of its own, to raise or stop as one.
set -m
ionice -c 3 nice -n 19 node --import tsx e2e/build.ts >"$log" 2>&1 &
build=$!
set +m
trap 'kill -- "-$build" 2>/dev/null; rm -f "$log"' EXIT

npx vitest run --project server --project server-alone --project server-own-modules \
  --project client --project slow || exit

renice -n 0 -g "$build" >/dev/null 2>&1 || true
ionice -c 2 -n 4 -P "$build" >/dev/null 2>&1 || true
wait "$build"
built=$?
cat "$log"
[ "$built" -eq 0 ] || exit "$built"

npx playwright test "$@"
