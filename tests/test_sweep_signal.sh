#!/bin/sh
# `conesim sweep` interrupted: SIGINT/SIGTERM stop it, the summary keeps the header and the
# whole rows of the runs that completed (each equal to a complete sweep's), stderr says it is
# partial; an interrupted --find (SIGHUP) prints the bracket reached so far. No sleep is the
# only synchronisation: each signal waits for rows in the summary's temporary file.
# Usage: test_sweep_signal.sh CONESIM SCENE (block_tilt.xml).
set -u
B=$1
S=$2
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# rows in the temporary file the sweep writes its summary to, OUT.PID.tmp (0 when absent)
tmp_rows() {
    { n=$(wc -l < "$1.$2.tmp"); } 2> /dev/null || { echo 0; return; }
    [ "$n" -gt 0 ] && echo $((n - 1)) || echo 0
}
# until OUT's temporary file has N rows; fails when the sweep ended first or after ~10 min
wait_rows() {
    i=0
    while [ "$(tmp_rows "$1" "$pid")" -lt "$2" ]; do
        kill -0 "$pid" 2>/dev/null || return 1
        i=$((i + 1))
        [ "$i" -le 6000 ] || return 1
        sleep 0.1
    done
}
# every line of FILE has as many fields as its header, and the file ends with a newline
whole_rows() {
    [ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ] &&
        awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}

# 200 runs of 100 s each (minutes in all): every interrupt below comes long before the end.
# A background job of a script starts with SIGINT ignored, and the sweep keeps an ignored
# signal ignored: env gives it the default back for the SIGINT case.
GRID="--vary option.gravity[0]=0:8:200 --threads 2"
DUR="--duration 100"
"$B" sweep "$S" $GRID --steps 0 --out "$T/params.csv" || fail "the parameter grid: exit $?"

# the partial summary FILE (K rows): whole rows, the complete sweep's header, its rows in
# combination order, and the first and last equal to a complete sweep of their combination
check_partial() {
    f=$1
    whole_rows "$f" || fail "$f: not whole rows"
    k=$(($(wc -l < "$f") - 1))
    [ "$(head -n 1 "$f")" = "$(head -n 1 "$T/params.csv")" ] || fail "$f: header differs"
    [ "$k" -ge 1 ] && [ "$k" -lt 200 ] || fail "$f: $k rows, expected 1 to 199"
    # the varied values: an ordered subsequence of the grid's
    tail -n +2 "$f" | cut -d, -f1 > "$T/got"
    tail -n +2 "$T/params.csv" | cut -d, -f1 > "$T/grid"
    awk 'NR == FNR { want[++n] = $0; next } { while (j < n && want[++j] != $0); if (want[j] != $0) bad = 1 }
         END { exit bad }' "$T/grid" "$T/got" || fail "$f: rows not in combination order"
    for r in 1 "$k"; do
        row=$(sed -n "$((r + 1))p" "$f")
        g=${row%%,*}
        "$B" sweep "$S" --vary "option.gravity[0]=$g:$g:1" $DUR --out "$T/one.csv" ||
            fail "the single run $g: exit $?"
        [ "$(sed -n 2p "$T/one.csv")" = "$row" ] ||
            fail "$f: row $r '$row', a complete sweep's '$(sed -n 2p "$T/one.csv")'"
    done
    echo "$f: $k whole rows of 200"
}

# send SIG to the sweep in the background and wait for it; sets rc to its exit status
stop_with() {
    kill "-$1" "$pid"
    wait "$pid"
    rc=$?
    pid=
}

# --- SIGINT: exit 130 -----------------------------------------------------------------------
env --default-signal=INT,TERM,HUP "$B" sweep "$S" $GRID $DUR --out "$T/int.csv" 2> "$T/int.err" &
pid=$!
wait_rows "$T/int.csv" 1 || fail "no row appeared in the temporary summary"
stop_with INT
[ "$rc" -eq 130 ] && ok "SIGINT exits 130" || { fail "SIGINT: exit $rc"; cat "$T/int.err"; }
[ -f "$T/int.csv" ] && check_partial "$T/int.csv"
grep -q "runs completed.*partial" "$T/int.err" && grep -q " of 200 runs" "$T/int.err" ||
    { fail "SIGINT: stderr does not say the summary is partial"; cat "$T/int.err"; }
ls "$T"/*.tmp > /dev/null 2>&1 && fail "a temporary file is left"

# --- SIGINT ignored from the start stays ignored; SIGTERM: exit 143 ---------------------------
env --ignore-signal=INT --default-signal=TERM,HUP "$B" sweep "$S" $GRID $DUR --out "$T/term.csv" 2> "$T/term.err" &
pid=$!
wait_rows "$T/term.csv" 1 || fail "no row appeared in the temporary summary"
r0=$(tmp_rows "$T/term.csv" "$pid")
kill -INT "$pid"
# three more rows: the sweep went on handing out runs after the ignored SIGINT
wait_rows "$T/term.csv" $((r0 + 3)) && ok "an ignored SIGINT stays ignored" ||
    fail "the sweep stopped after a SIGINT it started with ignored"
stop_with TERM
[ "$rc" -eq 143 ] && ok "SIGTERM exits 143" || { fail "SIGTERM: exit $rc"; cat "$T/term.err"; }
[ -f "$T/term.csv" ] && check_partial "$T/term.csv"
grep -q "runs completed.*partial" "$T/term.err" ||
    { fail "SIGTERM: stderr does not say the summary is partial"; cat "$T/term.err"; }

# --- --find, SIGHUP: exit 129 and the bracket reached so far ---------------------------------
# --bisect-steps 200: rounds until no number is left between the ends, far more than reached
env --default-signal=INT,TERM,HUP "$B" sweep "$S" --find option.gravity[0]=4:8 --until 'verdict>0.5' --bisect-steps 200 \
    --threads 2 $DUR --out "$T/find.csv" > "$T/find.out" 2> "$T/find.err" &
pid=$!
# the two ends and one round: there is a bracket
wait_rows "$T/find.csv" 4 || fail "--find: no rows appeared in the temporary file"
stop_with HUP
[ "$rc" -eq 129 ] && ok "--find: SIGHUP exits 129" || { fail "--find: SIGHUP exit $rc"; cat "$T/find.err"; }
whole_rows "$T/find.csv" || fail "--find: --out not whole rows"
grep -q "interrupted after .* runs.*reached so far" "$T/find.err" ||
    { fail "--find: stderr does not say the bracket is not final"; cat "$T/find.err"; }
lo=$(sed -n 's/.* in \[\([^,]*\), \([^]]*\)\].*/\1/p' "$T/find.out")
hi=$(sed -n 's/.* in \[\([^,]*\), \([^]]*\)\].*/\2/p' "$T/find.out")
# a bracket: both ends were run, it sticks at one and slides at the other, around mu g
vlo=$(awk -F, -v x="$lo" 'NR > 1 && $1 == x { print $4 }' "$T/find.csv")
vhi=$(awk -F, -v x="$hi" 'NR > 1 && $1 == x { print $4 }' "$T/find.csv")
if [ "$vlo" = stick ] && [ "$vhi" = slide ] &&
    awk -v lo="$lo" -v hi="$hi" 'BEGIN { m = 0.6 * 9.81; exit !(lo < m && m < hi) }'; then
    ok "--find: the bracket so far [$lo, $hi] was run at both ends and holds mu g"
else
    fail "--find: bracket '$lo' ($vlo), '$hi' ($vhi)"; cat "$T/find.out" "$T/find.csv"
fi

[ "$fails" -eq 0 ] && echo "all passed"
exit "$fails"
