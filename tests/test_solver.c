/* Solver suite: constraint rows (docs/contact-math.md §8), the tree mass operator, local cone
 * problems, PGS and Newton on random multi-contact problems, the closed-form soft response
 * (§7), the resting sphere. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

static const double PI = 3.14159265358979323846;
static const double SOLIMP_DEF[5] = {0.9, 0.95, 0.001, 0.5, 2};
static const double SOLREF_DEF[2] = {0.02, 1};

/* ---- deterministic random numbers (fixed seed) ---- */
static unsigned long long rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double srand1(void) { return 2 * urand() - 1; }

/* ---- free bodies as the solver sees them ----
 * Each free body is one kinematic tree: a chain of 6 dofs (world linear velocity of the
 * body-frame origin, then angular velocity in the body's local frame), numbered 6 b .. 6 b + 5,
 * so qvel and a0 keep 6 numbers per body. */
#define FB_MAXB 40
typedef struct {
    int nbody;
    int dof_parent[6 * FB_MAXB], dof_Madr[6 * FB_MAXB], dof_treeid[6 * FB_MAXB];
    int tree_dofadr[FB_MAXB], tree_dofnum[FB_MAXB];
    double qM[21 * FB_MAXB], qLD[21 * FB_MAXB], qLDiagInv[6 * FB_MAXB];
    cs_mass mass;
} fbmass;

/* The tree operator of nbody free bodies with the 6x6 row-major blocks M36 (36 per body),
 * not factored. Row i of a body holds M(i,i), M(i,i-1), ..., M(i,0). */
static cs_mass *fb_build(fbmass *F, int nbody, const double *M36)
{
    F->nbody = nbody;
    for (int b = 0; b < nbody; b++) {
        F->tree_dofadr[b] = 6 * b;
        F->tree_dofnum[b] = 6;
        for (int i = 0; i < 6; i++) {
            int q = 6 * b + i;
            F->dof_parent[q] = i ? q - 1 : -1;
            F->dof_Madr[q] = 21 * b + i * (i + 1) / 2;
            F->dof_treeid[q] = b;
            for (int j = 0; j <= i; j++) F->qM[F->dof_Madr[q] + j] = M36[36 * b + 6 * i + i - j];
        }
    }
    cs_mass *M = &F->mass;
    M->nv = 6 * nbody;
    M->nM = 21 * nbody;
    M->ntree = nbody;
    M->dof_parent = F->dof_parent;
    M->dof_Madr = F->dof_Madr;
    M->dof_treeid = F->dof_treeid;
    M->tree_dofadr = F->tree_dofadr;
    M->tree_dofnum = F->tree_dofnum;
    M->qM = F->qM;
    M->qLD = F->qLD;
    M->qLDiagInv = F->qLDiagInv;
    return M;
}

/* ... and factored */
static const cs_mass *fb_mass(fbmass *F, int nbody, const double *M36)
{
    cs_mass *M = fb_build(F, nbody, M36);
    ck_assert_int_eq(cs_mass_factor(M), 0);
    return M;
}

/* Per-body state the contact Jacobians need (arrays indexed by body). */
typedef struct {
    const double *xpos; /* 3 per body: world position of the body-frame origin */
    const double *xmat; /* 9 per body: rotation body->world, row-major */
    const double *iw;   /* 2 per body: invweight (trans, rot) */
    const double *qvel; /* 6 per body */
} fbstate;

/* Side of body b (-1: static) at the contact point p: the velocity of the point moving with
 * the body is v + (R w_local) x (p - x), so the translation columns are the world axes and
 * rotation column k is (R e_k) x (p - x); the angular velocity's column k is R e_k. */
