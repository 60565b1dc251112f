/* <mesh> assets compiled as MuJoCo's compiler does (user_mesh.cc, XMLreference "mesh"):
 * vertices from the file or the vertex attribute, then refpos subtracted, rotated by the
 * conjugate of refquat, scaled; the convex hull (qhull); the centre of mass and inertia of
 * the union of pyramids from the face centroid (legacy: absolute volumes over the mesh's
 * faces, convex: the hull's faces, exact: signed volumes, shell: the surface); finally the
 * vertices move to the centre of mass and principal axes, and that offset (pos, quat) is
 * composed with every geom that uses the mesh. */
#include "alloc.h"
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collision/hull.h"
#include "inertia.h"
#include "meshfile.h"
#include "mjcf_read.h"
#include "minval.h"


#define MFAIL(c, M, attr, ...) cs_mjcf_fail((c), (M)->line, "mesh", (attr), __VA_ARGS__)

int cs_mjcf_find_mesh(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->nmesh; i++)
        if (c->mesh[i].name && strcmp(c->mesh[i].name, name) == 0) return i;
    return -1;
}

/* MuJoCo's rule: an absolute file name as is; else an absolute meshdir (or assetdir) with
 * the name appended; else the model file's directory, then meshdir, then the name */
char *cs_mjcf_asset_path(cs_mjcf *c, const char *file)
{
    const char *dir = c->meshdir ? c->meshdir : c->assetdir;
    size_t n = strlen(file) + (dir ? strlen(dir) : 0) + strlen(c->file) + 4;
    char *p = cs_mjcf_alloc(c, n);
    if (file[0] == '/') {
        snprintf(p, n, "%s", file);
        return p;
    }
    if (dir && dir[0] == '/') {
        size_t l = strlen(dir);
        snprintf(p, n, "%s%s%s", dir, l && dir[l - 1] == '/' ? "" : "/", file);
        return p;
    }
    const char *slash = strrchr(c->file, '/');
    int base = slash ? (int)(slash - c->file + 1) : 0;
    size_t l = dir ? strlen(dir) : 0;
    snprintf(p, n, "%.*s%s%s%s", base, c->file, dir ? dir : "",
             l && dir[l - 1] != '/' ? "/" : "", file);
    return p;
}

static double tri_area(const double *a, const double *b, const double *c, double normal[3],
                       double center[3])
{
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = b[i] - a[i];
        e2[i] = c[i] - a[i];
        center[i] = (a[i] + b[i] + c[i]) / 3;
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l < CS_MINVAL) { /* a degenerate face weighs nothing, as in MuJoCo's compiler */
        memcpy(normal, n, sizeof n);
        return 0;
    }
    for (int i = 0; i < 3; i++) normal[i] = n[i] / l;
    return 0.5 * l;
}

