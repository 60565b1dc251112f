/* Mesh file readers. Debian's general mesh libraries (assimp) are large for two formats
 * whose subset here is a page of code each; these readers are tested in tests/test_meshfile.c. */
#include "alloc.h"
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meshfile.h"

void cs_meshfile_free(cs_meshfile *m)
{
    if (!m)
        return;
    cs_free(m->vert);
    cs_free(m->face);
    cs_free(m->texcoord);
    cs_free(m->facetexcoord);
    memset(m, 0, sizeof *m);
}

static int fail(char *err, size_t errlen, int *line, int at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t errlen, int *line, int at, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    if (line)
        *line = at;
    return -1;
}

/* growable arrays */
typedef struct {
    double *v;
    int n, cap;
} dvec;
typedef struct {
    int *v;
    int n, cap;
} ivec;

/* append one element to a growing array (v, n, cap) of elem-sized entries */
static int push(void **v, int *n, int *cap, size_t elem, const void *x)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 256;
        void *p = cs_realloc(*v, (size_t)c * elem);
        if (!p)
            return 0;
        *v = p;
        *cap = c;
    }
    memcpy((char *)*v + (size_t)(*n)++ * elem, x, elem);
    return 1;
}

static int dpush(dvec *a, double x) { return push((void **)&a->v, &a->n, &a->cap, sizeof x, &x); }

static int ipush(ivec *a, int x) { return push((void **)&a->v, &a->n, &a->cap, sizeof x, &x); }

/* ---- STL: merge repeated vertices ------------------------------------------------ */
/* a corner's hash: its coordinates' bits, -0 as +0 (equal values merge, as MuJoCo's
 * vertex map compares them) */
static uint64_t corner_hash(const double *x)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < 3; k++) {
        double v = x[k] + 0.0;
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        h = (h ^ b) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    return h;
}

/* tri: 9 coordinates per triangle -> unique vertices (first-appearance order), faces: each
 * corner takes the vertex of the first corner with equal coordinates (a hash table of the
 * vertices made so far) */
static int stl_finish(const double *tri, int ntri, cs_meshfile *out, char *err, size_t errlen)
{
    int n = 3 * ntri;
    size_t cap = 16;
    while (cap < 2 * (size_t)n) cap *= 2;
    int *slot = cs_malloc(cap * sizeof *slot);
    out->vert = cs_malloc((size_t)n * 3 * sizeof *out->vert);
    out->face = cs_malloc((size_t)n * sizeof *out->face);
    if (!slot || !out->vert || !out->face) {
        cs_free(slot);
        cs_meshfile_free(out);
        return fail(err, errlen, NULL, 0, "out of memory");
    }
    for (size_t i = 0; i < cap; i++) slot[i] = -1;
    int nv = 0;
    for (int i = 0; i < n; i++) {
        const double *x = tri + 3 * i;
        size_t h = (size_t)corner_hash(x) & (cap - 1);
        for (;;) {
            int v = slot[h];
            if (v < 0) {
                slot[h] = nv;
                memcpy(out->vert + 3 * nv, x, 3 * sizeof(double));
                out->face[i] = nv++;
                break;
            }
            const double *y = out->vert + 3 * v;
            if (x[0] == y[0] && x[1] == y[1] && x[2] == y[2]) {
                out->face[i] = v;
                break;
            }
            h = (h + 1) & (cap - 1);
        }
    }
    out->nvert = nv;
    out->nface = ntri;
    cs_free(slot);
    return 0;
}

/* an ASCII STL starts with "solid"; so do some binary ones, whose size then fits their
 * triangle count */
static int is_ascii_stl(const char *b, size_t len)
{
    if (len >= 84) {
        uint32_t nt;
        memcpy(&nt, b + 80, 4);
        if (84 + 50 * (size_t)nt == len)
            return 0;
    }
    size_t i = 0;
    while (i < len && isspace((unsigned char)b[i]))
        i++;
    return len - i >= 5 && strncmp(b + i, "solid", 5) == 0;
}

