/* <asset><model> and <attach>: an attached arm is the arm of its own file (masses, ranges in
 * its own angle unit, classes, tendon, actuators, sensors, key, the same motion), names
 * prefixed; a whole world; <compiler conflict>; bad input as FILE:LINE errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"

#define GOOD CS_TEST_DATA "/good/"

static cs_model *load(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, GOOD "attach_test.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

static void refused(const char *xml, const char *want)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, GOOD "attach_test.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded: %s", xml);
    ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
}

static cs_model *arm_alone(void)
{
    char err[1024];
    cs_model *m = cs_load_xml(GOOD "parts/arm_model.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* two copies, one shifted, one turned about the vertical: each is the arm of its file */
static const char *TWO =
    "<mujoco><option timestep='0.001'><flag contact='disable'/></option>"
    "<asset><model name='arm' file='parts/arm_model.xml'/></asset><worldbody>"
    "<frame pos='1 2 0'><attach model='arm' body='base' prefix='x_'/></frame>"
    "<frame pos='-1 0 .3' euler='0 0 90'><attach model='arm' body='base' prefix='y_'/></frame>"
    "</worldbody></mujoco>";

START_TEST(attached_arm_is_the_arm)
{
    cs_model *a = arm_alone(), *m = load(TWO);
    ck_assert_int_eq(m->nbody, 2 * (a->nbody - 1) + 1);
    ck_assert_int_eq(m->njnt, 2 * a->njnt);
    ck_assert_int_eq(m->nu, 2 * a->nu);
    ck_assert_int_eq(m->ntendon, 2 * a->ntendon);
    ck_assert_int_eq(m->nexclude, 2 * a->nexclude);
    /* the arm's sensors on the world (subtreecom of "world") name nothing attached */
    ck_assert_int_eq(m->nsensor, 2 * (a->nsensor - 1));
    const char *bodies[] = {"base", "fore", "hand"};
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 3; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "%s%s", p ? "y_" : "x_", bodies[i]);
            int b = cs_name2id_body(m, nm), ba = cs_name2id_body(a, bodies[i]);
            ck_assert_int_ge(b, 0);
            ck_assert_double_eq(m->body_mass[b], a->body_mass[ba]);
            for (int k = 0; k < 3; k++)
                ck_assert_double_eq(m->body_inertia[3 * b + k], a->body_inertia[3 * ba + k]);
        }
    /* ranges in the arm's radians (this model reads degrees), the class's stiffness */
    int e = cs_name2id_joint(m, "y_elbow");
    ck_assert_double_eq(m->jnt_range[2 * e + 1], 1.2);
    ck_assert_double_eq(m->jnt_stiffness[e], 2);
    ck_assert_int_ge(cs_name2id(m, "tendon", "x_couple"), 0);
    ck_assert_int_ge(cs_name2id_actuator(m, "y_p_elbow"), 0);
    ck_assert_int_ge(cs_name2id(m, "sensor", "x_q_elbow"), 0);

    /* keys: the first is x's "bent" (y at its reference pose, its controls 0), then y's */
    ck_assert_int_eq(m->nkey, 2);
    ck_assert_str_eq(cs_id2name(m, "key", 0), "x_bent");
    ck_assert_str_eq(cs_id2name(m, "key", 1), "y_bent");
    const double *kq = m->key_qpos;
    for (int i = 0; i < a->nq; i++) {
        ck_assert_double_eq(kq[i], a->key_qpos[i]);
        ck_assert_double_eq(kq[a->nq + i], m->qpos0[a->nq + i]);
        ck_assert_double_eq(m->key_qpos[m->nq + a->nq + i], a->key_qpos[i]);
    }
    for (int i = 0; i < a->nu; i++) {
        ck_assert_double_eq(m->key_ctrl[i], a->key_ctrl[i]);
        ck_assert_double_eq(m->key_ctrl[a->nu + i], 0);
    }

    /* the same motion from the key (no contacts: the arm alone has a floor), with its
     * actuators driving, its sensors reading its own joint */
    cs_set(a, "option.disableflags", CS_DSBL_CONTACT);
    cs_data *da = cs_make_data(a), *dm = cs_make_data(m);
    cs_reset_key(a, da, 0);
    cs_reset_key(m, dm, 0);
    for (int i = 0; i < a->nq; i++) dm->qpos[a->nq + i] = da->qpos[i]; /* y from the key too */
    for (int i = 0; i < a->nu; i++) dm->ctrl[a->nu + i] = da->ctrl[i];
    for (int s = 0; s < 300; s++) {
        cs_step(a, da);
        cs_step(m, dm);
    }
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < a->nq; i++)
            ck_assert_double_eq_tol(dm->qpos[p * a->nq + i], da->qpos[i], 1e-12);
    int sa = cs_name2id(a, "sensor", "q_elbow"), sy = cs_name2id(m, "sensor", "y_q_elbow");
    ck_assert_double_eq_tol(dm->sensordata[m->sensor_adr[sy]], da->sensordata[a->sensor_adr[sa]],
                            1e-12);
    cs_free_data(da);
    cs_free_data(dm);
    cs_free_model(a);
    cs_free_model(m);
}
END_TEST

