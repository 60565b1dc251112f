/* MJCF reader (libxml2): elements and attributes with MuJoCo's names, defaults and units,
 * resolved against <default> classes into the loader's intermediate form (mjcf_ir.h).
 * Anything outside the supported subset that would change physics is an error naming the
 * line; visual-only things are accepted and listed once. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "alloc.h"
#include "inertia.h"
#include "mjcf_ir.h"
#include "stages.h"
#include "solver/solver.h"

/* ---- context memory and errors ------------------------------------------------------- */
void *cs_mjcf_alloc(cs_mjcf *c, size_t n)
{
    if (c->nalloc == c->capalloc) {
        int cap = c->capalloc ? 2 * c->capalloc : 64;
        void **p = cs_realloc(c->allocs, (size_t)cap * sizeof *p);
        if (!p) cs_mjcf_nomem(c);
        c->allocs = p;
        c->capalloc = cap;
    }
    void *p = cs_calloc(1, n ? n : 1);
    if (!p) cs_mjcf_nomem(c);
    c->allocs[c->nalloc++] = p;
    return p;
}

char *cs_mjcf_strdup(cs_mjcf *c, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = cs_mjcf_alloc(c, n);
    memcpy(p, s, n);
    return p;
}

void cs_mjcf_grow(cs_mjcf *c, void **arr, int *cap, int n, size_t es)
{
    if (n < *cap) return;
    int nc = *cap ? 2 * *cap : 16;
    while (nc <= n) nc *= 2;
    void *p = cs_mjcf_alloc(c, (size_t)nc * es);
    if (*arr) memcpy(p, *arr, (size_t)*cap * es);
    /* the old block stays in the context's list and is freed with it */
    *arr = p;
    *cap = nc;
}

/* the file that holds line `line` of the numbering over all the model's files */
static int src_of_line(const cs_mjcf *c, int line)
{
    for (int k = c->nsrc - 1; k > 0; k--)
        if (line > c->src[k].base && line <= c->src[k].base + c->src[k].nlines) return k;
    return 0;
}

void cs_mjcf_fail(cs_mjcf *c, int line, const char *elem, const char *attr, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->errsz) {
        const char *file = c->file;
        char where[1024] = "";
        if (c->nsrc > 0) {
            int k = src_of_line(c, line);
            file = c->src[k].path;
            line -= c->src[k].base;
            /* the include chain, innermost first */
            for (int j = k; c->src[j].parent >= 0; j = c->src[j].parent) {
                size_t l = strlen(where);
                snprintf(where + l, sizeof where - l, "%s%s:%d", l ? ", from " : " (included from ",
                         c->src[c->src[j].parent].path, c->src[j].line);
            }
            if (where[0]) strncat(where, ")", sizeof where - strlen(where) - 1);
        }
        if (elem && attr)
            snprintf(c->err, c->errsz, "%s:%d: element <%s> attribute '%s': %s%s", file, line,
                     elem, attr, msg, where);
        else if (elem)
            snprintf(c->err, c->errsz, "%s:%d: element <%s>: %s%s", file, line, elem, msg, where);
        else
            snprintf(c->err, c->errsz, "%s:%d: %s%s", file, line, msg, where);
    }
    longjmp(c->jb, 1);
}

void cs_mjcf_nomem(cs_mjcf *c)
{
    c->nomem = 1;
    if (c->err && c->errsz) snprintf(c->err, c->errsz, "%s: out of memory", c->file);
    longjmp(c->jb, 1);
}

/* an element's line in the numbering over all the model's files: an included file's
 * elements carry its base in _private (the main file's carry none) */
static int line_of(xmlNode *n) { return (int)(intptr_t)n->_private + (int)xmlGetLineNo(n); }
static const char *ename(xmlNode *n) { return (const char *)n->name; }

#define FAILN(c, n, attr, ...) cs_mjcf_fail((c), line_of(n), ename(n), (attr), __VA_ARGS__)

static void note_ignored(cs_mjcf *c, const char *what)
{
    for (int i = 0; i < c->nignored; i++)
        if (strcmp(c->ignored[i], what) == 0) return;
    cs_mjcf_grow(c, (void **)&c->ignored, &c->capignored, c->nignored, sizeof(char *));
    c->ignored[c->nignored++] = cs_mjcf_strdup(c, what);
}

/* ---- attributes ------------------------------------------------------------------------- */
static int in_list(const char *s, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(s, *list) == 0) return 1;
    return 0;
}

/* The audit: an attribute's _private marks it read or noted as ignored */
static cs_mjcf_audit_fn audit_fn;
static void *audit_ctx;
static char MARK_READ, MARK_IGNORED;

void cs_mjcf_set_audit(cs_mjcf_audit_fn fn, void *ctx)
{
    audit_fn = fn;
    audit_ctx = ctx;
}

static void audit_accepted(xmlNode *n, const char *const *used)
{
    if (!audit_fn) return;
    for (; used && *used; used++)
        audit_fn(audit_ctx, (const char *)n->name, *used, CS_AUDIT_ACCEPTED);
}

/* an element noted as ignored as a whole: its attributes and its children's too */
static void mark_ignored(xmlNode *n)
{
    for (xmlAttr *a = n->properties; a; a = a->next) a->_private = &MARK_IGNORED;
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) mark_ignored(ch);
}

static void audit_walk(xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        for (xmlAttr *a = n->properties; a; a = a->next)
            audit_fn(audit_ctx, (const char *)n->name, (const char *)a->name,
                     a->_private == &MARK_READ      ? CS_AUDIT_READ
                     : a->_private == &MARK_IGNORED ? CS_AUDIT_IGNORED
                                                    : CS_AUDIT_UNREAD);
        audit_walk(n->children);
    }
}

/* Every attribute must be known: used, visual-only (noted as ignored) or harmless. */
static void check_attrs(cs_mjcf *c, xmlNode *n, const char *const *used, const char *const *visual)
{
    audit_accepted(n, used);
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (in_list(an, used)) continue;
        if (in_list(an, visual)) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s/@%s", ename(n), an);
            note_ignored(c, buf);
            a->_private = &MARK_IGNORED;
            continue;
        }
        FAILN(c, n, an, "unknown or unsupported attribute");
    }
}

/* attribute value as a context string, NULL when absent */
static char *attr(cs_mjcf *c, xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v) return NULL;
    xmlAttr *pa = xmlHasProp(n, (const xmlChar *)name);
    if (pa) pa->_private = &MARK_READ;
    c->xmlpending = v; /* the copy may fail and jump out */
    char *s = cs_mjcf_strdup(c, (const char *)v);
    c->xmlpending = NULL;
    xmlFree(v);
    return s;
}

/* Parse between lo and hi numbers; returns the count, 0 if absent. */
static int nums(cs_mjcf *c, xmlNode *n, const char *name, double *out, int lo, int hi)
{
    char *s = attr(c, n, name);
    if (!s) return 0;
    int k = 0;
    char *p = s;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *end;
        double v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)))
            FAILN(c, n, name, "'%s' is not a number", s);
        if (!isfinite(v)) FAILN(c, n, name, "value must be finite (got '%s')", s);
        if (k >= hi) {
            if (lo == hi) FAILN(c, n, name, "expects %d numbers, got more", hi);
            FAILN(c, n, name, "expects at most %d numbers, got more", hi);
        }
        out[k++] = v;
        p = end;
    }
    if (k == 0) return 0; /* an empty value (rgba="") is no value, as MuJoCo reads it */
    if (k < lo) {
        if (lo == hi) FAILN(c, n, name, "expects %d numbers, got %d", lo, k);
        FAILN(c, n, name, "expects at least %d numbers, got %d", lo, k);
    }
    return k;
}

static int num1(cs_mjcf *c, xmlNode *n, const char *name, double *out)
{
    return nums(c, n, name, out, 1, 1);
}

static int int1(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    double v;
    if (!num1(c, n, name, &v)) return 0;
    if (v != floor(v) || fabs(v) > 1e9) FAILN(c, n, name, "expects an integer");
    *out = (int)v;
    return 1;
}

int cs_mjcf_line(xmlNode *n) { return line_of(n); }
void cs_mjcf_check_attrs(cs_mjcf *c, xmlNode *n, const char *const *used)
{
    check_attrs(c, n, used, NULL);
}
char *cs_mjcf_attr(cs_mjcf *c, xmlNode *n, const char *name) { return attr(c, n, name); }
int cs_mjcf_nums(cs_mjcf *c, xmlNode *n, const char *name, double *out, int lo, int hi)
{
    return nums(c, n, name, out, lo, hi);
}

int cs_mjcf_ints(cs_mjcf *c, xmlNode *n, const char *name, int *out, int lo, int hi)
{
    double v[64];
    if (hi > 64) hi = 64;
    int k = nums(c, n, name, v, lo, hi);
    for (int i = 0; i < k; i++) {
        /* range first: converting an out-of-range double to int is undefined */
        if (!(fabs(v[i]) <= 1e9) || v[i] != floor(v[i]))
            FAILN(c, n, name, "'%g' is not an integer", v[i]);
        out[i] = (int)v[i];
    }
    return k;
}

/* keyword attribute: returns index in `words`, -1 when absent */
static int keyword(cs_mjcf *c, xmlNode *n, const char *name, const char *const *words)
{
    char *s = attr(c, n, name);
    if (!s) return -1;
    for (int i = 0; words[i]; i++)
        if (strcmp(s, words[i]) == 0) return i;
    char list[256] = "";
    for (int i = 0; words[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, words[i], sizeof list - strlen(list) - 1);
    }
    FAILN(c, n, name, "'%s' is not one of %s", s, list);
}

static const char *const BOOLW[] = {"false", "true", NULL};

static int boolean(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    int k = keyword(c, n, name, BOOLW);
    if (k < 0) return 0;
    *out = k;
    return 1;
}

static void nonneg(cs_mjcf *c, xmlNode *n, const char *name, const double *v, int k)
{
    for (int i = 0; i < k; i++)
        if (v[i] < 0) FAILN(c, n, name, "must not be negative");
}

/* ---- orientation -------------------------------------------------------------------- */
static double angle_unit(const cs_mjcf *c) { return c->degree ? M_PI / 180 : 1; }

