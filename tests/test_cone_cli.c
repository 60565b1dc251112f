/* `conesim cone ... --json`: the worked numbers of docs/contact-math.md through the command line,
 * valid JSON (null, never inf/NaN) whose keys are documented in `conesim help cone`,
 * and exit 2 with a message on bad arguments. argv[1] is the conesim executable. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_capture.h"

static const char *exe;

/* run `conesim ARGS`, stdout and stderr captured separately */
static void run(result *r, const char *args)
{
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "'%s'", exe);
    run_capture(r, prefix, args);
}

/* ------------------------------------------------ a small strict JSON reader */

typedef struct {
    const char *p;
    int ok;
    char keys[64][32]; /* every object key met, to check the help text documents them */
    int nkeys;
} jp;

static void ws(jp *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') j->p++;
}

static void note_key(jp *j, const char *k, size_t len)
{
    if (j->nkeys >= 64 || len >= 32) return;
    memcpy(j->keys[j->nkeys], k, len);
    j->keys[j->nkeys][len] = 0;
    j->nkeys++;
}

/* path: remaining dotted path ("full.alpha.0"), or NULL when not looking;
 * *found is set to the start of the value the path names */
static void value(jp *j, const char *path, const char **found, int depth);

static void seg(const char *path, const char **rest, size_t *len)
{
    const char *d = strchr(path, '.');
    *len = d ? (size_t)(d - path) : strlen(path);
    *rest = d ? d + 1 : "";
}

static void value(jp *j, const char *path, const char **found, int depth)
{
    ws(j);
    if (!j->ok || depth > 16) {
        j->ok = 0;
        return;
    }
    if (path && !*path) *found = j->p;
    const char *c = j->p;
    if (*c == '{') {
        j->p++;
        ws(j);
        if (*j->p == '}') {
            j->p++;
            return;
        }
        for (;;) {
            ws(j);
            if (*j->p != '"') {
                j->ok = 0;
                return;
            }
            const char *k = ++j->p;
            while (*j->p && *j->p != '"') j->p++;
            if (*j->p != '"') {
                j->ok = 0;
                return;
            }
            size_t klen = (size_t)(j->p - k);
            note_key(j, k, klen);
            j->p++;
            ws(j);
            if (*j->p != ':') {
                j->ok = 0;
                return;
            }
            j->p++;
            const char *sub = NULL, *rest;
            size_t slen;
            if (path && *path) {
                seg(path, &rest, &slen);
                if (slen == klen && strncmp(path, k, klen) == 0) sub = rest;
            }
            value(j, sub, found, depth + 1);
            ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p == '}') {
                j->p++;
                return;
            }
            j->ok = 0;
            return;
        }
    }
    if (*c == '[') {
        j->p++;
        ws(j);
        if (*j->p == ']') {
            j->p++;
            return;
        }
        for (int i = 0;; i++) {
            const char *sub = NULL, *rest;
            size_t slen;
            if (path && *path) {
                seg(path, &rest, &slen);
                char idx[16];
                snprintf(idx, sizeof idx, "%d", i);
                if (slen == strlen(idx) && strncmp(path, idx, slen) == 0) sub = rest;
            }
            value(j, sub, found, depth + 1);
            ws(j);
            if (*j->p == ',') {
                j->p++;
                continue;
            }
            if (*j->p == ']') {
                j->p++;
                return;
            }
            j->ok = 0;
            return;
        }
    }
    if (*c == '"') {
        j->p++;
        while (*j->p && *j->p != '"') j->p++;
        if (*j->p != '"') j->ok = 0;
        else j->p++;
        return;
    }
    for (const char *lit = "true\0false\0null\0"; *lit; lit += strlen(lit) + 1)
        if (strncmp(c, lit, strlen(lit)) == 0) {
            j->p += strlen(lit);
            return;
        }
    /* a JSON number: -?digits[.digits][e[+-]digits] (no inf, nan, leading +) */
    const char *q = c;
    if (*q == '-') q++;
    if (!isdigit((unsigned char)*q)) {
        j->ok = 0;
        return;
    }
    while (isdigit((unsigned char)*q)) q++;
    if (*q == '.') {
        q++;
        if (!isdigit((unsigned char)*q)) {
            j->ok = 0;
            return;
        }
        while (isdigit((unsigned char)*q)) q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!isdigit((unsigned char)*q)) {
            j->ok = 0;
            return;
        }
        while (isdigit((unsigned char)*q)) q++;
    }
    j->p = q;
}

