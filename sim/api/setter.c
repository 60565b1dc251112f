/* cs_set and cs_get: the model's documented parameters by name, changed between steps
 * (MuJoCo's "change mjModel between steps"), with what is computed from them kept in step:
 * the inverse weights after a mass, inertia or armature change, a geom's bounding radius
 * after a size change, a free body's start after its pos changes. Data made earlier see a
 * change at their next step (cs_data_sync rebuilds what they copied from the model). */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "conesim.h"
#include "numlist.h"
#include "data_scratch.h"
#include "data_fields.h"
#include "sameframe.h"
#include "inertia.h"
#include "option_table.h"
#include "setter.h"
#include "solver/solver.h"
#include "stages.h"

/* the model table's check and recompute flags (CS_SET_*), and one of the setter's own */
enum {
    NONNEG = CS_SET_NONNEG, POSITIVE = CS_SET_POSITIVE, INVWEIGHT = CS_SET_INVWEIGHT,
    RBOUND = CS_SET_RBOUND, FREEPOS = CS_SET_FREEPOS, CONDIM = CS_SET_CONDIM,
    PERDOF = CS_SET_PERDOF, ALLDOFS = CS_SET_ALLDOFS, PERCTRL = CS_SET_PERCTRL,
    INTEGER = 4 /* an int array */
};

/* A settable array of the model: a line of CS_MODEL_POINTERS (model_fields.h) with its
 * attribute name */
typedef struct {
    const char *attr;  /* NULL: not settable */
    size_t off;        /* of the array in cs_model */
    int n;             /* values per element */
    int flags;
    size_t rows;       /* the size that counts its rows, in cs_model */
} attr_def;

static const struct {
    const char *kind;
    size_t count;
} KINDS[] = {
    {"geom", offsetof(cs_model, ngeom)},  {"body", offsetof(cs_model, nbody)},
    {"joint", offsetof(cs_model, njnt)},  {"actuator", offsetof(cs_model, nactuator)},
    {"pair", offsetof(cs_model, npair)},  {"sensor", offsetof(cs_model, nsensor)},
};
enum { JOINT_KIND = 2, ACTUATOR_KIND = 3 };

/* every array of the model, the settable ones with their attribute names */
static const attr_def *model_arrays(int *count)
{
    /* settable arrays have a number of columns; these names make the others' counts constant */
    enum { nq = 0, nv = 0, nu = 0, na = 0, nmocap = 0, nuser_sensor = 0 };
#define ARRAY(type, f, rows, cols, set, setflags)                                              \
    {set, offsetof(cs_model, f), cols, (setflags) | _Generic((type)0, int: INTEGER, default: 0), \
     offsetof(cs_model, rows)},
    static const attr_def T[] = {CS_MODEL_POINTERS(ARRAY)};
#undef ARRAY
    *count = (int)(sizeof T / sizeof T[0]);
    return T;
}

/* the kind (KINDS) whose attribute a is: its rows' size, a dof array's joint */
static int kind_of(const attr_def *a)
{
    if (a->rows == offsetof(cs_model, nv)) return JOINT_KIND;
    if (a->rows == offsetof(cs_model, nu)) return ACTUATOR_KIND;
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++)
        if (KINDS[k].count == a->rows) return (int)k;
    return -1;
}

/* the settable attribute after a (NULL: the first) of a kind, NULL after the last */
static const attr_def *next_attr(int kind, const attr_def *a)
{
    int n;
    const attr_def *T = model_arrays(&n);
    for (a = a ? a + 1 : T; a < T + n; a++)
        if (a->attr && kind_of(a) == kind) return a;
    return NULL;
}

/* A resolved name: an element attribute's values, or an option's */
typedef struct {
    int option;           /* 1: opt, key below */
    char key[160];        /* the option's name (no prefix, no index) */
    const attr_def *a;
    int kind, id;
    int n;                /* values the name has (1 with an index) */
    int k;                /* the index given, or -1 */
    char base[160];       /* the name without its index */
} target;

static int fail(char *err, size_t errsz, const char *fmt, const char *name, const char *more)
{
    if (err && errsz) snprintf(err, errsz, fmt, name, more);
    return -1;
}

static int lookup_id(const cs_model *m, int kind, const char *s)
{
    int n = *(const int *)((const char *)m + KINDS[kind].count), id = -1;
    for (int i = 0; i < n && id < 0; i++) {
        const char *nm = cs_id2name(m, KINDS[kind].kind, i);
        if (nm && strcmp(nm, s) == 0) id = i;
    }
    if (id < 0 && isdigit((unsigned char)*s)) {
        char *end;
        long l = strtol(s, &end, 10);
        if (!*end && l < n) id = (int)l;
    }
    return id;
}

