#!/bin/sh
# `conesim sweep` end to end: rows equal single runs, the bytes do not depend on --threads,
# --find locates Coulomb's stick/slide limit, emitted jobs merge into the same summary, and
# bad command lines exit 2. Usage: test_sweep_cli.sh CONESIM SCENE (block_tilt.xml).
set -u
B=$1
S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# the block's friction is 0.6 and MuJoCo mixes friction by the larger of the two geoms, so
# the floor's is lowered for the block's to count
GRID="--vary geom.block.friction[0]=0.3:0.6:2 --vary option.gravity[0]=2:7:3 --duration 0.5 --set geom.floor.friction[0]=0.1"

# --- 1 and 2 threads: identical bytes ------------------------------------------------
"$B" sweep "$S" $GRID --threads 1 --out "$T/t1.csv" || fail "sweep --threads 1 exit $?"
"$B" sweep "$S" $GRID --threads 2 --out "$T/t2.csv" || fail "sweep --threads 2 exit $?"
if cmp -s "$T/t1.csv" "$T/t2.csv"; then ok "1 and 2 threads give the same bytes"
else fail "1 and 2 threads differ"; fi
[ "$(wc -l < "$T/t1.csv")" -eq 7 ] || fail "expected a header and 6 rows"

# --- physics: below mu g it sticks, above it slides ---------------------------------------
# rows: mu 0.3 with g_x 2, 4.5, 7, then mu 0.6 with the same; mu g = 2.943 and 5.886
verdicts=$(tail -n +2 "$T/t1.csv" | cut -d, -f5 | tr '\n' ' ')
[ "$verdicts" = "stick slide slide stick stick slide " ] || fail "verdicts '$verdicts'"

# --- each row equals a single `conesim run` -----------------------------------------------
row=1
if tail -n +2 "$T/t1.csv" | while IFS=, read -r mu gx disp rest; do
    "$B" run "$S" --duration 0.5 --set geom.floor.friction[0]=0.1 \
        --set "geom.block.friction[0]=$mu" --set "option.gravity[0]=$gx" --quiet \
        --record "$T/r.csv" --summary "$T/s.csv" > /dev/null || { echo "FAIL: run exit"; exit 1; }
    # the summary's row (without wall) is the sweep's
    want="$mu,$gx,$(tail -n 1 "$T/s.csv" | cut -d, -f1-6)"
    got=$(sed -n "$((row + 1))p" "$T/t1.csv")
    [ "$want" = "$got" ] || { echo "FAIL: row $row: sweep '$got', run '$want'"; exit 1; }
    # and the displacement is the recorded trajectory's, first row to last
    d=$(awk -F, 'NR == 2 { x = $4; y = $5; z = $6 } END { printf "%.17g", sqrt(($4-x)*($4-x) + ($5-y)*($5-y) + ($6-z)*($6-z)) }' "$T/r.csv")
    awk -v a="$d" -v b="$disp" 'BEGIN { e = a - b; if (e < 0) e = -e; exit !(e <= 1e-12 * (b < 0 ? -b : b) + 1e-15) }' \
        || { echo "FAIL: row $row: displacement $disp, the recording's $d"; exit 1; }
    row=$((row + 1))
done; then ok "rows equal single runs"
else fails=$((fails + 1)); fi

# --- the summary CSVs' numbers: the shortest text that reads back exactly ---------------------
# (0.3, not 0.29999999999999999); the trajectory recording keeps %.17g
shortest() { # every number in the CSV on stdin (header skipped) is %.15g, %.16g or %.17g,
  # the first of them that reads back as the same double
  awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) { if ($i !~ /^-?[0-9.]+(e[-+][0-9]+)?$/) continue
      v = $i + 0; for (p = 15; p <= 17; p++) { t = sprintf("%." p "g", v); if (t + 0 == v || p == 17) break }
      if (t != $i) { print "field " i " of row " NR ": " $i ", shortest " t; bad = 1 } } }
    END { exit bad }'
}
"$B" sweep "$S" --vary geom.block.friction[0]=0.1:0.3:3 --vary option.gravity[0]=0.1:0.3:3 \
    --duration 0.1 --out "$T/short.csv" || fail "sweep for the number format exit $?"
cut -d, -f1 "$T/short.csv" | sort -u | tr '\n' ' ' | grep -qx '0.1 0.2 0.3 geom.block.friction\[0\] ' \
    && ok "sweep parameters 0.1, 0.2, 0.3" || fail "sweep parameters: $(cut -d, -f1,2 "$T/short.csv" | tr '\n' ' ')"
grep -q '0\.2999999' "$T/short.csv" && fail "sweep CSV has 0.2999999...: $(cat "$T/short.csv")"
shortest < "$T/short.csv" && ok "sweep CSV numbers are the shortest round trip" \
    || fail "sweep CSV numbers not the shortest"
"$B" run "$S" --duration 0.1 --set "option.gravity[0]=0.3" --summary "$T/sum.csv" \
    --record "$T/rec.csv" --quiet > /dev/null || fail "run --summary exit $?"
