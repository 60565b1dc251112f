/* The arrays of the model, the data, the options and a contact by name and shape, for
 * bindings (the Python package) that must not copy the structs' layouts. */
#include <stddef.h>
#include <string.h>

#include "conesim.h"
#include "data_fields.h"
#include "model_fields.h"
#include "option_table.h"

#define NONE ((size_t)-1)

/* rows: a count in the model (rows_off), or 1; cols: fixed, or a count in the model */
typedef struct {
    const char *name;
    int type;
    size_t off;       /* of the pointer (arrays) or the value (scalars) in the struct */
    int ndim;         /* 0 scalar, 1 vector of cols, 2 rows x cols */
    size_t rows_off;  /* cs_model count of rows (ndim 2), NONE for fixed */
    int cols;
    size_t cols_off;  /* cs_model count of columns instead of cols, NONE for fixed */
    int stride;       /* bytes between rows, 0 = packed */
    int skip;         /* bytes from the pointer to the first element */
} desc;

#define I CS_FIELD_INT
#define D CS_FIELD_DOUBLE
#define MI(f) {#f, I, offsetof(cs_model, f), 0, NONE, 0, NONE, 0, 0},
/* the model's scalars; its arrays follow from model_fields.h */
static const desc model_scalars[] = {
    CS_MODEL_SIZES(MI) MI(nconmax) MI(ncon_reserve) MI(ngravcomp) MI(nactuatorid)
};

