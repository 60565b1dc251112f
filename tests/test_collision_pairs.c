/* Narrow phase: each analytic pair against closed-form (or independently minimised)
 * distance, normal and point; libccd against the analytic paths; manifolds; frames. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "collision.h"
#include "internal.h"
#include "test_collision_util.h"

#define NRAND 300

static int collide(int t1, const double *s1, const cs_pose *p1, int t2, const double *s2,
                   const cs_pose *p2, double margin, cs_geom_contact *out)
{
    return cs_collide_pair(NULL, t1, s1, p1, t2, s2, p2, margin, out);
}

/* count check that tolerates rounding when the distance is right at the margin */
#define CK_COUNT(nc, dist, margin)                                                         \
    do {                                                                                   \
        if (fabs((dist) - (margin)) > 1e-12)                                               \
            ck_assert_int_eq((nc) > 0, (dist) <= (margin));                                \
    } while (0)

static int deepest(const cs_geom_contact *c, int n)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (c[i].dist < c[k].dist)
            k = i;
    return k;
}

/* a height category for random tests: deep, touching, within margin, beyond margin */
static double height_offset(int i, double scale, double margin)
{
    switch (i % 4) {
    case 0:
        return -tc_uni(0.01, 0.9) * scale;
    case 1:
        return 0;
    case 2:
        return tc_uni(0.05, 0.95) * margin;
    default:
        return margin + tc_uni(0.01, 1.0) * scale;
    }
}

static void random_plane(cs_pose *p)
{
    double m[9];
    tc_randrot(m);
    tc_pose(p, tc_uni(-1, 1), tc_uni(-1, 1), tc_uni(-1, 1), m);
}

static int ccd_pair(int t1, const double *s1, const cs_pose *p1, int t2, const double *s2,
                    const cs_pose *p2, double margin, cs_geom_contact *out, int multi);

/* --- frames ---------------------------------------------------------------------- */

START_TEST(frame_default_rule)
{
    double f[9] = {0, 0, 1, 0, 0, 0, 0, 0, 0};
    cs_make_frame(f);
    /* normal +z: t1 = +y, t2 = n x t1 = -x (docs/contact-math.md §8) */
    ck_assert_double_eq_tol(f[3], 0, 1e-15);
    ck_assert_double_eq_tol(f[4], 1, 1e-15);
    ck_assert_double_eq_tol(f[5], 0, 1e-15);
    ck_assert_double_eq_tol(f[6], -1, 1e-15);
    ck_assert_double_eq_tol(f[7], 0, 1e-15);
    ck_assert_double_eq_tol(f[8], 0, 1e-15);
    /* normal near +y: world z is used instead */
    double g[9] = {0.1, 0.9, 0.1, 0, 0, 0, 0, 0, 0};
    cs_make_frame(g);
    ck_assert(tc_frame_error(g) < 1e-14);
    double z[3] = {0, 0, 1}, t[3];
    double nz = tc_dot(g, z);
    for (int i = 0; i < 3; i++)
        t[i] = z[i] - nz * g[i];
    double tl = tc_norm(t);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(g[3 + i], t[i] / tl, 1e-14);
    /* a tangent hint is kept (made orthogonal) */
    double h[9] = {0, 0, 2, 1, 0, 0.5, 0, 0, 0};
    cs_make_frame(h);
    ck_assert_double_eq_tol(h[2], 1, 1e-15);
    ck_assert_double_eq_tol(h[3], 1, 1e-15);
    ck_assert_double_eq_tol(h[5], 0, 1e-15);
    /* a hint parallel to the normal (capsule standing on a plane): world x, as MuJoCo */
    double k[9] = {0, 0, 1, 0, 0, 3, 0, 0, 0};
    cs_make_frame(k);
    ck_assert_double_eq_tol(k[3], 1, 1e-15);
    ck_assert_double_eq_tol(k[7], 1, 1e-15); /* t2 = z x x = +y */
    /* ... and if the normal is world x itself, the default rule */
    double k2[9] = {1, 0, 0, 2, 0, 0, 0, 0, 0};
    cs_make_frame(k2);
    ck_assert_double_eq_tol(k2[4], 1, 1e-15);
    tc_seed(11);
    for (int it = 0; it < 1000; it++) {
        double r[9] = {tc_gauss(), tc_gauss(), tc_gauss(), 0, 0, 0, 0, 0, 0};
        if (it % 2)
            for (int i = 3; i < 6; i++)
                r[i] = tc_gauss();
        cs_make_frame(r);
        ck_assert(tc_frame_error(r) < 1e-12);
    }
}
END_TEST

START_TEST(frame_flip)
{
    cs_geom_contact c;
    memset(&c, 0, sizeof c);
    c.geom1 = 3;
    c.geom2 = 7;
    double f[9] = {0.3, -0.2, 0.9, 0, 0, 0, 0, 0, 0};
    cs_make_frame(f);
    memcpy(c.frame, f, sizeof f);
    cs_contact_flip(&c);
    ck_assert_int_eq(c.geom1, 7);
    ck_assert_int_eq(c.geom2, 3);
    ck_assert(tc_frame_error(c.frame) < 1e-14);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq_tol(c.frame[i], -f[i], 1e-15);
        ck_assert_double_eq_tol(c.frame[3 + i], f[3 + i], 1e-15);
    }
}
END_TEST

/* --- plane pairs ----------------------------------------------------------------- */

START_TEST(plane_sphere_random)
{
    tc_seed(1);
    double ps[3] = {0, 0, 0};
    for (int it = 0; it < NRAND; it++) {
        cs_pose pl, sp;
        random_plane(&pl);
        double n[3], t1[3], t2[3];
        tc_col(pl.mat, 2, n);
        tc_col(pl.mat, 0, t1);
        tc_col(pl.mat, 1, t2);
        double r = tc_uni(0.05, 1), margin = (it % 3) ? 0.1 : 0;
        double off = height_offset(it, r, margin == 0 ? 0.01 : margin);
        double h = r + off, a = tc_uni(-3, 3), b = tc_uni(-3, 3);
        for (int i = 0; i < 3; i++)
            sp.pos[i] = pl.pos[i] + h * n[i] + a * t1[i] + b * t2[i];
        tc_randrot(sp.mat);
        double s[3] = {r, 0, 0};
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_SPHERE, s, &sp, margin, c);
        double dist = h - r;
        CK_COUNT(nc, dist, margin);
        if (!nc || dist > margin)
            continue;
        ck_assert_double_eq_tol(c[0].dist, dist, 1e-12);
        for (int i = 0; i < 3; i++) {
            ck_assert_double_eq_tol(c[0].frame[i], n[i], 1e-12);
            ck_assert_double_eq_tol(c[0].pos[i], sp.pos[i] - n[i] * (r + dist / 2), 1e-12);
        }
        ck_assert(tc_frame_error(c[0].frame) < 1e-12);
    }
}
END_TEST

