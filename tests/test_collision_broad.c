/* Broad phase, MuJoCo's filters, explicit pairs, parameter mixing, the detect driver. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "collision.h"
#include "test_collision_util.h"

#include "alloc_count.h"

static cs_collision_geom mkgeom(int type, double s0, double s1, double s2, int body, int weld,
                                int weldparent)
{
    cs_collision_geom g;
    memset(&g, 0, sizeof g);
    g.type = type;
    g.size[0] = s0;
    g.size[1] = s1;
    g.size[2] = s2;
    g.body = body;
    g.weldbody = weld;
    g.weldparent = weldparent;
    g.contype = g.conaffinity = 1;
    g.condim = 3;
    g.solmix = 1;
    g.friction[0] = 1;
    g.friction[1] = 0.005;
    g.friction[2] = 0.0001;
    g.solref[0] = 0.02;
    g.solref[1] = 1;
    double si[5] = {0.9, 0.95, 0.001, 0.5, 2};
    memcpy(g.solimp, si, sizeof si);
    return g;
}

START_TEST(filters)
{
    cs_collision_geom g[8];
    g[0] = mkgeom(CS_GEOM_PLANE, 0, 0, 1, 0, 0, 0);  /* world */
    g[1] = mkgeom(CS_GEOM_BOX, 1, 1, 1, 0, 0, 0);    /* world */
    g[2] = mkgeom(CS_GEOM_SPHERE, 1, 0, 0, 1, 1, 0); /* body 1, free, child of world */
    g[3] = mkgeom(CS_GEOM_SPHERE, 1, 0, 0, 2, 2, 1); /* body 2, child of body 1 */
    g[4] = mkgeom(CS_GEOM_CAPSULE, 1, 1, 0, 3, 1, 0);/* body 3 welded to body 1 */
    g[5] = mkgeom(CS_GEOM_BOX, 1, 1, 1, 4, 4, 0);    /* body 4 */
    g[6] = mkgeom(CS_GEOM_BOX, 1, 1, 1, 5, 5, 0);    /* body 5 */
    g[7] = mkgeom(CS_GEOM_PLANE, 0, 0, 1, 6, 6, 0);  /* a plane on a moving body */
    g[5].contype = 2;
    g[5].conaffinity = 0;
    g[6].contype = 0;
    g[6].conaffinity = 2;
    cs_collision_exclude ex[1] = {{6, 1}}; /* bodies of geoms 7 and 2 */
    cs_collision_pair pr[1];
    memset(pr, 0, sizeof pr);
    pr[0].geom1 = 3;
    pr[0].geom2 = 2;
    pr[0].condim = 1;
    char err[200];
    cs_collision *c = cs_collision_create(g, 8, NULL, 0, ex, 1, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(cs_collision_filter(c, 0, 1), 0); /* both in the world */
    ck_assert_int_eq(cs_collision_filter(c, 0, 2), 1); /* world vs a child of the world */
    ck_assert_int_eq(cs_collision_filter(c, 2, 3), 0); /* parent-child */
    ck_assert_int_eq(cs_collision_filter(c, 2, 4), 0); /* same weld body */
    ck_assert_int_eq(cs_collision_filter(c, 3, 4), 0); /* child of the weld of 4 */
    ck_assert_int_eq(cs_collision_filter(c, 3, 5), 0); /* 1&0 = 0 and 2&1 = 0 */
    ck_assert_int_eq(cs_collision_filter(c, 5, 6), 1); /* contype 2 & conaffinity 2 */
    ck_assert_int_eq(cs_collision_filter(c, 6, 5), 1);
    ck_assert_int_eq(cs_collision_filter(c, 6, 3), 0); /* 0&1 = 0 and 1&2 = 0 */
    ck_assert_int_eq(cs_collision_filter(c, 0, 7), 0); /* plane-plane never */
    ck_assert_int_eq(cs_collision_filter(c, 7, 3), 1);
    ck_assert_int_eq(cs_collision_filter(c, 7, 2), 0); /* excluded body pair */
    ck_assert_int_eq(cs_collision_filter(c, 2, 7), 0);
    ck_assert_int_eq(cs_collision_filter(c, 2, 2), 0);
    cs_collision_free(c);
    /* parent filter off */
    cs_collision_options o;
    cs_collision_options_default(&o);
    o.filterparent = 0;
    c = cs_collision_create(g, 8, NULL, 0, ex, 1, &o, err, sizeof err);
    ck_assert_int_eq(cs_collision_filter(c, 2, 3), 1);
    ck_assert_int_eq(cs_collision_filter(c, 2, 4), 0); /* welds still never collide */
    cs_collision_free(c);
    /* an explicit pair replaces the automatic contact of its two geoms */
    g[3].weldparent = 0; /* make 2-3 automatically allowed */
    c = cs_collision_create(g, 8, pr, 1, ex, 1, NULL, err, sizeof err);
    ck_assert_int_eq(cs_collision_filter(c, 2, 3), 0);
    ck_assert_int_eq(cs_collision_filter(c, 3, 2), 0);
    cs_collision_free(c);
}
END_TEST

