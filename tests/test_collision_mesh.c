/* Convex hulls (qhull) and mesh collision: the hull's geometry, the support climb against
 * a scan of every vertex, and a box written as a mesh colliding as the box primitive does. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "collision.h"
#include "test_collision_util.h"

static const double IDM[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

static double cs_dot3(const double *a, const double *b)
{
    return tc_dot(a, b);
}
static void cs_cross3(double *r, const double *a, const double *b)
{
    tc_cross(a, b, r);
}
static void cs_mulmv(double *r, const double *m, const double *v)
{
    for (int i = 0; i < 3; i++)
        r[i] = m[3 * i] * v[0] + m[3 * i + 1] * v[1] + m[3 * i + 2] * v[2];
}
static void cs_mulmtv(double *r, const double *m, const double *v)
{
    for (int i = 0; i < 3; i++)
        r[i] = m[i] * v[0] + m[3 + i] * v[1] + m[6 + i] * v[2];
}
static void tc_random_rot(double m[9])
{
    tc_randrot(m);
}
static void tc_random_pose(cs_pose *p, double scale)
{
    for (int i = 0; i < 3; i++)
        p->pos[i] = scale * tc_uni(-1, 1);
    tc_randrot(p->mat);
}

typedef struct {
    cs_hull_data d;
    cs_hull h;
} thull;

static int mkhull(thull *t, const double *p, int n, int maxvert)
{
    char err[200];
    int rc = cs_hull_build(p, n, maxvert, &t->d, err, sizeof err);
    if (rc == 0)
        cs_hull_view(&t->h, t->d.graph, t->d.data);
    return rc;
}

static double *gauss_cloud(int n, double sx, double sy, double sz)
{
    double *p = malloc((size_t)n * 3 * sizeof *p);
    for (int i = 0; i < n; i++) {
        p[3 * i] = sx * tc_gauss();
        p[3 * i + 1] = sy * tc_gauss();
        p[3 * i + 2] = sz * tc_gauss();
    }
    return p;
}

/* box corners in the box routine's order: x fastest, then y, then z */
static void box_corners(const double s[3], double *p)
{
    for (int k = 0; k < 8; k++) {
        p[3 * k] = (k & 1) ? s[0] : -s[0];
        p[3 * k + 1] = (k & 2) ? s[1] : -s[1];
        p[3 * k + 2] = (k & 4) ? s[2] : -s[2];
    }
}

START_TEST(hull_contains_points)
{
    tc_seed(11);
    int sizes[] = {4, 20, 300, 3000};
    for (int t = 0; t < 4; t++) {
        int n = sizes[t];
        double *p = gauss_cloud(n, 1, 0.5, 2);
        thull H;
        ck_assert_int_eq(mkhull(&H, p, n, -1), 0);
        ck_assert_int_ge(H.h.nvert, 4);
        ck_assert_int_le(H.h.nvert, n);
        /* Euler: V - E + F = 2 on the triangulation (edges = adjacency / 2) */
        int ne = H.h.adjadr[H.h.nvert] / 2;
        ck_assert_int_eq(H.h.nvert - ne + H.d.ntri, 2);
        for (int i = 0; i < n; i++)
            for (int f = 0; f < H.h.nface; f++) {
                const double *pl = H.h.plane + 4 * f;
                ck_assert(fabs(pl[0] * pl[0] + pl[1] * pl[1] + pl[2] * pl[2] - 1) < 1e-12);
                ck_assert_msg(pl[0] * p[3 * i] + pl[1] * p[3 * i + 1] + pl[2] * p[3 * i + 2] <=
                                  pl[3] + 1e-9,
                              "point %d outside face %d", i, f);
            }
        /* face polygons: vertices on their plane, counter-clockwise about the normal */
        for (int f = 0; f < H.h.nface; f++) {
            const double *pl = H.h.plane + 4 * f;
            int a = H.h.faceadr[f], m = H.h.faceadr[f + 1] - a;
            ck_assert_int_ge(m, 3);
            for (int k = 0; k < m; k++) {
                const double *x = H.h.vert + 3 * H.h.facevert[a + k];
                const double *y = H.h.vert + 3 * H.h.facevert[a + (k + 1) % m];
                const double *z = H.h.vert + 3 * H.h.facevert[a + (k + 2) % m];
                ck_assert_msg(fabs(cs_dot3(pl, x) - pl[3]) < 1e-9, "n %d face %d of %d verts off by %g", n, f, m, cs_dot3(pl, x) - pl[3]);
                double e1[3], e2[3], c[3];
                for (int i = 0; i < 3; i++) {
                    e1[i] = y[i] - x[i];
                    e2[i] = z[i] - y[i];
                }
                cs_cross3(c, e1, e2);
                ck_assert(cs_dot3(c, pl) > -1e-12);
            }
        }
        /* AABB holds every vertex and touches the extremes */
        for (int k = 0; k < 3; k++) {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            for (int i = 0; i < n; i++) {
                lo = fmin(lo, p[3 * i + k]);
                hi = fmax(hi, p[3 * i + k]);
            }
            ck_assert(H.h.aabb[k] == lo && H.h.aabb[3 + k] == hi);
        }
        cs_hull_data_free(&H.d);
        free(p);
    }
}
END_TEST

