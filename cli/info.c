/* conesim info: not built yet (see the README's status section). */
#include <stdio.h>

#include "commands.h"

static int run_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim info: not available yet: the MJCF loader is under construction\n");
    return 1;
}

const cs_command cs_cmd_info = {
    "info", "info SCENE: model summary",
    "usage: conesim info SCENE: model summary\n\nNot available yet: the MJCF loader is under construction\n",
    run_info,
};