shortest < "$T/sum.csv" && ok "run --summary numbers are the shortest round trip" \
    || fail "run --summary numbers not the shortest"
# emitted jobs: params.csv as the sweep writes its parameters
"$B" sweep "$S" --vary geom.block.friction[0]=0.1:0.3:3 --duration 0.1 --emit-jobs "$T/jobs.txt" \
    --jobs-dir "$T/jd" > /dev/null || fail "sweep --emit-jobs exit $?"
[ "$(tail -n +2 "$T/jd/params.csv" | tr '\n' ' ')" = "0.1 0.2 0.3 " ] \
    && ok "params.csv 0.1, 0.2, 0.3" || fail "params.csv: $(cat "$T/jd/params.csv")"
# the recordings are not summaries: %.17g (17 significant digits where a value needs them)
grep -Eq '[0-9]{17}' "$T/rec.csv" && ok "the trajectory keeps %.17g" \
    || fail "the trajectory lost %.17g: $(sed -n 3p "$T/rec.csv")"

# --- body.NAME.pos moves a free body's start ------------------------------------------------
"$B" run "$S" --set body.block.pos[0]=0.5 --set "body.block.pos[2]=0.3" --steps 1 --quiet \
    --record "$T/p.csv" > /dev/null || fail "run --set body.block.pos exit $?"
start=$(sed -n 2p "$T/p.csv" | cut -d, -f4-6)
[ "$start" = "0.5,0,0.29999999999999999" ] && ok "body.block.pos sets the start" \
    || fail "the block starts at $start, not (0.5, 0, 0.3)"
# dropped from 0.3 m for 0.3 s: it falls 0.2 m (to the floor) then rests there
"$B" sweep "$S" --vary body.block.pos[2]=0.1:0.3:2 --duration 0.3 --metric displacement \
    --out "$T/drop.csv" || fail "sweep body.block.pos exit $?"
awk -F, 'NR == 3 { exit !($2 > 0.19 && $2 < 0.21) }' "$T/drop.csv" \
    || fail "the block dropped from 0.3 m moved $(sed -n 3p "$T/drop.csv")"

# --- --find: the stick/slide limit mu g_z = 0.6 * 9.81 = 5.886 -----------------------------
# with 1 thread a bisection, with 3 three points a round: both end in a bracket of 1e-3 of its
# ends around mu g, each end run (stick at the low one, slide at the high one), and 3 threads
# take fewer rounds. --out holds the two ends, then each round's points in increasing order.
rounds() { # FILE THREADS: the rounds --out records
    echo $((($(wc -l < "$1") - 3) / $2))
}
for n in 1 3; do
    out=$("$B" sweep "$S" --find option.gravity[0]=4:8 --until 'verdict>0.5' --duration 1 \
        --threads $n --out "$T/find$n.csv") || fail "--find --threads $n exit $?"
    echo "$out"
    lo=$(echo "$out" | sed -n 's/.* in \[\([^,]*\), \([^]]*\)\].*/\1/p')
    hi=$(echo "$out" | sed -n 's/.* in \[\([^,]*\), \([^]]*\)\].*/\2/p')
    awk -v lo="$lo" -v hi="$hi" 'BEGIN { m = 0.6 * 9.81; exit !(lo != "" && lo < m && m < hi &&
        hi - lo <= 1e-3 * hi) }' || fail "--threads $n: bracket [$lo, $hi] does not hold mu g \
        within 1e-3"
    vlo=$(awk -F, -v x="$lo" 'NR > 1 && $1 == x { print $4 }' "$T/find$n.csv")
    vhi=$(awk -F, -v x="$hi" 'NR > 1 && $1 == x { print $4 }' "$T/find$n.csv")
    [ "$vlo" = stick ] && [ "$vhi" = slide ] || fail "--threads $n: the ends ran '$vlo', '$vhi'"
    # the rows after the ends come in whole rounds of n, each in increasing order
    [ $((($(wc -l < "$T/find$n.csv") - 3) % n)) -eq 0 ] || fail "--threads $n: partial round"
    awk -F, -v n=$n 'NR > 3 && (NR - 4) % n && $1 <= prev { exit 1 } { prev = $1 }' \
        "$T/find$n.csv" || fail "--threads $n: a round's points not increasing"
done
r1=$(rounds "$T/find1.csv" 1)
r3=$(rounds "$T/find3.csv" 3)
[ "$r3" -lt "$r1" ] && ok "--find: 3 threads take $r3 rounds, 1 thread $r1" ||
    fail "--find: 3 threads took $r3 rounds, 1 thread $r1"
# --bisect-steps K: K rounds of --threads points
"$B" sweep "$S" --find option.gravity[0]=4:8 --until 'verdict>0.5' --duration 1 --threads 3 \
    --bisect-steps 2 --out "$T/find2.csv" > /dev/null || fail "--bisect-steps exit $?"