static void euler2quat(const cs_mjcf *c, const double e[3], double q[4])
{
    q[0] = 1; q[1] = q[2] = q[3] = 0;
    for (int i = 0; i < 3; i++) {
        char ax = c->eulerseq[i];
        double axis[3] = {0, 0, 0};
        axis[tolower((unsigned char)ax) - 'x'] = 1;
        double r[4];
        cs_axisangle2quat(r, axis, e[i] * angle_unit(c));
        /* lowercase: axes move with the frame (post-multiply); uppercase: fixed axes */
        if (islower((unsigned char)ax)) cs_mulquat(q, q, r);
        else cs_mulquat(q, r, q);
    }
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Reads pos and the one orientation form present; returns 1 if an orientation was given. */
static int frame_attrs(cs_mjcf *c, xmlNode *n, double pos[3], double quat[4])
{
    if (pos) nums(c, n, "pos", pos, 3, 3);
    static const char *const forms[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis", NULL};
    const char *given = NULL;
    for (int i = 0; forms[i]; i++) {
        xmlChar *v = xmlGetProp(n, (const xmlChar *)forms[i]);
        if (!v) continue;
        xmlFree(v);
        if (given)
            FAILN(c, n, forms[i], "only one orientation form allowed (also '%s' given)", given);
        given = forms[i];
    }
    if (!given) return 0;
    double v[6];
    if (strcmp(given, "quat") == 0) {
        nums(c, n, "quat", v, 4, 4);
        double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (l < 1e-15) FAILN(c, n, "quat", "zero quaternion");
        for (int i = 0; i < 4; i++) quat[i] = v[i] / l;
    } else if (strcmp(given, "axisangle") == 0) {
        nums(c, n, "axisangle", v, 4, 4);
        if (norm3(v) < 1e-15) FAILN(c, n, "axisangle", "zero rotation axis");
        cs_axisangle2quat(quat, v, v[3] * angle_unit(c));
    } else if (strcmp(given, "euler") == 0) {
        nums(c, n, "euler", v, 3, 3);
        euler2quat(c, v, quat);
    } else if (strcmp(given, "xyaxes") == 0) {
        nums(c, n, "xyaxes", v, 6, 6);
        double *x = v, *y = v + 3, z[3], R[9];
        double lx = norm3(x);
        if (lx < 1e-15) FAILN(c, n, "xyaxes", "zero x axis");
        for (int i = 0; i < 3; i++) x[i] /= lx;
        double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        for (int i = 0; i < 3; i++) y[i] -= d * x[i];
        double ly = norm3(y);
        if (ly < 1e-15) FAILN(c, n, "xyaxes", "y axis parallel to x axis or zero");
        for (int i = 0; i < 3; i++) y[i] /= ly;
        z[0] = x[1] * y[2] - x[2] * y[1];
        z[1] = x[2] * y[0] - x[0] * y[2];
        z[2] = x[0] * y[1] - x[1] * y[0];
        for (int i = 0; i < 3; i++) {
            R[3 * i + 0] = x[i];
            R[3 * i + 1] = y[i];
            R[3 * i + 2] = z[i];
        }
        cs_mat2quat(quat, R);
    } else {
        nums(c, n, "zaxis", v, 3, 3);
        if (norm3(v) < 1e-15) FAILN(c, n, "zaxis", "zero axis");
        cs_quat_z2vec(quat, v);
    }
    return 1;
}

/* ---- classes ------------------------------------------------------------------------------ */
static int find_class(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->ncls; i++)
        if (strcmp(c->cls[i].name, name) == 0) return i;
    return -1;
}

static int class_of(cs_mjcf *c, xmlNode *n, int inherited)
{
    char *cl = attr(c, n, "class");
    if (!cl) return inherited;
    int k = find_class(c, cl);
    if (k < 0) FAILN(c, n, "class", "unknown class '%s'", cl);
    return k;
}

static void default_gspec(cs_gspec *g)
{
    memset(g, 0, sizeof *g);
    g->type = CS_GEOM_SPHERE;
    g->quat[0] = 1;
    g->contype = g->conaffinity = 1;
    g->condim = 3;
    g->friction[0] = 1; g->friction[1] = 0.005; g->friction[2] = 0.0001;
    g->solmix = 1;
    g->solref[0] = 0.02; g->solref[1] = 1;
    g->solimp[0] = 0.9; g->solimp[1] = 0.95; g->solimp[2] = 0.001; g->solimp[3] = 0.5;
    g->solimp[4] = 2;
    g->rgba[0] = g->rgba[1] = g->rgba[2] = 0.5; g->rgba[3] = 1;
    g->mass = -1;
    g->density = 1000;
    g->fitscale = 1;
    g->fluidcoef[0] = 0.5; g->fluidcoef[1] = 0.25; g->fluidcoef[2] = 1.5;
    g->fluidcoef[3] = 1; g->fluidcoef[4] = 1;
}

static void default_pspec(cs_pspec *p)
{
    memset(p, 0, sizeof *p);
    p->condim = 3;
    p->friction[0] = p->friction[1] = 1;
    p->friction[2] = 0.005;
    p->friction[3] = p->friction[4] = 0.0001;
    p->solref[0] = 0.02; p->solref[1] = 1;
    p->solimp[0] = 0.9; p->solimp[1] = 0.95; p->solimp[2] = 0.001; p->solimp[3] = 0.5;
    p->solimp[4] = 2;
}

/* ---- element attribute readers (shared by defaults and elements) --------------------- */
static const char *const GEOMTYPES[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                        "cylinder", "box", "mesh", "sdf", NULL};

static void check_condim(cs_mjcf *c, xmlNode *n, int v)
{
    if (v != 1 && v != 3 && v != 4 && v != 6) FAILN(c, n, "condim", "must be 1, 3, 4 or 6 (got %d)", v);
}

/* solimp outside its ranges is legal MJCF: MuJoCo clamps it when it builds constraint rows
 * (docs/contact-math.md §8), so the solver clamps too and the loader keeps the values as written. */
static void solimp_check(cs_mjcf *c, xmlNode *n, const char *name, const double *s)
{
    (void)c;
    (void)n;
    (void)name;
    (void)s;
}

static void read_geom_attrs(cs_mjcf *c, xmlNode *n, cs_gspec *g)
{
    int k = keyword(c, n, "type", GEOMTYPES);
    if (k >= 0) {
        if (k == 8) FAILN(c, n, "type", "geom type 'sdf' is not supported");
        g->type = k;
    }
    double v[6];
    int ns = nums(c, n, "size", v, 1, 3);
    if (ns) {
        nonneg(c, n, "size", v, ns);
        for (int i = 0; i < ns; i++) g->size[i] = v[i];
    }
    frame_attrs(c, n, g->pos, g->quat);
    if (nums(c, n, "fromto", v, 6, 6)) {
        double p[3];
        if (nums(c, n, "pos", p, 3, 3) && (p[0] != 0 || p[1] != 0 || p[2] != 0))
            FAILN(c, n, "fromto", "both pos and fromto given");
        g->has_fromto = 1;
        memcpy(g->fromto, v, sizeof g->fromto);
    }
    int iv;
    if (int1(c, n, "contype", &iv)) g->contype = iv;
    if (int1(c, n, "conaffinity", &iv)) g->conaffinity = iv;
    if (int1(c, n, "condim", &iv)) { check_condim(c, n, iv); g->condim = iv; }
    if (int1(c, n, "priority", &iv)) g->priority = iv;
    if (int1(c, n, "group", &iv)) g->group = iv;
    int nf = nums(c, n, "friction", v, 1, 3);
    if (nf) { nonneg(c, n, "friction", v, nf); memcpy(g->friction, v, (size_t)nf * sizeof *v); }
    if (num1(c, n, "solmix", v)) { nonneg(c, n, "solmix", v, 1); g->solmix = v[0]; }
    if ((k = nums(c, n, "solref", v, 1, 2))) memcpy(g->solref, v, (size_t)k * sizeof *v);
    int ni = nums(c, n, "solimp", v, 1, 5);
    if (ni) { memcpy(g->solimp, v, (size_t)ni * sizeof *v); solimp_check(c, n, "solimp", g->solimp); }
    /* MuJoCo 3.12 takes a negative margin (a shrunk surface); margin + gap is checked when
     * the geom is compiled */
    if (num1(c, n, "margin", v)) g->margin = v[0];
    if (num1(c, n, "gap", v)) g->gap = v[0];
    if (nums(c, n, "rgba", v, 4, 4)) memcpy(g->rgba, v, 4 * sizeof *v);
    char *mat = attr(c, n, "material");
    if (mat) g->material = mat;
    if (num1(c, n, "mass", v)) {
        if (v[0] < 0) FAILN(c, n, "mass", "must not be negative");
        g->mass = v[0];
    }
    if (num1(c, n, "density", v)) {
        if (v[0] < 0) FAILN(c, n, "density", "must not be negative");
        g->density = v[0];
    }
    if (num1(c, n, "fitscale", v)) {
        if (!(v[0] > 0)) FAILN(c, n, "fitscale", "must be positive");
        g->fitscale = v[0];
    }
    int b;
    if (boolean(c, n, "shellinertia", &b) && b)
        FAILN(c, n, "shellinertia", "shell inertia is not supported");
    static const char *const FLUID[] = {"none", "ellipsoid", NULL};
    if ((k = keyword(c, n, "fluidshape", FLUID)) >= 0) g->fluidshape = k;
    if ((k = nums(c, n, "fluidcoef", v, 1, 5))) memcpy(g->fluidcoef, v, (size_t)k * sizeof *v);
    double sv[6];
    if (nums(c, n, "surfacevel", sv, 6, 6)) memcpy(g->surfacevel, sv, sizeof sv);
    char *s = attr(c, n, "mesh");
    if (s) g->mesh = s;
    s = attr(c, n, "hfield");
    if (s) g->hfield = s;
}

static const char *const GEOM_ATTRS[] = {
    "name", "class", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
    "fromto", "contype", "conaffinity", "condim", "priority", "group", "friction", "solmix",
    "solref", "solimp", "margin", "gap", "rgba", "mass", "density", "shellinertia",
    "fluidshape", "fluidcoef", "mesh", "hfield", "fitscale", "material", "surfacevel", NULL};
static const char *const GEOM_VISUAL[] = {"user", NULL};

static void read_pair_attrs(cs_mjcf *c, xmlNode *n, cs_pspec *p)
{
    double v[5];
    int iv;
    if (int1(c, n, "condim", &iv)) { check_condim(c, n, iv); p->condim = iv; }
    int nf = nums(c, n, "friction", v, 1, 5);
    if (nf) { nonneg(c, n, "friction", v, nf); memcpy(p->friction, v, (size_t)nf * sizeof *v); }
    int k;
    if ((k = nums(c, n, "solref", v, 1, 2))) memcpy(p->solref, v, (size_t)k * sizeof *v);
    if ((k = nums(c, n, "solreffriction", v, 1, 2)))
        memcpy(p->solreffriction, v, (size_t)k * sizeof *v);
    int ni = nums(c, n, "solimp", v, 1, 5);
    if (ni) { memcpy(p->solimp, v, (size_t)ni * sizeof *v); solimp_check(c, n, "solimp", p->solimp); }
    if (num1(c, n, "margin", v)) p->margin = v[0];
    if (num1(c, n, "gap", v)) p->gap = v[0];
}

static const char *const PAIR_ATTRS[] = {"name", "class", "geom1", "geom2", "condim",
    "friction", "solref", "solreffriction", "solimp", "margin", "gap", NULL};

static const char *const JOINT_TYPES[] = {"free", "ball", "slide", "hinge", NULL};

static const char *const LIMITED[] = {"false", "true", "auto", NULL};

/* A joint's or tendon's stiffness or damping: MuJoCo 3.12 reads up to three numbers, the
 * linear coefficient and two of higher order (stiffness a x + b x^2 + c x^3, damping
 * a v + b v|v| + c v^3); numbers not given keep their value (the class's), as MuJoCo's reader
 * does. The linear one must not be negative; the others are the user's to choose. */
static int poly_coef(cs_mjcf *c, xmlNode *n, const char *name, double out[3])
{
    double v[3];
    int k = nums(c, n, name, v, 1, 3);
    if (!k) return 0;
    nonneg(c, n, name, v, 1);
    memcpy(out, v, (size_t)k * sizeof *v);
    return 1;
}

static void read_joint_attrs(cs_mjcf *c, xmlNode *n, cs_jspec *j)
{
    int k = keyword(c, n, "type", JOINT_TYPES);
    if (k >= 0) j->type = k; /* the list is in cs_joint_type order */
    nums(c, n, "pos", j->pos, 3, 3);
    nums(c, n, "axis", j->axis, 3, 3);
    num1(c, n, "ref", &j->ref);
    num1(c, n, "springref", &j->springref);
    k = keyword(c, n, "limited", LIMITED);
    if (k >= 0) j->limited = k;
    nums(c, n, "range", j->range, 2, 2);
    k = keyword(c, n, "actuatorfrclimited", LIMITED);
    if (k >= 0) j->actfrclimited = k;
    nums(c, n, "actuatorfrcrange", j->actfrcrange, 2, 2);
    double v;
    if (num1(c, n, "margin", &v)) j->margin = v;
    poly_coef(c, n, "damping", j->damping);
    if (num1(c, n, "armature", &v)) { nonneg(c, n, "armature", &v, 1); j->armature = v; }
    if (num1(c, n, "frictionloss", &v)) { nonneg(c, n, "frictionloss", &v, 1); j->frictionloss = v; }
    poly_coef(c, n, "stiffness", j->stiffness);
    nums(c, n, "solreflimit", j->solreflimit, 1, 2);
    nums(c, n, "solreffriction", j->solreffriction, 1, 2);
    double si[5];
    int ni = nums(c, n, "solimplimit", si, 1, 5);
    if (ni) { solimp_check(c, n, "solimplimit", si); memcpy(j->solimplimit, si, (size_t)ni * sizeof *si); }
    ni = nums(c, n, "solimpfriction", si, 1, 5);
    if (ni) { solimp_check(c, n, "solimpfriction", si); memcpy(j->solimpfriction, si, (size_t)ni * sizeof *si); }
    if (nums(c, n, "springdamper", j->springdamper, 2, 2) &&
        (j->springdamper[0] != 0 || j->springdamper[1] != 0) &&
        (j->springdamper[0] <= 0 || j->springdamper[1] <= 0))
        FAILN(c, n, "springdamper", "springdamper values must both be positive when given");
    boolean(c, n, "actuatorgravcomp", &j->actgravcomp);
}

static void default_jspec(cs_jspec *j)
{
    memset(j, 0, sizeof *j);
    j->type = CS_JNT_HINGE;
    j->axis[2] = 1;
    j->limited = CS_LIMITED_AUTO;
    j->actfrclimited = CS_LIMITED_AUTO;
    j->solreflimit[0] = j->solreffriction[0] = 0.02;
    j->solreflimit[1] = j->solreffriction[1] = 1;
    const double si[5] = {0.9, 0.95, 0.001, 0.5, 2};
    memcpy(j->solimplimit, si, sizeof si);
    memcpy(j->solimpfriction, si, sizeof si);
}

static const char *const JOINT_ATTRS[] = {"name", "class", "type", "pos", "axis",
    "damping", "armature", "frictionloss", "stiffness", "springref", "ref", "limited", "range",
    "margin", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "springdamper",
    "actuatorfrclimited", "actuatorfrcrange", "actuatorgravcomp", NULL};
static const char *const JOINT_VISUAL[] = {"user", "group", NULL};

/* ---- actuators ------------------------------------------------------------------------ */
static void default_aspec(cs_aspec *a)
{
    memset(a, 0, sizeof *a);
    a->gainprm[0] = 1;
    a->dynprm[0] = 1;
    a->gear[0] = 1;
    a->ctrllimited = a->forcelimited = a->actlimited = CS_LIMITED_AUTO;
    a->actdim = -1;
}

/* the shortcuts conesim models; other MuJoCo actuator types are refused where they appear */
static const char *const ACT_TAGS[] = {"general", "motor", "position", "velocity", "intvelocity",
                                       "damper", NULL};
static const char *const ACT_OTHER[] = {"cylinder", "muscle", "adhesion", "orientation", "pid",
                                        "dcmotor", "plugin", NULL};

/* MuJoCo's schema per tag: the attributes every actuator has, then each shortcut's own */
static const char *const ACT_COMMON[] = {"name", "class", "group", "nsample", "interp", "delay",
    "ctrlrange", "user", "ctrllimited", "forcelimited", "forcerange", "lengthrange", "gear",
    "damping", "armature", "cranklength", "joint", "jointinparent", "tendon", "slidersite",
    "cranksite", "site", "refsite", NULL};
static const char *const ACT_GENERAL[] = {"actlimited", "actrange", "body", "actdim", "input",
    "velrange", "ffrange", "dyntype", "gaintype", "biastype", "dynprm", "gainprm", "biasprm",
    "actearly", NULL};
static const char *const ACT_POSITION[] = {"inheritrange", "kp", "kv", "dampratio", "timeconst",
                                           NULL};
static const char *const ACT_INTVELOCITY[] = {"actlimited", "actrange", "inheritrange", "kp",
                                              "kv", "dampratio", NULL};
static const char *const ACT_KV[] = {"kv", NULL};
/* labels and the length range (used by muscles and `lengthrange` computations only) */
static const char *const ACT_VISUAL[] = {"user", "lengthrange", "interp", NULL};

static const char *const DYNW[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                   "dcmotor", "pid", "user", NULL};
static const char *const GAINW[] = {"fixed", "affine", "muscle", "dcmotor", "so3", "pid", "user",
                                    NULL};
static const char *const BIASW[] = {"none", "affine", "muscle", "dcmotor", "so3", "user", NULL};

static const char *const *act_extra(const char *tag)
{
    if (strcmp(tag, "general") == 0) return ACT_GENERAL;
    if (strcmp(tag, "position") == 0) return ACT_POSITION;
    if (strcmp(tag, "intvelocity") == 0) return ACT_INTVELOCITY;
    if (strcmp(tag, "velocity") == 0 || strcmp(tag, "damper") == 0) return ACT_KV;
    return NULL;
}

static void act_check_attrs(cs_mjcf *c, xmlNode *n, const char *tag)
{
    const char *const *extra = act_extra(tag);
    audit_accepted(n, ACT_COMMON);
    audit_accepted(n, extra);
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (strcmp(tag, "damper") == 0 && strcmp(an, "ctrllimited") == 0)
            FAILN(c, n, an, "unknown or unsupported attribute");
        if (in_list(an, ACT_VISUAL)) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s/@%s", tag, an);
            note_ignored(c, buf);
            a->_private = &MARK_IGNORED;
            continue;
        }
        if (in_list(an, ACT_COMMON) || in_list(an, extra)) continue;
        FAILN(c, n, an, "unknown or unsupported attribute");
    }
}

static int limited_kw(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    static const char *const LIM[] = {"false", "true", "auto", NULL};
    int k = keyword(c, n, name, LIM);
    if (k >= 0) *out = k;
    return k >= 0;
}

