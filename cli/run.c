/* conesim run: not built yet (see the README's status section). */
#include <stdio.h>

#include "commands.h"

static int run_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim run: not available yet: the simulator is under construction\n");
    return 1;
}

const cs_command cs_cmd_run = {
    "run", "run SCENE [options]: simulate, print a summary, optionally record",
    "usage: conesim run SCENE [options]: simulate, print a summary, optionally record\n\nNot available yet: the simulator is under construction\n",
    run_run,
};