/* The climb's vertex maximises d.x exactly as the scan's does, on random hulls of a few
 * to thousands of vertices, including directions along the axes (ties on flat faces). */
START_TEST(support_vs_brute)
{
    tc_seed(5);
    int sizes[] = {6, 40, 500, 5000};
    for (int t = 0; t < 4; t++) {
        int n = sizes[t];
        double *p = gauss_cloud(n, 1, 1, 1);
        if (t == 3) /* points on a sphere: every one is a hull vertex */
            for (int i = 0; i < n; i++) {
                double l = sqrt(cs_dot3(p + 3 * i, p + 3 * i));
                for (int k = 0; k < 3; k++)
                    p[3 * i + k] /= l;
            }
        thull H;
        ck_assert_int_eq(mkhull(&H, p, n, -1), 0);
        if (t == 3)
            ck_assert_int_gt(H.h.nvert, 4000);
        for (int r = 0; r < 2000; r++) {
            double d[3] = {tc_gauss(), tc_gauss(), tc_gauss()};
            if (r < 6) {
                d[0] = d[1] = d[2] = 0;
                d[r / 2] = (r & 1) ? 1 : -1;
            }
            int a = cs_hull_support(&H.h, d), b = cs_hull_support_brute(&H.h, d);
            ck_assert_msg(cs_dot3(H.h.vert + 3 * a, d) == cs_dot3(H.h.vert + 3 * b, d),
                          "n %d dir %d: climb %g brute %g", n, r,
                          cs_dot3(H.h.vert + 3 * a, d), cs_dot3(H.h.vert + 3 * b, d));
        }
        cs_hull_data_free(&H.d);
        free(p);
    }
}
END_TEST

START_TEST(box_hull_faces)
{
    double s[3] = {0.3, 0.2, 0.1}, p[3 * 12];
    box_corners(s, p);
    /* interior and face-centre points are not hull vertices */
    double extra[12] = {0, 0, 0, 0.1, 0.05, 0.02, 0, 0, 0.1, 0.3, 0, 0};
    memcpy(p + 24, extra, sizeof extra);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 12, -1), 0);
    ck_assert_int_eq(H.h.nvert, 8);
    ck_assert_int_eq(H.h.nface, 6);
    for (int f = 0; f < 6; f++)
        ck_assert_int_eq(H.h.faceadr[f + 1] - H.h.faceadr[f], 4);
    /* hull vertices keep the input order */
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            ck_assert(H.h.vert[3 * i + k] == p[3 * i + k]);
    /* every corner has 3 box edges (a triangulated face adds its diagonal: at most 5) */
    for (int i = 0; i < 8; i++) {
        int deg = H.h.adjadr[i + 1] - H.h.adjadr[i];
        ck_assert(deg >= 3 && deg <= 6);
    }
    cs_hull_data_free(&H.d);
}
END_TEST

/* MuJoCo's polygons, which the multi-point contacts clip, join triangles whose normals round
 * to the same 0.01 rad: a box's top warped by 1e-4 (one corner raised) stays one four-corner
 * polygon there, where the exact faces are two triangles; on a plain box the polygons are the
 * six faces, with the faces' exact normals */
