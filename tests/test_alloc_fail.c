/* Allocation failure: the k-th allocation of loading a scene and of its first steps fails,
 * for every k. Loading must then return NULL with errno ENOMEM and "NAME: out of memory",
 * cs_make_data NULL, a step count CS_WARN_NOMEM; nothing may crash, and every block the
 * library allocated is freed (counted here; the sanitizer build's leak check sees it too). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "conesim.h"

#ifndef CS_TEST_DATA
#error "CS_TEST_DATA must be defined by the build"
#endif
#ifndef CS_SCENES
#error "CS_SCENES must be defined by the build"
#endif

static long calls, fail_at, live, reallocs;

static void *t_malloc(size_t n)
{
    if (++calls == fail_at) return NULL;
    void *p = malloc(n);
    live += p != NULL;
    return p;
}

static void *t_calloc(size_t n, size_t size)
{
    if (++calls == fail_at) return NULL;
    void *p = calloc(n, size);
    live += p != NULL;
    return p;
}

static void *t_realloc(void *p, size_t n)
{
    reallocs++;
    if (++calls == fail_at) return NULL;
    void *q = realloc(p, n);
    live += q != NULL && p == NULL;
    return q;
}

static void t_free(void *p)
{
    live -= p != NULL;
    free(p);
}

static const cs_allocator failing = {t_malloc, t_calloc, t_realloc, t_free};

enum { NSTEP = 5 };

/* One scene, from a file (path) or a string (xml). Returns how many values of k it tried. */
static long every_k(const char *path, const char *xml)
{
    const char *name = path ? path : "pile.xml";
    for (long k = 1;; k++) {
        calls = live = 0;
        fail_at = k;
        cs_set_allocator(&failing);
        char err[1024] = "";
        errno = 0;
        cs_model *m = path ? cs_load_xml(path, NULL, err, sizeof err)
                           : cs_load_xml_string(xml, name, NULL, err, sizeof err);
        int load_errno = errno;
        long after_load = calls;
        cs_data *d = m ? cs_make_data(m) : NULL;
        long after_data = calls;
        int nomem = 0;
        for (int s = 0; d && s < NSTEP; s++) {
            cs_step(m, d);
            nomem = d->warning[CS_WARN_NOMEM];
        }
        cs_free_data(d);
        cs_free_model(m);
        long total = calls;
        cs_set_allocator(NULL);
        ck_assert_msg(live == 0, "%s, allocation %ld failed: %ld blocks not freed", name, k, live);
        if (k <= after_load) {
            ck_assert_msg(m == NULL, "%s: allocation %ld of loading failed, yet it loaded", name, k);
            ck_assert_msg(load_errno == ENOMEM, "%s, allocation %ld: errno %d", name, k, load_errno);
            char want[1100];
            snprintf(want, sizeof want, "%s: out of memory", name);
            ck_assert_msg(strcmp(err, want) == 0, "%s, allocation %ld: '%s'", name, k, err);
        } else if (k <= after_data) {
            ck_assert_msg(d == NULL, "%s: allocation %ld of the data failed, yet it was made", name, k);
        } else if (k <= total) {
            ck_assert_msg(nomem > 0, "%s: allocation %ld in a step failed unnoticed", name, k);
        } else {
            /* no allocation failed: the scene loads and steps cleanly */
            ck_assert_msg(m != NULL && d != NULL && !nomem, "%s: %s", name, err);
            printf("report: %s: each of %ld allocations (%ld loading, %ld the data, %ld in %d "
                   "steps) failed once, cleanly\n", name, total, after_load, after_data - after_load,
                   total - after_data, NSTEP);
            return k;
        }
    }
}

START_TEST(load_and_steps)
{
    long n = every_k(CS_TEST_DATA "/good/everything.xml", NULL);
    ck_assert_int_gt(n, 50);
    n = every_k(CS_SCENES "/box_stack.xml", NULL);
    ck_assert_int_gt(n, 20);
    /* a tendon, an equality constraint, actuators on both kinds of transmission */
    n = every_k(CS_SCENES "/tendon_gripper.xml", NULL);
    ck_assert_int_gt(n, 20);
}
END_TEST

/* 20 coincident boxes: more broad-phase candidates than the collision context starts with,
 * so the first collision (the data's initial forward pass) grows its arrays, and that
 * growth fails too */
START_TEST(pile_grows_at_its_first_collision)
{
    static char xml[8192];
    size_t n = (size_t)snprintf(xml, sizeof xml, "<mujoco><worldbody>"
                                "<geom type=\"plane\" size=\"5 5 0.1\"/>");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(xml + n, sizeof xml - n, "<body pos=\"0 0 0.1\"><freejoint/>"
                              "<geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>");
    snprintf(xml + n, sizeof xml - n, "</worldbody></mujoco>");
    /* the growth this test is about: reallocs (only the broad phase grows by realloc) */
    cs_model *m = cs_load_xml_string(xml, "pile.xml", NULL, NULL, 0);
    ck_assert_ptr_nonnull(m);
    calls = live = reallocs = 0;
    fail_at = 0;
    cs_set_allocator(&failing);
    cs_data *d = cs_make_data(m);
    cs_set_allocator(NULL);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_gt(reallocs, 0);
    cs_free_data(d);
    cs_free_model(m);
    every_k(NULL, xml);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alloc-fail");
    TCase *t = tcase_create("alloc-fail");
    tcase_set_timeout(t, 240);
    tcase_add_test(t, load_and_steps);
    tcase_add_test(t, pile_grows_at_its_first_collision);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
