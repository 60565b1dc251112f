/* The MJCF reader's context (memory owned by it, errors naming FILE:LINE and the files that
 * include it), the attribute readers every element reader uses, and orientations. */
#include <ctype.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>

#include "alloc.h"
#include "numlist.h"
#include "spatial.h"

#include "mjcf_read.h"

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
int cs_mjcf_src_of_line(const cs_mjcf *c, int line)
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
            int k = cs_mjcf_src_of_line(c, line);
            file = c->src[k].path;
            line -= c->src[k].base;
            /* the include chain, innermost first */
            for (int j = k; c->src[j].parent >= 0; j = c->src[j].parent) {
                size_t l = strlen(where);
                const char *how = c->src[j].model ? (l ? ", model asset of " : " (model asset of ")
                                                  : (l ? ", from " : " (included from ");
                snprintf(where + l, sizeof where - l, "%s%s:%d", how,
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
int cs_mjcf_line(xmlNode *n) { return (int)(intptr_t)n->_private + (int)xmlGetLineNo(n); }
const char *cs_mjcf_ename(xmlNode *n) { return (const char *)n->name; }

#define FAILN(c, n, attr, ...) cs_mjcf_fail((c), cs_mjcf_line(n), cs_mjcf_ename(n), (attr), __VA_ARGS__)

void cs_mjcf_note_ignored(cs_mjcf *c, const char *what)
{
    for (int i = 0; i < c->nignored; i++)
        if (strcmp(c->ignored[i], what) == 0) return;
    cs_mjcf_grow(c, (void **)&c->ignored, &c->capignored, c->nignored, sizeof(char *));
    c->ignored[c->nignored++] = cs_mjcf_strdup(c, what);
}

int cs_mjcf_is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

const char *cs_mjcf_prop(xmlNode *n, const char *name)
{
    xmlAttr *a = xmlHasProp(n, (const xmlChar *)name);
    if (!a || !a->children || a->children->type != XML_TEXT_NODE) return NULL;
    return (const char *)a->children->content;
}

void cs_mjcf_set_prop(cs_mjcf *c, xmlNode *n, const char *name, const char *value)
{
    if (!xmlSetProp(n, (const xmlChar *)name, (const xmlChar *)value)) cs_mjcf_nomem(c);
}

/* ---- attributes ------------------------------------------------------------------------- */
int cs_mjcf_in_list(const char *s, const char *const *list)
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

void cs_mjcf_audit_accepted(xmlNode *n, const char *const *used)
{
    if (!audit_fn) return;
    for (; used && *used; used++)
        audit_fn(audit_ctx, (const char *)n->name, *used, CS_AUDIT_ACCEPTED);
}

void cs_mjcf_mark_attr_ignored(xmlAttr *a) { a->_private = &MARK_IGNORED; }

/* an element noted as ignored as a whole: its attributes and its children's too */
void cs_mjcf_mark_ignored(xmlNode *n)
{
    for (xmlAttr *a = n->properties; a; a = a->next) a->_private = &MARK_IGNORED;
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) cs_mjcf_mark_ignored(ch);
}

/* every attribute below n reported to the audit (nothing when it is off) */
void cs_mjcf_audit_walk(xmlNode *n)
{
    if (!audit_fn) return;
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE) continue;
        for (xmlAttr *a = n->properties; a; a = a->next)
            audit_fn(audit_ctx, (const char *)n->name, (const char *)a->name,
                     a->_private == &MARK_READ      ? CS_AUDIT_READ
                     : a->_private == &MARK_IGNORED ? CS_AUDIT_IGNORED
                                                    : CS_AUDIT_UNREAD);
        cs_mjcf_audit_walk(n->children);
    }
}

/* the same for one element and what it holds (an attached model's parts, mjcf_attach.c) */
void cs_mjcf_audit_elem(xmlNode *n)
{
    if (!audit_fn || n->type != XML_ELEMENT_NODE) return;
    for (xmlAttr *a = n->properties; a; a = a->next)
        audit_fn(audit_ctx, (const char *)n->name, (const char *)a->name,
                 a->_private == &MARK_READ      ? CS_AUDIT_READ
                 : a->_private == &MARK_IGNORED ? CS_AUDIT_IGNORED
                                                : CS_AUDIT_UNREAD);
    cs_mjcf_audit_walk(n->children);
}

