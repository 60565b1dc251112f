/* Sensors, physical facts: touch and the contact sensor under a resting sphere read its
 * weight, an accelerometer at rest reads +g up and 0 in free fall, a force sensor holds the
 * subtree's weight, joint, frame and clock sensors read the state they name, kinetic and
 * potential energy are the closed forms, a rangefinder reads the height above a plane, the
 * cutoff clamps, the sensor flag freezes sensordata, a step with every kind allocates
 * nothing, and the loader's errors name the line. (MuJoCo's own values on every kind:
 * tests/oracle/sensors.mjs.) */
#include <check.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "conesim.h"
#include "scene_util.h"

static const double G = 9.81;

static const double *sensor(const cs_model *m, const cs_data *d, const char *name)
{
    int i = cs_name2id(m, "sensor", name);
    ck_assert_msg(i >= 0, "no sensor %s", name);
    return d->sensordata + m->sensor_adr[i];
}

/* a 2 kg sphere (radius 0.1) resting on a plane, sensors on it */
static const char *RESTING =
    "<mujoco><option timestep='0.002'/><worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"
    "<body pos='3 0 0.7'><site name='high' quat='0 1 0 0'/><site name='up'/></body>"
    "<body name='ball' pos='0 0 0.1'><freejoint/><geom name='g' size='0.1' mass='2'/>"
    "<site name='zone' type='box' size='0.2 0.2 0.2'/><site name='imu' pos='0.05 0 0'/>"
    "<site name='below' pos='0 0 0.05' quat='0 1 0 0'/></body></worldbody>"
    "<sensor><touch name='touch' site='zone'/><accelerometer name='acc' site='imu'/>"
    "<contact name='con' body1='ball' data='found force normal'/>"
    "<contact name='net' geom2='g' data='found force' reduce='netforce'/>"
    "<rangefinder name='range' site='high'/><rangefinder name='sky' site='up'/>"
    "<rangefinder name='own' site='below' data='dist point normal'/>"
    "<touch name='capped' site='zone' cutoff='5'/>"
    "<framelinacc name='lacc' objtype='body' objname='ball'/>"
    "</sensor></mujoco>";