START_TEST(plane_box_random)
{
    tc_seed(2);
    double ps[3] = {0, 0, 0};
    for (int it = 0; it < NRAND; it++) {
        cs_pose pl, bx;
        random_plane(&pl);
        double n[3];
        tc_col(pl.mat, 2, n);
        double s[3] = {tc_uni(0.05, 1), tc_uni(0.05, 1), tc_uni(0.05, 1)};
        double margin = (it % 2) ? 0.2 : 0;
        tc_randrot(bx.mat);
        /* lowest corner relative to the center along n */
        double low = 0;
        for (int k = 0; k < 3; k++) {
            double ax[3];
            tc_col(bx.mat, k, ax);
            low += s[k] * fabs(tc_dot(ax, n));
        }
        double h = low + height_offset(it, 0.5, margin == 0 ? 0.01 : margin);
        for (int i = 0; i < 3; i++)
            bx.pos[i] = pl.pos[i] + h * n[i] + tc_uni(-0.01, 0.01);
        /* reference: corners below the center within the margin, at most 4 */
        double cd[8], dmin = HUGE_VAL;
        int expect = 0;
        for (int k = 0; k < 8; k++) {
            double loc[3] = {(k & 1) ? s[0] : -s[0], (k & 2) ? s[1] : -s[1],
                             (k & 4) ? s[2] : -s[2]};
            double w[3], d[3];
            for (int i = 0; i < 3; i++)
                w[i] = bx.mat[3 * i] * loc[0] + bx.mat[3 * i + 1] * loc[1] +
                       bx.mat[3 * i + 2] * loc[2];
            for (int i = 0; i < 3; i++)
                d[i] = bx.pos[i] + w[i] - pl.pos[i];
            cd[k] = tc_dot(d, n);
            dmin = fmin(dmin, cd[k]);
            if (tc_dot(w, n) <= 0 && cd[k] <= margin)
                expect++;
        }
        if (expect > 4)
            expect = 4;
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &bx, margin, c);
        ck_assert_int_eq(nc, expect);
        if (dmin <= margin) {
            ck_assert_int_ge(nc, 1);
            ck_assert_double_eq_tol(c[deepest(c, nc)].dist, dmin, 1e-12);
        }
        for (int k = 0; k < nc; k++) {
            /* each point is a corner moved half its distance toward the plane */
            double corner[3];
            for (int i = 0; i < 3; i++)
                corner[i] = c[k].pos[i] + 0.5 * c[k].dist * n[i];
            ck_assert(fabs(tc_box_sdf(s, &bx, corner)) < 1e-12);
            ck_assert(c[k].dist <= margin);
            for (int i = 0; i < 3; i++)
                ck_assert_double_eq_tol(c[k].frame[i], n[i], 1e-14);
        }
    }
}
END_TEST

START_TEST(plane_capsule_random)
{
    tc_seed(3);
    double ps[3] = {0, 0, 0};
    for (int it = 0; it < NRAND; it++) {
        cs_pose pl, cp;
        random_plane(&pl);
        double n[3], ax[3];
        tc_col(pl.mat, 2, n);
        double s[3] = {tc_uni(0.05, 0.5), tc_uni(0.05, 1), 0};
        double margin = 0.1;
        tc_randrot(cp.mat);
        tc_col(cp.mat, 2, ax);
        double low = s[1] * fabs(tc_dot(ax, n)) + s[0];
        double h = low + height_offset(it, s[0], margin);
        for (int i = 0; i < 3; i++)
            cp.pos[i] = pl.pos[i] + h * n[i];
        double de[2];
        int expect = 0;
        for (int e = 0; e < 2; e++) {
            double sg = e ? -1 : 1;
            de[e] = h + sg * s[1] * tc_dot(ax, n) - s[0];
            expect += de[e] <= margin;
        }
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_CAPSULE, s, &cp, margin, c);
        ck_assert_int_eq(nc, expect);
        if (nc)
            ck_assert_double_eq_tol(c[deepest(c, nc)].dist, fmin(de[0], de[1]), 1e-12);
        for (int k = 0; k < nc; k++) {
            /* MuJoCo's tangent: the capsule axis (made orthogonal to n) */
            double t[3], an = tc_dot(ax, n);
            for (int i = 0; i < 3; i++)
                t[i] = ax[i] - an * n[i];
            double tl = tc_norm(t);
            for (int i = 0; i < 3; i++)
                ck_assert_double_eq_tol(c[k].frame[3 + i], t[i] / tl, 1e-9);
            ck_assert(tc_frame_error(c[k].frame) < 1e-12);
        }
    }
}
END_TEST

START_TEST(plane_cylinder_random)
{
    tc_seed(4);
    double ps[3] = {0, 0, 0};
    for (int it = 0; it < NRAND; it++) {
        cs_pose pl, cy;
        random_plane(&pl);
        double n[3], ax[3];
        tc_col(pl.mat, 2, n);
        double s[3] = {tc_uni(0.05, 0.5), tc_uni(0.05, 1), 0};
        double margin = 0.05;
        tc_randrot(cy.mat);
        tc_col(cy.mat, 2, ax);
        double an = fabs(tc_dot(ax, n));
        double low = s[1] * an + s[0] * sqrt(fmax(0, 1 - an * an));
        double h = low + height_offset(it, s[0], margin);
        for (int i = 0; i < 3; i++)
            cy.pos[i] = pl.pos[i] + h * n[i];
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_CYLINDER, s, &cy, margin, c);
        double dist = h - low;
        CK_COUNT(nc, dist, margin);
        ck_assert_int_le(nc, 4);
        if (!nc || dist > margin)
            continue;
        ck_assert_double_eq_tol(c[0].dist, dist, 1e-12);
        for (int k = 0; k < nc; k++) {
            ck_assert(c[k].dist >= dist - 1e-12 && c[k].dist <= margin);
            /* the point minus half the distance is on a cap rim */
            double q[3], d[3];
            for (int i = 0; i < 3; i++)
                q[i] = c[k].pos[i] + 0.5 * c[k].dist * n[i];
            for (int i = 0; i < 3; i++)
                d[i] = q[i] - cy.pos[i];
            double z = tc_dot(d, ax), rad[3];
            for (int i = 0; i < 3; i++)
                rad[i] = d[i] - z * ax[i];
            ck_assert_double_eq_tol(fabs(z), s[1], 1e-12);
            ck_assert_double_eq_tol(tc_norm(rad), s[0], 1e-12);
        }
    }
}
END_TEST

START_TEST(plane_ellipsoid_random)
{
    tc_seed(5);
    double ps[3] = {0, 0, 0};
    for (int it = 0; it < NRAND; it++) {
        cs_pose pl, el;
        random_plane(&pl);
        double n[3];
        tc_col(pl.mat, 2, n);
        double s[3] = {tc_uni(0.05, 1), tc_uni(0.05, 1), tc_uni(0.05, 1)};
        double margin = 0.05;
        tc_randrot(el.mat);
        double low = 0;
        for (int k = 0; k < 3; k++) {
            double a[3];
            tc_col(el.mat, k, a);
            low += pow(s[k] * tc_dot(a, n), 2);
        }
        low = sqrt(low);
        double h = low + height_offset(it, 0.3, margin);
        for (int i = 0; i < 3; i++)
            el.pos[i] = pl.pos[i] + h * n[i];
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_ELLIPSOID, s, &el, margin, c);
        double dist = h - low;
        CK_COUNT(nc, dist, margin);
        if (!nc || dist > margin)
            continue;
        ck_assert_double_eq_tol(c[0].dist, dist, 1e-12);
        /* the surface point lies on the ellipsoid */
        double q[3], d[3], l[3], e = 0;
        for (int i = 0; i < 3; i++)
            q[i] = c[0].pos[i] + 0.5 * dist * n[i];
        for (int i = 0; i < 3; i++)
            d[i] = q[i] - el.pos[i];
        for (int k = 0; k < 3; k++) {
            l[k] = el.mat[k] * d[0] + el.mat[3 + k] * d[1] + el.mat[6 + k] * d[2];
            e += l[k] * l[k] / (s[k] * s[k]);
        }
        ck_assert_double_eq_tol(e, 1, 1e-10);
    }
}
END_TEST

/* --- sphere and capsule pairs ---------------------------------------------------- */

START_TEST(sphere_sphere_random)
{
    tc_seed(6);
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double r1 = tc_uni(0.05, 1), r2 = tc_uni(0.05, 1), margin = 0.1;
        double u[3] = {tc_gauss(), tc_gauss(), tc_gauss()}, ul = tc_norm(u);
        double L = r1 + r2 + height_offset(it, fmin(r1, r2), margin);
        tc_pose(&a, tc_uni(-1, 1), tc_uni(-1, 1), tc_uni(-1, 1), NULL);
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        for (int i = 0; i < 3; i++)
            b.pos[i] = a.pos[i] + L * u[i] / ul;
        double s1[3] = {r1}, s2[3] = {r2};
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_SPHERE, s1, &a, CS_GEOM_SPHERE, s2, &b, margin, c);
        double dist = L - r1 - r2;
        CK_COUNT(nc, dist, margin);
        if (!nc || dist > margin)
            continue;
        ck_assert_double_eq_tol(c[0].dist, dist, 1e-12);
        for (int i = 0; i < 3; i++) {
            ck_assert_double_eq_tol(c[0].frame[i], u[i] / ul, 1e-12);
            ck_assert_double_eq_tol(c[0].pos[i], a.pos[i] + u[i] / ul * (r1 + dist / 2), 1e-12);
        }
    }
}
END_TEST

