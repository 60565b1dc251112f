/* <replicate>: the copies' names, poses and referencing elements as MuJoCo's XML reference
 * gives them, and bad input as FILE:LINE errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

static cs_model *load(const char *xml)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "rep.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

static void refused(const char *xml, const char *want)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "rep.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded: %s", xml);
    ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
}

/* MuJoCo's XML reference example: two nested replicates of one geom */
START_TEST(test_reference_example)
{
    cs_model *m = load("<mujoco><worldbody>"
                       "<replicate count='2' offset='0 1 0' euler='90 0 0'>"
                       "<replicate count='2' sep='-' offset='1 0 0' euler='0 90 0'>"
                       "<geom name='Alice' size='.1'/>"
                       "</replicate></replicate></worldbody></mujoco>");
    ck_assert_int_eq(m->ngeom, 4);
    cs_free_model(m);
    /* MuJoCo's schema accepts a prefix that its reader never reads: the same model */
    m = load("<mujoco><worldbody>"
             "<replicate count='2' offset='0 1 0' euler='90 0 0' prefix='P'>"
             "<replicate count='2' sep='-' offset='1 0 0' euler='0 90 0'>"
             "<geom name='Alice' size='.1'/>"
             "</replicate></replicate></worldbody></mujoco>");
    ck_assert_int_eq(m->ngeom, 4);
    /* the reference's saved model: name, pos, quat (normalised) */
    const char *name[4] = {"Alice-00", "Alice-10", "Alice-01", "Alice-11"};
    const double pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    const double h = sqrt(0.5);
    const double quat[4][4] = {{1, 0, 0, 0}, {h, 0, h, 0}, {h, h, 0, 0}, {.5, .5, .5, .5}};
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(cs_id2name(m, "geom", i), name[i]);
        ck_assert_int_eq(cs_name2id(m, "geom", name[i]), i);
        for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->geom_pos[3 * i + k], pos[i][k], 1e-12);
        /* q and -q are one rotation */
        double s = m->geom_quat[4 * i] * quat[i][0] < 0 ? -1 : 1;
        for (int k = 0; k < 4; k++)
            ck_assert_double_eq_tol(s * m->geom_quat[4 * i + k], quat[i][k], 1e-12);
    }
    cs_free_model(m);
}
END_TEST

/* each replica's offset is in the previous replica's frame: quarter turns about z with a
 * unit offset along x walk a square */
START_TEST(test_offset_in_previous_frame)
{
    cs_model *m = load("<mujoco><worldbody>"
                       "<replicate count='4' offset='1 0 0' euler='0 0 90'>"
                       "<body name='b' pos='0 0 1'><freejoint/><geom size='.1'/></body>"
                       "</replicate></worldbody></mujoco>");
    ck_assert_int_eq(m->nbody, 5);
    const double want[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 4; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "b%d", i);
        int b = cs_name2id(m, "body", nm);
        ck_assert_int_eq(b, i + 1);
        ck_assert_double_eq_tol(m->body_pos[3 * b], want[i][0], 1e-12);
        ck_assert_double_eq_tol(m->body_pos[3 * b + 1], want[i][1], 1e-12);
        ck_assert_double_eq_tol(m->body_pos[3 * b + 2], 1, 1e-12);
    }
    cs_free_model(m);
}
END_TEST

/* elements naming something inside are replicated with it, after the others of their
 * list, replica by replica; digits as many as count has (count 10: 00 to 09) */
START_TEST(test_referencing_elements)
{
    cs_model *m = load(
        "<mujoco><worldbody><geom name='floor' type='plane' size='9 9 .1'/><site name='top' pos='0 0 2'/>"
        "<replicate count='10' offset='.3 0 0'>"
        "<site name='a' pos='0 0 1'/>"
        "<body name='ball' pos='0 0 .5'><freejoint/><geom name='g' size='.1'/>"
        "<site name='b'/></body></replicate>"
        "<body name='other' pos='5 0 1'><freejoint/><geom name='o' size='.1'/></body>"
        "</worldbody>"
        "<tendon><spatial name='t'><site site='a'/><site site='b'/></spatial>"
        "<spatial name='keep'><site site='top'/><site site='a'/></spatial></tendon>"
        "<contact><exclude body1='ball' body2='other'/><pair geom1='o' geom2='floor'/></contact>"
        "</mujoco>");
    ck_assert_int_eq(m->nbody, 12);
    ck_assert_int_eq(m->ntendon, 20);
    ck_assert_int_eq(m->nexclude, 10);
    ck_assert_int_eq(m->npair, 1);
    ck_assert_str_eq(cs_id2name(m, "body", 1), "ball00");
    ck_assert_str_eq(cs_id2name(m, "body", 10), "ball09");
    /* copies replica by replica: t00 keep00 t01 keep01 ... */
    ck_assert_str_eq(cs_id2name(m, "tendon", 0), "t00");
    ck_assert_str_eq(cs_id2name(m, "tendon", 1), "keep00");
    ck_assert_str_eq(cs_id2name(m, "tendon", 19), "keep09");
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(m->exclude_body1[i], 1 + i);
        ck_assert_int_eq(m->exclude_body2[i], 11);
    }
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    for (int i = 0; i < 10; i++) {
        /* a_i above b_i by 0.5; 'keep' from the top site to a_i */
        double x = 0.3 * i;
        ck_assert_double_eq_tol(d->ten_length[2 * i], 0.5, 1e-12);
        ck_assert_double_eq_tol(d->ten_length[2 * i + 1], sqrt(x * x + 1), 1e-12);
    }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a crowd of free bodies in turned, offset frames (model/humanoid/100_humanoids.xml's
 * layout): their reference poses to the last bit as MuJoCo 3.12 compiles them (its qpos0 of
 * this file), and a key that leaves them alone keeps those bits. Bodies that rest exactly on
 * a floor touch it or not by these bits. */
