/* vis/view_adapter.c without GL: what `conesim view` hands to render/ from a model and
 * its data (geoms, contacts, HUD), the perturbation force, reset, divergence, replay. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "conesim.h"
#include "render.h"
#include "view_adapter.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static cs_model *load_scene(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", CS_SCENES, name);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

static cs_model *load_data_file(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", CS_TEST_DATA, name);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

static cs_model *load_string(const char *xml)
{
    char err[1024];
    cs_model *m = cs_load_xml_string(xml, "test.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

typedef struct {
    cs_model *m;
    cs_data *d;
    cs_view v;
    cs_render_scene s;
} fixture;

static void setup(fixture *f, cs_model *m, int key)
{
    f->m = m;
    f->d = cs_make_data(m);
    ck_assert_ptr_nonnull(f->d);
    if (key >= 0) ck_assert_int_eq(cs_reset_key(m, f->d, key), 0);
    ck_assert_int_eq(cs_view_init(&f->v, m, f->d, key), 0);
    cs_render_scene_init(&f->s);
}

static void teardown(fixture *f)
{
    cs_view_free(&f->v);
    cs_free_data(f->d);
    cs_free_model(f->m);
}

START_TEST(geoms_in_model_order)
{
    fixture f;
    setup(&f, load_scene("box_stack.xml"), -1);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.ngeom, f.m->ngeom);
    ck_assert_int_eq(f.s.ngeom, 4);
    for (int g = 0; g < f.m->ngeom; g++) {
        const cs_render_geom *o = &f.s.geoms[g];
        ck_assert_int_eq(o->type, f.m->geom_type[g]);
        ck_assert_int_eq(o->body, f.m->geom_body[g]);
        for (int k = 0; k < 3; k++) {
            ck_assert_double_eq(o->size[k], f.m->geom_size[3 * g + k]);
            ck_assert_double_eq(o->pose.pos[k], f.d->geom_xpose[g].pos[k]);
        }
        for (int k = 0; k < 9; k++) ck_assert_double_eq(o->pose.mat[k], f.d->geom_xpose[g].mat[k]);
        for (int k = 0; k < 4; k++)
            ck_assert_float_eq(o->rgba[k], (float)f.m->geom_rgba[4 * g + k]);
    }
    /* The scene as written: floor first, then box1..box3 stacked at z = 0.1, 0.3, 0.5. */
    ck_assert_int_eq(f.s.geoms[0].type, CS_GEOM_PLANE);
    ck_assert_int_eq(f.s.geoms[0].body, 0);
    for (int i = 1; i <= 3; i++) {
        ck_assert_int_eq(f.s.geoms[i].type, CS_GEOM_BOX);
        ck_assert_double_eq_tol(f.s.geoms[i].pose.pos[2], 0.2 * i - 0.1, 1e-12);
    }
    ck_assert_float_eq_tol(f.s.geoms[1].rgba[0], 0.9f, 1e-6f);
    ck_assert_float_eq_tol(f.s.geoms[3].rgba[2], 0.9f, 1e-6f);
    teardown(&f);
}
END_TEST

START_TEST(hidden_groups_are_not_drawn)
{
    fixture f;
    setup(&f, load_string("<mujoco><worldbody><geom type='plane' size='1 1 0.1'/>"
                          "<body pos='0 0 1'><freejoint/><geom type='sphere' size='0.1'/>"
                          "<geom type='box' size='0.1 0.1 0.1' group='3'/></body>"
                          "</worldbody></mujoco>"), -1);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.ngeom, 3); /* indices stay the model's */
    ck_assert_float_gt(f.s.geoms[1].rgba[3], 0);
    ck_assert_float_eq(f.s.geoms[2].rgba[3], 0); /* MuJoCo hides groups 3..5 */
    teardown(&f);
}
END_TEST

/* A height field is drawn as its mesh: every grid point on the surface (elevation x data),
 * the same on the base, the cells' triangles, sides and base; closed and wound outwards
 * (each edge shared by two triangles, once each way; the top's normals up) */
START_TEST(hfield_is_a_closed_mesh)
{
    fixture f;
    setup(&f, load_string("<mujoco><asset><hfield name='h' nrow='3' ncol='4' size='1 0.5 0.2 0.1' "
                          "elevation='0 1 2 3  1 2 3 4  4 3 2 1'/></asset><worldbody>"
                          "<geom type='hfield' hfield='h' pos='0 0 1'/></worldbody></mujoco>"), -1);
    cs_view_fill(&f.v, &f.s);
    const cs_render_geom *g = &f.s.geoms[0];
    ck_assert_int_eq(g->type, CS_GEOM_MESH);
    int nr = 3, nc = 4, nv = 2 * nr * nc + 1; /* and the base's centre */
    ck_assert_int_eq(g->mesh_nface, 2 * (nr - 1) * (nc - 1) + 6 * (nr - 1 + nc - 1));
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < nc; c++) {
            const double *t = g->mesh_vert + 3 * (r * nc + c), *b = t + 3 * nr * nc;
            ck_assert_double_eq_tol(t[0], -1 + 2.0 * c / (nc - 1), 1e-12);
            ck_assert_double_eq_tol(t[1], -0.5 + 1.0 * r / (nr - 1), 1e-12);
            ck_assert_double_eq_tol(t[2], 0.2 * f.m->hfield_data[r * nc + c], 1e-12);
            ck_assert_double_eq(b[2], -0.1);
        }
    /* every directed edge appears once and its reverse once: a closed, consistently wound
     * surface */
    int count[25][25];
    memset(count, 0, sizeof count);
    for (int k = 0; k < g->mesh_nface; k++)
        for (int e = 0; e < 3; e++) {
            int a = g->mesh_face[3 * k + e], b = g->mesh_face[3 * k + (e + 1) % 3];
            ck_assert(a >= 0 && a < nv && b >= 0 && b < nv);
            count[a][b]++;
        }
    for (int a = 0; a < nv; a++)
        for (int b = 0; b < nv; b++) {
            ck_assert_int_le(count[a][b], 1);
            ck_assert_int_eq(count[a][b], count[b][a]);
        }
    for (int k = 0; k < 2 * (nr - 1) * (nc - 1); k++) {
        const double *p0 = g->mesh_vert + 3 * g->mesh_face[3 * k],
                     *p1 = g->mesh_vert + 3 * g->mesh_face[3 * k + 1],
                     *p2 = g->mesh_vert + 3 * g->mesh_face[3 * k + 2];
        double nz = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
        ck_assert(nz > 0);
    }
    teardown(&f);
}
END_TEST

START_TEST(poses_follow_the_steps)
{
    /* After N steps the scene shows state N (positions = qpos, time = N h), not the
     * state before the last integration that cs_step leaves in the kinematics. */
    fixture f;
    setup(&f, load_scene("ball_roll.xml"), 0);
    for (int k = 0; k < 25; k++) ck_assert_int_eq(cs_view_step(&f.v), 0);
    cs_view_fill(&f.v, &f.s);
    ck_assert_double_eq_tol(f.s.hud.time, 25 * f.m->opt.timestep, 1e-12);
    for (int k = 0; k < 3; k++) ck_assert_double_eq(f.s.geoms[1].pose.pos[k], f.d->qpos[k]);
    /* Rolling along +x at 1 m/s: it moved about 25 h. */
    ck_assert_double_eq_tol(f.s.geoms[1].pose.pos[0], 25 * 0.002, 1e-3);
    /* The same trajectory as plain cs_step (the extra forward changes nothing). */
    cs_data *d2 = cs_make_data(f.m);
    cs_reset_key(f.m, d2, 0);
    for (int k = 0; k < 25; k++) cs_step(f.m, d2);
    for (int k = 0; k < 25; k++) cs_view_step(&f.v);
    for (int k = 0; k < 25; k++) cs_step(f.m, d2);
    for (int i = 0; i < f.m->nq; i++) ck_assert_double_eq(f.d->qpos[i], d2->qpos[i]);
    for (int i = 0; i < f.m->nv; i++) ck_assert_double_eq(f.d->qvel[i], d2->qvel[i]);
    cs_free_data(d2);
    teardown(&f);
}
END_TEST

