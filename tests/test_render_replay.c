/* render/replay.c: trajectory CSVs for `view --replay`, without a window. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render.h"

#define HEAD "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"

static char path[64];

static const char *write_file(const char *text)
{
    snprintf(path, sizeof path, "/tmp/cs_replay_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(loads_a_recording)
{
    const char *p = write_file(HEAD
        "0,0,ball,0,0,0.1,1,0,0,0,0,0,0,0,0,0\n"
        "0,0,box,1,0,0.05,1,0,0,0,0,0,0,0,0,0\n"
        "5,0.01,ball,0,0,0.0995,1,0,0,0,0,0,-0.1,0,0,0\n"
        "5,0.01,box,1,0,0.05,0.70710678118654757,0,0,0.70710678118654757,0,0,0,0,0,1.5\n"
        "7,0.014,ball,0,0,0.099,1,0,0,0,0,0,-0.12,0,0,0\n"
        "7,0.014,box,1,0,0.05,1,0,0,0,0,0,0,0,0,0\n");
    cs_replay r;
    char err[256];
    ck_assert_msg(cs_replay_load(p, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.nframe, 3);
    ck_assert_int_eq(r.nbody, 2);
    ck_assert_str_eq(r.names[1], "box");
    ck_assert_int_eq(cs_replay_find_body(&r, "ball"), 0);
    ck_assert_int_eq(cs_replay_find_body(&r, "nope"), -1);
    ck_assert_int_eq(r.step[2], 7);
    ck_assert_double_eq(r.time[1], 0.01);
    ck_assert_double_eq(cs_replay_body(&r, 1, 0)[2], 0.0995);
    ck_assert_double_eq(cs_replay_body(&r, 1, 1)[12], 1.5);
    ck_assert_double_eq(cs_replay_body(&r, 2, 0)[9], -0.12);
    ck_assert_int_eq(cs_replay_frame_at(&r, -1), 0);
    ck_assert_int_eq(cs_replay_frame_at(&r, 0.005), 0);
    ck_assert_int_eq(cs_replay_frame_at(&r, 0.01), 1);
    ck_assert_int_eq(cs_replay_frame_at(&r, 0.0139), 1);
    ck_assert_int_eq(cs_replay_frame_at(&r, 5), 2);
    /* 90 degrees about z: x goes to y. */
    double m[9];
    cs_quat_to_mat(cs_replay_body(&r, 1, 1) + 3, m);
    ck_assert_double_eq_tol(m[0], 0, 1e-12);
    ck_assert_double_eq_tol(m[3], 1, 1e-12); /* column 0 = local x in world = +y */
    ck_assert_double_eq_tol(m[1], -1, 1e-12);
    ck_assert_double_eq_tol(m[8], 1, 1e-12);
    cs_replay_free(&r);
    unlink(p);
}
END_TEST

static void expect_error(const char *text, const char *where_what)
{
    const char *p = write_file(text);
    cs_replay r;
    char err[256] = "";
    ck_assert_int_ne(cs_replay_load(p, &r, err, sizeof err), 0);
    char want[320];
    snprintf(want, sizeof want, "%s:%s", p, where_what);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got '%s', want '%s...'", err, want);
    ck_assert_int_eq(r.nframe, 0);
    unlink(p);
}

START_TEST(bad_files_name_the_line)
{
    expect_error("", "1: empty file");
    expect_error("step,time,body\n", "1: not a trajectory CSV");
    expect_error(HEAD, "1: no rows");
    expect_error(HEAD "0,0,ball,0,0,0.1,1,0,0,0,0,0,0,0,0\n", "2: wrong number of fields");
    expect_error(HEAD "0,0,ball,0,0,zz,1,0,0,0,0,0,0,0,0,0\n", "2: bad number");
    expect_error(HEAD "0,0,ball,0,0,nan,1,0,0,0,0,0,0,0,0,0\n", "2: bad number");
    expect_error(HEAD "-1,0,ball,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "2: bad step");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "3: body listed twice");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "0,0,b,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "1,0.1,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "2,0.2,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "5: the previous step lists fewer");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "0,0,b,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "1,0.1,b,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "4: bodies must come in");
    expect_error(HEAD "3,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "2,0.1,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "3: steps must increase");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "0,0.5,b,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "3: time differs");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "0,0,b,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "1,0.1,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "4: the last step lists fewer");
    cs_replay r;
    char err[256];
    ck_assert_int_ne(cs_replay_load("/nonexistent/x.csv", &r, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.csv: cannot open"));
}
END_TEST

/* Steps are integers within long's range: beyond it is an error at the step column, and two
 * huge distinct steps stay two frames. */
START_TEST(huge_steps)
{
    expect_error(HEAD "1e300,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "2: bad step");
    expect_error(HEAD "9223372036854775808,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "2: bad step");
    expect_error(HEAD "0,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
                      "99999999999999999999,0.1,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n", "3: bad step");
    const char *p = write_file(HEAD
        "9223372036854775806,0,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n"
        "9223372036854775807,0.5,a,0,0,0,1,0,0,0,0,0,0,0,0,0\n");
    cs_replay r;
    char err[256];
    ck_assert_msg(cs_replay_load(p, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.nframe, 2);
    ck_assert(r.step[0] == 9223372036854775806L && r.step[1] == 9223372036854775807L);
    ck_assert_double_eq(r.time[1], 0.5);
    cs_replay_free(&r);
    unlink(p);
}
END_TEST

START_TEST(quaternion_is_normalised)
{
    double q[4] = {2, 0, 0, 0}, m[9];
    cs_quat_to_mat(q, m);
    ck_assert_double_eq(m[0], 1);
    ck_assert_double_eq(m[4], 1);
    ck_assert_double_eq(m[8], 1);
    /* 180 degrees about x: y -> -y, z -> -z. */
    double qx[4] = {0, 3, 0, 0};
    cs_quat_to_mat(qx, m);
    ck_assert_double_eq_tol(m[4], -1, 1e-15);
    ck_assert_double_eq_tol(m[8], -1, 1e-15);
    ck_assert_double_eq_tol(m[0], 1, 1e-15);
}
END_TEST

START_TEST(geom_pose_composes_with_the_body)
{
    /* Body at (1, 2, 3) turned 90 degrees about z; geom 0.5 along the body's x, turned
     * 90 degrees about x in the body. */
    double bpos[3] = {1, 2, 3}, bq[4] = {sqrt(0.5), 0, 0, sqrt(0.5)};
    double lpos[3] = {0.5, 0, 0}, lmat[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0};
    cs_pose p;
    cs_pose_compose(bpos, bq, lpos, lmat, &p);
    ck_assert_double_eq_tol(p.pos[0], 1, 1e-12);
    ck_assert_double_eq_tol(p.pos[1], 2.5, 1e-12); /* body x is world y */
    ck_assert_double_eq_tol(p.pos[2], 3, 1e-12);
    /* The geom's z axis (third column): body -y -> world +x. */
    ck_assert_double_eq_tol(p.mat[2], 1, 1e-12);
    ck_assert_double_eq_tol(p.mat[5], 0, 1e-12);
    ck_assert_double_eq_tol(p.mat[8], 0, 1e-12);
    /* Its x axis stays the body's x = world y. */
    ck_assert_double_eq_tol(p.mat[3], 1, 1e-12);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("render-replay");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, loads_a_recording);
    tcase_add_test(tc, bad_files_name_the_line);
    tcase_add_test(tc, huge_steps);
    tcase_add_test(tc, quaternion_is_normalised);
    tcase_add_test(tc, geom_pose_composes_with_the_body);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