START_TEST(mujoco_polygons)
{
    double s[3] = {1, 1, 1}, p[24];
    box_corners(s, p);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 8, -1), 0);
    ck_assert_int_eq(H.h.npoly, 6);
    for (int f = 0; f < 6; f++) {
        ck_assert_int_eq(H.h.polyadr[f + 1] - H.h.polyadr[f], 4);
        const double *n = H.h.polynormal + 3 * f;
        ck_assert_double_eq_tol(fabs(n[0]) + fabs(n[1]) + fabs(n[2]), 1, 1e-15);
    }
    /* each corner on three polygons */
    for (int v = 0; v < 8; v++) ck_assert_int_eq(H.h.pmapadr[v + 1] - H.h.pmapadr[v], 3);
    cs_hull_data_free(&H.d);

    p[3 * 7 + 2] += 1e-4; /* corner (+x, +y, +z) up */
    ck_assert_int_eq(mkhull(&H, p, 8, -1), 0);
    ck_assert_int_eq(H.h.nface, 7); /* the exact faces: the top in two */
    ck_assert_int_eq(H.h.npoly, 6);
    int top = -1;
    for (int f = 0; f < 6; f++)
        if (H.h.polynormal[3 * f + 2] > 0.5) top = f;
    ck_assert_int_ge(top, 0);
    ck_assert_int_eq(H.h.polyadr[top + 1] - H.h.polyadr[top], 4);
    /* the side polygons with the raised corner also stay four-cornered */
    for (int f = 0; f < 6; f++) ck_assert_int_eq(H.h.polyadr[f + 1] - H.h.polyadr[f], 4);
    cs_hull_data_free(&H.d);
}
END_TEST

START_TEST(maxhullvert)
{
    tc_seed(3);
    double *p = gauss_cloud(400, 1, 1, 1);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 400, 12), 0);
    ck_assert_int_le(H.h.nvert, 12);
    ck_assert_int_ge(H.h.nvert, 4);
    cs_hull_data_free(&H.d);
    free(p);
}
END_TEST

START_TEST(degenerate_inputs)
{
    cs_hull_data d;
    char err[200];
    double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    ck_assert_int_eq(cs_hull_build(tri, 3, -1, &d, err, sizeof err), -1);
    ck_assert(strstr(err, "at least 4"));
    double flat[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.2, 0};
    ck_assert_int_eq(cs_hull_build(flat, 5, -1, &d, err, sizeof err), -1);
    ck_assert(strstr(err, "coplanar"));
    double line[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    ck_assert_int_eq(cs_hull_build(line, 4, -1, &d, err, sizeof err), -1);
    ck_assert(strstr(err, "collinear"));
    double same[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    ck_assert_int_eq(cs_hull_build(same, 4, -1, &d, err, sizeof err), -1);
}
END_TEST

START_TEST(transform_moves_planes)
{
    tc_seed(8);
    double *p = gauss_cloud(50, 1, 2, 0.5);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 50, -1), 0);
    double R[9], c[3] = {0.3, -0.2, 1.0};
    tc_random_rot(R);
    cs_hull_transform(&H.d, c, R);
    cs_hull_view(&H.h, H.d.graph, H.d.data);
    for (int i = 0; i < 50; i++) {
        double x[3] = {p[3 * i] - c[0], p[3 * i + 1] - c[1], p[3 * i + 2] - c[2]}, y[3];
        cs_mulmtv(y, R, x);
        for (int f = 0; f < H.h.nface; f++)
            ck_assert(cs_dot3(H.h.plane + 4 * f, y) <= H.h.plane[4 * f + 3] + 1e-9);
    }
    for (int f = 0; f < H.h.nface; f++)
        for (int a = H.h.faceadr[f]; a < H.h.faceadr[f + 1]; a++)
            ck_assert(fabs(cs_dot3(H.h.plane + 4 * f, H.h.vert + 3 * H.h.facevert[a]) -
                           H.h.plane[4 * f + 3]) < 1e-9);
    cs_hull_data_free(&H.d);
    free(p);
}
END_TEST

/* contacts of (t1, t2) where either may be the box as a mesh */
static int pair(int t1, const double *s1, const cs_hull *h1, const cs_pose *p1, int t2,
                const double *s2, const cs_hull *h2, const cs_pose *p2, double margin,
                cs_geom_contact *c)
{
    return cs_collide_pair_hull(NULL, t1, s1, h1, p1, t2, s2, h2, p2, margin, c);
}

static double mindist(const cs_geom_contact *c, int n)
{
    double m = HUGE_VAL;
    for (int k = 0; k < n; k++)
        m = fmin(m, c[k].dist);
    return m;
}

/* A box resting (slightly tilted, penetrating or within the margin) on a plane: the mesh
 * copy gets some of the box's contacts, the same points and distances (MuJoCo's plane-mesh
 * rule: the deepest corner first, at most 3 in all), and one whenever the box has any. */
