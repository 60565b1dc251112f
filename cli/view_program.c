/* conesim-view: `conesim view` as a program of its own, which conesim execs with the same
 * arguments (view_exec.c), so that GL, GLFW and FFmpeg are loaded by this program only. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cs_view_help, stdout);
            return CS_EXIT_OK;
        }
    return cs_view_main(argc, argv);
}
