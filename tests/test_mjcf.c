/* The MJCF loader: every good scene loads and steps; every file of the broken catalogue
 * (tests/data/bad/, first line "<!-- expect: LINE: PHRASE -->") fails with FILE:LINE and
 * the phrase; the CLI's exit codes. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conesim.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int list_xml(const char *dir, char names[][256], int max)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0)
            snprintf(names[n++], 256, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return n;
}

START_TEST(test_good_scenes)
{
    static char names[64][256];
    int n = list_xml(CS_TEST_DATA "/good", names, 64);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++) {
        char err[1024];
        cs_model *m = cs_load_xml(names[i], NULL, err, sizeof err);
        ck_assert_msg(m != NULL, "%s: %s", names[i], err);
        cs_data *d = cs_make_data(m);
        ck_assert_ptr_nonnull(d);
        if (m->nkey) cs_reset_key(m, d, 0);
        for (int k = 0; k < 100; k++) cs_step(m, d);
        ck_assert_int_eq(cs_check_finite(m, d), -1);
        cs_free_data(d);
        cs_free_model(m);
    }
}
END_TEST

/* Visual elements against MuJoCo 3.12's compiler (mujoco-js on tests/data/good/visual.xml):
 * a gradient skybox's texels (sides, top, bottom faces), the
 * checker's quarters and edge marks, a geom rgba overriding its material's, a targetbody
 * camera's offset from its target's subtree centre of mass. */
START_TEST(visual_elements_as_mujoco_compiles_them)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/visual.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->ntex, 3);
    ck_assert_int_eq(m->tex_type[0], 2);
    ck_assert_int_eq(m->tex_width[0], 32);
    ck_assert_int_eq(m->tex_height[0], 192);
    const int *sky = m->tex_data + m->tex_adr[0];
    static const int mj[][4] = {{0, 0, 0, 57 << 16 | 96 << 8 | 135},
                                {0, 16, 16, 37 << 16 | 61 << 8 | 86},
                                {0, 31, 5, 16 << 16 | 27 << 8 | 38},
                                {2, 0, 0, 57 << 16 | 96 << 8 | 135},
                                {2, 10, 20, 70 << 16 | 116 << 8 | 163},
                                {3, 0, 0, 18 << 16 | 30 << 8 | 43}};
    for (size_t k = 0; k < sizeof mj / sizeof *mj; k++)
        ck_assert_int_eq(sky[mj[k][0] * 32 * 32 + mj[k][1] * 32 + mj[k][2]], mj[k][3]);
    const int *check = m->tex_data + m->tex_adr[1];
    ck_assert_int_eq(check[0], 0x7f7f7f);             /* the edge mark */
    ck_assert_int_eq(check[5 * 64 + 5], 0xffffff);    /* top left: rgb1 */
    ck_assert_int_eq(check[5 * 64 + 40], 0x000000);   /* top right: rgb2 */
    ck_assert_int_eq(check[40 * 64 + 40], 0xffffff);  /* bottom right: rgb1 */
    int look = cs_name2id(m, "camera", "look");
    ck_assert_double_eq_tol(m->cam_poscom0[3 * look + 0], 0.5, 1e-12);
    ck_assert_double_eq_tol(m->cam_poscom0[3 * look + 1], -1, 1e-12);
    ck_assert_double_eq_tol(m->cam_poscom0[3 * look + 2], 0.9995828682568811, 1e-12);
    ck_assert_int_eq(m->geom_matid[cs_name2id_geom(m, "tint")], cs_name2id(m, "material", "red"));
    cs_free_model(m);
}
END_TEST

/* CS_LOAD_NO_TEXELS: the same model but the builtin textures' texels (0 there; a file's
 * texels kept), and a bad file is refused with it as without it */
START_TEST(no_texels_flag)
{
    char err[1024];
    const char *path = CS_TEST_DATA "/good/visual.xml";
    cs_model *a = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(a != NULL, "%s", err);
    cs_model *b = cs_load_xml_flags(path, CS_LOAD_NO_TEXELS, 0, NULL, NULL, NULL, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_int_eq(a->ntex, b->ntex);
    ck_assert_int_eq(a->ntexdata, b->ntexdata);
    int nonzero = 0;
    for (int t = 0; t < a->ntex; t++) {
        ck_assert_int_eq(a->tex_width[t], b->tex_width[t]);
        ck_assert_int_eq(a->tex_height[t], b->tex_height[t]);
        ck_assert_int_eq(a->tex_adr[t], b->tex_adr[t]);
        for (int k = 0; k < a->tex_width[t] * a->tex_height[t]; k++) {
            nonzero += a->tex_data[a->tex_adr[t] + k] != 0;
            ck_assert_int_eq(b->tex_data[b->tex_adr[t] + k], 0);
        }
    }
    ck_assert_int_gt(nonzero, 0);
    /* everything else the same: one step of each from the same state */
    cs_data *da = cs_make_data(a), *db = cs_make_data(b);
    for (int k = 0; k < 20; k++) {
        cs_step(a, da);
        cs_step(b, db);
    }
    for (int i = 0; i < a->nq; i++) ck_assert(da->qpos[i] == db->qpos[i]);
    cs_free_data(da);
    cs_free_data(db);
    cs_free_model(a);
    cs_free_model(b);
    static const char bad[] = "<mujoco><asset><texture name=\"s\" type=\"skybox\" "
                              "builtin=\"gradient\" width=\"-3\"/></asset></mujoco>";
    char tmp[] = "/tmp/conesim-texXXXXXX";
    int fd = mkstemp(tmp);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, bad, sizeof bad - 1), (ssize_t)(sizeof bad - 1));
    close(fd);
    char e1[1024], e2[1024];
    ck_assert_ptr_null(cs_load_xml(tmp, NULL, e1, sizeof e1));
    ck_assert_ptr_null(cs_load_xml_flags(tmp, CS_LOAD_NO_TEXELS, 0, NULL, NULL, NULL, e2, sizeof e2));
    ck_assert_str_eq(e1, e2);
    unlink(tmp);
}
END_TEST

/* PNG texture files (conesim's own reader): every colour type decodes to the image's
 * colours (written by PIL: RGB texel (x, y) = (20 x, 30 y, 7 x y mod 256); its 16-colour
 * palette version as PIL reads it back), hflip/vflip mirror it, a cube's faces come from a
 * gridlayout, the name defaults to the file's stem */