/* The attributes of one actuator element (or a default class's) onto a, in MuJoCo's order:
 * the general attributes, then the shortcut's own, which set the gain, bias and dynamics
 * (mjs_setToMotor, mjs_setToPosition, ...). Returns the joint named as the target, if any. */
static char *read_actuator(cs_mjcf *c, xmlNode *n, cs_aspec *a, const char *tag)
{
    act_check_attrs(c, n, tag);
    double v[CS_NGAIN];
    int k, iv;
    nums(c, n, "ctrlrange", a->ctrlrange, 2, 2);
    nums(c, n, "forcerange", a->forcerange, 2, 2);
    nums(c, n, "actrange", a->actrange, 2, 2);
    limited_kw(c, n, "ctrllimited", &a->ctrllimited);
    limited_kw(c, n, "forcelimited", &a->forcelimited);
    limited_kw(c, n, "actlimited", &a->actlimited);
    k = nums(c, n, "gear", v, 1, 6);
    if (k) memcpy(a->gear, v, (size_t)k * sizeof *v); /* the rest keep theirs, as MuJoCo */
    if ((k = nums(c, n, "damping", v, 1, 3)))
        for (int i = 0; i < k; i++)
            if (v[i] != 0) FAILN(c, n, "damping", "actuator damping is not supported (give the "
                                                  "joint's damping)");
    if (num1(c, n, "armature", v) && v[0] != 0)
        FAILN(c, n, "armature", "actuator armature is not supported (give the joint's armature)");
    if (int1(c, n, "nsample", &iv) && iv != 0)
        FAILN(c, n, "nsample", "delayed controls are not supported");
    if (num1(c, n, "delay", v) && v[0] != 0)
        FAILN(c, n, "delay", "delayed controls are not supported");
    if (attr(c, n, "input"))
        FAILN(c, n, "input", "input signatures (pid, so3, dcmotor actuators) are not supported");
    nums(c, n, "velrange", v, 2, 2); /* pid inputs only: without effect here */
    nums(c, n, "ffrange", v, 2, 2);
    if (int1(c, n, "actdim", &iv)) a->actdim = iv;
    if ((k = keyword(c, n, "dyntype", DYNW)) >= 0) a->dyntype = k;
    if ((k = keyword(c, n, "gaintype", GAINW)) >= 0) a->gaintype = k;
    if ((k = keyword(c, n, "biastype", BIASW)) >= 0) a->biastype = k;
    if ((k = nums(c, n, "dynprm", v, 1, CS_NDYN))) memcpy(a->dynprm, v, (size_t)k * sizeof *v);
    if ((k = nums(c, n, "gainprm", v, 1, CS_NGAIN))) memcpy(a->gainprm, v, (size_t)k * sizeof *v);
    if ((k = nums(c, n, "biasprm", v, 1, CS_NBIAS))) memcpy(a->biasprm, v, (size_t)k * sizeof *v);
    boolean(c, n, "actearly", &a->actearly);
    if (int1(c, n, "group", &iv)) a->group = iv;

    /* the transmission: a joint, a tendon or a slider-crank (cranksite, slidersite and
     * cranklength; the last two may come from a default class) */
    char *joint = attr(c, n, "joint"), *jip = attr(c, n, "jointinparent");
    char *tendon = attr(c, n, "tendon"), *crank = attr(c, n, "cranksite");
    if (joint && jip) FAILN(c, n, "jointinparent", "give one transmission target (also 'joint')");
    if (jip) joint = jip; /* on hinge and slide joints the same as joint */
    if (joint && tendon) FAILN(c, n, "tendon", "give one transmission target (also 'joint')");
    if (crank && (joint || tendon))
        FAILN(c, n, "cranksite", "give one transmission target (also '%s')",
              joint ? "joint" : "tendon");
    char *site = attr(c, n, "site");
    if (site && (joint || tendon || crank))
        FAILN(c, n, "site", "give one transmission target (also '%s')",
              joint ? "joint" : tendon ? "tendon" : "cranksite");
    if (attr(c, n, "refsite") && !site)
        FAILN(c, n, "refsite", "a reference site needs a site transmission (site=...)");
    if (attr(c, n, "body"))
        FAILN(c, n, "body", "body transmissions are not supported (joint, tendon, site and "
                            "slider-crank transmissions only)");
    int has_cl = num1(c, n, "cranklength", v);
    if (has_cl) a->cranklength = v[0];
    char *ss = attr(c, n, "slidersite");
    if (ss) a->slidersite = ss;
    if ((has_cl || ss) && (joint || tendon))
        FAILN(c, n, has_cl ? "cranklength" : "slidersite", "cranklength and slidersite can only "
              "be used in a slider-crank transmission");

    if (strcmp(tag, "motor") == 0) {
        a->gainprm[0] = 1;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_NONE;
    } else if (strcmp(tag, "position") == 0 || strcmp(tag, "intvelocity") == 0) {
        double kp = a->gainprm[0], kv, dr, tc;
        num1(c, n, "kp", &kp);
        int has_kv = num1(c, n, "kv", &kv), has_dr = num1(c, n, "dampratio", &dr);
        int has_tc = num1(c, n, "timeconst", &tc);
        double ir = a->inheritrange;
        num1(c, n, "inheritrange", &ir);
        a->gainprm[0] = kp;
        a->biasprm[1] = -kp;
        if (has_kv && has_dr) FAILN(c, n, "dampratio", "kv and dampratio cannot both be defined");
        if (has_kv) {
            if (kv < 0) FAILN(c, n, "kv", "kv cannot be negative");
            a->biasprm[2] = -kv;
        }
        if (has_dr) {
            if (dr < 0) FAILN(c, n, "dampratio", "dampratio cannot be negative");
            a->biasprm[2] = dr; /* positive: a damping ratio, made kv at compile time */
        }
        if (has_tc) {
            if (tc < 0) FAILN(c, n, "timeconst", "timeconst cannot be negative");
            a->dynprm[0] = tc;
            a->dyntype = tc == 0 ? CS_DYN_NONE : CS_DYN_FILTEREXACT;
        }
        a->inheritrange = ir;
        if (ir > 0 && strcmp(tag, "position") == 0 && (a->ctrlrange[0] || a->ctrlrange[1]))
            FAILN(c, n, "inheritrange", "ctrlrange and inheritrange cannot both be defined");
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_AFFINE;
        if (tag[0] == 'i') {
            a->dyntype = CS_DYN_INTEGRATOR;
            if (ir > 0 && (a->actrange[0] || a->actrange[1]))
                FAILN(c, n, "inheritrange", "actrange and inheritrange cannot both be defined");
        }
    } else if (strcmp(tag, "velocity") == 0) {
        double kv = a->gainprm[0];
        num1(c, n, "kv", &kv);
        memset(a->biasprm, 0, sizeof a->biasprm);
        a->gainprm[0] = kv;
        a->biasprm[2] = -kv;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_AFFINE;
    } else if (strcmp(tag, "damper") == 0) {
        double kv = a->gaintype == CS_GAIN_AFFINE ? -a->gainprm[2] : 0;
        num1(c, n, "kv", &kv);
        memset(a->gainprm, 0, sizeof a->gainprm);
        a->gainprm[2] = -kv;
        a->ctrllimited = CS_LIMITED_TRUE;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_AFFINE;
        a->biastype = CS_BIAS_NONE;
        if (kv < 0) FAILN(c, n, "kv", "damping coefficient cannot be negative");
        if (a->ctrlrange[0] < 0 || a->ctrlrange[1] < 0)
            FAILN(c, n, "ctrlrange", "damper control range cannot be negative");
    }
    return joint;
}

static void parse_actuators(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (in_list(en, ACT_OTHER))
            FAILN(c, ch, NULL, "actuator type not supported (motor, position, velocity, "
                               "intvelocity, damper and general are)");
        if (!in_list(en, ACT_TAGS)) FAILN(c, ch, NULL, "unknown element inside <actuator>");
        cs_actir A = {0};
        int k = class_of(c, ch, 0);
        A.s = c->cls[k].act;
        for (int i = 0; ACT_TAGS[i]; i++)
            if (strcmp(en, ACT_TAGS[i]) == 0) A.tag = ACT_TAGS[i];
        A.joint = read_actuator(c, ch, &A.s, A.tag);
        A.tendon = attr(c, ch, "tendon");
        A.cranksite = attr(c, ch, "cranksite");
        A.site = attr(c, ch, "site");
        A.jip = attr(c, ch, "jointinparent") != NULL;
        A.refsite = attr(c, ch, "refsite");
        if (!A.joint && !A.tendon && !A.cranksite && !A.site)
            FAILN(c, ch, "joint", "missing transmission target (a joint, a tendon, a site or a "
                                  "cranksite)");
        A.name = attr(c, ch, "name");
        if (A.name)
            for (int i = 0; i < c->nact; i++)
                if (c->act[i].name && strcmp(c->act[i].name, A.name) == 0)
                    FAILN(c, ch, "name", "duplicate actuator name '%s'", A.name);
        A.line = line_of(ch);
        cs_mjcf_grow(c, (void **)&c->act, &c->capact, c->nact, sizeof *c->act);
        c->act[c->nact++] = A;
    }
}

/* ---- <tendon> and <equality> -------------------------------------------------------- */
static const char *const TENDON_ATTRS[] = {"name", "class", "limited", "range", "margin",
    "frictionloss", "stiffness", "damping", "springlength", "armature", "solreflimit",
    "solimplimit", "solreffriction", "solimpfriction", "actuatorfrclimited",
    "actuatorfrcrange", NULL};
static const char *const TENDON_VISUAL[] = {"group", "user", "rgba", "width", "material", NULL};

static void read_tendon_attrs(cs_mjcf *c, xmlNode *n, cs_tspec *t)
{
    int k = keyword(c, n, "limited", LIMITED);
    if (k >= 0) t->limited = k;
    nums(c, n, "range", t->range, 2, 2);
    double v, sl[2], si[5];
    if (num1(c, n, "margin", &v)) t->margin = v;
    if (num1(c, n, "frictionloss", &v)) { nonneg(c, n, "frictionloss", &v, 1); t->frictionloss = v; }
    poly_coef(c, n, "stiffness", t->stiffness);
    poly_coef(c, n, "damping", t->damping);
    if (num1(c, n, "armature", &v)) { nonneg(c, n, "armature", &v, 1); t->armature = v; }
    if ((k = nums(c, n, "springlength", sl, 1, 2))) {
        t->springlength[0] = sl[0];
        t->springlength[1] = k == 2 ? sl[1] : sl[0];
    }
    nums(c, n, "solreflimit", t->solreflimit, 1, 2);
    nums(c, n, "solreffriction", t->solreffriction, 1, 2);
    if ((k = nums(c, n, "solimplimit", si, 1, 5))) {
        solimp_check(c, n, "solimplimit", si);
        memcpy(t->solimplimit, si, (size_t)k * sizeof *si);
    }
    if ((k = nums(c, n, "solimpfriction", si, 1, 5))) {
        solimp_check(c, n, "solimpfriction", si);
        memcpy(t->solimpfriction, si, (size_t)k * sizeof *si);
    }
    if (attr(c, n, "actuatorfrcrange"))
        FAILN(c, n, "actuatorfrcrange", "a tendon's actuator force range is not supported");
    if (keyword(c, n, "actuatorfrclimited", LIMITED) == CS_LIMITED_TRUE)
        FAILN(c, n, "actuatorfrclimited", "a tendon's actuator force range is not supported");
}

static void parse_tendons(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        int spatial = strcmp(en, "spatial") == 0;
        if (!spatial && strcmp(en, "fixed") != 0)
            FAILN(c, ch, NULL, "unknown element inside <tendon>");
        check_attrs(c, ch, TENDON_ATTRS, TENDON_VISUAL);
        cs_tendonir T = {0};
        T.s = c->cls[class_of(c, ch, 0)].tendon;
        read_tendon_attrs(c, ch, &T.s);
        T.name = attr(c, ch, "name");
        T.line = line_of(ch);
        T.spatial = spatial;
        if (T.name)
            for (int i = 0; i < c->nten; i++)
                if (c->ten[i].name && strcmp(c->ten[i].name, T.name) == 0)
                    FAILN(c, ch, "name", "duplicate tendon name '%s'", T.name);
        int nj = 0;
        for (xmlNode *j = ch->children; j; j = j->next)
            if (j->type == XML_ELEMENT_NODE) nj++;
        if (!nj && !spatial) FAILN(c, ch, NULL, "a fixed tendon needs at least one <joint>");
        if (nj < 2 && spatial)
            FAILN(c, ch, NULL, "a spatial tendon's path needs at least two elements");
        T.joint = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.joint);
        T.coef = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.coef);
        T.jline = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.jline);
        T.jid = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.jid);
        T.kind = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.kind);
        T.side = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.side);
        T.sideid = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.sideid);
        for (xmlNode *j = ch->children; j; j = j->next) {
            if (j->type != XML_ELEMENT_NODE) continue;
            int k = T.njoint;
            T.side[k] = NULL;
            T.sideid[k] = -1;
            T.coef[k] = 0;
            T.jline[k] = line_of(j);
            T.kind[k] = CS_WRAP_JOINT;
            if (spatial) { /* sites, wrapped geoms, pulleys */
                const char *wn = ename(j);
                if (strcmp(wn, "pulley") == 0) {
                    check_attrs(c, j, (const char *const[]){"divisor", NULL}, NULL);
                    if (!num1(c, j, "divisor", &T.coef[k]))
                        FAILN(c, j, "divisor", "missing pulley divisor");
                    if (!(T.coef[k] > 0))
                        FAILN(c, j, "divisor", "a pulley's divisor must be positive (got %g)",
                              T.coef[k]);
                    T.kind[k] = CS_WRAP_PULLEY;
                    T.joint[T.njoint++] = NULL;
                    continue;
                }
                int geom = strcmp(wn, "geom") == 0;
                if (!geom && strcmp(wn, "site") != 0)
                    FAILN(c, j, NULL, "unknown element inside <spatial>");
                if (geom)
                    check_attrs(c, j, (const char *const[]){"geom", "sidesite", NULL}, NULL);
                else
                    check_attrs(c, j, (const char *const[]){"site", NULL}, NULL);
                char *sn = attr(c, j, wn);
                if (!sn) FAILN(c, j, wn, "missing %s name", wn);
                if (geom) T.side[k] = attr(c, j, "sidesite");
                T.kind[k] = geom ? CS_WRAP_SPHERE : CS_WRAP_SITE;
                T.joint[T.njoint++] = sn;
                continue;
            }
            if (strcmp(ename(j), "joint") != 0)
                FAILN(c, j, NULL, "a fixed tendon holds <joint> elements only");
            check_attrs(c, j, (const char *const[]){"joint", "coef", NULL}, NULL);
            char *jn = attr(c, j, "joint");
            if (!jn) FAILN(c, j, "joint", "missing joint name");
            if (!num1(c, j, "coef", &T.coef[T.njoint]))
                FAILN(c, j, "coef", "missing coefficient");
            T.jline[T.njoint] = line_of(j);
            T.joint[T.njoint++] = jn;
        }
        cs_mjcf_grow(c, (void **)&c->ten, &c->capten, c->nten, sizeof *c->ten);
        c->ten[c->nten++] = T;
    }
}

