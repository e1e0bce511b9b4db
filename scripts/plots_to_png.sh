#!/usr/bin/env bash
# Converts every SVG in DIR (a `dpclaims report --out DIR` directory) to PNG beside it, with the
# first converter found: rsvg-convert, resvg, inkscape or ImageMagick's convert.
# Usage: scripts/plots_to_png.sh DIR
set -euo pipefail
dir=${1:?usage: $0 DIR}
convert_one() {
  local svg=$1 png=${1%.svg}.png
  if command -v rsvg-convert >/dev/null; then rsvg-convert "$svg" -o "$png"
  elif command -v resvg >/dev/null; then resvg "$svg" "$png"
  elif command -v inkscape >/dev/null; then inkscape "$svg" --export-filename="$png"
  elif command -v convert >/dev/null; then convert "$svg" "$png"
  else echo "no SVG converter found (rsvg-convert, resvg, inkscape, convert)" >&2; exit 2
  fi
}
shopt -s nullglob
n=0
for svg in "$dir"/*.svg; do convert_one "$svg"; n=$((n + 1)); done
echo "$n SVG(s) converted in $dir"