START_TEST(box_mesh_on_plane)
{
    tc_seed(21);
    double s[3] = {0.2, 0.15, 0.05}, p[24];
    box_corners(s, p);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 8, -1), 0);
    double ps[3] = {0, 0, 1};
    cs_pose pl;
    tc_random_pose(&pl, 0.5);
    int checked4 = 0;
    for (int r = 0; r < 500; r++) {
        cs_pose b;
        double q[4] = {1, tc_uni(-0.02, 0.02), tc_uni(-0.02, 0.02), tc_uni(-1, 1)}, Rl[9];
        if (r % 3 == 0)
            q[1] = q[2] = 0; /* flat on the plane: all four bottom corners */
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int k = 0; k < 4; k++)
            q[k] /= l;
        tc_quat2mat(q, Rl);
        /* box frame in plane coordinates, then to world */
        double h = s[2] + tc_uni(-0.01, 0.004), loc[3] = {tc_uni(-1, 1), tc_uni(-1, 1), h};
        cs_mulmv(b.pos, pl.mat, loc);
        for (int i = 0; i < 3; i++)
            b.pos[i] += pl.pos[i];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                b.mat[3 * i + j] = pl.mat[3 * i] * Rl[j] + pl.mat[3 * i + 1] * Rl[3 + j] +
                                   pl.mat[3 * i + 2] * Rl[6 + j];
        double margin = (r & 1) ? 0.005 : 0;
        cs_geom_contact cb[CS_MAXCONPAIR], cm[CS_MAXCONPAIR];
        int nb = pair(CS_GEOM_PLANE, ps, NULL, &pl, CS_GEOM_BOX, s, NULL, &b, margin, cb);
        int nm = pair(CS_GEOM_PLANE, ps, NULL, &pl, CS_GEOM_MESH, s, &H.h, &b, margin, cm);
        ck_assert_int_eq(nb > 0, nm > 0);
        ck_assert_int_le(nm, 3);
        if (nm > 0)
            ck_assert(fabs(cm[0].dist - mindist(cb, nb)) < 1e-14);
        if (nb == 4 && nm >= 2)
            checked4++;
        for (int k = 0; k < nm; k++) {
            int found = 0;
            for (int j = 0; j < nb; j++) {
                double e = 0;
                for (int i = 0; i < 3; i++)
                    e = fmax(e, fabs(cm[k].pos[i] - cb[j].pos[i]));
                if (e < 1e-14 && fabs(cm[k].dist - cb[j].dist) < 1e-14) {
                    found = 1;
                    for (int i = 0; i < 9; i++)
                        ck_assert(fabs(cm[k].frame[i] - cb[j].frame[i]) < 1e-15);
                }
            }
            ck_assert_msg(found, "trial %d: mesh contact %d has no box twin", r, k);
        }
    }
    ck_assert_int_gt(checked4, 100);
    cs_hull_data_free(&H.d);
}
END_TEST

/* Against every primitive and a second mesh, the box mesh's deepest distance agrees with
 * the box's (the routines differ: analytic for the box, GJK/EPA for the mesh). */