START_TEST(zone_words_are_the_csv_words)
{
    fixture f;
    setup(&f, load_scene("box_stack.xml"), -1);
    static const struct {
        int zone;
        const char *word;
    } z[] = {{CS_CZONE_NONE, "none"},       {CS_CZONE_TOP, "top"},
             {CS_CZONE_BOTTOM, "bottom"},   {CS_CZONE_MIDDLE, "middle"},
             {CS_CZONE_PYRAMID, "pyramid"}, {CS_CZONE_NORMAL, "normal"}};
    int n = sizeof z / sizeof z[0];
    ck_assert_int_ge(f.m->nconmax, n);
    memset(f.d->contact, 0, n * sizeof *f.d->contact);
    for (int i = 0; i < n; i++) {
        f.d->contact[i].dim = 3;
        f.d->contact[i].zone = z[i].zone;
    }
    f.d->ncon = n;
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.ncontact, n);
    for (int i = 0; i < n; i++) ck_assert_str_eq(f.s.contacts[i].zone, z[i].word);
    teardown(&f);
}
END_TEST

/* The picture's contact array follows the data's contact room as it grows: 27 boxes in 3
 * layers, the upper two dropped from 1 cm, make far more contacts once they land than at
 * the start, and all are drawn. */
START_TEST(contacts_follow_growth)
{
    char xml[16384], err[1024];
    int k = snprintf(xml, sizeof xml, "<mujoco><worldbody><geom type=\"plane\" size=\"2 2 .1\"/>");
    for (int i = 0; i < 27; i++)
        k += snprintf(xml + k, sizeof xml - (size_t)k, "<body pos=\"%g %g %g\"><freejoint/>"
                      "<geom type=\"box\" size=\".05 .05 .05\"/></body>", 0.101 * (i % 3),
                      0.101 * (i / 3 % 3), 0.05 + 0.11 * (i / 9));
    snprintf(xml + k, sizeof xml - (size_t)k, "</worldbody></mujoco>");
    cs_model *m = cs_load_xml_string(xml, "boxes.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    fixture f;
    setup(&f, m, -1);
    int start = f.v.ncontact_cap;
    for (int s = 0; s < 100; s++) cs_step(f.m, f.d);
    f.v.stale = 1; /* the fill finds the contacts of the state */
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_gt(f.d->ncon, start);
    ck_assert_int_eq(f.s.ncontact, f.d->ncon);
    for (int i = 0; i < f.d->ncon; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_double_eq_tol(f.s.contacts[i].pos[j], f.d->contact[i].pos[j], 1e-6);
    teardown(&f);
}
END_TEST

START_TEST(contacts_are_copied)
{
    fixture f;
    setup(&f, load_scene("box_stack.xml"), -1);
    ck_assert_int_ge(f.m->nconmax, 3);
    /* Contacts as collision and the solver would leave them. */
    cs_contact *c = f.d->contact;
    memset(c, 0, 3 * sizeof *c);
    double fr[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    for (int i = 0; i < 3; i++) {
        c[i].pos[0] = 0.1 * i, c[i].pos[1] = -0.1, c[i].pos[2] = 0.2 * i;
        memcpy(c[i].frame, fr, sizeof fr);
        c[i].dist = -1e-4 * (i + 1);
        c[i].geom1 = i;
        c[i].geom2 = i + 1;
        c[i].dim = 3;
        for (int k = 0; k < 5; k++) c[i].friction[k] = 0.8 - 0.1 * k;
        for (int k = 0; k < 6; k++) c[i].force[k] = 1 + i + 0.5 * k;
        c[i].vel[0] = 0.01, c[i].vel[1] = 3, c[i].vel[2] = -4;
    }
    c[0].zone = CS_CZONE_MIDDLE;
    c[1].zone = CS_CZONE_TOP;
    c[1].exclude = 1; /* within the margin, kept out by the gap */
    c[2].zone = CS_CZONE_NORMAL;
    c[2].dim = 1;
    f.d->ncon = 3;
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.ncontact, 3);
    ck_assert_int_eq(f.s.hud.ncon, 3);
    const cs_render_contact *o = f.s.contacts;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) ck_assert_double_eq(o[i].pos[k], c[i].pos[k]);
        for (int k = 0; k < 9; k++) ck_assert_double_eq(o[i].frame[k], c[i].frame[k]);
        for (int k = 0; k < 5; k++) ck_assert_double_eq(o[i].friction[k], c[i].friction[k]);
        ck_assert_int_eq(o[i].dim, c[i].dim);
        ck_assert_double_eq(o[i].dist, c[i].dist);
        ck_assert_int_eq(o[i].geom1, i);
        ck_assert_int_eq(o[i].geom2, i + 1);
    }
    ck_assert_str_eq(o[0].zone, "middle");
    for (int k = 0; k < 6; k++) ck_assert_double_eq(o[0].force[k], c[0].force[k]);
    ck_assert_double_eq_tol(o[0].slip, 5, 1e-12); /* |(3, -4)| */
    /* Kept out of the solver: zone none, no force (the contact CSV's convention). */
    ck_assert_str_eq(o[1].zone, "none");
    for (int k = 0; k < 6; k++) ck_assert_double_eq(o[1].force[k], 0);
    /* condim 1: frictionless, no sliding components */
    ck_assert_str_eq(o[2].zone, "normal");
    ck_assert_double_eq(o[2].force[0], c[2].force[0]);
    ck_assert_double_eq(o[2].slip, 0);
    /* The friction dot of the sliding contact lies where render/ puts it: r > 0. */
    ck_assert_double_gt(cs_contact_cone_ratio(&o[0]), 0);
    teardown(&f);
}
END_TEST

START_TEST(resting_sphere_contact)
{
    /* The real pipeline: after half a second the sphere rests on the plane; the scene
     * carries the contact collision found, its weight as the normal force, and an arrow
     * a third of the extent long (the force scale's promise). */
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    for (int k = 0; k < 250; k++) ck_assert_int_eq(cs_view_step(&f.v), 0);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_ge(f.s.ncontact, 1);
    ck_assert_int_eq(f.s.ncontact, f.d->ncon);
    double fn = 0;
    for (int i = 0; i < f.s.ncontact; i++) {
        const cs_render_contact *c = &f.s.contacts[i];
        ck_assert_int_eq(c->geom1, cs_name2id_geom(f.m, "floor"));
        ck_assert_int_eq(c->geom2, cs_name2id_geom(f.m, "sphere"));
        ck_assert_double_eq_tol(c->frame[2], 1, 1e-9); /* n = +z, floor to sphere */
        ck_assert_str_eq(c->zone, cs_contact_zone_name(f.d->contact[i].zone));
        ck_assert_double_lt(c->slip, 1e-3);
        fn += c->force[0];
    }
    ck_assert_double_eq_tol(fn, 2 * 9.81, 0.02 * 2 * 9.81);
    /* Arrows scaled from the forces on screen: the largest contact force's arrow is 0.3
     * extents times its ratio to the round force above it (in (0.4, 1] for 1-2-5 steps). */
    ck_assert_double_eq(f.s.force_scale, 0);
    double fmax = 0;
    for (int i = 0; i < f.s.ncontact; i++) fmax = fmax > f.s.contacts[i].force[0] ? fmax : f.s.contacts[i].force[0];
    double len = fmax * cs_render_force_scale(&f.s);
    ck_assert_double_le(len, CS_FORCE_ARROW_FRACTION * f.s.extent * (1 + 1e-12));
    ck_assert_double_gt(len, 0.4 * CS_FORCE_ARROW_FRACTION * f.s.extent);
    ck_assert_int_eq(f.s.hud.ncon, f.d->ncon);
    ck_assert_int_gt(f.s.hud.iterations, 0);
    teardown(&f);
}
END_TEST

