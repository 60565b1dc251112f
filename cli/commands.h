/* The conesim subcommands: one file each, dispatched by main.c. */
#ifndef CS_COMMANDS_H
#define CS_COMMANDS_H

typedef struct {
    const char *name;
    const char *synopsis; /* one line for `conesim help` */
    const char *help;     /* full text for `conesim help NAME` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cs_command;

extern const cs_command cs_cmd_run, cs_cmd_view, cs_cmd_info, cs_cmd_bench, cs_cmd_cone;

/* Exit codes fixed by the README. */
enum {
    CS_EXIT_OK = 0,
    CS_EXIT_DIVERGED = 1,
    CS_EXIT_USAGE = 2,
    CS_EXIT_SCENE = 3,
    CS_EXIT_OUTPUT = 4
};

#endif