static int stl_binary(const char *b, size_t len, cs_meshfile *out, char *err, size_t errlen)
{
    if (len < 84)
        return fail(err, errlen, NULL, 0,
                    "truncated binary STL: %zu bytes, the header alone needs 84", len);
    uint32_t nt;
    memcpy(&nt, b + 80, 4); /* little-endian, as the format and the machines here are */
    size_t need = 84 + 50 * (size_t)nt;
    if (len < need)
        return fail(err, errlen, NULL, 0,
                    "truncated binary STL: %u triangles need %zu bytes, the file has %zu", nt,
                    need, len);
    if (len > need)
        return fail(err, errlen, NULL, 0,
                    "malformed binary STL: %u triangles need %zu bytes, the file has %zu", nt,
                    need, len);
    if (nt == 0)
        return fail(err, errlen, NULL, 0, "the STL file has no triangles");
    if (nt > 50000000)
        return fail(err, errlen, NULL, 0, "the STL file has too many triangles (%u)", nt);
    double *tri = cs_malloc((size_t)nt * 9 * sizeof *tri);
    if (!tri)
        return fail(err, errlen, NULL, 0, "out of memory");
    for (uint32_t t = 0; t < nt; t++) {
        const char *p = b + 84 + 50 * (size_t)t + 12;
        for (int k = 0; k < 9; k++) {
            float f;
            memcpy(&f, p + 4 * k, 4);
            if (!isfinite(f)) {
                cs_free(tri);
                return fail(err, errlen, NULL, 0, "triangle %u has a coordinate that is not finite",
                            t + 1);
            }
            tri[9 * (size_t)t + k] = f;
        }
    }
    int rc = stl_finish(tri, (int)nt, out, err, errlen);
    cs_free(tri);
    return rc;
}

/* next whitespace-separated token; tracks the line */
static int token(const char *b, size_t len, size_t *pos, int *line, const char **tok,
                 size_t *tl)
{
    size_t i = *pos;
    while (i < len && isspace((unsigned char)b[i])) {
        if (b[i] == '\n')
            (*line)++;
        i++;
    }
    if (i >= len)
        return 0;
    size_t s = i;
    while (i < len && !isspace((unsigned char)b[i]))
        i++;
    *tok = b + s;
    *tl = i - s;
    *pos = i;
    return 1;
}

static int tok_is(const char *t, size_t l, const char *w)
{
    return l == strlen(w) && strncmp(t, w, l) == 0;
}

static int tok_num(const char *t, size_t l, double *v)
{
    char buf[64];
    if (l == 0 || l >= sizeof buf)
        return 0;
    memcpy(buf, t, l);
    buf[l] = 0;
    char *end;
    *v = strtod(buf, &end);
    return *end == 0 && isfinite(*v);
}

static int stl_ascii(const char *b, size_t len, cs_meshfile *out, char *err, size_t errlen,
                     int *line)
{
    size_t pos = 0;
    int ln = 1, corners = 0, ended = 0, infacet = 0;
    const char *t;
    size_t tl;
    dvec tri = {0};
    token(b, len, &pos, &ln, &t, &tl); /* "solid" */
    /* the rest of the first line is the solid's name */
    while (pos < len && b[pos] != '\n')
        pos++;
    while (token(b, len, &pos, &ln, &t, &tl)) {
        if (tok_is(t, tl, "endsolid")) {
            ended = 1;
            break;
        }
        if (tok_is(t, tl, "facet")) {
            if (infacet) {
                cs_free(tri.v);
                return fail(err, errlen, line, ln, "'facet' inside a facet (missing 'endfacet')");
            }
            infacet = 1;
            corners = 0;
        } else if (tok_is(t, tl, "endfacet")) {
            if (!infacet || corners != 3) {
                cs_free(tri.v);
                return fail(err, errlen, line, ln, "a facet needs exactly 3 vertices (got %d)",
                            corners);
            }
            infacet = 0;
        } else if (tok_is(t, tl, "vertex")) {
            if (!infacet) {
                cs_free(tri.v);
                return fail(err, errlen, line, ln, "'vertex' outside a facet");
            }
            for (int k = 0; k < 3; k++) {
                double v;
                int l0 = ln;
                if (!token(b, len, &pos, &ln, &t, &tl) || ln != l0 || !tok_num(t, tl, &v)) {
                    cs_free(tri.v);
                    return fail(err, errlen, line, l0, "'vertex' needs 3 finite numbers");
                }
                if (!dpush(&tri, v)) {
                    cs_free(tri.v);
                    return fail(err, errlen, NULL, 0, "out of memory");
                }
            }
            corners++;
        } else if (tok_is(t, tl, "normal") || tok_is(t, tl, "outer") || tok_is(t, tl, "loop") ||
                   tok_is(t, tl, "endloop")) {
            /* structure words; the facet normal's numbers follow 'normal' */
        } else {
            double v;
            if (!tok_num(t, tl, &v)) {
                cs_free(tri.v);
                return fail(err, errlen, line, ln, "unexpected '%.*s' in ASCII STL", (int)(tl > 40 ? 40 : tl), t);
            }
        }
    }
    if (!ended || infacet) {
        cs_free(tri.v);
        return fail(err, errlen, line, ln, "truncated ASCII STL: the file ends %s",
                    infacet ? "inside a facet" : "without 'endsolid'");
    }
    if (tri.n == 0) {
        cs_free(tri.v);
        return fail(err, errlen, line, ln, "the STL file has no triangles");
    }
    int rc = stl_finish(tri.v, tri.n / 9, out, err, errlen);
    cs_free(tri.v);
    return rc;
}

