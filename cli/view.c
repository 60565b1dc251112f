/* conesim view: not built yet (see the README's status section). */
#include <stdio.h>

#include "commands.h"

static int run_view(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim view: not available yet: the viewer is under construction\n");
    return 1;
}

const cs_command cs_cmd_view = {
    "view", "view SCENE [options]: interactive viewer",
    "usage: conesim view SCENE [options]: interactive viewer\n\nNot available yet: the viewer is under construction\n",
    run_view,
};
