/* <mesh builtin params>: MuJoCo 3.12's generated meshes (mjs_makeMesh), the same vertices in
 * the same order, rounded to single precision where MuJoCo stores them (its user vertices are
 * floats), so that the mesh's volume, inertia, hull and contacts are MuJoCo's. The vertices
 * and faces then go the way of a mesh given inline: scale, refpos and refquat, the hull, the
 * mass properties (mjcf_mesh.c). Cone and wedge give vertices only (the hull is the mesh); a
 * plate is refused (not generated). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "mjcf_ir.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { B_SPHERE, B_HEMISPHERE, B_CONE, B_SUPERTORUS, B_SUPERSPHERE, B_WEDGE, B_PLATE };
static const char *const BUILTIN[] = {"sphere", "hemisphere", "cone", "supertorus",
                                      "supersphere", "wedge", "plate", NULL};
static const int NPARAMS[] = {1, 1, 2, 4, 3, 5, 2};

/* the most vertices a generated mesh may have here (MuJoCo sets no bound on some) */
#define MAX_VERT 1000000

typedef struct {
    cs_mjcf *c;
    int line;
    double *v;
    int nv, capv;
    int *f;
    int nf, capf;
} gen_t;

#define FAIL(g, attr, ...) cs_mjcf_fail((g)->c, (g)->line, "mesh", (attr), __VA_ARGS__)

/* x rounded to single precision through memory: GCC 12's -O3 vectorizer was seen to drop a
 * (float) conversion between two double operations (the icosahedron's coordinates) */
static double to_float(double x)
{
    volatile float f = (float)x;
    return f;
}

/* a vertex as MuJoCo keeps it: a float */
static void vert(gen_t *g, double x, double y, double z)
{
    cs_mjcf_grow(g->c, (void **)&g->v, &g->capv, 3 * g->nv + 2, sizeof *g->v);
    g->v[3 * g->nv] = to_float(x);
    g->v[3 * g->nv + 1] = to_float(y);
    g->v[3 * g->nv + 2] = to_float(z);
    g->nv++;
}

static void face(gen_t *g, int a, int b, int c)
{
    cs_mjcf_grow(g->c, (void **)&g->f, &g->capf, 3 * g->nf + 2, sizeof *g->f);
    g->f[3 * g->nf] = a;
    g->f[3 * g->nf + 1] = b;
    g->f[3 * g->nf + 2] = c;
    g->nf++;
}

/* ---- sphere: an icosahedron subdivided, in single precision as MuJoCo computes it ---- */
typedef struct {
    int a, b, mid;
} edge_t;

static int midpoint(gen_t *g, edge_t *tab, int cap, int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    unsigned h = ((unsigned)a * 73856093u) ^ ((unsigned)b * 19349663u);
    for (int k = (int)(h % (unsigned)cap);; k = (k + 1) % cap) {
        if (tab[k].mid < 0) {
            const double *p = g->v + 3 * a, *q = g->v + 3 * b;
            float x = ((float)p[0] + (float)q[0]) / 2.0f, y = ((float)p[1] + (float)q[1]) / 2.0f,
                  z = ((float)p[2] + (float)q[2]) / 2.0f;
            float n = sqrtf(x * x + y * y + z * z);
            x /= n;
            y /= n;
            z /= n;
            tab[k] = (edge_t){a, b, g->nv};
            vert(g, x, y, z);
            return g->nv - 1;
        }
        if (tab[k].a == a && tab[k].b == b) return tab[k].mid;
    }
}