START_TEST(box_mesh_vs_primitives)
{
    tc_seed(77);
    double s[3] = {0.2, 0.15, 0.1}, p[24];
    box_corners(s, p);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 8, -1), 0);
    int types[] = {CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID, CS_GEOM_CYLINDER,
                   CS_GEOM_BOX, CS_GEOM_MESH};
    double sz[6][3] = {{0.1, 0, 0}, {0.05, 0.1, 0}, {0.1, 0.07, 0.05}, {0.08, 0.06, 0},
                       {0.1, 0.12, 0.08}, {0.2, 0.15, 0.1}};
    int npos = 0;
    for (int t = 0; t < 6; t++) {
        for (int r = 0; r < 1500; r++) {
            cs_pose a, b;
            tc_random_pose(&a, 0.0);
            memcpy(a.mat, IDM, sizeof IDM);
            tc_random_rot(a.mat);
            tc_random_rot(b.mat);
            double u[3] = {tc_gauss(), tc_gauss(), tc_gauss()};
            double ul = sqrt(cs_dot3(u, u));
            double L = tc_uni(0.15, 0.45);
            for (int i = 0; i < 3; i++)
                b.pos[i] = a.pos[i] + L * u[i] / ul;
            /* reference: the primitive pair (box as itself, in MuJoCo order) */
            cs_geom_contact cr[CS_MAXCONPAIR], cm[CS_MAXCONPAIR];
            int t2 = types[t];
            int nr, nm;
            const double *s2 = sz[t];
            if (t2 == CS_GEOM_MESH) {
                nr = pair(CS_GEOM_BOX, s, NULL, &a, CS_GEOM_BOX, s2, NULL, &b, 0, cr);
                nm = pair(CS_GEOM_MESH, s, &H.h, &a, CS_GEOM_MESH, s2, &H.h, &b, 0, cm);
            } else {
                nr = pair(t2, s2, NULL, &b, CS_GEOM_BOX, s, NULL, &a, 0, cr);
                nm = pair(t2, s2, NULL, &b, CS_GEOM_MESH, s, &H.h, &a, 0, cm);
            }
            ck_assert_msg((nr > 0) == (nm > 0), "type %d trial %d: %d vs %d contacts", t2, r,
                          nr, nm);
            /* shallow overlaps only: deep in, the analytic capsule-box routine reports its
             * segment's closest point, not the least translation GJK/EPA finds */
            if (nr && nm && mindist(cr, nr) > -0.01) {
                npos++;
                /* box-box reports a SAT axis, GJK/EPA the least overlap it finds: on edge
                 * contacts they part by a few 1e-5 */
                double tol = t2 >= CS_GEOM_BOX ? 1e-4 : 2e-6;
                ck_assert_msg(fabs(mindist(cr, nr) - mindist(cm, nm)) < tol,
                              "type %d trial %d: depth %g vs %g", t2, r, mindist(cr, nr),
                              mindist(cm, nm));
            }
        }
    }
    ck_assert_int_gt(npos, 200);
    cs_hull_data_free(&H.d);
}
END_TEST

/* A sphere against a box written as a mesh, touching a face, an edge or a corner (shallow
 * overlap or a gap within the margin): the contact is the closed form. The normal runs
 * from the centre to the nearest box point, the depth is that distance less the radius,
 * and the point sits on the centre's normal line, midway between the surfaces. */
START_TEST(sphere_mesh_closed_form)
{
    tc_seed(5);
    double s[3] = {0.2, 0.15, 0.1}, p[24];
    box_corners(s, p);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 8, -1), 0);
    const double r = 0.04, margin = 0.01;
    int nface = 0, nedge = 0, ncorner = 0;
    for (int trial = 0; trial < 3000; trial++) {
        cs_pose b, a;
        tc_random_pose(&b, 0.3);
        /* a nearest box point q (local), on a face, an edge or a corner, and an outward
         * direction from it within that feature's normal cone */
        double q[3], u[3] = {0, 0, 0};
        int kind = trial % 3;
        for (int i = 0; i < 3; i++)
            q[i] = tc_uni(-s[i], s[i]);
        int order[3] = {0, 1, 2};
        for (int i = 2; i > 0; i--) {
            int j = (int)tc_uni(0, i + 1 - 1e-9), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int k = 0; k <= kind; k++) {
            int ax = order[k];
            double sg = tc_uni(-1, 1) < 0 ? -1 : 1;
            q[ax] = sg * s[ax];
            u[ax] = sg * tc_uni(0.05, 1);
        }
        double ul = sqrt(cs_dot3(u, u));
        double gap = tc_uni(-0.02, margin); /* signed distance sphere - box */
        double cl[3];
        for (int i = 0; i < 3; i++)
            cl[i] = q[i] + (r + gap) * u[i] / ul;
        cs_mulmv(a.pos, b.mat, cl);
        for (int i = 0; i < 3; i++)
            a.pos[i] += b.pos[i];
        tc_random_rot(a.mat);
        double ss[3] = {r, 0, 0};
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = pair(CS_GEOM_SPHERE, ss, NULL, &a, CS_GEOM_MESH, s, &H.h, &b, margin, c);
        if (gap > margin - 1e-9)
            continue;
        ck_assert_msg(n == 1, "trial %d: %d contacts", trial, n);
        double nw[3];
        for (int i = 0; i < 3; i++)
            nw[i] = -(cl[i] - q[i]) / (r + gap); /* local: sphere -> box */
        double nx[3];
        cs_mulmv(nx, b.mat, nw);
        double e = 0;
        for (int i = 0; i < 3; i++)
            e = fmax(e, fabs(c[0].frame[i] - nx[i]));
        ck_assert_msg(fabs(c[0].dist - gap) < 1e-10, "trial %d kind %d: dist %.12g vs %.12g",
                      trial, kind, c[0].dist, gap);
        /* GJK on the sphere's centre stops when its duality gap is under half the squared
         * tolerance: its closest point is within the tolerance, the normal within that over
         * the centre's distance */
        const double tol = 1e-6;
        ck_assert_msg(e < tol / (r + gap), "trial %d kind %d: normal off by %g", trial, kind, e);
        for (int i = 0; i < 3; i++) {
            double want = a.pos[i] + (r + 0.5 * gap) * nx[i];
            ck_assert_msg(fabs(c[0].pos[i] - want) < tol, "trial %d kind %d: point off by %g",
                          trial, kind, c[0].pos[i] - want);
        }
        nface += kind == 0;
        nedge += kind == 1;
        ncorner += kind == 2;
    }
    ck_assert_int_gt(nface, 500);
    ck_assert_int_gt(nedge, 500);
    ck_assert_int_gt(ncorner, 500);
    cs_hull_data_free(&H.d);
}
END_TEST