/* the output is exactly one JSON object and a newline */
static int valid(const char *s, jp *j)
{
    memset(j, 0, sizeof *j);
    j->p = s;
    j->ok = 1;
    ws(j);
    if (*j->p != '{') return 0;
    value(j, NULL, NULL, 0);
    ws(j);
    return j->ok && *j->p == 0;
}

static const char *find(const char *s, const char *path)
{
    jp j;
    memset(&j, 0, sizeof j);
    j.p = s;
    j.ok = 1;
    const char *found = NULL;
    value(&j, path, &found, 0);
    ck_assert_msg(j.ok, "invalid JSON: %s", s);
    ck_assert_msg(found != NULL, "no key %s in %s", path, s);
    return found;
}

static double num(const char *s, const char *path)
{
    const char *v = find(s, path);
    ck_assert_msg(strncmp(v, "null", 4) != 0, "%s is null", path);
    return strtod(v, NULL);
}
static int is_null(const char *s, const char *path) { return strncmp(find(s, path), "null", 4) == 0; }
static int is_true(const char *s, const char *path) { return strncmp(find(s, path), "true", 4) == 0; }
static int str_is(const char *s, const char *path, const char *want)
{
    const char *v = find(s, path);
    size_t n = strlen(want);
    return v[0] == '"' && strncmp(v + 1, want, n) == 0 && v[n + 1] == '"';
}

