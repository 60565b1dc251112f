#!/bin/sh
# Install the build into a scratch root, then build tests/install/outside.c (with CC) and
# outside.cpp (with g++) as a user would, with nothing but `pkg-config --cflags --libs conesim`,
# against the shared and then the static library, and run them.
# Args: BUILD_DIR SOURCE_DIR CC [CFLAGS for the sanitizers].
set -eu
build=$1 src=$2 cc=$3 san=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
meson install -C "$build" --destdir "$root" --no-rebuild --quiet >/dev/null
pc=$(find "$root" -name conesim.pc)
[ -n "$pc" ] || { echo "no conesim.pc installed" >&2; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
libdir=$(dirname "$(dirname "$pc")")
cflags=$(pkg-config --cflags conesim)
echo "cflags: $cflags"
echo "libs:   $(pkg-config --libs conesim)"
# shared
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $san $cflags "$src/tests/install/outside.c" \
  -o "$tmp/outside" $(pkg-config --libs conesim) -lm
LD_LIBRARY_PATH=$libdir "$tmp/outside" "$src/scenes/sphere_plane.xml"
# static: the archive itself, its dependencies from Libs.private / Requires.private
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $san $cflags "$src/tests/install/outside.c" \
  -o "$tmp/outside-static" "$libdir/libconesim.a" \
  $(pkg-config --static --libs conesim | sed 's/-lconesim//') -lm
"$tmp/outside-static" "$src/scenes/sphere_plane.xml"
# C++: the same header from g++ (clang++ when CC is clang, for the sanitizer runtimes), shared
# and static; unmangled cs_ names only if conesim.h declares them extern "C"
case $(basename "$cc") in *clang*) cxx=clang++ ;; *) cxx=g++ ;; esac
# shellcheck disable=SC2086
"$cxx" -std=c++17 -Wall -Wextra -Werror -pedantic $san $cflags "$src/tests/install/outside.cpp" \
  -o "$tmp/outside-cpp" $(pkg-config --libs conesim)
LD_LIBRARY_PATH=$libdir "$tmp/outside-cpp" "$src/scenes/sphere_plane.xml"
# shellcheck disable=SC2086
"$cxx" -std=c++17 -Wall -Wextra -Werror -pedantic $san $cflags "$src/tests/install/outside.cpp" \
  -o "$tmp/outside-cpp-static" "$libdir/libconesim.a" \
  $(pkg-config --static --libs conesim | sed 's/-lconesim//')
"$tmp/outside-cpp-static" "$src/scenes/sphere_plane.xml"
# the installed program runs from the scratch root too
LD_LIBRARY_PATH=$libdir "$(find "$root" -path '*/bin/conesim')" run "$src/scenes/sphere_plane.xml" \
  --steps 10 --quiet >/dev/null
# the scenes, their meshes and control schedules under PREFIX/share/conesim/scenes, every one
# of the source tree's; a bare scene name is found there (CONESIM_SCENES stands for the
# prefix in a --destdir root) from any working directory
scenes=$(find "$root" -type d -path '*/share/conesim/scenes' | head -n 1)
[ -n "$scenes" ] || { echo "no share/conesim/scenes installed" >&2; exit 1; }
(cd "$src/scenes" && find . -type f) | while read -r f; do
  [ -f "$scenes/$f" ] || { echo "scene file $f not installed" >&2; exit 1; }
done
(cd "$tmp" && CONESIM_SCENES=$scenes LD_LIBRARY_PATH=$libdir \
  "$(find "$root" -path '*/bin/conesim')" run gripper_lift.xml \
  --ctrl "$scenes/gripper_lift_ctrl.csv" --steps 10 --quiet >/dev/null) \
  || { echo "the installed program did not find gripper_lift.xml by name" >&2; exit 1; }
echo "scenes: $(find "$scenes" -name '*.xml' | wc -l) installed in ${scenes#"$root"}"
# cs_set and the metrics from the installed headers: a sphere made heavier between steps
# presses on the floor with its new weight
cat > "$tmp/setter.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <conesim/conesim.h>
#include <conesim/metrics.h>
int main(int argc, char **argv)
{
    char err[512];
    (void)argc;
    cs_model *m = cs_load_xml(argv[1], NULL, err, sizeof err);
    if (!m) return fprintf(stderr, "%s\n", err), 1;
    cs_data *d = cs_make_data(m);
    cs_metrics *r = cs_metrics_new(m, d, 1000, 0);
    for (int i = 0; i < 1000; i++) {
        if (i == 500 && cs_set(m, "body.ball.mass", 5) != 0) return 1;
        cs_step(m, d);
        cs_metrics_step(r, m, d);
    }
    cs_metrics_end(r, m, d);
    char verdict[16];
    cs_metrics_format(r, cs_metric_index("verdict"), verdict, sizeof verdict);
    double f[6];
    cs_contact_force(m, d, 0, f);
    printf("setter: f_n %.4f N after the mass became 5 kg, %s\n", f[0], verdict);
    cs_metrics_free(r);
    cs_free_data(d);
    cs_free_model(m);
    return fabs(f[0] - 5 * 9.81) < 0.01 ? 0 : 1;
}
EOF
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $san $cflags "$tmp/setter.c" -o "$tmp/setter" \
  $(pkg-config --libs conesim) -lm
LD_LIBRARY_PATH=$libdir "$tmp/setter" "$scenes/sphere_plane.xml"
# `import conesim` from the installed package (Debian's python3 with numpy; not under the
# sanitizers, whose runtime the interpreter would have to preload)
pkgdir=$(find "$root" -type d -name conesim -path '*/dist-packages/*' -o -type d -name conesim -path '*/site-packages/*' | head -n 1)
if [ -z "$san" ] && [ -n "$pkgdir" ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  PYTHONPATH=$(dirname "$pkgdir") CONESIM_LIBRARY=$libdir/libconesim.so.0 /usr/bin/python3 -c '
import sys, conesim
m = conesim.Model.from_xml_path(sys.argv[1]); d = conesim.Data(m); conesim.step(m, d, 500)
fn = conesim.contact_force(m, d, 0)[0]
print("python: f_n %.6f N from %s" % (fn, conesim.__file__))
sys.exit(0 if abs(fn - 19.62) < 1e-9 else 1)' "$src/scenes/sphere_plane.xml"
fi
# `conesim figure` from the installed program over the installed package
if [ -z "$san" ] && [ -n "$pkgdir" ] && /usr/bin/python3 -c 'import numpy, matplotlib' 2>/dev/null; then
  PYTHONPATH=$(dirname "$pkgdir") CONESIM_LIBRARY=$libdir/libconesim.so.0 LD_LIBRARY_PATH=$libdir \
    "$(find "$root" -path '*/bin/conesim')" figure qcqp --out "$tmp/qcqp.png" --data "$tmp/qcqp.csv"
  grep -q '^lambda,1\.23606797749' "$tmp/qcqp.csv" || { echo "installed figure: wrong multiplier" >&2; exit 1; }
  head -c 4 "$tmp/qcqp.png" | grep -q PNG || { echo "installed figure: no PNG" >&2; exit 1; }
  echo "installed figure qcqp: $(grep '^lambda,' "$tmp/qcqp.csv")"
fi