static const char *const EQ_COMMON[] = {"name", "class", "active", "solref", "solimp", NULL};
static const char *const EQ_TAGS[] = {"connect", "weld", "joint", "tendon", NULL};
static const char *const EQ_ATTRS[][13] = {
    {"name", "class", "active", "solref", "solimp", "body1", "body2", "anchor", "site1", "site2",
     NULL},
    {"name", "class", "active", "solref", "solimp", "body1", "body2", "anchor", "site1", "site2",
     "relpose", "torquescale", NULL},
    {"name", "class", "active", "solref", "solimp", "joint1", "joint2", "polycoef", NULL},
    {"name", "class", "active", "solref", "solimp", "tendon1", "tendon2", "polycoef", NULL}};

static void read_eq_attrs(cs_mjcf *c, xmlNode *n, cs_espec *e)
{
    boolean(c, n, "active", &e->active);
    nums(c, n, "solref", e->solref, 1, 2);
    double si[5];
    int k = nums(c, n, "solimp", si, 1, 5);
    if (k) {
        solimp_check(c, n, "solimp", si);
        memcpy(e->solimp, si, (size_t)k * sizeof *si);
    }
}

static void parse_equality(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (strncmp(en, "flex", 4) == 0)
            FAILN(c, ch, NULL, "flex equality constraints are not supported (no flexes)");
        int t = -1;
        for (int i = 0; EQ_TAGS[i]; i++)
            if (strcmp(en, EQ_TAGS[i]) == 0) t = i;
        if (t < 0) FAILN(c, ch, NULL, "unknown element inside <equality>");
        check_attrs(c, ch, EQ_ATTRS[t], NULL);
        cs_eqir E = {0};
        E.s = c->cls[class_of(c, ch, 0)].eq;
        read_eq_attrs(c, ch, &E.s);
        E.type = t;
        E.tag = EQ_TAGS[t];
        E.line = line_of(ch);
        E.name = attr(c, ch, "name");
        if (E.name)
            for (int i = 0; i < c->neq; i++)
                if (c->eq[i].name && strcmp(c->eq[i].name, E.name) == 0)
                    FAILN(c, ch, "name", "duplicate equality name '%s'", E.name);
        E.id1 = E.id2 = -1;
        E.polycoef[1] = 1; /* MuJoCo's default 0 1 0 0 0: obj1 = obj2 */
        E.torquescale = 1;
        E.relpose[1] = 1;  /* 0 1 0 0 0 0 0: the quaternion part 0, the pose at qpos0 */
        if (t == CS_EQ_CONNECT || t == CS_EQ_WELD) {
            E.has_anchor = nums(c, ch, "anchor", E.anchor, 3, 3) > 0;
            /* MuJoCo's choice: bodies when body1 is given (and, for a connect, an anchor),
             * else the two sites */
            E.obj1 = attr(c, ch, "body1");
            E.obj2 = attr(c, ch, "body2");
            char *s1 = attr(c, ch, "site1"), *s2 = attr(c, ch, "site2");
            if (E.obj1 && (t == CS_EQ_WELD || E.has_anchor) && (s1 || s2))
                note_ignored(c, t == CS_EQ_WELD ? "weld/@site1, @site2 (body1 given: the body form)"
                                                : "connect/@site1, @site2 (body1 and anchor given: "
                                                  "the body form)");
            if (!E.obj1 || (t == CS_EQ_CONNECT && !E.has_anchor)) {
                if (!s1 && !s2 && !E.obj1) FAILN(c, ch, "body1", "missing body1 (or site1 and site2)");
                if (!s1 && !s2) FAILN(c, ch, "anchor", "a connect constraint needs an anchor");
                if (!s1 || !s2)
                    FAILN(c, ch, s1 ? "site2" : "site1", "the site form needs site1 and site2");
                E.site = 1;
                E.obj1 = s1;
                E.obj2 = s2;
            }
            if (t == CS_EQ_WELD) {
                nums(c, ch, "relpose", E.relpose, 7, 7);
                E.has_relpose = E.relpose[3] != 0 || E.relpose[4] != 0 || E.relpose[5] != 0 ||
                                E.relpose[6] != 0;
                num1(c, ch, "torquescale", &E.torquescale);
            }
        } else {
            const char *a1 = t == CS_EQ_JOINT ? "joint1" : "tendon1";
            const char *a2 = t == CS_EQ_JOINT ? "joint2" : "tendon2";
            E.obj1 = attr(c, ch, a1);
            E.obj2 = attr(c, ch, a2);
            if (!E.obj1) FAILN(c, ch, a1, "missing %s", a1);
            nums(c, ch, "polycoef", E.polycoef, 1, 5); /* the rest keep 0 1 0 0 0 */
        }
        cs_mjcf_grow(c, (void **)&c->eq, &c->capeq, c->neq, sizeof *c->eq);
        c->eq[c->neq++] = E;
    }
}

/* ---- <default> ---------------------------------------------------------------------- */
static const char *const SITE_VISUAL[] = {"material", "rgba", "group", "user", NULL};

/* a site's zone (type, size), over what its class gave */
static void read_site_shape(cs_mjcf *c, xmlNode *n, int *type, double size[3])
{
    static const char *const TYPES[] = {"sphere", "capsule", "ellipsoid", "cylinder", "box",
                                        NULL};
    static const int CODE[] = {CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID,
                               CS_GEOM_CYLINDER, CS_GEOM_BOX};
    int k = keyword(c, n, "type", TYPES);
    if (k >= 0) *type = CODE[k];
    double v[3];
    int ns = nums(c, n, "size", v, 1, 3);
    for (int i = 0; i < ns; i++) {
        if (!(v[i] >= 0)) FAILN(c, n, "size", "must not be negative");
        size[i] = v[i];
    }
}

static int has_alt_orientation(xmlNode *n)
{
    static const char *const ALT[] = {"axisangle", "euler", "xyaxes", "zaxis", NULL};
    for (const char *const *a = ALT; *a; a++)
        if (xmlHasProp(n, (const xmlChar *)*a)) return 1;
    return 0;
}

static void parse_default(cs_mjcf *c, xmlNode *n, int parent)
{
    check_attrs(c, n, (const char *const[]){"class", NULL}, NULL);
    char *name = attr(c, n, "class");
    int me;
    if (parent < 0) {
        me = 0; /* top level: "main" (created by the caller) */
        if (name && strcmp(name, "main") != 0) c->cls[0].name = name;
    } else {
        if (!name) FAILN(c, n, "class", "a nested default needs a class name");
        if (find_class(c, name) >= 0) FAILN(c, n, "class", "duplicate class '%s'", name);
        cs_mjcf_grow(c, (void **)&c->cls, &c->capcls, c->ncls, sizeof *c->cls);
        me = c->ncls++;
        c->cls[me] = c->cls[parent];
        c->cls[me].name = name;
        c->cls[me].parent = parent;
    }
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (strcmp(en, "geom") == 0) {
            check_attrs(c, ch, GEOM_ATTRS + 2, GEOM_VISUAL);
            read_geom_attrs(c, ch, &c->cls[me].geom);
        } else if (strcmp(en, "pair") == 0) {
            check_attrs(c, ch, PAIR_ATTRS + 4, NULL);
            read_pair_attrs(c, ch, &c->cls[me].pair);
        } else if (strcmp(en, "joint") == 0) {
            check_attrs(c, ch, JOINT_ATTRS + 2, JOINT_VISUAL);
            read_joint_attrs(c, ch, &c->cls[me].joint);
        } else if (strcmp(en, "mesh") == 0) {
            check_attrs(c, ch, (const char *const[]){"scale", NULL},
                        (const char *const[]){"maxhullvert", "inertia", "smoothnormal", NULL});
            double v[3];
            if (nums(c, ch, "scale", v, 3, 3)) memcpy(c->cls[me].meshscale, v, sizeof v);
        } else if (in_list(en, ACT_TAGS)) {
            /* one actuator default per class, whatever the shortcut (MuJoCo's) */
            for (int i = 0; ACT_TAGS[i]; i++)
                if (strcmp(en, ACT_TAGS[i]) == 0) en = ACT_TAGS[i];
            if (attr(c, ch, "name") || attr(c, ch, "class"))
                FAILN(c, ch, attr(c, ch, "name") ? "name" : "class",
                      "not allowed in a default class");
            if (read_actuator(c, ch, &c->cls[me].act, en) || attr(c, ch, "tendon") ||
                attr(c, ch, "cranksite"))
                FAILN(c, ch, attr(c, ch, "tendon") ? "tendon" : attr(c, ch, "cranksite")
                      ? "cranksite" : "joint",
                      "a transmission target is not allowed in a default class");
        } else if (strcmp(en, "tendon") == 0) {
            check_attrs(c, ch, TENDON_ATTRS + 2, TENDON_VISUAL);
            read_tendon_attrs(c, ch, &c->cls[me].tendon);
        } else if (strcmp(en, "equality") == 0) {
            check_attrs(c, ch, EQ_COMMON + 2, NULL);
            read_eq_attrs(c, ch, &c->cls[me].eq);
        } else if (strcmp(en, "default") == 0) {
            parse_default(c, ch, me);
        } else if (strcmp(en, "site") == 0) {
            /* the class's pose: each site that gives no position, or no orientation, takes
             * the class's (a default fromto would need the site's size: refused) */
            if (attr(c, ch, "fromto"))
                FAILN(c, ch, "fromto", "a site's fromto in a default class is not supported "
                                       "(give it on each site)");
            double q[4] = {1, 0, 0, 0};
            if (frame_attrs(c, ch, c->cls[me].site_pos, q)) {
                int alt = has_alt_orientation(ch);
                memcpy(alt ? c->cls[me].site_altquat : c->cls[me].site_quat, q, sizeof q);
                if (alt) c->cls[me].site_alt = 1;
            }
            check_attrs(c, ch, (const char *const[]){"pos", "quat", "axisangle", "euler",
                                                     "xyaxes", "zaxis", "type", "size", NULL},
                        SITE_VISUAL);
            read_site_shape(c, ch, &c->cls[me].site_type, c->cls[me].site_size);
        } else {
            /* defaults for elements the subset does not have only matter if such elements
             * appear, and those are rejected where they appear */
            char buf[96];
            snprintf(buf, sizeof buf, "default/%s", en);
            note_ignored(c, buf);
            mark_ignored(ch);
        }
    }
}

/* ---- <worldbody> and <body> ------------------------------------------------------------- */
static void name_unique_body(cs_mjcf *c, xmlNode *n, const char *name)
{
    for (int i = 0; i < c->nbody; i++)
        if (c->body[i].name && strcmp(c->body[i].name, name) == 0)
            FAILN(c, n, "name", "duplicate body name '%s'", name);
}

/* A <frame>'s pose relative to the body that holds it. */
typedef struct {
    double pos[3], quat[4];
} cs_xf;

static const cs_xf XF_IDENTITY = {{0, 0, 0}, {1, 0, 0, 0}};

/* out = F applied to the local pose (pos, quat) */
static void xf_apply(const cs_xf *F, double pos[3], double quat[4])
{
    double R[9], p[3];
    cs_quat2mat(R, F->quat);
    for (int i = 0; i < 3; i++)
        p[i] = F->pos[i] + R[3 * i] * pos[0] + R[3 * i + 1] * pos[1] + R[3 * i + 2] * pos[2];
    memcpy(pos, p, sizeof p);
    cs_mulquat(quat, F->quat, quat);
    cs_normquat(quat);
}

static void parse_geom(cs_mjcf *c, xmlNode *n, int body, int cls, const cs_xf *F)
{
    check_attrs(c, n, GEOM_ATTRS, GEOM_VISUAL);
    int k = class_of(c, n, cls);
    cs_geomir g = {0};
    g.s = c->cls[k].geom;
    /* an element's own orientation replaces one from the class */
    g.s.quat[0] = 1; g.s.quat[1] = g.s.quat[2] = g.s.quat[3] = 0;
    double q[4];
    if (!frame_attrs(c, n, NULL, q)) memcpy(q, c->cls[k].geom.quat, sizeof q);
    read_geom_attrs(c, n, &g.s);
    memcpy(g.s.quat, q, sizeof q);
    g.name = attr(c, n, "name");
    if (g.name)
        for (int i = 0; i < c->ngeom; i++)
            if (c->geom[i].name && strcmp(c->geom[i].name, g.name) == 0)
                FAILN(c, n, "name", "duplicate geom name '%s'", g.name);
    g.body = body;
    g.line = line_of(n);
    memcpy(g.fpos, F->pos, sizeof g.fpos);
    memcpy(g.fquat, F->quat, sizeof g.fquat);
    cs_mjcf_grow(c, (void **)&c->geom, &c->capgeom, c->ngeom, sizeof *c->geom);
    c->geom[c->ngeom++] = g;
}

