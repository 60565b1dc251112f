/* Fuzz target: a trajectory CSV through `view --replay`'s reader. A bad file must give
 * "PATH:LINE: ..."; a file it accepts must hold increasing steps, finite numbers and the
 * same bodies in every frame. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/cs-fuzz-replay-%d.csv", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
    cs_replay r;
    char err[512] = "";
    if (cs_replay_load(path, &r, err, sizeof err) != 0) {
        if (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':') {
            fprintf(stderr, "replay error without PATH:LINE: '%s'\n", err);
            abort();
        }
        return 0;
    }
    if (r.nframe < 1 || r.nbody < 1) abort();
    for (int i = 1; i < r.nframe; i++)
        if (r.step[i] <= r.step[i - 1]) abort();
    for (int i = 0; i < r.nframe; i++)
        for (int b = 0; b < r.nbody; b++)
            for (int k = 0; k < CS_REPLAY_NUMS; k++)
                if (!isfinite(cs_replay_body(&r, i, b)[k])) abort();
    cs_replay_free(&r);
    return 0;
}
