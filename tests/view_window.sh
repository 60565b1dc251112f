#!/bin/sh
# `conesim view` in a real X window driven by real input events (xdotool, XTEST): Space
# pauses, Right steps, K, F and J toggle overlays, a left drag orbits, a scroll zooms, and Esc
# must close the viewer well before its --frames safety limit. Skips (77) without xdotool.
# Usage: view_window.sh CONESIM SCENE (run under render/with-display.sh)
# Nothing here waits a fixed time for the viewer: on a busy machine it may take seconds to
# map its window, so every wait polls a condition with a bounded number of tries.
conesim=$1
scene=$2
command -v xdotool >/dev/null 2>&1 || { echo "skip: no xdotool" >&2; exit 77; }
"$conesim" view "$scene" --width 640 --height 360 --frames 100000 &
pid=$!
fail() {
  kill "$pid" 2>/dev/null
  echo "$*" >&2
  exit 1
}
# Only a mapped (visible) window can take the focus: GLFW's window exists, unmapped, before
# it is shown, and focusing that one fails with BadMatch. A window found may also be gone
# by the time it is focused (BadWindow), so each try searches again.
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
xdotool mousemove --window "$win" 320 180 || fail "xdotool mousemove failed"
for k in space Right k f j space; do xdotool key "$k" || fail "xdotool key $k failed"; done
xdotool mousedown 1 mousemove --window "$win" 400 200 mouseup 1 || fail "xdotool drag failed"
xdotool click 4 || fail "xdotool click failed"
xdotool key Escape || fail "xdotool key Escape failed"
for i in $(seq 300); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "Esc did not close the viewer within 30 s"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || { echo "conesim view exited $rc" >&2; exit 1; }
echo "viewer opened, took key and mouse input, closed on Esc"