/* the mesh's vertices and faces, as read */
static void load_data(cs_mjcf *c, cs_meshir *M)
{
    if (!M->file) {
        M->nvert = M->nvertex;
        M->vert = cs_mjcf_alloc(c, (size_t)M->nvert * 3 * sizeof *M->vert);
        memcpy(M->vert, M->vertex, (size_t)M->nvert * 3 * sizeof *M->vert);
        M->ntri = M->nface;
        M->tri = M->face;
        if (M->texcoord_attr) {
            if (M->ntexcoord_attr != M->nvert)
                MFAIL(c, M, "texcoord", "expects 2 numbers per vertex (%d vertices), got %d "
                      "numbers", M->nvert, 2 * M->ntexcoord_attr);
            M->texcoord = M->texcoord_attr;
            M->ntexcoord = M->ntexcoord_attr;
            /* a vertex's coordinate is the one of the same index */
            M->facetex = cs_mjcf_alloc(c, ((size_t)M->ntri * 3 + 1) * sizeof *M->facetex);
            memcpy(M->facetex, M->tri, (size_t)M->ntri * 3 * sizeof *M->tri);
        }
        return;
    }
    const char *path = cs_mjcf_asset_path(c, M->file);
    cs_meshfile f;
    char err[300];
    int line = 0;
    if (cs_meshfile_read(path, M->format, &f, err, sizeof err, &line) != 0) {
        if (line > 0) MFAIL(c, M, "file", "%s:%d: %s", path, line, err);
        MFAIL(c, M, "file", "%s: %s", path, err);
    }
    /* into loader memory before anything else can fail */
    M->nvert = f.nvert;
    M->ntri = f.nface;
    M->vert = NULL;
    M->tri = NULL;
    double *vv = NULL;
    int *tt = NULL;
    vv = cs_calloc((size_t)f.nvert * 3 + 1, sizeof *vv);
    tt = cs_calloc((size_t)f.nface * 3 + 1, sizeof *tt);
    if (vv && tt) {
        memcpy(vv, f.vert, (size_t)f.nvert * 3 * sizeof *vv);
        if (f.nface) memcpy(tt, f.face, (size_t)f.nface * 3 * sizeof *tt);
    }
    /* the coordinates likewise; the attribute's only where the file has none (MuJoCo
     * refuses both) */
    double *tc = NULL;
    int *ft = NULL, ntc = f.texcoord ? f.ntexcoord : 0;
    if (ntc && M->texcoord_attr) {
        cs_meshfile_free(&f);
        cs_free(vv);
        cs_free(tt);
        MFAIL(c, M, "texcoord", "%s has texture coordinates: give them in the file or "
              "here, not both", path);
    }
    if (ntc) {
        tc = cs_calloc(2 * (size_t)ntc, sizeof *tc);
        ft = cs_calloc((size_t)f.nface * 3 + 1, sizeof *ft);
        if (tc && ft) {
            memcpy(tc, f.texcoord, 2 * (size_t)ntc * sizeof *tc);
            if (f.nface) memcpy(ft, f.facetexcoord, (size_t)f.nface * 3 * sizeof *ft);
        }
    }
    cs_meshfile_free(&f);
    if (!vv || !tt || (ntc && (!tc || !ft))) {
        cs_free(vv);
        cs_free(tt);
        cs_free(tc);
        cs_free(ft);
        MFAIL(c, M, "file", "out of memory");
    }
    if (ntc) {
        M->texcoord = cs_mjcf_alloc(c, 2 * (size_t)ntc * sizeof *M->texcoord);
        M->facetex = cs_mjcf_alloc(c, ((size_t)M->ntri * 3 + 1) * sizeof *M->facetex);
        memcpy(M->texcoord, tc, 2 * (size_t)ntc * sizeof *tc);
        memcpy(M->facetex, ft, (size_t)M->ntri * 3 * sizeof *ft);
        M->ntexcoord = ntc;
        cs_free(tc);
        cs_free(ft);
    } else if (M->texcoord_attr) {
        if (M->ntexcoord_attr != M->nvert) {
            cs_free(vv);
            cs_free(tt);
            MFAIL(c, M, "texcoord", "expects 2 numbers per vertex (%d vertices in %s), got "
                  "%d numbers", M->nvert, path, 2 * M->ntexcoord_attr);
        }
        M->texcoord = M->texcoord_attr;
        M->ntexcoord = M->ntexcoord_attr;
        M->facetex = cs_mjcf_alloc(c, ((size_t)M->ntri * 3 + 1) * sizeof *M->facetex);
        if (M->ntri) memcpy(M->facetex, tt, (size_t)M->ntri * 3 * sizeof *tt);
    }
    /* hand the blocks to the context's list: cs_mjcf_alloc then copy keeps one rule */
    M->vert = cs_mjcf_alloc(c, ((size_t)M->nvert * 3 + 1) * sizeof *M->vert);
    M->tri = cs_mjcf_alloc(c, ((size_t)M->ntri * 3 + 1) * sizeof *M->tri);
    memcpy(M->vert, vv, (size_t)M->nvert * 3 * sizeof *vv);
    memcpy(M->tri, tt, (size_t)M->ntri * 3 * sizeof *tt);
    cs_free(vv);
    cs_free(tt);
}

/* the mesh's frame, mass properties and box from its faces (or, for convex inertia, its
 * hull's: hv, ht, nhtri; NULL without a hull) */