START_TEST(png_textures)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/textures.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    int rgb = cs_name2id(m, "texture", "rgb"), pal = cs_name2id(m, "texture", "palette");
    int rgba = cs_name2id(m, "texture", "rgba"), grey = cs_name2id(m, "texture", "grey");
    int flip = cs_name2id(m, "texture", "flipped"), cube = cs_name2id(m, "texture", "cube");
    ck_assert_int_ge(grey, 0);
    ck_assert_int_eq(m->tex_width[rgb], 12);
    ck_assert_int_eq(m->tex_height[rgb], 8);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 12; x++) {
            int want = (20 * x) << 16 | (30 * y) << 8 | ((7 * x * y) % 256);
            ck_assert_int_eq(m->tex_data[m->tex_adr[rgb] + 12 * y + x], want);
            ck_assert_int_eq(m->tex_data[m->tex_adr[rgba] + 12 * y + x], want);
            ck_assert_int_eq(m->tex_data[m->tex_adr[grey] + 12 * y + x], (20 * x) * 0x010101);
            ck_assert_int_eq(m->tex_data[m->tex_adr[flip] + 12 * (7 - y) + (11 - x)], want);
        }
    ck_assert_int_eq(m->tex_data[m->tex_adr[pal]], 40 << 16);
    ck_assert_int_eq(m->tex_data[m->tex_adr[pal] + 12 * 3 + 5], 120 << 16 | 105 << 8 | 147);
    ck_assert_int_eq(m->tex_data[m->tex_adr[pal] + 12 * 7 + 11], 190 << 16 | 150 << 8 | 77);
    /* faces R L U D F B of 4 x 4, each one colour */
    static const int face[6] = {0xff0000, 0x00ff00, 0x0000ff, 0xffff00, 0x00ffff, 0xff00ff};
    ck_assert_int_eq(m->tex_width[cube], 4);
    ck_assert_int_eq(m->tex_height[cube], 24);
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 16; k++) ck_assert_int_eq(m->tex_data[m->tex_adr[cube] + 16 * f + k], face[f]);
    cs_free_model(m);
}
END_TEST

/* a light's physically based lighting attributes (MuJoCo 3.12) load and are listed as
 * ignored: they change pictures only */
START_TEST(test_light_pbr_attributes_ignored)
{
    static const char xml[] =
        "<mujoco><default><light softness='0.3'/></default><worldbody>"
        "<light pos='0 0 3' softness='0.5' bulbradius='0.1' intensity='200' range='20'/>"
        "<body pos='0 0 1'><freejoint/><geom size='0.1'/></body></worldbody></mujoco>";
    char err[1024], *buf = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&buf, &len);
    cs_model *m = cs_load_xml_string(xml, "light.xml", warn, err, sizeof err);
    fclose(warn);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->nlight, 1);
    ck_assert_ptr_nonnull(strstr(buf, "light/@softness"));
    ck_assert_ptr_nonnull(strstr(buf, "light/@bulbradius"));
    free(buf);
    cs_free_model(m);
}
END_TEST

/* a KTX texture file (MuJoCo's renderer reads it) loads, drawn as its rgb1, and is listed
 * as ignored; a missing one is an error at its line */
START_TEST(test_ktx_texture)
{
    static const char xml[] =
        "<mujoco><asset><texture name='ibl' type='skybox' file='" CS_TEST_DATA
        "/good/textures/light.ktx' rgb1='1 0 0'/></asset>"
        "<worldbody><geom type='plane' size='1 1 0.1'/></worldbody></mujoco>";
    char err[1024], *buf = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&buf, &len);
    cs_model *m = cs_load_xml_string(xml, "ktx.xml", warn, err, sizeof err);
    fclose(warn);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->ntex, 1);
    ck_assert_int_eq(m->tex_data[m->tex_adr[0]], 0xff0000);
    ck_assert_ptr_nonnull(strstr(buf, "KTX"));
    free(buf);
    cs_free_model(m);
    static const char missing[] =
        "<mujoco><asset><texture name='ibl' type='skybox' file='/nonexistent/light.ktx'/>"
        "</asset><worldbody/></mujoco>";
    ck_assert_ptr_null(cs_load_xml_string(missing, "ktx.xml", NULL, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "ktx.xml:1:"));
}
END_TEST

START_TEST(test_everything_scene)
{
    char err[1024], *buf = NULL;
    size_t len = 0;
    FILE *warn = open_memstream(&buf, &len);
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/everything.xml", warn, err, sizeof err);
    fclose(warn);
    ck_assert_msg(m != NULL, "%s", err);
    /* ignored visual-only things are listed once */
    ck_assert_ptr_nonnull(strstr(buf, "joint/@group"));
    ck_assert_ptr_null(strstr(strstr(buf, "joint/@group") + 1, "joint/@group"));
    /* lights, cameras, materials and textures are read (mjcf_visual.c), not ignored */
    ck_assert_ptr_null(strstr(buf, "light"));
    ck_assert_ptr_null(strstr(buf, "material"));
    free(buf);
    ck_assert_int_eq(m->nlight, 1);
    ck_assert_int_eq(m->ncam, 1);
    ck_assert_int_eq(m->nmat, 1);
    ck_assert_int_eq(m->ntex, 1);
    ck_assert_int_eq(m->geom_matid[cs_name2id_geom(m, "floor")], 0);
    ck_assert_int_eq(m->mat_texid[0], 0);
    ck_assert_int_eq(m->nbody, 8);
    ck_assert_int_eq(m->njnt, 4);
    ck_assert_int_eq(m->ngeom, 11);
    ck_assert_int_eq(m->npair, 2);
    ck_assert_int_eq(m->nexclude, 1);
    ck_assert_int_eq(m->opt.cone, CS_CONE_ELLIPTIC);
    ck_assert_int_eq(m->opt.solver, CS_SOLVER_PGS);
    ck_assert_int_eq(m->opt.iterations, 50);
    ck_assert_double_eq(m->opt.impratio, 2);
    ck_assert_int_eq(m->nconmax, 200);
    /* geoms numbered body by body: world's floor first */
    ck_assert_int_eq(cs_name2id_geom(m, "floor"), 0);
    ck_assert_int_eq(cs_name2id_body(m, "welded_child"), 5);
    ck_assert_int_eq(m->body_weldid[5], 4);
    /* the ball: class red (priority 1, solmix 2, condim 4 from soft) and mass 2 */
    int g = cs_name2id_geom(m, "ball_geom");
    ck_assert_int_eq(m->geom_priority[g], 1);
    ck_assert_double_eq(m->geom_solmix[g], 2);
    ck_assert_int_eq(m->geom_condim[g], 4);
    ck_assert_double_eq_tol(m->body_mass[3], 2, 1e-14);
    ck_assert_double_eq(m->pair_solreffriction[0], 0.01);
    ck_assert_double_eq(m->pair_margin[0], 0.002);
    /* second pair: the main pair default (condim 4, friction 0.7 ...) */
    ck_assert_int_eq(m->pair_condim[1], 4);
    ck_assert_double_eq(m->pair_friction[5], 0.7);
    cs_free_model(m);
}
END_TEST