START_TEST(test_resting_sphere)
{
    cs_model *m = load_xml(RESTING, "resting.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 1500); /* settled */
    cs_forward(m, d);
    double W = 2 * G;
    printf("report: touch %.12g N (weight %.12g), accelerometer z %.12g\n",
           sensor(m, d, "touch")[0], W, sensor(m, d, "acc")[2]);
    ck_assert_double_eq_tol(sensor(m, d, "touch")[0], W, 1e-6 * W);
    ck_assert_double_eq(sensor(m, d, "capped")[0], 5);
    /* at rest the accelerometer reads the support's +g, up (the site is not rotated) */
    const double *a = sensor(m, d, "acc");
    ck_assert_double_eq_tol(a[0], 0, 1e-6);
    ck_assert_double_eq_tol(a[1], 0, 1e-6);
    ck_assert_double_eq_tol(a[2], G, 1e-6);
    ck_assert_double_eq_tol(sensor(m, d, "lacc")[2], G, 1e-6);
    /* one contact with the floor: its normal force in the contact frame is the weight; the
     * normal points away from the ball (the first object), down */
    const double *c = sensor(m, d, "con");
    ck_assert_double_eq(c[0], 1);
    ck_assert_double_eq_tol(c[1], W, 1e-6 * W);
    ck_assert_double_eq_tol(c[6], -1, 1e-9);
    /* netforce: the floor's push on the ball, world frame, up */
    const double *n = sensor(m, d, "net");
    ck_assert_double_eq(n[0], 1);
    ck_assert_double_eq_tol(n[3], W, 1e-6 * W);
    /* a rangefinder 0.7 m above the plane, looking down; one looking up sees nothing */
    ck_assert_double_eq_tol(sensor(m, d, "range")[0], 0.7, 1e-12);
    ck_assert_double_eq(sensor(m, d, "sky")[0], -1);
    /* inside the ball, looking down: its own geom is excluded, the floor is hit */
    const double *o = sensor(m, d, "own");
    int below = cs_name2id(m, "site", "below");
    double z = d->site_xpos[3 * below + 2] / -d->site_xmat[9 * below + 8];
    ck_assert_double_eq_tol(o[0], z, 1e-12);
    ck_assert_double_eq_tol(o[3], 0, 1e-12);
    ck_assert_double_eq_tol(o[6], 1, 1e-12); /* the plane's normal */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* a body falling freely: the accelerometer and framelinacc read 0 (gravity is not felt) */
START_TEST(test_free_fall)
{
    cs_model *m = load_xml(
        "<mujoco><worldbody><body pos='0 0 5'><freejoint/><geom size='0.1'/>"
        "<site name='s' euler='20 30 40'/></body></worldbody><sensor>"
        "<accelerometer name='acc' site='s'/><framelinacc name='la' objtype='site' objname='s'/>"
        "<frameangacc name='aa' objtype='site' objname='s'/><gyro name='gyro' site='s'/>"
        "</sensor><keyframe><key qvel='0 0 0 0.3 -0.2 0.5'/></keyframe></mujoco>",
        "fall.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    steps(m, d, 10);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(sensor(m, d, "acc")[k], 0, 1e-9);
        ck_assert_double_eq_tol(sensor(m, d, "la")[k], 0, 1e-9);
    }
    /* a sphere's angular velocity is constant: no angular acceleration; the gyro reads it in
     * the site's frame, so its length is the body's rate */
    double w2 = 0, g2 = 0;
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(sensor(m, d, "aa")[k], 0, 1e-9);
        w2 += d->qvel[3 + k] * d->qvel[3 + k];
        g2 += sensor(m, d, "gyro")[k] * sensor(m, d, "gyro")[k];
    }
    ck_assert_double_eq_tol(sqrt(g2), sqrt(w2), 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* two bodies held at rest by a stiff slide limit: the force sensor at the rod's end
 * carries the weight of the subtree below it (1 kg + 0.5 kg), up; the torque about a site
 * off the centre of mass is r x F */
START_TEST(test_force_torque)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 -9.81'/><worldbody><body name='a' pos='0 0 1'>"
        "<joint name='z' type='slide' axis='0 0 1' range='0 1' limited='true' solreflimit='0.002 1'/>"
        "<geom size='0.05' mass='1'/><site name='top'/><site name='side' pos='0.3 0 0'/>"
        "<body pos='0 0 -0.5'><geom size='0.05' mass='0.5'/><site name='low'/></body></body>"
        "</worldbody><sensor><force name='f' site='top'/><torque name='t' site='side'/>"
        "<force name='flow' site='low'/><jointlimitfrc name='lim' joint='z'/></sensor></mujoco>",
        "hang.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 2000);
    cs_forward(m, d);
    const double *f = sensor(m, d, "f"), *t = sensor(m, d, "t"), *fl = sensor(m, d, "flow");
    printf("report: force at the top %.12g N (1.5 g = %.12g), below %.12g N\n", f[2], 1.5 * G,
           fl[2]);
    ck_assert_double_eq_tol(f[0], 0, 1e-9);
    ck_assert_double_eq_tol(f[2], 1.5 * G, 1e-6);
    ck_assert_double_eq_tol(fl[2], 0.5 * G, 1e-6);
    /* the subtree's centre of mass is under 'top', 0.3 m from 'side': (-0.3, 0, 0) x F */
    ck_assert_double_eq_tol(t[1], 0.3 * 1.5 * G, 1e-6);
    ck_assert_double_eq_tol(sensor(m, d, "lim")[0], 1.5 * G, 1e-4);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* joint, frame, subtree, clock, energy and magnetometer sensors read what they name */
START_TEST(test_state_sensors)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 -9.81' magnetic='0.2 -0.3 0.4'/><worldbody>"
        "<body name='arm' pos='0 0 1'><joint name='h' axis='0 1 0'/>"
        "<geom type='capsule' fromto='0 0 0 0.4 0 0' size='0.03' mass='1'/>"
        "<site name='tip' pos='0.4 0 0' euler='0 30 0'/>"
        "<body name='fore' pos='0.4 0 0'><joint name='b' type='ball'/><geom size='0.05' "
        "mass='0.5' pos='0.1 0 0'/></body></body>"
        "<body name='free' pos='2 0 2'><freejoint/><inertial pos='0 0 0' mass='3' "
        "diaginertia='0.1 0.2 0.3'/><geom size='0.1' contype='0' conaffinity='0'/></body>"
        "<body name='shelf' pos='0 1 0.5'><geom type='box' size='0.1 0.1 0.1' mass='2' "
        "contype='0' conaffinity='0'/></body>"
        "</worldbody><sensor><jointpos name='q' joint='h'/><jointvel name='v' joint='h'/>"
        "<ballquat name='bq' joint='b'/><ballangvel name='bw' joint='b'/>"
        "<framepos name='xb' objtype='xbody' objname='fore'/>"
        "<framepos name='ib' objtype='body' objname='fore'/>"
        "<framequat name='fq' objtype='xbody' objname='fore'/>"
        "<subtreecom name='com' body='arm'/><clock name='t'/>"
        "<magnetometer name='mag' site='tip'/><e_kinetic name='ek'/><e_potential name='ep'/>"
        "<jointpos name='qc' joint='h' cutoff='0.05'/></sensor>"
        "<keyframe><key qpos='0.3 0.9 0.1 0.2 0.3 2 0 2 1 0 0 0' "
        "qvel='1.5 0.2 -0.4 0.3 0.5 -1 2 0.7 -0.2 0.4'/></keyframe></mujoco>",
        "state.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    steps(m, d, 7);
    cs_forward(m, d);
    ck_assert_double_eq(sensor(m, d, "q")[0], d->qpos[0]);
    ck_assert_double_eq(sensor(m, d, "v")[0], d->qvel[0]);
    ck_assert_double_eq(sensor(m, d, "qc")[0], fmin(d->qpos[0], 0.05));
    ck_assert_double_eq(sensor(m, d, "qc")[0], 0.05);
    double qn = 0;
    for (int k = 0; k < 4; k++) qn += d->qpos[1 + k] * d->qpos[1 + k];
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq_tol(sensor(m, d, "bq")[k], d->qpos[1 + k] / sqrt(qn), 1e-15);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq(sensor(m, d, "bw")[k], d->qvel[1 + k]);
        ck_assert_double_eq(sensor(m, d, "xb")[k], d->xpos[3 * 2 + k]);
        ck_assert_double_eq(sensor(m, d, "ib")[k], d->xipos[3 * 2 + k]);
    }
    for (int k = 0; k < 4; k++) ck_assert_double_eq(sensor(m, d, "fq")[k], d->xquat[4 * 2 + k]);
    ck_assert_double_eq(sensor(m, d, "t")[0], d->time);
    /* the subtree's centre of mass: mass-weighted */
    for (int k = 0; k < 3; k++) {
        double c = (1 * d->xipos[3 + k] + 0.5 * d->xipos[6 + k]) / 1.5;
        ck_assert_double_eq_tol(sensor(m, d, "com")[k], c, 1e-15);
    }
    /* the magnetic field in the site's frame has the field's length */
    double b2 = 0;
    for (int k = 0; k < 3; k++) b2 += sensor(m, d, "mag")[k] * sensor(m, d, "mag")[k];
    ck_assert_double_eq_tol(sqrt(b2), sqrt(0.04 + 0.09 + 0.16), 1e-14);
    /* energy: 0.5 qvel' M qvel, and -sum m g . x over every body, static ones too (MuJoCo's) */
    double Mv[10], ek = 0, ep = 0;
    cs_mul_M(m, d, Mv, d->qvel);
    for (int i = 0; i < m->nv; i++) ek += 0.5 * Mv[i] * d->qvel[i];
    for (int b = 1; b < m->nbody; b++) ep += m->body_mass[b] * G * d->xipos[3 * b + 2];
    ck_assert_double_eq_tol(sensor(m, d, "ek")[0], ek, 1e-12 * ek);
    ck_assert_double_eq_tol(sensor(m, d, "ep")[0], ep, 1e-12 * fabs(ep));
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the free body alone: kinetic energy 0.5 m v^2 + 0.5 w' I w, closed form */
START_TEST(test_kinetic_closed_form)
{
    cs_model *m = load_xml(
        "<mujoco><option gravity='0 0 0'/><worldbody><body><freejoint/><inertial pos='0 0 0' "
        "mass='3' diaginertia='0.1 0.2 0.3'/></body></worldbody><sensor><e_kinetic name='ek'/>"
        "</sensor><keyframe><key qvel='1 2 -0.5 0.3 -0.7 1.1'/></keyframe></mujoco>",
        "free.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    cs_forward(m, d);
    double e = 0.5 * 3 * (1 + 4 + 0.25) + 0.5 * (0.1 * 0.09 + 0.2 * 0.49 + 0.3 * 1.21);
    ck_assert_double_eq_tol(sensor(m, d, "ek")[0], e, 1e-14);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* <flag sensor="disable">: sensordata keeps its values */
START_TEST(test_sensor_flag)
{
    cs_model *m = load_xml("<mujoco><option><flag sensor='disable'/></option><worldbody><body>"
                           "<joint name='j' type='slide'/><geom size='0.1'/></body></worldbody>"
                           "<sensor><clock/><jointvel joint='j'/></sensor></mujoco>",
                           "flag.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 5);
    ck_assert_double_eq(d->sensordata[0], 0);
    ck_assert_double_eq(d->sensordata[1], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* the scene with every kind: sizes, names, and a step that allocates nothing */
START_TEST(test_every_kind)
{
    char err[512];
    cs_model *m = cs_load_xml(CS_TESTDATA "/sensors.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_gt(m->nsensor, 60);
    int total = 0;
    for (int i = 0; i < m->nsensor; i++) {
        ck_assert_int_eq(m->sensor_adr[i], total);
        total += m->sensor_dim[i];
    }
    ck_assert_int_eq(total, m->nsensordata);
    ck_assert_int_eq(m->nuser_sensor, 3);
    int cut = cs_name2id(m, "sensor", "jpos_cut");
    ck_assert_double_eq(m->sensor_user[cut * m->nuser_sensor + 2], 3);
    ck_assert_double_eq(m->sensor_noise[cut], 0.01);
    ck_assert_str_eq(cs_id2name(m, "sensor", cut), "jpos_cut");
    ck_assert_int_eq(m->sensor_dim[cs_name2id(m, "sensor", "con_floor")], 17 * 3);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    steps(m, d, 20);
    long before = alloc_count; /* cs_step alone: Check's assertions allocate */
    for (int k = 0; k < 50; k++) cs_step(m, d);
    ck_assert_int_eq(alloc_count, before);
    for (int i = 0; i < m->nsensordata; i++) ck_assert(isfinite(d->sensordata[i]));
    /* a copied model has the sensors, names included, and reads the same values */
    cs_model *m2 = cs_copy_model(m);
    ck_assert_ptr_nonnull(m2);
    ck_assert_int_eq(cs_name2id(m2, "sensor", "jpos_cut"), cut);
    cs_data *d2 = cs_copy_data(m2, d);
    ck_assert_ptr_nonnull(d2);
    cs_step(m, d);
    cs_step(m2, d2);
    ck_assert_mem_eq(d->sensordata, d2->sensordata, (size_t)m->nsensordata * sizeof(double));
    cs_free_data(d2);
    cs_free_model(m2);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* bad sensors: FILE:LINE: what is wrong */
static void bad(const char *sensors, const char *want)
{
    char xml[2048], err[512];
    snprintf(xml, sizeof xml,
             "<mujoco><worldbody><site name='s'/><body name='b'><joint name='ball' "
             "type='ball'/><joint name='h'/><geom name='g' size='0.1'/><site name='bs'/>"
             "</body></worldbody>\n<sensor>\n%s\n</sensor></mujoco>",
             sensors);
    cs_model *m = cs_load_xml_string(xml, "bad.xml", NULL, err, sizeof err);
    ck_assert_msg(m == NULL, "loaded: %s", sensors);
    ck_assert_msg(strstr(err, "bad.xml:3:") && strstr(err, want), "'%s' for %s", err, sensors);
}

/* a camera with a targeting mode but no target stays where its body puts it (MuJoCo takes
 * such a camera): its frame sensors read the body's placement of it */
START_TEST(test_camera_untargeted)
{
    cs_model *m = load_xml(
        "<mujoco><worldbody><body pos='0.3 0 1' euler='0 0 90'><joint axis='0 0 1'/>"
        "<geom size='0.1'/><camera name='c' pos='0.2 0 0' mode='targetbody'/></body>"
        "</worldbody><sensor><framepos objtype='camera' objname='c'/></sensor></mujoco>",
        "untargeted.xml");
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->sensordata[0], 0.3, 1e-15);
    ck_assert_double_eq_tol(d->sensordata[1], 0.2, 1e-15);
    ck_assert_double_eq_tol(d->sensordata[2], 1, 1e-15);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* rangefinders on cameras 1.5 m above a plane, looking straight down (MuJoCo's depth
 * images): a perspective camera's rays leave its centre, each at the angle its pixel
 * centre makes with the axis, so every depth is the height and the distance the height over
 * the cosine; an orthographic one's rays are parallel, from points spread over fovy (a
 * length) both ways, all of length the height. The class default gives both cameras their
 * resolution. */
START_TEST(test_camera_rangefinder)
{
    cs_model *m = load_xml(
        "<mujoco><default><camera resolution='3 2'/></default><worldbody>"
        "<geom type='plane' size='5 5 0.1'/>"
        "<body pos='0.2 0.1 1.5' mocap='true'><geom type='box' size='.05 .05 .05' pos='0 0 .2'/>"
        "<camera name='p' fovy='60'/></body>"
        "<body pos='-1 0 1.5' mocap='true'><camera name='o' projection='orthographic' "
        "fovy='0.8'/></body></worldbody>"
        "<sensor><rangefinder camera='p' data='dist point depth'/>"
        "<rangefinder camera='o' data='dist origin'/></sensor></mujoco>",
        "depthcam.xml");
    ck_assert_int_eq(m->cam_projection[1], CS_PROJ_ORTHOGRAPHIC);
    ck_assert_int_eq(m->cam_resolution[0], 3);
    ck_assert_int_eq(m->sensor_dim[0], 6 * 5);
    ck_assert_int_eq(m->sensor_dim[1], 6 * 4);
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    const double *p = d->sensordata + m->sensor_adr[0], *o = d->sensordata + m->sensor_adr[1];
    double f = 0.5 / tan(60 * M_PI / 360) * 2; /* focal length in pixels: image height 2 */
    for (int row = 0; row < 2; row++)
        for (int col = 0; col < 3; col++) {
            const double *v = p + 5 * (row * 3 + col);
            double px = col + 0.5 - 1.5, py = row + 0.5 - 1;
            double cosine = 1 / sqrt(1 + (px * px + py * py) / (f * f));
            ck_assert_double_eq_tol(v[0], 1.5 / cosine, 1e-12);
            ck_assert_double_eq_tol(v[4], 1.5, 1e-12);
            ck_assert_double_eq_tol(v[3], 0, 1e-12); /* the point is on the plane */
            ck_assert_double_eq_tol(v[1], 0.2 + 1.5 * px / f, 1e-12); /* image x is world x */
            ck_assert_double_eq_tol(v[2], 0.1 - 1.5 * py / f, 1e-12); /* rows go down in y */
            const double *u = o + 4 * (row * 3 + col);
            ck_assert_double_eq_tol(u[0], 1.5, 1e-12);
            ck_assert_double_eq_tol(u[1], -1 + px / 1.5 * 0.4, 1e-12);
            ck_assert_double_eq_tol(u[2], -py / 1 * 0.4, 1e-12);
            ck_assert_double_eq_tol(u[3], 1.5, 1e-12);
        }
    cs_free_data(d);
    cs_free_model(m);
    char err[512];
    m = cs_load_xml_string("<mujoco><worldbody><site name='s'/><camera name='c'/></worldbody>"
                           "<sensor><rangefinder site='s' camera='c'/></sensor></mujoco>",
                           "both.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(err, "both.xml:1:"));
    m = cs_load_xml_string("<mujoco><worldbody><camera name='c' projection='orthographic' "
                           "fovy='-1'/></worldbody></mujoco>", "ortho.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(err, "fovy"));
}
END_TEST

START_TEST(test_loader_errors)
{
    bad("<gps site='s'/>", "unknown sensor kind");
    bad("<touch site='nosuch'/>", "no site named 'nosuch'");
    bad("<touch/>", "required attribute missing");
    bad("<jointpos joint='ball'/>", "slide or hinge");
    bad("<ballquat joint='h'/>", "must be ball");
    bad("<jointlimitpos joint='h'/>", "limited");
    bad("<framepos objtype='camera' objname='c'/>", "no camera named 'c'");
    bad("<framepos objtype='geom' objname='s'/>", "no geom named 's'");
    bad("<framepos objtype='thing' objname='s'/>", "unknown value");
    bad("<framexaxis objtype='site' objname='s' cutoff='1'/>", "cutoff");
    bad("<contact data='force found'/>", "in order");
    bad("<contact num='0'/>", "positive");
    bad("<distance geom1='g' geom2='g'/>", "different");
    bad("<touch site='s' noise='-1'/>", "negative noise");
    bad("<touch site='s' delay='0.01'/>", "delay > 0 without a history buffer");
    bad("<camprojection site='s' camera='c'/>", "attribute 'camera': no camera named 'c'");
    bad("<touch name='x' site='s'/><clock name='x'/>", "duplicate sensor name");
    bad("<touch site='s' colour='red'/>", "unknown or unsupported attribute");
    /* <size nuser_sensor> bounds user (without it, the longest sets the width) */
    char err[512];
    cs_model *m = cs_load_xml_string("<mujoco><size nuser_sensor='1'/><sensor><clock user='1 2'/>"
                                     "</sensor></mujoco>", "user.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err, "more values than nuser_sensor"), "%s", err);
    m = cs_load_xml_string("<mujoco><size nuser_sensor='4'/><sensor><clock user='1 2'/>"
                           "</sensor></mujoco>", "user.xml", NULL, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->nuser_sensor, 4);
    ck_assert_double_eq(m->sensor_user[1], 2);
    ck_assert_double_eq(m->sensor_user[3], 0);
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sensors");
    TCase *tc = tcase_create("sensors");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_resting_sphere);
    tcase_add_test(tc, test_free_fall);
    tcase_add_test(tc, test_force_torque);
    tcase_add_test(tc, test_state_sensors);
    tcase_add_test(tc, test_kinetic_closed_form);
    tcase_add_test(tc, test_sensor_flag);
    tcase_add_test(tc, test_every_kind);
    tcase_add_test(tc, test_loader_errors);
    tcase_add_test(tc, test_camera_untargeted);
    tcase_add_test(tc, test_camera_rangefinder);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? 1 : 0;
}