#define NEAR(a, b, tol)                                                                        \
    do {                                                                                       \
        double na_ = (a), nb_ = (b);                                                           \
        ck_assert_msg(fabs(na_ - nb_) <= (tol), "%s = %.17g, expected %.17g", #a, na_, nb_);   \
    } while (0)

/* run a --json command: exit 0, nothing on stderr, valid JSON */
static void json(result *r, const char *args)
{
    char full[900];
    snprintf(full, sizeof full, "cone %s --json", args);
    run(r, full);
    ck_assert_msg(r->rc == 0, "exit %d for %s: %s", r->rc, args, r->err);
    ck_assert_msg(r->err[0] == 0, "stderr for %s: %s", args, r->err);
    jp j;
    ck_assert_msg(valid(r->out, &j), "not one JSON object for %s: %s", args, r->out);
}

/* ------------------------------------------------------------------- tests */

START_TEST(check_worked)
{
    result r;
    json(&r, "check --fn 20 --mu 0.5 --f 6,8");
    ck_assert(str_is(r.out, "where", "boundary"));
    NEAR(num(r.out, "radius"), 1, 1e-15);
    NEAR(num(r.out, "capacity"), 10, 1e-12);
    json(&r, "check --fn 20 --mu 0.5 --f 10,10");
    ck_assert(str_is(r.out, "where", "outside"));
    NEAR(num(r.out, "radius"), sqrt(2), 1e-15);
    json(&r, "check --fn 20 --mu 0.8,0.4 --f 9.6,6.4");
    ck_assert(str_is(r.out, "where", "boundary"));
    NEAR(num(r.out, "semi_axes.0"), 16, 1e-12);
    NEAR(num(r.out, "semi_axes.1"), 8, 1e-12);
    json(&r, "check --fn 20 --mu 0.8,0.4 --f 16,8");
    ck_assert(str_is(r.out, "where", "outside"));
    NEAR(num(r.out, "radius") * num(r.out, "radius"), 2, 1e-14);
    json(&r, "check --fn 10 --mu 0.8,0.4 --f 9.6,6.4");
    NEAR(num(r.out, "semi_axes.0"), 8, 1e-12);
    ck_assert(str_is(r.out, "where", "outside"));
    /* within 1e-9 of 1 is the boundary */
    json(&r, "check --fn 20 --mu 0.5 --f 6.0000000024,8.0000000032");
    ck_assert(str_is(r.out, "where", "boundary"));
    json(&r, "check --fn 20 --mu 0.5 --f 6.00000006,8.00000008");
    ck_assert(str_is(r.out, "where", "outside"));
    /* undefined quantities are null */
    json(&r, "check --fn 0 --mu 0.5 --f 0,0");
    ck_assert(str_is(r.out, "where", "boundary"));
    ck_assert(is_null(r.out, "radius"));
    ck_assert(is_null(r.out, "capacity"));
    json(&r, "check --fn 20 --mu 0.8,0 --f 1,1");
    ck_assert(str_is(r.out, "where", "outside"));
    ck_assert(is_true(r.out, "zero_mu_violated"));
    ck_assert(is_null(r.out, "radius"));
    ck_assert(is_null(r.out, "signed_dist"));
    json(&r, "check --fn 5");
    ck_assert(str_is(r.out, "where", "inside"));
}
END_TEST

START_TEST(slide_worked)
{
    result r;
    json(&r, "slide --fn 20 --mu 0.8,0.4 --v 1,1");
    ck_assert(is_true(r.out, "defined"));
    NEAR(num(r.out, "f.0"), -14.310835056, 1e-9);
    NEAR(num(r.out, "f.1"), -3.577708764, 1e-9);
    NEAR(num(r.out, "power"), -17.888543820, 1e-9);
    NEAR(num(r.out, "dv_norm"), 0.894427191, 5e-10);
    NEAR(num(r.out, "f_angle_deg"), -165.96, 5e-3);
    NEAR(num(r.out, "minus_v_angle_deg"), -135, 1e-12);
    NEAR(num(r.out, "radius"), 1, 1e-12);
    json(&r, "slide --fn 20 --mu 0.5 --v 0,0");
    ck_assert(!is_true(r.out, "defined"));
    ck_assert(is_null(r.out, "f"));
    ck_assert(is_null(r.out, "f_angle_deg"));
    ck_assert(is_null(r.out, "minus_v_angle_deg"));
    NEAR(num(r.out, "power"), 0, 0);
}
END_TEST

START_TEST(pyramid_worked)
{
    result r;
    json(&r, "pyramid --fn 1 --mu 1,1 --f 0.8,0");
    ck_assert(is_true(r.out, "in_pyramid"));
    ck_assert(is_true(r.out, "full.representable"));
    NEAR(num(r.out, "full.f.0"), 0.8, 1e-15);
    NEAR(num(r.out, "full.fn"), 1, 1e-15);
    NEAR(num(r.out, "mujoco.f.0"), 0.5, 1e-15);
    NEAR(num(r.out, "mujoco.f.1"), 0, 1e-15);
    NEAR(num(r.out, "mujoco.fn"), 1, 1e-15);
    ck_assert(!is_true(r.out, "mujoco.exact"));
    json(&r, "pyramid --fn 1 --mu 1,1 --f -0.8,0");
    NEAR(num(r.out, "mujoco.alpha.0"), -0.15, 1e-15);
    ck_assert(!is_true(r.out, "mujoco.nonnegative"));
    for (int k = 0; k < 4; k++) {
        char path[32];
        snprintf(path, sizeof path, "full.alpha.%d", k);
        ck_assert(num(r.out, path) >= 0);
    }
    json(&r, "pyramid --fn 1 --mu 1,1 --f 0.8,0.8");
    ck_assert(!is_true(r.out, "in_pyramid"));
}
END_TEST

START_TEST(qcqp_worked)
{
    result r;
    json(&r, "qcqp --H 1,0,0,4 --b -2,-2 --mu 1,0.5 --fn 1");
    ck_assert(is_true(r.out, "active"));
    NEAR(num(r.out, "lambda"), 1.2360679775, 1e-10);
    NEAR(num(r.out, "x.0"), 0.894427191, 5e-10);
    NEAR(num(r.out, "x.1"), 0.223606798, 5e-10);
    NEAR(num(r.out, "unconstrained.x.0"), 2, 1e-15);
    NEAR(num(r.out, "unconstrained.x.1"), 0.5, 1e-15);
    NEAR(num(r.out, "unconstrained.scaled_norm"), sqrt(5), 1e-15);
    ck_assert(num(r.out, "stationarity_rel") < 1e-10);
    ck_assert(num(r.out, "iterations") >= 1);
    json(&r, "qcqp --H 1,0,0,4 --b -2,-2 --mu 1,0.5 --fn 0");
    NEAR(num(r.out, "x.0"), 0, 0);
    ck_assert(is_null(r.out, "radius"));
    json(&r, "qcqp --H 2,1,0,1,3,0,0,0,1 --b -1,0,0.5 --mu 0.5,0.5,0 --fn 10");
    ck_assert(!is_true(r.out, "active"));
    NEAR(num(r.out, "x.2"), 0, 0);
}
END_TEST

START_TEST(soft_worked)
{
    /* R_n = 1, kappa = 1 along T = 1: borders at j_n = 1 and -1 */
    result r;
    json(&r, "soft --j 0,1,0 --Rn 1 --mu 1,1 --kappa 1");
    ck_assert(str_is(r.out, "zone", "middle"));
    NEAR(num(r.out, "f.0"), 0.5, 1e-15);
    NEAR(num(r.out, "top_border_jn"), 1, 1e-15);
    NEAR(num(r.out, "bottom_border_jn"), -1, 1e-15);
    NEAR(num(r.out, "cost"), 0.25, 1e-15);
    json(&r, "soft --j -1,1,0 --Rn 1 --mu 1,1 --kappa 1");
    NEAR(num(r.out, "f.0"), 1, 1e-15);
    json(&r, "soft --j -2,1,0 --Rn 1 --mu 1,1 --kappa 1");
    ck_assert(str_is(r.out, "zone", "bottom"));
    NEAR(num(r.out, "f.0"), 2, 1e-15);
    json(&r, "soft --j 1.5,1,0 --Rn 1 --mu 1,1 --kappa 1");
    ck_assert(str_is(r.out, "zone", "top"));
    NEAR(num(r.out, "cost"), 0, 0);
    /* impratio: kappa = R_n mu_1^2/eta, mu_bar = mu_1/sqrt(eta) */
    json(&r, "soft --j 0.1,0.3,-0.5 --Rn 0.5 --mu 0.8,0.4 --impratio 2");
    NEAR(num(r.out, "kappa"), 0.5 * 0.64 / 2, 1e-15);
    NEAR(num(r.out, "mu_bar"), 0.8 / sqrt(2), 1e-15);
    NEAR(num(r.out, "R.1"), 0.25, 1e-15);
    NEAR(num(r.out, "R.2") * 0.16, num(r.out, "kappa"), 1e-15);
    NEAR(num(r.out, "hessian.0.0"), 1 / (0.5 + 0.16), 1e-14);
    /* condim 1 */
    json(&r, "soft --j -3 --Rn 2");
    ck_assert(str_is(r.out, "zone", "bottom"));
    NEAR(num(r.out, "f.0"), 1.5, 1e-15);
    NEAR(num(r.out, "cost"), 2.25, 1e-15);
    ck_assert(is_null(r.out, "kappa"));
}
END_TEST

START_TEST(keys_documented)
{
    /* every key any verb prints is named in `conesim help cone` */
    result h;
    run(&h, "help cone");
    ck_assert_int_eq(h.rc, 0);
    const char *cmds[] = {
        "check --fn 20 --mu 0.8,0.4 --f 9.6,6.4", "slide --fn 20 --mu 0.8,0.4 --v 1,1",
        "pyramid --fn 1 --mu 1,1 --f 0.8,0", "qcqp --H 1,0,0,4 --b -2,-2 --mu 1,0.5 --fn 1",
        "soft --j 0.1,0.3,-0.5 --Rn 0.5 --mu 0.8,0.4 --impratio 2",
    };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        result r;
        json(&r, cmds[c]);
        jp j;
        ck_assert(valid(r.out, &j));
        ck_assert(j.nkeys >= 5);
        for (int k = 0; k < j.nkeys; k++)
            ck_assert_msg(strstr(h.out, j.keys[k]) != NULL, "key %s undocumented", j.keys[k]);
    }
}
END_TEST