START_TEST(hud_numbers)
{
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    f.d->solver.iterations = 17;
    f.d->solver.improvement = 2.5e-9;
    f.d->time = 1.25;
    cs_view_fill(&f.v, &f.s);
    ck_assert_str_eq(f.s.hud.solver, "PGS elliptic, contact soft");
    ck_assert_int_eq(f.s.hud.iterations, 17);
    ck_assert_double_eq(f.s.hud.residual, 2.5e-9);
    ck_assert_double_eq(f.s.hud.time, 1.25);
    ck_assert_ptr_null(f.s.hud.body_name);
    ck_assert_ptr_null(f.s.hud.message);
    /* The selected body: its name, position and velocity. */
    f.d->qvel[0] = 1, f.d->qvel[1] = 2, f.d->qvel[2] = 3;
    f.d->qvel[3] = 4, f.d->qvel[4] = -5, f.d->qvel[5] = 6; /* spin does not move the origin */
    f.s.selected_body = cs_name2id_body(f.m, "ball");
    cs_view_fill(&f.v, &f.s);
    ck_assert_str_eq(f.s.hud.body_name, "ball");
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq(f.s.hud.body_pos[k], f.d->xpos[3 * 1 + k]);
        ck_assert_double_eq_tol(f.s.hud.body_vel[k], f.d->qvel[k], 1e-12);
    }
    teardown(&f);

    cs_option o = {0};
    char buf[48];
    o.solver = CS_SOLVER_NEWTON;
    o.cone = CS_CONE_PYRAMIDAL;
    cs_view_solver_name(&o, buf, sizeof buf);
    ck_assert_str_eq(buf, "Newton pyramidal, contact soft");
    o.contact = CS_CONTACT_COULOMB;
    cs_view_solver_name(&o, buf, sizeof buf);
    ck_assert_str_eq(buf, "Newton pyramidal, contact coulomb");
}
END_TEST

START_TEST(welded_body_velocity)
{
    /* A jointless child 0.5 m along x of a free body spinning about z at 2 rad/s:
     * its frame origin moves at v + w x r = (0, 1, 0) + (0, 1, 0). */
    fixture f;
    setup(&f, load_string("<mujoco><option gravity='0 0 0'/><worldbody><body name='a'>"
                          "<freejoint/><geom type='sphere' size='0.1'/>"
                          "<body name='b' pos='0.5 0 0'><geom type='box' size='.1 .1 .1'/>"
                          "</body></body></worldbody></mujoco>"), -1);
    f.d->qvel[1] = 1;
    f.d->qvel[5] = 2;
    f.s.selected_body = cs_name2id_body(f.m, "b");
    cs_view_fill(&f.v, &f.s);
    ck_assert_str_eq(f.s.hud.body_name, "b");
    ck_assert_double_eq_tol(f.s.hud.body_vel[0], 0, 1e-12);
    ck_assert_double_eq_tol(f.s.hud.body_vel[1], 2, 1e-12);
    ck_assert_double_eq_tol(f.s.hud.body_vel[2], 0, 1e-12);
    teardown(&f);
}
END_TEST

START_TEST(extent_and_force_scale)
{
    fixture f;
    setup(&f, load_scene("box_stack.xml"), -1);
    cs_view_fill(&f.v, &f.s);
    /* MuJoCo's stat.extent: the longest side of the box around the boxes' bounding
     * spheres (r = sqrt(3) 0.1, z from 0.1 - r to 0.5 + r; x and y +- r). */
    double r = sqrt(3) * 0.1;
    double e = 0.4 + 2 * r;
    ck_assert_double_eq_tol(f.s.extent, e, 1e-9);
    ck_assert_double_eq_tol(f.v.center[2], 0.3, 1e-12);
    ck_assert_double_eq_tol(f.v.center[0], 0, 1e-12);
    /* Arrows: render/ scales them from the forces on screen. */
    ck_assert_double_eq(f.s.force_scale, 0);
    /* Fixed at the start: a box flying away does not rescale the picture. */
    f.d->qpos[7 * 2 + 2] = 100;
    cs_forward(f.m, f.d);
    cs_view_fill(&f.v, &f.s);
    ck_assert_double_eq_tol(f.s.extent, e, 1e-9);
    teardown(&f);
}
END_TEST

/* A schedule that sets actuator 2 (lift) to 0.2 at any time. */
static void lift_schedule(void *u, double t, double *ctrl)
{
    (void)u;
    (void)t;
    ctrl[2] = 0.2;
}

/* The control panel's data: one entry per actuator with name, control and ctrlrange; its
 * writes are clamped to ctrlrange and leave a scheduled actuator alone. */
START_TEST(control_panel_sets_clamped_controls)
{
    fixture f;
    setup(&f, load_scene("gripper_lift.xml"), 0);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.nactuator, 3);
    ck_assert_str_eq(f.s.actuators[2].name, "lift");
    ck_assert_int_eq(f.s.actuators[2].limited, 1);
    ck_assert_double_eq(f.s.actuators[2].range[1], 0.3);
    ck_assert_double_eq_tol(f.s.actuators[2].ctrl, 0.1, 1e-12); /* the keyframe's */
    ck_assert_ptr_null(f.s.ctrl_source);
    cs_viewer_callbacks cb;
    cs_view_callbacks(&f.v, &cb);
    cb.set_ctrl(cb.user, 2, 0.25);
    ck_assert_double_eq(f.d->ctrl[2], 0.25);
    cb.set_ctrl(cb.user, 0, 5);   /* beyond ctrlrange 0 .. 0.06 */
    ck_assert_double_eq(f.d->ctrl[0], 0.06);
    cb.set_ctrl(cb.user, 1, -5);
    ck_assert_double_eq(f.d->ctrl[1], 0);
    cb.set_ctrl(cb.user, 3, 1);   /* no such actuator: nothing */
    cb.set_ctrl(cb.user, 2, NAN);
    ck_assert_double_eq(f.d->ctrl[2], 0.25);
    cs_view_fill(&f.v, &f.s);
    ck_assert_double_eq(f.s.actuators[0].ctrl, 0.06);
    /* a schedule drives lift: the panel says so and cannot set it; the step applies it */
    static const unsigned char cols[3] = {0, 0, 1};
    f.v.ctrl_hook = lift_schedule;
    f.v.ctrl_columns = cols;
    f.v.ctrl_source = "--ctrl test.csv";
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.actuators[2].driven, 1);
    ck_assert_int_eq(f.s.actuators[0].driven, 0);
    ck_assert_str_eq(f.s.ctrl_source, "--ctrl test.csv");
    cb.set_ctrl(cb.user, 2, 0.05);
    ck_assert_double_eq(f.d->ctrl[2], 0.25);
    ck_assert_int_eq(cs_view_step(&f.v), 0);
    ck_assert_double_eq(f.d->ctrl[2], 0.2);
    teardown(&f);
}
END_TEST

/* one slider per control: a pid's pos and vel, an orientation's quaternion (its neutral
 * value, what "clear" sets, the identity's), each with its own range; an unlimited range
 * still spans the slider */