static void fb_side(const fbstate *S, int b, const double p[3], double jacp[18], double jacr[18],
                    cs_contact_side *sd)
{
    memset(sd, 0, sizeof *sd);
    memset(jacp, 0, 18 * sizeof *jacp);
    memset(jacr, 0, 18 * sizeof *jacr);
    sd->jacp = jacp;
    sd->jacr = jacr;
    sd->tree = b;
    if (b < 0) return;
    sd->dofadr = 6 * b;
    sd->ndof = 6;
    sd->invweight[0] = S->iw[2 * b];
    sd->invweight[1] = S->iw[2 * b + 1];
    const double *R = S->xmat + 9 * b, *x = S->xpos + 3 * b;
    double r[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    for (int i = 0; i < 3; i++) jacp[6 * i + i] = 1;
    for (int k = 0; k < 3; k++) {
        double a[3] = {R[k], R[3 + k], R[6 + k]};
        jacp[3 + k] = a[1] * r[2] - a[2] * r[1];
        jacp[6 + 3 + k] = a[2] * r[0] - a[0] * r[2];
        jacp[12 + 3 + k] = a[0] * r[1] - a[1] * r[0];
        for (int i = 0; i < 3; i++) jacr[6 * i + 3 + k] = a[i];
    }
}

/* Append the block of contact c between bodies b0 (geom1's) and b1 (geom2's), -1 static.
 * Returns cs_efc_add_contact's warning mask. */
static int fb_contact(cs_efc *e, const cs_contact_in *c, int id, int b0, int b1, const fbstate *S,
                      const cs_row_opts *o)
{
    double jp[2][18], jr[2][18];
    cs_contact_side sd[2];
    fb_side(S, b0, c->pos, jp[0], jr[0], &sd[0]);
    fb_side(S, b1, c->pos, jp[1], jr[1], &sd[1]);
    return cs_efc_add_contact(e, c, id, sd, S->qvel, o);
}

/* ---------------------------------------------------------------- rows, §8 ---- */

START_TEST(test_impedance_hand)
{
    double s[5], P;
    cs_solimp_clamp(SOLIMP_DEF, s);
    /* below the midpoint: y = x^2 / midpoint, x = 0.367182 */
    double x = 0.367182, y = x * x / 0.5;
    ck_assert_double_eq_tol(cs_impedance(s, -3.67182e-4, 0, &P), 0.9 + 0.05 * y, 1e-15);
    ck_assert_double_eq_tol(cs_impedance(s, -3.67182e-4, 0, NULL), 0.913482, 5e-7);
    ck_assert_double_eq_tol(P, -2 * 2 * x * 0.05 / 0.001, 1e-9); /* sgn -1: pos below margin */
    /* above the midpoint: y = 1 - (1-x)^2 / (1 - midpoint) */
    ck_assert_double_eq_tol(cs_impedance(s, -8e-4, 0, NULL), 0.9 + 0.05 * (1 - 0.04 / 0.5), 1e-15);
    /* saturated and at the margin */
    ck_assert_double_eq_tol(cs_impedance(s, -0.01, 0, NULL), 0.95, 1e-15);
    ck_assert_double_eq_tol(cs_impedance(s, 0.002, 0.002, NULL), 0.9, 1e-15);
    /* x measured from the include-margin */
    ck_assert_double_eq_tol(cs_impedance(s, 0.001 - 8e-4, 0.001, NULL), 0.9 + 0.05 * 0.92, 1e-15);
    /* flat: d0 == dwidth, or width 0 */
    double f1[5] = {0.8, 0.8, 0.01, 0.5, 2}, f2[5] = {0.7, 0.9, 0, 0.5, 2};
    ck_assert_double_eq_tol(cs_impedance(f1, -0.005, 0, NULL), 0.8, 1e-15);
    ck_assert_double_eq_tol(cs_impedance(f2, -0.005, 0, NULL), 0.8, 1e-15);
    /* linear power */
    double l1[5] = {0.5, 0.9, 0.01, 0.3, 1};
    ck_assert_double_eq_tol(cs_impedance(l1, -0.004, 0, NULL), 0.5 + 0.4 * 0.4, 1e-15);
    /* general power 3 above midpoint: 1 - (1-x)^3/(1-m)^2 */
    double p3[5] = {0.5, 0.9, 0.01, 0.3, 3};
    ck_assert_double_eq_tol(cs_impedance(p3, -0.006, 0, NULL),
                            0.5 + 0.4 * (1 - 0.064 / 0.49), 1e-14);
    /* clamps */
    double raw[5] = {0, 1.5, -1, 2, 0.2}, c[5];
    cs_solimp_clamp(raw, c);
    ck_assert_double_eq(c[0], 0.0001);
    ck_assert_double_eq(c[1], 0.9999);
    ck_assert_double_eq(c[2], 0);
    ck_assert_double_eq(c[3], 0.9999);
    ck_assert_double_eq(c[4], 1);
}
END_TEST

START_TEST(test_solref_hand)
{
    double r[2], K, B;
    ck_assert_int_eq(cs_solref_fix(SOLREF_DEF, 0.002, 1, r), 0);
    cs_solref_kb(r, 0.95, &K, &B);
    ck_assert_double_eq_tol(K, 1 / (0.95 * 0.95 * 0.02 * 0.02), 1e-9);
    ck_assert_double_eq_tol(B, 2 / (0.95 * 0.02), 1e-12);
    /* refsafe: timeconst raised to 2 timestep */
    double fast[2] = {0.001, 0.5};
    cs_solref_fix(fast, 0.002, 1, r);
    ck_assert_double_eq(r[0], 0.004);
    cs_solref_kb(r, 0.9, &K, &B);
    ck_assert_double_eq_tol(K, 1 / (0.81 * 0.004 * 0.004 * 0.25), 1e-7);
    cs_solref_fix(fast, 0.002, 0, r);
    ck_assert_double_eq(r[0], 0.001);
    /* direct form */
    double dir[2] = {-1000, -50};
    ck_assert_int_eq(cs_solref_fix(dir, 0.002, 1, r), 0);
    cs_solref_kb(r, 0.95, &K, &B);
    ck_assert_double_eq_tol(K, 1000 / 0.9025, 1e-10);
    ck_assert_double_eq_tol(B, 50 / 0.95, 1e-12);
    /* mixed signs: warning and the default */
    double mix[2] = {0.05, -3};
    ck_assert_int_eq(cs_solref_fix(mix, 0.002, 1, r), 1);
    ck_assert_double_eq(r[0], 0.02);
    ck_assert_double_eq(r[1], 1);
}
END_TEST

/* A 2 kg sphere (r 0.1, I = 2/5 m r^2) whose centre is at height z over the z-up plane. */
typedef struct {
    double xpos[3], xmat[9], iw[2], qvel[6], M[36], a0[6];
    fbmass fm;
} sphere_t;

static void sphere_init(sphere_t *s, double z)
{
    memset(s, 0, sizeof *s);
    s->xpos[2] = z;
    s->xmat[0] = s->xmat[4] = s->xmat[8] = 1;
    double m = 2, I = 0.4 * 2 * 0.01;
    for (int i = 0; i < 3; i++) {
        s->M[7 * i] = m;
        s->M[7 * (i + 3)] = I;
    }
    s->iw[0] = 1 / m;
    s->iw[1] = 1 / I;
    s->a0[2] = -9.81;
}

/* the plane is geom1 (static), the sphere geom2 */
static void sphere_contact(const sphere_t *s, int dim, cs_contact_in *c)
{
    memset(c, 0, sizeof *c);
    double dist = s->xpos[2] - 0.1;
    c->dist = dist;
    c->pos[0] = s->xpos[0];
    c->pos[1] = s->xpos[1];
    c->pos[2] = s->xpos[2] - 0.1 - 0.5 * dist; /* MuJoCo's plane-sphere point */
    double fr[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0}; /* n = z, t1 = y, t2 = -x (§8) */
    memcpy(c->frame, fr, sizeof fr);
    c->dim = dim;
    double f[5] = {1, 1, 0.005, 0.0001, 0.0001};
    memcpy(c->friction, f, sizeof f);
    memcpy(c->solref, SOLREF_DEF, sizeof c->solref);
    memcpy(c->solimp, SOLIMP_DEF, sizeof c->solimp);
}

/* The rows of the sphere's one contact alone in e; returns the warning mask. */
static int sphere_rows(cs_efc *e, const sphere_t *s, const cs_contact_in *c, const cs_row_opts *o)
{
    fbstate S = {s->xpos, s->xmat, s->iw, s->qvel};
    cs_efc_clear(e);
    int warn = fb_contact(e, c, 0, -1, 0, &S, o);
    ck_assert_int_ge(warn, 0);
    return warn;
}

START_TEST(test_rows_sphere_hand)
{
    sphere_t s;
    sphere_init(&s, 0.1 - 3e-4);
    s.qvel[0] = 0.3; /* slide along x */
    s.qvel[2] = -0.2;
    s.qvel[4] = 1.5; /* spin about y (local = world) */
    cs_contact_in c;
    sphere_contact(&s, 6, &c);
    c.margin = 0.002;
    c.gap = 0.0005;
    cs_row_opts o = {0.002, 1.0, CS_CONE_ELLIPTIC, 1};
    cs_efc e;
    cs_efc_init(&e);
    ck_assert_int_eq(sphere_rows(&e, &s, &c, &o), 0);
    ck_assert_int_eq(e.nblock, 1);
    ck_assert_int_eq(e.blk_nrow[0], 6);
    ck_assert_int_eq(e.nefc, 6);
    /* lever arm r = p - x = (0, 0, -(0.1 + dist/2)) */
    double rz = -(0.1 - 1.5e-4);
    /* normal row: vz; t1 = y row: v_y + (w x r)_y = v_y - w_x r_z ; t2 = -x row */
    ck_assert_double_eq_tol(cs_efc_J(&e, 0, 2), 1, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 1, 1), 1, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 1, 3), -rz, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 2, 0), -1, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 2, 4), -rz, 1e-15); /* -(w_y r_z) */
    ck_assert_double_eq_tol(cs_efc_J(&e, 3, 5), 1, 1e-15);  /* spin about n = z */
    ck_assert_double_eq_tol(cs_efc_J(&e, 4, 4), 1, 1e-15);  /* roll about t1 = y */
    ck_assert_double_eq_tol(cs_efc_J(&e, 5, 3), -1, 1e-15); /* roll about t2 = -x */
    /* the static side has no columns: every row spans the sphere's 6 dofs only */
    ck_assert_int_eq(e.blk_tree[0], -1);
    ck_assert_int_eq(e.blk_ndof[0], 0);
    ck_assert_int_eq(e.blk_tree[1], 0);
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(e.J_rownnz[r], 6);
        for (int q = 0; q < 6; q++) ck_assert_int_eq(e.J_colind[e.J_rowadr[r] + q], q);
    }
    /* contact velocity: t2 row = -(v_x + w_y r_z) */
    ck_assert_double_eq_tol(e.vel[0], -0.2, 1e-15);
    ck_assert_double_eq_tol(e.vel[2], -(0.3 + 1.5 * rz), 1e-15);
    ck_assert_double_eq_tol(e.vel[4], 1.5, 1e-15);
    for (int j = 0; j < 6; j++) ck_assert_double_eq(e.blk_cvel[j], e.vel[j]);
    /* impedance from pos = dist against include-margin 0.0015 */
    double mc = 0.0015, x = (0.0015 + 3e-4) / 0.001; /* >= 1: saturated */
    (void)x;
    ck_assert_double_eq_tol(e.blk_margin_c[0], mc, 1e-18);
    ck_assert_double_eq_tol(e.blk_imp[0], 0.95, 1e-15);
    double imp = 0.95, K = 1 / (0.95 * 0.95 * 0.02 * 0.02 * 1), B = 2 / (0.95 * 0.02);
    ck_assert_double_eq_tol(e.aref[0], -B * (-0.2) - K * imp * (-3e-4 - mc), 1e-10);
    for (int j = 1; j < 6; j++) {
        ck_assert_double_eq(e.K[j], 0);
        ck_assert_double_eq_tol(e.aref[j], -B * e.vel[j], 1e-12);
    }
    /* R: dA = 1/m for n, t1, t2; 1/I for spin/roll; R_1 = R_0/impratio, R_j f_j^2 = R_1 f_1^2 */
    double R0 = (1 - imp) / imp * 0.5;
    ck_assert_double_eq_tol(e.R[0], R0, 1e-15);
    ck_assert_double_eq_tol(e.R[1], R0, 1e-15);
    ck_assert_double_eq_tol(e.R[2], R0, 1e-15);
    ck_assert_double_eq_tol(e.R[3], R0 / (0.005 * 0.005), 1e-9);
    ck_assert_double_eq_tol(e.R[5], R0 / 1e-8, 1e-3);
    ck_assert_double_eq_tol(e.dA[3], 125, 1e-12);
    ck_assert_double_eq_tol(e.blk_kappa[0], R0, 1e-15);
    ck_assert_double_eq_tol(e.blk_mu[0], 1, 1e-15);

    /* a condim the loader should have rejected is made frictionless */
    c.dim = 2;
    ck_assert_int_eq(sphere_rows(&e, &s, &c, &o), 0);
    ck_assert_int_eq(e.blk_nrow[0], 1);
    ck_assert_int_eq(e.blk_kind[0], CS_BLOCK_FRICTIONLESS);
    c.dim = 6;
    /* mixed-sign solref: the default used, as MuJoCo */
    c.solref[1] = -1;
    ck_assert_int_eq(sphere_rows(&e, &s, &c, &o), 0);
    ck_assert_double_eq_tol(e.B[0], 2 / (0.95 * 0.02), 1e-12);
    c.solref[1] = 1;

    /* impratio 4 and solreffriction: R_1 = R_0/4, mu = f_1/2, friction B from solreffriction */
    o.impratio = 4;
    c.solreffriction[0] = 0.05;
    c.solreffriction[1] = 0.5;
    c.friction[0] = 0.8;
    c.friction[1] = 0.4;
    sphere_rows(&e, &s, &c, &o);
    ck_assert_double_eq_tol(e.R[1], R0 / 4, 1e-15);
    ck_assert_double_eq_tol(e.R[2], R0 / 4 * 0.64 / 0.16, 1e-14);
    ck_assert_double_eq_tol(e.blk_mu[0], 0.4, 1e-15);
    ck_assert_double_eq_tol(e.B[1], 2 / (0.95 * 0.05), 1e-12);
    ck_assert_double_eq_tol(e.B[0], B, 1e-12);

    /* pyramidal: edges J_n +- f_j J_j, pos = dist for all, K everywhere, common R */
    o.cone = CS_CONE_PYRAMIDAL;
    o.impratio = 1;
    c.dim = 3;
    sphere_rows(&e, &s, &c, &o);
    ck_assert_int_eq(e.blk_nrow[0], 4);
    ck_assert_int_eq(e.blk_kind[0], CS_BLOCK_PYRAMIDAL);
    ck_assert_double_eq_tol(cs_efc_J(&e, 0, 1), 0.8, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 1, 1), -0.8, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 2, 0), -0.4, 1e-15);
    ck_assert_double_eq_tol(cs_efc_J(&e, 3, 2), 1, 1e-15);
    double Rp0 = (1 - imp) / imp * 0.5 * (1 + 0.64);
    for (int j = 0; j < 4; j++) {
        ck_assert_double_eq_tol(e.R[j], 2 * 0.64 * Rp0, 1e-15);
        ck_assert_double_eq_tol(e.K[j], K, 1e-9);
    }
    ck_assert_double_eq_tol(e.aref[1], -B * e.vel[1] - K * imp * (-3e-4 - mc), 1e-10);
    ck_assert_double_eq_tol(e.dA[2], 0.5 * (1 + 0.16), 1e-15);
    ck_assert_double_eq_tol(e.blk_cvel[2], -(0.3 + 1.5 * rz), 1e-15); /* still the frame velocity */
    ck_assert_double_eq_tol(e.vel[1], -0.2 - 0.8 * e.blk_cvel[1], 1e-15);
    cs_efc_free(&e);
}
END_TEST

/* J qvel = C (u2 - u1) with u = v + (R w_local) x (p - x) for random poses of two bodies,
 * rotation rows C[0..2] (R2 w2 - R1 w1). */
static void rand_rot(double *R);
START_TEST(test_jacobian_two_bodies)
{
    rng_state = 8;
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    for (int t = 0; t < 50; t++) {
        double xpos[6], xmat[18], qvel[12], iw[4] = {1, 1, 1, 1};
        for (int i = 0; i < 6; i++) xpos[i] = srand1();
        for (int i = 0; i < 12; i++) qvel[i] = srand1();
        rand_rot(xmat);
        rand_rot(xmat + 9);
        cs_contact_in c;
        memset(&c, 0, sizeof c);
        rand_rot(c.frame);
        for (int i = 0; i < 3; i++) c.pos[i] = srand1();
        c.dim = 6;
        for (int j = 0; j < 5; j++) c.friction[j] = 1;
        memcpy(c.solref, SOLREF_DEF, sizeof c.solref);
        memcpy(c.solimp, SOLIMP_DEF, sizeof c.solimp);
        fbstate S = {xpos, xmat, iw, qvel};
        cs_efc_clear(&e);
        ck_assert_int_eq(fb_contact(&e, &c, 0, 0, 1, &S, &o), 0);
        ck_assert_int_eq(e.nefc, 6);
        double u[2][3], wv[2][3];
        for (int b = 0; b < 2; b++) {
            const double *R = xmat + 9 * b, *wl = qvel + 6 * b + 3;
            double r[3] = {c.pos[0] - xpos[3 * b], c.pos[1] - xpos[3 * b + 1], c.pos[2] - xpos[3 * b + 2]};
            for (int i = 0; i < 3; i++) wv[b][i] = R[3 * i] * wl[0] + R[3 * i + 1] * wl[1] + R[3 * i + 2] * wl[2];
            u[b][0] = qvel[6 * b] + wv[b][1] * r[2] - wv[b][2] * r[1];
            u[b][1] = qvel[6 * b + 1] + wv[b][2] * r[0] - wv[b][0] * r[2];
            u[b][2] = qvel[6 * b + 2] + wv[b][0] * r[1] - wv[b][1] * r[0];
        }
        for (int row = 0; row < 6; row++) {
            double jv = 0, ref = 0;
            for (int q = 0; q < 12; q++) jv += cs_efc_J(&e, row, q) * qvel[q];
            const double *ax = c.frame + 3 * (row % 3);
            for (int i = 0; i < 3; i++)
                ref += ax[i] * (row < 3 ? u[1][i] - u[0][i] : wv[1][i] - wv[0][i]);
            ck_assert_double_eq_tol(jv, ref, 1e-13);
            ck_assert_double_eq_tol(e.vel[row], ref, 1e-13);
        }
    }
    cs_efc_free(&e);
}
END_TEST