/* values of an option (flag.NAME: one), -1 when there is no such option */
static int option_count(const char *key)
{
    if (strncmp(key, "flag.", 5) == 0) return 1;
    const cs_option_def *e = cs_option_find(key);
    return e ? e->n : -1;
}

/* what an element's attribute may not be set for, whatever the values */
static int element_ok(const cs_model *m, const target *t, const char *name, char *err,
                      size_t errsz)
{
    if ((t->a->flags & RBOUND) && m->geom_type[t->id] == CS_GEOM_MESH)
        return fail(err, errsz, "%s: a mesh geom's size comes from its mesh (set it in the "
                                "scene file)%s", name, "");
    if ((t->a->flags & RBOUND) && m->geom_type[t->id] == CS_GEOM_HFIELD)
        return fail(err, errsz, "%s: a height field geom's size comes from its hfield (set it "
                                "in the scene file)%s", name, "");
    if ((t->a->flags & FREEPOS) && m->body_jntnum[t->id] > 0 &&
        m->jnt_type[m->body_jntadr[t->id]] == CS_JNT_FREE && m->body_jntnum[t->id] > 1)
        return fail(err, errsz, "%s: %s", name, "the body has more joints than its free one");
    return 0;
}

static int resolve(const cs_model *m, const char *name, target *t, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    t->k = -1;
    size_t len = strlen(name);
    const char *br = strchr(name, '[');
    if (br) {
        char *end;
        long k = strtol(br + 1, &end, 10);
        if (!isdigit((unsigned char)br[1]) || strcmp(end, "]") != 0 || k > 1000)
            return fail(err, errsz, "%s: bad element index (expected NAME[K])%s", name, "");
        t->k = (int)k;
        len = (size_t)(br - name);
    }
    if (len == 0 || len >= sizeof t->base)
        return fail(err, errsz, "'%s': not a parameter name%s", name, "");
    memcpy(t->base, name, len);
    t->base[len] = 0;
    const char *s = t->base, *dot = strchr(s, '.');
    if (strncmp(s, "option.", 7) == 0 || strncmp(s, "opt.", 4) == 0 || !dot ||
        strncmp(s, "flag.", 5) == 0) {
        const char *key = !dot || strncmp(s, "flag.", 5) == 0 ? s : dot + 1;
        snprintf(t->key, sizeof t->key, "%s", key);
        t->option = 1;
        t->n = option_count(key);
        if (t->n < 0) return fail(err, errsz, "%s: unknown option%s", name, "");
    } else {
        size_t kl = (size_t)(dot - s);
        const char *last = strrchr(s, '.');
        t->kind = -1;
        for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
            if (strlen(KINDS[i].kind) == kl && strncmp(s, KINDS[i].kind, kl) == 0) t->kind = (int)i;
        if (strncmp(s, "jnt.", 4) == 0) t->kind = JOINT_KIND;
        if (t->kind < 0 || last == dot)
            return fail(err, errsz, "%s: expected option.NAME, or KIND.NAME.ATTR with KIND geom, "
                                    "body, joint, actuator or pair%s", name, "");
        char elem[128];
        if ((size_t)(last - dot - 1) >= sizeof elem)
            return fail(err, errsz, "%s: element name too long%s", name, "");
        snprintf(elem, sizeof elem, "%.*s", (int)(last - dot - 1), dot + 1);
        t->id = lookup_id(m, t->kind, elem);
        if (t->id < 0 || (t->kind == 1 && t->id == 0)) {
            char more[192];
            if (t->id == 0) snprintf(more, sizeof more, "the world body has no parameters");
            else snprintf(more, sizeof more, "no %s named '%s'", KINDS[t->kind].kind, elem);
            return fail(err, errsz, "%s: %s", name, more);
        }
        for (const attr_def *a = next_attr(t->kind, NULL); a && !t->a; a = next_attr(t->kind, a))
            if (strcmp(a->attr, last + 1) == 0) t->a = a;
        if (!t->a) {
            char more[320];
            size_t w = (size_t)snprintf(more, sizeof more, "%s attribute '%s' cannot be set (",
                                        KINDS[t->kind].kind, last + 1);
            for (const attr_def *a = next_attr(t->kind, NULL); a && w < sizeof more;
                 a = next_attr(t->kind, a))
                w += (size_t)snprintf(more + w, sizeof more - w, "%s%s",
                                      a == next_attr(t->kind, NULL) ? "" : ", ", a->attr);
            if (w < sizeof more) snprintf(more + w, sizeof more - w, " can)");
            return fail(err, errsz, "%s: %s", name, more);
        }
        t->n = t->a->n;
        if (t->a->flags & PERDOF) t->n = cs_jnt_nv(m->jnt_type[t->id]);
        if (t->a->flags & PERCTRL) t->n = t->a->n * m->actuator_ctrlnum[t->id];
        if (element_ok(m, t, name, err, errsz) != 0) return -1;
    }
    if (t->k >= 0) {
        if (t->k >= t->n) {
            char more[64];
            snprintf(more, sizeof more, "index %d out of range (%d element%s)", t->k, t->n,
                     t->n > 1 ? "s" : "");
            return fail(err, errsz, "%s: %s", name, more);
        }
    }
    return 0;
}