/* <option solver="CG"> means MuJoCo's CG: loaded as written (with its line-search
 * options), and it steps to Newton's trajectory (both solve the same cost to the tolerance) */
START_TEST(test_cg_scene)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/cg_solver.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->opt.solver, CS_SOLVER_CG);
    ck_assert_int_eq(m->opt.ls_iterations, 30);
    ck_assert_double_eq(m->opt.ls_tolerance, 0.02);
    double q[2][14];
    for (int run = 0; run < 2; run++) {
        m->opt.solver = run ? CS_SOLVER_NEWTON : CS_SOLVER_CG;
        cs_data *d = cs_make_data(m);
        for (int k = 0; k < 250; k++) cs_step(m, d);
        ck_assert_int_gt(d->ncon, 0);
        memcpy(q[run], d->qpos, sizeof q[run]);
        cs_free_data(d);
    }
    ck_assert_double_gt(q[0][0], 0.05); /* the stack slides along the tilted gravity */
    for (int i = 0; i < 14; i++) ck_assert_double_eq_tol(q[0][i], q[1][i], 1e-5);
    cs_free_model(m);
}
END_TEST

START_TEST(test_compiler_scene)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/compiler_options.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    /* settotalmass scales everything to 10 */
    ck_assert_double_eq_tol(m->body_mass[1] + m->body_mass[2], 10, 1e-12);
    /* inertiafromgeom=true ignores <inertial>; the group-3 sphere does not count: the box and
     * the capsule keep their volume ratio */
    double vbox = 0.2 * 0.4 * 0.6, vcap = M_PI * 0.0025 * 1.0 + 4.0 / 3.0 * M_PI * 1.25e-4;
    ck_assert_double_eq_tol(m->body_mass[1] / m->body_mass[2], vbox / vcap, 1e-12);
    ck_assert_double_eq(m->geom_mass[2], 0);
    /* radians; ZYX: the first angle turns about z */
    ck_assert_double_eq_tol(m->body_quat[4], sqrt(0.5), 1e-12);
    ck_assert_double_eq_tol(m->body_quat[7], sqrt(0.5), 1e-12);
    ck_assert_int_eq(m->opt.cone, CS_CONE_PYRAMIDAL);
    ck_assert_int_eq(m->opt.solver, CS_SOLVER_NEWTON);
    ck_assert(m->opt.disableflags & CS_DSBL_GRAVITY);
    ck_assert(m->opt.disableflags & CS_DSBL_WARMSTART);
    ck_assert(m->opt.enableflags & CS_ENBL_OVERRIDE);
    ck_assert_int_eq(m->nkey, 1);
    ck_assert_double_eq(m->key_time[0], 1.5);
    /* key without qpos keeps qpos0 */
    ck_assert_double_eq(m->key_qpos[2], 1);
    cs_data *d = cs_make_data(m);
    cs_reset_key(m, d, 0);
    ck_assert_double_eq(d->time, 1.5);
    cs_step(m, d);
    /* gravity disabled: nothing accelerates the second body */
    ck_assert_double_eq(d->qvel[6], 1);
    ck_assert_double_eq(d->qvel[8], 0);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_frames_scene)
{
    char err[1024];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/frames.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    int post = cs_name2id_geom(m, "post"), box = cs_name2id_body(m, "box");
    ck_assert_int_eq(post, 1); /* world geoms first, in document order */
    ck_assert_int_eq(box, 1);
    ck_assert_int_eq(cs_name2id_body(m, "after"), 2);
    /* the post: fromto midpoint (0,0,0.5) moved by the frame */
    ck_assert_double_eq_tol(m->geom_pos[3 * post], 1, 1e-12);
    ck_assert_double_eq_tol(m->geom_pos[3 * post + 2], 0.5, 1e-12);
    ck_assert_double_eq(m->geom_friction[3 * post], 0.1);
    /* the box body: frame (1,0,0) turned 90 deg about z, then (1,0,0.5) -> (1,1,0.5) */
    ck_assert_double_eq_tol(m->body_pos[3 * box], 1, 1e-12);
    ck_assert_double_eq_tol(m->body_pos[3 * box + 1], 1, 1e-12);
    ck_assert_double_eq_tol(m->body_quat[4 * box], sqrt(0.5), 1e-12);
    ck_assert_double_eq_tol(m->body_quat[4 * box + 3], sqrt(0.5), 1e-12);
    /* childclass reaches into the body; the inner frame offsets the hat */
    int hat = cs_name2id_geom(m, "hat");
    ck_assert_double_eq(m->geom_friction[3 * hat], 0.1);
    ck_assert_double_eq_tol(m->geom_pos[3 * hat + 2], 0.2, 1e-12);
    cs_free_model(m);
}
END_TEST

/* Mesh assets: volumes, centres of mass and inertia of shapes with known answers, read
 * from binary and ASCII STL, OBJ (quads, v/vt/vn) and inline vertices. */
static double body_mass(const cs_model *m, const char *name)
{
    return m->body_mass[cs_name2id_body(m, name)];
}