/* ---- OBJ ------------------------------------------------------------------------- */
/* the triangle of corners a, b, c: its vertices into f, their texture coordinate indices
 * into ft */
static int push_tri(ivec *f, ivec *ft, const int *idx, const int *tidx, int a, int b, int c)
{
    return ipush(f, idx[a]) && ipush(f, idx[b]) && ipush(f, idx[c]) && ipush(ft, tidx[a]) &&
           ipush(ft, tidx[b]) && ipush(ft, tidx[c]);
}

/* Whether (tx, ty) is inside the triangle (x, y): the crossing-number test MuJoCo's OBJ
 * reader (tinyobjloader) uses for its ears. */
static int in_triangle(const float x[3], const float y[3], float tx, float ty)
{
    int c = 0;
    for (int i = 0, j = 2; i < 3; j = i++)
        if ((y[i] > ty) != (y[j] > ty) && tx < (x[j] - x[i]) * (ty - y[i]) / (y[j] - y[i]) + x[i])
            c = !c;
    return c;
}

/* A face of n vertices (idx) into triangles as MuJoCo 3.12's OBJ reader makes them (its
 * tinyobjloader, in single precision): projected onto the two axes the first corner's normal
 * leans least along, ears are cut from the current vertex on (the triangle of it and the next
 * two, if it turns the polygon's way and holds no other vertex), moving on past a vertex that
 * gives none; a polygon that runs out of ears keeps no more triangles. Convex faces come out
 * as a fan from their first vertex. Each corner keeps its texture coordinate index (tidx,
 * into ft). 0: out of memory. */
