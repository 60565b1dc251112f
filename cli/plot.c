/* conesim plot / conesim figure: run the Python package's plotting modules (matplotlib).
 * From the build tree the package is the source tree's python/ over the library built next
 * to the program; from an installed tree it is the one installed beside the library. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"

#ifndef CS_PYTHON
#define CS_PYTHON "/usr/bin/python3"
#endif

static const char plot_help[] =
    "usage: conesim plot TRAJ.csv [--contacts C.csv] [--what LIST] [--body NAME] [--mu MU]\n"
    "                    [--scene SCENE.xml] --out FILE.png|.svg|.pdf\n"
    "\n"
    "Plots a run recorded with `conesim run --record TRAJ.csv --contacts C.csv`, one panel\n"
    "per quantity over time. --what takes a comma-separated list of panels:\n"
    "  pos, vel, angvel      position, velocity, local angular velocity of each free body\n"
    "  normal                sum of the contacts' normal forces\n"
    "  friction              sum of |f_t| against the cone bound sum mu f_n; mu is --mu, or\n"
    "                        else the median |f_t|/f_n of the sliding (middle zone) contacts,\n"
    "                        and the legend says which\n"
    "  penetration           largest penetration, slip  largest tangential slip speed\n"
    "Contact panels cover every recorded step: where a step has no contact the forces and\n"
    "the penetration are 0 and the slip line has a gap.\n"
    "Default: pos,vel and, with --contacts, normal,friction,penetration,slip. --body keeps one\n"
    "free body of the trajectory (contact panels cover every contact). --scene names the\n"
    "scene in the title (with the bodies plotted). --dpi N sets the PNG resolution\n"
    "(default 110).\n"
    "\n"
    "Needs python3 with numpy and matplotlib (Debian: python3-numpy python3-matplotlib):\n"
    "$CONESIM_PYTHON, else the first python3 on PATH that has them, else /usr/bin/python3.\n"
    "Exit codes: 2 bad command line, 3 unreadable or malformed CSV (FILE:LINE: what),\n"
    "4 output not writable, 5 python3, numpy or matplotlib missing.\n"
    "\n"
    "example:\n"
    "  conesim run scenes/incline_slide.xml --record t.csv --contacts c.csv --quiet\n"
    "  conesim plot t.csv --contacts c.csv --scene scenes/incline_slide.xml --out incline.png\n";

static const char figure_help[] =
    "usage: conesim figure NAME --out FILE.png|.svg|.pdf [--data FILE.csv] [parameters]\n"
    "\n"
    "The friction-cone figures, computed with conesim's own cone code (`conesim cone`):\n"
    "  cone     force space, f_n up: the elliptic cone with cross-sections and the force\n"
    "           --f at f_n classified (--fn 20 --mu 0.8,0.4 --f 9.6,6.4)\n"
    "  select   one cross-section: the equilibrium force --f tested against it, the\n"
    "           maximum-dissipation force for sliding velocity --v and the direction -v\n"
    "           (--fn 20 --mu 0.8,0.4 --f 9.6,6.4 --v 1,1)\n"
    "  pyramid  disk and diamond; --f encoded into the pyramid's edge coefficients and\n"
    "           decoded, also with MuJoCo's encoding (--fn 1 --mu 1,1 --f 0.3,0.4)\n"
    "  qcqp     the fixed-normal QCQP: objective contours, the cone's ellipse, the optimum;\n"
    "           beside it psi(lambda) and its root, the multiplier\n"
    "           (--H 1,0,0,4 --b -2,-2 --mu 1,0.5 --fn 1: lambda = sqrt(5) - 1)\n"
    "  zones    the soft cone's zones in the residual plane (j_n, T) and f_n along the\n"
    "           line T (--Rn 1 --kappa 1 --T 1)\n"
    "The defaults are in brackets. --data writes the numbers behind the figure as CSV\n"
    "(name,value). --dpi N sets the PNG resolution (default 110).\n"
    "\n"
    "Needs python3 with numpy and matplotlib (Debian: python3-numpy python3-matplotlib):\n"
    "$CONESIM_PYTHON, else the first python3 on PATH that has them, else /usr/bin/python3.\n"
    "Exit codes: 2 bad command line, 4 output not writable, 5 python3, numpy or matplotlib\n"
    "missing.\n"
    "\n"
    "example:\n"
    "  conesim figure qcqp --out qcqp.png --data qcqp.csv\n";

/* Checks what the modules need, then runs one as __main__ with the command's arguments. */
static const char boot[] =
    "import sys\n"
    "mod, prog = sys.argv[1], sys.argv[2]\n"
    "for name in ('numpy', 'matplotlib'):\n"
    "    try:\n"
    "        __import__(name)\n"
    "    except ImportError:\n"
    "        sys.stderr.write(f'{prog}: {name} is missing: install python3-{name} '\n"
    "                         '(Debian: apt-get install python3-numpy python3-matplotlib)\\n')\n"
    "        sys.exit(5)\n"
    "try:\n"
    "    import conesim\n"
    "except ImportError as e:\n"
    "    sys.stderr.write(f'{prog}: the conesim Python package is not installed ({e})\\n')\n"
    "    sys.exit(5)\n"
    "except OSError as e:\n"
    "    sys.stderr.write(f'{prog}: cannot load libconesim: {e}\\n')\n"
    "    sys.exit(5)\n"
    "sys.argv = [prog] + sys.argv[3:]\n"
    "import runpy\n"
    "runpy.run_module(mod, run_name='__main__', alter_sys=True)\n";