START_TEST(test_mesh_assets)
{
    char err[1024] = "";
    cs_model *m = cs_load_xml(CS_TEST_DATA "/good/meshes.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->nmesh, 12);
    /* hexagonal prism r 0.05, h 0.04 (float coordinates in the STL) */
    double vhex = 1.5 * sqrt(3.0) * 0.05 * 0.05 * 0.04;
    ck_assert_double_eq_tol(body_mass(m, "hex"), 1000 * vhex, 1e-6 * 1000 * vhex);
    /* its frame: the centre of the prism, 0.02 up from the data's origin */
    int hb = cs_name2id_body(m, "hex");
    ck_assert_double_eq_tol(m->body_ipos[3 * hb + 2], 0.02, 1e-8);
    /* unit cube from 0 to 1: centre (0.5, 0.5, 0.5), I = m/6 */
    int cb = cs_name2id_body(m, "cube"), cg = cs_name2id_geom(m, "cube");
    ck_assert_double_eq_tol(body_mass(m, "cube"), 1000, 1e-9);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(m->geom_pos[3 * cg + k], 0.5, 1e-12);
        ck_assert_double_eq_tol(m->body_inertia[3 * cb + k], 1000.0 / 6, 1e-9);
    }
    ck_assert_int_eq(m->geom_type[cg], CS_GEOM_MESH);
    int id = m->geom_dataid[cg];
    ck_assert_int_ge(id, 0);
    ck_assert_int_eq(m->mesh_graph[m->mesh_graphadr[id]], 8);     /* hull vertices */
    ck_assert_int_eq(m->mesh_graph[m->mesh_graphadr[id] + 1], 6); /* hull faces */
    ck_assert_int_eq(m->mesh_facenum[id], 12);                    /* quads fanned */
    /* refpos moves the data: the centre is then the geom origin */
    int cc = cs_name2id_geom(m, "cube_centred");
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->geom_pos[3 * cc + k], 0, 1e-12);
    /* refquat turns the data, the geom keeps its own pos */
    int ct = cs_name2id_geom(m, "cube_turned");
    ck_assert_double_eq_tol(m->geom_pos[3 * ct], 0.1, 1e-12);
    /* class scale 2 1 1: twice the volume, box inertia of a 2 x 1 x 1 block */
    int lb = cs_name2id_body(m, "cube_long");
    ck_assert_double_eq_tol(body_mass(m, "cube_long"), 2000, 1e-9);
    double Il[3] = {m->body_inertia[3 * lb], m->body_inertia[3 * lb + 1], m->body_inertia[3 * lb + 2]};
    ck_assert_double_eq_tol(Il[0] + Il[1] + Il[2], 2000.0 * (2 * 5 + 2) / 12, 1e-8);
    ck_assert_double_eq_tol(fmin(Il[0], fmin(Il[1], Il[2])), 2000.0 * 2 / 12, 1e-8);
    /* a mirror keeps the volume positive and puts the centre at -0.5 */
    ck_assert_double_eq_tol(body_mass(m, "cube_mirror"), 1000, 1e-9);
    ck_assert_double_eq_tol(m->geom_pos[3 * cs_name2id_geom(m, "cube_mirror")], -0.5, 1e-12);
    /* hollow cube of mass 1, side 1: I = 5/18 */
    int sb = cs_name2id_body(m, "cube_shell");
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->body_inertia[3 * sb + k], 5.0 / 18, 1e-12);
    /* ASCII STL tetrahedron: volume 1/6, centre at the vertices' mean */
    int tb = cs_name2id_body(m, "tet");
    ck_assert_double_eq_tol(body_mass(m, "tet"), 1000.0 / 6, 1e-9);
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(m->body_ipos[3 * tb + k], 0.25, 1e-12);
    /* the same tetrahedron in MuJoCo's MSH format, 2 along x: the same mass, its centre moved */
    int tm = cs_name2id_body(m, "tetmsh");
    ck_assert_double_eq_tol(body_mass(m, "tetmsh"), 1000.0 / 6, 1e-9);
    ck_assert_double_eq_tol(m->body_ipos[3 * tm], 2.25, 1e-7);
    for (int k = 1; k < 3; k++) ck_assert_double_eq_tol(m->body_ipos[3 * tm + k], 0.25, 1e-7);
    /* faceless OBJ: the hull is the mesh; maxhullvert caps it */
    int rf = m->geom_dataid[cs_name2id_geom(m, "rock_few")];
    ck_assert_int_le(m->mesh_graph[m->mesh_graphadr[rf]], 5);
    int rk = m->geom_dataid[cs_name2id_geom(m, "rock")];
    ck_assert_int_eq(m->mesh_facenum[rk], m->mesh_graph[m->mesh_graphadr[rk] + 1]);
    /* inline box, convex inertia: the box's mass and moments (sides exact in single
     * precision, in which MuJoCo and conesim keep a mesh's vertices) */
    int bb = cs_name2id_body(m, "boxm");
    ck_assert_double_eq_tol(body_mass(m, "boxm"), 15.625, 1e-12);
    double Ib = m->body_inertia[3 * bb] + m->body_inertia[3 * bb + 1] + m->body_inertia[3 * bb + 2];
    ck_assert_double_eq_tol(Ib, 15.625 / 12 * 2 * (0.25 + 0.0625 + 0.015625), 1e-12);
    /* vertices sit in the geom frame: centred, within rbound */
    int va = m->mesh_vertadr[id], vn = m->mesh_vertnum[id];
    double mean[3] = {0, 0, 0};
    for (int v = 0; v < vn; v++)
        for (int k = 0; k < 3; k++) mean[k] += m->mesh_vert[3 * (va + v) + k] / vn;
    for (int k = 0; k < 3; k++) ck_assert_double_eq_tol(mean[k], 0, 1e-12);
    ck_assert_double_eq_tol(m->geom_rbound[cg], sqrt(0.75), 1e-12);
    cs_free_model(m);
}
END_TEST

/* A model split across files (defaults, an arm that includes its hand, actuators and a
 * keyframe; two <worldbody> and two <default> sections) compiles to exactly the model of the
 * same file written in one piece: every array of the model's field table is equal. The hand
 * is found next to the arm that includes it, the mesh through the main file's meshdir. */