/* Every attribute must be known: used, visual-only (noted as ignored) or harmless. */
void cs_mjcf_check(cs_mjcf *c, xmlNode *n, const char *const *used, const char *const *visual)
{
    cs_mjcf_audit_accepted(n, used);
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (cs_mjcf_in_list(an, used)) continue;
        if (cs_mjcf_in_list(an, visual)) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s/@%s", cs_mjcf_ename(n), an);
            cs_mjcf_note_ignored(c, buf);
            a->_private = &MARK_IGNORED;
            continue;
        }
        FAILN(c, n, an, "unknown or unsupported attribute");
    }
}

/* attribute value as a context string, NULL when absent */
char *cs_mjcf_attr(cs_mjcf *c, xmlNode *n, const char *name)
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
int cs_mjcf_nums(cs_mjcf *c, xmlNode *n, const char *name, double *out, int lo, int hi)
{
    char *s = cs_mjcf_attr(c, n, name);
    if (!s) return 0;
    int k = cs_numlist(s, out, hi);
    if (k == CS_NUMLIST_BAD) FAILN(c, n, name, "'%s' is not a number", s);
    if (k == CS_NUMLIST_INF) FAILN(c, n, name, "value must be finite (got '%s')", s);
    if (k == CS_NUMLIST_MORE) {
        if (lo == hi) FAILN(c, n, name, "expects %d numbers, got more", hi);
        FAILN(c, n, name, "expects at most %d numbers, got more", hi);
    }
    if (k == 0) return 0; /* an empty value (rgba="") is no value, as MuJoCo reads it */
    if (k < lo) {
        if (lo == hi) FAILN(c, n, name, "expects %d numbers, got %d", lo, k);
        FAILN(c, n, name, "expects at least %d numbers, got %d", lo, k);
    }
    return k;
}

int cs_mjcf_num1(cs_mjcf *c, xmlNode *n, const char *name, double *out)
{
    return cs_mjcf_nums(c, n, name, out, 1, 1);
}

int cs_mjcf_int1(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    double v;
    if (!cs_mjcf_num1(c, n, name, &v)) return 0;
    if (v != floor(v) || fabs(v) > 1e9) FAILN(c, n, name, "expects an integer");
    *out = (int)v;
    return 1;
}

void cs_mjcf_check_attrs(cs_mjcf *c, xmlNode *n, const char *const *used)
{
    cs_mjcf_check(c, n, used, NULL);
}

int cs_mjcf_ints(cs_mjcf *c, xmlNode *n, const char *name, int *out, int lo, int hi)
{
    double v[64];
    if (hi > 64) hi = 64;
    int k = cs_mjcf_nums(c, n, name, v, lo, hi);
    for (int i = 0; i < k; i++) {
        /* range first: converting an out-of-range double to int is undefined */
        if (!(fabs(v[i]) <= 1e9) || v[i] != floor(v[i]))
            FAILN(c, n, name, "'%g' is not an integer", v[i]);
        out[i] = (int)v[i];
    }
    return k;
}

/* keyword attribute: returns index in `words`, -1 when absent */
int cs_mjcf_keyword(cs_mjcf *c, xmlNode *n, const char *name, const char *const *words)
{
    char *s = cs_mjcf_attr(c, n, name);
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

int cs_mjcf_bool(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    int k = cs_mjcf_keyword(c, n, name, BOOLW);
    if (k < 0) return 0;
    *out = k;
    return 1;
}

void cs_mjcf_nonneg(cs_mjcf *c, xmlNode *n, const char *name, const double *v, int k)
{
    for (int i = 0; i < k; i++)
        if (v[i] < 0) FAILN(c, n, name, "must not be negative");
}

/* ---- orientation -------------------------------------------------------------------- */
/* an angle of the file in radians, rounded as MuJoCo's compiler rounds it (a / 180 * pi:
 * frames built of many turns then keep MuJoCo's last bits) */
static double to_rad(const cs_mjcf *c, double a) { return c->degree ? a / 180.0 * M_PI : a; }

void cs_mjcf_quat_renorm(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n < 1e-14 || fabs(n - 1) <= 1e-14) return;
    for (int i = 0; i < 4; i++) q[i] /= n;
}