/* element i (of the name's t->n) of an attribute: where it lives */
static void *slot(const cs_model *m, const target *t, int i)
{
    const attr_def *a = t->a;
    char *arr = *(char *const *)((const char *)m + a->off);
    size_t idx;
    if (a->flags & PERDOF) idx = (size_t)m->jnt_dofadr[t->id] + (size_t)i;
    else if (a->flags & ALLDOFS) idx = (size_t)m->jnt_dofadr[t->id] * (size_t)a->n + (size_t)i;
    else if (a->flags & PERCTRL) idx = (size_t)m->actuator_ctrladr[t->id] * (size_t)a->n + (size_t)i;
    else idx = (size_t)t->id * (size_t)a->n + (size_t)i;
    return arr + idx * (a->flags & INTEGER ? sizeof(int) : sizeof(double));
}

static double read_slot(const cs_model *m, const target *t, int i)
{
    void *p = slot(m, t, i);
    return t->a->flags & INTEGER ? (double)*(int *)p : *(double *)p;
}

const char *cs_coulomb_adhesion_refusal(const cs_model *m, int contact, double adhesion)
{
    if (contact != CS_CONTACT_COULOMB) return NULL;
    int any = adhesion != 0;
    for (int i = 0; i < m->ngeom && !any; i++) any = m->geom_adhesion[i] != 0;
    for (int i = 0; i < m->npair && !any; i++) any = m->pair_adhesion[i] != 0;
    return any ? "the Coulomb contact model does not take adhesion (a geom or pair has it): use "
                 "the soft model, or set the adhesion to 0"
               : NULL;
}

/* contact=coulomb refused on a model with adhesion */
static int contact_ok(const cs_model *m, const char *key, double contact, const char *name,
                      char *err, size_t errsz)
{
    if (strcmp(key, "contact") != 0) return 0;
    const char *why = cs_coulomb_adhesion_refusal(m, (int)contact, 0);
    return why ? fail(err, errsz, "%s: %s", name, why) : 0;
}

static int option_get(const cs_model *m, const target *t, double *out)
{
    if (strncmp(t->key, "flag.", 5) == 0) {
        int bit, enable;
        if (cs_flag_lookup(t->key + 5, &bit, &enable) != 0) return -1;
        int set = ((enable ? m->opt.enableflags : m->opt.disableflags) & bit) != 0;
        out[0] = enable ? set : !set;
        return 0;
    }
    const cs_option_def *e = cs_option_find(t->key);
    if (!e) return -1;
    cs_option_get(&m->opt, e, out);
    return 0;
}

/* the option with all its values v (t->n of them), checked as the loader checks it */
static int option_put(cs_model *m, const target *t, const double *v, const char *name, char *err,
                      size_t errsz)
{
    char why[256];
    if (strncmp(t->key, "flag.", 5) == 0) {
        if (v[0] != 0 && v[0] != 1)
            return fail(err, errsz, "%s: %s", name, "expects 1 (enable) or 0 (disable)");
        char e[256];
        if (cs_option_set(&m->opt, t->key, v[0] ? "enable" : "disable", e, sizeof e) != 0)
            return fail(err, errsz, "%s: %s", name, "unknown flag");
        return 0;
    }
    const cs_option_def *e = cs_option_find(t->key);
    if (!e) return fail(err, errsz, "%s: %s", name, "unknown option");
    if (contact_ok(m, e->name, v[0], name, err, errsz) != 0) return -1;
    if (cs_option_put(&m->opt, e, v, why, sizeof why) != 0)
        return fail(err, errsz, "%s: %s", name, why);
    return 0;
}