START_TEST(test_include)
{
    char err[1024];
    cs_model *a = cs_load_xml(CS_TEST_DATA "/good/include_scene.xml", NULL, err, sizeof err);
    ck_assert_msg(a != NULL, "%s", err);
    cs_model *b = cs_load_xml(CS_TEST_DATA "/good/include_flat.xml", NULL, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_int_eq(a->nbody, 4);
    ck_assert_int_eq(a->ngeom, 5);
    ck_assert_int_eq(a->nu, 2);
    ck_assert_int_eq(cs_name2id_geom(a, "post"), 1); /* the world's geoms first */
    cs_field fa, fb;
    int k = 0;
    for (; cs_model_field(a, k, &fa) == 0; k++) {
        ck_assert_int_eq(cs_model_field(b, k, &fb), 0);
        ck_assert_int_eq(fa.shape[0], fb.shape[0]);
        ck_assert_int_eq(fa.shape[1], fb.shape[1]);
        size_t n = (size_t)fa.shape[0] * (size_t)fa.shape[1] *
                   (fa.type == CS_FIELD_INT ? sizeof(int) : sizeof(double));
        ck_assert_msg(memcmp(fa.ptr, fb.ptr, n) == 0, "field %s differs", fa.name);
    }
    ck_assert_int_gt(k, 100);
    for (int i = 0; i < a->nactuator; i++) ck_assert_str_eq(a->actuator_name[i], b->actuator_name[i]);
    cs_free_model(a);
    cs_free_model(b);
}
END_TEST

START_TEST(test_bad_catalogue)
{
    static char names[512][256];
    int n = list_xml(CS_TEST_DATA "/bad", names, 512);
    ck_assert_int_ge(n, 30);
    ck_assert_int_lt(n, 512); /* every file read, none left out by the cap */
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(names[i], "r");
        ck_assert_ptr_nonnull(f);
        char first[512] = "";
        ck_assert_ptr_nonnull(fgets(first, sizeof first, f));
        fclose(f);
        /* "<!-- expect: LINE: phrase -->", or "FILE:LINE: phrase" when the error is in a
         * file the scene includes (FILE relative to the scene's directory) */
        int line = 0;
        char phrase[400] = "", file[256] = "";
        if (sscanf(first, "<!-- expect: %d: %399[^\n]", &line, phrase) != 2)
            ck_assert_msg(sscanf(first, "<!-- expect: %255[^: ]:%d: %399[^\n]", file, &line,
                                 phrase) == 3,
                          "%s: no expect line", names[i]);
        char *end = strstr(phrase, " -->");
        if (end) *end = 0;
        char err[1024] = "";
        cs_model *m = cs_load_xml(names[i], NULL, err, sizeof err);
        if (m) cs_free_model(m);
        ck_assert_msg(m == NULL, "%s: loaded but should fail", names[i]);
        char prefix[600];
        if (file[0])
            snprintf(prefix, sizeof prefix, "%s/bad/%s:%d: ", CS_TEST_DATA, file, line);
        else
            snprintf(prefix, sizeof prefix, "%.256s:%d: ", names[i], line);
        ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "%s: expected '%s...', got '%s'",
                      names[i], prefix, err);
        ck_assert_msg(strstr(err, phrase) != NULL, "%s: expected phrase '%s' in '%s'", names[i],
                      phrase, err);
    }
}
END_TEST

/* Never a crash: deterministic mutations of the big good scene (deleted spans, numbers
 * replaced by junk, duplicated tags) either load or fail with "NAME:LINE: ...". */
static unsigned long lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

START_TEST(test_mutation_fuzz)
{
    FILE *f = fopen(CS_TEST_DATA "/good/everything.xml", "rb");
    ck_assert_ptr_nonnull(f);
    static char src[16384], buf[20000];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    static const char *const junk[] = {"nan", "-1", "0", "1e999", "x", "", "1 2", "0 0 0 0",
                                       "\"", "<", "-0.5 -0.5 -0.5", "1e-300"};
    unsigned long seed = 12345;
    int loaded = 0, failed = 0;
    for (int it = 0; it < 400; it++) {
        size_t a = lcg(&seed) % n, len = 1 + lcg(&seed) % 40, op = lcg(&seed) % 3;
        if (a + len > n) len = n - a;
        size_t k = 0;
        memcpy(buf, src, a);
        k = a;
        if (op == 0) { /* delete a span */
        } else if (op == 1) { /* replace a span by junk */
            const char *j = junk[lcg(&seed) % (sizeof junk / sizeof junk[0])];
            memcpy(buf + k, j, strlen(j));
            k += strlen(j);
        } else { /* duplicate a span */
            memcpy(buf + k, src + a, len);
            k += len;
            memcpy(buf + k, src + a, len);
            k += len;
        }
        memcpy(buf + k, src + a + len, n - a - len);
        k += n - a - len;
        buf[k] = 0;
        char err[1024] = "";
        cs_model *m = cs_load_xml_string(buf, "fuzz.xml", NULL, err, sizeof err);
        if (m) {
            loaded++;
            cs_data *d = cs_make_data(m);
            ck_assert_ptr_nonnull(d);
            for (int s2 = 0; s2 < 5; s2++) cs_step(m, d);
            cs_free_data(d);
            cs_free_model(m);
        } else {
            failed++;
            ck_assert_msg(strncmp(err, "fuzz.xml:", 9) == 0, "message without FILE:LINE: '%s'", err);
        }
    }
    printf("fuzz: %d mutated files loaded, %d rejected\n", loaded, failed);
    ck_assert_int_gt(failed, 100);
}
END_TEST

