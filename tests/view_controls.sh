#!/bin/sh
# The control panel with real input events (xdotool, XTEST): on gripper_lift.xml (keyframe
# ctrl 0.05 0.05 0.1; ctrlrange left, right 0 .. 0.06, lift 0 .. 0.3) key 0 clears every
# control, a drag to the middle of lift's slider sets lift to the middle of its range, a
# drag of left's slider past its end clamps it to 0.06; --dump-ctrl writes the controls at
# exit. Paused: nothing else changes them. Skips (77) without xdotool.
# Usage: view_controls.sh CONESIM SCENES_DIR (run under render/with-display.sh)
# Panel layout at 640 x 360 (text scale 1, render/viewer.c): x from 426 to 636; slider i's
# track from x 430 to 632 (202 px), y 46.4 + 24 i to 53.6 + 24 i.
conesim=$1
scenes=$2
command -v xdotool >/dev/null 2>&1 || { echo "skip: no xdotool" >&2; exit 77; }
out=$(mktemp /tmp/view_controls_XXXXXX)
"$conesim" view "$scenes/gripper_lift.xml" --width 640 --height 360 --frames 100000 \
  --paused --dump-ctrl "$out" 2>/dev/null &
pid=$!
fail() {
  kill "$pid" 2>/dev/null
  rm -f "$out"
  echo "$*" >&2
  exit 1
}
win=
why=
for i in $(seq 300); do
  kill -0 "$pid" 2>/dev/null || fail "conesim view exited before its window could be focused"
  win=$(xdotool search --onlyvisible --name 'conesim' 2>/dev/null | head -n 1)
  if [ -n "$win" ]; then
    if why=$(xdotool windowfocus --sync "$win" 2>&1) &&
       [ "$(xdotool getwindowfocus 2>/dev/null)" = "$win" ]; then
      break
    fi
    win=
  fi
  sleep 0.1
done
[ -n "$win" ] || fail "could not find and focus the viewer window within 30 s${why:+: $why}"
xdotool key 0 || fail "xdotool key 0 failed"
# lift (slider 2, track y 94.4 .. 101.6): press at its lower end, drag to the middle
xdotool mousemove --window "$win" 440 98 mousedown 1 mousemove --window "$win" 500 98 \
  mousemove --window "$win" 531 98 mouseup 1 || fail "xdotool drag of lift failed"
# left (slider 0, track y 46.4 .. 53.6): drag past the track's end
xdotool mousemove --window "$win" 450 50 mousedown 1 mousemove --window "$win" 600 50 \
  mousemove --window "$win" 639 50 mouseup 1 || fail "xdotool drag of left failed"
# the window must still take keys: Esc closes it
xdotool key Escape || fail "xdotool key Escape failed"
for i in $(seq 300); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "Esc did not close the viewer within 30 s"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail "conesim view exited $rc"
# track pixel 531 of 430 .. 632 is the fraction 101/202 = 0.5 of 0 .. 0.3 (a pixel is 0.0015)
awk -F, '
  NR == 1 { next }
  $1 == "left"  { left = $2 }
  $1 == "right" { right = $2 }
  $1 == "lift"  { lift = $2 }
  END {
    bad = 0
    if (left != 0.06) { print "left " left ", expected 0.06 (clamped at the end)"; bad = 1 }
    if (right != 0) { print "right " right ", expected 0 (cleared)"; bad = 1 }
    if (lift < 0.147 || lift > 0.153) { print "lift " lift ", expected 0.15 +- 0.003"; bad = 1 }
    exit bad
  }' "$out" >&2 || { cat "$out" >&2; rm -f "$out"; exit 1; }
rm -f "$out"
echo "the control panel cleared, set and clamped controls"
