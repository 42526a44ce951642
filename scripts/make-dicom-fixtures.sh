#!/usr/bin/env bash
# Regenerates tests/fixtures/dicom/ (the viewer's per-syntax samples and their manifest.json). Needs dcmtk
# (apt-get install -y dcmtk: dcmconv, dcmcrle, dcmcjpeg, dcmcjpls); CI uses the committed files and never runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=tests/fixtures/dicom
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for tool in dcmconv dcmcrle dcmcjpeg dcmcjpls; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y dcmtk" >&2; exit 1; }
done
npx tsx "$OUT/generate.ts" "$TMP"
while IFS=$'\t' read -r tool source file; do
  [ -n "$tool" ] || continue
  # shellcheck disable=SC2086 # the tool's options are words
  $tool "$source" "$OUT/$file"
done < "$TMP/conversions.tsv"
ls -l "$OUT"/*.dcm | awk '{ s += $5 } END { print NR " files, " s " bytes" }'