/* <statistic> and <visual><global> reach the model for the viewers' default camera */
START_TEST(test_camera_framing)
{
    char err[512];
    const char *xml = "<mujoco><statistic extent='2.5' center='1 2 3' meanmass='1'/>"
                      "<visual><global azimuth='130' elevation='-20'/><quality shadowsize='8'/>"
                      "</visual><worldbody><geom type='sphere' size='0.1'/></worldbody>"
                      "</mujoco>";
    cs_model *m = cs_load_xml_string(xml, "cam.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_eq(m->stat_extent, 2.5);
    ck_assert_double_eq(m->stat_center[2], 3);
    ck_assert_double_eq(m->vis_azimuth, 130);
    ck_assert_double_eq(m->vis_elevation, -20);
    cs_free_model(m);
    m = cs_load_xml_string("<mujoco><worldbody/></mujoco>", "none.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_eq(m->stat_extent, 0); /* not given: the viewer measures the bodies */
    ck_assert(isnan(m->stat_center[0]));
    ck_assert_double_eq(m->vis_azimuth, 90); /* MuJoCo's defaults */
    ck_assert_double_eq(m->vis_elevation, -45);
    cs_free_model(m);
    m = cs_load_xml_string("<mujoco>\n<statistic extent='0'/></mujoco>", "bad.xml", NULL, err,
                           sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err, "bad.xml:2:") && strstr(err, "extent"), "%s", err);
}
END_TEST

/* A key's zero quaternion for a free joint is the identity, as MuJoCo's normalisation makes
 * it (MuJoCo Menagerie's pal_talos has one) */
START_TEST(test_key_zero_quat)
{
    char err[512];
    const char *xml = "<mujoco><worldbody><body><freejoint/><geom size='0.1'/></body>"
                      "</worldbody><keyframe><key qpos='0 0 1 0 0 0 0'/></keyframe></mujoco>";
    cs_model *m = cs_load_xml_string(xml, "key.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_eq(m->key_qpos[3], 1);
    ck_assert_double_eq(m->key_qpos[4] + m->key_qpos[5] + m->key_qpos[6], 0);
    cs_free_model(m);
}
END_TEST

static cs_model *load_str(const char *xml)
{
    char err[512];
    cs_model *m = cs_load_xml_string(xml, "lenient.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    return m;
}

/* What MuJoCo 3.12 reads with fewer numbers than the attribute holds (its read table marks
 * them inexact: the given numbers replace the first ones, the rest keep the default or the
 * class's value): solref, solimp and their limit, friction and option forms, polycoef, and
 * stiffness and damping whose higher-order terms are 0. */
START_TEST(test_short_attributes)
{
    cs_model *m = load_str(
        "<mujoco><default><geom solref='0.03 0.7'/><default class='b'><geom solimp='0.8'/></default>"
        "</default><option o_solref='0.05'/><worldbody>"
        "<geom name='a' type='plane' size='1 1 0.1' solref='0.05'/>"
        "<body><joint name='h1' solreflimit='0.1' range='-1 1' stiffness='10 0' damping='2 0 0'/>"
        "<geom class='b' size='0.1'/>"
        "<body pos='0 0 -0.3'><joint name='h2'/><geom size='0.1'/></body></body>"
        "</worldbody><tendon><fixed name='t' stiffness='100 0'><joint joint='h1' coef='1'/></fixed>"
        "</tendon><equality><joint joint1='h1' joint2='h2' polycoef='0.3'/></equality></mujoco>");
    ck_assert_double_eq(m->geom_solref[0], 0.05);
    ck_assert_double_eq(m->geom_solref[1], 0.7); /* the class's */
    ck_assert_double_eq(m->geom_solref[2], 0.03);
    const double si[5] = {0.8, 0.95, 0.001, 0.5, 2}; /* the rest: MuJoCo's defaults */
    for (int i = 0; i < 5; i++) ck_assert_double_eq(m->geom_solimp[5 + i], si[i]);
    ck_assert_double_eq(m->jnt_solref[0], 0.1);
    ck_assert_double_eq(m->jnt_solref[1], 1);
    ck_assert_double_eq(m->opt.o_solref[0], 0.05);
    ck_assert_double_eq(m->opt.o_solref[1], 1);
    ck_assert_double_eq(m->jnt_stiffness[0], 10);
    ck_assert_double_eq(m->dof_damping[0], 2);
    ck_assert_double_eq(m->tendon_stiffness[0], 100);
    const double pc[5] = {0.3, 1, 0, 0, 0}; /* the default 0 1 0 0 0 after the given 0.3 */
    for (int i = 0; i < 5; i++) ck_assert_double_eq(m->eq_data[i], pc[i]);
    cs_free_model(m);
    /* MuJoCo 3.12's attributes that change nothing here: a body's simple (storage only),
     * <attach>'s name conflicts (refused), diagexact at its default; sleeping's threshold and
     * a root body's sleep policy are read */
    m = load_str("<mujoco><compiler conflict='merge'/><option sleep_tolerance='0.01'>"
                 "<flag diagexact='disable'/></option><worldbody><body sleep='never' simple='false'>"
                 "<freejoint/><geom size='0.1'/></body></worldbody></mujoco>");
    ck_assert_double_eq(m->opt.sleep_tolerance, 0.01);
    ck_assert_int_eq(m->tree_sleep_policy[0], CS_SLEEP_NEVER);
    cs_free_model(m);
}
END_TEST

/* <joint> and <freejoint> inside a <frame>: the frame's pose carries the joint's position and
 * axis into the body, as MuJoCo's compiler does; the model is the one with the joint written
 * in the body's frame */
START_TEST(test_joint_in_frame)
{
    const char *body = "<mujoco><worldbody><body pos='0 0 1'>%s<geom size='0.05' pos='0.3 0 0'/>"
                       "</body></worldbody></mujoco>";
    char a[512], b[512];
    snprintf(a, sizeof a, body, "<frame pos='0.1 0 0' euler='0 0 90'><joint type='hinge' "
             "pos='0.2 0 0' axis='1 0 0'/></frame>");
    snprintf(b, sizeof b, body, "<joint type='hinge' pos='0.1 0.2 0' axis='0 1 0'/>");
    cs_model *ma = load_str(a), *mb = load_str(b);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq_tol(ma->jnt_pos[i], mb->jnt_pos[i], 1e-15);
        ck_assert_double_eq_tol(ma->jnt_axis[i], mb->jnt_axis[i], 1e-15);
    }
    cs_data *da = cs_make_data(ma), *db = cs_make_data(mb);
    for (int k = 0; k < 200; k++) {
        cs_step(ma, da);
        cs_step(mb, db);
    }
    ck_assert(fabs(da->qpos[0]) > 0.1); /* it swings */
    ck_assert_double_eq_tol(da->qpos[0], db->qpos[0], 1e-12);
    cs_free_data(da);
    cs_free_data(db);
    cs_free_model(ma);
    cs_free_model(mb);
    snprintf(a, sizeof a, body, "<frame pos='0.1 0 0'><freejoint/></frame>");
    ma = load_str(a);
    ck_assert_int_eq(ma->nq, 7);
    ck_assert_double_eq(ma->qpos0[2], 1);
    cs_free_model(ma);
}
END_TEST

/* Keys as MuJoCo 3.12 completes them (mjCModel::ExpandKeyframe): a short qpos from qpos0, a
 * short qvel, ctrl or act with 0, a ball's quaternion normalised; <size nkey> adds keys at
 * the defaults (qpos0, time 0) */
START_TEST(test_short_keys)
{
    cs_model *m = load_str(
        "<mujoco><compiler angle='radian'/><size nkey='3'/><worldbody>"
        "<body pos='0 0 1'><freejoint/><geom size='0.1'/></body>"
        "<body><joint name='h' ref='0.25'/><geom size='0.1'/></body>"
        "<body><joint name='s' type='ball'/><geom size='0.1'/></body>"
        "</worldbody><actuator><motor joint='h'/><motor joint='h'/></actuator>"
        "<keyframe><key time='2' qpos='0.5 0 2' qvel='1 2' ctrl='3'/>"
        "<key qpos='0 0 1 1 0 0 0 0.25 2 0 0 0'/></keyframe></mujoco>");
    ck_assert_int_eq(m->nkey, 3);
    ck_assert_int_eq(m->nq, 12);
    ck_assert_int_eq(m->nv, 10);
    const double q0[12] = {0.5, 0, 2, 1, 0, 0, 0, 0.25, 1, 0, 0, 0};
    for (int i = 0; i < 12; i++) ck_assert_double_eq(m->key_qpos[i], q0[i]);
    ck_assert_double_eq(m->key_qvel[0], 1);
    ck_assert_double_eq(m->key_qvel[1], 2);
    for (int i = 2; i < 10; i++) ck_assert_double_eq(m->key_qvel[i], 0);
    ck_assert_double_eq(m->key_ctrl[0], 3);
    ck_assert_double_eq(m->key_ctrl[1], 0);
    ck_assert_double_eq(m->key_qpos[12 + 8], 1); /* (2 0 0 0) normalised */
    for (int i = 0; i < 12; i++) ck_assert_double_eq(m->key_qpos[24 + i], m->qpos0[i]);
    ck_assert_double_eq(m->key_time[2], 0);
    cs_data *d = cs_make_data(m);
    ck_assert_int_eq(cs_reset_key(m, d, 0), 0);
    ck_assert_double_eq(d->qvel[1], 2);
    ck_assert_double_eq(d->qpos[7], 0.25);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* A primitive with a mesh attribute is fitted to it as MuJoCo's compiler does: a mesh that
 * is a 0.125 x 0.25 x 0.375 (half sizes, exact in the single precision of mesh vertices)
 * box, offset by (1, 0, 0): its inertia box is itself, so a capsule gets radius
 * (0.125 + 0.25) / 2 and half-length 0.375 - 0.1875 / 2; with fitaabb it covers the box
 * (radius 0.25, half-length 0.375 - 0.25); fitscale scales; the geom sits at the mesh's
 * centre */
START_TEST(test_fit_to_mesh)
{
    char err[512], xml[1024];
    const char *fmt = "<mujoco><compiler fitaabb='%s'/><asset><mesh name='b' vertex='"
                      "0.875 -0.25 -0.375 1.125 -0.25 -0.375 0.875 0.25 -0.375 1.125 0.25 -0.375 "
                      "0.875 -0.25 0.375 1.125 -0.25 0.375 0.875 0.25 0.375 1.125 0.25 0.375'/>"
                      "</asset><worldbody>"
                      "<geom name='c' type='capsule' mesh='b'/>"
                      "<geom name='k' type='box' mesh='b' fitscale='2'/></worldbody></mujoco>";
    snprintf(xml, sizeof xml, fmt, "false");
    cs_model *m = cs_load_xml_string(xml, "fit.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_int_eq(m->geom_type[0], CS_GEOM_CAPSULE);
    ck_assert_double_eq_tol(m->geom_size[0], 0.1875, 1e-12);
    ck_assert_double_eq_tol(m->geom_size[1], 0.375 - 0.09375, 1e-12);
    ck_assert_double_eq_tol(m->geom_pos[0], 1, 1e-12);
    /* the box's sizes come out along the mesh's principal axes (longest last), times 2 */
    double s = m->geom_size[3] + m->geom_size[4] + m->geom_size[5];
    ck_assert_double_eq_tol(s, 2 * (0.125 + 0.25 + 0.375), 1e-12);
    cs_free_model(m);
    snprintf(xml, sizeof xml, fmt, "true");
    m = cs_load_xml_string(xml, "fit.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_double_eq_tol(m->geom_size[0], 0.25, 1e-12);
    ck_assert_double_eq_tol(m->geom_size[1], 0.125, 1e-12);
    ck_assert_double_eq_tol(m->geom_pos[0], 1, 1e-12);
    cs_free_model(m);
}
END_TEST

/* A mesh's frame and vertices as MuJoCo's compiler keeps them: a flat box (half sizes
 * 0.5 0.5 0.1, its short side along the first principal axis, of the largest moment) has
 * the principal moments of the closed form m (b^2 + c^2) / 3; its vertices are stored in single precision; the
 * frame's quaternion is unit to the compiler's 1e-14, and a geom without an orientation of
 * its own, alone in its body, takes that quaternion unchanged as its own and as the body's
 * inertial frame (no renormalisation moves its last bits), and one turned a half turn
 * about x takes the product exactly. */
START_TEST(test_mesh_frame)
{
    char err[512];
    const char *xml = "<mujoco><asset><mesh name='w' scale='.5 .5 .1' vertex='"
                      "-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1'/>"
                      "</asset><worldbody><body><freejoint/><geom type='mesh' mesh='w'/>"
                      "</body><geom type='mesh' mesh='w' quat='0 1 0 0'/></worldbody></mujoco>";
    cs_model *m = cs_load_xml_string(xml, "frame.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    const double *q = m->mesh_quat;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    ck_assert(fabs(n - 1) <= 1e-14);
    for (int k = 0; k < 4; k++) {
        ck_assert(m->geom_quat[4 + k] == q[k]); /* the world's geom comes first */
        ck_assert(m->body_iquat[4 + k] == q[k]);
    }
    for (int i = 0; i < 3 * m->mesh_vertnum[0]; i++)
        ck_assert(m->mesh_vert[i] == (double)(float)m->mesh_vert[i]);
    double mass = m->body_mass[1], a = 0.5, c = 0.1;
    ck_assert_double_eq_tol(mass, 1000 * 8 * a * a * c, 1e-9);
    ck_assert_double_eq_tol(m->body_inertia[3], mass * (a * a + a * a) / 3, 1e-9);
    ck_assert_double_eq_tol(m->body_inertia[4], mass * (a * a + c * c) / 3, 1e-9);
    ck_assert_double_eq_tol(m->body_inertia[5], mass * (a * a + c * c) / 3, 1e-9);
    /* a half turn about x composed with the frame: a signed permutation, exact */
    const double *g = m->geom_quat;
    ck_assert(g[0] == -q[1] && g[1] == q[0] && g[2] == -q[3] && g[3] == q[2]);
    ck_assert_double_eq_tol(m->geom_size[0], c, 1e-12);
    cs_free_model(m);
}
END_TEST

START_TEST(test_missing_file)
{
    char err[512];
    cs_model *m = cs_load_xml(CS_TEST_DATA "/no/such/file.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(err, "file.xml:0: cannot read the file"));
}
END_TEST

static int run_status(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>&1", CS_CONESIM, args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* <deformable> holding skins only (drawn over bodies, no physics) loads, the skins listed as
 * ignored; a flex in it is refused where it is written. */
START_TEST(test_deformable_skin)
{
    cs_model *m = load_str(
        "<mujoco><worldbody><body name='b'><freejoint/><geom size='0.1'/></body></worldbody>"
        "<deformable><skin name='s' vertex='0 0 0 1 0 0 0 1 0' face='0 1 2'>"
        "<bone body='b' bindpos='0 0 0' bindquat='1 0 0 0' vertid='0 1 2' vertweight='1 1 1'/>"
        "</skin></deformable></mujoco>");
    ck_assert_int_eq(m->nbody, 2);
    cs_free_model(m);
    char err[512] = "";
    m = cs_load_xml_string("<mujoco><worldbody/>\n<deformable>\n<flex name='f' dim='1' "
                           "body='world world' vertex='0 0 0 1 0 0' element='0 1'/>"
                           "</deformable></mujoco>", "flex.xml", NULL, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err, "flex.xml:3:") != NULL, "%s", err);
}
END_TEST

/* A site's pose from its default class (childclass too), as MuJoCo's: a spatial tendon
 * between two sites placed only by classes is as long as the distance between those places;
 * a site's own pos replaces the class's. */
START_TEST(test_site_class_pose)
{
    cs_model *m = load_str(
        "<mujoco><default><default class='a'><site pos='0.3 0 0' euler='0 0 90'/></default>"
        "<default class='b'><site pos='0 0.4 0'/></default></default><worldbody>"
        "<body childclass='a'><site name='s1'/><site name='s2' class='b'/>"
        "<site name='s3' pos='0 0 0.5'/><joint/><geom size='0.1'/></body></worldbody>"
        "<tendon><spatial name='t'><site site='s1'/><site site='s2'/></spatial></tendon></mujoco>");
    cs_data *d = cs_make_data(m);
    cs_forward(m, d);
    ck_assert_double_eq_tol(d->ten_length[0], 0.5, 1e-12); /* |(0.3,0,0) - (0,0.4,0)| */
    /* s3: its own pos in place of the class's */
    ck_assert_double_eq_tol(d->site_xpos[3 * 2 + 0], 0, 1e-12);
    ck_assert_double_eq_tol(d->site_xpos[3 * 2 + 2], 0.5, 1e-12);
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

START_TEST(test_cli_exit_codes)
{
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --steps 5 --quiet"), 0);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/bad/hinge_joint.xml"), 3);
    ck_assert_int_eq(run_status("info " CS_TEST_DATA "/bad/zero_quat.xml"), 3);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --record /nonexistent/dir/x.csv"), 4);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --bogus"), 2);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --steps -3"), 2);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --steps 3 --duration 1"), 2);
    ck_assert_int_eq(run_status("run"), 2);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --set option.bogus=1"), 2);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --timestep -1"), 2);
    ck_assert_int_eq(run_status("run " CS_TEST_DATA "/good/everything.xml --steps 2 --quiet --timestep 0.01 --cone elliptic --solver newton --iterations 5 --tolerance 1e-9 --set option.impratio=3"), 0);
}
END_TEST