/* an attachment inside two nested replicates: MuJoCo 3.12's names (read from its compiled
 * model of this file), in its order; each copy at its replicas' offsets and turns; the key
 * once, unsuffixed, on the first copy only, without controls */
static const char *CROWD =
    "<mujoco><asset><model name='arm' file='parts/arm_model.xml'/></asset><worldbody>"
    "<body name='pre'><joint name='pj' type='slide'/><geom size='.1' mass='2'/></body>"
    "<replicate count='2' offset='1 0 0' sep='A'>"
    "<replicate count='2' offset='0 1 0' euler='0 0 90' sep='B'>"
    "<attach model='arm' body='base' prefix='a_'/>"
    "</replicate></replicate></worldbody></mujoco>";

START_TEST(attached_in_replicates)
{
    cs_model *a = arm_alone(), *m = load(CROWD);
    static const char *const BODIES[] = {"world", "pre",
        "a_baseB0A0", "a_foreB0A0", "a_handB0A0", "a_baseB1A0", "a_foreB1A0", "a_handB1A0",
        "a_baseB0A1", "a_foreB0A1", "a_handB0A1", "a_baseB1A1", "a_foreB1A1", "a_handB1A1"};
    static const char *const JOINTS[] = {"pj", "a_shoulderB0A0", "a_elbowB0A0", "a_wristB0A0",
        "a_shoulderB1A0", "a_elbowB1A0", "a_wristB1A0", "a_shoulderB0A1", "a_elbowB0A1",
        "a_wristB0A1", "a_shoulderB1A1", "a_elbowB1A1", "a_wristB1A1"};
    static const char *const ACTS[] = {"a_m_shoulderB0A0", "a_p_elbowB0A0", "a_m_shoulderB1A0",
        "a_p_elbowB1A0", "a_m_shoulderB0A1", "a_p_elbowB0A1", "a_m_shoulderB1A1",
        "a_p_elbowB1A1"};
    static const char *const SENSORS[] = {"a_q_elbowB0A0", "a_tip_posB0A0", "a_q_elbowB1A0",
        "a_tip_posB1A0", "a_q_elbowB0A1", "a_tip_posB0A1", "a_q_elbowB1A1", "a_tip_posB1A1"};
    static const char *const TENDONS[] = {"a_coupleB0A0", "a_coupleB1A0", "a_coupleB0A1",
                                          "a_coupleB1A1"};
    static const struct { const char *kind; const char *const *names; int n; } K[] = {
        {"body", BODIES, 14}, {"joint", JOINTS, 13}, {"actuator", ACTS, 8},
        {"sensor", SENSORS, 8}, {"tendon", TENDONS, 4}};
    ck_assert_int_eq(m->nbody, 14);
    ck_assert_int_eq(m->njnt, 13);
    ck_assert_int_eq(m->nu, 8);
    ck_assert_int_eq(m->nsensor, 8);
    ck_assert_int_eq(m->ntendon, 4);
    ck_assert_int_eq(m->nexclude, 4);
    for (size_t k = 0; k < sizeof K / sizeof *K; k++)
        for (int i = 0; i < K[k].n; i++)
            ck_assert_str_eq(cs_id2name(m, K[k].kind, i), K[k].names[i]);
    ck_assert_int_eq(m->nkey, 1);
    ck_assert_str_eq(cs_id2name(m, "key", 0), "a_bent");

    /* masses: the arm's; places: replica (i, j) at (i, j, 0) plus the arm's own base
     * position, turned j quarter turns about z */
    const char *parts[] = {"base", "fore", "hand"};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            char nm[32];
            for (int p = 0; p < 3; p++) {
                snprintf(nm, sizeof nm, "a_%sB%dA%d", parts[p], j, i);
                int b = cs_name2id_body(m, nm), ba = cs_name2id_body(a, parts[p]);
                ck_assert_double_eq(m->body_mass[b], a->body_mass[ba]);
            }
            snprintf(nm, sizeof nm, "a_baseB%dA%d", j, i);
            int b = cs_name2id_body(m, nm);
            ck_assert_double_eq_tol(m->body_pos[3 * b], i, 1e-12);
            ck_assert_double_eq_tol(m->body_pos[3 * b + 1], j, 1e-12);
            ck_assert_double_eq_tol(m->body_pos[3 * b + 2], 0.5, 1e-12);
            double w = j ? sqrt(0.5) : 1; /* a quarter turn about z */
            ck_assert_double_eq_tol(m->body_quat[4 * b], w, 1e-12);
            ck_assert_double_eq_tol(m->body_quat[4 * b + 3], j ? w : 0, 1e-12);
        }

    /* the key: the arm's qpos on the first copy, the reference pose elsewhere, no controls */
    int q1 = m->jnt_qposadr[cs_name2id_joint(m, "a_shoulderB0A0")];
    for (int i = 0; i < m->nq; i++) {
        double want = i >= q1 && i < q1 + a->nq ? a->key_qpos[i - q1] : m->qpos0[i];
        ck_assert_double_eq(m->key_qpos[i], want);
    }
    for (int i = 0; i < m->nu; i++) ck_assert_double_eq(m->key_ctrl[i], 0);
    cs_free_model(a);
    cs_free_model(m);
}
END_TEST