static int obj_triangulate(const double *vert, const int *idx, const int *tidx, int n, int ln,
                           ivec *f, ivec *ft, ivec *fline)
{
#define P(i, k) ((float)vert[3 * (size_t)(i) + (k)])
    int ax[2] = {1, 2};
    for (int k = 0; k < n; k++) {
        int a = idx[k], b = idx[(k + 1) % n], c = idx[(k + 2) % n];
        float e0[3], e1[3];
        for (int j = 0; j < 3; j++) {
            e0[j] = P(b, j) - P(a, j);
            e1[j] = P(c, j) - P(b, j);
        }
        float cx = fabsf(e0[1] * e1[2] - e0[2] * e1[1]);
        float cy = fabsf(e0[2] * e1[0] - e0[0] * e1[2]);
        float cz = fabsf(e0[0] * e1[1] - e0[1] * e1[0]);
        if (cx > FLT_EPSILON || cy > FLT_EPSILON || cz > FLT_EPSILON) {
            if (!(cx > cy && cx > cz)) {
                ax[0] = 0;
                if (cz > cx && cz > cy) ax[1] = 1;
            }
            break;
        }
    }
    float area = 0;
    for (int k = 0; k < n; k++) {
        int a = idx[k], b = idx[(k + 1) % n];
        area += (P(a, ax[0]) * P(b, ax[1]) - P(a, ax[1]) * P(b, ax[0])) * 0.5f;
    }
    int *rem = cs_malloc((size_t)n * sizeof *rem); /* the corners left */
    if (!rem)
        return 0;
    for (int k = 0; k < n; k++)
        rem[k] = k;
    int nrem = n, guess = 0, left = n, prev = n, ok = 1;
    while (nrem > 3 && left > 0) {
        if (guess >= nrem)
            guess -= nrem;
        if (prev != nrem) {
            prev = nrem;
            left = nrem;
        } else {
            left--;
        }
        int t[3];
        float x[3], y[3];
        for (int k = 0; k < 3; k++) {
            t[k] = rem[(guess + k) % nrem];
            x[k] = P(idx[t[k]], ax[0]);
            y[k] = P(idx[t[k]], ax[1]);
        }
        float cross = (x[1] - x[0]) * (y[2] - y[1]) - (y[1] - y[0]) * (x[2] - x[1]);
        int ear = !(cross * area < 0);
        for (int o = 3; ear && o < nrem; o++) {
            int w = idx[rem[(guess + o) % nrem]];
            if (in_triangle(x, y, P(w, ax[0]), P(w, ax[1])))
                ear = 0;
        }
        if (!ear) {
            guess++;
            continue;
        }
        if (!push_tri(f, ft, idx, tidx, t[0], t[1], t[2]) || !ipush(fline, ln)) {
            ok = 0;
            break;
        }
        for (int k = (guess + 1) % nrem; k + 1 < nrem; k++)
            rem[k] = rem[k + 1];
        nrem--;
    }
    if (ok && nrem == 3)
        ok = push_tri(f, ft, idx, tidx, rem[0], rem[1], rem[2]) && ipush(fline, ln);
    cs_free(rem);
    return ok;
#undef P
}

/* one index of a face corner (OBJ counts from 1; negative counts back from the records
 * read so far); 0 when the text is not a number */
static int obj_index(char **p, long *out)
{
    char *end;
    long i = strtol(*p, &end, 10);
    if (end == *p)
        return 0;
    *p = end;
    *out = i;
    return 1;
}

/* resolves index i against n records read so far; -1 when it names none of them */
static long obj_resolve(long i, int n)
{
    if (i < 0)
        i = n + 1 + i;
    return i >= 1 ? i - 1 : -1;
}

