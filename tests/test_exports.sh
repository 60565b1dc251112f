#!/bin/sh
# Exported = declared: every cs_ symbol libconesim.so exports is declared in an installed
# header, and every cs_ function or variable those headers declare is exported (defined).
# Args: LIBRARY EXPORTS_SH CC [ARGS...] -- HEADER...
set -eu
lib=$1 exports=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh "$exports" list "$@" >"$tmp/declared"
nm -D --defined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$tmp/all"
grep '^cs_' "$tmp/all" >"$tmp/exported" || true
n=$(wc -l <"$tmp/declared")
[ "$n" -gt 50 ] || { echo "only $n declarations found: the header list is wrong" >&2; exit 1; }
status=0
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
if [ -n "$extra" ]; then
  echo "exported but declared in no installed header:" >&2
  echo "$extra" >&2
  status=1
fi
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ -n "$missing" ]; then
  echo "declared in an installed header but not exported:" >&2
  echo "$missing" >&2
  status=1
fi
# nothing but the cs_ names: libccd's, qhull's and libxml2's stay inside
other=$(grep -v '^cs_' "$tmp/all" | grep -v '^$' || true)
if [ -n "$other" ]; then
  echo "exported names outside cs_:" >&2
  echo "$other" >&2
  status=1
fi
[ $status -eq 0 ] && echo "$n names: exported = declared"
exit $status