/* The tree operator of 3 free bodies with random SPD 6x6 blocks: cs_mass_get returns the
 * entries, and cs_mass_solve inverts cs_mass_mul, over all dofs and over one tree. */
static void rand_spd(int n, double *G, double diag);
START_TEST(test_mass_operator)
{
    rng_state = 606;
    for (int t = 0; t < 20; t++) {
        double M36[3 * 36];
        for (int b = 0; b < 3; b++) rand_spd(6, M36 + 36 * b, 0.1 + urand());
        fbmass F;
        const cs_mass *M = fb_mass(&F, 3, M36);
        ck_assert_int_eq(M->nv, 18);
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) /* a free body's 6 dofs are one chain: all stored */
                    ck_assert_double_eq(cs_mass_get(M, 6 * b + i, 6 * b + j), M36[36 * b + 6 * i + j]);
        ck_assert_double_eq(cs_mass_get(M, 7, 2), 0); /* different trees */
        double x[18], y[18], z[18], ref[18];
        for (int q = 0; q < 18; q++) x[q] = srand1();
        cs_mass_mul(M, y, x, 0, 18);
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < 6; i++) {
                double v = 0;
                for (int j = 0; j < 6; j++) v += M36[36 * b + 6 * i + j] * x[6 * b + j];
                ref[6 * b + i] = v;
            }
        double ys = 0;
        for (int q = 0; q < 18; q++) ys = fmax(ys, fabs(ref[q]));
        for (int q = 0; q < 18; q++) ck_assert_double_eq_tol(y[q], ref[q], 1e-13 * ys);
        memcpy(z, y, sizeof z);
        cs_mass_solve(M, z, 0, 18);
        for (int q = 0; q < 18; q++) ck_assert_double_eq_tol(z[q], x[q], 1e-12);
        /* one tree alone: the others untouched */
        memcpy(z, y, sizeof z);
        cs_mass_solve(M, z, 6, 12);
        for (int q = 0; q < 18; q++) ck_assert_double_eq_tol(z[q], q >= 6 && q < 12 ? x[q] : y[q], 1e-12);
        cs_mass_mul(M, z, x, 12, 18);
        for (int q = 12; q < 18; q++) ck_assert_double_eq_tol(z[q], y[q], 1e-13 * ys);
    }
    /* a matrix that is not positive definite is refused */
    double bad[36] = {0};
    for (int i = 0; i < 6; i++) bad[7 * i] = 1;
    bad[7 * 5] = -1;
    fbmass F;
    ck_assert_int_eq(cs_mass_factor(fb_build(&F, 1, bad)), -1);
}
END_TEST

/* ------------------------------------------------------------ local problems ---- */

START_TEST(test_fn_qcqp_worked)
{
    double H[4] = {1, 0, 0, 4}, b[2] = {-2, -2}, mu[2] = {1, 0.5}, x[2], lam;
    ck_assert_int_eq(cs_fn_qcqp(2, H, b, mu, 1, x, &lam), 1);
    ck_assert_double_eq_tol(lam, sqrt(5) - 1, 1e-12);
    ck_assert_double_eq_tol(x[0], 0.894427191, 1e-9);
    ck_assert_double_eq_tol(x[1], 0.223606798, 1e-9);
    /* inside: unconstrained */
    ck_assert_int_eq(cs_fn_qcqp(2, H, b, mu, 10, x, &lam), 0);
    ck_assert_double_eq_tol(x[0], 2, 1e-15);
    ck_assert_double_eq_tol(x[1], 0.5, 1e-15);
    /* apex */
    cs_fn_qcqp(2, H, b, mu, 0, x, &lam);
    ck_assert_double_eq(x[0], 0);
}
END_TEST

/* our fixed-normal QCQP (needed with its multiplier, to machine precision) agrees with
 * solver/cone's cs_qcqp_solve */
static void rand_spd(int n, double *G, double diag);
START_TEST(test_fn_qcqp_vs_cone)
{
    rng_state = 31;
    double worst = 0;
    for (int t = 0; t < 300; t++) {
        int n = 1 + t % 5;
        double H[25], b[5], mu[5], x1[5], x2[5], lam;
        rand_spd(n, H, 0.2);
        for (int i = 0; i < n; i++) {
            b[i] = 3 * srand1();
            mu[i] = 0.05 + urand();
        }
        double fn = 2 * urand();
        cs_qcqp_info info;
        ck_assert_int_ge(cs_fn_qcqp(n, H, b, mu, fn, x1, &lam), 0);
        ck_assert_int_eq(cs_qcqp_solve(n, H, b, mu, fn, x2, &info), 0);
        for (int i = 0; i < n; i++) worst = fmax(worst, fabs(x1[i] - x2[i]));
        ck_assert_double_eq_tol(lam, info.lambda, 1e-7 * (1 + lam));
    }
    ck_assert(worst <= 1e-9);
}
END_TEST

/* random SPD n x n */
static void rand_spd(int n, double *G, double diag)
{
    double A[36];
    for (int i = 0; i < n * n; i++) A[i] = srand1();
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double s = i == k ? diag : 0;
            for (int m = 0; m < n; m++) s += A[m * n + i] * A[m * n + k];
            G[i * n + k] = s;
        }
}

/* KKT of the cone QP: x in K, g = G x + c in K* = {g0 >= ||D g_t||}, x.g = 0. */
START_TEST(test_cone_qp_kkt)
{
    rng_state = 12345;
    int dims[3] = {3, 4, 6}, nz[3] = {0, 0, 0};
    for (int t = 0; t < 600; t++) {
        int dim = dims[t % 3], r = dim - 1;
        double G[36], c[6], mu[5], x[6], g[6];
        rand_spd(dim, G, 0.1);
        for (int i = 0; i < dim; i++) c[i] = 3 * srand1();
        for (int j = 0; j < r; j++) mu[j] = 0.05 + 1.5 * urand();
        memset(x, 0, sizeof x);
        if (t % 2) x[0] = 3 * urand(); /* with a guess of the normal, and without */
        ck_assert_int_ge(cs_cone_qp(dim, G, c, mu, x), 0);
        double sc = 0, gt = 0, xg = 0, gs = 0;
        for (int i = 0; i < dim; i++) {
            g[i] = c[i];
            for (int k = 0; k < dim; k++) g[i] += G[i * dim + k] * x[k];
            xg += x[i] * g[i];
            gs += fabs(c[i]);
        }
        for (int j = 0; j < r; j++) {
            sc += (x[1 + j] / mu[j]) * (x[1 + j] / mu[j]);
            gt += (mu[j] * g[1 + j]) * (mu[j] * g[1 + j]);
        }
        ck_assert(sqrt(sc) <= x[0] * (1 + 1e-12) + 1e-14);
        ck_assert(g[0] >= sqrt(gt) - 1e-10 * gs);
        ck_assert(fabs(xg) <= 1e-10 * gs * (1 + fabs(x[0])));
        if (x[0] > 0 && sqrt(sc) > x[0] * (1 - 1e-9)) nz[t % 3]++;
    }
    for (int i = 0; i < 3; i++) ck_assert_int_gt(nz[i], 20); /* the boundary case was hit */
}
END_TEST

/* KKT of the non-negative QP: x >= 0, g = G x + c >= 0, x.g = 0 */
START_TEST(test_nonneg_qp_kkt)
{
    rng_state = 777;
    int nact = 0;
    for (int t = 0; t < 500; t++) {
        int n = 2 + t % 9;
        double G[100], A[100], c[10], x[10], g[10], sc = 0;
        for (int i = 0; i < n * n; i++) A[i] = srand1();
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++) {
                G[i * n + k] = i == k ? 0.05 : 0;
                for (int m = 0; m < n; m++) G[i * n + k] += A[m * n + i] * A[m * n + k];
            }
        for (int i = 0; i < n; i++) {
            c[i] = 3 * srand1();
            x[i] = urand() < 0.5 ? 0 : urand();
            sc = fmax(sc, fabs(c[i]));
        }
        ck_assert_int_ge(cs_nonneg_qp(n, G, c, x), 0);
        for (int i = 0; i < n; i++) {
            g[i] = c[i];
            for (int k = 0; k < n; k++) g[i] += G[i * n + k] * x[k];
            ck_assert(x[i] >= 0);
            ck_assert(g[i] >= -1e-12 * sc);
            ck_assert(fabs(x[i] * g[i]) <= 1e-12 * sc * (1 + x[i]));
            nact += x[i] == 0;
        }
    }
    ck_assert_int_gt(nact, 100);
}
END_TEST

/* ----------------------------------------------------------- soft cone, §7 ---- */