START_TEST(degenerate_inputs_give_valid_json)
{
    /* apexes, zero scales, condim 1 and 6, D v = 0: valid JSON, no inf or nan anywhere */
    const char *cmds[] = {
        "check --fn 0 --mu 0,0 --f 0,0",
        "check --fn 0 --mu 1 --f 1,0",
        "check --fn 1 --mu 0 --f 0,0,0,0,0",
        "check --fn 1e-300 --mu 1e-300 --f 1e-300,0",
        "slide --fn 0 --mu 0.5 --v 1,0",
        "slide --fn 1 --mu 0,0.5 --v 1,0",
        "slide --fn 1 --mu 1 --v 1",
        "pyramid --fn 0 --mu 1,1 --f 0,0",
        "pyramid --fn 1 --mu 0,1 --f 1,0",
        "pyramid --fn 1 --mu 0.8,0.4,0.02,0.005,0.005 --f 0.1,0.1,0.001,0,0",
        "qcqp --H 1 --b 5 --mu 0 --fn 1",
        ("qcqp --H 4,1,0,0,0,1,4,1,0,0,0,1,4,1,0,0,0,1,4,1,0,0,0,1,4 --b 1,-2,3,-4,5 "
         "--mu 0.8,0.4,0.02,0.005,0.005 --fn 0.3"),
        "soft --j 0,0,0 --Rn 1 --mu 1",
        "soft --j 1,2,3,4,5,6 --Rn 1 --mu 0",
        "soft --j -1,2 --Rn 1 --mu 0.5 --impratio 100",
    };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        result r;
        json(&r, cmds[c]);
        ck_assert_msg(strstr(r.out, "inf") == NULL && strstr(r.out, "nan") == NULL, "%s", r.out);
    }
}
END_TEST