typedef struct {
    const double *c, *p, *u; /* point c, segment p + t u */
} pt_seg;
static double f_pt_seg(double t, const void *v)
{
    const pt_seg *q = v;
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = q->c[i] - q->p[i] - t * q->u[i];
    return tc_norm(d);
}

START_TEST(sphere_capsule_random)
{
    tc_seed(7);
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double r1 = tc_uni(0.05, 0.5), s2[3] = {tc_uni(0.05, 0.5), tc_uni(0.1, 1), 0};
        double margin = 0.1;
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        tc_pose(&b, 0, 0, 0, b.mat);
        double ax[3], u[3];
        tc_col(b.mat, 2, ax);
        for (int i = 0; i < 3; i++)
            u[i] = ax[i] * s2[1];
        /* a random point of the axis (or beyond its end), then out along a random
         * direction orthogonal to it (or any, beyond the end) */
        double t = tc_uni(-1.4, 1.4), dir[3] = {tc_gauss(), tc_gauss(), tc_gauss()};
        if (fabs(t) <= 1) {
            double dn = tc_dot(dir, ax);
            for (int i = 0; i < 3; i++)
                dir[i] -= dn * ax[i];
        } else {
            double sg = t > 0 ? 1 : -1;
            if (tc_dot(dir, ax) * sg < 0)
                for (int i = 0; i < 3; i++)
                    dir[i] -= 2 * tc_dot(dir, ax) * ax[i];
            t = sg;
        }
        double dl = tc_norm(dir);
        double L = r1 + s2[0] + height_offset(it, fmin(r1, s2[0]), margin);
        if (L < 1e-3)
            L = 1e-3;
        for (int i = 0; i < 3; i++)
            a.pos[i] = t * u[i] + L * dir[i] / dl;
        double s1[3] = {r1};
        pt_seg q = {a.pos, b.pos, u};
        double ref = tc_minimize(f_pt_seg, &q, NULL) - r1 - s2[0];
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_SPHERE, s1, &a, CS_GEOM_CAPSULE, s2, &b, margin, c);
        CK_COUNT(nc, ref, margin);
        if (nc)
            ck_assert_double_eq_tol(c[0].dist, ref, 1e-9);
    }
}
END_TEST

typedef struct {
    const double *p1, *u1, *p2, *u2;
} seg_seg;
static double f_seg_seg(double s, const void *v)
{
    const seg_seg *q = v;
    double c[3];
    for (int i = 0; i < 3; i++)
        c[i] = q->p1[i] + s * q->u1[i];
    pt_seg ps = {c, q->p2, q->u2};
    return tc_minimize(f_pt_seg, &ps, NULL);
}

START_TEST(capsule_capsule_random)
{
    tc_seed(8);
    for (int it = 0; it < NRAND / 2; it++) {
        cs_pose a, b;
        double s1[3] = {tc_uni(0.05, 0.4), tc_uni(0.1, 1), 0};
        double s2[3] = {tc_uni(0.05, 0.4), tc_uni(0.1, 1), 0};
        double margin = 0.1;
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        tc_pose(&a, 0, 0, 0, a.mat);
        for (int i = 0; i < 3; i++)
            b.pos[i] = tc_uni(-1, 1);
        double u1[3], u2[3];
        tc_col(a.mat, 2, u1);
        tc_col(b.mat, 2, u2);
        for (int i = 0; i < 3; i++) {
            u1[i] *= s1[1];
            u2[i] *= s2[1];
        }
        seg_seg q = {a.pos, u1, b.pos, u2};
        double ref = tc_minimize(f_seg_seg, &q, NULL) - s1[0] - s2[0];
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_CAPSULE, s2, &b, margin, c);
        CK_COUNT(nc, ref, margin);
        if (nc)
            ck_assert_double_eq_tol(c[deepest(c, nc)].dist, ref, 1e-9);
    }
}
END_TEST

START_TEST(capsule_capsule_parallel)
{
    /* two parallel capsules side by side: two points at the overlap ends */
    double s1[3] = {0.1, 0.5, 0}, s2[3] = {0.1, 0.3, 0}, R[9], x[3] = {1, 0, 0};
    tc_axisangle(x, TC_PI / 2, R); /* capsule axis along -y */
    cs_pose a, b;
    tc_pose(&a, 0, 0, 0, R);
    tc_pose(&b, 0, 0.4, 0.19, R); /* overlap on y in [0.1, 0.5]; penetration 0.01 */
    cs_geom_contact c[CS_MAXCONPAIR];
    int nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_CAPSULE, s2, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    double ys[2] = {c[0].pos[1], c[1].pos[1]};
    ck_assert_double_eq_tol(fmin(ys[0], ys[1]), 0.1, 1e-12);
    ck_assert_double_eq_tol(fmax(ys[0], ys[1]), 0.5, 1e-12);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.01, 1e-12);
        ck_assert_double_eq_tol(c[k].frame[2], 1, 1e-12);
    }
}
END_TEST

START_TEST(sphere_box_random)
{
    tc_seed(9);
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double r = tc_uni(0.05, 0.5), s[3] = {tc_uni(0.1, 1), tc_uni(0.1, 1), tc_uni(0.1, 1)};
        double margin = 0.1;
        tc_randrot(b.mat);
        tc_pose(&b, 0, 0, 0, b.mat);
        tc_randrot(a.mat);
        for (int i = 0; i < 3; i++)
            a.pos[i] = tc_uni(-1.5, 1.5);
        double ref = tc_box_sdf(s, &b, a.pos) - r;
        double s1[3] = {r};
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_SPHERE, s1, &a, CS_GEOM_BOX, s, &b, margin, c);
        CK_COUNT(nc, ref, margin);
        if (!nc)
            continue;
        ck_assert_double_eq_tol(c[0].dist, ref, 1e-12);
        /* the sphere's surface point along n is at distance dist from the box, on the
         * box side; the contact point is midway */
        double q[3];
        for (int i = 0; i < 3; i++)
            q[i] = c[0].pos[i] + 0.5 * c[0].dist * c[0].frame[i];
        ck_assert(fabs(tc_box_sdf(s, &b, q)) < 1e-12);
    }
}
END_TEST

/* exact signed distance from x to a cylinder (radius r, half-length h) */
static double cyl_sdf(double r, double h, const cs_pose *p, const double x[3])
{
    double d[3] = {x[0] - p->pos[0], x[1] - p->pos[1], x[2] - p->pos[2]}, ax[3];
    tc_col(p->mat, 2, ax);
    double z = tc_dot(d, ax), rr[3];
    for (int i = 0; i < 3; i++)
        rr[i] = d[i] - z * ax[i];
    double da = fabs(z) - h, dr = tc_norm(rr) - r;
    double o = hypot(fmax(da, 0), fmax(dr, 0));
    return o + fmin(fmax(da, dr), 0);
}

START_TEST(sphere_cylinder_random)
{
    tc_seed(15);
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double R = tc_uni(0.05, 0.4), s[3] = {tc_uni(0.1, 0.6), tc_uni(0.1, 0.6), 0};
        double margin = 0.1;
        tc_randrot(b.mat);
        tc_pose(&b, 0, 0, 0, b.mat);
        tc_randrot(a.mat);
        for (int i = 0; i < 3; i++)
            a.pos[i] = tc_uni(-1.2, 1.2);
        double ref = cyl_sdf(s[0], s[1], &b, a.pos) - R;
        double s1[3] = {R};
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_SPHERE, s1, &a, CS_GEOM_CYLINDER, s, &b, margin, c);
        CK_COUNT(nc, ref, margin);
        if (!nc)
            continue;
        ck_assert_double_eq_tol(c[0].dist, ref, 1e-12);
        /* the cylinder surface point is at +dist/2 along n from the contact point */
        double q[3];
        for (int i = 0; i < 3; i++)
            q[i] = c[0].pos[i] + 0.5 * c[0].dist * c[0].frame[i];
        ck_assert(fabs(cyl_sdf(s[0], s[1], &b, q)) < 1e-12);
        /* and the support-function path agrees */
        cs_geom_contact g[CS_MAXCONPAIR];
        int ng = ccd_pair(CS_GEOM_SPHERE, s1, &a, CS_GEOM_CYLINDER, s, &b, margin, g, 0);
        if (ref < margin - 1e-6) {
            ck_assert_int_eq(ng, 1);
            /* the centre outside: its distance to the cylinder, exact; inside: EPA's depth,
             * a lower bound (its polytope lies within the shapes' difference) that can stop
             * at its iteration cap before its tolerance */
            if (ref > -R)
                ck_assert_double_eq_tol(g[0].dist, ref, 1e-6);
            else
                ck_assert(g[0].dist >= ref - 1e-9 && g[0].dist < 0);
        }
    }
}
END_TEST