static void finish_mesh(cs_mjcf *c, cs_meshir *M, const double *hv, int *ht, int nhtri)
{
    int nhv = M->graph ? M->graph[0] : 0;
    /* no faces: the hull's triangles are the mesh (MuJoCo copies the hull graph) */
    if (M->ntri == 0) {
        M->nvert = nhv;
        M->vert = cs_mjcf_alloc(c, (size_t)nhv * 3 * sizeof *M->vert);
        memcpy(M->vert, hv, (size_t)nhv * 3 * sizeof *M->vert);
        M->tri = ht;
        M->ntri = nhtri;
        /* the hull's vertices are not the data's: coordinates given per vertex no longer
         * belong to them */
        M->texcoord = NULL;
        M->ntexcoord = 0;
        M->facetex = NULL;
    }

    /* area-weighted centroid of the faces */
    double facecen[3] = {0, 0, 0}, area = 0, nrm[3], ctr[3];
    for (int f = 0; f < M->ntri; f++) {
        const int *t = M->tri + 3 * f;
        double a = tri_area(M->vert + 3 * t[0], M->vert + 3 * t[1], M->vert + 3 * t[2], nrm, ctr);
        for (int k = 0; k < 3; k++) facecen[k] += a * ctr[k];
        area += a;
    }
    if (area < CS_MINVAL) MFAIL(c, M, NULL, "mesh surface area is too small (%g)", area);
    for (int k = 0; k < 3; k++) facecen[k] /= area;

    /* volume (or area) and centre of mass over the chosen faces */
    int shell = M->inertia == CS_MESH_SHELL, convex = M->inertia == CS_MESH_CONVEX;
    const double *V = convex ? hv : M->vert;
    const int *F = convex ? ht : M->tri;
    int nf = convex ? nhtri : M->ntri;
    double com[3] = {0, 0, 0}, total = 0;
    for (int f = 0; f < (shell ? M->ntri : nf); f++) {
        const int *t = (shell ? M->tri : F) + 3 * f;
        const double *VV = shell ? M->vert : V;
        double a = tri_area(VV + 3 * t[0], VV + 3 * t[1], VV + 3 * t[2], nrm, ctr), w;
        if (shell) {
            w = a;
        } else {
            double d[3] = {ctr[0] - facecen[0], ctr[1] - facecen[1], ctr[2] - facecen[2]};
            w = (d[0] * nrm[0] + d[1] * nrm[1] + d[2] * nrm[2]) * a / 3;
            if (M->inertia == CS_MESH_LEGACY) w = fabs(w);
        }
        total += w;
        /* the pyramid's centroid rounded as MuJoCo's compiler rounds it (3/4 in two steps) */
        for (int k = 0; k < 3; k++) com[k] += w * (ctr[k] * 3.0 / 4.0 + facecen[k] / 4.0);
    }
    if (total < CS_MINVAL) {
        if (shell) MFAIL(c, M, NULL, "mesh surface area is too small (%g)", total);
        if (total < 0)
            MFAIL(c, M, "inertia", "mesh volume is negative (%g): the faces are misoriented",
                  total);
        MFAIL(c, M, "inertia", "mesh volume is too small (%g); inertia=\"shell\" uses the "
                               "surface instead", total);
    }
    for (int k = 0; k < 3; k++) com[k] /= total;

    /* inertia about the centre of mass, per unit density */
    static const int K[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    double P[6] = {0, 0, 0, 0, 0, 0};
    total = 0;
    for (int f = 0; f < (shell ? M->ntri : nf); f++) {
        const int *t = (shell ? M->tri : F) + 3 * f;
        const double *VV = shell ? M->vert : V;
        double D[3], E[3], G[3];
        for (int k = 0; k < 3; k++) {
            D[k] = VV[3 * t[0] + k] - com[k];
            E[k] = VV[3 * t[1] + k] - com[k];
            G[k] = VV[3 * t[2] + k] - com[k];
        }
        double a = tri_area(D, E, G, nrm, ctr), w;
        w = shell ? a : (ctr[0] * nrm[0] + ctr[1] * nrm[1] + ctr[2] * nrm[2]) * a / 3;
        if (M->inertia == CS_MESH_LEGACY) w = fabs(w);
        total += w;
        double C = shell ? 12 : 20;
        for (int j = 0; j < 6; j++) {
            int x = K[j][0], y = K[j][1];
            P[j] += w / C *
                    (2 * (D[x] * D[y] + E[x] * E[y] + G[x] * G[y]) + D[x] * E[y] + D[y] * E[x] +
                     D[x] * G[y] + D[y] * G[x] + E[x] * G[y] + E[y] * G[x]);
        }
    }
    double I[9] = {P[1] + P[2], -P[3], -P[4], -P[3], P[0] + P[2], -P[5],
                   -P[4], -P[5], P[0] + P[1]};
    double ev[3], eq[4];
    cs_eig3(I, ev, eq);
    if (!(ev[0] > 0 && ev[1] > 0 && ev[2] > 0))
        MFAIL(c, M, NULL, "mesh inertia is not positive (principal moments %g, %g, %g)", ev[0],
              ev[1], ev[2]);
    const double atol = 1e-9, rtol = 1e-6;
    if (ev[0] + ev[1] < ev[2] * (1 - rtol) - atol || ev[0] + ev[2] < ev[1] * (1 - rtol) - atol ||
        ev[1] + ev[2] < ev[0] * (1 - rtol) - atol)
        MFAIL(c, M, NULL, "mesh inertia (%g, %g, %g) violates A + B >= C", ev[0], ev[1], ev[2]);
    M->volume = total;
    memcpy(M->inertia_u, ev, sizeof ev);
    memcpy(M->pos, com, sizeof com);
    memcpy(M->quat, eq, sizeof eq);

    /* into the mesh frame: x' = R^T (x - com) */
    double Rm[9];
    cs_quat2mat(Rm, eq);
    for (int k = 0; k < 3; k++) {
        M->aamm[k] = HUGE_VAL;
        M->aamm[3 + k] = -HUGE_VAL;
    }
    for (int i = 0; i < M->nvert; i++) {
        double *x = M->vert + 3 * i, y[3];
        for (int k = 0; k < 3; k++) y[k] = x[k] - com[k];
        for (int k = 0; k < 3; k++) {
            x[k] = Rm[k] * y[0] + Rm[3 + k] * y[1] + Rm[6 + k] * y[2];
            M->aamm[k] = fmin(M->aamm[k], x[k]);
            M->aamm[3 + k] = fmax(M->aamm[3 + k], x[k]);
        }
    }
    /* MuJoCo's bounding radius of a mesh geom: the corner of its box about the origin
     * (mjCGeom::GetRBound), not the farthest vertex; the plane-mesh contacts space their
     * points by it */
    double hb[3];
    for (int k = 0; k < 3; k++) hb[k] = fmax(fabs(M->aamm[k]), fabs(M->aamm[3 + k]));
    M->rbound = sqrt(hb[0] * hb[0] + hb[1] * hb[1] + hb[2] * hb[2]);
    /* the model keeps the moved vertices in single precision, as MuJoCo's does; the box
     * above is of the double ones, as MuJoCo's */
    for (int i = 0; i < 3 * M->nvert; i++) M->vert[i] = (float)M->vert[i];
    if (!M->graph) return;
    cs_hull_data tmp = {M->graph, M->ngraph, M->hull, M->nhull, NULL, 0};
    cs_hull_transform(&tmp, com, Rm);
    cs_hull_round_float(&tmp);
}

/* MuJoCo's rule for which meshes get a convex hull: one a mesh geom can collide with
 * (contype or conaffinity nonzero, or named by a <pair>), one whose inertia is "convex" (it
 * comes from the hull), one without faces (the hull makes them: compile_mesh). conesim adds a mesh a
 * distance sensor measures (its narrow phase takes the hull where MuJoCo's walks the
 * vertices: the same convex set). Without one a flat mesh loads, as in MuJoCo. */
static int need_hull(const cs_mjcf *c, int k)
{
    const cs_meshir *M = &c->mesh[k];
    if (M->inertia == CS_MESH_CONVEX) return 1;
    for (int i = 0; i < c->ngeom; i++) {
        const cs_gspec *s = &c->geom[i].s;
        if (s->type != CS_GEOM_MESH || !s->mesh || strcmp(s->mesh, M->name) != 0) continue;
        if (s->contype || s->conaffinity || cs_mjcf_sensor_measures_geom(c, i)) return 1;
        for (int p = 0; p < c->npair; p++)
            if (cs_mjcf_find_geom(c, c->pair[p].geom1) == i ||
                cs_mjcf_find_geom(c, c->pair[p].geom2) == i)
                return 1;
    }
    return 0;
}

static void compile_mesh(cs_mjcf *c, cs_meshir *M, int need)
{
    load_data(c, M);
    if (M->nvert < 4)
        MFAIL(c, M, M->file ? "file" : "vertex", "a mesh needs at least 4 vertices (got %d)",
              M->nvert);
    /* MuJoCo keeps a mesh's vertices in single precision from the start: its frame and
     * inertia are computed in double from the float coordinates */
    for (int i = 0; i < 3 * M->nvert; i++) M->vert[i] = (float)M->vert[i];
    /* the points before the user transform: MuJoCo builds the hull of these */
    double *raw = cs_mjcf_alloc(c, ((size_t)M->nvert * 3 + 1) * sizeof *raw);
    memcpy(raw, M->vert, (size_t)M->nvert * 3 * sizeof *raw);
    /* user transform: translate, rotate by the conjugate of refquat, scale; the rotation's
     * quaternion normalised as the compiler does (cs_mjcf_quat_renorm) */
    double q[4], R[9];
    memcpy(q, M->refquat, sizeof q);
    cs_mjcf_quat_renorm(q);
    cs_quat2mat(R, q);
    for (int i = 0; i < M->nvert; i++) {
        double *x = M->vert + 3 * i, y[3];
        for (int k = 0; k < 3; k++) y[k] = x[k] - M->refpos[k];
        for (int k = 0; k < 3; k++)
            x[k] = (R[k] * y[0] + R[3 + k] * y[1] + R[6 + k] * y[2]) * M->scale[k];
    }
    int mirror = M->scale[0] * M->scale[1] * M->scale[2] < 0;
    if (mirror)
        for (int f = 0; f < M->ntri; f++) { /* a mirror turns the faces inside out */
            int t = M->tri[3 * f + 1];
            M->tri[3 * f + 1] = M->tri[3 * f + 2];
            M->tri[3 * f + 2] = t;
            if (M->facetex) {
                t = M->facetex[3 * f + 1];
                M->facetex[3 * f + 1] = M->facetex[3 * f + 2];
                M->facetex[3 * f + 2] = t;
            }
        }

    /* the hull, copied into loader memory at once */
    if (!need && M->ntri > 0) {
        M->graph = NULL;
        M->hull = NULL;
        M->ngraph = M->nhull = 0;
        finish_mesh(c, M, NULL, NULL, 0);
        return;
    }
    cs_hull_data hd;
    char err[300];
    /* the hull of the points as given, moved after (a mirror would turn its faces inside
     * out: its hull is built of the moved points) */
    if (cs_hull_build(mirror ? M->vert : raw, M->nvert, M->maxhullvert, &hd, err,
                      sizeof err) != 0)
        MFAIL(c, M, M->file ? "file" : "vertex", "%s", err);
    if (!mirror) cs_hull_remap(&hd, M->vert);
    int *graph = cs_calloc((size_t)hd.ngraph, sizeof *graph);
    double *hull = cs_calloc((size_t)hd.ndata, sizeof *hull);
    int *htri = cs_calloc((size_t)hd.ntri * 3 + 1, sizeof *htri);
    int ngraph = hd.ngraph, nhull = hd.ndata, nhtri = hd.ntri;
    if (graph && hull && htri) {
        memcpy(graph, hd.graph, (size_t)ngraph * sizeof *graph);
        memcpy(hull, hd.data, (size_t)nhull * sizeof *hull);
        memcpy(htri, hd.tri, (size_t)nhtri * 3 * sizeof *htri);
    }
    cs_hull_data_free(&hd);
    if (!graph || !hull || !htri) {
        cs_free(graph);
        cs_free(hull);
        cs_free(htri);
        MFAIL(c, M, NULL, "out of memory");
    }
    M->graph = cs_mjcf_alloc(c, (size_t)ngraph * sizeof *M->graph);
    M->hull = cs_mjcf_alloc(c, (size_t)nhull * sizeof *M->hull);
    int *ht = cs_mjcf_alloc(c, ((size_t)nhtri * 3 + 1) * sizeof *ht);
    memcpy(M->graph, graph, (size_t)ngraph * sizeof *graph);
    memcpy(M->hull, hull, (size_t)nhull * sizeof *hull);
    memcpy(ht, htri, (size_t)nhtri * 3 * sizeof *ht);
    cs_free(graph);
    cs_free(hull);
    cs_free(htri);
    M->ngraph = ngraph;
    M->nhull = nhull;
    finish_mesh(c, M, M->hull + 6, ht, nhtri);
}

void cs_mjcf_meshes(cs_mjcf *c)
{
    /* every mesh, used or not: MuJoCo compiles all assets */
    for (int i = 0; i < c->nmesh; i++) compile_mesh(c, &c->mesh[i], need_hull(c, i));
}

/* ---- reading <mesh> ------------------------------------------------------------------ */
void cs_mjcf_parse_mesh(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"name", "class", "file", "scale", "refpos",
        "refquat", "vertex", "face", "maxhullvert", "inertia", "content_type", "builtin",
        "params", "texcoord", NULL},
        (const char *const[]){"normal", "smoothnormal", "material", NULL});
    cs_meshir M;
    memset(&M, 0, sizeof M);
    int k = cs_mjcf_class_of(c, n, c->rootcls);
    memcpy(M.scale, c->cls[k].meshscale, sizeof M.scale);
    M.refquat[0] = 1;
    M.maxhullvert = -1;
    M.line = cs_mjcf_line(n);
    M.file = cs_mjcf_attr(c, n, "file");
    M.name = cs_mjcf_attr(c, n, "name");
    cs_mjcf_nums(c, n, "scale", M.scale, 3, 3);
    cs_mjcf_nums(c, n, "refpos", M.refpos, 3, 3);
    if (cs_mjcf_nums(c, n, "refquat", M.refquat, 4, 4)) {
        double l = sqrt(M.refquat[0] * M.refquat[0] + M.refquat[1] * M.refquat[1] +
                        M.refquat[2] * M.refquat[2] + M.refquat[3] * M.refquat[3]);
        if (l < 1e-14) FAILN(c, n, "refquat", "zero quaternion");
    }
    for (int i = 0; i < 3; i++)
        if (M.scale[i] == 0) FAILN(c, n, "scale", "scale must not be zero");
    int cnt = 0;
    double *v = cs_mjcf_nums_alloc(c, n, "vertex", &cnt);
    if (v) {
        if (cnt % 3) FAILN(c, n, "vertex", "expects 3 numbers per vertex, got %d numbers", cnt);
        M.vertex = v;
        M.nvertex = cnt / 3;
    }
    double *f = cs_mjcf_nums_alloc(c, n, "face", &cnt);
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
    double *tcv = cs_mjcf_nums_alloc(c, n, "texcoord", &cnt);
    if (tcv) {
        if (cnt % 2) FAILN(c, n, "texcoord", "expects 2 numbers per vertex, got %d numbers", cnt);
        M.texcoord_attr = tcv;
        M.ntexcoord_attr = cnt / 2;
    }
    if (M.file && M.vertex) FAILN(c, n, "vertex", "give the vertices in the file or here, not both");
    if (!M.file && !M.vertex && !cs_mjcf_attr(c, n, "builtin"))
        FAILN(c, n, NULL, "a mesh needs a file or vertex data");
    if (M.face && !M.vertex) FAILN(c, n, "face", "faces need inline vertex data");
    int iv;
    if (cs_mjcf_int1(c, n, "maxhullvert", &iv)) {
        if (iv != -1 && iv < 4) FAILN(c, n, "maxhullvert", "must be -1 or larger than 3");
        M.maxhullvert = iv;
    }
    static const char *const INERTIA[] = {"legacy", "convex", "exact", "shell", NULL};
    int ki = cs_mjcf_keyword(c, n, "inertia", INERTIA);
    if (ki >= 0) M.inertia = ki;
    cs_mjcf_mesh_builtin(c, n, &M); /* mesh_builtin.c */
    static const char *const CTYPE[] = {"model/stl", "model/obj", "model/vnd.mujoco.msh", NULL};
    int ct = cs_mjcf_keyword(c, n, "content_type", CTYPE);
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