static int is_finite_all(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* element values checked against the attribute's rule */
static int check_values(const cs_model *m, const target *t, const double *v, const char *name,
                        char *err, size_t errsz)
{
    int f = t->a->flags;
    for (int i = 0; i < t->n; i++) {
        if ((f & NONNEG) && v[i] < 0) return fail(err, errsz, "%s: %s", name, "must not be negative");
        if (f & INTEGER) {
            if (v[i] != floor(v[i]) || fabs(v[i]) > 1e9)
                return fail(err, errsz, "%s: %s", name, "expects an integer");
            if ((f & CONDIM) && v[i] != 1 && v[i] != 3 && v[i] != 4 && v[i] != 6)
                return fail(err, errsz, "%s: %s", name, "expects 1, 3, 4 or 6");
        }
    }
    if (f & POSITIVE) { /* only the sizes the geom type uses */
        static const int NSIZE[] = {[CS_GEOM_PLANE] = 0, [CS_GEOM_SPHERE] = 1,
                                    [CS_GEOM_CAPSULE] = 2, [CS_GEOM_ELLIPSOID] = 3,
                                    [CS_GEOM_CYLINDER] = 2, [CS_GEOM_BOX] = 3};
        int type = m->geom_type[t->id];
        int used = type >= 0 && type < (int)(sizeof NSIZE / sizeof NSIZE[0]) ? NSIZE[type] : 3;
        for (int i = 0; i < used; i++)
            if (!(v[i] > 0)) return fail(err, errsz, "%s: %s", name, "must be positive");
    }
    return 0;
}

/* writes the element's values and what follows from them; restores them when the model
 * would be invalid */
static int put(cs_model *m, const target *t, const double *v, const char *name, char *err,
               size_t errsz)
{
    const attr_def *a = t->a;
    double old[10];
    int reps = a->flags & ALLDOFS ? cs_jnt_nv(m->jnt_type[t->id]) : 1;
    if (a->off == offsetof(cs_model, geom_adhesion) || a->off == offsetof(cs_model, pair_adhesion)) {
        const char *why = cs_coulomb_adhesion_refusal(m, m->opt.contact, v[0]);
        if (why) return fail(err, errsz, "%s: %s", name, why);
    }
    for (int i = 0; i < t->n; i++) old[i] = read_slot(m, t, i);
    for (int r = 0; r < reps; r++) {
        target tr = *t;
        for (int i = 0; i < t->n; i++) {
            void *p = (char *)slot(m, &tr, i) + (size_t)r * (size_t)a->n * sizeof(double);
            if (a->flags & INTEGER) *(int *)p = (int)v[i];
            else *(double *)p = v[i];
        }
    }
    if (a->flags & RBOUND) m->geom_rbound[t->id] = cs_geom_rbound(m->geom_type[t->id], v);
    if (a->off == offsetof(cs_model, geom_pos)) cs_sameframe_geom(m, t->id);
    if (a->flags & FREEPOS) { /* a free body starts at its joint's qpos0 or a keyframe */
        int b = t->id, j = m->body_jntnum[b] == 1 ? m->body_jntadr[b] : -1;
        if (j >= 0 && m->jnt_type[j] == CS_JNT_FREE) {
            int adr = m->jnt_qposadr[j];
            for (int i = 0; i < 3; i++) {
                if (t->k >= 0 && i != t->k) continue;
                m->qpos0[adr + i] = v[i];
                for (int key = 0; key < m->nkey; key++)
                    m->key_qpos[(size_t)key * (size_t)m->nq + (size_t)adr + (size_t)i] = v[i];
            }
        }
    }
    if (a->flags & INVWEIGHT) {
        int bad = cs_model_invweight0(m);
        if (bad != 0) {
            for (int i = 0; i < t->n; i++) *(double *)slot(m, t, i) = old[i];
            cs_model_invweight0(m);
            return fail(err, errsz, "%s: %s", name,
                        bad < 0 ? "out of memory"
                                : "the mass matrix would not be positive definite (a moving "
                                  "body without mass or inertia)");
        }
    }
    return 0;
}

int cs_setv(cs_model *m, const char *name, const double *v, int n, char *err, size_t errsz)
{
    target t;
    if (!m || !name) return fail(err, errsz, "%s%s", "cs_setv: no model or name", "");
    if (resolve(m, name, &t, err, errsz) != 0) return -1;
    int want = t.k >= 0 ? 1 : t.n;
    if (n != want || !v) {
        char more[96];
        snprintf(more, sizeof more, "expects %d value%s%s", want, want > 1 ? "s" : "",
                 t.k < 0 && t.n > 1 ? " (or one, naming its element: NAME[K])" : "");
        return fail(err, errsz, "%s: %s", name, more);
    }
    if (!is_finite_all(v, n)) return fail(err, errsz, "%s: %s", name, "expects finite numbers");
    double all[10];
    if (t.option) {
        if (option_get(m, &t, all) != 0) return fail(err, errsz, "%s: %s", name, "unknown option");
    } else {
        for (int i = 0; i < t.n; i++) all[i] = read_slot(m, &t, i);
    }
    if (t.k >= 0) all[t.k] = v[0];
    else memcpy(all, v, (size_t)n * sizeof *v);
    int rc;
    if (t.option) {
        rc = option_put(m, &t, all, name, err, errsz);
    } else {
        rc = check_values(m, &t, all, name, err, errsz);
        if (rc == 0) rc = put(m, &t, all, name, err, errsz);
    }
    if (rc == 0) m->nchange++;
    return rc;
}

int cs_getv(const cs_model *m, const char *name, double *v, int maxn, char *err, size_t errsz)
{
    target t;
    if (!m || !name) return fail(err, errsz, "%s%s", "cs_getv: no model or name", "");
    if (resolve(m, name, &t, err, errsz) != 0) return -1;
    double all[10];
    if (t.option) {
        if (option_get(m, &t, all) != 0) return fail(err, errsz, "%s: %s", name, "unknown option");
    } else {
        for (int i = 0; i < t.n; i++) all[i] = read_slot(m, &t, i);
    }
    int n = t.k >= 0 ? 1 : t.n;
    if (!v || maxn < n) {
        char more[64];
        snprintf(more, sizeof more, "has %d value%s", n, n > 1 ? "s" : "");
        return fail(err, errsz, "%s: %s", name, more);
    }
    if (t.k >= 0) v[0] = all[t.k];
    else memcpy(v, all, (size_t)n * sizeof *v);
    return n;
}

int cs_set(cs_model *m, const char *name, double value)
{
    return cs_setv(m, name, &value, 1, NULL, 0);
}

int cs_get(const cs_model *m, const char *name, double *value)
{
    return cs_getv(m, name, value, 1, NULL, 0) == 1 ? 0 : -1;
}

int cs_set_knows(const char *name)
{
    if (!name) return 0;
    size_t len = strcspn(name, "[");
    char s[160];
    if (len == 0 || len >= sizeof s) return 0;
    snprintf(s, sizeof s, "%.*s", (int)len, name);
    const char *dot = strchr(s, '.'), *last = strrchr(s, '.');
    if (!dot || strncmp(s, "option.", 7) == 0 || strncmp(s, "opt.", 4) == 0 ||
        strncmp(s, "flag.", 5) == 0)
        return 1;
    if (last == dot) return 0;
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
        size_t kl = strlen(KINDS[i].kind);
        int hit = (size_t)(dot - s) == kl && strncmp(s, KINDS[i].kind, kl) == 0;
        if (i == JOINT_KIND && strncmp(s, "jnt.", 4) == 0) hit = 1;
        for (const attr_def *a = next_attr((int)i, NULL); hit && a; a = next_attr((int)i, a))
            if (strcmp(a->attr, last + 1) == 0) return 1;
    }
    return 0;
}