START_TEST(create_errors)
{
    cs_collision_geom g[2];
    g[0] = mkgeom(CS_GEOM_SPHERE, 1, 0, 0, 1, 1, 0);
    g[1] = mkgeom(CS_GEOM_HFIELD, 1, 1, 1, 0, 0, 0);
    char err[200] = "";
    ck_assert_ptr_null(cs_collision_create(g, 2, NULL, 0, NULL, 0, NULL, err, sizeof err));
    ck_assert(strstr(err, "geom 1") != NULL);
    g[1] = mkgeom(CS_GEOM_BOX, 1, 1, 1, 0, 0, 0);
    g[1].condim = 2;
    ck_assert_ptr_null(cs_collision_create(g, 2, NULL, 0, NULL, 0, NULL, err, sizeof err));
    ck_assert(strstr(err, "condim") != NULL);
    g[1].condim = 3;
    cs_collision_pair p;
    memset(&p, 0, sizeof p);
    p.geom1 = 0;
    p.geom2 = 5;
    p.condim = 3;
    ck_assert_ptr_null(cs_collision_create(g, 2, &p, 1, NULL, 0, NULL, err, sizeof err));
    ck_assert(strstr(err, "pair 0") != NULL);
}
END_TEST

START_TEST(mixing)
{
    cs_collision_geom a = mkgeom(CS_GEOM_SPHERE, 1, 0, 0, 1, 1, 0);
    cs_collision_geom b = mkgeom(CS_GEOM_SPHERE, 1, 0, 0, 2, 2, 0);
    cs_geom_contact c;
    /* same priority: max condim and friction, solmix-weighted solref and solimp */
    a.condim = 1;
    b.condim = 4;
    a.friction[0] = 0.5;
    b.friction[0] = 0.8;
    a.friction[1] = 0.02;
    b.friction[1] = 0.01;
    a.friction[2] = 0;
    b.friction[2] = 0;
    a.solmix = 1;
    b.solmix = 3;
    a.solref[0] = 0.02;
    b.solref[0] = 0.06;
    a.solimp[0] = 0.8;
    b.solimp[0] = 0.9;
    cs_mix_params(&a, &b, &c);
    ck_assert_int_eq(c.dim, 4);
    ck_assert_double_eq_tol(c.friction[0], 0.8, 1e-15);
    ck_assert_double_eq_tol(c.friction[1], 0.8, 1e-15);
    ck_assert_double_eq_tol(c.friction[2], 0.02, 1e-15);
    ck_assert_double_eq_tol(c.friction[3], CS_MINMU, 1e-20); /* floored */
    ck_assert_double_eq_tol(c.friction[4], CS_MINMU, 1e-20);
    ck_assert_double_eq_tol(c.solref[0], 0.25 * 0.02 + 0.75 * 0.06, 1e-15);
    ck_assert_double_eq_tol(c.solimp[0], 0.25 * 0.8 + 0.75 * 0.9, 1e-15);
    ck_assert_double_eq(c.solreffriction[0], 0);
    /* direct (negative) solref: the smaller per component */
    a.solref[0] = -100;
    a.solref[1] = -5;
    b.solref[0] = -200;
    b.solref[1] = -1;
    cs_mix_params(&a, &b, &c);
    ck_assert_double_eq(c.solref[0], -200);
    ck_assert_double_eq(c.solref[1], -5);
    /* solmix zero on one side: that side gets weight 0 */
    a.solref[0] = 0.02;
    a.solref[1] = 1;
    b.solref[0] = 0.06;
    b.solref[1] = 1;
    a.solmix = 0;
    cs_mix_params(&a, &b, &c);
    ck_assert_double_eq_tol(c.solref[0], 0.06, 1e-15);
    a.solmix = b.solmix = 0;
    cs_mix_params(&a, &b, &c);
    ck_assert_double_eq_tol(c.solref[0], 0.04, 1e-15);
    /* higher priority wins everything */
    a.priority = 1;
    cs_mix_params(&a, &b, &c);
    ck_assert_int_eq(c.dim, 1);
    ck_assert_double_eq(c.friction[0], 0.5);
    ck_assert_double_eq(c.solref[0], 0.02);
    ck_assert_double_eq(c.solimp[0], 0.8);
    b.priority = 2;
    cs_mix_params(&a, &b, &c);
    ck_assert_int_eq(c.dim, 4);
    ck_assert_double_eq(c.friction[0], 0.8);
}
END_TEST