[ "$(wc -l < "$T/find2.csv")" -eq 9 ] || fail "--bisect-steps 2 --threads 3: not 2 + 6 runs"

# --- jobs for another machine: run them with xargs, merge, compare --------------------------
"$B" sweep "$S" $GRID --emit-jobs "$T/jobs.txt" --jobs-dir "$T/jobs" || fail "--emit-jobs exit $?"
[ "$(wc -l < "$T/jobs.txt")" -eq 6 ] || fail "expected 6 jobs"
xargs -P 2 -I{} sh -c {} < "$T/jobs.txt" > /dev/null || fail "the jobs failed"
"$B" sweep --collect "$T/jobs" --out "$T/col.csv" || fail "--collect exit $?"
if cmp -s "$T/col.csv" "$T/t1.csv"; then ok "collected jobs equal the in-process sweep"
else fail "collected jobs differ"; diff "$T/col.csv" "$T/t1.csv"; fi

# --- without --out the table goes to standard output -------------------------------------
"$B" sweep "$S" $GRID > "$T/stdout.csv" || fail "sweep to stdout exit $?"
cmp -s "$T/stdout.csv" "$T/t1.csv" && ok "without --out the table is on stdout" \
    || fail "stdout table differs: $(cat "$T/stdout.csv")"

# --- a Slurm job array: each task as Slurm would start it, then --collect ----------------------
"$B" sweep "$S" $GRID --slurm "$T/sw.sbatch" --jobs-dir "$T/sj" --slurm-option --time=5 \
    || fail "--slurm exit $?"
sh -n "$T/sw.sbatch" || fail "the sbatch script is not valid sh"
grep -qx '#SBATCH --array=0-5' "$T/sw.sbatch" || fail "no 6-task array: $(cat "$T/sw.sbatch")"
grep -qx '#SBATCH --time=5' "$T/sw.sbatch" || fail "--slurm-option not written"
[ "$(wc -l < "$T/sj/jobs.txt")" -eq 6 ] || fail "expected 6 job lines in DIR/jobs.txt"
sh "$T/sw.sbatch" > /dev/null 2>&1 && fail "the script ran without SLURM_ARRAY_TASK_ID"
for i in 5 3 1 0 2 4; do
    SLURM_ARRAY_TASK_ID=$i sh "$T/sw.sbatch" > /dev/null || fail "task $i exit $?"
done
"$B" sweep --collect "$T/sj" --out "$T/sc.csv" || fail "--collect after the array exit $?"
cmp -s "$T/sc.csv" "$T/t1.csv" && ok "the Slurm array's runs equal the in-process sweep" \
    || fail "the Slurm array's runs differ"
# beyond Slurm's default MaxArraySize: 1000 tasks, each every 1000th line
"$B" sweep "$S" --vary option.impratio=1:2:1001 --steps 1 --slurm "$T/big.sbatch" \
    --jobs-dir "$T/big" || fail "--slurm with 1001 runs exit $?"
grep -qx '#SBATCH --array=0-999' "$T/big.sbatch" && grep -qx 'tasks=1000' "$T/big.sbatch" \
    && grep -qx 'n=1001' "$T/big.sbatch" && ok "1001 runs in 1000 tasks" \
    || fail "1001 runs: $(grep -E 'array|tasks=|n=' "$T/big.sbatch")"

# --- exit codes ---------------------------------------------------------------------------
expect() {
    want=$1; shift
    "$@" > "$T/o" 2> "$T/e"; got=$?
    if [ "$got" -ne "$want" ]; then fail "exit $got, not $want: $*"; cat "$T/e"
    elif [ "$want" -eq 2 ] && ! grep -q "conesim sweep: " "$T/e"; then fail "no message: $*"; fi
}
expect 2 "$B" sweep "$S" --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2:0 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=a:2:3 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.nosuch=1:2:2 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary geom.nosuch.friction[0]=1:2:2 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary geom.block.friction[7]=1:2:2 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2:2 --steps 2 --slurm "$T/x.sbatch" --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2:2 --slurm-option --time=5 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --find option.impratio=1:2 --until 'displacement>1' --slurm "$T/x.sbatch"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2:2 --metric speed --out "$T/x.csv"
expect 2 "$B" sweep "$S" --vary option.impratio=1:2:2 --threads 0 --out "$T/x.csv"
expect 2 "$B" sweep "$S" --find option.impratio=2:1 --until 'displacement>1'
expect 2 "$B" sweep "$S" --find option.impratio=1:2 --until 'displacement=1'
expect 2 "$B" sweep "$S" --frobnicate 1
expect 2 "$B" sweep --collect "$T/nosuch" --out "$T/x.csv"
expect 3 "$B" sweep "$T/nosuch.xml" --vary option.impratio=1:2:2 --out "$T/x.csv"
expect 4 "$B" sweep "$S" --vary option.impratio=1:2:2 --steps 2 --out "$T/nodir/x.csv"
expect 0 "$B" help sweep

[ "$fails" -eq 0 ] && echo "all passed"
exit "$fails"