int cs_set_count(const cs_model *m, const char *name)
{
    target t;
    if (!m || !name || resolve(m, name, &t, NULL, 0) != 0) return -1;
    return t.k >= 0 ? 1 : t.n;
}

int cs_set_text(cs_model *m, const char *name, const char *text, char *err, size_t errsz)
{
    double v[10];
    int n = cs_numlist(text, v, 10);
    if (n == CS_NUMLIST_INF) return fail(err, errsz, "%s: '%s' is not a finite number", name, text);
    if (n < 0) { /* a keyword: an option's (solver=pgs, flag.warmstart=disable) */
        target t;
        if (resolve(m, name, &t, err, errsz) != 0) return -1;
        if (!t.option || t.k >= 0) {
            char more[300];
            snprintf(more, sizeof more, "'%s' is not a number", text);
            return fail(err, errsz, "%s: %s", name, more);
        }
        cs_option o = m->opt;
        if (cs_option_set(&o, t.key, text, err, errsz) != 0) return -1;
        if (contact_ok(m, t.key, o.contact, name, err, errsz) != 0) return -1;
        m->opt = o;
        m->nchange++;
        return 0;
    }
    return cs_setv(m, name, v, n, err, errsz);
}

/* ---- the settable arrays one by one, for writes straight into them (model_watch.c) ---- */
static const attr_def *flat(int i, int *kind)
{
    if (i < 0) return NULL;
    int n;
    const attr_def *T = model_arrays(&n);
    for (const attr_def *a = T; a < T + n; a++)
        if (a->attr && i-- == 0) {
            *kind = kind_of(a);
            return a;
        }
    return NULL;
}

