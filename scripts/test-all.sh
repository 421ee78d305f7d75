#!/usr/bin/env bash
# The whole test suite: typecheck, lint, schema drift, unit/integration tests (vitest), the desktop
# build, and the browser tests (Playwright in Debian's Chromium). Every step runs even when an
# earlier one fails, so one run shows everything that is wrong; the last line is the real count.
set -u
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json
failed_steps=()

step() {
  local name=$1; shift
  echo "=== $name: $*"
  local start=$SECONDS
  if "$@"; then
    echo "=== $name: ok ($((SECONDS - start)) s)"
  else
    echo "=== $name: FAILED ($((SECONDS - start)) s)"
    failed_steps+=("$name")
  fi
}

step typecheck npm run --silent typecheck
step lint npm run --silent lint
step schema-drift bash scripts/check-schema-drift.sh
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
step build npm run --silent build
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  step playwright env PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright.json npx playwright test --reporter=list,json
else
  echo "=== playwright: Chromium is missing at ${CHROMIUM_PATH:-/usr/bin/chromium} (apt-get install -y chromium)"
  failed_steps+=("playwright (no chromium)")
fi

if [ ${#failed_steps[@]} -gt 0 ]; then echo "failed steps: ${failed_steps[*]}"; fi
# The count line comes last: CI reads it.
node scripts/count-tests.mjs .tmp/vitest.json .tmp/playwright.json
counts_ok=$?
[ ${#failed_steps[@]} -eq 0 ] && exit $counts_ok
exit 1
