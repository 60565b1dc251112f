/* Writes straight into the model's settable arrays (MuJoCo's m.geom_friction[i] = ...),
 * taken at a moment the caller picks: a copy of the arrays cs_set knows is kept, and each
 * row found changed since goes through the setter's checks and what follows from it
 * (sim/api/setter.c). The copy is the caller's, so a model needs nothing for it. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "conesim.h"
#include "model_fields.h"
#include "option_table.h"
#include "setter.h"

struct cs_model_watch {
    int narray;
    size_t *at;     /* narray + 1: where each array's copy starts in vals */
    char **arr;     /* narray: the model's arrays (they never move) */
    char *vals;     /* the values last taken */
    char *next;     /* room for the largest array: its values as written */
    cs_option opt;  /* the options last taken */
};

const char *cs_settable_field(int i)
{
    static const cs_model sizes; /* the offsets do not depend on the sizes */
    cs_set_array a;
    if (cs_set_array_get(&sizes, i, &a) != 0) return NULL;
#define NAME(type, f, rows, cols, set, setflags) \
    if (a.off == offsetof(cs_model, f)) return #f;
    CS_MODEL_POINTERS(NAME)
#undef NAME
    return NULL;
}

static const char *array_of(const cs_model *m, const cs_set_array *a)
{
    return *(char *const *)((const char *)m + a->off);
}

cs_model_watch *cs_watch_model(const cs_model *m)
{
    if (!m) return NULL;
    cs_model_watch *w = cs_calloc(1, sizeof *w);
    if (!w) return NULL;
    cs_set_array a;
    while (cs_set_array_get(m, w->narray, &a) == 0) w->narray++;
    w->at = cs_calloc((size_t)w->narray + 1, sizeof *w->at);
    w->arr = cs_calloc((size_t)w->narray + 1, sizeof *w->arr);
    if (!w->at || !w->arr) {
        cs_watch_free(w);
        return NULL;
    }
    for (int i = 0; i < w->narray; i++) {
        cs_set_array_get(m, i, &a);
        w->at[i + 1] = w->at[i] + (size_t)a.rows * (size_t)a.cols * a.elem;
        w->arr[i] = *(char *const *)((const char *)m + a.off);
    }
    size_t largest = 0;
    for (int i = 0; i < w->narray; i++)
        if (w->at[i + 1] - w->at[i] > largest) largest = w->at[i + 1] - w->at[i];
    w->vals = cs_malloc(w->at[w->narray] + 1);
    w->next = cs_malloc(largest + 1);
    if (!w->vals || !w->next) {
        cs_watch_free(w);
        return NULL;
    }
    for (int i = 0; i < w->narray; i++) {
        cs_set_array_get(m, i, &a);
        memcpy(w->vals + w->at[i], array_of(m, &a), w->at[i + 1] - w->at[i]);
    }
    w->opt = m->opt;
    return w;
}

void cs_watch_free(cs_model_watch *w)
{
    if (!w) return;
    cs_free(w->at);
    cs_free(w->arr);
    cs_free(w->vals);
    cs_free(w->next);
    cs_free(w);
}

/* "geom_friction[2] (geom 'floor')": the array's row and whose it is */
static void label(const cs_model *m, int i, const cs_set_array *a, int row, char *out,
                  size_t n)
{
    int id = a->perdof ? m->dof_jntid[row] : a->perctrl ? cs_ctrl_actuator(m, row) : row;
    const char *name = cs_id2name(m, a->kind, id);
    if (name)
        snprintf(out, n, "%s[%d] (%s '%s')", cs_settable_field(i), row, a->kind, name);
    else
        snprintf(out, n, "%s[%d] (%s %d)", cs_settable_field(i), row, a->kind, id);
}

int cs_watch_commit(cs_model *m, cs_model_watch *w, char *err, size_t errsz)
{
    if (!m || !w) return -1;
    int taken = 0, refused = 0, seen = 0;
    char why[512] = "";
    for (int i = 0; i < w->narray; i++) {
        char *cur = w->arr[i], *old = w->vals + w->at[i];
        size_t bytes = w->at[i + 1] - w->at[i];
        if (bytes == 0 || memcmp(cur, old, bytes) == 0) continue; /* the usual case */
        cs_set_array a;
        cs_set_array_get(m, i, &a);
        size_t rowbytes = (size_t)a.cols * a.elem;
        seen = 1;
        /* the array back to its old values first, so that each row is checked among values
         * already taken (a joint's dofs are checked together), then row by row */
        memcpy(w->next, cur, bytes);
        memcpy(cur, old, bytes);
        for (int r = 0; r < a.rows; r++) {
            const char *p = w->next + (size_t)r * rowbytes;
            if (memcmp(p, old + (size_t)r * rowbytes, rowbytes) == 0) continue;
            double v[10];
            for (int c = 0; c < a.cols; c++)
                v[c] = a.elem == sizeof(int) ? (double)((const int *)p)[c]
                                             : ((const double *)p)[c];
            char lab[192], e[512];
            label(m, i, &a, r, lab, sizeof lab);
            if (cs_set_row(m, i, r, v, lab, e, sizeof e) == 0) taken++;
            else if (refused++ == 0) snprintf(why, sizeof why, "%s", e);
        }
    }
    /* the options (m->opt.gravity[2] = ...): each member written, checked as the setter
     * checks it, from the values taken before */
    if (memcmp(&m->opt, &w->opt, sizeof m->opt) != 0) {
        cs_option now = m->opt;
        m->opt = w->opt;
        int changed = 0;
        for (int k = 0; k < cs_option_ndefs; k++) {
            const cs_option_def *e = &cs_option_defs[k];
            double v[CS_OPTION_MAXN], old[CS_OPTION_MAXN];
            cs_option_get(&now, e, v);
            cs_option_get(&m->opt, e, old);
            if (memcmp(v, old, (size_t)e->n * sizeof *v) == 0) continue;
            char e2[256];
            const char *no = strcmp(e->name, "contact") == 0
                                 ? cs_coulomb_adhesion_refusal(m, (int)v[0], 0)
                                 : NULL;
            if (no) {
                if (refused++ == 0) snprintf(why, sizeof why, "opt.%s: %s", e->name, no);
            } else if (cs_option_put(&m->opt, e, v, e2, sizeof e2) == 0) {
                taken++;
                changed = 1;
            } else if (refused++ == 0) {
                snprintf(why, sizeof why, "opt.%s: %s", e->name, e2);
            }
        }
        if (changed) m->nchange++;
        w->opt = m->opt;
    }
    /* the copy follows the model: values taken, refused rows restored, and what the setter
     * changed in other settable arrays */
    for (int i = 0; i < w->narray && seen; i++)
        memcpy(w->vals + w->at[i], w->arr[i], w->at[i + 1] - w->at[i]);
    if (refused) {
        if (err && errsz) {
            if (refused > 1)
                snprintf(err, errsz, "%s (and %d more row%s refused)", why, refused - 1,
                         refused > 2 ? "s" : "");
            else
                snprintf(err, errsz, "%s", why);
        }
        return -1;
    }
    return taken;
}