START_TEST(control_panel_has_a_slider_per_control)
{
    fixture f;
    setup(&f, load_string("<mujoco><default><general ctrllimited='false'/></default>"
                          "<worldbody><body><joint name='h'/><geom size='.1'/></body>"
                          "<body pos='1 0 0'><joint name='b' type='ball'/><geom size='.1'/>"
                          "</body></worldbody><actuator>"
                          "<pid name='p' joint='h' posrange='-1 1' velrange='-2 2' "
                          "ctrllimited='true'/>"
                          "<orientation name='o' joint='b' input='quat' ctrlrange='-3 3'/>"
                          "</actuator></mujoco>"), -1);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.nactuator, 6);
    static const char *const NAME[6] = {"p/pos", "p/vel", "o/qw", "o/qx", "o/qy", "o/qz"};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(f.s.actuators[i].name, NAME[i]);
        ck_assert_double_eq(f.s.actuators[i].neutral, i == 2);
    }
    ck_assert_double_eq(f.s.actuators[1].range[1], 2);
    ck_assert_int_eq(f.s.actuators[3].limited, 0);
    double lo, hi;
    cs_ctrl_slider_range(&f.s.actuators[3], &lo, &hi);
    ck_assert(lo == -3 && hi == 3);
    ck_assert_double_eq(f.d->ctrl[2], 1); /* reset: the identity quaternion */
    cs_viewer_callbacks cb;
    cs_view_callbacks(&f.v, &cb);
    cb.set_ctrl(cb.user, 1, 5); /* the vel input's own range */
    ck_assert_double_eq(f.d->ctrl[1], 2);
    teardown(&f);
}
END_TEST

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

START_TEST(perturbation_is_a_force_at_the_anchor)
{
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    int b = cs_name2id_body(f.m, "ball");
    cs_view_fill(&f.v, &f.s);
    cs_perturb p = {1, b, {0.1, 0, 0.1}, {0.3, 0.1, 0.2}}; /* grabbed at the +x side */
    cs_view_perturb(&f.v, &p);
    double F[3];
    cs_perturb_force(&p, 2.0, NULL, F); /* at rest: no damping term */
    const double *x = f.d->xfrc_applied + 6 * b;
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(x[k], F[k], 1e-12);
    double r[3] = {0.1, 0, 0}, tau[3];
    cross(r, F, tau);
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(x[3 + k], tau[k], 1e-12);
    ck_assert_double_gt(F[0], 0); /* towards the target */
    /* Physics: the applied force accelerates the sphere by F/m on top of gravity, and
     * spins it by I^-1 tau (solid sphere, I = 2/5 m r^2). */
    cs_forward(f.m, f.d);
    ck_assert_double_eq_tol(f.d->qacc_smooth[0], F[0] / 2, 1e-9);
    ck_assert_double_eq_tol(f.d->qacc_smooth[2], F[2] / 2 - 9.81, 1e-9);
    double I = 0.4 * 2 * 0.01;
    ck_assert_double_eq_tol(f.d->qacc_smooth[4], tau[1] / I, 1e-6);
    /* A moving anchor is damped: the force opposes the velocity. */
    f.d->qvel[2] = 1;
    cs_view_perturb(&f.v, &p);
    double Fm[3], vz[3] = {0, 0, 1};
    cs_perturb_force(&p, 2.0, vz, Fm);
    ck_assert_double_eq_tol(x[2], Fm[2], 1e-12);
    ck_assert_double_lt(x[2], F[2]);
    /* Steps between fills: the grabbed point moves with the body (here spinning about z
     * at 3 rad/s and moving along x), and the spring pulls it where it is now. */
    memset(f.d->qvel, 0, 6 * sizeof *f.d->qvel);
    f.d->qvel[0] = 1;
    f.d->qvel[5] = 3;
    cs_view_fill(&f.v, &f.s); /* p.anchor refers to this state */
    double a0[3] = {f.d->xpos[3] + 0.1, f.d->xpos[4], f.d->xpos[5]};
    memcpy(p.anchor, a0, sizeof a0);
    for (int k = 0; k < 10; k++) cs_view_step(&f.v);
    cs_view_perturb(&f.v, &p);
    const double *R = f.d->xmat + 9 * b, *c = f.d->xpos + 3 * b;
    double an[3], w[3], vw[3], va[3];
    for (int k = 0; k < 3; k++) an[k] = c[k] + 0.1 * R[3 * k]; /* body x axis, 0.1 m out */
    for (int k = 0; k < 3; k++) {
        w[k] = R[3 * k] * f.d->qvel[3] + R[3 * k + 1] * f.d->qvel[4] + R[3 * k + 2] * f.d->qvel[5];
        r[k] = an[k] - f.d->xipos[3 * b + k];
    }
    ck_assert_double_gt(fabs(an[1] - a0[1]), 0.005); /* it did turn */
    cross(w, r, vw);
    for (int k = 0; k < 3; k++) va[k] = f.d->qvel[k] + vw[k];
    cs_perturb pn = p;
    memcpy(pn.anchor, an, sizeof an);
    cs_perturb_force(&pn, 2.0, va, F);
    cross(r, F, tau);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(x[k], F[k], 1e-9);
        ck_assert_double_eq_tol(x[3 + k], tau[k], 1e-9);
    }
    /* Released: nothing applied. */
    p.active = 0;
    cs_view_perturb(&f.v, &p);
    for (int k = 0; k < 6 * f.m->nbody; k++) ck_assert_double_eq(f.d->xfrc_applied[k], 0);
    /* The world cannot be pushed. */
    cs_perturb q = {1, 0, {0, 0, 0}, {1, 1, 1}};
    cs_view_perturb(&f.v, &q);
    for (int k = 0; k < 6 * f.m->nbody; k++) ck_assert_double_eq(f.d->xfrc_applied[k], 0);
    teardown(&f);
}
END_TEST

/* ---- articulated bodies: the joints overlay's data and Ctrl-drag through the viewer ---- */