int cs_set_array_get(const cs_model *m, int i, cs_set_array *out)
{
    int kind;
    const attr_def *a = flat(i, &kind);
    if (!a) return -1;
    out->off = a->off;
    out->rows = a->flags & (PERDOF | ALLDOFS) ? m->nv
                : a->flags & PERCTRL          ? m->nu
                                              : *(const int *)((const char *)m + KINDS[kind].count);
    out->cols = a->flags & PERDOF ? 1 : a->n;
    out->elem = a->flags & INTEGER ? sizeof(int) : sizeof(double);
    out->perdof = (a->flags & (PERDOF | ALLDOFS)) != 0;
    out->perctrl = (a->flags & PERCTRL) != 0;
    out->kind = KINDS[kind].kind;
    out->attr = a->attr;
    return 0;
}

int cs_set_row(cs_model *m, int i, int row, const double *v, const char *label, char *err,
               size_t errsz)
{
    int kind;
    const attr_def *a = flat(i, &kind);
    if (!a) return fail(err, errsz, "%s: %s", label, "not a settable array");
    cs_set_array info;
    cs_set_array_get(m, i, &info);
    if (row < 0 || row >= info.rows) return fail(err, errsz, "%s: %s", label, "no such row");
    if (!is_finite_all(v, info.cols))
        return fail(err, errsz, "%s: %s", label, "expects finite numbers");
    target t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.a = a;
    t.k = -1;
    double all[10];
    if (a->flags & ALLDOFS) { /* one dof's own values (the setter gives all the joint's
                                 dofs the same): nothing to check or follow */
        double *p = *(double **)((char *)m + a->off) + (size_t)row * (size_t)a->n;
        memcpy(p, v, (size_t)a->n * sizeof *v);
        m->nchange++;
        return 0;
    }
    if (a->flags & PERDOF) {
        t.id = m->dof_jntid[row];
        t.n = cs_jnt_nv(m->jnt_type[t.id]);
        for (int k = 0; k < t.n; k++) all[k] = read_slot(m, &t, k);
        all[row - m->jnt_dofadr[t.id]] = v[0];
    } else if (a->flags & PERCTRL) {
        t.id = cs_ctrl_actuator(m, row);
        t.n = a->n * m->actuator_ctrlnum[t.id];
        for (int k = 0; k < t.n; k++) all[k] = read_slot(m, &t, k);
        memcpy(all + (size_t)a->n * (size_t)(row - m->actuator_ctrladr[t.id]), v,
               (size_t)a->n * sizeof *v);
    } else {
        t.id = row;
        t.n = a->n;
        memcpy(all, v, (size_t)t.n * sizeof *v);
    }
    if (kind == 1 && row == 0)
        return fail(err, errsz, "%s: %s", label, "the world body has no parameters");
    if (element_ok(m, &t, label, err, errsz) != 0) return -1;
    int rc = check_values(m, &t, all, label, err, errsz);
    if (rc == 0) rc = put(m, &t, all, label, err, errsz);
    if (rc == 0) m->nchange++;
    return rc;
}

void cs_data_sync(const cs_model *m, cs_data *d)
{
    char err[128];
    struct cs_collision *c = cs_collision_make(m, err, sizeof err);
    if (!c) {
        d->warning[CS_WARN_NOMEM]++;
        return;
    }
    cs_collision_free(d->scratch->collision);
    d->scratch->collision = c;
    if (m->opt.integrator == CS_INT_RK4) { /* made without RK4's stages, or too small */
        double *r = cs_calloc(cs_data_rk4_size(m) + 1, sizeof *r);
        if (!r) {
            d->warning[CS_WARN_NOMEM]++;
            return;
        }
        cs_free(d->scratch->rk4);
        d->scratch->rk4 = r;
    }
    if (cs_solver_set_threads(d->scratch->solver_ws, m->opt.threads) < 0) {
        d->warning[CS_WARN_NOMEM]++;
        return;
    }
    d->nchange = m->nchange;
}