START_TEST(test_poses_to_the_last_bit)
{
    cs_model *m = load("<mujoco><worldbody>"
                       "<replicate count='10' euler='0 0 36' sep='-'><frame pos='1.2 0 0'>"
                       "<replicate count='10' euler='0 0 17' sep='-' offset='0.6 0 0'>"
                       "<body name='t' pos='0 0 1.282'><freejoint name='r'/><geom size='.1'/>"
                       "</body></replicate></frame></replicate></worldbody>"
                       "<keyframe><key qpos='0 0 1 1 0 0 0'/></keyframe></mujoco>");
    static const struct { const char *joint; double q[7]; } WANT[] = {
        {"r-05-01", {1.9087801261475015, 3.2823654892447141, 1.2819999999999998,
                     0.49242356010346722, 0, 0, 0.87035569593989959}},
        {"r-06-07", {0.93739337870479011, -4.0118809476608455, 1.2819999999999996,
                     -0.99862953475457372, 0, 0, 0.052335956242943960}}};
    for (int k = 0; k < 2; k++) {
        int j = cs_name2id_joint(m, WANT[k].joint);
        ck_assert_int_ge(j, 0);
        const double *q0 = m->qpos0 + m->jnt_qposadr[j], *kq = m->key_qpos + m->jnt_qposadr[j];
        for (int i = 0; i < 7; i++) {
            ck_assert_double_eq(q0[i], WANT[k].q[i]);
            ck_assert_double_eq(kq[i], WANT[k].q[i]);
        }
    }
    cs_free_model(m);
}
END_TEST

START_TEST(test_bad_replicate)
{
    refused("<mujoco><worldbody>\n<replicate count='0'><geom size='.1'/></replicate>"
            "</worldbody></mujoco>", "rep.xml:2:");
    refused("<mujoco><worldbody><replicate><geom size='.1'/></replicate></worldbody></mujoco>",
            "count");
    refused("<mujoco><worldbody><replicate count='2x'><geom size='.1'/></replicate>"
            "</worldbody></mujoco>", "positive whole number");
    refused("<mujoco><worldbody><replicate count='2' offset='1 2'><geom size='.1'/>"
            "</replicate></worldbody></mujoco>", "offset");
    refused("<mujoco><worldbody><replicate count='2' spin='1'><geom size='.1'/></replicate>"
            "</worldbody></mujoco>", "spin");
    /* too many to make: an error, not the machine's memory */
    refused("<mujoco><worldbody><replicate count='100000'><replicate count='100000'>"
            "<geom size='.1'/></replicate></replicate></worldbody></mujoco>", "more than");
    /* an error inside a copy names the line of the original */
    refused("<mujoco><worldbody>\n<replicate count='3'>\n<geom size='.1' type='nosuch'/>"
            "</replicate></worldbody></mujoco>", "rep.xml:3:");
    /* names made twice */
    refused("<mujoco><worldbody><replicate count='2'><body name='b'><geom size='.1'/></body>"
            "</replicate><body name='b1'><geom size='.1'/></body></worldbody></mujoco>", "b1");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf_replicate");
    TCase *t = tcase_create("replicate");
    tcase_set_timeout(t, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(t, test_reference_example);
    tcase_add_test(t, test_offset_in_previous_frame);
    tcase_add_test(t, test_referencing_elements);
    tcase_add_test(t, test_poses_to_the_last_bit);
    tcase_add_test(t, test_bad_replicate);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