typedef struct {
    const double *p, *u, *s;
    const cs_pose *box;
} seg_box;
static double f_seg_box(double t, const void *v)
{
    const seg_box *q = v;
    double x[3];
    for (int i = 0; i < 3; i++)
        x[i] = q->p[i] + t * q->u[i];
    return tc_box_sdf(q->s, q->box, x);
}

START_TEST(capsule_box_random)
{
    tc_seed(10);
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double s1[3] = {tc_uni(0.05, 0.3), tc_uni(0.1, 1), 0};
        double s[3] = {tc_uni(0.1, 1), tc_uni(0.1, 1), tc_uni(0.1, 1)};
        double margin = 0.1;
        tc_randrot(b.mat);
        tc_pose(&b, 0, 0, 0, b.mat);
        tc_randrot(a.mat);
        for (int i = 0; i < 3; i++)
            a.pos[i] = tc_uni(-1.5, 1.5);
        double u[3];
        tc_col(a.mat, 2, u);
        for (int i = 0; i < 3; i++)
            u[i] *= s1[1];
        seg_box q = {a.pos, u, s, &b};
        double ref = tc_minimize(f_seg_box, &q, NULL) - s1[0];
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_BOX, s, &b, margin, c);
        /* the segment outside the box: the first point is the nearest one, exactly; a
         * segment that enters the box is placed by its nearest feature (MuJoCo's set), never
         * deeper than it is */
        if (ref + s1[0] > 1e-9) {
            CK_COUNT(nc, ref, margin);
            if (nc)
                ck_assert_double_eq_tol(c[0].dist, ref, 1e-9);
        }
        for (int k = 0; k < nc; k++)
            ck_assert(c[k].dist >= ref - 1e-9 && c[k].dist <= margin);
    }
}
END_TEST

START_TEST(capsule_box_lying)
{
    /* a capsule lying on a box face: two points, at the ends over the face */
    double s1[3] = {0.05, 0.3, 0}, s[3] = {1, 1, 0.5}, R[9], y[3] = {0, 1, 0};
    tc_axisangle(y, TC_PI / 2, R); /* axis along x */
    cs_pose a, b;
    tc_pose(&b, 0, 0, 0, NULL);
    tc_pose(&a, 0.2, 0.1, 0.5 + 0.05 - 0.002, R);
    cs_geom_contact c[CS_MAXCONPAIR];
    int nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    double xs[2] = {c[0].pos[0], c[1].pos[0]};
    ck_assert_double_eq_tol(fmin(xs[0], xs[1]), -0.1, 1e-12);
    ck_assert_double_eq_tol(fmax(xs[0], xs[1]), 0.5, 1e-12);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.002, 1e-12);
        ck_assert_double_eq_tol(c[k].frame[2], -1, 1e-12); /* capsule -> box: down */
    }
    /* overhanging the edge: the second point stops at the edge */
    tc_pose(&a, 0.9, 0.1, 0.5 + 0.05 - 0.002, R);
    nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    xs[0] = c[0].pos[0];
    xs[1] = c[1].pos[0];
    ck_assert_double_eq_tol(fmin(xs[0], xs[1]), 0.6, 1e-12);
    ck_assert_double_eq_tol(fmax(xs[0], xs[1]), 1.0, 1e-12);
}
END_TEST

/* Capsule-box point sets against MuJoCo's: the capsule's axis is placed by its nearest feature
 * (an end over a face or inside, an edge, a corner), and a second sphere along the axis by that
 * feature and the axis's lean, kept when within the margin. Each case's numbers are native
 * MuJoCo 3.12.0's (mj_forward on the capsule and the box as two free bodies, d->contact:
 * point, normal from capsule to box, distance), in its order. The box is 0.4 x 0.3 x 0.2 at the
 * origin unless moved; margin 0.02; each capsule sinks 1 mm (3 cm for the end inside). */
typedef struct {
    double r, L, pos[3], quat[4];
    double size[3], bpos[3], bquat[4], margin;
    int n;
    struct {
        double pos[3], normal[3], dist;
    } c[2];
} capsule_box_case;