/* v rotated by angle a about the unit axis k */
static void rotate(const double v[3], const double k[3], double a, double out[3])
{
    double kxv[3], kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    cross(k, v, kxv);
    for (int i = 0; i < 3; i++) out[i] = v[i] * cos(a) + kxv[i] * sin(a) + k[i] * kv * (1 - cos(a));
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static const cs_render_joint *joint_named(const cs_render_scene *s, const char *name)
{
    for (int k = 0; k < s->njoint; k++)
        if (strcmp(s->joints[k].name, name) == 0) return &s->joints[k];
    ck_abort_msg("no joint '%s' in the scene", name);
    return NULL;
}

START_TEST(joints_are_handed_over)
{
    fixture f;
    setup(&f, load_data_file("good/joints_arm.xml"), 0);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.njoint, 4);
    const cs_render_joint *sh = joint_named(&f.s, "shoulder"), *el = joint_named(&f.s, "elbow"),
                          *lift = joint_named(&f.s, "lift"), *sw = joint_named(&f.s, "swivel");
    ck_assert_int_eq(sh->type, CS_RENDER_JNT_HINGE);
    ck_assert_int_eq(el->type, CS_RENDER_JNT_HINGE);
    ck_assert_int_eq(lift->type, CS_RENDER_JNT_SLIDE);
    ck_assert_int_eq(sw->type, CS_RENDER_JNT_BALL);
    ck_assert_int_eq(sh->body, cs_name2id_body(f.m, "upper"));
    ck_assert_int_eq(lift->body, cs_name2id_body(f.m, "block"));
    /* The range in qpos units (radians), limited by autolimits. */
    ck_assert_int_eq(sh->limited, 1);
    ck_assert_double_eq_tol(sh->range[0], -30 * M_PI / 180, 1e-12);
    ck_assert_double_eq_tol(sh->range[1], 45 * M_PI / 180, 1e-12);
    ck_assert_double_eq_tol(sw->range[1], 35 * M_PI / 180, 1e-12);
    /* The hinge: pivot and axis from the kinematics; ref is a unit vector across the axis,
     * and turned by the current angle it points from the pivot at the link's centre of
     * mass (the upper arm lies along +x of the shoulder). */
    int ju = cs_name2id_joint(f.m, "shoulder"), bu = sh->body;
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq(sh->anchor[k], f.d->xanchor[3 * ju + k]);
        ck_assert_double_eq(sh->axis[k], f.d->xaxis[3 * ju + k]);
    }
    ck_assert_double_eq_tol(dot3(sh->ref, sh->ref), 1, 1e-12);
    ck_assert_double_eq_tol(dot3(sh->ref, sh->axis), 0, 1e-12);
    double cur[3], com[3];
    rotate(sh->ref, sh->axis, sh->pos, cur);
    for (int k = 0; k < 3; k++) com[k] = f.d->xipos[3 * bu + k] - sh->anchor[k];
    ck_assert_double_eq_tol(dot3(cur, com), sqrt(dot3(com, com)), 1e-12);
    /* The ball: its rotation angle, 25 degrees in the keyframe. */
    ck_assert_double_eq_tol(sw->pos, 25 * M_PI / 180, 1e-9);
    ck_assert_int_eq(cs_joint_at_limit(sw), 0);

    /* Three seconds on: the upper arm lies on its 45 degree limit and the block on its
     * lower one; the forearm hangs inside its range. */
    for (int k = 0; k < 1500; k++) ck_assert_int_eq(cs_view_step(&f.v), 0);
    cs_view_fill(&f.v, &f.s);
    sh = joint_named(&f.s, "shoulder");
    el = joint_named(&f.s, "elbow");
    lift = joint_named(&f.s, "lift");
    ck_assert_double_eq(sh->pos, f.d->qpos[f.m->jnt_qposadr[ju]]);
    ck_assert_int_eq(cs_joint_at_limit(sh), 1);
    ck_assert_int_eq(cs_joint_at_limit(el), 0);
    ck_assert_int_eq(cs_joint_at_limit(lift), -1);
    /* Still turned by the angle, the pointer finds the link: angle 0 stays put in the
     * parent while the link turns. */
    rotate(sh->ref, sh->axis, sh->pos, cur);
    for (int k = 0; k < 3; k++) com[k] = f.d->xipos[3 * bu + k] - sh->anchor[k];
    ck_assert_double_eq_tol(dot3(cur, com), sqrt(dot3(com, com)), 1e-9);
    double ref0[3] = {1, 0, 0}; /* the upper arm's +x at angle 0, the keyframe's pose */
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(sh->ref[k], ref0[k], 1e-9);
    /* The slide's dot rides with the block (its anchor is the body origin here). */
    int bb = lift->body;
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(lift->anchor[k], f.d->xpos[3 * bb + k], 1e-12);
    ck_assert_double_eq(lift->pos, f.d->qpos[f.m->jnt_qposadr[cs_name2id_joint(f.m, "lift")]]);
    teardown(&f);

    /* Free joints are not drawn: a scene of free bodies hands over none. */
    setup(&f, load_scene("box_stack.xml"), -1);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(f.s.njoint, 0);
    teardown(&f);
}
END_TEST

START_TEST(joint_limit_test)
{
    cs_render_joint j;
    memset(&j, 0, sizeof j);
    j.type = CS_RENDER_JNT_HINGE;
    j.range[0] = -1, j.range[1] = 1;
    j.pos = 5;
    ck_assert_int_eq(cs_joint_at_limit(&j), 0); /* not limited: never */
    j.limited = 1;
    ck_assert_int_eq(cs_joint_at_limit(&j), 1);
    j.pos = 1 - 1e-4; /* within 1e-3 of the width */
    ck_assert_int_eq(cs_joint_at_limit(&j), 1);
    j.pos = 0.99;
    ck_assert_int_eq(cs_joint_at_limit(&j), 0);
    j.pos = -1.5;
    ck_assert_int_eq(cs_joint_at_limit(&j), -1);
    j.type = CS_RENDER_JNT_BALL; /* range 0..max: the angle is never below */
    j.range[0] = 0;
    j.pos = 0;
    ck_assert_int_eq(cs_joint_at_limit(&j), 0);
    j.pos = 1.2;
    ck_assert_int_eq(cs_joint_at_limit(&j), 1);
}
END_TEST

/* The viewer's side of a Ctrl-drag, as the window loop runs it: events through cs_input_map,
 * cs_viewer_apply against the filled scene, cs_viewer_perturb before every step. */
#define VW 640
#define VH 480

typedef struct {
    cs_input in;
    cs_viewer_state vs;
} drag;

static void drag_event(drag *g, fixture *f, cs_input_event e, cs_action_kind want)
{
    e.height = VH;
    cs_action a = cs_input_map(&g->in, &e);
    ck_assert_int_eq(a.kind, want);
    cs_viewer_apply(&g->vs, &a, &f->s, VW, VH);
}

static void drag_begin(drag *g, fixture *f, const cs_camera *c, const double at[3])
{
    double px[2];
    cs_input_init(&g->in);
    cs_viewer_state_init(&g->vs, c, 0);
    ck_assert_int_eq(cs_camera_project(c, VW, VH, at, px), 0);
    cs_input_event e = {.kind = CS_EV_BUTTON, .button = GLFW_MOUSE_BUTTON_LEFT,
                        .action = GLFW_PRESS, .mods = GLFW_MOD_CONTROL, .x = px[0], .y = px[1]};
    drag_event(g, f, e, CS_ACT_PERTURB_BEGIN);
}

static void drag_to(drag *g, fixture *f, const cs_camera *c, const double at[3])
{
    double px[2];
    ck_assert_int_eq(cs_camera_project(c, VW, VH, at, px), 0);
    cs_input_event e = {.kind = CS_EV_MOVE, .x = px[0], .y = px[1]};
    drag_event(g, f, e, CS_ACT_PERTURB_MOVE);
}

/* Frames of the loop: before every step the perturbation; a fill every 8 steps. */
static void hold(drag *g, fixture *f, int steps)
{
    for (int k = 0; k < steps; k++) {
        cs_perturb p;
        cs_viewer_perturb(&g->vs, &f->s, &p);
        cs_view_perturb(&f->v, &p);
        ck_assert_int_eq(cs_view_step(&f->v), 0);
        if (k % 8 == 7) cs_view_fill(&f->v, &f->s);
    }
    cs_view_fill(&f->v, &f->s);
}

/* A rod hanging from a hinge about y at z = 0.95, 5 cm below the post it hangs from (clear
 * of it: a static parent's contacts are not filtered), seen from the front (-y). */
static const char *PENDULUM =
    "<mujoco><worldbody><body name='post' pos='0 0 1.05'><geom type='box' size='.05 .05 .05'/>"
    "<body name='rod' pos='0 0 -0.1'><joint name='hinge' axis='0 1 0'/>"
    "<geom type='capsule' fromto='0 0 -0.04 0 0 -0.5' size='0.03'/></body></body>"
    "</worldbody></mujoco>";