/* <attach> without model: a copy of this model's own body, with the actuators, sensors and
 * exclusions that name it (and the clock, which names nothing); MuJoCo 3.12's names, from its
 * compiled model of this file, in its order */
static const char *SELF =
    "<mujoco><worldbody>"
    "<body name='X' pos='0 0 1'><joint name='j' type='slide' axis='0 0 1'/>"
    "<geom name='g' size='0.1' mass='1'/>"
    "<body name='Y' pos='0 0 .3'><joint name='jy'/><geom name='gy' size='.05' mass='.5'/></body>"
    "</body>"
    "<body name='Z'><joint name='jz'/><geom size='.1' mass='3'/></body>"
    "<frame pos='1 0 0'><attach body='X' prefix='p_'/></frame>"
    "</worldbody>"
    "<contact><exclude body1='X' body2='Y'/><exclude body1='X' body2='Z'/></contact>"
    "<actuator><motor name='m' joint='j'/><motor name='mz' joint='jz'/>"
    "<motor name='my' joint='jy'/></actuator>"
    "<sensor><jointpos name='s' joint='j'/><clock name='c'/></sensor>"
    "</mujoco>";

START_TEST(self_attach)
{
    cs_model *m = load(SELF);
    static const char *const BODIES[] = {"world", "X", "Y", "Z", "p_X", "p_Y"};
    static const char *const JOINTS[] = {"j", "jy", "jz", "p_j", "p_jy"};
    static const char *const ACTS[] = {"m", "mz", "my", "p_m", "p_my"};
    static const char *const SENSORS[] = {"s", "c", "p_s", "p_c"};
    ck_assert_int_eq(m->nbody, 6);
    ck_assert_int_eq(m->njnt, 5);
    ck_assert_int_eq(m->nu, 5);
    ck_assert_int_eq(m->nsensor, 4);
    ck_assert_int_eq(m->ngeom, 5);
    for (int i = 0; i < 6; i++) ck_assert_str_eq(cs_id2name(m, "body", i), BODIES[i]);
    for (int i = 0; i < 5; i++) ck_assert_str_eq(cs_id2name(m, "joint", i), JOINTS[i]);
    for (int i = 0; i < 5; i++) ck_assert_str_eq(cs_id2name(m, "actuator", i), ACTS[i]);
    for (int i = 0; i < 4; i++) ck_assert_str_eq(cs_id2name(m, "sensor", i), SENSORS[i]);
    /* X-Y copied whole, X-Z with Z as it is (MuJoCo keeps the body outside unprefixed) */
    ck_assert_int_eq(m->nexclude, 4);
    int px = cs_name2id_body(m, "p_X"), py = cs_name2id_body(m, "p_Y");
    ck_assert_double_eq(m->body_mass[px], 1);
    ck_assert_double_eq(m->body_mass[py], 0.5);
    ck_assert_int_eq(m->body_parent[py], px);
    /* the copy keeps its pose, in the <attach>'s frame */
    ck_assert_double_eq_tol(m->body_pos[3 * px], 1, 1e-15);
    ck_assert_double_eq_tol(m->body_pos[3 * px + 2], 1, 1e-15);
    ck_assert_int_eq(m->actuator_trnid[2 * cs_name2id_actuator(m, "p_my")],
                     cs_name2id_joint(m, "p_jy"));
    cs_free_model(m);

    /* a copy holding a self-attachment: the copy's copy is made too (MuJoCo's bodies, in its
     * order) */
    m = load("<mujoco><worldbody><body name='X' pos='0 0 1'><joint/><geom size='.1'/>"
             "<body name='Y' pos='0 0 .3'><joint/><geom size='.05'/></body>"
             "<frame pos='1 0 0'><attach body='Y' prefix='q_'/></frame></body>"
             "<frame pos='0 3 0'><attach body='X' prefix='p_'/></frame></worldbody></mujoco>");
    static const char *const NESTED[] = {"world", "X", "Y", "q_Y", "p_X", "p_Y", "p_q_Y"};
    ck_assert_int_eq(m->nbody, 7);
    for (int i = 0; i < 7; i++) ck_assert_str_eq(cs_id2name(m, "body", i), NESTED[i]);
    cs_free_model(m);

    /* a frame: its geoms come to the body that holds the <attach>, at the frame's pose there */
    m = load("<mujoco><worldbody><frame name='f' pos='0 0 1'><geom name='g' size='.1' "
             "pos='.5 0 0'/></frame><body name='B' pos='2 0 0'><frame pos='0 3 0'>"
             "<attach frame='f' prefix='c_'/></frame></body></worldbody></mujoco>");
    int g = cs_name2id_geom(m, "c_g"), b = cs_name2id_body(m, "B");
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(m->geom_body[g], b);
    const double want[3] = {0.5, 3, 1};
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->geom_pos[3 * g + k], want[k], 1e-15);
    cs_free_model(m);
}
END_TEST