static int obj_parse(const char *b, size_t len, cs_meshfile *out, char *err, size_t errlen,
                     int *line)
{
    dvec v = {0}, vt = {0};
    ivec f = {0}, ft = {0}, fline = {0}, poly = {0}, tpoly = {0}, pline = {0}, pcount = {0};
    int ln = 0, rc = -1;
    int with_vt = 0, without_vt = 0; /* lines of the first corners with and without one */
    size_t pos = 0, bufcap = 0;
    char *buf = NULL;
    while (pos < len) {
        ln++;
        size_t e = pos;
        while (e < len && b[e] != '\n')
            e++;
        size_t l = e - pos;
        if (l + 1 > bufcap) {
            char *nb = cs_realloc(buf, l + 1);
            if (!nb)
                goto oom;
            buf = nb;
            bufcap = l + 1;
        }
        memcpy(buf, b + pos, l);
        buf[l] = 0;
        pos = e + 1;
        char *h = strchr(buf, '#');
        if (h)
            *h = 0;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (s[0] == 'v' && isspace((unsigned char)s[1])) {
            double x[3];
            char *p = s + 1;
            for (int k = 0; k < 3; k++) {
                char *end;
                x[k] = strtod(p, &end);
                if (end == p || !isfinite(x[k]) || (*end && !isspace((unsigned char)*end))) {
                    fail(err, errlen, line, ln, "'v' needs 3 finite numbers");
                    goto done;
                }
                p = end;
            }
            for (int k = 0; k < 3; k++)
                if (!dpush(&v, x[k]))
                    goto oom;
        } else if (s[0] == 'v' && s[1] == 't' && isspace((unsigned char)s[2])) {
            /* u [v [w]]: v defaults to 0, w does not map a 2D texture */
            double x[3] = {0, 0, 0};
            char *p = s + 2;
            int n = 0;
            for (;;) {
                while (isspace((unsigned char)*p))
                    p++;
                if (!*p)
                    break;
                char *end;
                double y = strtod(p, &end);
                if (end == p || !isfinite(y) || (*end && !isspace((unsigned char)*end)) ||
                    n == 3) {
                    fail(err, errlen, line, ln, "'vt' needs 1 to 3 finite numbers");
                    goto done;
                }
                x[n++] = y;
                p = end;
            }
            if (n == 0) {
                fail(err, errlen, line, ln, "'vt' needs 1 to 3 finite numbers");
                goto done;
            }
            /* OBJ's v grows upwards from the image's bottom row; MuJoCo flips it */
            if (!dpush(&vt, x[0]) || !dpush(&vt, 1 - x[1]))
                goto oom;
        } else if (s[0] == 'f' && isspace((unsigned char)s[1])) {
            int n = 0;
            char *p = s + 1;
            for (;;) {
                while (isspace((unsigned char)*p))
                    p++;
                if (!*p)
                    break;
                char *start = p;
                long i, t = 0, nn;
                if (!obj_index(&p, &i)) {
                    fail(err, errlen, line, ln, "'f' needs vertex indices (got '%.20s')", start);
                    goto done;
                }
                /* v, v/vt, v/vt/vn or v//vn */
                int has_t = 0;
                if (*p == '/') {
                    p++;
                    if (*p != '/') {
                        if (!obj_index(&p, &t)) {
                            fail(err, errlen, line, ln, "'f' has a malformed index '%.20s'",
                                 start);
                            goto done;
                        }
                        has_t = 1;
                    }
                    if (*p == '/') {
                        p++;
                        if (!obj_index(&p, &nn)) {
                            fail(err, errlen, line, ln, "'f' has a malformed index '%.20s'",
                                 start);
                            goto done;
                        }
                    }
                }
                if (*p && !isspace((unsigned char)*p)) {
                    fail(err, errlen, line, ln, "'f' has a malformed index '%.20s'", start);
                    goto done;
                }
                if (i == 0) {
                    fail(err, errlen, line, ln, "vertex index 0 (OBJ counts from 1)");
                    goto done;
                }
                long r = obj_resolve(i, v.n / 3);
                if (r < 0) {
                    fail(err, errlen, line, ln, "relative vertex index before the first vertex");
                    goto done;
                }
                if (r > INT_MAX - 1) {
                    fail(err, errlen, line, ln, "vertex index %ld too large", i);
                    goto done;
                }
                long rt = -1;
                if (has_t) {
                    if (t == 0) {
                        fail(err, errlen, line, ln,
                             "texture coordinate index 0 (OBJ counts from 1)");
                        goto done;
                    }
                    rt = obj_resolve(t, vt.n / 2);
                    if (rt < 0) {
                        fail(err, errlen, line, ln, "relative texture coordinate index before "
                             "the first 'vt'");
                        goto done;
                    }
                    if (!with_vt)
                        with_vt = ln;
                } else if (!without_vt) {
                    without_vt = ln;
                }
                if (!ipush(&poly, (int)r) ||
                    !ipush(&tpoly, (int)(rt > INT_MAX - 1 ? INT_MAX - 1 : rt)))
                    goto oom;
                n++;
            }
            if (n < 3) {
                fail(err, errlen, line, ln, "a face needs at least 3 vertices (got %d)", n);
                goto done;
            }
            if (!ipush(&pcount, n) || !ipush(&pline, ln))
                goto oom;
        }
        /* everything else (vn, o, g, s, usemtl, mtllib, l, p) does not shape the mesh */
    }
    int nv = v.n / 3, nt = vt.n / 2;
    for (int k = 0, a = 0; k < pcount.n; a += pcount.v[k++])
        for (int j = a; j < a + pcount.v[k]; j++)
            if (poly.v[j] >= nv) {
                fail(err, errlen, line, pline.v[k], "vertex index %d out of range (%d vertices)",
                     poly.v[j] + 1, nv);
                goto done;
            }
    if (nv == 0) {
        fail(err, errlen, line, ln, "the OBJ file has no vertices ('v' records)");
        goto done;
    }
    if (nt == 0) /* no 'vt' records: the corners' vt indices map nothing (MuJoCo reads
                    coordinates only from a file that has some) */
        with_vt = without_vt = 0;
    if (with_vt && without_vt) {
        fail(err, errlen, line, without_vt, "a face corner without a texture coordinate index "
             "(line %d gives corners one)", with_vt);
        goto done;
    }
    for (int k = 0, a = 0; with_vt && k < pcount.n; a += pcount.v[k++])
        for (int j = a; j < a + pcount.v[k]; j++)
            if (tpoly.v[j] >= nt) {
                fail(err, errlen, line, pline.v[k], "texture coordinate index %d out of range "
                     "(%d 'vt' records)", tpoly.v[j] + 1, nt);
                goto done;
            }
    for (int k = 0, a = 0; k < pcount.n; a += pcount.v[k++])
        if (!obj_triangulate(v.v, poly.v + a, tpoly.v + a, pcount.v[k], pline.v[k], &f, &ft,
                             &fline))
            goto oom;
    out->vert = v.v;
    out->nvert = nv;
    out->face = f.v;
    out->nface = f.n / 3;
    v.v = NULL;
    f.v = NULL;
    /* coordinates only when the faces use them: 'vt' records no corner names map nothing */
    if (with_vt) {
        out->texcoord = vt.v;
        out->ntexcoord = nt;
        out->facetexcoord = ft.v;
        vt.v = NULL;
        ft.v = NULL;
    }
    rc = 0;
    goto done;
oom:
    fail(err, errlen, NULL, 0, "out of memory");
done:
    cs_free(v.v);
    cs_free(vt.v);
    cs_free(f.v);
    cs_free(ft.v);
    cs_free(fline.v);
    cs_free(poly.v);
    cs_free(tpoly.v);
    cs_free(pline.v);
    cs_free(pcount.v);
    cs_free(buf);
    return rc;
}

