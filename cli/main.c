/* conesim: subcommand dispatch and `help`. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "conesim.h"

static const cs_command *const commands[] = {
    &cs_cmd_run, &cs_cmd_view, &cs_cmd_info, &cs_cmd_bench, &cs_cmd_cone, &cs_cmd_sweep,
    &cs_cmd_plot, &cs_cmd_figure,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const cs_command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out, "conesim %s: rigid-body frictional contact simulator\n\n"
                 "usage: conesim COMMAND [ARGS]\n\ncommands:\n", cs_version());
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-6s %s\n", commands[i]->name, commands[i]->synopsis);
    fprintf(out, "  %-6s %s\n", "help", "help [COMMAND]: this text, or a command's options");
    fprintf(out, "\nexit codes: 0 ok, 1 diverged, 2 bad command line, 3 bad scene or input file,\n"
                 "4 output not writable, 5 no display (view) or no python3/numpy/matplotlib\n"
                 "(plot, figure), 6 out of memory, 129/130/143 interrupted by\n"
                 "SIGHUP/SIGINT/SIGTERM\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc < 3 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
            usage(stdout);
            return CS_EXIT_OK;
        }
        const cs_command *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "conesim help: unknown command '%s'\n", argv[2]);
            return CS_EXIT_USAGE;
        }
        fputs(c->help, stdout);
        return CS_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("conesim %s\n", cs_version());
        return CS_EXIT_OK;
    }
    const cs_command *c = find(name);
    if (!c) {
        fprintf(stderr, "conesim: unknown command '%s' (see 'conesim help')\n", name);
        return CS_EXIT_USAGE;
    }
    /* `conesim COMMAND ... --help` (or -h) anywhere among its arguments: the command's
     * help on stdout, exit 0, before any option parsing could call it unknown or take it as
     * a value */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(c->help, stdout);
            return CS_EXIT_OK;
        }
    return c->run(argc - 1, argv + 1);
}