/* no body: the whole world comes in (its floor too) */
START_TEST(whole_world)
{
    cs_model *a = arm_alone();
    cs_model *m = load("<mujoco><asset><model name='arm' file='parts/arm_model.xml'/></asset>"
                       "<worldbody><attach model='arm' prefix='w_'/></worldbody></mujoco>");
    ck_assert_int_eq(m->nbody, a->nbody);
    ck_assert_int_eq(m->ngeom, a->ngeom);
    ck_assert_int_ge(cs_name2id_geom(m, "w_floor"), 0);
    cs_free_model(a);
    cs_free_model(m);
}
END_TEST

/* <compiler conflict>: warning keeps this model's options, merge takes the smaller step, the
 * larger iteration count, what only the attached model gives and its flags, error refuses */
/* a frame comes with its pose, in the frame of the <attach>: a frame inside a body gives its
 * geoms and sites to the holding body; a frame in the world brings its bodies */
START_TEST(frames)
{
    cs_model *m = load("<mujoco><asset><model name='t' file='parts/tool_model.xml'/></asset>"
                       "<worldbody><body name='arm' pos='1 0 0'><freejoint/>"
                       "<geom size='.05'/><attach model='t' frame='mount' prefix='k_'/></body>"
                       "<frame pos='0 2 0'><attach model='t' frame='rack' prefix='r_'/></frame>"
                       "</worldbody></mujoco>");
    int arm = cs_name2id_body(m, "arm"), blade = cs_name2id_geom(m, "k_blade");
    ck_assert_int_ge(blade, 0);
    ck_assert_int_eq(m->geom_body[blade], arm);
    ck_assert_int_lt(cs_name2id_geom(m, "k_grip"), 0); /* outside the frame: not attached */
    /* the frame's pose (0 0 .1, turned 90 degrees about z) then the geom's (.1 0 0) */
    ck_assert_double_eq_tol(m->geom_pos[3 * blade + 0], 0, 1e-12);
    ck_assert_double_eq_tol(m->geom_pos[3 * blade + 1], .1, 1e-12);
    ck_assert_double_eq_tol(m->geom_pos[3 * blade + 2], .1, 1e-12);
    int tip = cs_name2id(m, "site", "k_tip");
    ck_assert_int_eq(m->site_bodyid[tip], arm);
    ck_assert_double_eq_tol(m->site_pos[3 * tip + 1], .2, 1e-12);
    /* the rack's block: the rack frame at the <attach>'s frame, the block in it */
    int b = cs_name2id_body(m, "r_block");
    ck_assert_int_eq(m->body_parent[b], 0);
    ck_assert_double_eq_tol(m->body_pos[3 * b + 0], .5, 1e-12);
    ck_assert_double_eq_tol(m->body_pos[3 * b + 1], 2, 1e-12);
    ck_assert_double_eq_tol(m->body_pos[3 * b + 2], 1, 1e-12);
    cs_free_model(m);
}
END_TEST