START_TEST(test_soft_zones_worked)
{
    /* one elliptic block of 3 rows, made by hand */
    cs_efc e;
    cs_efc_init(&e);
    ck_assert_int_eq(cs_efc_reserve(&e, 1, 3, 0), 0);
    e.nblock = 1;
    e.nefc = 3;
    e.blk_kind[0] = CS_BLOCK_ELLIPTIC;
    e.blk_dim[0] = e.blk_nrow[0] = 3;
    e.blk_row[0] = 0;
    double *fric = e.blk_friction, *R = e.R;
    memset(fric, 0, 5 * sizeof *fric);
    fric[0] = fric[1] = 1;
    R[0] = R[1] = R[2] = 1;
    e.blk_kappa[0] = 1;
    double f[3], l, h[9];
    for (double jn = -3; jn <= 3; jn += 0.25) {
        double j[3] = {jn, 1, 0}; /* T = 1 */
        cs_zone z = cs_efc_soft(&e, 0, j, f, &l, h);
        if (jn >= 1) {
            ck_assert_int_eq(z, CS_ZONE_TOP);
            ck_assert_double_eq(f[0], 0);
        } else if (jn <= -1) {
            ck_assert_int_eq(z, CS_ZONE_BOTTOM);
            ck_assert_double_eq_tol(f[0], -jn, 1e-15);
            ck_assert_double_eq_tol(f[1], -1, 1e-15);
            ck_assert_double_eq_tol(l, 0.5 * (jn * jn + 1), 1e-15);
        } else {
            ck_assert_int_eq(z, CS_ZONE_MIDDLE);
            ck_assert_double_eq_tol(f[0], (1 - jn) / 2, 1e-15);
            ck_assert_double_eq_tol(f[1], -(1 - jn) / 2, 1e-15);
            ck_assert_double_eq_tol(l, (1 - jn) * (1 - jn) / 4, 1e-15);
        }
    }
    /* both give 1 at j_n = -1 */
    double jb[3] = {-1, 1, 0};
    cs_efc_soft(&e, 0, jb, f, &l, h);
    ck_assert_double_eq_tol(f[0], 1, 1e-15);
    /* gradient of the cost is -f, Hessian matches finite differences (middle zone) */
    fric[0] = 0.8;
    fric[1] = 0.3;
    R[1] = 1 / 0.64;
    R[2] = 1 / 0.09;
    double j0[3] = {0.1, 0.7, -0.9}, f0[3], hh[9];
    ck_assert_int_eq(cs_efc_soft(&e, 0, j0, f0, &l, hh), CS_ZONE_MIDDLE);
    for (int k = 0; k < 3; k++) {
        double jp[3], jm[3], fp[3], fm[3], lp, lm, eps = 1e-6;
        memcpy(jp, j0, sizeof jp);
        memcpy(jm, j0, sizeof jm);
        jp[k] += eps;
        jm[k] -= eps;
        cs_efc_soft(&e, 0, jp, fp, &lp, NULL);
        cs_efc_soft(&e, 0, jm, fm, &lm, NULL);
        ck_assert_double_eq_tol((lp - lm) / (2 * eps), -f0[k], 1e-8);
        for (int i = 0; i < 3; i++)
            ck_assert_double_eq_tol(-(fp[i] - fm[i]) / (2 * eps), hh[i * 3 + k], 1e-7);
    }
    cs_efc_free(&e);
}
END_TEST

/* ------------------------------------------------------- solver problems ---- */

#define RP_MAXB 40
#define RP_MAXC 80
typedef struct {
    int nbody, ncon;
    double xpos[3 * RP_MAXB], xmat[9 * RP_MAXB], iw[2 * RP_MAXB], qvel[6 * RP_MAXB],
        M[36 * RP_MAXB], a0[6 * RP_MAXB];
    cs_contact_in con[RP_MAXC];
    int cbody[RP_MAXC][2]; /* geom1's and geom2's body, -1 static */
    fbmass fm;             /* the bodies' mass operator, factored */
    cs_efc efc;            /* rows of con[0 .. ncon-1], block k from contact k */
} randprob;

/* The rows of the problem's contacts, anew. */
static void rp_rows(randprob *P, const cs_row_opts *o)
{
    fbstate S = {P->xpos, P->xmat, P->iw, P->qvel};
    cs_efc_clear(&P->efc);
    for (int k = 0; k < P->ncon; k++)
        ck_assert_int_ge(fb_contact(&P->efc, &P->con[k], k, P->cbody[k][0], P->cbody[k][1], &S, o), 0);
    ck_assert_int_eq(P->efc.nblock, P->ncon);
}

static void rp_free(randprob *P) { cs_efc_free(&P->efc); }

static void rand_rot(double *R)
{
    double q[4], n = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = srand1();
        n += q[i] * q[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++) q[i] /= n;
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                   2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                   2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    memcpy(R, m, sizeof m);
}

/* Free-body mass matrix with the COM offset c (local) from the body origin:
 * [[m I, -m R [c]x], [m [c]x R^T, Ic - m [c]x^2]] in (world lin, local ang) coordinates. */
static void body_mass(double m, const double Ic[3], const double c[3], const double *R, double *M)
{
    double cx[9] = {0, -c[2], c[1], c[2], 0, -c[0], -c[1], c[0], 0}, Rc[9];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double s = 0;
            for (int l = 0; l < 3; l++) s += R[3 * i + l] * cx[3 * l + k];
            Rc[3 * i + k] = s;
        }
    memset(M, 0, sizeof(double) * 36);
    for (int i = 0; i < 3; i++) {
        M[7 * i] = m;
        M[(3 + i) * 6 + 3 + i] = Ic[i];
        for (int k = 0; k < 3; k++) {
            M[i * 6 + 3 + k] = -m * Rc[3 * i + k];
            M[(3 + k) * 6 + i] = -m * Rc[3 * i + k];
            double s = 0;
            for (int l = 0; l < 3; l++) s += cx[3 * k + l] * cx[3 * l + i];
            M[(3 + k) * 6 + 3 + i] -= m * s;
        }
    }
}

static void rand_frame(double *F)
{
    double R[9];
    rand_rot(R);
    memcpy(F, R, sizeof R); /* rows orthonormal, right-handed */
}

/* A random problem (P's rows storage must be free: zeroed or after rp_free). */
static void make_random(randprob *P, int nbody, int ncon, cs_cone_type cone, int dimset)
{
    memset(P, 0, sizeof *P);
    cs_efc_init(&P->efc);
    P->nbody = nbody;
    P->ncon = ncon;
    for (int b = 0; b < nbody; b++) {
        double m = 0.5 + 3 * urand(), Ic[3], c[3];
        for (int i = 0; i < 3; i++) {
            Ic[i] = m * (0.01 + 0.05 * urand());
            c[i] = 0.05 * srand1();
            P->xpos[3 * b + i] = srand1();
        }
        rand_rot(P->xmat + 9 * b);
        body_mass(m, Ic, c, P->xmat + 9 * b, P->M + 36 * b);
        P->iw[2 * b] = 1 / m;
        P->iw[2 * b + 1] = (1 / Ic[0] + 1 / Ic[1] + 1 / Ic[2]) / 3;
        for (int q = 0; q < 6; q++) {
            P->qvel[6 * b + q] = 0.5 * srand1();
            P->a0[6 * b + q] = 2 * srand1();
        }
        P->a0[6 * b + 2] -= 9.81;
    }
    fb_mass(&P->fm, nbody, P->M);
    static const int dims[4] = {1, 3, 4, 6};
    cs_row_opts o = {0.002, 1 + urand(), cone, 1};
    for (int k = 0; k < ncon; k++) {
        cs_contact_in *c = &P->con[k];
        int b1 = (int)(urand() * nbody);
        int b0 = urand() < 0.4 ? -1 : (int)(urand() * nbody);
        if (b0 == b1) b0 = -1;
        P->cbody[k][0] = b0;
        P->cbody[k][1] = b1;
        for (int i = 0; i < 3; i++) c->pos[i] = P->xpos[3 * b1 + i] + 0.2 * srand1();
        rand_frame(c->frame);
        c->dist = -0.002 * urand();
        c->dim = dimset ? dimset : dims[k % 4];
        for (int j = 0; j < 2; j++) c->friction[j] = 0.2 + urand();
        c->friction[2] = 0.01 + 0.02 * urand();
        c->friction[3] = c->friction[4] = 0.001 + 0.01 * urand();
        memcpy(c->solref, SOLREF_DEF, sizeof c->solref);
        memcpy(c->solimp, SOLIMP_DEF, sizeof c->solimp);
    }
    rp_rows(P, &o);
}

static int g_dense_max = 0; /* Newton's dense/CG switch used by solve_prob */
static int g_pair_group = 1; /* PGS pair blocking in solve_prob */

/* Solve with the residual statistics on (the tests below read them). */
static void solve_prob(randprob *P, cs_solver_ws *w, cs_solve_method t, int iters, double tol,
                       double *a, cs_solve_stats *st, double forces[][CS_MAXDIM])
{
    cs_problem p = {&P->fm.mass, P->a0, &P->efc, 0};
    cs_solver_opts o;
    cs_solver_opts_default(&o);
    o.finish_after = 0; /* the sweeps alone (no Newton finish) */
    /* the optimum itself: Newton steps until its improvement or gradient meets the tolerance
     * (MuJoCo 3.3's rule); 3.12's decrement test stops within the tolerance of the cost,
     * which on these random elliptic problems leaves forces 4e-7 from it */
    o.newton_early = 0;
    o.type = t;
    o.max_iter = iters;
    o.tolerance = tol;
    o.newton_dense_max = g_dense_max;
    o.blocking = g_pair_group ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    o.stats = 1;
    ck_assert_int_eq(cs_solve(w, &p, &o, NULL, a, st), 0);
    for (int k = 0; k < P->efc.nblock; k++)
        memcpy(forces[k], P->efc.blk_force + CS_MAXDIM * k, sizeof forces[k]);
}

/* A workspace for the problem's bodies. */
static cs_solver_ws *rp_solver(const randprob *P)
{
    cs_solver_ws *w = cs_solver_create(6 * P->nbody, P->nbody);
    ck_assert_ptr_nonnull(w);
    return w;
}