/* MuJoCo's MSH: four ints (vertices, normals, texture coordinates, faces), then the
 * vertices (3 floats each), normals (3), texture coordinates (2, one per vertex), faces (3
 * ints), in the machine's byte order; the sizes must account for the whole file, as MuJoCo
 * checks.
 * Vertices are kept as given (MuJoCo merges repeated ones for STL only). */
static int msh_parse(const char *b, size_t len, cs_meshfile *out, char *err, size_t errlen)
{
    int n[4];
    if (len < sizeof n) return fail(err, errlen, NULL, 0, "missing header in the MSH file");
    memcpy(n, b, sizeof n);
    int nv = n[0], nn = n[1], nt = n[2], nf = n[3];
    if (nv < 4 || nf < 0 || nn < 0 || nt < 0 || (nn > 0 && nn != nv) || (nt > 0 && nt != nv))
        return fail(err, errlen, NULL, 0, "invalid sizes in the MSH file");
    if (nv > 100000000 || nf > 100000000)
        return fail(err, errlen, NULL, 0, "too large sizes in the MSH file");
    size_t want = sizeof n + (3 * (size_t)nv + 3 * (size_t)nn + 2 * (size_t)nt) * sizeof(float) +
                  3 * (size_t)nf * sizeof(int);
    if (len != want)
        return fail(err, errlen, NULL, 0, "unexpected file size in the MSH file (%zu bytes, "
                    "the header says %zu)", len, want);
    out->vert = cs_malloc(3 * (size_t)nv * sizeof *out->vert);
    out->face = cs_malloc((3 * (size_t)nf + 1) * sizeof *out->face);
    if (!out->vert || !out->face) {
        cs_meshfile_free(out);
        return fail(err, errlen, NULL, 0, "out of memory");
    }
    const char *p = b + sizeof n;
    for (size_t i = 0; i < 3 * (size_t)nv; i++, p += sizeof(float)) {
        float f;
        memcpy(&f, p, sizeof f);
        if (!isfinite(f)) {
            cs_meshfile_free(out);
            return fail(err, errlen, NULL, 0, "vertex %zu is not finite", i / 3);
        }
        out->vert[i] = f;
    }
    p += 3 * (size_t)nn * sizeof(float);
    if (nt > 0) {
        /* as stored (MuJoCo flips an OBJ's v only); the faces index them as they index
         * the vertices */
        out->texcoord = cs_malloc(2 * (size_t)nt * sizeof *out->texcoord);
        out->facetexcoord = cs_malloc((3 * (size_t)nf + 1) * sizeof *out->facetexcoord);
        if (!out->texcoord || !out->facetexcoord) {
            cs_meshfile_free(out);
            return fail(err, errlen, NULL, 0, "out of memory");
        }
        for (size_t i = 0; i < 2 * (size_t)nt; i++, p += sizeof(float)) {
            float f;
            memcpy(&f, p, sizeof f);
            if (!isfinite(f)) {
                cs_meshfile_free(out);
                return fail(err, errlen, NULL, 0, "texture coordinate %zu is not finite", i / 2);
            }
            out->texcoord[i] = f;
        }
        out->ntexcoord = nt;
    }
    for (size_t i = 0; i < 3 * (size_t)nf; i++, p += sizeof(int)) {
        int k;
        memcpy(&k, p, sizeof k);
        if (k < 0 || k >= nv) {
            cs_meshfile_free(out);
            return fail(err, errlen, NULL, 0, "face %zu: vertex index %d out of range (%d "
                        "vertices)", i / 3, k, nv);
        }
        out->face[i] = k;
        if (out->facetexcoord)
            out->facetexcoord[i] = k;
    }
    out->nvert = nv;
    out->nface = nf;
    return 0;
}