/* a site: a named frame on a body (spatial tendons pass through sites) */
static void parse_site(cs_mjcf *c, xmlNode *n, int body, int cls, const cs_xf *F)
{
    check_attrs(c, n, (const char *const[]){"name", "class", "pos", "quat", "axisangle", "euler",
                                           "xyaxes", "zaxis", "fromto", "type", "size", NULL},
                SITE_VISUAL);
    int k = class_of(c, n, cls); /* the class, or the enclosing childclass: its pose, zone */
    cs_siteir S = {0};
    S.type = c->cls[k].site_type;
    memcpy(S.size, c->cls[k].site_size, sizeof S.size);
    read_site_shape(c, n, &S.type, S.size);
    S.quat[0] = 1;
    double ft[6];
    if (nums(c, n, "fromto", ft, 6, 6)) {
        /* as a geom's: the middle, z from the second end to the first */
        int t = S.type;
        if (t != CS_GEOM_CAPSULE && t != CS_GEOM_CYLINDER && t != CS_GEOM_BOX &&
            t != CS_GEOM_ELLIPSOID)
            FAILN(c, n, "fromto", "fromto requires a capsule, cylinder, box or ellipsoid site");
        double p[3], v[3];
        memcpy(p, c->cls[k].site_pos, sizeof p); /* the class's counts, as in MuJoCo */
        nums(c, n, "pos", p, 3, 3);
        if (p[0] != 0 || p[1] != 0 || p[2] != 0) FAILN(c, n, "fromto", "both pos and fromto given");
        for (int i = 0; i < 3; i++) {
            v[i] = ft[i] - ft[3 + i];
            S.pos[i] = 0.5 * (ft[i] + ft[3 + i]);
        }
        if (norm3(v) / 2 < 1e-14) FAILN(c, n, "fromto", "the two end points coincide");
        cs_quat_z2vec(S.quat, v);
    } else {
        /* the class's pose where the site gives none */
        memcpy(S.pos, c->cls[k].site_pos, sizeof S.pos);
        memcpy(S.quat, c->cls[k].site_quat, sizeof S.quat);
        double q[4] = {1, 0, 0, 0};
        frame_attrs(c, n, S.pos, q);
        /* MuJoCo resolves an alternative form (the site's, else the class's) over a quat */
        if (has_alt_orientation(n)) memcpy(S.quat, q, sizeof q);
        else if (c->cls[k].site_alt) memcpy(S.quat, c->cls[k].site_altquat, sizeof S.quat);
        else if (attr(c, n, "quat")) memcpy(S.quat, q, sizeof q);
    }
    xf_apply(F, S.pos, S.quat);
    S.name = attr(c, n, "name");
    if (S.name)
        for (int i = 0; i < c->nsite; i++)
            if (c->site[i].name && strcmp(c->site[i].name, S.name) == 0)
                FAILN(c, n, "name", "duplicate site name '%s'", S.name);
    S.body = body;
    S.line = line_of(n);
    cs_mjcf_grow(c, (void **)&c->site, &c->capsite, c->nsite, sizeof *c->site);
    c->site[c->nsite++] = S;
}

static void parse_inertial(cs_mjcf *c, xmlNode *n, cs_bspec *b)
{
    check_attrs(c, n, (const char *const[]){"pos", "quat", "axisangle", "euler", "xyaxes",
                                            "zaxis", "mass", "diaginertia", "fullinertia", NULL},
                NULL);
    if (b->has_inertial) FAILN(c, n, NULL, "a body may have only one <inertial>");
    b->has_inertial = 1;
    b->iquat[0] = 1;
    if (!nums(c, n, "pos", b->ipos, 3, 3)) FAILN(c, n, "pos", "required attribute missing");
    frame_attrs(c, n, NULL, b->iquat);
    int alt_orient = 0; /* MuJoCo 3.12 takes fullinertia with no orientation, quat included */
    static const char *const ORIENT[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis", NULL};
    for (const char *const *f = ORIENT; *f; f++)
        if (xmlHasProp(n, (const xmlChar *)*f)) alt_orient = 1;
    if (!num1(c, n, "mass", &b->imass)) FAILN(c, n, "mass", "required attribute missing");
    if (b->imass < 0) FAILN(c, n, "mass", "must not be negative");
    double d[6];
    int hasd = nums(c, n, "diaginertia", d, 3, 3);
    if (hasd) {
        nonneg(c, n, "diaginertia", d, 3);
        memcpy(b->iinertia, d, 3 * sizeof *d);
    }
    if (nums(c, n, "fullinertia", d, 6, 6)) {
        if (hasd) FAILN(c, n, "fullinertia", "give diaginertia or fullinertia, not both");
        if (alt_orient)
            FAILN(c, n, "fullinertia", "fullinertia and an inertial orientation cannot both be given");
        /* ixx iyy izz ixy ixz iyz in the inertial frame: rotate to principal axes */
        double A[9] = {d[0], d[3], d[4], d[3], d[1], d[5], d[4], d[5], d[2]}, ev[3], pq[4];
        cs_eig3(A, ev, pq);
        if (ev[2] < 0) FAILN(c, n, "fullinertia", "inertia matrix is not positive semi-definite");
        memcpy(b->iinertia, ev, sizeof ev);
        memcpy(b->iquat, pq, sizeof pq); /* as MuJoCo: the principal frame replaces quat */
    } else if (!hasd) {
        FAILN(c, n, "diaginertia", "required attribute missing (diaginertia or fullinertia)");
    }
}

static void parse_joint(cs_mjcf *c, xmlNode *n, int body, int cls, int freejoint,
                        const cs_xf *F)
{
    cs_jointir J = {0};
    if (freejoint) {
        check_attrs(c, n, (const char *const[]){"name", "align", NULL},
                    (const char *const[]){"group", NULL});
        int al;
        if (boolean(c, n, "align", &al) && al)
            FAILN(c, n, "align", "aligned free joints are not supported");
        default_jspec(&J.s);
        J.s.type = CS_JNT_FREE;
        J.s.limited = CS_LIMITED_FALSE;
    } else {
        check_attrs(c, n, JOINT_ATTRS, JOINT_VISUAL);
        int k = class_of(c, n, cls);
        J.s = c->cls[k].joint;
        read_joint_attrs(c, n, &J.s);
    }
    if (F && J.s.type != CS_JNT_FREE) {
        /* inside a <frame>: its pose carries the position, and the axis of a hinge or slide
         * (a ball's axis is not used), into the body's frame, as MuJoCo's compiler does */
        double q[4] = {1, 0, 0, 0}, R[9], a[3];
        xf_apply(F, J.s.pos, q);
        cs_quat2mat(R, F->quat);
        for (int i = 0; i < 3; i++)
            a[i] = R[3 * i] * J.s.axis[0] + R[3 * i + 1] * J.s.axis[1] + R[3 * i + 2] * J.s.axis[2];
        memcpy(J.s.axis, a, sizeof a);
    }
    J.name = attr(c, n, "name");
    if (J.name)
        for (int i = 0; i < c->njnt; i++)
            if (c->jnt[i].name && strcmp(c->jnt[i].name, J.name) == 0)
                FAILN(c, n, "name", "duplicate joint name '%s'", J.name);
    J.body = body;
    J.line = line_of(n);
    cs_bspec *b = &c->body[body];
    if (b->njnt == 0) b->jnt0 = c->njnt;
    b->njnt++;
    cs_mjcf_grow(c, (void **)&c->jnt, &c->capjnt, c->njnt, sizeof *c->jnt);
    c->jnt[c->njnt++] = J;
}

static const char *const VISUAL_ELEMS[] = {"site", "camera", "light", NULL};

static void parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F);

static const char *const FRAME_ATTRS[] = {"name", "childclass", "pos", "quat", "axisangle",
                                          "euler", "xyaxes", "zaxis", NULL};

/* A <frame> composes its pose with the enclosing one and may set a childclass. */
static void enter_frame(cs_mjcf *c, xmlNode *n, const cs_xf *F, int *cls, cs_xf *out)
{
    check_attrs(c, n, FRAME_ATTRS, NULL);
    attr(c, n, "name"); /* a name only identifies it (for --set edits) */
    cs_xf L = XF_IDENTITY;
    frame_attrs(c, n, L.pos, L.quat);
    *out = *F;
    double p[3], q[4];
    memcpy(p, L.pos, sizeof p);
    memcpy(q, L.quat, sizeof q);
    xf_apply(F, p, q);
    memcpy(out->pos, p, sizeof p);
    memcpy(out->quat, q, sizeof q);
    char *cc = attr(c, n, "childclass");
    if (cc) {
        int k = find_class(c, cc);
        if (k < 0) FAILN(c, n, "childclass", "unknown class '%s'", cc);
        *cls = k;
    }
}

/* The body's own items, frames included, in document order (geoms get contiguous ids, as
 * MuJoCo numbers them). */
static void parse_items(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F, int in_frame)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (strcmp(en, "geom") == 0) parse_geom(c, ch, me, cls, F);
        else if (strcmp(en, "frame") == 0) {
            int k = cls;
            cs_xf G;
            enter_frame(c, ch, F, &k, &G);
            parse_items(c, ch, me, k, &G, 1);
        } else if (strcmp(en, "inertial") == 0) {
            if (me == 0) FAILN(c, ch, NULL, "the world body has no inertial");
            if (in_frame) FAILN(c, ch, NULL, "not allowed inside <frame>");
            parse_inertial(c, ch, &c->body[me]);
        } else if (strcmp(en, "joint") == 0 || strcmp(en, "freejoint") == 0) {
            if (me == 0) FAILN(c, ch, NULL, "the world body cannot have joints");
            parse_joint(c, ch, me, cls, en[0] == 'f', in_frame ? F : NULL);
        } else if (strcmp(en, "body") == 0) continue;
        else if (strcmp(en, "site") == 0) parse_site(c, ch, me, cls, F);
        else if (cs_mjcf_visual_item(c, ch, me, F->pos, F->quat)) continue;
        else if (in_list(en, VISUAL_ELEMS)) {
            note_ignored(c, en);
            mark_ignored(ch);
        }
        else FAILN(c, ch, NULL, "element not supported here (bodies, joints, geoms, "
                                "inertials and frames only)");
    }
}

/* Child bodies depth-first in document order, frames included. */
static void parse_children(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(ename(ch), "body") == 0) parse_body(c, ch, me, cls, F);
        else if (strcmp(ename(ch), "frame") == 0) {
            int k = cls;
            cs_xf G;
            enter_frame(c, ch, F, &k, &G);
            parse_children(c, ch, me, k, &G);
        }
    }
}

static void parse_body_children(cs_mjcf *c, xmlNode *n, int me, int cls)
{
    c->body[me].geom0 = c->ngeom;
    parse_items(c, n, me, cls, &XF_IDENTITY, 0);
    c->body[me].ngeom = c->ngeom - c->body[me].geom0;
    parse_children(c, n, me, cls, &XF_IDENTITY);
}

static void parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F)
{
    check_attrs(c, n, (const char *const[]){"name", "childclass", "pos", "quat", "axisangle",
                                            "euler", "xyaxes", "zaxis", "mocap", "gravcomp",
                                            "sleep", "simple", NULL},
                (const char *const[]){"user", NULL});
    cs_bspec b = {0};
    b.quat[0] = 1;
    b.iquat[0] = 1;
    b.parent = parent;
    b.line = line_of(n);
    b.name = attr(c, n, "name");
    if (b.name) name_unique_body(c, n, b.name);
    frame_attrs(c, n, b.pos, b.quat);
    xf_apply(F, b.pos, b.quat);
    if (boolean(c, n, "mocap", &b.mocap) && b.mocap && parent != 0)
        FAILN(c, n, "mocap", "a mocap body must be a child of the world body");
    num1(c, n, "gravcomp", &b.gravcomp);
    /* MuJoCo 3.12's sleep policy (sleeping is refused) and its storage of a simple body's
     * mass matrix block: the same dynamics either way */
    static const char *const SLEEP[] = {"auto", "never", "allowed", "init", NULL};
    static const char *const SIMPLE[] = {"false", "auto", NULL};
    if (keyword(c, n, "sleep", SLEEP) >= 0) note_ignored(c, "body/@sleep");
    if (keyword(c, n, "simple", SIMPLE) >= 0) note_ignored(c, "body/@simple");
    char *cc = attr(c, n, "childclass");
    if (cc) {
        int k = find_class(c, cc);
        if (k < 0) FAILN(c, n, "childclass", "unknown class '%s'", cc);
        cls = k;
    }
    cs_mjcf_grow(c, (void **)&c->body, &c->capbody, c->nbody, sizeof *c->body);
    int me = c->nbody++;
    c->body[me] = b;
    parse_body_children(c, n, me, cls);
}

/* ---- <option>, <compiler>, <size> -------------------------------------------------- */
static void parse_flag(cs_mjcf *c, xmlNode *n)
{
    static const char *const ED[] = {"disable", "enable", NULL};
    /* MuJoCo 3.12's flags that change nothing here, either way: features the subset does
     * not have (inverse dynamics and its statistics) or speed only (midphase: the same
     * pairs are found) */
    static const char *const NOEFFECT[] = {"midphase", "fwdinv",
        "invdiscrete", NULL};
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        int k = keyword(c, n, an, ED);
        int bit, enable;
        /* the default of each is what conesim does; the other value is a behaviour it lacks */
        if (strcmp(an, "sleep") == 0 && k == 1)
            FAILN(c, n, an, "sleeping bodies are not supported");
        if (strcmp(an, "autoreset") == 0) {
            if (k == 1)
                FAILN(c, n, an, "automatic reset is not supported (a run stops at its last "
                                "finite state): use autoreset=\"disable\"");
            continue;
        }
        if (strcmp(an, "sleep") == 0) continue;
        /* MuJoCo 3.12's <flag> has no passive (it refuses it): spring and damper */
        if (strcmp(an, "passive") == 0)
            FAILN(c, n, an, "unknown flag (MuJoCo 3.12 has spring and damper instead)");
        /* diagexact: R from the exact diagonal of J M^-1 J^T instead of MuJoCo's body-based
         * approximation, which is what conesim computes */
        if (strcmp(an, "diagexact") == 0) {
            if (k == 1) FAILN(c, n, an, "the exact constraint diagonal is not supported");
            continue;
        }
        if (cs_flag_lookup(an, &bit, &enable) == 0) {
            int *w = enable ? &c->opt.enableflags : &c->opt.disableflags;
            int set = enable ? (k == 1) : (k == 0);
            if (set) *w |= bit;
            else *w &= ~bit;
        } else if (!in_list(an, NOEFFECT)) {
            FAILN(c, n, an, "unknown flag");
        }
    }
}

/* <statistic> and <visual><global>: no physics, but the free camera's framing (the viewer's
 * default camera is MuJoCo's: azimuth, elevation, 1.5 extents from the centre) */
static void parse_statistic(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"meaninertia", "meanmass", "meansize", "extent",
                                            "center", NULL}, NULL);
    double v;
    if (num1(c, n, "extent", &v)) {
        if (!(v > 0)) FAILN(c, n, "extent", "must be positive");
        c->stat_extent = v;
        note_ignored(c, "statistic/@extent");
    }
    if (nums(c, n, "center", c->stat_center, 3, 3)) note_ignored(c, "statistic/@center");
    /* MuJoCo's solvers scale their stopping rules by meaninertia; meanmass and meansize only
     * scale its drawings */
    if (num1(c, n, "meaninertia", &v)) {
        if (!(v > 0)) FAILN(c, n, "meaninertia", "must be positive");
        c->opt.meaninertia = v;
    }
    if (num1(c, n, "meanmass", &v)) note_ignored(c, "statistic/@meanmass");
    if (num1(c, n, "meansize", &v)) note_ignored(c, "statistic/@meansize");
}

static void parse_visual(cs_mjcf *c, xmlNode *n)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "global") == 0) {
            num1(c, ch, "azimuth", &c->vis_azimuth);
            num1(c, ch, "elevation", &c->vis_elevation);
        }
}

