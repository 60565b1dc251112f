/* `conesim view` in conesim: execs conesim-view (view_program.c) with the same arguments, so
 * that conesim itself links none of the viewer's libraries. The process stays the same one
 * (its id, its signals, its exit code are conesim-view's). conesim-view is looked for next to
 * the running conesim (the build tree), then where `meson install` puts it relative to conesim
 * (a --destdir root or a moved prefix), then at its configured installed path. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

#ifndef CS_VIEW_RELDIR
#define CS_VIEW_RELDIR "../libexec"
#endif
#ifndef CS_VIEW_PATH
#define CS_VIEW_PATH "/usr/local/libexec/conesim-view"
#endif

/* execv(DIR/conesim-view); returns only when that failed (errno says why) */
static void try_exec(const char *dir, size_t ndir, const char *sub, char **argv)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s%s%s/conesim-view", (int)ndir, dir, *sub ? "/" : "",
                     sub);
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return;
    }
    argv[0] = path;
    execv(path, argv);
}

static int view_exec(int argc, char **argv)
{
    (void)argc;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int err = ENOENT;
    if (n > 0 && (size_t)n < sizeof self - 1) {
        self[n] = 0;
        const char *slash = strrchr(self, '/');
        size_t ndir = slash ? (size_t)(slash - self) : 0;
        try_exec(self, ndir, "", argv);
        if (errno != ENOENT) err = errno;
        try_exec(self, ndir, CS_VIEW_RELDIR, argv);
        if (errno != ENOENT) err = errno;
    }
    argv[0] = (char *)CS_VIEW_PATH;
    execv(CS_VIEW_PATH, argv);
    if (errno != ENOENT) err = errno;
    fprintf(stderr, "conesim view: cannot start conesim-view (looked for next to conesim and at "
                    "%s): %s\n", CS_VIEW_PATH, strerror(err));
    return CS_EXIT_NODISPLAY;
}

const cs_command cs_cmd_view = {"view", cs_view_synopsis, cs_view_help, view_exec};