static int format_of(const char *name)
{
    const char *dot = name ? strrchr(name, '.') : NULL;
    if (dot && strcasecmp(dot, ".stl") == 0)
        return CS_MESHFILE_STL;
    if (dot && strcasecmp(dot, ".obj") == 0)
        return CS_MESHFILE_OBJ;
    if (dot && strcasecmp(dot, ".msh") == 0)
        return CS_MESHFILE_MSH;
    return CS_MESHFILE_AUTO;
}

int cs_meshfile_parse(const char *buf, size_t len, const char *name, int format,
                      cs_meshfile *out, char *err, size_t errlen, int *line)
{
    memset(out, 0, sizeof *out);
    if (line)
        *line = 0;
    if (format == CS_MESHFILE_AUTO)
        format = format_of(name);
    if (format == CS_MESHFILE_STL)
        return is_ascii_stl(buf, len) ? stl_ascii(buf, len, out, err, errlen, line)
                                      : stl_binary(buf, len, out, err, errlen);
    if (format == CS_MESHFILE_OBJ)
        return obj_parse(buf, len, out, err, errlen, line);
    if (format == CS_MESHFILE_MSH)
        return msh_parse(buf, len, out, err, errlen);
    return fail(err, errlen, NULL, 0, "unknown mesh format (the file must end in .stl, .obj or .msh)");
}

int cs_meshfile_read(const char *path, int format, cs_meshfile *out, char *err, size_t errlen,
                     int *line)
{
    memset(out, 0, sizeof *out);
    if (line)
        *line = 0;
    if (format == CS_MESHFILE_AUTO && format_of(path) == CS_MESHFILE_AUTO)
        return fail(err, errlen, NULL, 0, "unknown mesh format (the file must end in .stl, .obj or .msh)");
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fail(err, errlen, NULL, 0, "cannot open the mesh file");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            char *p = cs_realloc(buf, cap + 1);
            if (!p) {
                cs_free(buf);
                fclose(fp);
                return fail(err, errlen, NULL, 0, "out of memory");
            }
            buf = p;
        }
        size_t r = fread(buf + len, 1, cap - len, fp);
        len += r;
        if (r == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        cs_free(buf);
        return fail(err, errlen, NULL, 0, "cannot read the mesh file");
    }
    buf[len] = 0;
    int rc = cs_meshfile_parse(buf, len, path, format, out, err, errlen, line);
    cs_free(buf);
    return rc;
}
