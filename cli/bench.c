/* conesim bench: not built yet (see the README's status section). */
#include <stdio.h>

#include "commands.h"

static int run_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim bench: not available yet: the simulator is under construction\n");
    return 1;
}

const cs_command cs_cmd_bench = {
    "bench", "bench [SCENE...]: timing table",
    "usage: conesim bench [SCENE...]: timing table\n\nNot available yet: the simulator is under construction\n",
    run_bench,
};