START_TEST(bad_arguments_exit_2)
{
    const char *cmds[] = {
        "cone",
        "cone frobnicate --fn 1",
        "cone check --mu 1 --f 1",
        "cone check --fn abc --mu 1 --f 1",
        "cone check --fn 1x --mu 1 --f 1",
        "cone check --fn -1 --mu 1 --f 1",
        "cone check --fn 1 --mu -0.5 --f 1",
        "cone check --fn 1 --mu 1,2 --f 1,2,3",
        "cone check --fn 1 --mu 1 --f 1,,2",
        "cone check --fn 1 --mu 1 --f 1,2,3,4,5,6",
        "cone check --fn nan --mu 1 --f 1",
        "cone check --fn inf --mu 1 --f 1",
        "cone check --fn 1 --mu 1 --f 1 --bogus 2",
        "cone check --fn 1 --mu 1 --f 1 --v 1",
        "cone check --fn",
        "cone check --fn 1 --fn 2 --mu 1 --f 1",
        "cone check --fn 1 --mu 1 --f 1 stray",
        "cone slide --fn 1 --mu 1",
        "cone pyramid --fn 1 --mu 1",
        "cone qcqp --H 1,2,2,1 --b 1,1 --mu 1 --fn 1",
        "cone qcqp --H 1,0,0,-1 --b 1,1 --mu 1,0 --fn 1",
        "cone qcqp --H 1,2,3,1 --b 1,1 --mu 1 --fn 1",
        "cone qcqp --H 1,0,0 --b 1,1 --mu 1 --fn 1",
        "cone qcqp --H 1,0,0,1 --b 1,1 --mu 1,1,1 --fn 1",
        "cone qcqp --H 1,0,0,1 --b 1,1 --mu 1 --fn -2",
        "cone soft --j 1,2 --Rn 0 --mu 1",
        "cone soft --j 1,2 --Rn 1",
        "cone soft --j 1,2 --Rn 1 --mu 1 --impratio 0",
        "cone soft --j 1,2 --Rn 1 --mu 1 --impratio 2 --kappa 1",
        "cone soft --j 1,2,3,4,5,6,7 --Rn 1 --mu 1",
    };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char full[600];
        snprintf(full, sizeof full, "%s --json", cmds[c]);
        result r;
        run(&r, full);
        ck_assert_msg(r.rc == 2, "'%s' exited %d", cmds[c], r.rc);
        ck_assert_msg(strlen(r.err) > 10, "'%s': no message", cmds[c]);
        ck_assert_msg(r.out[0] == 0, "'%s' printed to stdout: %s", cmds[c], r.out);
    }
    /* the message names what is wrong */
    result r;
    run(&r, "cone qcqp --H 1,2,2,1 --b 1,1 --mu 1 --fn 1");
    ck_assert(strstr(r.err, "positive definite") != NULL);
    run(&r, "cone check --fn abc --mu 1 --f 1");
    ck_assert(strstr(r.err, "abc") != NULL && strstr(r.err, "--fn") != NULL);
    /* help is not an error */
    run(&r, "cone --help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert(strstr(r.out, "qcqp") != NULL);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cone_cli PATH-TO-CONESIM\n");
        return EXIT_FAILURE;
    }
    exe = argv[1];
    Suite *s = suite_create("cone-cli");
    TCase *t = tcase_create("json");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, check_worked);
    tcase_add_test(t, slide_worked);
    tcase_add_test(t, pyramid_worked);
    tcase_add_test(t, qcqp_worked);
    tcase_add_test(t, soft_worked);
    tcase_add_test(t, keys_documented);
    tcase_add_test(t, degenerate_inputs_give_valid_json);
    tcase_add_test(t, bad_arguments_exit_2);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