static void parse_option(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"timestep", "gravity", "wind", "magnetic",
        "density", "viscosity", "impratio", "tolerance", "ls_tolerance", "noslip_tolerance",
        "ccd_tolerance", "iterations", "ls_iterations", "noslip_iterations", "ccd_iterations",
        "sdf_iterations", "sdf_initpoints", "cone", "jacobian", "solver", "integrator",
        "o_margin", "o_solref", "o_solimp", "o_friction", "actuatorgroupdisable",
        "sleep_tolerance", NULL}, NULL);
    cs_option *o = &c->opt;
    double v[5];
    if (num1(c, n, "timestep", v)) {
        if (!(v[0] > 0)) FAILN(c, n, "timestep", "must be positive");
        o->timestep = v[0];
    }
    nums(c, n, "gravity", o->gravity, 3, 3);
    if (num1(c, n, "density", v)) { nonneg(c, n, "density", v, 1); o->density = v[0]; }
    if (num1(c, n, "viscosity", v)) { nonneg(c, n, "viscosity", v, 1); o->viscosity = v[0]; }
    nums(c, n, "wind", o->wind, 3, 3); /* no effect without viscosity */
    nums(c, n, "magnetic", o->magnetic, 3, 3); /* only magnetometers read it */
    if (num1(c, n, "impratio", v)) {
        if (!(v[0] > 0)) FAILN(c, n, "impratio", "must be positive");
        o->impratio = v[0];
    }
    if (num1(c, n, "tolerance", v)) { nonneg(c, n, "tolerance", v, 1); o->tolerance = v[0]; }
    if (num1(c, n, "ls_tolerance", v)) { nonneg(c, n, "ls_tolerance", v, 1); o->ls_tolerance = v[0]; }
    int iv;
    if (int1(c, n, "iterations", &iv)) {
        if (iv < 0) FAILN(c, n, "iterations", "must not be negative");
        o->iterations = iv;
    }
    if (int1(c, n, "ls_iterations", &iv)) {
        if (iv < 0) FAILN(c, n, "ls_iterations", "must not be negative");
        o->ls_iterations = iv;
    }
    if (int1(c, n, "noslip_iterations", &iv)) {
        if (iv < 0) FAILN(c, n, "noslip_iterations", "must not be negative");
        o->noslip_iterations = iv;
    }
    if (num1(c, n, "noslip_tolerance", v)) {
        nonneg(c, n, "noslip_tolerance", v, 1);
        o->noslip_tolerance = v[0];
    }
    static const char *const CONES[] = {"pyramidal", "elliptic", NULL};
    int k = keyword(c, n, "cone", CONES);
    if (k >= 0) o->cone = k;
    static const char *const SOLVERS[] = {"PGS", "CG", "Newton", NULL};
    k = keyword(c, n, "solver", SOLVERS);
    if (k >= 0) o->solver = k;
    static const char *const INTEG[] = {"Euler", "RK4", "implicit", "implicitfast", NULL};
    k = keyword(c, n, "integrator", INTEG);
    if (k == CS_INT_IMPLICIT)
        FAILN(c, n, "integrator", "the implicit integrator is not supported: it needs the "
                                  "velocity derivative of the Coriolis and centrifugal forces "
                                  "(use implicitfast, which leaves it out, or Euler)");
    if (k >= 0) o->integrator = k;
    static const char *const JAC[] = {"dense", "sparse", "auto", NULL};
    keyword(c, n, "jacobian", JAC);
    if (num1(c, n, "o_margin", v)) o->o_margin = v[0];
    nums(c, n, "o_solref", o->o_solref, 1, 2);
    /* actuator groups to disable, as MuJoCo reads them: each of 0..30 sets its bit */
    double g[31];
    int ng = nums(c, n, "actuatorgroupdisable", g, 1, 31);
    for (int i = 0; i < ng; i++) {
        if (g[i] != floor(g[i])) FAILN(c, n, "actuatorgroupdisable", "expects integers");
        if (g[i] < 0 || g[i] > 30)
            FAILN(c, n, "actuatorgroupdisable", "a group is 0 to 30 (got %g)", g[i]);
        o->disableactuator |= 1 << (int)g[i];
    }
    int it;
    if (int1(c, n, "ccd_iterations", &it)) {
        if (it < 0) FAILN(c, n, "ccd_iterations", "must not be negative");
        o->ccd_iterations = it;
    }
    if (num1(c, n, "ccd_tolerance", v)) {
        nonneg(c, n, "ccd_tolerance", v, 1);
        o->ccd_tolerance = v[0];
    }
    /* no SDF geoms here (refused where they appear): the SDF solver's settings change nothing */
    if (int1(c, n, "sdf_iterations", &it)) note_ignored(c, "option/@sdf_iterations");
    if (int1(c, n, "sdf_initpoints", &it)) note_ignored(c, "option/@sdf_initpoints");
    /* sleeping is refused (<flag sleep>), so its velocity threshold changes nothing */
    if (num1(c, n, "sleep_tolerance", v)) {
        nonneg(c, n, "sleep_tolerance", v, 1);
        note_ignored(c, "option/@sleep_tolerance");
    }
    int ni = nums(c, n, "o_solimp", v, 1, 5);
    if (ni) memcpy(o->o_solimp, v, (size_t)ni * sizeof *v);
    int nf = nums(c, n, "o_friction", v, 1, 5);
    if (nf) { nonneg(c, n, "o_friction", v, nf); memcpy(o->o_friction, v, (size_t)nf * sizeof *v); }
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(ename(ch), "flag") == 0) parse_flag(c, ch);
        else FAILN(c, ch, NULL, "unknown element inside <option>");
    }
}

static void parse_compiler(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"angle", "eulerseq", "autolimits",
        "inertiafromgeom", "boundmass", "boundinertia", "settotalmass", "balanceinertia",
        "inertiagrouprange", "coordinate", "fusestatic", "alignfree", "discardvisual", "fitaabb",
        "usethread", "strippath", "saveinertial", "meshdir", "assetdir", "conflict",
        "texturedir", NULL}, NULL);
    boolean(c, n, "fitaabb", &c->fitaabb);
    c->meshdir = attr(c, n, "meshdir");
    c->assetdir = attr(c, n, "assetdir");
    c->texturedir = attr(c, n, "texturedir");
    static const char *const ANG[] = {"radian", "degree", NULL};
    int k = keyword(c, n, "angle", ANG);
    if (k >= 0) c->degree = k;
    char *es = attr(c, n, "eulerseq");
    if (es) {
        if (strlen(es) != 3) FAILN(c, n, "eulerseq", "expects 3 characters from xyzXYZ");
        for (int i = 0; i < 3; i++)
            if (!strchr("xyzXYZ", es[i]))
                FAILN(c, n, "eulerseq", "expects 3 characters from xyzXYZ");
        memcpy(c->eulerseq, es, 4);
    }
    int b;
    if (boolean(c, n, "autolimits", &b)) c->autolimits = b;
    static const char *const IFG[] = {"false", "true", "auto", NULL};
    k = keyword(c, n, "inertiafromgeom", IFG);
    if (k >= 0) c->inertiafromgeom = k;
    double v[2];
    if (num1(c, n, "boundmass", v)) { nonneg(c, n, "boundmass", v, 1); c->boundmass = v[0]; }
    if (num1(c, n, "boundinertia", v)) { nonneg(c, n, "boundinertia", v, 1); c->boundinertia = v[0]; }
    if (num1(c, n, "settotalmass", v)) c->settotalmass = v[0];
    if (boolean(c, n, "balanceinertia", &b)) c->balanceinertia = b;
    int gr[2];
    if (cs_mjcf_ints(c, n, "inertiagrouprange", gr, 2, 2)) {
        c->igroup[0] = gr[0];
        c->igroup[1] = gr[1];
    }
    static const char *const COORD[] = {"local", "global", NULL};
    if (keyword(c, n, "coordinate", COORD) == 1)
        FAILN(c, n, "coordinate", "global coordinates are not supported (MuJoCo removed them)");
    if (boolean(c, n, "fusestatic", &b) && b)
        FAILN(c, n, "fusestatic", "fusestatic is not supported (it renumbers bodies)");
    if (boolean(c, n, "alignfree", &b) && b)
        FAILN(c, n, "alignfree", "alignfree is not supported");
    boolean(c, n, "discardvisual", &b);
    boolean(c, n, "usethread", &b);
    boolean(c, n, "strippath", &b);
    boolean(c, n, "saveinertial", &b);
    /* name conflicts of <attach>, which is refused where it appears */
    static const char *const CONFLICT[] = {"warning", "merge", "error", NULL};
    if (keyword(c, n, "conflict", CONFLICT) >= 0) note_ignored(c, "compiler/@conflict");
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) {
            note_ignored(c, "compiler/lengthrange");
            mark_ignored(ch);
        }
}

/* <size memory>: bytes, with an optional suffix K M G T P E (powers of 1024), "-1" for
 * MuJoCo's own guess; as MuJoCo 3.12's reader, one unsigned integer and nothing else */
static double memory_bytes(cs_mjcf *c, xmlNode *n, const char *s)
{
    static const char msg[] = "expects an unsigned integer with an optional suffix K, M, G, T, "
                              "P or E (or -1), got '%s'";
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (strncmp(p, "-1", 2) == 0) {
        const char *q = p + 2;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
        if (!*q) return -1;
    }
    if (*p < '0' || *p > '9') FAILN(c, n, "memory", msg, s);
    double v = 0;
    for (; *p >= '0' && *p <= '9'; p++) v = 10 * v + (*p - '0');
    static const char SUF[] = "KMGTPE";
    const char *k = *p ? strchr(SUF, *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p) : NULL;
    if (*p && !k) FAILN(c, n, "memory", msg, s);
    if (k) {
        v = ldexp(v, 10 * (int)(k - SUF + 1));
        p++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p) FAILN(c, n, "memory", msg, s);
    if (v >= 0x1p64) FAILN(c, n, "memory", "'%s' is too big (more bytes than size_t holds)", s);
    return v;
}

static void parse_size(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"memory", "njmax", "nconmax", "nstack",
        "nuserdata", "nkey", "nuser_body", "nuser_jnt", "nuser_geom", "nuser_site",
        "nuser_cam", "nuser_tendon", "nuser_actuator", "nuser_sensor", NULL}, NULL);
    int iv;
    /* MuJoCo's -1 is "not given"; nconmax is a hard cap on the contacts a step keeps, memory
     * the bound within which conesim grows its contact arrays, njmax and nstack (legacy) size
     * MuJoCo's default arena, and so that bound, as MuJoCo 3.12 does */
    if (int1(c, n, "nconmax", &iv)) {
        if (iv < -1) FAILN(c, n, "nconmax", "must be >= -1");
        c->nconmax = iv > 0 ? iv : 0;
    }
    if (int1(c, n, "njmax", &iv)) {
        if (iv < -1) FAILN(c, n, "njmax", "must be >= -1");
        c->njmax = iv;
    }
    if (int1(c, n, "nstack", &iv)) {
        if (iv < -1) FAILN(c, n, "nstack", "must be >= -1");
        c->nstack = iv;
    }
    const char *mem = attr(c, n, "memory");
    if (mem) c->memory = memory_bytes(c, n, mem);
    /* MuJoCo's user-array sizes: conesim has no user data but the sensors' */
    static const char *const SIZES[] = {"nuserdata", "nuser_body",
        "nuser_jnt", "nuser_geom", "nuser_site", "nuser_cam", "nuser_tendon", "nuser_actuator",
        NULL};
    if (int1(c, n, "nuser_sensor", &iv)) {
        if (iv < -1) FAILN(c, n, "nuser_sensor", "must be >= -1");
        c->nuser_sensor = iv;
    }
    for (const char *const *s = SIZES; *s; s++)
        if (attr(c, n, *s)) {
            char buf[48];
            snprintf(buf, sizeof buf, "size/@%s", *s);
            note_ignored(c, buf);
        }
    if (int1(c, n, "nkey", &iv)) {
        if (iv < 0) FAILN(c, n, "nkey", "must not be negative");
        c->size_nkey = iv;
        c->size_line = line_of(n);
    }
}

/* ---- <contact>, <keyframe> -------------------------------------------------------------- */
static void parse_contact(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(ename(ch), "pair") == 0) {
            check_attrs(c, ch, PAIR_ATTRS, NULL);
            int k = class_of(c, ch, 0);
            cs_pairir p = {0};
            p.s = c->cls[k].pair;
            read_pair_attrs(c, ch, &p.s);
            p.name = attr(c, ch, "name");
            p.geom1 = attr(c, ch, "geom1");
            p.geom2 = attr(c, ch, "geom2");
            if (!p.geom1) FAILN(c, ch, "geom1", "required attribute missing");
            if (!p.geom2) FAILN(c, ch, "geom2", "required attribute missing");
            if (p.name)
                for (int i = 0; i < c->npair; i++)
                    if (c->pair[i].name && strcmp(c->pair[i].name, p.name) == 0)
                        FAILN(c, ch, "name", "duplicate pair name '%s'", p.name);
            p.line = line_of(ch);
            cs_mjcf_grow(c, (void **)&c->pair, &c->cappair, c->npair, sizeof *c->pair);
            c->pair[c->npair++] = p;
        } else if (strcmp(ename(ch), "exclude") == 0) {
            check_attrs(c, ch, (const char *const[]){"name", "body1", "body2", NULL}, NULL);
            cs_exclir e = {0};
            e.body1 = attr(c, ch, "body1");
            e.body2 = attr(c, ch, "body2");
            attr(c, ch, "name"); /* a name only identifies it */
            if (!e.body1) FAILN(c, ch, "body1", "required attribute missing");
            if (!e.body2) FAILN(c, ch, "body2", "required attribute missing");
            e.line = line_of(ch);
            cs_mjcf_grow(c, (void **)&c->excl, &c->capexcl, c->nexcl, sizeof *c->excl);
            c->excl[c->nexcl++] = e;
        } else {
            FAILN(c, ch, NULL, "unknown element inside <contact>");
        }
    }
}

static double *nums_alloc(cs_mjcf *c, xmlNode *n, const char *name, int *count)
{
    char *s = attr(c, n, name);
    if (!s) { *count = 0; return NULL; }
    int cap = 1;
    for (char *p = s; *p; p++) cap += isspace((unsigned char)*p) ? 1 : 0;
    double *v = cs_mjcf_alloc(c, (size_t)cap * sizeof *v);
    *count = nums(c, n, name, v, 0, cap);
    return v;
}

