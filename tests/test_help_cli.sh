#!/bin/sh
# --help and -h on every command `conesim help` lists (and on help itself), alone and after
# other arguments: the command's usage on stdout, nothing on stderr, exit 0.
# Usage: test_help_cli.sh CONESIM SCENE.
set -u
B=$1
S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0 passed=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cmds=$("$B" help | sed -n 's/^  \([a-z][a-z]*\)  *.*/\1/p')
n=$(printf '%s\n' $cmds | wc -l)
[ "$n" -ge 9 ] || fail "conesim help lists $n commands: $cmds"
for c in run view bench sweep info cone plot figure help; do
  printf '%s\n' $cmds | grep -qx "$c" || fail "conesim help does not list $c"
done
for c in $cmds; do
  for h in --help -h; do
    for where in alone after; do
      # after a scene argument, as in `conesim run SCENE --help` (help takes no scene)
      if [ $where = alone ]; then set -- "$c" "$h"; elif [ "$c" = help ]; then continue
      else set -- "$c" "$S" "$h"; fi
      before=$fails
      "$B" "$@" >"$T/out" 2>"$T/err"
      rc=$?
      [ $rc -eq 0 ] || fail "conesim $*: exit $rc ($(head -c 200 "$T/err"))"
      [ -s "$T/err" ] && fail "conesim $*: wrote to stderr: $(head -c 200 "$T/err")"
      grep -q '^usage: conesim' "$T/out" || fail "conesim $*: no usage line on stdout"
      if [ "$c" != help ]; then
        # the command's own usage, the same text as `conesim help COMMAND`
        "$B" help "$c" >"$T/want" 2>/dev/null
        cmp -s "$T/out" "$T/want" || fail "conesim $*: not the text of 'conesim help $c'"
        grep -q "^usage: conesim $c" "$T/out" || fail "conesim $*: usage is not $c's"
      fi
      [ $fails -eq "$before" ] && passed=$((passed + 1))
    done
  done
done
[ $fails -eq 0 ] && echo "ok: --help and -h on: $(echo $cmds)"
echo "$passed passed, $fails failed"
[ $fails -eq 0 ]
