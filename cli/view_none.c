/* `conesim view` in a build configured without the viewer (-Dviewer=disabled). */
#include <stdio.h>

#include "commands.h"

static int view_none(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "conesim view: this conesim was built without the viewer "
                    "(meson option viewer)\n");
    return CS_EXIT_NODISPLAY;
}

const cs_command cs_cmd_view = {
    "view", "view SCENE [options]: interactive viewer (not in this build)",
    "usage: conesim view SCENE [options]\n\n"
    "This conesim was built without the viewer (meson option viewer=disabled, or its\n"
    "libraries were missing): the command exits with 5.\n",
    view_none};
