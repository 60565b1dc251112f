/* The conesim subcommands: one file each, dispatched by main.c. */
#ifndef CS_COMMANDS_H
#define CS_COMMANDS_H

#include <errno.h>
#include <stdio.h>

typedef struct {
    const char *name;
    const char *synopsis; /* one line for `conesim help` */
    const char *help;     /* full text for `conesim help NAME` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cs_command;

extern const cs_command cs_cmd_run, cs_cmd_view, cs_cmd_info, cs_cmd_bench, cs_cmd_cone,
    cs_cmd_sweep, cs_cmd_plot, cs_cmd_figure;

/* `view` is a program of its own, conesim-view (view.c), which conesim execs (view_exec.c):
 * only it loads GL, GLFW and FFmpeg, so the other commands start as fast as a plain C
 * program. Both print the same help (view_help.c). */
extern const char cs_view_synopsis[], cs_view_help[];
int cs_view_main(int argc, char **argv); /* argv[0] is the program or command name */

/* Exit codes fixed by the README. */
enum {
    CS_EXIT_OK = 0,
    CS_EXIT_DIVERGED = 1,
    CS_EXIT_USAGE = 2,
    CS_EXIT_SCENE = 3,
    CS_EXIT_OUTPUT = 4,
    CS_EXIT_NODISPLAY = 5, /* view: no display or no OpenGL 3.3 context; plot, figure:
                              no python3, numpy or matplotlib */
    CS_EXIT_NOMEM = 6      /* out of memory, in any command */
};

/* After cs_load_xml failed (errno still its): print its message, return the exit code. */
static inline int cs_load_exit(const char *err)
{
    int e = errno;
    fprintf(stderr, "%s\n", err);
    /* ESRCH: a --set/--vary edit named no element of the scene (a command-line error) */
    return e == ENOMEM ? CS_EXIT_NOMEM : e == ESRCH ? CS_EXIT_USAGE : CS_EXIT_SCENE;
}

#endif
