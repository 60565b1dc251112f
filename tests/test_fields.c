/* The field lists (sim/api/model_fields.h, sim/api/data_fields.h) describe every member of cs_model
 * and cs_data: the members they name, with the few scalars and contexts they do not, tile
 * the structs (a member left out leaves a hole); every array lies in the one block; the
 * bindings' table names every array with its shape (keyframes' mocap poses too). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conesim.h"
#include "data_fields.h"
#include "data_scratch.h"
#include "model_fields.h"

#ifndef CS_SCENES
#error "CS_SCENES (the scenes directory) must be defined by the build"
#endif

typedef struct {
    const char *name;
    size_t off, size, align;
} member;

static int by_offset(const void *a, const void *b)
{
    const member *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* the members sorted by place must follow each other up to alignment and end the struct */
static void tiles(member *v, int n, size_t size, const char *what)
{
    qsort(v, (size_t)n, sizeof *v, by_offset);
    size_t end = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_msg(v[i].off == (end + v[i].align - 1) / v[i].align * v[i].align,
                      "%s: a member before %s is in no list", what, v[i].name);
        end = v[i].off + v[i].size;
    }
    ck_assert_msg(size - end < _Alignof(double), "%s: members after %s are in no list", what,
                  v[n - 1].name);
}

#define MEMBER(s, f) \
    {#f, offsetof(s, f), sizeof(((s *)0)->f), _Alignof(__typeof__(((s *)0)->f))},

START_TEST(test_model_members_listed)
{
    member v[] = {
#define SZ(f) MEMBER(cs_model, f)
#define PTR(type, f, rows, cols, set, setflags) MEMBER(cs_model, f)
#define NAMES(f, rows, kind) MEMBER(cs_model, f)
        CS_MODEL_SIZES(SZ) CS_MODEL_POINTERS(PTR) CS_MODEL_NAMES(NAMES)
        /* not arrays */
        SZ(modelname) SZ(path) SZ(nconmax) SZ(ncon_reserve) SZ(opt) SZ(ngravcomp) SZ(nactuatorid)
        SZ(stat_extent) SZ(stat_center) SZ(vis_azimuth) SZ(vis_elevation) SZ(vis_fovy)
        SZ(vis_orthographic) SZ(nchange)
        SZ(buffer) SZ(nbuffer)
#undef SZ
#undef PTR
#undef NAMES
    };
    tiles(v, (int)(sizeof v / sizeof v[0]), sizeof(cs_model), "cs_model");
}
END_TEST

START_TEST(test_data_members_listed)
{
    member v[] = {
#define SZ(f) MEMBER(cs_data, f)
#define PTR(type, f, rows, cols) MEMBER(cs_data, f)
        CS_DATA_POINTERS(PTR)
        /* allocated on their own, scalars and the stages' workspace */
        SZ(contact) SZ(time) SZ(energy) SZ(ncon) SZ(ncon_cap) SZ(nefc) SZ(efc) SZ(solver)
        SZ(solver_stats) SZ(warning) SZ(scratch) SZ(nchange) SZ(buffer) SZ(nbuffer)
        SZ(ntree_awake) SZ(nbody_awake) SZ(nv_awake)
#undef SZ
#undef PTR
    };
    tiles(v, (int)(sizeof v / sizeof v[0]), sizeof(cs_data), "cs_data");
}
END_TEST

START_TEST(test_data_scratch_members_listed)
{
    member v[] = {
#define SZ(f) MEMBER(struct cs_data_scratch, f)
#define PTR(type, f, rows, cols) MEMBER(struct cs_data_scratch, f)
        CS_DATA_SCRATCH(PTR)
        /* allocated on their own and the module contexts */
        SZ(rawcon) SZ(jac) SZ(rk4) SZ(collision) SZ(solver_ws) SZ(mass) SZ(massH) SZ(rowtrees)
#undef SZ
#undef PTR
    };
    tiles(v, (int)(sizeof v / sizeof v[0]), sizeof(struct cs_data_scratch), "cs_data_scratch");
}
END_TEST

/* mocap bodies and a keyframe: key_mpos and key_mquat have rows and columns */
static const char *XML =
    "<mujoco><worldbody><geom type=\"plane\" size=\"1 1 0.1\"/>"
    "<body name=\"target\" mocap=\"true\" pos=\"0 0 1\"><geom size=\"0.05\"/></body>"
    "<body name=\"b\" pos=\"0 0 0.2\"><freejoint/><geom size=\"0.1\"/></body></worldbody>"
    "<keyframe><key name=\"k\" qpos=\"0 0 0.3 1 0 0 0\" mpos=\"0 1 1\" mquat=\"1 0 0 0\"/>"
    "<key name=\"k2\"/></keyframe></mujoco>";

static int in_block(const void *p, const void *buffer, size_t n)
{
    return (const char *)p >= (const char *)buffer && (const char *)p < (const char *)buffer + n;
}

START_TEST(test_arrays_in_block_and_table)
{
    char err[512];
    cs_model *m = cs_load_xml_string(XML, "mocap_key.xml", NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cs_data *d = cs_make_data(m);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(m->nbuffer, cs_model_nbuffer(m));
#define IN_MODEL(type, f, rows, cols, set, setflags) \
    ck_assert_msg(in_block(m->f, m->buffer, m->nbuffer), #f " is outside the model's block");
    CS_MODEL_POINTERS(IN_MODEL)
#undef IN_MODEL
#define IN_DATA(type, f, rows, cols) \
    ck_assert_msg(in_block(d->f, d->buffer, d->nbuffer), #f " is outside the data's block");
    CS_DATA_POINTERS(IN_DATA)
#undef IN_DATA
#define IN_DATA(type, f, rows, cols) \
    ck_assert_msg(in_block(d->scratch->f, d->buffer, d->nbuffer), #f " is outside the data's block");
    CS_DATA_SCRATCH(IN_DATA)
#undef IN_DATA

    /* every model array in the bindings' table, with its shape and place */
    CS_MODEL_COLS_PREAMBLE(m);
    cs_field f;
    int found;
#define IN_TABLE(type, fld, rows, cols, set, setflags) \
    found = 0; \
    for (int k = 0; cs_model_field(m, k, &f) == 0; k++) \
        if (strcmp(f.name, #fld) == 0) { \
            found = 1; \
            ck_assert_int_eq(f.ndim, 2); \
            ck_assert_int_eq(f.shape[0], m->rows); \
            ck_assert_int_eq(f.shape[1], cols); \
            ck_assert_ptr_eq(f.ptr, m->fld); \
        } \
    ck_assert_msg(found, #fld " is not in cs_model_field's table");
    CS_MODEL_POINTERS(IN_TABLE)
#undef IN_TABLE
#define IN_DTABLE(type, fld, rows, cols) \
    found = 0; \
    for (int k = 0; cs_data_field(m, d, k, &f) == 0; k++) \
        if (strcmp(f.name, #fld) == 0) { \
            found = 1; \
            ck_assert_int_eq(f.shape[0], m->rows); \
            ck_assert_int_eq(f.shape[1], cols); \
            ck_assert_ptr_eq(f.ptr, d->fld); \
        } \
    ck_assert_msg(found || strcmp(#fld, "geom_xpose") == 0, \
                  #fld " is not in cs_data_field's table");
    CS_DATA_POINTERS(IN_DTABLE)
#undef IN_DTABLE
    ck_assert_int_eq(m->nmocap, 1);
    ck_assert_int_eq(m->nkey, 2);
    for (int k = 0; cs_model_field(m, k, &f) == 0; k++)
        if (strcmp(f.name, "key_mpos") == 0) {
            ck_assert_int_eq(f.shape[0], 2);
            ck_assert_int_eq(f.shape[1], 3);
            ck_assert_double_eq(((double *)f.ptr)[1], 1);
            ck_assert_double_eq(((double *)f.ptr)[5], 1); /* key k2: the body's pose */
        }
    cs_free_data(d);
    cs_free_model(m);
}
END_TEST

/* cs_name2id and cs_id2name agree for every named kind (made from the same list) */
START_TEST(test_names_every_kind)
{
    char err[512], path[1024];
    snprintf(path, sizeof path, "%s/tendon_gripper.xml", CS_SCENES);
    cs_model *m = cs_load_xml(path, NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    int named = 0;
#define ROUND_TRIP(f, rows, kind) \
    for (int i = 0; i < m->rows; i++) { \
        const char *n = cs_id2name(m, kind, i); \
        ck_assert_ptr_eq(n, m->f[i]); \
        if (n) { \
            named++; \
            ck_assert_int_eq(cs_name2id(m, kind, n), i); \
        } \
    } \
    ck_assert_ptr_null(cs_id2name(m, kind, m->rows)); \
    ck_assert_int_eq(cs_name2id(m, kind, "no such name"), -1);
    CS_MODEL_NAMES(ROUND_TRIP)
#undef ROUND_TRIP
    ck_assert_int_gt(named, 5);
    ck_assert_int_gt(m->nsite + m->ntendon, 0);
    if (m->nsite && m->site_name[0])
        ck_assert_int_eq(cs_name2id(m, "site", m->site_name[0]), 0);
    ck_assert_int_eq(cs_name2id(m, "nonsense", "x"), -1);
    ck_assert_ptr_null(cs_id2name(m, "nonsense", 0));
    cs_free_model(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fields");
    TCase *tc = tcase_create("fields");
    tcase_set_timeout(tc, 60); /* a loaded machine, a sanitizer build */
    tcase_add_test(tc, test_model_members_listed);
    tcase_add_test(tc, test_data_members_listed);
    tcase_add_test(tc, test_data_scratch_members_listed);
    tcase_add_test(tc, test_arrays_in_block_and_table);
    tcase_add_test(tc, test_names_every_kind);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