static void parse_keyframe(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(ename(ch), "key") != 0) FAILN(c, ch, NULL, "unknown element inside <keyframe>");
        check_attrs(c, ch, (const char *const[]){"name", "time", "qpos", "qvel", "act", "ctrl",
                                                 "mpos", "mquat", NULL}, NULL);
        cs_keyir k = {0};
        k.name = attr(c, ch, "name");
        k.line = line_of(ch);
        num1(c, ch, "time", &k.time);
        k.qpos = nums_alloc(c, ch, "qpos", &k.nqpos);
        k.qvel = nums_alloc(c, ch, "qvel", &k.nqvel);
        k.ctrl = nums_alloc(c, ch, "ctrl", &k.nctrl);
        k.act = nums_alloc(c, ch, "act", &k.nact);
        k.mpos = nums_alloc(c, ch, "mpos", &k.nmpos);
        k.mquat = nums_alloc(c, ch, "mquat", &k.nmquat);
        cs_mjcf_grow(c, (void **)&c->key, &c->capkey, c->nkey, sizeof *c->key);
        c->key[c->nkey++] = k;
    }
}

/* ---- <asset> --------------------------------------------------------------------------- */
static void parse_mesh(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"name", "class", "file", "scale", "refpos",
        "refquat", "vertex", "face", "maxhullvert", "inertia", "content_type", NULL},
        (const char *const[]){"normal", "texcoord", "smoothnormal", "material", NULL});
    if (attr(c, n, "builtin")) FAILN(c, n, "builtin", "built-in meshes are not supported");
    cs_meshir M;
    memset(&M, 0, sizeof M);
    int k = class_of(c, n, 0);
    memcpy(M.scale, c->cls[k].meshscale, sizeof M.scale);
    M.refquat[0] = 1;
    M.maxhullvert = -1;
    M.line = line_of(n);
    M.file = attr(c, n, "file");
    M.name = attr(c, n, "name");
    nums(c, n, "scale", M.scale, 3, 3);
    nums(c, n, "refpos", M.refpos, 3, 3);
    if (nums(c, n, "refquat", M.refquat, 4, 4)) {
        double l = sqrt(M.refquat[0] * M.refquat[0] + M.refquat[1] * M.refquat[1] +
                        M.refquat[2] * M.refquat[2] + M.refquat[3] * M.refquat[3]);
        if (l < 1e-14) FAILN(c, n, "refquat", "zero quaternion");
    }
    for (int i = 0; i < 3; i++)
        if (M.scale[i] == 0) FAILN(c, n, "scale", "scale must not be zero");
    int cnt = 0;
    double *v = nums_alloc(c, n, "vertex", &cnt);
    if (v) {
        if (cnt % 3) FAILN(c, n, "vertex", "expects 3 numbers per vertex, got %d numbers", cnt);
        M.vertex = v;
        M.nvertex = cnt / 3;
    }
    double *f = nums_alloc(c, n, "face", &cnt);
    if (f) {
        if (cnt % 3) FAILN(c, n, "face", "expects 3 indices per face, got %d numbers", cnt);
        M.nface = cnt / 3;
        M.face = cs_mjcf_alloc(c, (size_t)(cnt ? cnt : 1) * sizeof *M.face);
        for (int i = 0; i < cnt; i++) {
            if (f[i] != floor(f[i])) FAILN(c, n, "face", "'%g' is not an integer", f[i]);
            if (f[i] < 0 || f[i] >= M.nvertex)
                FAILN(c, n, "face", "vertex index %g out of range (%d vertices)", f[i],
                      M.nvertex);
            M.face[i] = (int)f[i];
        }
    }
    if (M.file && M.vertex) FAILN(c, n, "vertex", "give the vertices in the file or here, not both");
    if (!M.file && !M.vertex) FAILN(c, n, NULL, "a mesh needs a file or vertex data");
    if (M.face && !M.vertex) FAILN(c, n, "face", "faces need inline vertex data");
    int iv;
    if (int1(c, n, "maxhullvert", &iv)) {
        if (iv != -1 && iv < 4) FAILN(c, n, "maxhullvert", "must be -1 or larger than 3");
        M.maxhullvert = iv;
    }
    static const char *const INERTIA[] = {"legacy", "convex", "exact", "shell", NULL};
    int ki = keyword(c, n, "inertia", INERTIA);
    if (ki >= 0) M.inertia = ki;
    static const char *const CTYPE[] = {"model/stl", "model/obj", "model/vnd.mujoco.msh", NULL};
    int ct = keyword(c, n, "content_type", CTYPE);
    if (!M.name && M.file) {
        /* MuJoCo: the file name without path and extension */
        const char *b = strrchr(M.file, '/');
        b = b ? b + 1 : M.file;
        M.name = cs_mjcf_strdup(c, b);
        char *dot = strrchr(M.name, '.');
        if (dot && dot != M.name) *dot = 0;
    }
    if (!M.name) FAILN(c, n, "name", "a mesh without a file needs a name");
    if (cs_mjcf_find_mesh(c, M.name) >= 0) FAILN(c, n, "name", "duplicate mesh name '%s'", M.name);
    M.format = ct + 1; /* the content type overrides the file's extension */
    cs_mjcf_grow(c, (void **)&c->mesh, &c->capmesh, c->nmesh, sizeof *c->mesh);
    c->mesh[c->nmesh++] = M;
}

static void parse_asset(cs_mjcf *c, xmlNode *n)
{
    check_attrs(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (strcmp(en, "mesh") == 0) parse_mesh(c, ch);
        else if (cs_mjcf_hfield_asset(c, ch)) continue;
        else if (cs_mjcf_visual_asset(c, ch)) continue;
        else {
            /* the other assets (skins, models) are only reachable through elements that are
             * checked where they appear */
            char buf[96];
            snprintf(buf, sizeof buf, "asset/%s", en);
            note_ignored(c, buf);
            mark_ignored(ch);
        }
    }
}

/* <custom>: MuJoCo keeps its contents as user data without effect. One text element is
 * conesim's: name="conesim:contact" data="soft|coulomb" chooses the contact model
 * (docs/contact-math.md §11); everything else in <custom> is noted as ignored. */
static void parse_custom(cs_mjcf *c, xmlNode *n)
{
    int other = 0;
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        char *name = strcmp(ename(ch), "text") == 0 ? attr(c, ch, "name") : NULL;
        if (!name || strcmp(name, "conesim:contact") != 0) {
            other = 1;
            mark_ignored(ch);
            continue;
        }
        char *data = attr(c, ch, "data");
        if (!data) FAILN(c, ch, "data", "conesim:contact needs data=\"soft\" or \"coulomb\"");
        char err[128];
        if (cs_option_set(&c->opt, "contact", data, err, sizeof err) != 0)
            FAILN(c, ch, "data", "conesim:contact: '%s': expects soft or coulomb", data);
    }
    if (other) note_ignored(c, "custom");
}

/* ---- document ----------------------------------------------------------------------------- */
static void parse_root(cs_mjcf *c, xmlNode *root)
{
    if (!root || strcmp(ename(root), "mujoco") != 0)
        cs_mjcf_fail(c, root ? line_of(root) : 1, root ? ename(root) : NULL, NULL,
                     "the root element must be <mujoco>");
    check_attrs(c, root, (const char *const[]){"model", NULL}, NULL);
    char *mn = attr(c, root, "model");
    c->modelname = mn ? mn : cs_mjcf_strdup(c, "MuJoCo Model");

    /* compiler settings govern how every other element reads: take them first */
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "compiler") == 0)
            parse_compiler(c, ch);
    cs_mjcf_replicate(c, root); /* copies the replicated trees in before anything reads them */
    /* classes next: elements may precede <default> in the file; several top-level
     * <default> sections all add to the main class, as in MuJoCo */
    for (xmlNode *ch = root->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "default") == 0)
            parse_default(c, ch, -1);
    int nworld = 0;
    for (xmlNode *ch = root->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = ename(ch);
        if (strcmp(en, "compiler") == 0 || strcmp(en, "default") == 0) continue;
        if (strcmp(en, "option") == 0) parse_option(c, ch);
        else if (strcmp(en, "size") == 0) parse_size(c, ch);
        else if (strcmp(en, "worldbody") == 0) {
            check_attrs(c, ch, NULL, NULL);
            nworld++;
        } else if (strcmp(en, "contact") == 0) parse_contact(c, ch);
        else if (strcmp(en, "keyframe") == 0) parse_keyframe(c, ch);
        else if (strcmp(en, "asset") == 0) parse_asset(c, ch);
        else if (strcmp(en, "actuator") == 0) parse_actuators(c, ch);
        else if (strcmp(en, "tendon") == 0) parse_tendons(c, ch);
        else if (strcmp(en, "equality") == 0) parse_equality(c, ch);
        else if (strcmp(en, "custom") == 0) parse_custom(c, ch);
        else if (strcmp(en, "sensor") == 0) cs_mjcf_parse_sensors(c, ch);
        else if (strcmp(en, "visual") == 0 || strcmp(en, "statistic") == 0) {
            if (strcmp(en, "statistic") == 0) parse_statistic(c, ch);
            if (strcmp(en, "visual") == 0) parse_visual(c, ch);
            /* assets are only reachable through geom mesh/hfield/material, checked there;
             * <statistic> notes its own */
            if (strcmp(en, "statistic") != 0) {
                note_ignored(c, en);
                mark_ignored(ch);
            }
        } else if (strcmp(en, "deformable") == 0) {
            /* skins are drawn over bodies and do nothing to the physics; flexes would */
            for (xmlNode *k = ch->children; k; k = k->next)
                if (k->type == XML_ELEMENT_NODE && strcmp(ename(k), "skin") != 0)
                    FAILN(c, k, NULL, "element not supported (it would change the physics)");
            note_ignored(c, "deformable/skin");
            mark_ignored(ch);
        } else
            FAILN(c, ch, NULL, "element not supported (it would change the physics)");
    }
    /* several <worldbody> sections add to the one world, as in MuJoCo: the world's own
     * geoms of every section first (a body's geoms are numbered together), then the
     * bodies in document order */
    if (nworld) {
        c->body[0].geom0 = c->ngeom;
        for (xmlNode *ch = root->children; ch; ch = ch->next)
            if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "worldbody") == 0)
                parse_items(c, ch, 0, 0, &XF_IDENTITY, 0);
        c->body[0].ngeom = c->ngeom - c->body[0].geom0;
        for (xmlNode *ch = root->children; ch; ch = ch->next)
            if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "worldbody") == 0)
                parse_children(c, ch, 0, 0, &XF_IDENTITY);
    }
}

static void init_ctx(cs_mjcf *c, const char *file, char *err, size_t errsz)
{
    memset(c, 0, sizeof *c);
    c->file = file;
    c->err = err;
    c->errsz = errsz;
    if (err && errsz) err[0] = 0;
    c->degree = 1;
    c->autolimits = 1;
    memcpy(c->eulerseq, "xyz", 4);
    c->inertiafromgeom = 2;
    c->settotalmass = -1;
    c->njmax = c->nstack = c->nuser_sensor = -1;
    c->memory = -1;
    c->stat_center[0] = c->stat_center[1] = c->stat_center[2] = NAN;
    c->vis_azimuth = 90;
    c->vis_elevation = -45;
    c->igroup[0] = 0;
    c->igroup[1] = 5;
    cs_option *o = &c->opt;
    o->timestep = 0.002;
    o->gravity[2] = -9.81;
    o->magnetic[1] = -0.5;
    o->cone = CS_CONE_PYRAMIDAL;
    o->solver = CS_SOLVER_NEWTON; /* MJCF's default solver */
    /* the solver's numbers from its defaults (one place: cs_solver_opts_default) */
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    o->iterations = so.max_iter;
    o->tolerance = so.tolerance;
    o->ls_iterations = so.ls_iterations;
    o->ls_tolerance = so.ls_tolerance;
    o->noslip_iterations = so.noslip_iterations;
    o->noslip_tolerance = so.noslip_tolerance;
    o->impratio = 1;
    o->pgs_blocks = so.blocking == CS_PGS_BLOCK_PAIR ? CS_PGS_PAIR : CS_PGS_CONTACT;
    o->pgs_finish = so.finish_after;
    o->eq_jdotv = 1;
    o->newton_early = so.newton_early;
    o->contact = CS_CONTACT_SOFT;
    o->o_solref[0] = 0.02; o->o_solref[1] = 1;
    o->o_solimp[0] = 0.9; o->o_solimp[1] = 0.95; o->o_solimp[2] = 0.001; o->o_solimp[3] = 0.5;
    o->o_solimp[4] = 2;
    o->o_friction[0] = o->o_friction[1] = 1;
    o->o_friction[2] = 0.005;
    o->o_friction[3] = o->o_friction[4] = 0.0001;
    o->ccd_iterations = 35; /* MuJoCo 3.12's */
    o->ccd_tolerance = 1e-6;
}

static void free_ctx(cs_mjcf *c)
{
    for (int i = 0; i < c->nalloc; i++) cs_free(c->allocs[i]);
    cs_free(c->allocs);
}

static void silent(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void silent_structured(void *ctx, const xmlError *e)
{
    (void)ctx;
    (void)e;
}

/* What the parser reported, kept until parsing ends: errors cannot be raised from inside
 * libxml2's callbacks (a longjmp out of the parser would leak its state). */
typedef struct {
    int err_line;             /* libxml2's first error: where the problem is, not where it */
    char err_msg[256];        /* gave up (an unclosed tag is noticed at the next mismatch) */
    int entity_line;          /* first entity declaration or reference, 0 if none */
    char entity[64];
} parse_notes;

static void first_error(void *ctx, const xmlError *e)
{
    parse_notes *pn = ((xmlParserCtxt *)ctx)->_private;
    if (!e || e->level < XML_ERR_ERROR || pn->err_msg[0]) return;
    pn->err_line = e->line;
    snprintf(pn->err_msg, sizeof pn->err_msg, "%s", e->message ? e->message : "unreadable XML");
    size_t l = strlen(pn->err_msg);
    while (l && (pn->err_msg[l - 1] == '\n' || pn->err_msg[l - 1] == ' ')) pn->err_msg[--l] = 0;
}

static void note_entity(void *ctx, const xmlChar *name)
{
    xmlParserCtxt *px = ctx;
    parse_notes *pn = px->_private;
    if (pn->entity_line) return;
    pn->entity_line = px->input ? px->input->line : 1;
    snprintf(pn->entity, sizeof pn->entity, "%s", name ? (const char *)name : "");
}

/* MuJoCo's parser knows no DTDs: a declared entity would change what the file says */
static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                           const xmlChar *systemId, xmlChar *content)
{
    (void)type, (void)publicId, (void)systemId, (void)content;
    note_entity(ctx, name);
}