/* A tetrahedron resting on one of its edges, the edge sloping into a box's top face (as a
 * box and as a box mesh): both ends of the edge are below the face, so both are contacts,
 * each as deep as its height over the face, with the face's normal. */
START_TEST(edge_on_face_both_ends)
{
    tc_seed(9);
    double s[3] = {0.2, 0.2, 0.1}, bp[24];
    box_corners(s, bp);
    thull HB, HT;
    ck_assert_int_eq(mkhull(&HB, bp, 8, -1), 0);
    const double tet[12] = {-0.05, 0, 0, 0.05, 0, 0, 0, 0.05, 0.06, 0, -0.05, 0.06};
    ck_assert_int_eq(mkhull(&HT, tet, 4, -1), 0);
    int checked = 0;
    for (int trial = 0; trial < 400; trial++) {
        int asmesh = trial & 1;
        cs_pose a, b;
        memcpy(a.mat, IDM, sizeof IDM);
        a.pos[0] = a.pos[1] = a.pos[2] = 0;
        /* the edge from (-0.05,0,0) to (0.05,0,0) turned about z by yaw, sloping by th,
         * its middle at height h over the face (the top face is at z = 0.1) */
        double th = tc_uni(0.005, 0.05), yaw = tc_uni(-3.1, 3.1);
        double cy = cos(yaw), sy = sin(yaw), ct = cos(th), st = sin(th);
        double h = -0.05 * st - tc_uni(0.0002, 0.003); /* both ends below */
        double Ry[9] = {ct, 0, st, 0, 1, 0, -st, 0, ct}, Rz[9] = {cy, -sy, 0, sy, cy, 0, 0, 0, 1};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                b.mat[3 * i + j] = Rz[3 * i] * Ry[j] + Rz[3 * i + 1] * Ry[3 + j] +
                                   Rz[3 * i + 2] * Ry[6 + j];
        b.pos[0] = tc_uni(-0.1, 0.1);
        b.pos[1] = tc_uni(-0.1, 0.1);
        b.pos[2] = 0.1 + h;
        double ends[2][3];
        for (int e = 0; e < 2; e++) {
            cs_mulmv(ends[e], b.mat, tet + 3 * e);
            for (int i = 0; i < 3; i++)
                ends[e][i] += b.pos[i];
        }
        double ts[3] = {0.05, 0.05, 0.06};
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = asmesh ? pair(CS_GEOM_MESH, s, &HB.h, &a, CS_GEOM_MESH, ts, &HT.h, &b, 0, c)
                       : pair(CS_GEOM_BOX, s, NULL, &a, CS_GEOM_MESH, ts, &HT.h, &b, 0, c);
        for (int e = 0; e < 2; e++) {
            double want = ends[e][2] - 0.1;
            int found = 0;
            for (int k = 0; k < n && !found; k++) {
                double dx = c[k].pos[0] - ends[e][0], dy = c[k].pos[1] - ends[e][1];
                found = fabs(dx) < 1e-9 && fabs(dy) < 1e-9 && fabs(c[k].dist - want) < 1e-9 &&
                        fabs(c[k].frame[2] - 1) < 1e-9;
            }
            ck_assert_msg(found, "trial %d (%s): end %d (depth %g) not a contact of %d", trial,
                          asmesh ? "mesh" : "box", e, want, n);
        }
        checked++;
    }
    ck_assert_int_eq(checked, 400);
    cs_hull_data_free(&HB.d);
    cs_hull_data_free(&HT.d);
}
END_TEST