static const capsule_box_case CAPSULE_BOX_MUJOCO[] = {
    /* over an edge, leaning out and down (edge crossed in an X): the edge point and one
     * over the face */
    {0.02, 0.1, {0.21, 0.03, 0.11834712794410716},
     {0.6819983600624985, 0, 0.7313537016191705, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 2,
     {{{0.19996512176312795, 0.029999999999999999, 0.09950121797487009},
       {-0.069756473744125594, 0, -0.9975640502598242}, -0.0010000000000000078},
      {{0.11024359497401756, 0.029999999999999999, 0.10266138765925986},
       {0, 0, -1}, 0.005322775318519702}}},
    /* across an edge on its diagonal (a T): the edge point only */
    {0.02, 0.1, {0.28410155417630173, 0.03, 0.18410155417630172},
     {0.9237600482099162, -0.019124697336363645, 0.3824939467272728, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 1,
     {{{0.19964644660940672, 0.026466673733312129, 0.099646446609406719},
       {-0.70710678118654802, 0, -0.70710678118654724}, -0.0010000000000000391}}},
    /* from a corner along its edge, rising: the corner and the far end, still over the edge */
    {0.02, 0.1, {0.21530549694715195, 0.07530549694715193, 0.11530549694715193},
     {0.7141382963618758, 0.6996898486997092, 0.02099069546099127, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 2,
     {{{0.19965671992840422, 0.14998243935532785, 0.09963688787378569},
       {-0.68656014319159109, -0.035121289344322411, -0.72622425242863808}, -0.00099999999999999048},
      {{0.20188511459605896, -0.024629566359269869, 0.10178218972171982},
       {-0.72666598271133565, 0, -0.6869909384920363}, 0.005188393679927631}}},
    /* over a corner, across the top face: the corner and one back over the face */
    {0.02, 0.1, {0.19, 0.13, 0.12009240792150314},
     {0.6892250659458447, -0.6274763791203295, 0.362273656395254, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 2,
     {{{0.19995701367014357, 0.14999605843803429, 0.099501866845577672},
       {-0.085972659712926086, -0.0078831239313953156, -0.99626630884466227}, -0.0010000000000000044},
      {{0.14006238305610777, 0.043505510244266216, 0.10254308480794619},
       {0, 0, -1}, 0.005086169615892356}}},
    /* pointing at a corner: the corner only */
    {0.02, 0.1, {0.26870468203356546, 0.21870468203356547, 0.16870468203356548},
     {0.45970084338098305, 0.6279630301995545, -0.6279630301995545, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 1,
     {{{0.19971132486540519, 0.14971132486540517, 0.099711324865405182},
       {-0.57735026918962473, -0.57735026918962629, -0.57735026918962629}, -0.0010000000000000391}}},
    /* resting on the top face, tilted 3 degrees: the low end and the high end */
    {0.03, 0.08, {-0.05, 0.02, 0.13318687649943545},
     {0.7253743710122876, 0, 0.688354575693754, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 2,
     {{{-0.12989036278036592, 0.02, 0.099499999999999977},
       {0, 0, -1}, -0.0010000000000000564},
      {{0.029890362780365914, 0.02, 0.10368687649943548},
       {0, 0, -1}, 0.0073737529988709416}}},
    /* its lower end inside the box: that end only */
    {0.02, 0.1, {0.05, 0.02, 0.18539392014169453},
     {0.1517576992825313, 0, 0.9884177258166067, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 1,
     {{{0.080000000000000016, 0.02, 0.084999999999999992},
       {0, 0, -1}, -0.030000000000000037}}},
    /* along an edge, inside its length: the nearest edge point and the far end */
    {0.02, 0.1, {0.2, 0.1, 0.1205085480771152},
     {0.6964264070984362, -0.7174847355572522, -0.014349694711145045, 0},
     {0.2, 0.15, 0.1}, {0, 0, 0}, {1.0, 0, 0, 0}, 0.02, 2,
     {{{0.19898860512653985, 0.14998500674544715, 0.099500224848238811},
       {0, -0.029986509105670769, -0.99955030352236685}, -0.0010000000000000078},
      {{0.20000000000000001, 0.099999999999999811, 0.10025427403855761},
       {0, 0, -1}, 0.00050854807711519026}}},
    /* the first case with the pair moved and turned: the same points */
    {0.02, 0.1, {0.4963726693931546, -0.06796357480170268, 0.5548652880141908},
     {0.5066033252491746, -0.13857041047051022, 0.8120148630005464, 0.25452539058945967},
     {0.2, 0.15, 0.1}, {0.3, -0.2, 0.5}, {0.9393727128473789, 0.0916432938695913, 0.1832865877391826, 0.2749298816087739}, 0.02, 2,
     {{{0.48108978476017011, -0.072138477611318086, 0.54055198205006805},
       {-0.44830262437702445, 0.032844352717650412, -0.89327823519395744}, -0.00099999999999996966},
      {{0.41220736942246383, -0.12172144787546355, 0.5698210947600868},
       {-0.39473979817379989, 0.071392499417875857, -0.91601506688731749}, 0.0053227753185196465}}},
};

START_TEST(capsule_box_mujoco)
{
    int ncase = (int)(sizeof CAPSULE_BOX_MUJOCO / sizeof CAPSULE_BOX_MUJOCO[0]);
    for (int i = 0; i < ncase; i++) {
        const capsule_box_case *k = &CAPSULE_BOX_MUJOCO[i];
        cs_pose a, b;
        double qa[9], qb[9], s1[3] = {k->r, k->L, 0};
        tc_quat2mat(k->quat, qa);
        tc_quat2mat(k->bquat, qb);
        tc_pose(&a, k->pos[0], k->pos[1], k->pos[2], qa);
        tc_pose(&b, k->bpos[0], k->bpos[1], k->bpos[2], qb);
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_CAPSULE, s1, &a, CS_GEOM_BOX, k->size, &b, k->margin, c);
        ck_assert_msg(nc == k->n, "case %d: %d points, MuJoCo %d", i, nc, k->n);
        for (int j = 0; j < nc; j++) {
            for (int d = 0; d < 3; d++) {
                ck_assert_msg(fabs(c[j].pos[d] - k->c[j].pos[d]) < 1e-12,
                              "case %d point %d: pos[%d] %.17g, MuJoCo %.17g", i, j, d,
                              c[j].pos[d], k->c[j].pos[d]);
                ck_assert_msg(fabs(c[j].frame[d] - k->c[j].normal[d]) < 1e-12,
                              "case %d point %d: normal[%d] %.17g, MuJoCo %.17g", i, j, d,
                              c[j].frame[d], k->c[j].normal[d]);
            }
            ck_assert_msg(fabs(c[j].dist - k->c[j].dist) < 1e-12,
                          "case %d point %d: dist %.17g, MuJoCo %.17g", i, j, c[j].dist,
                          k->c[j].dist);
        }
    }
}
END_TEST

/* --- box-box --------------------------------------------------------------------- */

/* exact penetration depth of two boxes: the least overlap over the 15 SAT axes */
static double sat_depth(const double *sa, const cs_pose *a, const double *sb, const cs_pose *b)
{
    double A[3][3], B[3][3], T[3], best = HUGE_VAL;
    for (int k = 0; k < 3; k++) {
        tc_col(a->mat, k, A[k]);
        tc_col(b->mat, k, B[k]);
        T[k] = b->pos[k] - a->pos[k];
    }
    for (int m = 0; m < 15; m++) {
        double L[3];
        if (m < 3)
            memcpy(L, A[m], sizeof L);
        else if (m < 6)
            memcpy(L, B[m - 3], sizeof L);
        else
            tc_cross(A[(m - 6) / 3], B[(m - 6) % 3], L);
        double l = tc_norm(L);
        if (l < 1e-9)
            continue;
        for (int i = 0; i < 3; i++)
            L[i] /= l;
        double ra = 0, rb = 0;
        for (int k = 0; k < 3; k++) {
            ra += sa[k] * fabs(tc_dot(A[k], L));
            rb += sb[k] * fabs(tc_dot(B[k], L));
        }
        best = fmin(best, ra + rb - fabs(tc_dot(T, L)));
    }
    return best; /* > 0: penetration depth */
}

START_TEST(box_box_random)
{
    tc_seed(12);
    int nface = 0;
    for (int it = 0; it < NRAND; it++) {
        cs_pose a, b;
        double sa[3] = {tc_uni(0.1, 1), tc_uni(0.1, 1), tc_uni(0.1, 1)};
        double sb[3] = {tc_uni(0.1, 1), tc_uni(0.1, 1), tc_uni(0.1, 1)};
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        tc_pose(&a, 0, 0, 0, a.mat);
        for (int i = 0; i < 3; i++)
            b.pos[i] = tc_uni(-1.5, 1.5);
        double depth = sat_depth(sa, &a, sb, &b);
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = collide(CS_GEOM_BOX, sa, &a, CS_GEOM_BOX, sb, &b, 0, c);
        if (depth < 0) { /* separated on some axis */
            ck_assert_int_eq(nc, 0);
            continue;
        }
        if (!nc)
            continue; /* all clipped points outside the face: rare, allowed */
        int k = deepest(c, nc);
        /* no point deeper than the true penetration; and every point lies on both
         * boxes' boundaries within its distance */
        /* face axes are preferred over an edge axis up to 5% more overlap */
        ck_assert(c[k].dist >= -1.05 * depth - 1e-9);
        if (fabs(c[k].dist + depth) < 1e-9)
            nface++;
        for (int m = 0; m < nc; m++) {
            ck_assert(tc_frame_error(c[m].frame) < 1e-12);
            /* the midpoint lies within |dist| of both boxes */
            ck_assert(tc_box_sdf(sa, &a, c[m].pos) <= fabs(c[m].dist) + 1e-9);
            ck_assert(tc_box_sdf(sb, &b, c[m].pos) <= fabs(c[m].dist) + 1e-9);
        }
    }
    /* most overlapping random pairs have their deepest point exactly at the SAT depth */
    ck_assert_int_gt(nface, NRAND / 10);
}
END_TEST

static int count_near(const cs_geom_contact *c, int n, double x, double y, double z, double tol)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        double p[3] = {x, y, z};
        if (tc_dist3(c[k].pos, p) < tol)
            m++;
    }
    return m;
}

START_TEST(box_box_manifolds)
{
    double s[3] = {0.5, 0.5, 0.5}, R[9], z[3] = {0, 0, 1}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0};
    cs_pose a, b;
    cs_geom_contact c[CS_MAXCONPAIR];
    tc_pose(&a, 0, 0, 0, NULL);
    /* flat stack, same size: the 4 corners of the face */
    tc_pose(&b, 0, 0, 1 - 0.001, NULL);
    int nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 4);
    for (int k = 0; k < 4; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-12);
        ck_assert_double_eq_tol(c[k].frame[2], 1, 1e-12);
        ck_assert_double_eq_tol(fabs(c[k].pos[0]), 0.5, 1e-12);
        ck_assert_double_eq_tol(fabs(c[k].pos[1]), 0.5, 1e-12);
        ck_assert_double_eq_tol(c[k].pos[2], 0.5 - 0.0005, 1e-12);
    }
    /* smaller box offset over an edge: the overlap rectangle's corners */
    double sb[3] = {0.2, 0.2, 0.2};
    tc_pose(&b, 0.4, 0, 0.7 - 0.002, NULL);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, sb, &b, 0, c);
    ck_assert_int_eq(nc, 4);
    ck_assert_int_eq(count_near(c, nc, 0.2, 0.2, 0.499, 1e-9), 1);
    ck_assert_int_eq(count_near(c, nc, 0.5, 0.2, 0.499, 1e-9), 1);
    ck_assert_int_eq(count_near(c, nc, 0.2, -0.2, 0.499, 1e-9), 1);
    ck_assert_int_eq(count_near(c, nc, 0.5, -0.2, 0.499, 1e-9), 1);
    /* same size turned 45 degrees about z: an octagon, 8 points */
    tc_axisangle(z, TC_PI / 4, R);
    tc_pose(&b, 0, 0, 1 - 0.001, R);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 8);
    for (int k = 0; k < 8; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-12);
        double rx = fabs(c[k].pos[0]), ry = fabs(c[k].pos[1]);
        /* on the square's boundary and on the turned square's boundary */
        ck_assert(fabs(fmax(rx, ry) - 0.5) < 1e-12);
        ck_assert(fabs((rx + ry) / sqrt(2.0) - 0.5) < 1e-12);
    }
    /* tilted about x: resting on one edge, 2 points */
    tc_axisangle(x, 0.2, R);
    double low = 0.5 * (cos(0.2) + sin(0.2));
    tc_pose(&b, 0, 0, 0.5 + low - 0.001, R);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-9);
        ck_assert_double_eq_tol(fabs(c[k].pos[0]), 0.5, 1e-9);
    }
    /* edge-on cross: a's top edge along y, b's bottom edge along x: one point */
    double Ra[9], Rb[9];
    tc_axisangle(y, TC_PI / 4, Ra);
    tc_axisangle(x, TC_PI / 4, Rb);
    double e = 0.5 * sqrt(2.0);
    tc_pose(&a, 0, 0, 0, Ra);
    tc_pose(&b, 0.05, -0.03, 2 * e - 0.01, Rb);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 1);
    ck_assert_double_eq_tol(c[0].dist, -0.01, 1e-12);
    ck_assert_double_eq_tol(c[0].frame[2], 1, 1e-12);
    ck_assert_double_eq_tol(c[0].pos[0], 0, 1e-12);
    ck_assert_double_eq_tol(c[0].pos[1], -0.03, 1e-12);
    ck_assert_double_eq_tol(c[0].pos[2], e - 0.005, 1e-12);
    /* separated by less than the margin: still the full face manifold */
    tc_pose(&a, 0, 0, 0, NULL);
    tc_pose(&b, 0, 0, 1.003, NULL);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0.01, c);
    ck_assert_int_eq(nc, 4);
    ck_assert_double_eq_tol(c[0].dist, 0.003, 1e-12);
    nc = collide(CS_GEOM_BOX, s, &a, CS_GEOM_BOX, s, &b, 0.002, c);
    ck_assert_int_eq(nc, 0);
}
END_TEST