START_TEST(option_conflicts)
{
    const char *fmt = "<mujoco><compiler conflict='%s'/>"
                      "<option timestep='0.004' iterations='60'/>"
                      "<asset><model name='b' file='parts/options_model.xml'/></asset>"
                      "<worldbody><attach model='b' body='ball' prefix='b_'/></worldbody></mujoco>";
    char xml[1024];
    snprintf(xml, sizeof xml, fmt, "warning");
    cs_model *m = load(xml);
    ck_assert_double_eq(m->opt.timestep, 0.004);
    ck_assert_int_eq(m->opt.iterations, 60);
    ck_assert_double_eq(m->opt.gravity[2], -9.81);
    ck_assert_int_eq(m->opt.disableflags & CS_DSBL_DAMPER, 0);
    cs_free_model(m);
    snprintf(xml, sizeof xml, fmt, "merge");
    m = load(xml);
    ck_assert_double_eq(m->opt.timestep, 0.001);
    ck_assert_int_eq(m->opt.iterations, 120);
    ck_assert_double_eq(m->opt.gravity[2], -5);
    ck_assert_int_ne(m->opt.disableflags & CS_DSBL_DAMPER, 0);
    cs_free_model(m);
    snprintf(xml, sizeof xml, fmt, "error");
    refused(xml, "attach_test.xml:1: element <attach>: conflict");
    refused(xml, "timestep: parent has 0.004, child has 0.001");
}
END_TEST

START_TEST(bad_input)
{
    const char *asset = "<mujoco><asset><model name='arm' file='parts/arm_model.xml'/></asset>\n";
    char xml[1024];
    snprintf(xml, sizeof xml, "%s<worldbody><attach model='leg' body='base' prefix='a'/>"
             "</worldbody></mujoco>", asset);
    refused(xml, "attach_test.xml:2: element <attach> attribute 'model': could not find model 'leg'");
    snprintf(xml, sizeof xml, "%s<worldbody><attach model='arm' body='foot' prefix='a'/>"
             "</worldbody></mujoco>", asset);
    refused(xml, "attach_test.xml:2: element <attach> attribute 'body': could not find body 'foot'");
    snprintf(xml, sizeof xml, "%s<worldbody><attach model='arm' body='base' prefix='a'/>\n"
             "<attach model='arm' body='base' prefix='a'/></worldbody></mujoco>", asset);
    refused(xml, "attach_test.xml:3: element <attach> attribute 'prefix': cannot attach");
    snprintf(xml, sizeof xml, "%s<worldbody><attach model='arm' body='base'/>"
             "</worldbody></mujoco>", asset);
    refused(xml, "attach_test.xml:2: element <attach> attribute 'prefix': required");
    snprintf(xml, sizeof xml, "%s<worldbody><body name='b'><attach body='b' prefix='a'/></body>"
             "</worldbody></mujoco>", asset);
    refused(xml, "attach_test.xml:2: element <attach> attribute 'body': cannot self-attach body "
                 "'b' inside itself");
    refused("<mujoco>\n<asset><model name='m' file='parts/no_such_model.xml'/></asset></mujoco>",
            "attach_test.xml:2: element <model> attribute 'file': cannot read");
    refused("<mujoco>\n<asset><model name='m'/></asset></mujoco>",
            "attach_test.xml:2: element <model> attribute 'file': required");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mjcf_attach");
    TCase *t = tcase_create("attach");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, attached_arm_is_the_arm);
    tcase_add_test(t, attached_in_replicates);
    tcase_add_test(t, self_attach);
    tcase_add_test(t, whole_world);
    tcase_add_test(t, frames);
    tcase_add_test(t, option_conflicts);
    tcase_add_test(t, bad_input);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
