#!/bin/sh
# Structural sweeps: `--vary frame.ramp.euler[0]` tilts an incline (slope and box inside one
# <frame>) by recompiling the scene, and the stick/slide verdict changes where Coulomb puts
# it, tan(angle) = mu = 0.5 (26.565 degrees), within the sweep's 1-degree resolution; a
# recompiled size moves the mass; a name that is neither an element nor a parameter exits 2.
# Usage: test_sweep_edit.sh CONESIM SCENE (incline_frame.xml).
set -u
B=$1
S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

"$B" sweep "$S" --vary 'frame.ramp.euler[0]=20:32:13' --metric verdict --duration 1 \
    --threads 2 --out "$T/tilt.csv" || fail "sweep exit $?"
# the last sticking angle and the first sliding one bracket atan(0.5)
bracket=$(tail -n +2 "$T/tilt.csv" | awk -F, '
    $2 == "stick" { if (slid) bad = 1; last = $1 }
    $2 == "slide" { if (!slid) first = $1; slid = 1 }
    END { if (bad || !slid || last == "") print "none"; else print last, first }')
echo "stick up to / slide from: $bracket degrees"
if [ "$bracket" = "none" ]; then
    fail "no single stick -> slide change: $(tr '\n' ' ' < "$T/tilt.csv")"
else
    set -- $bracket
    awk -v lo="$1" -v hi="$2" 'BEGIN { t = atan2(0.5, 1) * 180 / atan2(0, -1);
        exit !(lo < t && t < hi && hi - lo <= 1 + 1e-9) }' \
        && ok "threshold in [$1, $2] holds atan(0.5) = 26.565" \
        || fail "threshold bracket [$1, $2] misses atan(0.5) = 26.565"
fi

# the same angle by --set on one run agrees with the sweep's row
"$B" run "$S" --set 'frame.ramp.euler[0]=28' --quiet --summary "$T/s.csv" > /dev/null \
    || fail "run --set frame.ramp.euler[0] exit $?"
[ "$(tail -n 1 "$T/s.csv" | cut -d, -f3)" = "slide" ] || fail "28 degrees by --set: $(tail -n 1 "$T/s.csv")"

# friction through cs_set in the same sweep: mu 0.6 holds at 28 degrees (tan 28 = 0.53)
"$B" sweep "$S" --vary 'frame.ramp.euler[0]=28:28:1' --vary 'geom.box.friction[0]=0.4:0.6:2' \
    --set 'geom.slope.friction[0]=0' --metric verdict --out "$T/mu.csv" || fail "mu sweep exit $?"
[ "$(tail -n +2 "$T/mu.csv" | cut -d, -f3 | tr '\n' ' ')" = "slide stick " ] \
    && ok "friction 0.4 slides, 0.6 sticks at 28 degrees" || fail "mu sweep: $(tr '\n' ' ' < "$T/mu.csv")"

# bad names: an element the scene does not have, an attribute the element does not write
for bad in 'frame.nope.euler[0]=1:2:2' 'geom.box.euler[0]=1:2:2'; do
    "$B" sweep "$S" --vary "$bad" --out "$T/bad.csv" 2> "$T/err" && fail "$bad accepted"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "$(echo "$bad" | cut -d= -f1 | sed 's/\[/\\[/')" "$T/err" \
        && ok "$bad: exit 2, $(cat "$T/err")" || fail "$bad: exit $rc, $(cat "$T/err")"
done

[ $fails -eq 0 ] || exit 1