#if defined(CS_BUILD_ROOT) && defined(CS_PYTHON_SRCDIR)
static int same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
#endif

static int prepend_env(const char *name, const char *dir)
{
    const char *old = getenv(name);
    if (!old || !*old) return setenv(name, dir, 1);
    size_t n = strlen(dir) + strlen(old) + 2;
    char *v = malloc(n);
    if (!v) return -1;
    snprintf(v, n, "%s:%s", dir, old);
    int rc = setenv(name, v, 1);
    free(v);
    return rc;
}

/* Points PYTHONPATH (and CONESIM_LIBRARY in the build tree) at the package that belongs to
 * this program. */
static int find_package(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
#if defined(CS_BUILD_ROOT) && defined(CS_PYTHON_SRCDIR)
        if (same_dir(exe, CS_BUILD_ROOT)) {
            char lib[PATH_MAX];
            if (snprintf(lib, sizeof lib, "%s/libconesim.so", exe) >= (int)sizeof lib) return -1;
            if (setenv("CONESIM_LIBRARY", lib, 1) != 0) return -1;
            /* no __pycache__ in the source tree */
            if (setenv("PYTHONDONTWRITEBYTECODE", "1", 1) != 0) return -1;
            return prepend_env("PYTHONPATH", CS_PYTHON_SRCDIR);
        }
#endif
    }
#ifdef CS_PYTHON_INSTDIR
    if (access(CS_PYTHON_INSTDIR "/conesim/__init__.py", R_OK) == 0)
        return prepend_env("PYTHONPATH", CS_PYTHON_INSTDIR);
#endif
    return 0; /* python's own path */
}

/* 1 when `py` runs and imports numpy and matplotlib */
static int has_modules(const char *py)
{
    if (access(py, X_OK) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execl(py, py, "-c", "import numpy, matplotlib", (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The interpreter: $CONESIM_PYTHON when set; else the first python3 on PATH that has numpy
 * and matplotlib, then the one the build found and /usr/bin/python3; none has them: the
 * build's (Debian's), else the first that exists (its check below says what is missing).
 * Candidates tried go to `tried`. */
static const char *find_python(char *buf, size_t len, char *tried, size_t tlen)
{
    const char *env = getenv("CONESIM_PYTHON");
    if (env && *env) return env;
    const char *path = getenv("PATH");
    const char *fallback = NULL;
    static char first[PATH_MAX];
    size_t w = 0;
    tried[0] = 0;
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && (size_t)snprintf(buf, len, "%.*s/python3", (int)n, p) < len &&
            access(buf, X_OK) == 0) {
            if (has_modules(buf)) return buf;
            if (!fallback) fallback = strcpy(first, buf);
            if (w < tlen && !strstr(tried, buf))
                w += (size_t)snprintf(tried + w, tlen - w, "%s%s", w ? ", " : "", buf);
        }
        p += n;
        if (*p == ':') p++;
    }
    const char *fixed[] = {CS_PYTHON, "/usr/bin/python3"};
    for (int i = 1; i >= 0; i--) {
        if (!strstr(tried, fixed[i]) && has_modules(fixed[i])) return fixed[i];
        if (access(fixed[i], X_OK) == 0) fallback = fixed[i];
        if (w < tlen && !strstr(tried, fixed[i]))
            w += (size_t)snprintf(tried + w, tlen - w, "%s%s", w ? ", " : "", fixed[i]);
    }
    return fallback ? fallback : CS_PYTHON;
}

static int run_module(const char *module, const char *prog, const char *help, int argc,
                      char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CS_EXIT_OK;
        }
    if (find_package() != 0) {
        fprintf(stderr, "%s: cannot set PYTHONPATH and CONESIM_LIBRARY for the package\n", prog);
        return CS_EXIT_NOMEM;
    }
    char **args = calloc((size_t)argc + 6, sizeof *args);
    if (!args) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return CS_EXIT_NOMEM;
    }
    char pybuf[PATH_MAX], tried[2048];
    const char *py = find_python(pybuf, sizeof pybuf, tried, sizeof tried);
    if (!getenv("CONESIM_PYTHON") || !*getenv("CONESIM_PYTHON")) {
        if (!has_modules(py))
            fprintf(stderr, "%s: no python3 with numpy and matplotlib (tried %s; "
                            "CONESIM_PYTHON names one)\n", prog, tried);
    }
    int k = 0;
    args[k++] = (char *)py;
    args[k++] = (char *)"-c";
    args[k++] = (char *)boot;
    args[k++] = (char *)module;
    args[k++] = (char *)prog;
    for (int i = 1; i < argc; i++) args[k++] = argv[i];
    args[k] = NULL;
    fflush(NULL);
    execv(py, args);
    fprintf(stderr, "%s: cannot run %s: %s (install python3, python3-numpy and "
                    "python3-matplotlib, or name one with CONESIM_PYTHON)\n", prog, py,
            strerror(errno));
    free(args);
    return CS_EXIT_NODISPLAY;
}

static int plot_run(int argc, char **argv)
{
    return run_module("conesim.plot", "conesim plot", plot_help, argc, argv);
}

static int figure_run(int argc, char **argv)
{
    return run_module("conesim.figures", "conesim figure", figure_help, argc, argv);
}

const cs_command cs_cmd_plot = {
    "plot", "plot TRAJ.csv [--contacts C.csv] --out FILE: panels of a recorded run",
    plot_help, plot_run};
const cs_command cs_cmd_figure = {
    "figure", "figure NAME --out FILE [--data F.csv]: the friction-cone figures",
    figure_help, figure_run};