START_TEST(detect_order_params_pairs)
{
    /* sphere (index 0) resting on a plane (index 1): geom1 is the plane (lower type) */
    cs_collision_geom g[3];
    g[0] = mkgeom(CS_GEOM_SPHERE, 0.1, 0, 0, 1, 1, 0);
    g[1] = mkgeom(CS_GEOM_PLANE, 0, 0, 1, 0, 0, 0);
    g[2] = mkgeom(CS_GEOM_BOX, 0.1, 0.1, 0.1, 1, 1, 0); /* same body as the sphere */
    g[0].margin = 0.01;
    g[1].margin = 0.02;
    g[0].gap = 0.005;
    g[2].gap = 0.01;
    cs_pose p[3];
    tc_pose(&p[0], 0, 0, 0.1 - 0.001, NULL);
    tc_pose(&p[1], 0, 0, 0, NULL);
    tc_pose(&p[2], 5, 0, 0.1 + 0.025, NULL); /* above the plane, in the gap beyond the margin */
    char err[200];
    cs_collision *c = cs_collision_create(g, 3, NULL, 0, NULL, 0, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    cs_geom_contact con[16];
    int dropped = -7;
    int n = cs_collision_detect(c, p, con, 16, &dropped);
    ck_assert_int_eq(dropped, 0);
    ck_assert_int_eq(n, 1 + 4);
    ck_assert_int_eq(con[0].geom1, 1);
    ck_assert_int_eq(con[0].geom2, 0);
    ck_assert_int_eq(con[0].pair, -1);
    ck_assert_double_eq_tol(con[0].dist, -0.001, 1e-12);
    ck_assert_double_eq_tol(con[0].frame[2], 1, 1e-15);
    /* MuJoCo 3.12: the sums of the two geoms' margins and gaps */
    ck_assert_double_eq_tol(con[0].margin, 0.03, 1e-17);
    ck_assert_double_eq(con[0].gap, 0.005);
    ck_assert(cs_contact_active(&con[0])); /* -0.001 < 0.03 */
    ck_assert_int_eq(con[0].dim, 3);
    ck_assert_double_eq_tol(con[0].friction[2], 0.005, 1e-15);
    for (int k = 1; k < 5; k++) {
        ck_assert_int_eq(con[k].geom1, 1);
        ck_assert_int_eq(con[k].geom2, 2);
        ck_assert_double_eq_tol(con[k].dist, 0.025, 1e-12);
        ck_assert_double_eq(con[k].margin, 0.02);
        ck_assert_double_eq(con[k].gap, 0.01);
        /* detected (0.025 <= 0.02 + 0.01), no force: beyond the margin 0.02 */
        ck_assert(!cs_contact_active(&con[k]));
    }
    /* too small an output array: the rest is counted */
    n = cs_collision_detect(c, p, con, 3, &dropped);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(dropped, 2);
    cs_collision_free(c);

    /* an explicit pair between the sphere and the box of the same body (filtered
     * automatically) collides, with its own parameters, in MuJoCo's type order */
    tc_pose(&p[2], 0.15, 0, 0.1, NULL);
    cs_collision_pair pr;
    memset(&pr, 0, sizeof pr);
    pr.geom1 = 2; /* box first as written; the sphere has the lower type */
    pr.geom2 = 0;
    pr.condim = 6;
    double fr[5] = {0.8, 0.4, 0.01, 0, 0.002};
    memcpy(pr.friction, fr, sizeof fr);
    pr.solref[0] = 0.05;
    pr.solref[1] = 0.5;
    pr.solreffriction[0] = 0.03;
    pr.solreffriction[1] = 2;
    pr.solimp[0] = 0.7;
    pr.margin = 0.1;
    pr.gap = 0.01;
    c = cs_collision_create(g, 3, &pr, 1, NULL, 0, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    n = cs_collision_detect(c, p, con, 16, &dropped);
    int found = 0;
    for (int k = 0; k < n; k++) {
        if (con[k].pair != 0)
            continue;
        found++;
        ck_assert_int_eq(con[k].geom1, 0);
        ck_assert_int_eq(con[k].geom2, 2);
        ck_assert_int_eq(con[k].dim, 6);
        ck_assert_double_eq(con[k].friction[1], 0.4);
        ck_assert_double_eq(con[k].friction[3], CS_MINMU);
        ck_assert_double_eq(con[k].solref[0], 0.05);
        ck_assert_double_eq(con[k].solreffriction[1], 2);
        ck_assert_double_eq(con[k].solimp[0], 0.7);
        ck_assert_double_eq(con[k].margin, 0.1);
        ck_assert_double_eq(con[k].gap, 0.01);
        ck_assert_double_eq_tol(con[k].dist, -0.05, 1e-12);
        ck_assert_double_eq_tol(con[k].frame[0], 1, 1e-12); /* sphere -> box: +x */
    }
    ck_assert_int_eq(found, 1);
    /* the pair also works when the broad phase has no candidate for it: far apart
     * beyond the pair margin gives nothing, within it a contact */
    tc_pose(&p[2], 0.35, 0, 0.1, NULL); /* gap between surfaces 0.15 > 0.1 */
    n = cs_collision_detect(c, p, con, 16, &dropped);
    for (int k = 0; k < n; k++)
        ck_assert_int_ne(con[k].pair, 0);
    tc_pose(&p[2], 0.28, 0, 0.1, NULL); /* 0.08 < 0.1 */
    n = cs_collision_detect(c, p, con, 16, &dropped);
    found = 0;
    for (int k = 0; k < n; k++)
        if (con[k].pair == 0) {
            found++;
            ck_assert_double_eq_tol(con[k].dist, 0.08, 1e-12);
        }
    ck_assert_int_eq(found, 1);
    cs_collision_free(c);
}
END_TEST

/* plane predicate of the broad phase, stated independently: the lowest point of the
 * geom's margin-inflated AABB along the plane normal is within the plane's margin */
static int plane_near(const cs_pose *pp, double pmargin, const double lo[3], const double hi[3])
{
    double low = 0;
    for (int i = 0; i < 3; i++) {
        double n = pp->mat[3 * i + 2];
        low += n * ((n > 0 ? lo[i] : hi[i]) - pp->pos[i]);
    }
    return low <= pmargin + 1e-12;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void broad_scene(double sx, double sy, uint64_t seed)
{
    enum { NG = 1000, NB = 400 };
    static cs_collision_geom g[NG];
    static cs_pose p[NG];
    static double lo[NG][3], hi[NG][3];
    static int bparent[NB], bweld[NB];
    tc_seed(seed);
    /* a body tree: some bodies welded to their parent */
    bparent[0] = 0;
    bweld[0] = 0;
    for (int b = 1; b < NB; b++) {
        bparent[b] = (b < 20) ? 0 : (int)(tc_rand() * b);
        bweld[b] = (tc_rand() < 0.2) ? bweld[bparent[b]] : b;
    }
    for (int i = 0; i < NG; i++) {
        int type = (i < 4) ? CS_GEOM_PLANE : 2 + (int)(tc_rand() * 5);
        int body = (i < 4) ? 0 : (int)(tc_rand() * NB);
        int weld = bweld[body];
        g[i] = mkgeom(type, tc_uni(0.05, 0.4), tc_uni(0.05, 0.4), tc_uni(0.05, 0.4), body,
                      weld, bweld[bparent[weld]]);
        if (weld == 0)
            g[i].weldparent = 0;
        g[i].contype = 1 + (int)(tc_rand() * 3);
        g[i].conaffinity = (int)(tc_rand() * 4);
        if (i % 50 == 7)
            g[i].contype = g[i].conaffinity = 0; /* visual only */
        g[i].margin = (tc_rand() < 0.3) ? tc_uni(0, 0.1) : 0;
        double m[9];
        tc_randrot(m);
        if (i < 4) { /* mildly tilted planes */
            double u[3] = {tc_uni(-1, 1), tc_uni(-1, 1), 0}, ul = tc_norm(u);
            for (int k = 0; k < 3; k++)
                u[k] /= ul;
            tc_axisangle(u, tc_uni(0, 0.3), m);
        }
        tc_pose(&p[i], sx * tc_uni(0, 12), sy * tc_uni(0, 12), tc_uni(0, 12), m);
        cs_geom_aabb(type, g[i].size, &p[i], g[i].margin, lo[i], hi[i]);
    }
    cs_collision_exclude ex[30];
    for (int k = 0; k < 30; k++) {
        ex[k].body1 = (int)(tc_rand() * NB);
        ex[k].body2 = (int)(tc_rand() * NB);
    }
    cs_collision_pair pr[10];
    memset(pr, 0, sizeof pr);
    for (int k = 0; k < 10; k++) {
        pr[k].geom1 = 4 + (int)(tc_rand() * (NG - 4));
        pr[k].geom2 = (pr[k].geom1 + 1 + (int)(tc_rand() * 5)) % NG;
        pr[k].condim = 3;
    }
    char err[200];
    cs_collision *c = cs_collision_create(g, NG, pr, 10, ex, 30, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    int n = cs_collision_broadphase(c, p);
    ck_assert_int_ge(n, 0);
    int nc;
    const int *cand = cs_collision_candidates(c, &nc);
    ck_assert_int_eq(nc, n);
    uint64_t *got = malloc((size_t)(n + 1) * sizeof *got);
    for (int k = 0; k < n; k++) {
        int a = cand[2 * k], b = cand[2 * k + 1];
        ck_assert_int_le(g[a].type, g[b].type); /* MuJoCo's pair order */
        int lo_ = a < b ? a : b, hi_ = a < b ? b : a;
        got[k] = ((uint64_t)lo_ << 32) | (uint64_t)hi_;
    }
    qsort(got, (size_t)n, sizeof *got, cmp_u64);
    /* brute force over all pairs */
    int nb = 0, filtered = 0;
    uint64_t *ref = malloc((size_t)NG * NG / 2 * sizeof *ref);
    for (int i = 0; i < NG; i++)
        for (int j = i + 1; j < NG; j++) {
            int near;
            int pi = g[i].type == CS_GEOM_PLANE, pj = g[j].type == CS_GEOM_PLANE;
            if (pi && pj)
                near = 0;
            else if (pi)
                near = plane_near(&p[i], g[i].margin, lo[j], hi[j]);
            else if (pj)
                near = plane_near(&p[j], g[j].margin, lo[i], hi[i]);
            else {
                near = 1;
                for (int k = 0; k < 3; k++)
                    if (lo[j][k] > hi[i][k] || lo[i][k] > hi[j][k])
                        near = 0;
            }
            if (!near)
                continue;
            if (!cs_collision_filter(c, i, j)) {
                filtered++;
                continue;
            }
            ref[nb++] = ((uint64_t)i << 32) | (uint64_t)j;
        }
    ck_assert_int_eq(n, nb);
    for (int k = 0; k < n; k++)
        ck_assert(got[k] == ref[k]);
    /* the scene exercises both the overlap test and the filters */
    ck_assert_int_gt(nb, 100);
    ck_assert_int_gt(filtered, 50);
    /* candidates are produced in ascending (lo, hi) order, so contacts are ordered */
    for (int k = 1; k < n; k++) {
        int a0 = cand[2 * k - 2] < cand[2 * k - 1] ? cand[2 * k - 2] : cand[2 * k - 1];
        int a1 = cand[2 * k] < cand[2 * k + 1] ? cand[2 * k] : cand[2 * k + 1];
        ck_assert_int_le(a0, a1);
    }
    /* a full detect over the same scene: every contact's pair is a candidate or an
     * explicit pair, and detecting twice gives the same result */
    static cs_geom_contact con[20000], con2[20000];
    int dropped, dropped2;
    int m = cs_collision_detect(c, p, con, 20000, &dropped);
    int m2 = cs_collision_detect(c, p, con2, 20000, &dropped2);
    ck_assert_int_eq(dropped, 0);
    ck_assert_int_eq(m, m2);
    ck_assert_int_gt(m, 10);
    for (int k = 0; k < m; k++) {
        ck_assert_mem_eq(&con[k], &con2[k], sizeof con[k]);
        ck_assert(tc_frame_error(con[k].frame) < 1e-12);
        ck_assert(con[k].dist <= con[k].margin + con[k].gap);
        ck_assert_int_le(g[con[k].geom1].type, g[con[k].geom2].type);
        if (con[k].pair >= 0)
            continue;
        int a = con[k].geom1 < con[k].geom2 ? con[k].geom1 : con[k].geom2;
        int b = con[k].geom1 < con[k].geom2 ? con[k].geom2 : con[k].geom1;
        uint64_t key = ((uint64_t)a << 32) | (uint64_t)b;
        ck_assert_ptr_nonnull(bsearch(&key, ref, (size_t)nb, sizeof key, cmp_u64));
    }
    free(got);
    free(ref);
    cs_collision_free(c);
}

START_TEST(broadphase_matches_brute_force)
{
    broad_scene(1, 1, 77);
    /* a long thin scene along y: the sweep axis must follow the spread */
    broad_scene(0.05, 10, 78);
}
END_TEST

/* after the first call, detecting contacts allocates nothing (every pair routine runs) */
START_TEST(detect_allocates_nothing)
{
    enum { NG = 60 };
    cs_collision_geom g[NG];
    cs_pose p[NG];
    tc_seed(99);
    g[0] = mkgeom(CS_GEOM_PLANE, 0, 0, 1, 0, 0, 0);
    tc_pose(&p[0], 0, 0, 0, NULL);
    for (int i = 1; i < NG; i++) {
        int type = 2 + (i % 5);
        g[i] = mkgeom(type, 0.2, 0.15, 0.1, i, i, 0);
        double m[9];
        tc_randrot(m);
        /* a loose pile: everything touches something */
        tc_pose(&p[i], 0.25 * (i % 4), 0.25 * ((i / 4) % 4), 0.12 + 0.2 * (i / 16), m);
    }
    char err[200];
    cs_collision *c = cs_collision_create(g, NG, NULL, 0, NULL, 0, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    static cs_geom_contact con[4096];
    int dropped;
    int n0 = cs_collision_detect(c, p, con, 4096, &dropped);
    ck_assert_int_gt(n0, 30);
    long before = alloc_count;
    int same = 1;
    for (int r = 0; r < 5; r++) /* no Check macros inside: they may allocate */
        same &= cs_collision_detect(c, p, con, 4096, &dropped) == n0;
    long during = alloc_count - before;
    ck_assert_int_eq(during, 0);
    ck_assert(same);
    cs_collision_free(c);
    /* and the wrapper does see the library's allocations (so the zero means something) */
    before = alloc_count;
    c = cs_collision_create(g, NG, NULL, 0, NULL, 0, NULL, err, sizeof err);
    during = alloc_count - before;
    ck_assert_int_gt(during, 5);
    cs_collision_free(c);
}
END_TEST

Suite *collision_broad_suite(void)
{
    Suite *s = suite_create("collision-broad");
    TCase *t = tcase_create("core");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, filters);
    tcase_add_test(t, create_errors);
    tcase_add_test(t, mixing);
    tcase_add_test(t, detect_order_params_pairs);
    tcase_add_test(t, broadphase_matches_brute_force);
    tcase_add_test(t, detect_allocates_nothing);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(collision_broad_suite());
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