START_TEST(ctrl_drag_turns_a_hinged_link)
{
    fixture f;
    setup(&f, load_string(PENDULUM), -1);
    int rod = cs_name2id_body(f.m, "rod");
    cs_view_fill(&f.v, &f.s);
    cs_camera c = {.azimuth = 90, .elevation = 0, .distance = 2.0, .lookat = {0, 0, 0.75}, .fovy = 45};
    drag g;
    double grab[3] = {0, -0.03, 0.6}, pull[3] = {0.25, -0.03, 0.6}; /* on the front face */
    drag_begin(&g, &f, &c, grab);
    ck_assert_int_eq(g.vs.perturb_active, 1);
    ck_assert_int_eq(g.vs.perturb_body, rod);
    drag_to(&g, &f, &c, pull);
    cs_perturb p;
    cs_viewer_perturb(&g.vs, &f.s, &p);
    ck_assert_int_eq(p.active, 1);
    ck_assert_int_eq(p.body, rod);
    /* Grabbed on the rod's front face (y = -0.03), pulled 0.25 m along +x in that plane. */
    ck_assert_double_eq_tol(p.anchor[0], 0, 1e-3);
    ck_assert_double_eq_tol(p.anchor[1], -0.03, 1e-3);
    ck_assert_double_eq_tol(p.target[0], 0.25, 1e-3);
    ck_assert_double_eq_tol(p.target[1], -0.03, 1e-3);
    ck_assert_double_eq_tol(p.target[2], 0.6, 1e-3);

    /* The spring force at the anchor, with the rod's mass, as xfrc_applied at its COM. */
    cs_view_perturb(&f.v, &p);
    double F[3], r[3], tau[3];
    cs_perturb_force(&p, f.m->body_mass[rod], NULL, F); /* at rest: no damping term */
    const double *x = f.d->xfrc_applied + 6 * rod;
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(x[k], F[k], 1e-12);
    ck_assert_double_gt(F[0], 0);
    for (int k = 0; k < 3; k++) r[k] = p.anchor[k] - f.d->xipos[3 * rod + k];
    cross(r, F, tau);
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(x[3 + k], tau[k], 1e-12);
    /* The smooth stage maps it onto the hinge: a generalized force equal to the force's
     * moment about the hinge axis, and the joint accelerates by M^-1 of it, toward the
     * pull (a negative angle about +y swings the rod's lower end towards +x). */
    int j = cs_name2id_joint(f.m, "hinge"), dof = f.m->jnt_dofadr[j];
    cs_forward(f.m, f.d);
    double acc = f.d->qacc_smooth[dof];
    double ra[3], m_ax[3];
    for (int k = 0; k < 3; k++) ra[k] = p.anchor[k] - f.d->xanchor[3 * j + k];
    cross(ra, F, m_ax);
    double moment = dot3(m_ax, f.d->xaxis + 3 * j);
    ck_assert_double_lt(moment, -0.1);
    memset(f.d->xfrc_applied, 0, 6 * sizeof *f.d->xfrc_applied * (size_t)f.m->nbody);
    cs_forward(f.m, f.d);
    double acc0 = f.d->qacc_smooth[dof], want = 0;
    ck_assert_double_eq_tol(acc0, 0, 1e-12); /* hanging at rest */
    cs_solve_M(f.m, f.d, &want, &moment);
    ck_assert_double_lt(acc, 0);
    ck_assert_double_eq_tol(acc - acc0, want, 1e-9 * fabs(want));

    /* Held for a second: the rod swings towards the pull and comes to rest where the spring
     * and gravity balance (about 32 degrees: the spring is the rod's weight per 6 cm). */
    hold(&g, &f, 500);
    double q = f.d->qpos[f.m->jnt_qposadr[j]];
    ck_assert_msg(q < -0.45 && q > -0.7, "hinge angle %g", q);
    cs_viewer_perturb(&g.vs, &f.s, &p);
    ck_assert_double_gt(p.anchor[0], 0.15);
    ck_assert_double_lt(fabs(f.d->qvel[dof]), 0.01);
    cs_view_perturb(&f.v, &p);
    cs_forward(f.m, f.d);
    ck_assert_double_lt(fabs(f.d->qacc_smooth[dof]), 0.05);
    /* Let go: nothing is applied any more, and the rod swings back. */
    cs_input_event up = {.kind = CS_EV_BUTTON, .button = GLFW_MOUSE_BUTTON_LEFT,
                         .action = GLFW_RELEASE, .x = 0, .y = 0};
    drag_event(&g, &f, up, CS_ACT_PERTURB_END);
    hold(&g, &f, 50);
    for (int k = 0; k < 6 * f.m->nbody; k++) ck_assert_double_eq(f.d->xfrc_applied[k], 0);
    ck_assert_double_gt(f.d->qpos[f.m->jnt_qposadr[j]], q + 0.05);
    teardown(&f);
}
END_TEST

START_TEST(ctrl_drag_leaves_static_bodies_alone)
{
    /* Ctrl-drag on the post the rod hangs from (a body welded to the world): the viewer
     * holds it, the adapter applies nothing, and the state is the one stepped without. */
    fixture f;
    setup(&f, load_string(PENDULUM), -1);
    int post = cs_name2id_body(f.m, "post");
    ck_assert_int_eq(f.m->body_weldid[post], 0);
    f.d->qvel[0] = 1; /* the rod swings: something to compare */
    cs_data *ref = cs_make_data(f.m);
    ref->qvel[0] = 1;
    cs_view_fill(&f.v, &f.s);
    cs_camera c = {.azimuth = 90, .elevation = 0, .distance = 2.0, .lookat = {0, 0, 0.75}, .fovy = 45};
    drag g;
    double grab[3] = {0.03, -0.05, 1.06}, pull[3] = {0.4, -0.05, 1.3};
    drag_begin(&g, &f, &c, grab);
    ck_assert_int_eq(g.vs.perturb_body, post);
    drag_to(&g, &f, &c, pull);
    cs_perturb p;
    cs_viewer_perturb(&g.vs, &f.s, &p);
    ck_assert_int_eq(p.body, post);
    for (int k = 0; k < 40; k++) {
        cs_viewer_perturb(&g.vs, &f.s, &p);
        cs_view_perturb(&f.v, &p);
        for (int i = 0; i < 6 * f.m->nbody; i++) ck_assert_double_eq(f.d->xfrc_applied[i], 0);
        ck_assert_int_eq(cs_view_step(&f.v), 0);
        cs_step(f.m, ref);
        cs_view_fill(&f.v, &f.s);
    }
    for (int i = 0; i < f.m->nq; i++) ck_assert_double_eq(f.d->qpos[i], ref->qpos[i]);
    for (int i = 0; i < f.m->nv; i++) ck_assert_double_eq(f.d->qvel[i], ref->qvel[i]);
    ck_assert_double_eq(f.d->xpos[3 * post + 2], 1.05);
    cs_free_data(ref);
    teardown(&f);
}
END_TEST

START_TEST(divergence_stops_the_step)
{
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    ck_assert_int_eq(cs_view_step(&f.v), 0);
    f.d->qvel[2] = NAN;
    ck_assert_int_eq(cs_view_step(&f.v), 1);
    ck_assert_int_eq(f.v.diverged, 1); /* the body of the first joint that is not finite */
    ck_assert_ptr_nonnull(strstr(f.v.message, "diverged at step 2"));
    ck_assert_ptr_nonnull(strstr(f.v.message, "ball"));
    cs_view_fill(&f.v, &f.s);
    ck_assert_ptr_nonnull(f.s.hud.message);
    /* Reset clears it. */
    cs_view_reset(&f.v);
    ck_assert_int_eq(f.v.diverged, -1);
    ck_assert_int_eq(cs_check_finite(f.m, f.d), -1);
    teardown(&f);
}
END_TEST