#define TYPE_CODE(t) _Generic(*(t *)0, double: CS_FIELD_DOUBLE, int: CS_FIELD_INT, default: -1)
typedef struct {
    const char *name;
    int type;         /* cs_field_type, -1 for a struct (not a field) */
    size_t off;       /* of the pointer */
    size_t rows_off;  /* of the row count in cs_model */
} array_desc;
#define MODEL_ARRAY(type, name, rows, cols, set, setflags) \
    {#name, TYPE_CODE(type), offsetof(cs_model, name), offsetof(cs_model, rows)},
static const array_desc model_arrays[] = {CS_MODEL_POINTERS(MODEL_ARRAY)};
#define DATA_ARRAY(type, name, rows, cols) \
    {#name, TYPE_CODE(type), offsetof(cs_data, name), offsetof(cs_model, rows)},
static const array_desc data_arrays[] = {CS_DATA_POINTERS(DATA_ARRAY)};

/* the column count of array k of a list (an expression in the model's sizes) */
static int model_cols(const cs_model *m, int k)
{
    CS_MODEL_COLS_PREAMBLE(m);
    int i = 0;
#define MODEL_COLS(type, name, rows, cols, set, setflags) if (k == i++) return (cols);
    CS_MODEL_POINTERS(MODEL_COLS)
#undef MODEL_COLS
    return 0;
}

static int data_cols(const cs_model *m, int k)
{
    CS_MODEL_COLS_PREAMBLE(m);
    int i = 0;
#define COLS(type, name, rows, cols) if (k == i++) return (cols);
    CS_DATA_POINTERS(COLS)
#undef COLS
    return 0;
}

#define DS(f, t) {#f, t, offsetof(cs_data, f), 0, NONE, 0, NONE, 0, 0}
#define DA(f, n, c) {#f, D, offsetof(cs_data, f), 2, offsetof(cs_model, n), c, NONE, 0, 0}
/* the data's scalars and the fields inside its structs; its arrays come first, from
 * data_fields.h */
static const desc data_fields[] = {
    DS(time, D), {"energy", D, offsetof(cs_data, energy), 1, NONE, 2, NONE, 0, 0},
    DS(ncon, I), DS(nefc, I), DS(ntree_awake, I), DS(nbody_awake, I), DS(nv_awake, I),
    /* the geom poses, strided out of the cs_pose array */
    {"geom_xpos", D, offsetof(cs_data, geom_xpose), 2, offsetof(cs_model, ngeom), 3, NONE,
     (int)sizeof(cs_pose), (int)offsetof(cs_pose, pos)},
    {"geom_xmat", D, offsetof(cs_data, geom_xpose), 2, offsetof(cs_model, ngeom), 9, NONE,
     (int)sizeof(cs_pose), (int)offsetof(cs_pose, mat)},
    /* the last step's solver statistics and the warning counts, in the struct itself */
    {"solver_niter", I, offsetof(cs_data, solver.iterations), 0, NONE, 0, NONE, 0, 0},
    {"solver_at_limit", I, offsetof(cs_data, solver.at_limit), 0, NONE, 0, NONE, 0, 0},
    {"solver_nisland", I, offsetof(cs_data, solver.nisland), 0, NONE, 0, NONE, 0, 0},
    {"solver_noslip", I, offsetof(cs_data, solver.noslip), 0, NONE, 0, NONE, 0, 0},
    {"solver_cost", D, offsetof(cs_data, solver.cost), 0, NONE, 0, NONE, 0, 0},
    {"solver_dual_cost", D, offsetof(cs_data, solver.dual_cost), 0, NONE, 0, NONE, 0, 0},
    {"solver_improvement", D, offsetof(cs_data, solver.improvement), 0, NONE, 0, NONE, 0, 0},
    {"solver_primal_feas", D, offsetof(cs_data, solver.primal_feas), 0, NONE, 0, NONE, 0, 0},
    {"solver_stationarity", D, offsetof(cs_data, solver.stationarity), 0, NONE, 0, NONE, 0, 0},
    {"solver_complementarity", D, offsetof(cs_data, solver.complementarity), 0, NONE, 0, NONE,
     0, 0},
    DS(solver_stats, I), DS(ncon_cap, I),
    {"warning", I, offsetof(cs_data, warning), 1, NONE, CS_NWARN, NONE, 0, 0},
};

#define F(s, f, t, c) {#f, t, offsetof(s, f), (c) ? 1 : 0, NONE, (c), NONE, 0, 0}

static const desc contact_fields[] = {
    F(cs_contact, pos, D, 3), F(cs_contact, frame, D, 9), F(cs_contact, dist, D, 0),
    F(cs_contact, geom1, I, 0), F(cs_contact, geom2, I, 0), F(cs_contact, dim, I, 0),
    F(cs_contact, exclude, I, 0), F(cs_contact, friction, D, 5), F(cs_contact, solref, D, 2),
    F(cs_contact, solreffriction, D, 2), F(cs_contact, solimp, D, 5),
    F(cs_contact, margin, D, 0), F(cs_contact, gap, D, 0),
    F(cs_contact, adhesion, D, 0), F(cs_contact, efc_address, I, 0),
    F(cs_contact, force, D, 6), F(cs_contact, vel, D, 6), F(cs_contact, zone, I, 0),
};

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

static int count(const cs_model *m, size_t off)
{
    return *(const int *)((const char *)m + off);
}

/* `base` holds the field: arrays sized by the model (ndim 2) by pointer, scalars and fixed
 * arrays (ndim 1) in place */
static int describe(const desc *t, int n, int k, const cs_model *m, const void *base,
                    int inplace, cs_field *out)
{
    if (k < 0 || k >= n) return -1;
    const desc *e = &t[k];
    char *at = (char *)base + e->off;
    out->name = e->name;
    out->type = e->type;
    out->ndim = e->ndim;
    out->shape[0] = e->ndim == 2 ? count(m, e->rows_off) : e->ndim == 1 ? e->cols : 1;
    out->shape[1] = e->ndim == 2 ? (e->cols_off != NONE ? count(m, e->cols_off) : e->cols) : 1;
    out->stride = e->stride;
    out->ptr = (e->ndim < 2 || inplace) ? (void *)at : (void *)(*(char **)at + e->skip);
    return 0;
}

/* array k of a list: rows x cols from the model, at the pointer in `base` */
static void describe_array(const array_desc *a, int cols, const cs_model *m, const void *base,
                           cs_field *out)
{
    *out = (cs_field){a->name, a->type, 2, {count(m, a->rows_off), cols}, 0,
                      *(void *const *)((const char *)base + a->off)};
}

int cs_model_field(const cs_model *m, int k, cs_field *out)
{
    if (k >= 0 && k < COUNT(model_scalars))
        return describe(model_scalars, COUNT(model_scalars), k, m, m, 0, out);
    k -= COUNT(model_scalars);
    if (k < 0 || k >= COUNT(model_arrays)) return -1;
    describe_array(&model_arrays[k], model_cols(m, k), m, m, out);
    return 0;
}

int cs_data_field(const cs_model *m, const cs_data *d, int k, cs_field *out)
{
    if (k < 0) return -1;
    for (int i = 0; i < COUNT(data_arrays); i++) { /* the arrays of numbers */
        if (data_arrays[i].type < 0) continue;
        if (k-- == 0) {
            describe_array(&data_arrays[i], data_cols(m, i), m, d, out);
            return 0;
        }
    }
    return describe(data_fields, COUNT(data_fields), k, m, d, 0, out);
}

cs_option *cs_model_option(cs_model *m) { return &m->opt; }

int cs_option_field(const cs_option *o, int k, cs_field *out)
{
    if (k < 0 || k >= cs_option_ndefs) return -1;
    const cs_option_def *e = &cs_option_defs[k];
    *out = (cs_field){e->name, e->type, e->n > 1, {e->n, 1}, 0, (char *)o + e->off};
    return 0;
}

int cs_contact_array_field(const cs_data *d, int k, cs_field *out)
{
    if (k < 0 || k >= COUNT(contact_fields)) return -1;
    const desc *e = &contact_fields[k];
    out->name = e->name;
    out->type = e->type;
    out->ndim = 2;
    out->shape[0] = d->ncon_cap;
    out->shape[1] = e->ndim ? e->cols : 1;
    out->stride = (int)sizeof(cs_contact);
    out->ptr = d->contact ? (char *)d->contact + e->off : NULL;
    return 0;
}

int cs_contact_field(const cs_data *d, int i, int k, cs_field *out)
{
    if (i < 0 || i >= d->ncon) return -1;
    return describe(contact_fields, COUNT(contact_fields), k, NULL, &d->contact[i], 1, out);
}
