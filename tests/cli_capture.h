/* Test helper: run a shell command line through popen, stdout and stderr captured
 * separately, and the exit status. Header-only: each CLI test executable includes it. */
#ifndef CS_TEST_CLI_CAPTURE_H
#define CS_TEST_CLI_CAPTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    char out[16384];
    char err[4096];
    int rc; /* exit status, -1 when killed by a signal */
} result;

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
}

/* runs "PREFIX ARGS" in /bin/sh (prefix: e.g. "'conesim' bench" or "cd DIR && 'conesim'") */
static void run_capture(result *r, const char *prefix, const char *args)
{
    char errpath[] = "/tmp/conesim-test-XXXXXX";
    int fd = mkstemp(errpath);
    ck_assert(fd >= 0);
    close(fd);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>'%s'", prefix, args, errpath);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t n = fread(r->out, 1, sizeof r->out - 1, p);
    r->out[n] = 0;
    int st = pclose(p);
    r->rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    slurp(errpath, r->err, sizeof r->err);
    remove(errpath);
}

#endif
