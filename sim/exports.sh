#!/bin/sh
# The names libconesim.so exports: the cs_ functions and variables its installed headers
# declare, and nothing else. Used by the build to write the linker's version script (so a
# declaration is an export, and what no header declares stays local) and by the test that
# compares the built library with the headers.
# Args: map OUT | list; then CC [ARGS...] -- HEADER...
# CC and ARGS preprocess the headers (include directories).
set -eu
mode=$1
shift
out=
if [ "$mode" = map ]; then
  out=$1
  shift
fi
cc=$1
shift
args=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  args="$args $1"
  shift
done
shift
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.names"' EXIT
for h in "$@"; do printf '#include "%s"\n' "$h"; done |
  # shellcheck disable=SC2086
  $cc -E -P $args -x c - >"$tmp"
{
  # functions: a name before its parameter list (not a static inline one: no symbol)
  grep -vE '^[[:space:]]*static\b' "$tmp" | grep -oE '\bcs_[A-Za-z0-9_]+[[:space:]]*\(' |
    sed 's/[[:space:](]//g'
  # variables: extern declarations
  grep -E '^[[:space:]]*extern\b' "$tmp" |
    sed -n 's/.*\b\(cs_[A-Za-z0-9_]*\)[[:space:]]*[[;=].*/\1/p'
} | sort -u >"$tmp.names"
if [ "$mode" = list ]; then
  cat "$tmp.names"
  exit 0
fi
{
  echo "/* written by sim/exports.sh from the installed headers */"
  echo "{"
  echo "  global:"
  sed 's/.*/    &;/' "$tmp.names"
  echo "  local:"
  echo "    *;"
  echo "};"
} >"$out"