static void make_sphere(gen_t *g, int subdiv)
{
    const float phi = (float)((1.0 + sqrt(5.0)) / 2.0);
    const float ico[12][3] = {{-1, phi, 0}, {1, phi, 0}, {-1, -phi, 0}, {1, -phi, 0},
                              {0, -1, phi}, {0, 1, phi}, {0, -1, -phi}, {0, 1, -phi},
                              {phi, 0, -1}, {phi, 0, 1}, {-phi, 0, -1}, {-phi, 0, 1}};
    const double norm = sqrt(1.0 + (double)(float)(phi * phi));
    for (int i = 0; i < 12; i++)
        vert(g, ico[i][0] / norm, ico[i][1] / norm, ico[i][2] / norm);
    static const int F[60] = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11,
                              1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
                              3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9,
                              4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (int i = 0; i < 20; i++) face(g, F[3 * i], F[3 * i + 1], F[3 * i + 2]);
    for (int s = 0; s < subdiv; s++) {
        int nf = g->nf, cap = 6 * nf + 1;
        int *old = cs_mjcf_alloc(g->c, (size_t)nf * 3 * sizeof *old);
        memcpy(old, g->f, (size_t)nf * 3 * sizeof *old);
        edge_t *tab = cs_mjcf_alloc(g->c, (size_t)cap * sizeof *tab);
        for (int k = 0; k < cap; k++) tab[k].mid = -1;
        g->nf = 0;
        for (int j = 0; j < nf; j++) {
            int v1 = old[3 * j], v2 = old[3 * j + 1], v3 = old[3 * j + 2];
            int m12 = midpoint(g, tab, cap, v1, v2);
            int m23 = midpoint(g, tab, cap, v2, v3);
            int m31 = midpoint(g, tab, cap, v3, v1);
            face(g, v1, m12, m31);
            face(g, v2, m23, m12);
            face(g, v3, m31, m23);
            face(g, m12, m23, m31);
        }
    }
}

/* ---- hemisphere: rows of points from the pole to the equator on four arcs, a cap ------ */
static void make_hemisphere(gen_t *g, int res)
{
    static const double pole[3] = {0, 0, 1};
    static const double eq[4][3] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
    vert(g, 0, 0, 1);
    for (int row = 0; row <= res; row++)
        for (int side = 0; side < 4; side++) {
            double factor = (double)(row + 1) / (res + 1), st[3], en[3], d[3];
            for (int i = 0; i < 3; i++) {
                st[i] = pole[i] + factor * (eq[side][i] - pole[i]);
                en[i] = pole[i] + factor * (eq[(side + 1) % 4][i] - pole[i]);
                d[i] = (en[i] - st[i]) / (row + 1);
            }
            for (int i = 0; i < row + 1; i++) {
                double p[3];
                for (int j = 0; j < 3; j++) p[j] = st[j] + i * d[j];
                double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
                vert(g, p[0] / n, p[1] / n, p[2] / n);
            }
        }
    vert(g, 0, 0, 0); /* the cap's centre */
    int nvert = g->nv;
    face(g, 0, 1, 2);
    face(g, 0, 2, 3);
    face(g, 0, 3, 4);
    face(g, 0, 4, 1);
    for (int row = 0; row < res; row++) {
        int sc = 2 * row * (row + 1) + 1, cc = 4 * (row + 1), sn = sc + cc, cn = 4 * (row + 2);
        for (int side = 0; side < 4; side++)
            for (int i = 0; i < row + 2; i++) {
                int vc = i + (row + 1) * side, vn = i + (row + 2) * side;
                face(g, sc + vc % cc, sn + vn % cn, sn + (vn + 1) % cn);
                if (i < row + 1) face(g, sc + vc % cc, sn + (vn + 1) % cn, sc + (vc + 1) % cc);
            }
    }
    int start = 2 * res * (res + 1) + 1, count = 4 * (res + 1);
    for (int i = 0; i < count; i++) face(g, start + i, nvert - 1, start + (i + 1) % count);
}

/* ---- superquadrics ---------------------------------------------------------------------- */
static double aux_c(double w, double m) { return copysign(pow(fabs(cos(w)), m), cos(w)); }
static double aux_s(double w, double m) { return copysign(pow(fabs(sin(w)), m), sin(w)); }

static void make_supersphere(gen_t *g, int res, double e, double n)
{
    vert(g, 0, 0, -1);
    for (int i = 1; i < res; i++) {
        double v = -M_PI / 2 + i * M_PI / res;
        for (int j = 0; j < res; j++) {
            double u = -M_PI + j * 2 * M_PI / res;
            vert(g, aux_c(v, n) * aux_c(u, e), aux_c(v, n) * aux_s(u, e), aux_s(v, n));
        }
    }
    vert(g, 0, 0, 1);
    for (int j = 0; j < res; j++) face(g, 0, 1 + (j + 1) % res, 1 + j);
    for (int i = 0; i < res - 2; i++)
        for (int j = 0; j < res; j++) {
            int v1 = 1 + i * res + j, v2 = 1 + i * res + (j + 1) % res;
            int v4 = 1 + (i + 1) * res + j, v3 = 1 + (i + 1) * res + (j + 1) % res;
            face(g, v1, v2, v4);
            face(g, v2, v3, v4);
        }
    int north = g->nv - 1, last = 1 + (res - 2) * res;
    for (int j = 0; j < res; j++) face(g, last + j, last + (j + 1) % res, north);
}

