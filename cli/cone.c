/* conesim cone: not built yet (see the README's status section). */
#include <stdio.h>

#include "commands.h"

static int run_cone(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim cone: not available yet: the cone calculator is under construction\n");
    return 1;
}

const cs_command cs_cmd_cone = {
    "cone", "cone VERB [options]: the friction-cone calculator",
    "usage: conesim cone VERB [options]: the friction-cone calculator\n\nNot available yet: the cone calculator is under construction\n",
    run_cone,
};
