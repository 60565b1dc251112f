#!/bin/sh
# `conesim view` in a real X window driven by real input events (xdotool, XTEST): Space
# pauses, Right steps, K and F toggle overlays, a left drag orbits, a scroll zooms, and Esc
# must close the viewer well before its --frames safety limit. Skips (77) without xdotool.
# Usage: view_window.sh CONESIM SCENE (run under render/with-display.sh)
conesim=$1
scene=$2
command -v xdotool >/dev/null 2>&1 || { echo "skip: no xdotool" >&2; exit 77; }
"$conesim" view "$scene" --width 640 --height 360 --frames 100000 &
pid=$!
win=
for i in $(seq 100); do
  win=$(xdotool search --name 'conesim' 2>/dev/null | head -n 1)
  [ -n "$win" ] && break
  sleep 0.1
done
if [ -z "$win" ]; then
  kill "$pid" 2>/dev/null
  echo "no viewer window appeared" >&2
  exit 1
fi
xdotool windowfocus --sync "$win" 2>/dev/null || true
xdotool mousemove --window "$win" 320 180
for k in space Right k f space; do xdotool key "$k"; sleep 0.1; done
xdotool mousedown 1 mousemove --window "$win" 400 200 mouseup 1
xdotool click 4
sleep 0.3
xdotool key Escape
for i in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  echo "Esc did not close the viewer" >&2
  exit 1
fi
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || { echo "conesim view exited $rc" >&2; exit 1; }
echo "viewer opened, took key and mouse input, closed on Esc"