static void make_supertorus(gen_t *g, int res, double radius, double s, double t)
{
    for (int i = 0; i < res; i++)
        for (int j = 0; j < res; j++) {
            double u = 2 * M_PI * i / res, v = 2 * M_PI * j / res;
            vert(g, (1 + radius * aux_c(v, s)) * aux_c(u, t),
                 (1 + radius * aux_c(v, s)) * aux_s(u, t), radius * aux_s(v, s));
        }
    for (int i = 0; i < res; i++)
        for (int j = 0; j < res; j++) {
            int in = (i + 1) % res, jn = (j + 1) % res;
            int v1 = i * res + j, v2 = in * res + j, v3 = in * res + jn, v4 = i * res + jn;
            face(g, v1, v2, v4);
            face(g, v2, v3, v4);
        }
}

/* ---- wedge, plate, cone -------------------------------------------------------------- */
static void linspace(double lo, double hi, int n, double *out)
{
    double inc = n > 1 ? (hi - lo) / (n - 1) : 0;
    for (int i = 0; i < n; i++) {
        out[i] = lo;
        lo += inc;
    }
}

static double fovea(double x, double gamma)
{
    if (!gamma) return x;
    double gm = fmax(0, fmin(1, gamma));
    return gm * pow(x, 5) + (1 - gm) * x;
}

static void make_wedge(gen_t *g, const int res[2], const double fov[2], double gamma)
{
    double *xe = cs_mjcf_alloc(g->c, (size_t)(res[0] + 1) * sizeof *xe);
    double *ye = cs_mjcf_alloc(g->c, (size_t)(res[1] + 1) * sizeof *ye);
    linspace(-1, 1, res[0] + 1, xe);
    linspace(-1, 1, res[1] + 1, ye);
    double sx = fov[0] * M_PI / 180, sy = fov[1] * M_PI / 180;
    for (int i = 0; i <= res[0]; i++) xe[i] = fovea(xe[i], gamma) * sx;
    for (int i = 0; i <= res[1]; i++) ye[i] = fovea(ye[i], gamma) * sy;
    for (int i = 0; i < res[0]; i++)
        for (int j = 0; j < res[1]; j++) {
            double a = 0.5 * (xe[i + 1] + xe[i]), e = 0.5 * (ye[j + 1] + ye[j]);
            vert(g, cos(e) * sin(a), sin(e), -cos(e) * cos(a));
        }
}

static void make_cone(gen_t *g, int nedge, double radius)
{
    for (int i = 0; i < nedge; i++)
        vert(g, cos(2 * i * M_PI / nedge), sin(2 * i * M_PI / nedge), -1);
    if (radius > 0)
        for (int i = nedge; i < 2 * nedge; i++)
            vert(g, radius * cos(2 * i * M_PI / nedge), radius * sin(2 * i * M_PI / nedge), 1);
    else
        vert(g, 0, 0, 1);
}