static void run_agreement(cs_cone_type cone, unsigned long long seed, int ntrial)
{
    rng_state = seed;
    double maxdiff = 0, maxgap = 0, maxcg = 0, maxpcg = 0;
    int maxit_pgs = 0, maxit_newton = 0, maxit_cg = 0, maxit_pcg = 0;
    for (int t = 0; t < ntrial; t++) {
        static randprob P;
        make_random(&P, 2 + t % 3, 4 + t % 5, cone, 0);
        cs_solver_ws *w = rp_solver(&P);
        double a1[6 * RP_MAXB], a2[6 * RP_MAXB], F1[RP_MAXC][CS_MAXDIM], F2[RP_MAXC][CS_MAXDIM];
        cs_solve_stats s1, s2;
        solve_prob(&P, w, CS_METHOD_PGS, 4000, -1, a1, &s1, F1);
        solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a2, &s2, F2);
        double a3[6 * RP_MAXB], F3[RP_MAXC][CS_MAXDIM];
        cs_solve_stats s3;
        g_dense_max = -1; /* the CG path for large islands gives the same forces */
        solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a3, &s3, F3);
        g_dense_max = 0;
        for (int k = 0; k < P.ncon; k++)
            for (int i = 0; i < CS_MAXDIM; i++) maxcg = fmax(maxcg, fabs(F3[k][i] - F2[k][i]));
        /* MuJoCo's CG (the method) on the same cost reaches the same optimum */
        double a4[6 * RP_MAXB], F4[RP_MAXC][CS_MAXDIM];
        cs_solve_stats s4;
        solve_prob(&P, w, CS_METHOD_CG, 2000, 1e-15, a4, &s4, F4);
        for (int k = 0; k < P.ncon; k++)
            for (int i = 0; i < CS_MAXDIM; i++) maxpcg = fmax(maxpcg, fabs(F4[k][i] - F2[k][i]));
        maxgap = fmax(maxgap, fabs(s4.primal_cost - s2.primal_cost) / fmax(fabs(s2.primal_cost), 1e-300));
        if (s4.iterations > maxit_pcg) maxit_pcg = s4.iterations;
        if (s3.iterations > maxit_cg) maxit_cg = s3.iterations;
        double fmaxabs = 1;
        for (int k = 0; k < P.ncon; k++)
            for (int i = 0; i < CS_MAXDIM; i++) {
                maxdiff = fmax(maxdiff, fabs(F1[k][i] - F2[k][i]));
                fmaxabs = fmax(fmaxabs, fabs(F2[k][i]));
            }
        ck_assert(s1.feasibility <= 1e-12 * fmaxabs);
        ck_assert(s2.feasibility <= 1e-12 * fmaxabs);
        /* strong duality: Newton's primal optimum + PGS's dual optimum = 0 */
        double gap = fabs(s2.primal_cost + s1.dual_cost) / fmax(fabs(s2.primal_cost), 1e-300);
        maxgap = fmax(maxgap, gap);
        if (s1.iterations > maxit_pgs) maxit_pgs = s1.iterations;
        if (s2.iterations > maxit_newton) maxit_newton = s2.iterations;
        cs_solver_free(w);
        rp_free(&P);
    }
    printf("agreement %s: max |f_pgs - f_newton| = %.3g, max duality gap (rel) = %.3g, "
           "max iterations pgs %d newton %d; newton-CG vs dense %.3g (max iterations %d); "
           "CG method vs Newton %.3g (max iterations %d)\n",
           cone == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal", maxdiff, maxgap, maxit_pgs,
           maxit_newton, maxcg, maxit_cg, maxpcg, maxit_pcg);
    fflush(stdout);
    ck_assert(maxcg <= 1e-8);
    ck_assert(maxpcg <= 1e-6);
    ck_assert(maxdiff <= 1e-6);
    ck_assert(maxgap <= 1e-9);
}

START_TEST(test_agree_elliptic) { run_agreement(CS_CONE_ELLIPTIC, 777, 16); }
END_TEST
START_TEST(test_agree_pyramidal) { run_agreement(CS_CONE_PYRAMIDAL, 4242, 16); }
END_TEST

/* Residual statistics at the solution are small for both solvers. */
START_TEST(test_residuals)
{
    rng_state = 99;
    static randprob P;
    make_random(&P, 4, 10, CS_CONE_ELLIPTIC, 0);
    cs_solver_ws *w = rp_solver(&P);
    double a[6 * RP_MAXB], F[RP_MAXC][CS_MAXDIM];
    cs_solve_stats s;
    solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a, &s, F);
    double fsc = 0;
    for (int k = 0; k < P.ncon; k++) fsc = fmax(fsc, fabs(F[k][0]));
    ck_assert(s.stationarity <= 1e-8 * fsc);
    ck_assert(s.complementarity <= 1e-8 * fsc * fsc);
    solve_prob(&P, w, CS_METHOD_PGS, 4000, -1, a, &s, F);
    ck_assert(s.stationarity <= 1e-8 * fsc);
    ck_assert(s.complementarity <= 1e-8 * fsc * fsc);
    cs_solver_free(w);
    rp_free(&P);
}
END_TEST

/* Islands: union-find over trees joined by contacts. */
START_TEST(test_islands)
{
    rng_state = 5;
    static randprob P;
    make_random(&P, 5, 4, CS_CONE_ELLIPTIC, 3);
    int pairs[4][2] = {{-1, 0}, {0, 1}, {-1, 3}, {3, 4}}; /* islands {0,1}, {3,4}; 2 free */
    cs_row_opts o = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    for (int k = 0; k < 4; k++) {
        P.cbody[k][0] = pairs[k][0];
        P.cbody[k][1] = pairs[k][1];
    }
    rp_rows(&P, &o);
    cs_solver_ws *w = rp_solver(&P);
    double a[6 * RP_MAXB], a2[6 * RP_MAXB], F[RP_MAXC][CS_MAXDIM], F2[RP_MAXC][CS_MAXDIM];
    cs_solve_stats s;
    solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a, &s, F);
    ck_assert_int_eq(s.nisland, 2);
    /* islands are numbered in order of their first block: blocks 0, 1 (bodies 0, 1) make
     * island 0, blocks 2, 3 (bodies 3, 4) island 1 */
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(cs_solver_island(w, i)->ntree, 2);
        ck_assert_int_eq(cs_solver_island(w, i)->nblock, 2);
        ck_assert_int_eq(cs_solver_island(w, i)->nv, 12);
    }
    for (int q = 0; q < 6; q++) ck_assert_double_eq(a[12 + q], P.a0[12 + q]); /* body 2 free */
    /* solving the second island alone gives the same forces */
    P.ncon = 2;
    memmove(&P.con[0], &P.con[2], 2 * sizeof P.con[0]);
    memmove(&P.cbody[0], &P.cbody[2], 2 * sizeof P.cbody[0]);
    rp_rows(&P, &o);
    solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a2, &s, F2);
    ck_assert_int_eq(s.nisland, 1);
    ck_assert_int_eq(cs_solver_island(w, 0)->ntree, 2);
    for (int i = 0; i < CS_MAXDIM; i++) {
        ck_assert_double_eq_tol(F2[0][i], F[2][i], 1e-12);
        ck_assert_double_eq_tol(F2[1][i], F[3][i], 1e-12);
    }
    for (int q = 18; q < 30; q++) ck_assert_double_eq_tol(a2[q], a[q], 1e-12);
    cs_solver_free(w);
    rp_free(&P);
}
END_TEST

/* A chain of 40 bodies in one island (above the dense limit: Newton takes the CG path)
 * plus ground contacts: Newton and PGS agree. */
START_TEST(test_large_island)
{
    rng_state = 2024;
    static randprob P;
    make_random(&P, 40, 60, CS_CONE_ELLIPTIC, 0);
    cs_row_opts o = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    for (int k = 0; k < 60; k++) {
        P.cbody[k][0] = k < 39 ? k : -1;
        P.cbody[k][1] = k < 39 ? k + 1 : (k * 7) % 40;
        for (int i = 0; i < 3; i++) P.con[k].pos[i] = P.xpos[3 * P.cbody[k][1] + i] + 0.1 * srand1();
    }
    rp_rows(&P, &o);
    cs_solver_ws *w = rp_solver(&P);
    static double a1[6 * RP_MAXB], a2[6 * RP_MAXB], F1[RP_MAXC][CS_MAXDIM], F2[RP_MAXC][CS_MAXDIM];
    cs_solve_stats s1, s2;
    solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a2, &s2, F2);
    ck_assert_int_eq(s2.nisland, 1);
    ck_assert_int_eq(cs_solver_island(w, 0)->ntree, 40);
    /* 240 dofs, but a chain: the breadth-first envelope is narrow, so it is factored */
    ck_assert_int_eq(cs_solver_island(w, 0)->newton_dense, 1);
    static double a3[6 * RP_MAXB], F3[RP_MAXC][CS_MAXDIM];
    cs_solve_stats s3;
    g_dense_max = -1; /* and conjugate gradients on the assembled blocks */
    solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a3, &s3, F3);
    g_dense_max = 0;
    ck_assert_int_eq(cs_solver_island(w, 0)->newton_dense, 2);
    solve_prob(&P, w, CS_METHOD_PGS, 3000, -1, a1, &s1, F1);
    double md = 0, mc = 0;
    for (int k = 0; k < 60; k++)
        for (int i = 0; i < CS_MAXDIM; i++) {
            md = fmax(md, fabs(F1[k][i] - F2[k][i]));
            mc = fmax(mc, fabs(F3[k][i] - F2[k][i]));
        }
    printf("40-body island, 60 contacts: |f_pgs - f_newton(dense)| = %.3g, |f_cg - f_dense| = "
           "%.3g, newton iterations %d (CG %d), duality gap %.3g\n", md, mc, s2.iterations,
           s3.iterations, fabs(s2.primal_cost + s1.dual_cost) / s2.primal_cost);
    ck_assert(md <= 1e-6);
    ck_assert(mc <= 1e-6);
    ck_assert(fabs(s2.primal_cost + s1.dual_cost) <= 1e-9 * s2.primal_cost);
    cs_solver_free(w);
    rp_free(&P);
}
END_TEST

/* A large pair group (no size limit in the group solve): 70 contacts of one body
 * with static geometry plus a few with a second body, random condims: PGS with pair
 * blocking agrees with Newton. Pyramidal too. */
START_TEST(test_pair_group_large)
{
    for (int c = 0; c < 2; c++) {
        rng_state = 31 + c;
        static randprob P;
        cs_cone_type cone = c ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC;
        make_random(&P, 2, 74, cone, 0);
        cs_row_opts o = {0.002, 1, cone, 1};
        for (int k = 0; k < 74; k++) {
            P.cbody[k][0] = k < 70 ? -1 : 0;
            P.cbody[k][1] = 1;
            for (int i = 0; i < 3; i++) P.con[k].pos[i] = P.xpos[3 + i] + 0.2 * srand1();
        }
        rp_rows(&P, &o);
        cs_solver_ws *w = rp_solver(&P);
        static double a1[6 * RP_MAXB], a2[6 * RP_MAXB], F1[RP_MAXC][CS_MAXDIM], F2[RP_MAXC][CS_MAXDIM];
        cs_solve_stats s1, s2;
        solve_prob(&P, w, CS_METHOD_NEWTON, 100, 1e-15, a2, &s2, F2);
        solve_prob(&P, w, CS_METHOD_PGS, 1000, -1, a1, &s1, F1);
        double md = 0, fm = 1;
        for (int k = 0; k < 74; k++)
            for (int i = 0; i < CS_MAXDIM; i++) {
                md = fmax(md, fabs(F1[k][i] - F2[k][i]));
                fm = fmax(fm, fabs(F2[k][i]));
            }
        printf("pair group of 70 blocks (%s): |f_pgs - f_newton| = %.3g, pgs sweeps %d, newton "
               "%d, gap %.3g\n", c ? "pyramidal" : "elliptic", md, s1.iterations, s2.iterations,
               fabs(s2.primal_cost + s1.dual_cost) / fabs(s2.primal_cost));
        fflush(stdout);
        ck_assert(md <= 1e-6);
        ck_assert(s1.feasibility <= 1e-12 * fm);
        ck_assert(fabs(s2.primal_cost + s1.dual_cost) <= 1e-9 * fabs(s2.primal_cost));
        cs_solver_free(w);
        rp_free(&P);
    }
}
END_TEST