START_TEST(plane_manifolds)
{
    double ps[3] = {0, 0, 0}, s[3] = {0.3, 0.2, 0.1}, R[9], x[3] = {1, 0, 0};
    cs_pose pl, b;
    cs_geom_contact c[CS_MAXCONPAIR];
    tc_pose(&pl, 0, 0, 0, NULL);
    /* flat: the 4 bottom corners */
    tc_pose(&b, 1, 2, 0.1 - 0.001, NULL);
    int nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 4);
    for (int k = 0; k < 4; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-12);
        ck_assert_double_eq_tol(fabs(c[k].pos[0] - 1), 0.3, 1e-12);
        ck_assert_double_eq_tol(fabs(c[k].pos[1] - 2), 0.2, 1e-12);
        ck_assert_double_eq_tol(c[k].pos[2], -0.0005, 1e-12);
        /* frame: n = +z, t1 = +y, t2 = -x */
        ck_assert_double_eq_tol(c[k].frame[4], 1, 1e-15);
        ck_assert_double_eq_tol(c[k].frame[6], -1, 1e-15);
    }
    /* tilted about x: one edge down (2 points); with a large margin all 4 bottom ones */
    tc_axisangle(x, 0.3, R);
    double low = 0.2 * sin(0.3) + 0.1 * cos(0.3);
    tc_pose(&b, 0, 0, low - 0.001, R);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &b, 1.0, c);
    ck_assert_int_eq(nc, 4);
    /* edge-on at 45 degrees: 2 points */
    tc_axisangle(x, TC_PI / 4, R);
    low = (0.2 + 0.1) / sqrt(2.0);
    tc_pose(&b, 0, 0, low - 0.001, R);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    /* corner down: 1 point */
    double q[4] = {0.88, 0.28, 0.3, 0.2}, qn = 0;
    for (int i = 0; i < 4; i++)
        qn += q[i] * q[i];
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(qn);
    tc_quat2mat(q, R);
    tc_pose(&b, 0, 0, 0, R);
    double lowz = 0;
    for (int k = 0; k < 3; k++)
        lowz += s[k] * fabs(R[6 + k]);
    b.pos[2] = lowz - 0.001;
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_BOX, s, &b, 0, c);
    ck_assert_int_eq(nc, 1);
    ck_assert_double_eq_tol(c[0].dist, -0.001, 1e-12);
    /* cylinder flat on a plane: MuJoCo's triangle of 3 rim points */
    double sc[3] = {0.2, 0.1, 0};
    tc_pose(&b, 0, 0, 0.1 - 0.001, NULL);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_CYLINDER, sc, &b, 0, c);
    ck_assert_int_eq(nc, 3);
    double cen[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-12);
        ck_assert_double_eq_tol(hypot(c[k].pos[0], c[k].pos[1]), 0.2, 1e-12);
        for (int i = 0; i < 3; i++)
            cen[i] += c[k].pos[i] / 3;
    }
    ck_assert(hypot(cen[0], cen[1]) < 1e-12); /* equilateral around the axis */
    /* a capsule lying flat: its two end points */
    double scap[3] = {0.05, 0.4, 0}, y[3] = {0, 1, 0};
    tc_axisangle(y, TC_PI / 2, R);
    tc_pose(&b, 0, 0, 0.05 - 0.001, R);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_CAPSULE, scap, &b, 0, c);
    ck_assert_int_eq(nc, 2);
    ck_assert_double_eq_tol(fabs(c[0].pos[0]), 0.4, 1e-12);
    ck_assert_double_eq_tol(fabs(c[0].frame[3]), 1, 1e-12); /* t1 along the axis */
    /* a capsule standing upright: the axis hint is along n; MuJoCo's frame has t1 = +x */
    tc_pose(&b, 0, 0, 0.4 + 0.05 - 0.001, NULL);
    nc = collide(CS_GEOM_PLANE, ps, &pl, CS_GEOM_CAPSULE, scap, &b, 0, c);
    ck_assert_int_eq(nc, 1);
    ck_assert_double_eq_tol(c[0].frame[3], 1, 1e-15);
    ck_assert_double_eq_tol(c[0].frame[7], 1, 1e-15);
}
END_TEST

/* --- libccd ----------------------------------------------------------------------- */

static int use_mpr = 0; /* run the support-path tests through libccd's MPR */

static int ccd_iters; /* 0: the default iteration cap */
static int ccd_pair(int t1, const double *s1, const cs_pose *p1, int t2, const double *s2,
                    const cs_pose *p2, double margin, cs_geom_contact *out, int multi)
{
    cs_collision_options o;
    cs_collision_options_default(&o);
    o.multiccd = multi;
    o.ccd_mpr = use_mpr;
    if (ccd_iters)
        o.ccd_iterations = ccd_iters;
    cs_shape a = {t1, s1, p1->pos, p1->mat, NULL, NULL, NULL, 0}, b = {t2, s2, p2->pos, p2->mat, NULL, NULL, NULL, 0};
    int n = cs_convex_ccd(&o, &a, &b, margin, out);
    for (int k = 0; k < n; k++)
        cs_make_frame(out[k].frame);
    return n;
}