START_TEST(reset_returns_to_the_keyframe)
{
    fixture f;
    setup(&f, load_scene("aniso_box_condim3.xml"), 0);
    for (int k = 0; k < 30; k++) cs_view_step(&f.v);
    ck_assert_double_gt(f.d->time, 0.05);
    cs_view_reset(&f.v);
    ck_assert_double_eq(f.d->time, f.m->key_time[0]);
    for (int i = 0; i < f.m->nv; i++) ck_assert_double_eq(f.d->qvel[i], f.m->key_qvel[i]);
    for (int i = 0; i < f.m->nq; i++) ck_assert_double_eq(f.d->qpos[i], f.m->key_qpos[i]);
    teardown(&f);
    /* Without a keyframe: the reference pose at rest. */
    setup(&f, load_scene("sphere_plane.xml"), -1);
    for (int k = 0; k < 30; k++) cs_view_step(&f.v);
    cs_view_reset(&f.v);
    ck_assert_double_eq(f.d->time, 0);
    for (int i = 0; i < f.m->nq; i++) ck_assert_double_eq(f.d->qpos[i], f.m->qpos0[i]);
    teardown(&f);
}
END_TEST

START_TEST(replay_shows_the_recorded_states)
{
    /* Record ball_roll every 5 steps, as `run --record --every 5` does. */
    cs_model *m = load_scene("ball_roll.xml");
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    char path[] = "/tmp/test_view_replay_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    cs_traj_header(out);
    double pos15[3] = {0};
    cs_traj_rows(out, m, d, 0, 0.0);
    for (int k = 1; k <= 30; k++) {
        cs_step(m, d);
        if (k % 5 == 0) cs_traj_rows(out, m, d, k, k * m->opt.timestep);
        if (k == 15) memcpy(pos15, d->qpos, sizeof pos15);
    }
    fclose(out);
    cs_free_data(d);

    cs_replay r;
    char err[1024];
    ck_assert_msg(cs_replay_load(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.nframe, 7);
    fixture f;
    setup(&f, m, 0);
    ck_assert_int_eq(cs_view_replay_bind(&f.v, &r, path, err, sizeof err), 0);
    ck_assert_double_eq_tol(cs_view_replay_dt(&f.v), 5 * m->opt.timestep, 1e-15);
    /* Frame 3 is step 15: the ball where the run had it (%.17g round-trips exactly). */
    cs_view_replay_show(&f.v, 3);
    cs_view_fill(&f.v, &f.s);
    for (int k = 0; k < 3; k++) ck_assert_double_eq(f.s.geoms[1].pose.pos[k], pos15[k]);
    ck_assert_double_eq_tol(f.s.hud.time, 15 * m->opt.timestep, 1e-12);
    ck_assert_ptr_nonnull(strstr(f.s.hud.message, "frame 4/7 (step 15)"));
    /* Step = next frame, step back = previous, clamped at both ends; reset = frame 0. */
    ck_assert_int_eq(cs_view_step(&f.v), 0);
    ck_assert_int_eq(f.v.frame, 4);
    cs_view_step_back(&f.v);
    cs_view_step_back(&f.v);
    ck_assert_int_eq(f.v.frame, 2);
    for (int k = 0; k < 10; k++) cs_view_step(&f.v);
    ck_assert_int_eq(f.v.frame, 6);
    cs_view_reset(&f.v);
    ck_assert_int_eq(f.v.frame, 0);
    cs_view_step_back(&f.v);
    ck_assert_int_eq(f.v.frame, 0);
    cs_view_fill(&f.v, &f.s);
    ck_assert_double_eq(f.s.geoms[1].pose.pos[0], 0);
    /* Perturbations do not apply to a recording. */
    cs_perturb p = {1, 1, {0, 0, 0.1}, {1, 0, 0.1}};
    cs_view_perturb(&f.v, &p);
    for (int k = 0; k < 6 * m->nbody; k++) ck_assert_double_eq(f.d->xfrc_applied[k], 0);
    teardown(&f);

    /* A recording of another scene: its body is not in this one. */
    m = load_scene("box_stack.xml");
    setup(&f, m, -1);
    ck_assert_int_eq(cs_view_replay_bind(&f.v, &r, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "'ball' is not a free body"));
    ck_assert_ptr_nonnull(strstr(err, path));
    teardown(&f);
    cs_replay_free(&r);
    unlink(path);
}
END_TEST

START_TEST(callbacks_drive_the_view)
{
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    cs_viewer_callbacks cb;
    cs_view_callbacks(&f.v, &cb);
    ck_assert_ptr_eq(cb.user, &f.v);
    ck_assert_int_eq(cb.step(cb.user), 0);
    ck_assert_int_eq(cb.step(cb.user), 0);
    cb.fill(cb.user, &f.s);
    ck_assert_double_eq_tol(f.s.hud.time, 2 * f.m->opt.timestep, 1e-15);
    cb.reset(cb.user);
    cb.fill(cb.user, &f.s);
    ck_assert_double_eq(f.s.hud.time, 0);
    ck_assert_ptr_nonnull(cb.perturb);
    ck_assert_ptr_nonnull(cb.step_back);
    ck_assert_ptr_nonnull(cb.toggle_contact);
    teardown(&f);
}
END_TEST

/* The box's displacement along the slope's downhill direction since p0. */
static double downhill(const fixture *f, int b, const double p0[3])
{
    /* The slope is turned about x: its downhill direction is -y of the slope frame. */
    const double *R = f->d->geom_xpose[0].mat; /* geom 0 is the slope (row-major) */
    double dy[3] = {-R[1], -R[4], -R[7]};
    double s = 0;
    for (int k = 0; k < 3; k++) s += (f->d->xpos[3 * b + k] - p0[k]) * dy[k];
    return s;
}

/* M between steps: incline_stick's box (tan 24.2 deg = 0.45 < mu = 0.5) creeps down the
 * slope under the soft model (the friction row holds the load at a steady slip) and stays
 * put under the Coulomb model after the switch; the HUD names the model in use. */
START_TEST(contact_key_switches_the_model)
{
    fixture f;
    setup(&f, load_scene("incline_stick.xml"), -1);
    ck_assert_int_eq(f.m->opt.contact, CS_CONTACT_SOFT);
    ck_assert_int_eq(cs_view_own_model(&f.v, f.m), 0);
    cs_viewer_callbacks cb;
    cs_view_callbacks(&f.v, &cb);
    cb.fill(cb.user, &f.s);
    ck_assert_str_eq(f.s.hud.solver, "Newton elliptic, contact soft");
    int b = cs_name2id_body(f.m, "box");
    const int settle = 100, watch = 250; /* 0.2 s to land, then 0.5 s */
    for (int i = 0; i < settle; i++) ck_assert_int_eq(cb.step(cb.user), 0);
    double p0[3];
    memcpy(p0, f.d->xpos + 3 * b, sizeof p0);
    for (int i = 0; i < watch; i++) ck_assert_int_eq(cb.step(cb.user), 0);
    double soft = downhill(&f, b, p0);

    cb.toggle_contact(cb.user); /* M, between steps */
    ck_assert_int_eq(f.m->opt.contact, CS_CONTACT_COULOMB);
    cb.fill(cb.user, &f.s);
    ck_assert_str_eq(f.s.hud.solver, "Newton elliptic, contact coulomb");
    ck_assert_ptr_null(f.s.hud.message);
    for (int i = 0; i < settle; i++) ck_assert_int_eq(cb.step(cb.user), 0);
    memcpy(p0, f.d->xpos + 3 * b, sizeof p0);
    for (int i = 0; i < watch; i++) ck_assert_int_eq(cb.step(cb.user), 0);
    double coulomb = downhill(&f, b, p0);
    ck_assert_double_gt(soft, 2e-5);      /* about 0.14 mm/s x 0.5 s = 7e-5 m */
    ck_assert_double_lt(fabs(coulomb), 1e-6);

    cs_view_toggle_contact(&f.v); /* and back */
    ck_assert_int_eq(f.m->opt.contact, CS_CONTACT_SOFT);
    cs_view_fill(&f.v, &f.s);
    ck_assert_str_eq(f.s.hud.solver, "Newton elliptic, contact soft");
    teardown(&f);
}
END_TEST

/* A view that was not handed its model writable leaves the model alone and says so. */
START_TEST(contact_key_needs_an_owned_model)
{
    fixture f;
    setup(&f, load_scene("sphere_plane.xml"), -1);
    ck_assert_int_eq(cs_view_toggle_contact(&f.v), -1);
    ck_assert_int_eq(f.m->opt.contact, CS_CONTACT_SOFT);
    cs_view_fill(&f.v, &f.s);
    ck_assert_str_eq(f.s.hud.solver, "PGS elliptic, contact soft");
    ck_assert_ptr_nonnull(f.s.hud.message);
    ck_assert_ptr_nonnull(strstr(f.s.hud.message, "contact model"));
    cs_model *other = load_scene("sphere_plane.xml");
    ck_assert_int_eq(cs_view_own_model(&f.v, other), -1);
    cs_free_model(other);
    teardown(&f);
}
END_TEST

/* The video's default camera follows what moves: the incline's box, which leaves the view of
 * the fixed default camera within its first 1.1 s, stays in the middle of a 640x360 frame to
 * the end of a 2 s video at 30 fps; the same camera on a scene at rest does not move. */
START_TEST(tracking_camera_keeps_the_slider_in_view)
{
    fixture f;
    setup(&f, load_scene("incline_slide.xml"), -1);
    cs_camera fixed;
    cs_view_camera(&f.v, &fixed);
    int box = cs_name2id_body(f.m, "box");
    long taken = 0;
    double px[2];
    int left_fixed = 0;
    cs_camera cam;
    for (int k = 0; k < 60; k++) {
        long target = lround(k / (30 * f.m->opt.timestep));
        while (taken < target) {
            ck_assert_int_eq(cs_view_step(&f.v), 0);
            taken++;
        }
        cs_view_fill(&f.v, &f.s);
        cs_view_track_camera(&f.v, &cam);
        const double *p = f.d->xpos + 3 * box;
        if (k * 30 <= 1100 && (cs_camera_project(&fixed, 640, 360, p, px) != 0 ||
                                px[0] < 0 || px[0] > 640 || px[1] < 0 || px[1] > 360))
            left_fixed = 1;
        ck_assert_int_eq(cs_camera_project(&cam, 640, 360, p, px), 0);
        ck_assert_msg(px[0] > 0.2 * 640 && px[0] < 0.8 * 640 && px[1] > 0.2 * 360 &&
                      px[1] < 0.8 * 360, "frame %d: the box at pixel (%g, %g)", k, px[0], px[1]);
    }
    /* it slid far: the fixed camera lost it, the tracking one kept it */
    ck_assert(left_fixed);
    ck_assert_double_gt(f.d->time, 1.9);
    /* across the slope: the camera looks perpendicular to the downhill direction (-y) */
    double fwd[3];
    cs_camera_frame(&cam, NULL, fwd, NULL, NULL);
    ck_assert_double_lt(fabs(fwd[1]), 1e-9);
    ck_assert_double_lt(fwd[2], -0.2);
    teardown(&f);
}
END_TEST

/* A scene camera is posed as MuJoCo poses it: fixed in its body, tracking (the body's
 * position plus the offset at qpos0, the orientation of qpos0) and looking at a target. */
START_TEST(model_cameras_follow_their_modes)
{
    fixture f;
    setup(&f, load_data_file("good/visual.xml"), -1);
    cs_camera c;
    ck_assert_int_eq(cs_view_model_camera(&f.v, cs_name2id(f.m, "camera", "side"), &c), 0);
    ck_assert(c.fixed);
    ck_assert_double_eq_tol(c.pos[1], -2, 1e-12);
    double fwd[3];
    cs_camera_frame(&c, NULL, fwd, NULL, NULL);
    ck_assert_double_eq_tol(fwd[1], 1, 1e-12); /* side: looking along +y */
    ck_assert_int_eq(cs_view_model_camera(&f.v, f.m->ncam, &c), -1);
    int follow = cs_name2id(f.m, "camera", "follow"), look = cs_name2id(f.m, "camera", "look");
    int box = cs_name2id_body(f.m, "box");
    /* push the box 1 m along x and turn it: the tracking camera moves with it, unturned */
    double *q = f.d->qpos + f.m->jnt_qposadr[f.m->body_jntadr[box]];
    q[0] += 1;
    q[3] = cos(0.5), q[6] = sin(0.5);
    q[4] = q[5] = 0;
    cs_forward(f.m, f.d);
    cs_view_fill(&f.v, &f.s);
    ck_assert_int_eq(cs_view_model_camera(&f.v, follow, &c), 0);
    ck_assert_double_eq_tol(c.pos[0], 1, 1e-9);
    ck_assert_double_eq_tol(c.pos[1], -1, 1e-9);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(c.mat[k], f.m->cam_mat0[9 * follow + k], 1e-12);
    /* targetbody: the camera on the ball looks at the box */
    ck_assert_int_eq(cs_view_model_camera(&f.v, look, &c), 0);
    cs_camera_frame(&c, NULL, fwd, NULL, NULL);
    double to[3];
    for (int k = 0; k < 3; k++) to[k] = f.d->xpos[3 * box + k] - c.pos[k];
    double n = sqrt(to[0] * to[0] + to[1] * to[1] + to[2] * to[2]);
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(fwd[k], to[k] / n, 1e-9);
    teardown(&f);
}
END_TEST


static Suite *suite(void)
{
    Suite *s = suite_create("view");
    TCase *tc = tcase_create("adapter");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, geoms_in_model_order);
    tcase_add_test(tc, hidden_groups_are_not_drawn);
    tcase_add_test(tc, hfield_is_a_closed_mesh);
    tcase_add_test(tc, poses_follow_the_steps);
    tcase_add_test(tc, zone_words_are_the_csv_words);
    tcase_add_test(tc, contacts_are_copied);
    tcase_add_test(tc, contacts_follow_growth);
    tcase_add_test(tc, resting_sphere_contact);
    tcase_add_test(tc, hud_numbers);
    tcase_add_test(tc, welded_body_velocity);
    tcase_add_test(tc, extent_and_force_scale);
    tcase_add_test(tc, control_panel_sets_clamped_controls);
    tcase_add_test(tc, control_panel_has_a_slider_per_control);
    tcase_add_test(tc, perturbation_is_a_force_at_the_anchor);
    tcase_add_test(tc, joints_are_handed_over);
    tcase_add_test(tc, joint_limit_test);
    tcase_add_test(tc, ctrl_drag_turns_a_hinged_link);
    tcase_add_test(tc, ctrl_drag_leaves_static_bodies_alone);
    tcase_add_test(tc, divergence_stops_the_step);
    tcase_add_test(tc, reset_returns_to_the_keyframe);
    tcase_add_test(tc, replay_shows_the_recorded_states);
    tcase_add_test(tc, callbacks_drive_the_view);
    tcase_add_test(tc, contact_key_switches_the_model);
    tcase_add_test(tc, contact_key_needs_an_owned_model);
    tcase_add_test(tc, tracking_camera_keeps_the_slider_in_view);
    tcase_add_test(tc, model_cameras_follow_their_modes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