static void euler2quat(const cs_mjcf *c, const double e[3], double q[4])
{
    q[0] = 1; q[1] = q[2] = q[3] = 0;
    for (int i = 0; i < 3; i++) {
        char ax = c->eulerseq[i];
        double axis[3] = {0, 0, 0};
        axis[tolower((unsigned char)ax) - 'x'] = 1;
        double r[4];
        cs_axisangle2quat(r, axis, to_rad(c, e[i]));
        /* lowercase: axes move with the frame (post-multiply); uppercase: fixed axes */
        if (islower((unsigned char)ax)) cs_mulquat(q, q, r);
        else cs_mulquat(q, r, q);
    }
}

double cs_mjcf_norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Reads pos and the one orientation form present; returns 1 if an orientation was given. */
int cs_mjcf_frame(cs_mjcf *c, xmlNode *n, double pos[3], double quat[4])
{
    if (pos) cs_mjcf_nums(c, n, "pos", pos, 3, 3);
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
        cs_mjcf_nums(c, n, "quat", v, 4, 4);
        double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
        if (l < 1e-15) FAILN(c, n, "quat", "zero quaternion");
        for (int i = 0; i < 4; i++) quat[i] = v[i] / l;
    } else if (strcmp(given, "axisangle") == 0) {
        cs_mjcf_nums(c, n, "axisangle", v, 4, 4);
        if (cs_mjcf_norm3(v) < 1e-15) FAILN(c, n, "axisangle", "zero rotation axis");
        cs_axisangle2quat(quat, v, to_rad(c, v[3]));
    } else if (strcmp(given, "euler") == 0) {
        cs_mjcf_nums(c, n, "euler", v, 3, 3);
        euler2quat(c, v, quat);
    } else if (strcmp(given, "xyaxes") == 0) {
        cs_mjcf_nums(c, n, "xyaxes", v, 6, 6);
        double *x = v, *y = v + 3, z[3], R[9];
        double lx = cs_mjcf_norm3(x);
        if (lx < 1e-15) FAILN(c, n, "xyaxes", "zero x axis");
        for (int i = 0; i < 3; i++) x[i] /= lx;
        double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        for (int i = 0; i < 3; i++) y[i] -= d * x[i];
        double ly = cs_mjcf_norm3(y);
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
        cs_mjcf_nums(c, n, "zaxis", v, 3, 3);
        if (cs_mjcf_norm3(v) < 1e-15) FAILN(c, n, "zaxis", "zero axis");
        cs_quat_z2vec(quat, v);
    }
    return 1;
}

double *cs_mjcf_nums_alloc(cs_mjcf *c, xmlNode *n, const char *name, int *count)
{
    char *s = cs_mjcf_attr(c, n, name);
    if (!s) { *count = 0; return NULL; }
    int cap = 1;
    for (char *p = s; *p; p++) cap += isspace((unsigned char)*p) ? 1 : 0;
    double *v = cs_mjcf_alloc(c, (size_t)cap * sizeof *v);
    *count = cs_mjcf_nums(c, n, name, v, 0, cap);
    return v;
}

/* ---- elements by name (-1: none) ---------------------------------------------------------- */
#define FIND_BY_NAME(arr, n)                                                                   \
    for (int i = 0; i < c->n; i++)                                                             \
        if (c->arr[i].name && strcmp(c->arr[i].name, name) == 0) return i;                    \
    return -1
int cs_mjcf_find_body(const cs_mjcf *c, const char *name) { FIND_BY_NAME(body, nbody); }
int cs_mjcf_find_joint(const cs_mjcf *c, const char *name) { FIND_BY_NAME(jnt, njnt); }
int cs_mjcf_find_geom(const cs_mjcf *c, const char *name) { FIND_BY_NAME(geom, ngeom); }
int cs_mjcf_find_site(const cs_mjcf *c, const char *name) { FIND_BY_NAME(site, nsite); }
