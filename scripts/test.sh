#!/usr/bin/env bash
# `npm test`: the whole suite. Lint and types, unit and model tests, the API suite on PGlite (and on
# PostgreSQL when DATABASE_URL is set), a production build, then Playwright in Debian's Chromium.
set -uo pipefail
cd "$(dirname "$0")/.."
out=.tmp/results; rm -rf "$out"; mkdir -p "$out"
status=0
step() { echo; echo "── $1"; }
run() { "$@" || status=1; }

# Debian's Chromium (browsers cannot be downloaded here), fonts for Chinese and Tibetan screens, and espeak-ng, the
# speech engine the server starts for spoken calls (server/calling/tts.ts), and dcmtk, the DICOM tools the listener's
# tests run as modalities and PACS do (tests/api/dicom.*.test.ts), and Orthanc, the PACS that pushes a study to the
# listener in tests/api/dicom.orthanc.test.ts.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
command -v storescu >/dev/null 2>&1 || missing+=(dcmtk)
# Orthanc, the peer PACS of tests/api/dicom.orthanc*.test.ts (started there on free loopback ports; the package's own
# service is not needed).
[ -x /usr/sbin/Orthanc ] || missing+=(orthanc)
# nginx (with Debian's brotli module), the balancer in front of three API processes in tests/api/cluster.test.ts and `npm run test:cluster` (started
# there with a generated configuration on free loopback ports; the package's own service is not needed).
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so ] || missing+=(libnginx-mod-http-brotli-filter)
fc-list 2>/dev/null | grep -i "noto sans cjk" >/dev/null || missing+=(fonts-noto-cjk)
fc-list 2>/dev/null | grep -i "tibetan machine" >/dev/null || missing+=(fonts-tibetan-machine)
if [ ${#missing[@]} -gt 0 ]; then
  step "installing ${missing[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 || echo "install of ${missing[*]} failed"
fi
[ -d node_modules ] || npm ci --no-audit --no-fund

# Lint and the type check are one process each: side by side they keep both cores busy; their output is printed in order.
npx eslint --max-warnings 0 . > "$out/lint.txt" 2>&1 & lint=$!
# The type check is TypeScript 7's native compiler (28 s where 5.9's took two minutes on a slow CI machine); the linter
# keeps TypeScript 5.9, whose JS API typescript-eslint needs (both packages name a `tsc`, hence the path).
node node_modules/@typescript/native/bin/tsc -p tsconfig.json --noEmit > "$out/typecheck.txt" 2>&1 & types=$!
step "lint";      wait $lint || status=1; cat "$out/lint.txt"
step "typecheck"; wait $types || status=1; cat "$out/typecheck.txt"
# Vitest runs one file per core (its default leaves one core free, which on CI's two cores was one file at a time:
# PGlite 354 → 228 s, PostgreSQL 218 → 134 s). Every API test file has its own server and database.
workers=$(nproc 2>/dev/null || echo 2)
step "unit + model + api (PGlite)"
# DATABASE_URL (set by .ci/run) would put this run on PostgreSQL too: the embedded database gets its own run.
DATABASE_URL= run npx vitest run --maxWorkers="$workers" --reporter=default --reporter=json --outputFile.json="$out/vitest-pglite.json"
if [ -n "${DATABASE_URL:-}" ]; then
  # The API suite only: the model tests walk the client machines' paths over the same routes, which the API suite
  # already answers on both databases (on a slow CI machine they were 45 s of this run).
  step "api (PostgreSQL: a fresh database per test file)"
  run npx vitest run --project api --maxWorkers="$workers" --reporter=default --reporter=json --outputFile.json="$out/vitest-postgres.json"
fi
if [ -n "${DATABASE_URL:-}" ]; then
  # Several processes, one site (tests/cluster/short.test.ts, under a minute): nginx in front of three API processes
  # started together on an empty PostgreSQL database, S3 in an independent S3 server. The kill -9 and rolling restart
  # runs are `npm run test:cluster`.
  step "cluster (nginx, three API processes, PostgreSQL, S3)"
  run npx vitest run --config tests/cluster/vitest.config.ts tests/cluster/short.test.ts --reporter=default --reporter=json --outputFile.json="$out/vitest-cluster.json"
fi
step "build";     run npx vite build --logLevel warn
step "e2e (Playwright, Debian Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" run npx playwright test --reporter=list,json

node scripts/summary.mjs "$out" || status=1
exit $status