START_TEST(ccd_agrees_with_analytic)
{
    use_mpr = _i; /* loop test: 0 = EPA, 1 = libccd MPR */
    /* the support-function path (GJK / EPA, normal polished) against the analytic
     * routines: random spheres; spheres, tilted capsules and boxes over a box face */
    tc_seed(13);
    int ncmp = 0;
    for (int it = 0; it < NRAND; it++) {
        int kind = it % 4;
        cs_pose a, b;
        double sa[3], sb[3], margin = 0.05;
        int ta, tb;
        tc_pose(&b, 0, 0, 0, NULL);
        tc_randrot(b.mat);
        double n[3];
        tc_col(b.mat, 2, n);
        double off = tc_uni(-0.04, 0.04);
        if (kind == 0) {
            ta = tb = CS_GEOM_SPHERE;
            sa[0] = tc_uni(0.1, 0.5);
            sb[0] = tc_uni(0.1, 0.5);
            tc_randrot(a.mat);
            for (int i = 0; i < 3; i++)
                a.pos[i] = -n[i] * (sa[0] + sb[0] + off);
        } else {
            tb = CS_GEOM_BOX;
            sb[0] = 1;
            sb[1] = 1;
            sb[2] = 0.3;
            double t1[3], t2[3];
            tc_col(b.mat, 0, t1);
            tc_col(b.mat, 1, t2);
            double u = tc_uni(-0.5, 0.5), v = tc_uni(-0.5, 0.5);
            if (kind == 1) {
                ta = CS_GEOM_SPHERE;
                sa[0] = tc_uni(0.1, 0.3);
                tc_randrot(a.mat);
                for (int i = 0; i < 3; i++)
                    a.pos[i] = n[i] * (0.3 + sa[0] + off) + u * t1[i] + v * t2[i];
            } else if (kind == 2) {
                ta = CS_GEOM_CAPSULE; /* lying tilted: one end lowest */
                sa[0] = 0.1;
                sa[1] = 0.3;
                double Rl[9], Rt[9];
                tc_axisangle(t1, TC_PI / 2 - 0.3, Rl);
                tc_matmul(Rl, b.mat, Rt);
                memcpy(a.mat, Rt, sizeof Rt);
                double ax[3];
                tc_col(a.mat, 2, ax);
                double low = 0.3 * fabs(tc_dot(ax, n)) + 0.1;
                for (int i = 0; i < 3; i++)
                    a.pos[i] = n[i] * (0.3 + low + off) + u * t1[i] + v * t2[i];
            } else {
                ta = CS_GEOM_BOX; /* stacked, turned about n */
                sa[0] = 0.2;
                sa[1] = 0.3;
                sa[2] = 0.1;
                double Rz[9];
                tc_axisangle(n, tc_uni(0, TC_PI), Rz);
                tc_matmul(Rz, b.mat, a.mat);
                for (int i = 0; i < 3; i++)
                    a.pos[i] = n[i] * (0.3 + 0.1 + off) + u * t1[i] + v * t2[i];
            }
        }
        cs_geom_contact c1[CS_MAXCONPAIR], c2[CS_MAXCONPAIR];
        int n1 = collide(ta, sa, &a, tb, sb, &b, margin, c1);
        int n2 = ccd_pair(ta, sa, &a, tb, sb, &b, margin, c2, 0);
        ck_assert_int_eq(n1 > 0, n2 > 0);
        if (!n1)
            continue;
        int k = deepest(c1, n1);
        /* the analytic distance is the exact one (the offset we built in) */
        ck_assert_double_eq_tol(c1[k].dist, off, 1e-12);
        /* (the polish stops at 1e-8 rad steps; at a face's kink that leaves ~1e-7 m) */
        ck_assert_double_eq_tol(c2[0].dist, c1[k].dist, 1e-6);
        ck_assert(tc_dot(c1[k].frame, c2[0].frame) > 1 - 1e-9);
        ncmp++;
    }
    ck_assert_int_gt(ncmp, NRAND / 2);
}
END_TEST

START_TEST(ccd_multipoint_flat)
{
    /* a cylinder standing on a box and a box on a cylinder (libccd-only pairs): several
     * points spread over the flat patch, all at the true depth */
    double scyl[3] = {0.2, 0.15, 0}, sbox[3] = {0.5, 0.5, 0.1};
    cs_pose cy, bx;
    cs_geom_contact c[CS_MAXCONPAIR];
    tc_pose(&bx, 0, 0, 0, NULL);
    tc_pose(&cy, 0.1, 0, 0.1 + 0.15 - 0.002, NULL);
    int nc = cs_collide_pair(NULL, CS_GEOM_CYLINDER, scyl, &cy, CS_GEOM_BOX, sbox, &bx, 0, c);
    ck_assert_int_ge(nc, 3);
    double span = 0;
    for (int k = 0; k < nc; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.002, 1e-5);
        ck_assert_double_eq_tol(c[k].frame[2], -1, 1e-6); /* cylinder -> box: down */
        ck_assert(hypot(c[k].pos[0] - 0.1, c[k].pos[1]) <= 0.2 + 1e-6);
        for (int m = 0; m < k; m++)
            span = fmax(span, tc_dist3(c[k].pos, c[m].pos));
    }
    ck_assert(span > 0.2); /* spread across the cap, not one spot */
    /* without multiccd: a single point */
    nc = ccd_pair(CS_GEOM_CYLINDER, scyl, &cy, CS_GEOM_BOX, sbox, &bx, 0, c, 0);
    ck_assert_int_eq(nc, 1);
    /* a cylinder on its side on a box: a line contact, points along the axis */
    double R[9], x[3] = {1, 0, 0};
    tc_axisangle(x, TC_PI / 2, R);
    tc_pose(&cy, 0, 0, 0.1 + 0.2 - 0.002, R);
    nc = cs_collide_pair(NULL, CS_GEOM_CYLINDER, scyl, &cy, CS_GEOM_BOX, sbox, &bx, 0, c);
    ck_assert_int_ge(nc, 2);
    double ymin = 1, ymax = -1;
    for (int k = 0; k < nc; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.002, 1e-5);
        ymin = fmin(ymin, c[k].pos[1]);
        ymax = fmax(ymax, c[k].pos[1]);
    }
    ck_assert(ymax - ymin > 0.2);
    /* a cylinder standing on a cylinder, and a box lying on a cylinder's cap */
    cs_pose c2;
    double sbig[3] = {0.3, 0.1, 0};
    tc_pose(&c2, 0, 0, 0, NULL);
    tc_pose(&cy, 0.05, 0.02, 0.1 + 0.15 - 0.001, NULL);
    nc = cs_collide_pair(NULL, CS_GEOM_CYLINDER, sbig, &c2, CS_GEOM_CYLINDER, scyl, &cy, 0, c);
    ck_assert_int_ge(nc, 3);
    for (int k = 0; k < nc; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-5);
        ck_assert_double_eq_tol(c[k].frame[2], 1, 1e-6);
    }
    double sb2[3] = {0.1, 0.15, 0.05};
    tc_pose(&bx, 0, 0, 0.1 + 0.05 - 0.001, NULL);
    nc = cs_collide_pair(NULL, CS_GEOM_CYLINDER, sbig, &c2, CS_GEOM_BOX, sb2, &bx, 0, c);
    ck_assert_int_ge(nc, 3);
    span = 0;
    for (int k = 0; k < nc; k++) {
        ck_assert_double_eq_tol(c[k].dist, -0.001, 1e-5);
        for (int m = 0; m < k; m++)
            span = fmax(span, tc_dist3(c[k].pos, c[m].pos));
    }
    ck_assert(span > 0.15);
}
END_TEST

/* overlap along unit n: min over B - A of n.x */
static double sep_n(int t1, const double *s1, const cs_pose *p1, int t2, const double *s2,
                    const cs_pose *p2, const double n[3])
{
    cs_shape a = {t1, s1, p1->pos, p1->mat, NULL, NULL, NULL, 0}, b = {t2, s2, p2->pos, p2->mat, NULL, NULL, NULL, 0};
    double nn[3] = {-n[0], -n[1], -n[2]}, x[3], y[3];
    cs_support(&a, n, x);
    cs_support(&b, nn, y);
    return tc_dot(n, y) - tc_dot(n, x);
}

/* the support-function path finds the global least-overlap direction: its distance is at
 * least the best of a 1-degree grid over the sphere (which bounds the true one below) */