/* One contact through the body origin with the COM there: A = I/m in the contact frame,
 * so the full problem is the §7 block with R' = 1/m + R, b = J a0 - a_ref in place of j. */
START_TEST(test_single_contact_closed_form)
{
    sphere_t s;
    sphere_init(&s, 0.1);
    cs_contact_in c;
    sphere_contact(&s, 3, &c);
    c.pos[2] = 0.1; /* at the origin: no lever arm */
    c.friction[0] = c.friction[1] = 0.5;
    cs_row_opts o = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    const cs_mass *M = fb_mass(&s.fm, 1, s.M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    /* contact-frame b = (b_n, b_t1, b_t2) for the top, bottom and middle zones */
    double bs[3][3] = {{1, 0.1, 0.2}, {-10, 0.3, -0.1}, {-1, 5, -3}};
    int zones[3] = {CS_ZONE_TOP, CS_ZONE_BOTTOM, CS_ZONE_MIDDLE};
    for (int zi = 0; zi < 3; zi++) {
        sphere_rows(&e, &s, &c, &o);
        for (int i = 0; i < 3; i++) e.aref[i] = -bs[zi][i]; /* a0 = 0: b = -aref */
        double a0[6] = {0}, a[6];
        double Rn = 0.5 + e.R[0], kap = (0.5 + e.R[1]) * 0.25, mu = 0.5;
        double T = mu * hypot(bs[zi][1], bs[zi][2]), jn = bs[zi][0], fe[3];
        if (jn >= T) {
            fe[0] = fe[1] = fe[2] = 0;
        } else if (kap * jn + Rn * T <= 0) {
            fe[0] = -jn / Rn;
            fe[1] = -bs[zi][1] / (0.5 + e.R[1]);
            fe[2] = -bs[zi][2] / (0.5 + e.R[2]);
        } else {
            fe[0] = (T - jn) / (Rn + kap);
            fe[1] = -fe[0] * mu * mu * bs[zi][1] / T;
            fe[2] = -fe[0] * mu * mu * bs[zi][2] / T;
        }
        for (int t = 0; t < 2; t++) {
            cs_problem p = {M, a0, &e, 0};
            cs_solver_opts so;
            cs_solver_opts_default(&so);
            so.finish_after = 0; /* the sweeps alone (no Newton finish) */
            so.type = t ? CS_METHOD_NEWTON : CS_METHOD_PGS;
            so.max_iter = 1000;
            so.tolerance = 1e-15;
            cs_solve_stats st;
            ck_assert_int_eq(cs_solve(w, &p, &so, NULL, a, &st), 0);
            for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(e.blk_force[i], fe[i], 1e-9);
            ck_assert_int_eq(e.blk_zone[0], zones[zi]);
            /* Newton's law: m a = C^T f */
            ck_assert_double_eq_tol(2 * a[2], fe[0], 1e-9);
            ck_assert_double_eq_tol(2 * a[1], fe[1], 1e-9);
            ck_assert_double_eq_tol(2 * a[0], -fe[2], 1e-9);
        }
    }
    cs_efc_free(&e);
    cs_solver_free(w);
}
END_TEST

/* ------------------------------------------------------------ the resting sphere ---- */

typedef struct {
    double pen, fn, force[6];
    int it_last, it_max_rest, it_cold;
    double max_friction, min_edge;
} rest_result;

/* Semi-implicit Euler, as MuJoCo: v += h a, z += h v. 4 s from touching at rest. */
static void sphere_rest_opts(cs_solve_method type, cs_cone_type cone, int dim, double tol, int maxit,
                             int exact, rest_result *res)
{
    sphere_t s;
    sphere_init(&s, 0.1);
    const cs_mass *M = fb_mass(&s.fm, 1, s.M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = {0.002, 1, cone, 1};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.finish_after = 0; /* the sweeps alone (no Newton finish) */
    so.type = type;
    so.max_iter = maxit;
    so.tolerance = tol;
    so.exact_block = exact;
    double a[6], aprev[6] = {0};
    int have_prev = 0;
    memset(res, 0, sizeof *res);
    res->min_edge = 1e300;
    for (int step = 0; step < 2000; step++) {
        cs_contact_in c;
        sphere_contact(&s, dim, &c);
        cs_efc_clear(&e);
        int nblk = 0;
        if (c.dist < c.margin - c.gap) {
            sphere_rows(&e, &s, &c, &o);
            nblk = 1;
        }
        cs_problem p = {M, s.a0, &e, 0};
        cs_solve_stats st;
        ck_assert_int_eq(cs_solve(w, &p, &so, have_prev ? aprev : NULL, a, &st), 0);
        if (nblk) {
            memcpy(res->force, e.blk_force, sizeof res->force);
            res->it_last = st.iterations;
            if (step >= 1900 && st.iterations > res->it_max_rest) res->it_max_rest = st.iterations;
            for (int r = 0; r < e.blk_nrow[0] && e.blk_kind[0] == CS_BLOCK_PYRAMIDAL; r++)
                res->min_edge = fmin(res->min_edge, e.force[r]);
            if (step == 1999) { /* the same rest problem from a cold start */
                cs_solve(w, &p, &so, NULL, a, &st);
                res->it_cold = st.iterations;
                cs_solve(w, &p, &so, aprev, a, &st);
            }
        }
        memcpy(aprev, a, sizeof a);
        have_prev = 1;
        for (int q = 0; q < 6; q++) s.qvel[q] += 0.002 * a[q];
        for (int i = 0; i < 3; i++) s.xpos[i] += 0.002 * s.qvel[i];
    }
    res->pen = 0.1 - s.xpos[2];
    res->fn = res->force[0];
    for (int i = 1; i < dim; i++) res->max_friction = fmax(res->max_friction, fabs(res->force[i]));
    cs_efc_free(&e);
    cs_solver_free(w);
}

static void sphere_rest(cs_solve_method type, cs_cone_type cone, int dim, rest_result *res)
{
    sphere_rest_opts(type, cone, dim, 1e-15, 1000, 1, res);
}

/* With the default options (100 iterations, tolerance 1e-8) the sphere rests at §8's
 * penetration for every solver and cone; MuJoCo's scalar pass over the pyramid edges
 * (exact_block = 0) is reported for comparison. */
START_TEST(test_sphere_rest_defaults)
{
    for (int v = 0; v < 5; v++) {
        rest_result r;
        sphere_rest_opts(v & 1 ? CS_METHOD_NEWTON : CS_METHOD_PGS,
                         (v & 2) || v == 4 ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC, 3, 1e-8, 100,
                         v != 4, &r);
        printf("sphere, default options, %s %s%s: pen %.9g m f_n %.9g N, rest iterations %d\n",
               (v & 2) || v == 4 ? "pyramidal" : "elliptic", v & 1 ? "newton" : "pgs",
               v == 4 ? " (MuJoCo's edge pass)" : "", r.pen, r.fn, r.it_max_rest);
        if (v == 4) continue;
        ck_assert_double_eq_tol(r.pen, 3.67182e-4, 1e-9);
        ck_assert_double_eq_tol(r.fn, 19.62, 1e-6);
    }
}
END_TEST

/* MuJoCo 3.12's rule (newton_early, the default): a warm start that already meets the
 * tolerance -- scaled gradient, and the gap 1/2 g'M^-1 g, which bounds its cost's excess over
 * the optimum -- takes no Newton step, and its cost then is within the tolerance of the
 * optimum; with newton_early = 0 Newton steps at least once. The warm start is the optimum
 * moved by 1e-11 of the way toward the unconstrained acceleration. */
START_TEST(test_newton_warm_no_step)
{
    sphere_t s;
    sphere_init(&s, 0.1 - 3.67182e-4); /* at the rest penetration, at rest */
    const cs_mass *M = fb_mass(&s.fm, 1, s.M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts ro = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    cs_contact_in c;
    sphere_contact(&s, 3, &c);
    sphere_rows(&e, &s, &c, &ro);
    cs_problem p = {M, s.a0, &e, 1}; /* meaninertia 1: scale = 1 / 6 */
    const double scale = 1.0 / 6, tol = 1e-8;
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.type = CS_METHOD_NEWTON;
    so.stats = 1;
    so.max_iter = 1000;
    so.tolerance = 1e-15;
    double opt[6], warm[6], a[6];
    cs_solve_stats st;
    ck_assert_int_eq(cs_solve(w, &p, &so, NULL, opt, &st), 0);
    double cost_opt = st.primal_cost;
    ck_assert_double_eq_tol(e.blk_force[0], 19.62, 1e-6); /* m g: the optimum is the rest */
    for (int q = 0; q < 6; q++) warm[q] = opt[q] + 1e-11 * (s.a0[q] - opt[q]);
    so.tolerance = tol;
    for (int early = 1; early >= 0; early--) {
        so.newton_early = early;
        ck_assert_int_eq(cs_solve(w, &p, &so, warm, a, &st), 0);
        double grad = sqrt(6.0) * st.stationarity; /* >= |M (a - a0) - J^T f|_2 */
        printf("newton_early=%d: iterations %d, scaled cost excess %.3g, scaled gradient <= %.3g\n",
               early, st.iterations, scale * (st.primal_cost - cost_opt), scale * grad);
        ck_assert_double_lt(scale * (st.primal_cost - cost_opt), tol);
        ck_assert_double_lt(scale * grad, tol);
        if (early) {
            ck_assert_int_eq(st.iterations, 0);
            for (int q = 0; q < 6; q++) ck_assert_double_eq(a[q], warm[q]); /* no step */
        } else {
            ck_assert_int_ge(st.iterations, 1);
        }
    }
    cs_efc_free(&e);
    cs_solver_free(w);
}
END_TEST

/* Rest penetration from the force balance K imp(x)^2 x / (1 - imp(x)) * c = g, c = ratio of
 * the normal stiffness factor; found by bisection (independent of the solvers). */
static double rest_pen(double coef)
{
    double s[5], lo = 0, hi = 0.001, K = 1 / (0.95 * 0.95 * 0.02 * 0.02);
    cs_solimp_clamp(SOLIMP_DEF, s);
    for (int k = 0; k < 200; k++) {
        double x = 0.5 * (lo + hi), imp = cs_impedance(s, -x, 0, NULL);
        if (coef * K * imp * imp * x / (1 - imp) < 9.81) lo = x; else hi = x;
    }
    return 0.5 * (lo + hi);
}

START_TEST(test_sphere_rest_elliptic)
{
    double pen = rest_pen(1);
    ck_assert_double_eq_tol(pen, 3.67182e-4, 1e-9);
    for (int t = 0; t < 2; t++) {
        rest_result r;
        sphere_rest(t ? CS_METHOD_NEWTON : CS_METHOD_PGS, CS_CONE_ELLIPTIC, 3, &r);
        printf("sphere elliptic %s: pen %.9g m, f_n %.12g N, rest iterations warm %d (max over "
               "last 100 steps %d), cold %d\n",
               t ? "newton" : "pgs", r.pen, r.fn, r.it_last, r.it_max_rest, r.it_cold);
        ck_assert_double_eq_tol(r.pen, 3.67182e-4, 1e-9);
        ck_assert_double_eq_tol(r.fn, 19.62, 1e-7);
        ck_assert(r.max_friction <= 1e-9);
        ck_assert_int_le(r.it_max_rest, 3);
        if (!t) ck_assert_int_lt(r.it_max_rest, r.it_cold);
    }
}
END_TEST

START_TEST(test_sphere_rest_condim6)
{
    rest_result r;
    sphere_rest(CS_METHOD_PGS, CS_CONE_ELLIPTIC, 6, &r);
    ck_assert_double_eq_tol(r.pen, 3.67182e-4, 1e-9);
    ck_assert_double_eq_tol(r.fn, 19.62, 1e-7);
    sphere_rest(CS_METHOD_NEWTON, CS_CONE_ELLIPTIC, 4, &r);
    ck_assert_double_eq_tol(r.fn, 19.62, 1e-7);
}
END_TEST

START_TEST(test_sphere_rest_pyramidal)
{
    /* 4 edges share f_n, each with R = 2 mu^2 (1-imp)/imp tran (1 + f^2): with friction 1,
     * impratio 1 the normal stiffness matches the elliptic one (MuJoCo's "normal match") */
    double pen = rest_pen(4 / (2 * 1.0 * (1 + 1.0)));
    for (int t = 0; t < 2; t++) {
        rest_result r;
        sphere_rest(t ? CS_METHOD_NEWTON : CS_METHOD_PGS, CS_CONE_PYRAMIDAL, 3, &r);
        printf("sphere pyramidal %s: pen %.9g m, f_n %.12g N, rest iterations warm %d, cold %d\n",
               t ? "newton" : "pgs", r.pen, r.fn, r.it_max_rest, r.it_cold);
        ck_assert_double_eq_tol(r.pen, pen, 1e-9);
        ck_assert_double_eq_tol(r.fn, 19.62, 1e-7);
        ck_assert(r.min_edge >= 0);
        ck_assert_int_le(r.it_max_rest, 5);
        if (!t) ck_assert_int_lt(r.it_max_rest, r.it_cold);
        ck_assert(r.max_friction <= 1e-6); /* edge pairs balance only to PGS accuracy */
    }
}
END_TEST

/* A 1 kg box (half sizes 0.2 0.1 0.05) resting on its 4 bottom corners: coupled contacts,
 * so a cold PGS needs many sweeps while the warm start needs a handful. */
static void rodrigues(double *R, const double *w, double h)
{
    double th = h * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (th == 0) return;
    double k[3] = {w[0] * h / th, w[1] * h / th, w[2] * h / th}, E[9], Rn[9];
    double c = cos(th), sn = sin(th), v = 1 - c;
    double m[9] = {c + k[0] * k[0] * v, k[0] * k[1] * v - k[2] * sn, k[0] * k[2] * v + k[1] * sn,
                   k[1] * k[0] * v + k[2] * sn, c + k[1] * k[1] * v, k[1] * k[2] * v - k[0] * sn,
                   k[2] * k[0] * v - k[1] * sn, k[2] * k[1] * v + k[0] * sn, c + k[2] * k[2] * v};
    memcpy(E, m, sizeof E);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            Rn[3 * i + j] = 0;
            for (int l = 0; l < 3; l++) Rn[3 * i + j] += R[3 * i + l] * E[3 * l + j];
        }
    memcpy(R, Rn, sizeof Rn);
}

static void box_rest_opts(cs_solve_method type, cs_cone_type cone, int group, double *pen,
                          double *fsum, int *it_warm, int *it_cold)
{
    double hs[3] = {0.2, 0.1, 0.05}, m = 1;
    double xpos[3] = {0, 0, 0.05}, xmat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, qvel[6] = {0};
    double I[3] = {m / 3 * (hs[1] * hs[1] + hs[2] * hs[2]), m / 3 * (hs[0] * hs[0] + hs[2] * hs[2]),
                   m / 3 * (hs[0] * hs[0] + hs[1] * hs[1])};
    double M[36] = {0}, a0[6] = {0, 0, -9.81, 0, 0, 0}, iw[2] = {1 / m, (1 / I[0] + 1 / I[1] + 1 / I[2]) / 3};
    for (int i = 0; i < 3; i++) {
        M[7 * i] = m;
        M[7 * (3 + i)] = I[i];
    }
    fbmass fm;
    const cs_mass *Mt = fb_mass(&fm, 1, M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = {0.002, 1, cone, 1};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.finish_after = 0; /* the sweeps alone (no Newton finish) */
    so.type = type;
    so.max_iter = 1000;
    so.tolerance = 1e-13;
    so.blocking = group ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    double a[6], aprev[6] = {0};
    *it_warm = 0;
    for (int step = 0; step < 1500; step++) {
        cs_contact_in c[4];
        fbstate S = {xpos, xmat, iw, qvel};
        cs_efc_clear(&e);
        int nb = 0;
        double mind = 1;
        for (int k = 0; k < 4; k++) {
            double cl[3] = {(k & 1) ? hs[0] : -hs[0], (k & 2) ? hs[1] : -hs[1], -hs[2]}, cw[3];
            for (int i = 0; i < 3; i++)
                cw[i] = xpos[i] + xmat[3 * i] * cl[0] + xmat[3 * i + 1] * cl[1] + xmat[3 * i + 2] * cl[2];
            sphere_t dummy;
            sphere_init(&dummy, 0.1);
            sphere_contact(&dummy, 3, &c[nb]);
            c[nb].dist = cw[2];
            for (int i = 0; i < 3; i++) c[nb].pos[i] = cw[i];
            c[nb].pos[2] -= 0.5 * cw[2];
            mind = fmin(mind, cw[2]);
            if (c[nb].dist < 0) {
                ck_assert_int_ge(fb_contact(&e, &c[nb], nb, -1, 0, &S, &o), 0);
                nb++;
            }
        }
        cs_problem p = {Mt, a0, &e, 0};
        cs_solve_stats st;
        ck_assert_int_eq(cs_solve(w, &p, &so, step ? aprev : NULL, a, &st), 0);
        if (step >= 1400 && st.iterations > *it_warm) *it_warm = st.iterations;
        if (step == 1499) {
            *fsum = 0;
            for (int k = 0; k < nb; k++) *fsum += e.blk_force[CS_MAXDIM * k];
            ck_assert_int_eq(nb, 4);
            cs_solve(w, &p, &so, NULL, a, &st);
            *it_cold = st.iterations;
            *pen = -mind;
        }
        memcpy(aprev, a, sizeof a);
        for (int q = 0; q < 6; q++) qvel[q] += 0.002 * a[q];
        for (int i = 0; i < 3; i++) xpos[i] += 0.002 * qvel[i];
        rodrigues(xmat, qvel + 3, 0.002);
    }
    cs_efc_free(&e);
    cs_solver_free(w);
}

/* With pair blocking (the default) the 4 corners are one Gauss-Seidel block solved exactly:
 * a cold start then needs only a couple of sweeps too. */
static void box_rest(cs_solve_method type, cs_cone_type cone, double *pen, double *fsum,
                     int *it_warm, int *it_cold)
{
    box_rest_opts(type, cone, type == CS_METHOD_PGS ? 0 : 1, pen, fsum, it_warm, it_cold);
    if (type != CS_METHOD_PGS) return;
    double pen2, fs2;
    int iw2, ic2;
    box_rest_opts(type, cone, 1, &pen2, &fs2, &iw2, &ic2);
    printf("box on 4 corners, %s pgs, pair groups: pen %.9g m, sum f_n %.9g N, iterations at "
           "rest: warm max %d, cold %d\n", cone == CS_CONE_PYRAMIDAL ? "pyramidal" : "elliptic",
           pen2, fs2, iw2, ic2);
    ck_assert_double_eq_tol(fs2, 9.81, 1e-6);
    ck_assert_double_eq_tol(pen2, *pen, 1e-9);
    ck_assert_int_le(iw2, 2);
    ck_assert_int_le(ic2, 3);
    ck_assert_int_le(iw2, ic2);
}

/* The warm-start assertions below are about the one-block-at-a-time PGS
 * (CS_PGS_BLOCK_CONTACT), where a cold start needs many sweeps; box_rest checks the grouped
 * default alongside. */
START_TEST(test_box_rest_warmstart)
{
    double pen4 = rest_pen(4); /* each corner carries m g / 4 with dA = 1/m */
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 2; t++) {
            double pen, fs;
            int iw, ic;
            box_rest(t ? CS_METHOD_NEWTON : CS_METHOD_PGS, c ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC,
                     &pen, &fs, &iw, &ic);
            printf("box on 4 corners, %s %s: pen %.9g m (force balance %.9g), sum f_n %.9g N, "
                   "iterations at rest: warm max %d, cold %d\n",
                   c ? "pyramidal" : "elliptic", t ? "newton" : "pgs", pen, pen4, fs, iw, ic);
            ck_assert_double_eq_tol(fs, 9.81, 1e-6);
            ck_assert_double_eq_tol(pen, pen4, 1e-9); /* friction 1: pyramid matches too */
            ck_assert_int_le(iw, 15);
            if (!t) ck_assert_int_lt(10 * iw, ic);
        }
}
END_TEST

/* A box on a 33-degree incline with mu 0.6 (gravity tilted instead of the plane), sliding
 * from rest for 2 s, must travel g (sin - mu cos) t^2 / 2. */
static double box_incline_opts(cs_solve_method type, cs_cone_type cone, int exact, int group,
                               int budget, int *maxit, int *atlimit, double *sumit)
{
    double hs[3] = {0.2, 0.1, 0.05}, m = 1, gam = 33 * PI / 180;
    double xpos[3] = {0, 0, 0.05 - 1e-4}, xmat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, qvel[6] = {0};
    double I[3] = {m / 3 * (hs[1] * hs[1] + hs[2] * hs[2]), m / 3 * (hs[0] * hs[0] + hs[2] * hs[2]),
                   m / 3 * (hs[0] * hs[0] + hs[1] * hs[1])};
    double M[36] = {0}, iw[2] = {1 / m, (1 / I[0] + 1 / I[1] + 1 / I[2]) / 3};
    double a0[6] = {0, 9.81 * sin(gam), -9.81 * cos(gam), 0, 0, 0};
    for (int i = 0; i < 3; i++) {
        M[7 * i] = m;
        M[7 * (3 + i)] = I[i];
    }
    fbmass fm;
    const cs_mass *Mt = fb_mass(&fm, 1, M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = {0.002, 1, cone, 1};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.finish_after = 0; /* the sweeps alone (no Newton finish) */
    so.type = type;
    so.exact_block = exact;
    so.blocking = group ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    so.max_iter = budget;
    so.tolerance = 1e-15;
    double a[6], aprev[6] = {0};
    *maxit = *atlimit = 0;
    *sumit = 0;
    for (int step = 0; step < 1000; step++) {
        cs_contact_in c[4];
        fbstate S = {xpos, xmat, iw, qvel};
        cs_efc_clear(&e);
        int nb = 0;
        for (int k = 0; k < 4; k++) {
            double cl[3] = {(k & 1) ? hs[0] : -hs[0], (k & 2) ? hs[1] : -hs[1], -hs[2]}, cw[3];
            for (int i = 0; i < 3; i++)
                cw[i] = xpos[i] + xmat[3 * i] * cl[0] + xmat[3 * i + 1] * cl[1] + xmat[3 * i + 2] * cl[2];
            sphere_t dummy;
            sphere_init(&dummy, 0.1);
            sphere_contact(&dummy, 3, &c[nb]);
            c[nb].friction[0] = c[nb].friction[1] = 0.6;
            c[nb].dist = cw[2];
            for (int i = 0; i < 3; i++) c[nb].pos[i] = cw[i];
            c[nb].pos[2] -= 0.5 * cw[2];
            if (c[nb].dist < 0) {
                ck_assert_int_ge(fb_contact(&e, &c[nb], nb, -1, 0, &S, &o), 0);
                nb++;
            }
        }
        cs_problem p = {Mt, a0, &e, 0};
        cs_solve_stats st;
        ck_assert_int_eq(cs_solve(w, &p, &so, step ? aprev : NULL, a, &st), 0);
        if (st.iterations > *maxit) *maxit = st.iterations;
        *atlimit += nb && st.iterations >= budget;
        *sumit += st.iterations;
        memcpy(aprev, a, sizeof a);
        for (int q = 0; q < 6; q++) qvel[q] += 0.002 * a[q];
        for (int i = 0; i < 3; i++) xpos[i] += 0.002 * qvel[i];
        rodrigues(xmat, qvel + 3, 0.002);
    }
    cs_efc_free(&e);
    cs_solver_free(w);
    return xpos[1];
}

static double box_incline(cs_solve_method type, cs_cone_type cone, int exact, int *maxit)
{
    int lim;
    double sum;
    return box_incline_opts(type, cone, exact, 1, 2000, maxit, &lim, &sum);
}

START_TEST(test_box_incline)
{
    double gam = 33 * PI / 180, d = 0.5 * 9.81 * (sin(gam) - 0.6 * cos(gam)) * 4;
    const char *names[4] = {"pgs exact-block", "pgs MuJoCo split", "newton", "pyramidal pgs"};
    double y[4];
    for (int v = 0; v < 4; v++) {
        int it;
        y[v] = box_incline(v == 2 ? CS_METHOD_NEWTON : CS_METHOD_PGS,
                           v == 3 ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC, v != 1, &it);
        printf("incline 33 deg mu 0.6, 2 s: %s slides %.6f m (formula %.6f, %+.3f%%), max "
               "iterations %d\n",
               names[v], y[v], d, 100 * (y[v] - d) / d, it);
    }
    ck_assert_double_eq_tol(y[0], d, 0.005 * d);
    ck_assert_double_eq_tol(y[2], d, 0.005 * d);
    ck_assert_double_eq_tol(y[0], y[2], 1e-6);
}
END_TEST

/* The sliding, hopping box on the incline (4 corners on one body): with its corners solved
 * jointly (CS_PGS_BLOCK_PAIR, the default) PGS reaches Newton's trajectory within a budget of
 * 10 sweeps a step, where one block at a time needs hundreds of sweeps on some steps and
 * with 10 ends millimetres away. Both cones. */
START_TEST(test_box_incline_sweeps)
{
    for (int c = 0; c < 2; c++) {
        cs_cone_type cone = c ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC;
        int itn, itg, itb, itg10, itb10, lim, limg, limb, limg10, limb10;
        double sn, sg, sb, sg10, sb10;
        double yn = box_incline_opts(CS_METHOD_NEWTON, cone, 1, 1, 100, &itn, &lim, &sn);
        double yg = box_incline_opts(CS_METHOD_PGS, cone, 1, 1, 2000, &itg, &limg, &sg);
        double yb = box_incline_opts(CS_METHOD_PGS, cone, 1, 0, 2000, &itb, &limb, &sb);
        double yg10 = box_incline_opts(CS_METHOD_PGS, cone, 1, 1, 10, &itg10, &limg10, &sg10);
        double yb10 = box_incline_opts(CS_METHOD_PGS, cone, 1, 0, 10, &itb10, &limb10, &sb10);
        printf("incline %s, tolerance 1e-15: sweeps a step (max / total over 1000 steps): pair "
               "groups %d / %.0f, one block at a time %d / %.0f; budget 10: pair groups at the "
               "limit on %d steps, |y - y_newton| %.3g m; one block at a time at the limit on %d "
               "steps, |y - y_newton| %.3g m\n",
               c ? "pyramidal" : "elliptic", itg, sg, itb, sb, limg10, fabs(yg10 - yn), limb10,
               fabs(yb10 - yn));
        ck_assert_double_eq_tol(yg, yn, 1e-6);
        ck_assert_double_eq_tol(yb, yn, 1e-6); /* both converge to the same optimum */
        ck_assert_int_lt(5 * itg, itb);
        ck_assert_double_lt(2 * sg, sb);
        ck_assert_int_eq(limg10, 0);
        ck_assert_double_eq_tol(yg10, yn, 1e-6);
        ck_assert_int_gt(limb10, 0);
        ck_assert_double_gt(fabs(yb10 - yn), 1e-4);
    }
}
END_TEST

/* A sliding contact: the exact-block PGS matches Newton; MuJoCo's single split pass is
 * reported for comparison. */
START_TEST(test_sliding_split_vs_exact)
{
    sphere_t s;
    sphere_init(&s, 0.1 - 3.5e-4);
    s.qvel[1] = 1.0; /* sliding along t1 */
    s.qvel[0] = -0.4;
    cs_contact_in c;
    sphere_contact(&s, 3, &c);
    c.friction[0] = 0.6;
    c.friction[1] = 0.3;
    cs_row_opts o = {0.002, 1, CS_CONE_ELLIPTIC, 1};
    const cs_mass *M = fb_mass(&s.fm, 1, s.M);
    cs_solver_ws *w = cs_solver_create(6, 1);
    cs_efc e;
    cs_efc_init(&e);
    double F[3][6], a[6];
    int its[3];
    for (int v = 0; v < 3; v++) {
        sphere_rows(&e, &s, &c, &o);
        cs_problem p = {M, s.a0, &e, 0};
        cs_solver_opts so;
        cs_solver_opts_default(&so);
        so.finish_after = 0; /* the sweeps alone (no Newton finish) */
        so.type = v == 2 ? CS_METHOD_NEWTON : CS_METHOD_PGS;
        so.exact_block = v != 1;
        so.max_iter = 2000;
        so.tolerance = 1e-15;
        cs_solve_stats st;
        ck_assert_int_eq(cs_solve(w, &p, &so, NULL, a, &st), 0);
        memcpy(F[v], e.blk_force, sizeof F[v]);
        its[v] = st.iterations;
    }
    printf("sliding contact: exact PGS (%d it) f = (%.12g, %.12g, %.12g); split PGS (%d it) "
           "f = (%.12g, %.12g, %.12g); Newton (%d it) f = (%.12g, %.12g, %.12g)\n",
           its[0], F[0][0], F[0][1], F[0][2], its[1], F[1][0], F[1][1], F[1][2], its[2], F[2][0],
           F[2][1], F[2][2]);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(F[0][i], F[2][i], 1e-8);
    ck_assert(F[2][0] > 0 && F[2][1] < 0); /* friction opposes the t1 sliding */
    cs_efc_free(&e);
    cs_solver_free(w);
}
END_TEST

static Suite *solver_suite(void)
{
    Suite *s = suite_create("solver");
    TCase *t = tcase_create("rows");
    tcase_add_test(t, test_impedance_hand);
    tcase_add_test(t, test_solref_hand);
    tcase_add_test(t, test_rows_sphere_hand);
    tcase_add_test(t, test_jacobian_two_bodies);
    tcase_add_test(t, test_mass_operator);
    suite_add_tcase(s, t);
    t = tcase_create("local");
    tcase_add_test(t, test_fn_qcqp_worked);
    tcase_add_test(t, test_cone_qp_kkt);
    tcase_add_test(t, test_fn_qcqp_vs_cone);
    tcase_add_test(t, test_nonneg_qp_kkt);
    tcase_add_test(t, test_soft_zones_worked);
    suite_add_tcase(s, t);
    t = tcase_create("solve");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_agree_elliptic);
    tcase_add_test(t, test_agree_pyramidal);
    tcase_add_test(t, test_residuals);
    tcase_add_test(t, test_islands);
    tcase_add_test(t, test_large_island);
    tcase_add_test(t, test_pair_group_large);
    tcase_add_test(t, test_single_contact_closed_form);
    tcase_add_test(t, test_sliding_split_vs_exact);
    suite_add_tcase(s, t);
    t = tcase_create("sphere");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_sphere_rest_elliptic);
    tcase_add_test(t, test_sphere_rest_condim6);
    tcase_add_test(t, test_sphere_rest_pyramidal);
    tcase_add_test(t, test_sphere_rest_defaults);
    tcase_add_test(t, test_newton_warm_no_step);
    tcase_add_test(t, test_box_rest_warmstart);
    tcase_add_test(t, test_box_incline);
    tcase_add_test(t, test_box_incline_sweeps);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(solver_suite());
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