/* the CSV of a run: header, rows for step 0..N per moving body (everything.xml: 4 free
 * bodies, one with a welded child), %.17g */
START_TEST(test_cli_record)
{
    char path[] = "/tmp/cs_test_recXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char args[512];
    snprintf(args, sizeof args, "run " CS_TEST_DATA "/good/everything.xml --steps 7 --quiet --record %s", path);
    ck_assert_int_eq(run_status(args), 0);
    FILE *f = fopen(path, "r");
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
    int rows = 0;
    long last = -1;
    while (fgets(line, sizeof line, f)) {
        rows++;
        last = strtol(line, NULL, 10);
    }
    fclose(f);
    remove(path);
    ck_assert_int_eq(rows, 8 * 5);
    ck_assert_int_eq(last, 7);
    (void)fd;
}
END_TEST

/* --every thins rows (the final state always written); SIGINT leaves whole rows, exit 130 */
START_TEST(test_cli_every_and_sigint)
{
    char path[] = "/tmp/cs_test_everyXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char args[600];
    snprintf(args, sizeof args, "run " CS_TEST_DATA "/good/everything.xml --steps 10 --every 4 --quiet --record %s", path);
    ck_assert_int_eq(run_status(args), 0);
    FILE *f = fopen(path, "r");
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    long steps[64];
    int rows = 0;
    while (fgets(line, sizeof line, f) && rows < 64) steps[rows++] = strtol(line, NULL, 10);
    fclose(f);
    ck_assert_int_eq(rows, 4 * 5);
    ck_assert_int_eq(steps[0], 0);
    ck_assert_int_eq(steps[5], 4);
    ck_assert_int_eq(steps[10], 8);
    ck_assert_int_eq(steps[15], 10);

    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             /* a script's background job starts with SIGINT ignored, which conesim keeps:
              * env gives it the default back; the signal goes once rows are on disk */
             "env --default-signal=INT %s run " CS_TEST_DATA "/good/everything.xml "
             "--steps 2000000000 --every 1000 --quiet --record %s >/dev/null 2>&1 & pid=$!; i=0; "
             "while [ \"$(wc -c < %s)\" -lt 4096 ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i+1)); "
             "done; kill -INT $pid; wait $pid",
             CS_CONESIM, path, path);
    int st = system(cmd);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 130);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
    int whole = 1;
    rows = 0;
    while (fgets(line, sizeof line, f)) {
        int commas = 0;
        for (char *p = line; *p; p++) commas += *p == ',';
        whole &= commas == 15 && line[strlen(line) - 1] == '\n';
        rows++;
    }
    fclose(f);
    remove(path);
    ck_assert_int_ge(rows, 4);
    ck_assert(whole);
    (void)fd;
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mjcf");
    TCase *t = tcase_create("mjcf");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_good_scenes);
    tcase_add_test(t, test_everything_scene);
    tcase_add_test(t, test_light_pbr_attributes_ignored);
    tcase_add_test(t, test_ktx_texture);
    tcase_add_test(t, visual_elements_as_mujoco_compiles_them);
    tcase_add_test(t, png_textures);
    tcase_add_test(t, no_texels_flag);
    tcase_add_test(t, test_include);
    tcase_add_test(t, test_compiler_scene);
    tcase_add_test(t, test_cg_scene);
    tcase_add_test(t, test_frames_scene);
    tcase_add_test(t, test_bad_catalogue);
    tcase_add_test(t, test_mesh_assets);
    tcase_add_test(t, test_camera_framing);
    tcase_add_test(t, test_key_zero_quat);
    tcase_add_test(t, test_short_attributes);
    tcase_add_test(t, test_joint_in_frame);
    tcase_add_test(t, test_short_keys);
    tcase_add_test(t, test_fit_to_mesh);
    tcase_add_test(t, test_mesh_frame);
    tcase_add_test(t, test_missing_file);
    tcase_add_test(t, test_mutation_fuzz);
    tcase_add_test(t, test_site_class_pose);
    tcase_add_test(t, test_deformable_skin);
    tcase_add_test(t, test_cli_exit_codes);
    tcase_add_test(t, test_cli_record);
    tcase_add_test(t, test_cli_every_and_sigint);
    suite_add_tcase(s, t);
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
