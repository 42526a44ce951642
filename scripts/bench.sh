#!/usr/bin/env bash
# `npm run bench`: every benchmark under bench/ in turn. They print numbers and never fail on a time; a
# benchmark that crashes makes the run exit non-zero after the others have run.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for file in bench/*.ts; do
  echo "══ $file"
  npx tsx "$file" || status=1
done
exit $status