START_TEST(ccd_global_penetration)
{
    tc_seed(16);
    ccd_iters = 100; /* room for EPA to converge on deep round pairs */
    int types[5] = {CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID, CS_GEOM_CYLINDER,
                    CS_GEOM_BOX};
    int tested = 0;
    for (int it = 0; it < 24; it++) {
        int t1 = types[it % 5], t2 = types[2 + (it / 5) % 3];
        if (t1 > t2) {
            int t = t1;
            t1 = t2;
            t2 = t;
        }
        double s1[3] = {tc_uni(0.1, 0.4), tc_uni(0.1, 0.4), tc_uni(0.1, 0.4)};
        double s2[3] = {tc_uni(0.1, 0.4), tc_uni(0.1, 0.4), tc_uni(0.1, 0.4)};
        cs_pose a, b;
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        tc_pose(&a, 0, 0, 0, a.mat);
        for (int i = 0; i < 3; i++)
            b.pos[i] = tc_uni(-0.25, 0.25);
        cs_geom_contact c[CS_MAXCONPAIR];
        int nc = ccd_pair(t1, s1, &a, t2, s2, &b, 0, c, 0);
        double grid = -HUGE_VAL;
        for (int i = 0; i < 180; i++)
            for (int j = 0; j < 360; j++) {
                double th = TC_PI * (i + 0.5) / 180, ph = 2 * TC_PI * j / 360;
                double n[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
                grid = fmax(grid, sep_n(t1, s1, &a, t2, s2, &b, n));
            }
        if (grid > 0)
            continue; /* apart after all */
        ck_assert_int_eq(nc, 1);
        ck_assert(c[0].dist >= grid - 1e-9);
        ck_assert(c[0].dist <= grid + 0.02);
        /* EPA's depth is a lower bound of the overlap along any direction, the reported
         * normal's too */
        double sn = sep_n(t1, s1, &a, t2, s2, &b, c[0].frame);
        ck_assert(sn <= c[0].dist + 1e-12);
        ck_assert(sn >= c[0].dist - 0.02);
        tested++;
    }
    ck_assert_int_ge(tested, 18);
}
END_TEST

/* EPA (native collider) is within its tolerance of the exact depth */
START_TEST(ccd_no_polish)
{
    tc_seed(17);
    cs_collision_options o;
    cs_collision_options_default(&o);
    o.multiccd = 0;
    o.ccd_iterations = 100; /* room for EPA to reach its tolerance on round shapes */
    for (int it = 0; it < 50; it++) {
        double r1 = tc_uni(0.1, 0.4), r2 = tc_uni(0.1, 0.4);
        double s1[3] = {r1, r1, r1}, s2[3] = {r2, r2, r2}; /* ellipsoids that are spheres */
        cs_pose a, b;
        tc_randrot(a.mat);
        tc_randrot(b.mat);
        tc_pose(&a, 0, 0, 0, a.mat);
        double u[3] = {tc_gauss(), tc_gauss(), tc_gauss()}, ul = tc_norm(u);
        double L = (r1 + r2) * tc_uni(0.5, 0.99);
        for (int i = 0; i < 3; i++)
            b.pos[i] = L * u[i] / ul;
        cs_shape A = {CS_GEOM_ELLIPSOID, s1, a.pos, a.mat, NULL, NULL, NULL, 0},
                 B = {CS_GEOM_ELLIPSOID, s2, b.pos, b.mat, NULL, NULL, NULL, 0};
        cs_geom_contact c[CS_MAXCONPAIR];
        int n = cs_convex_ccd(&o, &A, &B, 0, c);
        ck_assert_int_eq(n, 1);
        double scale = fmax(r1, r2);
        /* EPA's polytope lies inside the shapes' difference: its depth is a lower bound,
         * short by less than the tolerance */
        ck_assert(c[0].dist >= L - r1 - r2 - 1e-12);
        ck_assert(c[0].dist - (L - r1 - r2) < o.ccd_tolerance);
        (void)scale;
        ck_assert(tc_dot(c[0].frame, u) / ul > 1 - 1e-5);
    }
}
END_TEST

/* every pair type: moving geom2 along the normal by +delta increases the distance by
 * delta, i.e. the normal points from geom1 to geom2 */
START_TEST(normal_direction_all_pairs)
{
    tc_seed(14);
    int types[6] = {CS_GEOM_PLANE, CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID,
                    CS_GEOM_CYLINDER, CS_GEOM_BOX};
    int tested = 0;
    for (int i = 0; i < 6; i++)
        for (int j = i; j < 6; j++) {
            int t1 = types[i], t2 = types[j];
            if (t1 == CS_GEOM_PLANE && t2 == CS_GEOM_PLANE)
                continue;
            for (int rep = 0; rep < 10; rep++) {
                double s1[3] = {tc_uni(0.2, 0.4), tc_uni(0.2, 0.4), tc_uni(0.2, 0.4)};
                double s2[3] = {tc_uni(0.2, 0.4), tc_uni(0.2, 0.4), tc_uni(0.2, 0.4)};
                cs_pose a, b;
                tc_randrot(a.mat);
                tc_randrot(b.mat);
                tc_pose(&a, 0, 0, 0, a.mat);
                double u[3] = {tc_gauss(), tc_gauss(), tc_gauss()}, ul = tc_norm(u);
                if (t1 == CS_GEOM_PLANE) {
                    tc_col(a.mat, 2, u);
                    ul = 1;
                }
                /* start apart along u, then approach until touching, then push in */
                double L = 3;
                cs_geom_contact c[CS_MAXCONPAIR];
                int nc = 0;
                for (int step = 0; step < 400 && !nc; step++) {
                    L -= 0.01;
                    for (int k = 0; k < 3; k++)
                        b.pos[k] = L * u[k] / ul;
                    nc = cs_collide_pair(NULL, t1, s1, &a, t2, s2, &b, 0, c);
                }
                ck_assert_int_gt(nc, 0);
                L -= 0.02;
                for (int k = 0; k < 3; k++)
                    b.pos[k] = L * u[k] / ul;
                nc = cs_collide_pair(NULL, t1, s1, &a, t2, s2, &b, 0, c);
                ck_assert_int_gt(nc, 0);
                int k0 = deepest(c, nc);
                double d0 = c[k0].dist, n[3] = {c[k0].frame[0], c[k0].frame[1], c[k0].frame[2]};
                ck_assert(tc_frame_error(c[k0].frame) < 1e-12);
                const double delta = 1e-3;
                cs_pose b2 = b;
                for (int k = 0; k < 3; k++)
                    b2.pos[k] += delta * n[k];
                cs_geom_contact c2[CS_MAXCONPAIR];
                int n2 = cs_collide_pair(NULL, t1, s1, &a, t2, s2, &b2, 0, c2);
                ck_assert_int_gt(n2, 0);
                double d1 = c2[deepest(c2, n2)].dist;
                if (fabs(d1 - d0 - delta) > 0.3 * delta)
                    fprintf(stderr, "types %d %d: d0 %g d1 %g\n", t1, t2, d0, d1);
                ck_assert(fabs(d1 - d0 - delta) <= 0.3 * delta);
                tested++;
            }
        }
    ck_assert_int_eq(tested, 200);
}
END_TEST

Suite *collision_pairs_suite(void)
{
    Suite *s = suite_create("collision-pairs");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, frame_default_rule);
    tcase_add_test(t, frame_flip);
    tcase_add_test(t, plane_sphere_random);
    tcase_add_test(t, plane_box_random);
    tcase_add_test(t, plane_capsule_random);
    tcase_add_test(t, plane_cylinder_random);
    tcase_add_test(t, plane_ellipsoid_random);
    tcase_add_test(t, sphere_sphere_random);
    tcase_add_test(t, sphere_capsule_random);
    tcase_add_test(t, capsule_capsule_random);
    tcase_add_test(t, capsule_capsule_parallel);
    tcase_add_test(t, sphere_box_random);
    tcase_add_test(t, sphere_cylinder_random);
    tcase_add_test(t, capsule_box_random);
    tcase_add_test(t, capsule_box_lying);
    tcase_add_test(t, capsule_box_mujoco);
    tcase_add_test(t, box_box_random);
    tcase_add_test(t, box_box_manifolds);
    tcase_add_test(t, plane_manifolds);
    tcase_add_loop_test(t, ccd_agrees_with_analytic, 0, 2);
    tcase_add_test(t, ccd_multipoint_flat);
    tcase_add_test(t, ccd_global_penetration);
    tcase_add_test(t, ccd_no_polish);
    tcase_add_test(t, normal_direction_all_pairs);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(collision_pairs_suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