/* A hexagonal prism (a nut's outline) flat on a plane: MuJoCo's plane-mesh rule gives three
 * contacts, bottom corners at the face's depth, none within 0.3 bounding radii of the first. */
START_TEST(prism_on_plane)
{
    double p[36];
    for (int k = 0; k < 6; k++) {
        double a = k * TC_PI / 3;
        p[3 * k] = p[3 * (k + 6)] = 0.1 * cos(a);
        p[3 * k + 1] = p[3 * (k + 6) + 1] = 0.1 * sin(a);
        p[3 * k + 2] = -0.02;
        p[3 * (k + 6) + 2] = 0.02;
    }
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 12, -1), 0);
    ck_assert_int_eq(H.h.nface, 8);
    double ps[3] = {0, 0, 1}, ss[3] = {0.1, 0.1, 0.02};
    cs_pose pl = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    cs_pose b = {{0.3, -0.2, 0.019}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    cs_geom_contact c[CS_MAXCONPAIR];
    int n = pair(CS_GEOM_PLANE, ps, NULL, &pl, CS_GEOM_MESH, ss, &H.h, &b, 0, c);
    ck_assert_int_eq(n, 3);
    double rb = sqrt(0.1 * 0.1 + 0.02 * 0.02);
    for (int k = 0; k < n; k++) {
        ck_assert(fabs(c[k].dist + 0.001) < 1e-15);
        ck_assert(fabs(c[k].pos[2] + 0.0005) < 1e-15);
        ck_assert(fabs(hypot(c[k].pos[0] - 0.3, c[k].pos[1] + 0.2) - 0.1) < 1e-12);
        if (k > 0)
            ck_assert(hypot(c[k].pos[0] - c[0].pos[0], c[k].pos[1] - c[0].pos[1]) >= 0.3 * rb);
    }
    /* lifted above the margin: nothing; within it: contacts with positive distance */
    b.pos[2] = 0.03;
    ck_assert_int_eq(pair(CS_GEOM_PLANE, ps, NULL, &pl, CS_GEOM_MESH, ss, &H.h, &b, 0, c), 0);
    ck_assert_int_eq(pair(CS_GEOM_PLANE, ps, NULL, &pl, CS_GEOM_MESH, ss, &H.h, &b, 0.02, c), 3);
    ck_assert(fabs(c[0].dist - 0.01) < 1e-15);
    cs_hull_data_free(&H.d);
}
END_TEST

/* Broad phase bounds: the world AABB of a hull holds every vertex at random poses. */
START_TEST(hull_aabb)
{
    tc_seed(4);
    double *p = gauss_cloud(100, 0.3, 0.1, 0.2);
    thull H;
    ck_assert_int_eq(mkhull(&H, p, 100, -1), 0);
    for (int r = 0; r < 200; r++) {
        cs_pose P;
        tc_random_pose(&P, 1.0);
        double lo[3], hi[3];
        cs_geom_aabb_hull(&H.h, &P, 0.01, lo, hi);
        for (int i = 0; i < H.h.nvert; i++) {
            double w[3];
            cs_mulmv(w, P.mat, H.h.vert + 3 * i);
            for (int k = 0; k < 3; k++) {
                w[k] += P.pos[k];
                ck_assert(w[k] >= lo[k] + 0.01 - 1e-12 && w[k] <= hi[k] - 0.01 + 1e-12);
            }
        }
    }
    cs_hull_data_free(&H.d);
    free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collision-mesh");
    TCase *tc = tcase_create("mesh");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hull_contains_points);
    tcase_add_test(tc, support_vs_brute);
    tcase_add_test(tc, box_hull_faces);
    tcase_add_test(tc, maxhullvert);
    tcase_add_test(tc, degenerate_inputs);
    tcase_add_test(tc, transform_moves_planes);
    tcase_add_test(tc, box_mesh_on_plane);
    tcase_add_test(tc, box_mesh_vs_primitives);
    tcase_add_test(tc, sphere_mesh_closed_form);
    tcase_add_test(tc, edge_on_face_both_ends);
    tcase_add_test(tc, prism_on_plane);
    tcase_add_test(tc, hull_aabb);
    tcase_add_test(tc, mujoco_polygons);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
