/* cs_set between steps and cs_load_xml_edit: a friction change turns a sticking box into a
 * sliding one at the acceleration Coulomb predicts, without reloading; a mass change moves
 * the contact force to the new m g and the inverse weights to 1/m; a radius change moves
 * where a ball rests; an edited size recompiles the mass from the density; bad names and
 * values are refused with a message and leave the model as it was. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conesim.h"
#include "option_table.h"

#ifndef CS_SCENES
#error "CS_SCENES (the scenes directory) must be defined by the build"
#endif

static cs_model *load(const char *name)
{
    char err[1024], path[1024];
    snprintf(path, sizeof path, "%s/%s", CS_SCENES, name);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

static void steps(const cs_model *m, cs_data *d, int n)
{
    for (int i = 0; i < n; i++) cs_step(m, d);
    ck_assert_int_lt(cs_check_finite(m, d), 0);
}

/* the box's speed along the slope (its free joint's linear velocity) */
static double speed(const cs_model *m, const cs_data *d)
{
    const double *v = d->qvel + m->jnt_dofadr[0];
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

START_TEST(test_friction_between_steps)
{
    /* tan(gamma) = 0.45 < mu = 0.5: sticks; mu = 0.3: slides with a = g (sin - mu cos) */
    cs_model *m = load("incline_stick.xml");
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    steps(m, d, 250);
    ck_assert_double_lt(speed(m, d), 0.005);
    char err[256];
    /* the contact's mu is the larger geom's: both change */
    ck_assert_int_eq(cs_set(m, "geom.slope.friction[0]", 0.3), 0);
    double mu[3] = {0.3, 0.005, 0.0001};
    ck_assert_msg(cs_setv(m, "geom.box.friction", mu, 3, err, sizeof err) == 0, "%s", err);
    double got;
    ck_assert_int_eq(cs_get(m, "geom.box.friction[0]", &got), 0);
    ck_assert_double_eq(got, 0.3);
    ck_assert_double_eq(m->geom_friction[3 * cs_name2id_geom(m, "slope")], 0.3);
    steps(m, d, 50); /* the slip builds up */
    double v0 = speed(m, d), t0 = d->time;
    steps(m, d, 250);
    double gamma = atan(0.45), a = 9.81 * (sin(gamma) - 0.3 * cos(gamma));
    double measured = (speed(m, d) - v0) / (d->time - t0);
    ck_assert_msg(fabs(measured - a) < 0.05 * a, "acceleration %g, Coulomb %g", measured, a);
    /* the same data stepped on without the change: it keeps sticking (a control) */
    cs_free_data(d);
    cs_free_model(m);
    m = load("incline_stick.xml");
    d = cs_make_data(m);
    steps(m, d, 550);
    ck_assert_double_lt(speed(m, d), 0.005);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

static double normal_sum(const cs_model *m, const cs_data *d)
{
    double s = 0, f[6];
    for (int i = 0; i < d->ncon; i++) {
        cs_contact_force(m, d, i, f);
        s += f[0];
    }
    return s;
}

START_TEST(test_mass_between_steps)
{
    cs_model *m = load("sphere_plane.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 500);
    ck_assert_double_lt(fabs(normal_sum(m, d) - 2 * 9.81), 1e-3 * 2 * 9.81);
    int b = cs_name2id_body(m, "ball");
    ck_assert_int_eq(cs_set(m, "body.ball.mass", 5), 0);
    /* a free body's translational inverse weight is 1/m (docs/contact-math.md §8) */
    ck_assert_double_lt(fabs(m->body_invweight0[2 * b] - 1.0 / 5), 1e-12);
    steps(m, d, 500);
    ck_assert_double_lt(fabs(normal_sum(m, d) - 5 * 9.81), 1e-3 * 5 * 9.81);
    /* a singular mass matrix is refused, and the mass stays */
    char err[256];
    double zero = 0;
    ck_assert_int_eq(cs_setv(m, "body.ball.mass", &zero, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "positive definite"));
    ck_assert_double_eq(m->body_mass[b], 5);
    ck_assert_double_lt(fabs(m->body_invweight0[2 * b] - 1.0 / 5), 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* values written straight into the arrays are taken by cs_watch_commit as cs_set takes them */
START_TEST(test_written_in_place)
{
    cs_model *m = load("sphere_plane.xml");
    cs_model_watch *w = cs_watch_model(m);
    ck_assert_ptr_nonnull(w);
    cs_data *d = cs_make_data(m);
    char err[256];
    int b = cs_name2id_body(m, "ball");
    ck_assert_int_eq(cs_watch_commit(m, w, err, sizeof err), 0); /* nothing written */
    m->body_mass[b] = 5;
    m->geom_friction[0] = 0.3;
    ck_assert_int_eq(cs_watch_commit(m, w, err, sizeof err), 2);
    ck_assert_double_lt(fabs(m->body_invweight0[2 * b] - 1.0 / 5), 1e-12); /* followed */
    steps(m, d, 500);
    ck_assert_double_lt(fabs(normal_sum(m, d) - 5 * 9.81), 1e-3 * 5 * 9.81);
    /* refused rows go back, the others are taken */
    m->body_mass[b] = -1;
    m->dof_damping[0] = 0.25;
    m->geom_condim[0] = 2;
    ck_assert_int_eq(cs_watch_commit(m, w, err, sizeof err), -1);
    /* the first refused in the model table's order (bodies before geoms) names itself, the
     * other is counted */
    ck_assert_msg(strstr(err, "body_mass[1] (body 'ball'): must not be negative") &&
                      strstr(err, "1 more row"), "%s", err);
    ck_assert(m->body_mass[b] == 5 && m->geom_condim[0] == 3 && m->dof_damping[0] == 0.25);
    m->body_mass[b] = 0; /* a singular mass matrix: refused, the inverse weights kept */
    ck_assert_int_eq(cs_watch_commit(m, w, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "positive definite"));
    ck_assert_double_lt(fabs(m->body_invweight0[2 * b] - 1.0 / 5), 1e-12);
    ck_assert_str_eq(cs_settable_field(0), "body_pos"); /* the model table's first settable array */
    int n = 0;
    while (cs_settable_field(n)) n++;
    ck_assert_int_gt(n, 30);
    cs_watch_free(w);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_condim_and_flags_between_steps)
{
    /* condim 3 -> 6 adds rows to the next steps: the ball still rests with f_n = m g and
     * its contact has dimension 6; with contacts disabled it falls freely, z'' = -g */
    cs_model *m = load("sphere_plane.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 300);
    ck_assert_int_eq(d->contact[0].dim, 3);
    ck_assert_int_eq(cs_set(m, "geom.sphere.condim", 6), 0);
    ck_assert_int_eq(cs_set(m, "geom.floor.condim", 6), 0);
    steps(m, d, 200);
    ck_assert_int_gt(d->ncon, 0);
    ck_assert_int_eq(d->contact[0].dim, 6);
    ck_assert_double_lt(fabs(normal_sum(m, d) - 2 * 9.81), 1e-3 * 2 * 9.81);
    ck_assert_int_eq(cs_set(m, "option.flag.contact", 0), 0);
    double z0 = d->qpos[2], v0 = d->qvel[2];
    steps(m, d, 100);
    double t = 100 * m->opt.timestep;
    ck_assert_int_eq(d->ncon, 0);
    /* semi-implicit Euler: v exact, z within one step's g h t */
    ck_assert_double_lt(fabs(d->qvel[2] - (v0 - 9.81 * t)), 1e-9);
    ck_assert_double_lt(fabs(d->qpos[2] - (z0 + v0 * t - 0.5 * 9.81 * t * t)),
                        9.81 * m->opt.timestep * t);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_radius_between_steps)
{
    cs_model *m = load("sphere_plane.xml");
    cs_data *d = cs_make_data(m);
    steps(m, d, 500);
    int g = cs_name2id_geom(m, "sphere");
    ck_assert_int_eq(cs_set(m, "geom.sphere.size[0]", 0.05), 0);
    ck_assert_double_eq(m->geom_rbound[g], 0.05);
    /* the ball falls 5 cm and rests on its new radius (less MuJoCo's rest penetration,
     * under 1 mm) */
    steps(m, d, 1000);
    double z = d->qpos[2];
    ck_assert_msg(z < 0.05 && z > 0.049, "rests at %g", z);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_options_and_refusals)
{
    cs_model *m = load("sphere_plane.xml");
    char err[256];
    double v;
    ck_assert_int_eq(cs_set(m, "option.timestep", 0.001), 0);
    ck_assert_double_eq(m->opt.timestep, 0.001);
    ck_assert_int_eq(cs_set(m, "opt.gravity[2]", -1.62), 0);
    ck_assert_double_eq(m->opt.gravity[2], -1.62);
    ck_assert_double_eq(m->opt.gravity[0], 0);
    ck_assert_int_eq(cs_set(m, "solver", CS_SOLVER_NEWTON), 0);
    ck_assert_int_eq(m->opt.solver, CS_SOLVER_NEWTON);
    ck_assert_int_eq(cs_set(m, "option.flag.warmstart", 0), 0);
    ck_assert(m->opt.disableflags & CS_DSBL_WARMSTART);
    ck_assert_int_eq(cs_get(m, "option.flag.warmstart", &v), 0);
    ck_assert_double_eq(v, 0);
    ck_assert_int_eq(cs_set_text(m, "option.cone", "pyramidal", err, sizeof err), 0);
    ck_assert_int_eq(m->opt.cone, CS_CONE_PYRAMIDAL);
    ck_assert_int_eq(cs_set_count(m, "geom.sphere.solimp"), 5);
    ck_assert_int_eq(cs_set_count(m, "joint.0.damping"), 6); /* a free joint's dofs */
    ck_assert_int_eq(cs_set(m, "joint.0.damping[3]", 0.25), 0);
    ck_assert_double_eq(m->dof_damping[3], 0.25);
    long before = m->nchange;
    struct { const char *name; double value; const char *why; } bad[] = {
        {"option.timestep", -1, "must be positive"},
        {"option.solver", 7, "solver code"},
        {"option.integrator", 4, "integrator"},
        {"geom.sphere.friction[0]", -0.1, "negative"},
        {"geom.sphere.friction", 0.1, "expects 3 values"},
        {"geom.sphere.friction[3]", 0.1, "out of range"},
        {"geom.sphere.condim", 2, "1, 3, 4 or 6"},
        {"geom.sphere.type", 2, "cannot be set"},
        {"geom.nothing.friction[0]", 1, "no geom named 'nothing'"},
        {"body.world.mass", 1, "the world body"},
        {"nbody", 3, "unknown option"},
        {"geom.sphere.size[0]", NAN, "finite"},
        {"geom.sphere.size[0]", 0, "positive"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        ck_assert_msg(cs_setv(m, bad[i].name, &bad[i].value, 1, err, sizeof err) == -1, "%s",
                      bad[i].name);
        ck_assert_msg(strstr(err, bad[i].why) != NULL, "%s: '%s'", bad[i].name, err);
        ck_assert_msg(strncmp(err, bad[i].name, strlen(bad[i].name)) == 0, "%s", err);
    }
    ck_assert_int_eq(m->nchange, before);
    ck_assert_double_eq(m->opt.timestep, 0.001);
    ck_assert_double_eq(m->geom_friction[3], 1);
    ck_assert_double_eq(m->geom_size[3], 0.1);
    cs_free_model(m);
}
END_TEST

/* The option table describes every member of cs_option: its fields, sorted by place, tile
 * the struct (a member left out leaves a hole). Every entry is set through cs_set (each
 * element) and cs_option_set (as text), reads back, and a bad value is refused with the
 * options unchanged. */
static size_t field_size(const cs_field *f)
{
    return (size_t)f->shape[0] * (f->type == CS_FIELD_INT ? sizeof(int) : sizeof(double));
}

START_TEST(test_option_table)
{
    cs_model *m = load("sphere_plane.xml");
    const char *base = (const char *)&m->opt;
    int n = 0;
    cs_field f[64];
    while (n < 64 && cs_option_field(&m->opt, n, &f[n]) == 0) n++;
    ck_assert_int_eq(n, cs_option_ndefs);
    /* sort by offset, then walk: each starts where the previous ends, up to alignment */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (char *)f[j].ptr < (char *)f[j - 1].ptr; j--) {
            cs_field t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    size_t end = 0;
    for (int i = 0; i < n; i++) {
        size_t off = (size_t)((const char *)f[i].ptr - base);
        size_t align = f[i].type == CS_FIELD_INT ? _Alignof(int) : _Alignof(double);
        ck_assert_msg(off == (end + align - 1) / align * align, "a member before %s is not in "
                      "the option table", f[i].name);
        end = off + field_size(&f[i]);
    }
    ck_assert_msg((sizeof(cs_option) - end) < _Alignof(double), "members after %s are not in "
                  "the option table", f[n - 1].name);

    char err[256], name[96], text[256];
    for (int k = 0; k < cs_option_ndefs; k++) {
        const cs_option_def *e = &cs_option_defs[k];
        cs_option before = m->opt;
        long nchange = m->nchange;
        for (int i = 0; i < e->n; i++) {
            double old, good, bad, got;
            if (e->n > 1) snprintf(name, sizeof name, "option.%s[%d]", e->name, i);
            else snprintf(name, sizeof name, "option.%s", e->name);
            ck_assert_msg(cs_get(m, name, &old) == 0, "%s", name);
            switch ((cs_option_check)e->check) {
            case CS_OPT_ANY: good = old + 0.5, bad = NAN; break;
            case CS_OPT_POSITIVE: good = old * 2, bad = 0; break;
            case CS_OPT_NONNEG: good = old + 0.25, bad = -1; break;
            case CS_OPT_COUNT: good = old + 3, bad = 1.5; break;
            case CS_OPT_BOOL: good = 1 - old, bad = 2; break;
            case CS_OPT_KEYWORD: good = old == 1 ? 0 : 1, bad = 99; break;
            case CS_OPT_BITS: good = 5, bad = -1; break;
            default: ck_abort_msg("%s: a check the test does not know", e->name);
            }
            /* refused: nothing changes */
            cs_option held = m->opt;
            err[0] = 0;
            ck_assert_msg(cs_setv(m, name, &bad, 1, err, sizeof err) == -1, "%s took %g", name,
                          bad);
            ck_assert_msg(strncmp(err, name, strlen(name)) == 0, "%s: '%s'", name, err);
            ck_assert_msg(memcmp(&held, &m->opt, sizeof held) == 0, "%s: refused but changed",
                          name);
            ck_assert_int_eq(m->nchange, nchange);
            /* taken: reads back, through cs_get and the field */
            ck_assert_msg(cs_setv(m, name, &good, 1, err, sizeof err) == 0, "%s: %s", name, err);
            ck_assert_int_eq(m->nchange, ++nchange);
            ck_assert_int_eq(cs_get(m, name, &got), 0);
            ck_assert_msg(got == good, "%s: set %g, read %g", name, good, got);
            double v[CS_OPTION_MAXN];
            cs_option_get(&m->opt, e, v);
            ck_assert(v[i] == good);
        }
        /* as text, every value at once: back to where it was */
        double v[CS_OPTION_MAXN];
        cs_option_get(&before, e, v);
        size_t w = 0;
        for (int i = 0; i < e->n; i++)
            w += (size_t)snprintf(text + w, sizeof text - w, "%s%.17g", i ? " " : "", v[i]);
        ck_assert_msg(cs_option_set(&m->opt, e->name, text, err, sizeof err) == 0, "%s: %s",
                      e->name, err);
        ck_assert_msg(memcmp(&before, &m->opt, sizeof before) == 0, "%s: text did not restore",
                      e->name);
        /* the wrong number of values is refused */
        snprintf(text + w, sizeof text - w, " 1");
        ck_assert_int_eq(cs_option_set(&m->opt, e->name, text, err, sizeof err), -1);
        ck_assert(memcmp(&before, &m->opt, sizeof before) == 0);
    }
    cs_free_model(m);
}
END_TEST

/* Every table entry marked as an MJCF <option> attribute is read by the loader under that
 * name: a scene setting each to a value other than its default loads with those values. */
START_TEST(test_option_table_is_the_loaders)
{
    char xml[4096], err[1024];
    double want[64][CS_OPTION_MAXN];
    size_t w = (size_t)snprintf(xml, sizeof xml, "<mujoco><option");
    for (int k = 0; k < cs_option_ndefs; k++) {
        const cs_option_def *e = &cs_option_defs[k];
        if (!e->mjcf) continue;
        w += (size_t)snprintf(xml + w, sizeof xml - w, " %s=\"", e->name);
        for (int i = 0; i < e->n; i++) {
            double v;
            switch ((cs_option_check)e->check) {
            case CS_OPT_POSITIVE: v = 0.0125; break;
            case CS_OPT_NONNEG: v = 0.25; break;
            case CS_OPT_COUNT: v = 7; break;
            case CS_OPT_KEYWORD: v = 1; break; /* the second word */
            default: v = 0.5 + i; break;
            }
            want[k][i] = v;
            if (e->check == CS_OPT_KEYWORD) {
                const char *bar = strchr(e->words, '|');
                w += (size_t)snprintf(xml + w, sizeof xml - w, "%.*s", (int)strcspn(bar + 1, "|"),
                                      bar + 1);
            } else {
                w += (size_t)snprintf(xml + w, sizeof xml - w, "%s%.17g", i ? " " : "", v);
            }
        }
        w += (size_t)snprintf(xml + w, sizeof xml - w, "\"");
    }
    snprintf(xml + w, sizeof xml - w, "/><worldbody><body><freejoint/><geom size=\"0.1\"/>"
                                      "</body></worldbody></mujoco>");
    ck_assert_uint_lt(w, sizeof xml - 200);
    cs_model *m = cs_load_xml_string(xml, "options.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s\n%s", err, xml);
    for (int k = 0; k < cs_option_ndefs; k++) {
        const cs_option_def *e = &cs_option_defs[k];
        if (!e->mjcf) continue;
        double v[CS_OPTION_MAXN];
        cs_option_get(&m->opt, e, v);
        for (int i = 0; i < e->n; i++)
            ck_assert_msg(v[i] == want[k][i], "<option %s>: loaded %g, the file says %g",
                          e->name, v[i], want[k][i]);
    }
    cs_free_model(m);
}
END_TEST

/* A viscosity set after the data is made acts at the next step (the data has the room its
 * Jacobians need whatever the options were). */
START_TEST(test_viscosity_between_steps)
{
    cs_model *m = load("sphere_plane.xml");
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    steps(m, d, 50);
    ck_assert_int_eq(cs_set(m, "option.viscosity", 2), 0);
    ck_assert_int_eq(cs_set(m, "option.wind[0]", 5), 0);
    ck_assert_double_eq(m->opt.wind[0], 5);
    steps(m, d, 100);
    ck_assert_double_gt(d->qvel[m->jnt_dofadr[0]], 0.01); /* the wind pushes along x */
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_edit_recompiles)
{
    /* a box of density 1000 with half-sizes a, 0.1, 0.1: mass 1000 * 8 a * 0.01 */
    const char *xml =
        "<mujoco><worldbody><geom type=\"plane\" size=\"1 1 0.1\"/>"
        "<body name=\"b\" pos=\"0 0 1\"><freejoint/>"
        "<geom name=\"g\" type=\"box\" size=\"0.1 0.1 0.1\" density=\"1000\"/></body>"
        "</worldbody></mujoco>";
    char path[] = "/tmp/cs_edit_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(xml, f);
    fclose(f);
    char err[1024];
    const char *names[] = {"geom.g.size[0]", "body.b.pos[2]", "mjcf.body.b.euler"};
    const char *values[] = {"0.25", "2", "0 0 90"};
    cs_model *m = cs_load_xml_edit(path, 3, names, values, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_lt(fabs(m->body_mass[1] - 1000 * 8 * 0.25 * 0.1 * 0.1), 1e-9);
    ck_assert_double_eq(m->qpos0[2], 2);
    /* 90 degrees about z: quaternion (cos 45, 0, 0, sin 45) */
    ck_assert_double_lt(fabs(m->qpos0[3] - sqrt(0.5)), 1e-12);
    ck_assert_double_lt(fabs(m->qpos0[6] - sqrt(0.5)), 1e-12);
    cs_free_model(m);
    const char *bn[] = {"geom.none.size[0]"}, *bv[] = {"1"};
    errno = 0;
    ck_assert_ptr_null(cs_load_xml_edit(path, 1, bn, bv, NULL, err, sizeof err));
    ck_assert_int_eq(errno, ESRCH);
    ck_assert_ptr_nonnull(strstr(err, "no <geom name=\"none\">"));
    const char *in[] = {"geom.g.size[5]"};
    ck_assert_ptr_null(cs_load_xml_edit(path, 1, in, bv, NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "out of range"));
    const char *neg[] = {"geom.g.size[0]"}, *nv[] = {"-1"};
    ck_assert_ptr_null(cs_load_xml_edit(path, 1, neg, nv, NULL, err, sizeof err));
    ck_assert_int_eq(errno, EINVAL); /* the loader's own check, with the line */
    ck_assert_ptr_nonnull(strstr(err, ":1: element <geom> attribute 'size'"));
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("setter");
    TCase *tc = tcase_create("setter");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_friction_between_steps);
    tcase_add_test(tc, test_mass_between_steps);
    tcase_add_test(tc, test_written_in_place);
    tcase_add_test(tc, test_radius_between_steps);
    tcase_add_test(tc, test_condim_and_flags_between_steps);
    tcase_add_test(tc, test_options_and_refusals);
    tcase_add_test(tc, test_edit_recompiles);
    tcase_add_test(tc, test_option_table);
    tcase_add_test(tc, test_option_table_is_the_loaders);
    tcase_add_test(tc, test_viscosity_between_steps);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
