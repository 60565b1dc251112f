/* Helpers the physics tests share: loading scenes from the scenes directory or from a string,
 * editing a scene's text, and stepping with a divergence check. Static inline, so a test that
 * uses only some of them compiles without warnings. */
#ifndef CS_TEST_SCENE_UTIL_H
#define CS_TEST_SCENE_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#ifndef CS_SCENES
#error "CS_SCENES (the scenes directory) must be defined by the build"
#endif

/* the text of scenes/NAME (the caller frees it) */
static inline char *read_scene(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CS_SCENES, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert(s != NULL);
    ck_assert_int_eq((long)fread(s, 1, (size_t)n, f), n);
    s[n] = 0;
    fclose(f);
    return s;
}

/* Replace the one occurrence of `from` by `to` (the edit must apply, else the test is void). */
static inline char *edit(char *s, const char *from, const char *to)
{
    char *p = strstr(s, from);
    ck_assert_msg(p != NULL, "scene edit: '%s' not found", from);
    ck_assert_msg(strstr(p + 1, from) == NULL, "scene edit: '%s' is not unique", from);
    size_t a = (size_t)(p - s), nf = strlen(from), nt = strlen(to), n = strlen(s);
    char *r = malloc(n - nf + nt + 1);
    ck_assert(r != NULL);
    memcpy(r, s, a);
    memcpy(r + a, to, nt);
    memcpy(r + a + nt, p + nf, n - a - nf + 1);
    free(s);
    return r;
}

/* fmt with its two %s filled by a and b (the caller frees it) */
static inline char *format_xml(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, fmt, a, b);
    return s;
}

/* MJCF text that must not load: the loader's message starts with `name`:LINE and holds
 * phrase */
static inline void load_refused(const char *xml, const char *name, const char *phrase)
{
    char err[1024] = "", where[256];
    cs_model *m = cs_load_xml_string(xml, name, NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded but should fail: %s", xml);
    ck_assert_msg(strstr(err, phrase) != NULL, "expected '%s' in '%s'", phrase, err);
    snprintf(where, sizeof where, "%s:", name);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "expected FILE:LINE first in '%s'",
                  err);
}

/* a model from MJCF text; `name` stands for the file in messages */
static inline cs_model *load_xml(const char *xml, const char *name)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, name, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    return m;
}

/* scenes/NAME, loaded from its path (mesh files and includes resolve next to it) */
static inline cs_model *load_scene(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", CS_SCENES, name);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s", err);
    return m;
}

static inline void step_checked(const cs_model *m, cs_data *d)
{
    cs_step(m, d);
    ck_assert_msg(cs_check_finite(m, d) < 0, "diverged at t = %g", d->time);
}

static inline void steps(const cs_model *m, cs_data *d, int n)
{
    for (int k = 0; k < n; k++) step_checked(m, d);
}

#endif