/* ---- the attribute ------------------------------------------------------------------- */
void cs_mjcf_mesh_builtin(cs_mjcf *c, struct _xmlNode *n, cs_meshir *M)
{
    gen_t g = {.c = c, .line = cs_mjcf_line(n)};
    int b = cs_mjcf_keyword(c, n, "builtin", BUILTIN);
    if (b < 0) return;
    double p[8];
    int np = cs_mjcf_nums(c, n, "params", p, 0, 8);
    if (!cs_mjcf_attr(c, n, "params")) FAIL(&g, "params", "required attribute missing");
    if (np != NPARAMS[b])
        FAIL(&g, "params", "the %s mesh takes %d parameter%s (got %d)", BUILTIN[b], NPARAMS[b],
             NPARAMS[b] > 1 ? "s" : "", np);
    if (M->file || M->vertex)
        FAIL(&g, "builtin", "repeated vertex specification (a builtin mesh has no %s)",
             M->file ? "file" : "vertex data");
    if (M->face) FAIL(&g, "face", "repeated face specification (a builtin mesh makes its own)");
    /* MuJoCo's integer parameters are truncated toward zero; bounds first, so that the cast
     * is defined */
    for (int i = 0; i < np; i++)
        if (!isfinite(p[i])) FAIL(&g, "params", "parameter %d is not finite", i + 1);
    int k0 = fabs(p[0]) < 1e9 ? (int)p[0] : p[0] > 0 ? 1000000000 : -1000000000;
    switch (b) {
    case B_SPHERE:
        if (k0 < 0 || k0 > 4) FAIL(&g, "params", "sphere subdivision must be 0 to 4 (got %d)", k0);
        make_sphere(&g, k0);
        break;
    case B_HEMISPHERE:
        if (k0 < 0 || k0 > 10)
            FAIL(&g, "params", "hemisphere resolution must be 0 to 10 (got %d)", k0);
        make_hemisphere(&g, k0);
        break;
    case B_SUPERSPHERE:
        if (k0 < 3) FAIL(&g, "params", "supersphere resolution must be greater than 2 (got %d)", k0);
        if (p[1] < 0) FAIL(&g, "params", "supersphere 'e' cannot be negative");
        if (p[2] < 0) FAIL(&g, "params", "supersphere 'n' cannot be negative");
        if (k0 > 1000) FAIL(&g, "params", "a supersphere resolution above 1000 is not supported");
        make_supersphere(&g, k0, p[1], p[2]);
        break;
    case B_SUPERTORUS:
        if (k0 < 3) FAIL(&g, "params", "supertorus resolution must be greater than 2 (got %d)", k0);
        if (!(p[1] > 0 && p[1] <= 1)) FAIL(&g, "params", "supertorus radius must be in (0, 1]");
        if (!(p[2] > 0)) FAIL(&g, "params", "supertorus 's' must be greater than 0");
        if (!(p[3] > 0)) FAIL(&g, "params", "supertorus 't' must be greater than 0");
        if (k0 > 1000) FAIL(&g, "params", "a supertorus resolution above 1000 is not supported");
        make_supertorus(&g, k0, p[1], p[2], p[3]);
        break;
    case B_WEDGE:
    case B_PLATE: {
        int k1 = fabs(p[1]) < 1e9 ? (int)p[1] : p[1] > 0 ? 1000000000 : -1000000000;
        int res[2] = {k0, k1};
        if (b == B_WEDGE) {
            if (!(p[2] > 0 && p[2] <= 180))
                FAIL(&g, "params", "the wedge's horizontal field of view must be in (0, 180] "
                                   "degrees");
            if (!(p[3] > 0 && p[3] <= 90))
                FAIL(&g, "params", "the wedge's vertical field of view must be in (0, 90] "
                                   "degrees");
        }
        if (res[0] <= 0 || res[1] <= 0)
            FAIL(&g, "params", "horizontal and vertical resolutions must be positive");
        if (b == B_WEDGE && !(p[4] >= 0 && p[4] <= 1))
            FAIL(&g, "params", "the wedge's gamma must be in [0, 1]");
        if ((double)res[0] * res[1] > MAX_VERT)
            FAIL(&g, "params", "more than %d vertices are not supported", MAX_VERT);
        if (b == B_PLATE)
            FAIL(&g, "builtin", "plate meshes are not supported: a plate is flat, and conesim "
                                "does not generate one (a flat mesh file or vertex list on "
                                "geoms that do not collide loads)");
        make_wedge(&g, res, p + 2, p[4]);
        break;
    }
    case B_CONE:
        /* MuJoCo checks nothing here; fewer than 3 edges have no volume (or no memory) */
        if (k0 < 3) FAIL(&g, "params", "a cone needs at least 3 edges (got %d)", k0);
        if (k0 > MAX_VERT / 2) FAIL(&g, "params", "more than %d vertices are not supported", MAX_VERT);
        make_cone(&g, k0, p[1]);
        break;
    }
    M->vertex = g.v;
    M->nvertex = g.nv;
    M->face = g.nf ? g.f : NULL;
    M->nface = g.nf;
}