static void on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *publicId,
                                    const xmlChar *systemId, const xmlChar *notationName)
{
    (void)publicId, (void)systemId, (void)notationName;
    note_entity(ctx, name);
}

static void on_reference(void *ctx, const xmlChar *name) { note_entity(ctx, name); }

static const int XMLOPTS = XML_PARSE_NONET | XML_PARSE_BIG_LINES;

/* The whole file in memory (read here, not by libxml2, so that a signal interrupts a read
 * that blocks, e.g. on a FIFO without a writer, instead of being retried). Returns 0, or
 * an errno value. */
static int read_all(const char *path, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    size_t cap = 1 << 16, n = 0;
    char *b = cs_malloc(cap);
    int rc = b ? 0 : ENOMEM;
    while (rc == 0) {
        if (n == cap) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : cs_realloc(b, cap * 2);
            if (!nb) {
                rc = ENOMEM;
                break;
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) rc = errno;
        else if (r == 0) break;
        else n += (size_t)r;
    }
    close(fd);
    if (rc == 0 && n > INT_MAX) rc = EFBIG; /* libxml2 takes an int length */
    if (rc) {
        cs_free(b);
        return rc;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* ---- <include> ------------------------------------------------------------------------ */
static int count_lines(const char *buf, size_t len)
{
    int n = 1;
    for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
    return n;
}

/* a path's directory with its trailing '/', "" for a bare name */
static char *dir_of(cs_mjcf *c, const char *path)
{
    const char *sl = strrchr(path, '/');
    size_t n = sl ? (size_t)(sl - path + 1) : 0;
    char *d = cs_mjcf_alloc(c, n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

static char *join_path(cs_mjcf *c, const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 1;
    char *p = cs_mjcf_alloc(c, n);
    snprintf(p, n, "%s%s", dir, file);
    return p;
}

static void add_src(cs_mjcf *c, const char *path, const char *real, int nlines, int parent,
                    int line)
{
    cs_mjcf_grow(c, (void **)&c->src, &c->capsrc, c->nsrc, sizeof *c->src);
    cs_srcfile *s = &c->src[c->nsrc];
    memset(s, 0, sizeof *s);
    s->path = cs_mjcf_strdup(c, path);
    s->dir = dir_of(c, path);
    s->real = real ? cs_mjcf_strdup(c, real) : NULL;
    s->base = c->nsrc ? c->src[c->nsrc - 1].base + c->src[c->nsrc - 1].nlines : 0;
    s->nlines = nlines;
    s->parent = parent;
    s->line = line;
    c->nsrc++;
}

/* every node below n (and n) carries the included file's line base */
static void set_base(xmlNode *n, int base)
{
    n->_private = (void *)(intptr_t)base;
    for (xmlNode *ch = n->children; ch; ch = ch->next) set_base(ch, base);
}

static void free_include(cs_mjcf *c)
{
    if (c->incdoc) xmlFreeDoc(c->incdoc);
    if (c->incpx) xmlFreeParserCtxt(c->incpx);
    cs_free(c->incbuf);
    c->incdoc = c->incpx = NULL;
    c->incbuf = NULL;
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                           const xmlChar *systemId, xmlChar *content);
static void on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *publicId,
                                    const xmlChar *systemId, const xmlChar *notationName);
static void on_reference(void *ctx, const xmlChar *name);
static void first_error(void *ctx, const xmlError *e);

/* Replaces <include file> by the elements inside the file's root element, as MuJoCo does (a
 * file name is tried in the main file's directory, then in the including file's); returns
 * the first element brought in, or what followed the <include>. A file is included once:
 * a second time (an include cycle among them) is an error. */
static xmlNode *include_file(cs_mjcf *c, xmlDoc *doc, xmlNode *n)
{
    check_attrs(c, n, (const char *const[]){"file", NULL}, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) FAILN(c, n, NULL, "an <include> cannot have children");
    char *file = attr(c, n, "file");
    if (!file || !*file) FAILN(c, n, "file", "required attribute missing");
    int me = src_of_line(c, line_of(n)), line = line_of(n) - c->src[me].base;
    char *path = file[0] == '/' ? file : join_path(c, c->src[0].dir, file);
    size_t len;
    struct stat st;
    int rc = stat(path, &st) ? errno : 0;
    if (rc == ENOENT && file[0] != '/' && strcmp(c->src[me].dir, c->src[0].dir) != 0) {
        path = join_path(c, c->src[me].dir, file);
        rc = stat(path, &st) ? errno : 0;
    }
    if (!rc && !S_ISREG(st.st_mode)) /* a device or a pipe could be endless or block */
        FAILN(c, n, "file", "'%s' is not a regular file", path);
    if (!rc) rc = read_all(path, &c->incbuf, &len);
    if (rc == ENOMEM) cs_mjcf_nomem(c);
    if (rc) FAILN(c, n, "file", "cannot read '%s': %s", path, strerror(rc));
    char real[PATH_MAX];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    for (int j = me; j >= 0; j = c->src[j].parent)
        if (c->src[j].real && strcmp(c->src[j].real, real) == 0)
            FAILN(c, n, "file", "include cycle: '%s' is already being read (it includes itself, directly or through other files)",
                  path);
    for (int j = 0; j < c->nsrc; j++)
        if (c->src[j].real && strcmp(c->src[j].real, real) == 0)
            FAILN(c, n, "file", "'%s' is already included (MuJoCo includes a file once)", path);
    add_src(c, path, real, count_lines(c->incbuf, len), me, line);
    int k = c->nsrc - 1, base = c->src[k].base;
    const char *nul = memchr(c->incbuf, 0, len);
    if (nul) {
        int l = 1;
        for (const char *p = c->incbuf; p < nul; p++) l += *p == '\n';
        cs_mjcf_fail(c, base + l, NULL, NULL, "NUL byte (not allowed in XML)");
    }
    xmlParserCtxt *px = xmlNewParserCtxt();
    if (!px) cs_mjcf_nomem(c);
    c->incpx = px;
    parse_notes pn = {0};
    px->_private = &pn;
    px->sax->serror = (xmlStructuredErrorFunc)first_error;
    px->sax->entityDecl = on_entity_decl;
    px->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    px->sax->reference = on_reference;
    xmlDoc *idoc = xmlCtxtReadMemory(px, c->incbuf, (int)len, path, NULL, XMLOPTS);
    c->incdoc = idoc;
    if (pn.entity_line)
        cs_mjcf_fail(c, base + pn.entity_line, NULL, NULL,
                     "entity '%s': DOCTYPE entities are not supported (MJCF has no DTD)",
                     pn.entity);
    if (!idoc) {
        const xmlError *e = xmlCtxtGetLastError(px);
        if (!pn.err_msg[0] && e && e->code == XML_ERR_NO_MEMORY) cs_mjcf_nomem(c);
        cs_mjcf_fail(c, base + (pn.err_msg[0] ? pn.err_line : e ? e->line : 0), NULL, NULL,
                     "malformed XML: %s", pn.err_msg[0] ? pn.err_msg : "unreadable XML");
    }
    xmlNode *root = xmlDocGetRootElement(idoc), *first = NULL;
    for (xmlNode *ch = root ? root->children : NULL; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        xmlNode *cp = xmlDocCopyNode(ch, doc, 1);
        if (!cp) cs_mjcf_nomem(c);
        set_base(cp, base);
        xmlAddPrevSibling(n, cp);
        if (!first) first = cp;
    }
    if (!first)
        FAILN(c, n, "file", "'%s' has no elements inside its root element (an empty include)",
              path);
    free_include(c);
    xmlUnlinkNode(n);
    xmlFreeNode(n);
    return first;
}

static void expand_includes(cs_mjcf *c, xmlDoc *doc, xmlNode *parent)
{
    xmlNode *ch = parent->children;
    while (ch) {
        if (ch->type == XML_ELEMENT_NODE && strcmp(ename(ch), "include") == 0) {
            ch = include_file(c, doc, ch);
            continue;
        }
        if (ch->type == XML_ELEMENT_NODE) expand_includes(c, doc, ch);
        ch = ch->next;
    }
}

static cs_model *load(const char *buf, size_t len, const char *name, FILE *warn, char *err,
                      size_t errsz, const cs_mjcf_edits *edits)
{
    cs_mjcf *c = cs_calloc(1, sizeof *c);
    if (!c) {
        if (err && errsz) snprintf(err, errsz, "%s: out of memory", name);
        errno = ENOMEM;
        return NULL;
    }
    init_ctx(c, name, err, errsz);
    xmlSetGenericErrorFunc(NULL, silent);
    xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)silent_structured);
    xmlParserCtxt *px = xmlNewParserCtxt();
    xmlDoc *volatile doc = NULL;
    cs_model *volatile m = NULL;
    if (!px) {
        if (err && errsz) snprintf(err, errsz, "%s: out of memory", name);
        cs_free(c);
        errno = ENOMEM;
        return NULL;
    }
    parse_notes pn = {0};
    px->_private = &pn;
    px->sax->serror = (xmlStructuredErrorFunc)first_error; /* const in newer libxml2 */
    px->sax->entityDecl = on_entity_decl;
    px->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    px->sax->reference = on_reference;
    if (setjmp(c->jb) == 0) {
        const char *nul = memchr(buf, 0, len);
        if (nul) {
            int line = 1;
            for (const char *p = buf; p < nul; p++) line += *p == '\n';
            cs_mjcf_fail(c, line, NULL, NULL, "NUL byte (not allowed in XML)");
        }
        doc = xmlCtxtReadMemory(px, buf, (int)len, name, NULL, XMLOPTS);
        if (pn.entity_line)
            cs_mjcf_fail(c, pn.entity_line, NULL, NULL,
                         "entity '%s': DOCTYPE entities are not supported (MJCF has no DTD)",
                         pn.entity);
        if (!doc) {
            const xmlError *e = xmlCtxtGetLastError(px);
            if (!pn.err_msg[0] && e && e->code == XML_ERR_NO_MEMORY) cs_mjcf_nomem(c);
            cs_mjcf_fail(c, pn.err_msg[0] ? pn.err_line : e ? e->line : 0, NULL, NULL,
                         "malformed XML: %s", pn.err_msg[0] ? pn.err_msg : "unreadable XML");
        }
        cs_mjcf_grow(c, (void **)&c->cls, &c->capcls, 0, sizeof *c->cls);
        c->ncls = 1;
        c->cls[0].name = cs_mjcf_strdup(c, "main");
        c->cls[0].parent = -1;
        default_gspec(&c->cls[0].geom);
        c->cls[0].site_quat[0] = 1;
        c->cls[0].meshscale[0] = c->cls[0].meshscale[1] = c->cls[0].meshscale[2] = 1;
        c->cls[0].site_type = CS_GEOM_SPHERE;
        default_pspec(&c->cls[0].pair);
        default_jspec(&c->cls[0].joint);
        default_aspec(&c->cls[0].act);
        cs_mjcf_default_tspec(&c->cls[0].tendon);
        cs_mjcf_default_espec(&c->cls[0].eq);
        c->cls[0].site_size[0] = c->cls[0].site_size[1] = c->cls[0].site_size[2] = 0.005;
        /* body 0: the world */
        cs_mjcf_grow(c, (void **)&c->body, &c->capbody, 0, sizeof *c->body);
        c->nbody = 1;
        memset(&c->body[0], 0, sizeof c->body[0]);
        c->body[0].name = cs_mjcf_strdup(c, "world");
        c->body[0].parent = -1;
        c->body[0].quat[0] = c->body[0].iquat[0] = 1;
        char real[PATH_MAX];
        add_src(c, name, realpath(name, real) ? real : NULL, count_lines(buf, len), -1, 0);
        xmlNode *root = xmlDocGetRootElement(doc);
        if (root && strcmp(ename(root), "mujoco") == 0) expand_includes(c, doc, root);
        if (root && edits) cs_mjcf_edit(c, root, edits);
        parse_root(c, root);
        m = cs_mjcf_compile(c);
        if (audit_fn) audit_walk(root);
        if (warn && c->nignored) {
            fprintf(warn, "conesim: %s: ignored (visual only or without effect):", name);
            for (int i = 0; i < c->nignored; i++)
                fprintf(warn, "%s %s", i ? "," : "", c->ignored[i]);
            fputc('\n', warn);
        }
    } else {
        m = NULL;
        if (c->xmlpending) xmlFree(c->xmlpending);
        free_include(c);
    }
    int why = c->nomem ? ENOMEM : c->editfail ? ESRCH : EINVAL;
    if (doc) xmlFreeDoc(doc);
    xmlFreeParserCtxt(px);
    free_ctx(c);
    cs_free(c);
    if (!m) errno = why;
    return m;
}

cs_model *cs_load_xml_edit(const char *path, int nedit, const char *const *names,
                           const char *const *values, FILE *warn, char *err, size_t errsz)
{
    cs_mjcf_edits e = {nedit, names, values};
    char *buf;
    size_t len;
    int rc = read_all(path, &buf, &len);
    if (rc) {
        if (err && errsz) {
            if (rc == ENOMEM) snprintf(err, errsz, "%s: out of memory", path);
            else snprintf(err, errsz, "%s:0: cannot read the file: %s", path, strerror(rc));
        }
        errno = rc;
        return NULL;
    }
    cs_model *m = load(buf, len, path, warn, err, errsz, nedit > 0 ? &e : NULL);
    int saved = errno;
    cs_free(buf);
    errno = saved;
    return m;
}

cs_model *cs_load_xml(const char *path, FILE *warn, char *err, size_t errsz)
{
    return cs_load_xml_edit(path, 0, NULL, NULL, warn, err, errsz);
}

cs_model *cs_load_xml_buffer(const char *xml, size_t len, const char *name, FILE *warn,
                             char *err, size_t errsz)
{
    return load(xml, len, name, warn, err, errsz, NULL);
}

cs_model *cs_load_xml_string(const char *xml, const char *name, FILE *warn, char *err,
                             size_t errsz)
{
    return load(xml, strlen(xml), name, warn, err, errsz, NULL);
}

/* ---- more readers, for mjcf_visual.c (the line, attributes and numbers: above) --------- */
void cs_mjcf_check(cs_mjcf *c, xmlNode *n, const char *const *used, const char *const *visual)
{
    check_attrs(c, n, used, visual);
}
int cs_mjcf_keyword(cs_mjcf *c, xmlNode *n, const char *name, const char *const *words)
{
    return keyword(c, n, name, words);
}
int cs_mjcf_frame(cs_mjcf *c, xmlNode *n, double pos[3], double quat[4])
{
    return frame_attrs(c, n, pos, quat);
}
void cs_mjcf_note_ignored(cs_mjcf *c, const char *what) { note_ignored(c, what); }
