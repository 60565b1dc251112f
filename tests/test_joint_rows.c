/* Joint rows (docs/contact-math.md §10) and trees of any size: the rows' numbers against
 * MuJoCo's formulas, the soft response (limit and the friction-loss Huber) against its closed
 * form, one-dof problems against their closed-form optima, and forests of articulated trees
 * (chains of up to 20 dofs, a floating base with legs, a 72-dof chain) with contacts, limits
 * and friction rows, where every solver path reaches the same optimum. Linked with
 * --wrap=malloc etc.: solves after the first allocate nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "solver.h"

static const double SOLIMP_DEF[5] = {0.9, 0.95, 0.001, 0.5, 2};
static const double SOLREF_DEF[2] = {0.02, 1};
static const double G = 9.81;

/* ---- deterministic random numbers (fixed seed) ---- */
static unsigned long long rng_state;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double srand1(void) { return 2 * urand() - 1; }

/* ---- a forest of kinematic trees with a random tree-structured mass matrix ----
 * Dofs are numbered tree by tree, a dof's parent before it. M = L^T D L per tree with L unit
 * lower triangular and nonzero only at (dof, ancestor): such an M has entries only between a
 * dof and its ancestors, MuJoCo's layout (row i: M(i,i), M(i,p(i)), ...). */
#define MAXV 200
#define MAXT 8
#define MAXM (MAXV * (MAXV + 1) / 2)
typedef struct {
    int nv, ntree, nM;
    int dof_parent[MAXV], dof_Madr[MAXV], dof_treeid[MAXV];
    int tree_dofadr[MAXT], tree_dofnum[MAXT];
    double qM[MAXM], qLD[MAXM], qLDiagInv[MAXV];
    double Md[MAXV * MAXV]; /* M dense (for the checks) */
    cs_mass mass;
} forest;

static void forest_init(forest *F)
{
    memset(F, 0, sizeof *F);
}

/* Append a tree of n dofs; par[i] (< i, or -1 at a root) is dof i's parent, tree-local. */
static void forest_tree(forest *F, int n, const int *par)
{
    ck_assert(F->ntree < MAXT && F->nv + n <= MAXV);
    int t = F->ntree++, a = F->nv;
    F->tree_dofadr[t] = a;
    F->tree_dofnum[t] = n;
    for (int i = 0; i < n; i++) {
        ck_assert(par[i] < i);
        F->dof_parent[a + i] = par[i] < 0 ? -1 : a + par[i];
        F->dof_treeid[a + i] = t;
    }
    F->nv += n;
    /* L (dense over the tree, rows k, columns the ancestors of k) and D */
    static double L[MAXV * MAXV];
    double D[MAXV];
    memset(L, 0, sizeof(double) * n * n);
    for (int k = 0; k < n; k++) {
        L[k * n + k] = 1;
        D[k] = 0.5 + 1.5 * urand();
        for (int i = par[k], lvl = 0; i >= 0; i = par[i], lvl++)
            L[k * n + i] = (lvl ? 0.05 : 0.15) * srand1();
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += L[k * n + i] * D[k] * L[k * n + j];
            F->Md[(a + i) * MAXV + a + j] = s;
        }
}

/* Row addresses and qM from Md; the operator, factored. */
static const cs_mass *forest_mass(forest *F)
{
    int adr = 0;
    for (int i = 0; i < F->nv; i++) {
        F->dof_Madr[i] = adr;
        for (int j = i; j >= 0; j = F->dof_parent[j]) F->qM[adr++] = F->Md[i * MAXV + j];
    }
    F->nM = adr;
    /* the tree structure: no entry between dofs that are not ancestors of one another */
    for (int i = 0; i < F->nv; i++)
        for (int j = 0; j < i; j++) {
            int anc = 0;
            for (int q = F->dof_parent[i]; q >= 0; q = F->dof_parent[q]) anc |= q == j;
            if (!anc) ck_assert(fabs(F->Md[i * MAXV + j]) < 1e-15);
        }
    F->mass = (cs_mass){F->nv, F->nM, F->ntree, F->dof_parent, F->dof_Madr, F->dof_treeid,
                        F->tree_dofadr, F->tree_dofnum, F->qM, F->qLD, F->qLDiagInv};
    ck_assert_int_eq(cs_mass_factor(&F->mass), 0);
    return &F->mass;
}

static void chain_parents(int n, int *par)
{
    for (int i = 0; i < n; i++) par[i] = i - 1;
}

/* A floating base (6 dofs in a chain) with legs of nl dofs each hanging from its last dof. */
static int legged_parents(int nleg, int nl, int *par)
{
    int n = 0;
    for (int i = 0; i < 6; i++, n++) par[n] = n - 1;
    for (int l = 0; l < nleg; l++)
        for (int i = 0; i < nl; i++, n++) par[n] = i ? n - 1 : 5;
    return n;
}

/* ---- rows ---- */

static cs_row_opts row_opts(cs_cone_type cone)
{
    cs_row_opts o = {0.002, 1, cone, 1};
    return o;
}

/* a joint row on tree t of F with the given J (over the tree's dofs) */
static cs_joint_row_in joint_row(const forest *F, int kind, int t, const double *J, double pos,
                                 double margin, double invweight, double floss)
{
    cs_joint_row_in r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.tree = t;
    r.dofadr = F->tree_dofadr[t];
    r.ndof = F->tree_dofnum[t];
    r.J = J;
    r.pos = pos;
    r.margin = margin;
    memcpy(r.solref, SOLREF_DEF, sizeof r.solref);
    memcpy(r.solimp, SOLIMP_DEF, sizeof r.solimp);
    r.invweight = invweight;
    r.frictionloss = floss;
    return r;
}

/* Expected numbers of MuJoCo's mj_makeImpedance for solref (0.02, 1) with dwidth 0.95. */
static const double K_DEF = 1 / (0.95 * 0.95 * 0.02 * 0.02), B_DEF = 2 / (0.95 * 0.02);

START_TEST(test_joint_row_numbers)
{
    forest F;
    forest_init(&F);
    int par[4];
    chain_parents(3, par);
    forest_tree(&F, 3, par);
    forest_tree(&F, 1, par);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = row_opts(CS_CONE_ELLIPTIC);
    double qvel[4] = {0.3, -0.2, 0.7, 1.5};
    /* a limit on the chain's middle dof (an upper limit: J = -1), 2 mm beyond it: saturated
     * impedance 0.95 (width 0.001) */
    double J1[3] = {0, -1, 0};
    cs_joint_row_in r = joint_row(&F, CS_BLOCK_LIMIT, 0, J1, -0.002, 0, 0.8, 0);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 7, qvel, &o), 0);
    ck_assert_int_eq(e.nblock, 1);
    ck_assert_int_eq(e.nefc, 1);
    ck_assert_int_eq(e.blk_kind[0], CS_BLOCK_LIMIT);
    ck_assert_int_eq(e.type[0], CS_BLOCK_LIMIT);
    ck_assert_int_eq(e.blk_id[0], 7);
    ck_assert_int_eq(e.blk_tree[0], 0);
    ck_assert_int_eq(e.blk_tree[1], -1);
    ck_assert_int_eq(e.blk_ndof[0], 3);
    ck_assert_int_eq(e.blk_ndof[1], 0);
    ck_assert_int_eq(e.J_rownnz[0], 3);
    for (int q = 0; q < 3; q++) ck_assert_double_eq(cs_efc_J(&e, 0, q), J1[q]);
    ck_assert_double_eq(cs_efc_J(&e, 0, 3), 0);
    double v = 0.2; /* J qvel */
    ck_assert_double_eq_tol(e.vel[0], v, 1e-15);
    ck_assert_double_eq_tol(e.blk_cvel[0], v, 1e-15);
    ck_assert_double_eq_tol(e.blk_imp[0], 0.95, 1e-15);
    ck_assert_double_eq_tol(e.R[0], 0.05 / 0.95 * 0.8, 1e-15);
    ck_assert_double_eq_tol(e.K[0], K_DEF, 1e-9);
    ck_assert_double_eq_tol(e.B[0], B_DEF, 1e-12);
    ck_assert_double_eq_tol(e.aref[0], -B_DEF * v - K_DEF * 0.95 * (-0.002), 1e-9);
    ck_assert_double_eq(e.frictionloss[0], 0);

    /* inside the margin (pos 0.001 of margin 0.0015): x = 0.5, imp = 0.9 + 0.05 * 0.5 */
    r = joint_row(&F, CS_BLOCK_LIMIT, 1, (double[]){1}, 0.001, 0.0015, 2, 0);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 2, qvel, &o), 0);
    double imp = 0.9 + 0.05 * 0.5;
    ck_assert_double_eq_tol(e.blk_imp[1], imp, 1e-15);
    ck_assert_double_eq_tol(e.R[1], (1 - imp) / imp * 2, 1e-15);
    ck_assert_double_eq_tol(e.aref[1], -B_DEF * 1.5 - K_DEF * imp * (0.001 - 0.0015), 1e-9);
    ck_assert_int_eq(e.J_colind[e.J_rowadr[1]], 3);

    /* friction on a ball joint's 3 dofs (a unit axis): no position (pos and margin given are
     * ignored), imp = d0 = 0.9, K = 0, a_ref = -B vel; B from a direct solref */
    double ax[3] = {0.6, 0, -0.8};
    r = joint_row(&F, CS_BLOCK_FRICTIONLOSS, 0, ax, -5, 3, 0.5, 1.25);
    r.solref[0] = -400;
    r.solref[1] = -30;
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 1, qvel, &o), 0);
    v = 0.6 * 0.3 - 0.8 * 0.7;
    ck_assert_int_eq(e.blk_kind[2], CS_BLOCK_FRICTIONLOSS);
    ck_assert_double_eq(e.pos[2], 0);
    ck_assert_double_eq(e.margin[2], 0);
    ck_assert_double_eq_tol(e.blk_imp[2], 0.9, 1e-15);
    ck_assert_double_eq_tol(e.R[2], 0.1 / 0.9 * 0.5, 1e-15);
    ck_assert_double_eq(e.K[2], 0);
    ck_assert_double_eq_tol(e.B[2], 30 / 0.95, 1e-12);
    ck_assert_double_eq_tol(e.aref[2], -30 / 0.95 * v, 1e-12);
    ck_assert_double_eq(e.frictionloss[2], 1.25);

    /* refsafe and the mixed-sign replacement, as contacts */
    r = joint_row(&F, CS_BLOCK_LIMIT, 1, (double[]){1}, -0.01, 0, 1, 0);
    r.solref[0] = 0.001;
    r.solref[1] = 0.5;
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 3, qvel, &o), 0);
    ck_assert_double_eq_tol(e.K[3], 1 / (0.95 * 0.95 * 0.004 * 0.004 * 0.25), 1e-6);
    r.solref[1] = -0.5;
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 3, qvel, &o), 0);
    ck_assert_double_eq_tol(e.K[4], K_DEF, 1e-9);

    /* rows that cannot be made are left out */
    int nb = e.nblock, nr = e.nefc, nz = e.nnz;
    r = joint_row(&F, CS_BLOCK_FRICTIONLOSS, 1, (double[]){1}, 0, 0, 1, 0);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 0, qvel, &o), CS_ROWS_BAD_JOINT);
    r = joint_row(&F, CS_BLOCK_ELLIPTIC, 1, (double[]){1}, 0, 0, 1, 1);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 0, qvel, &o), CS_ROWS_BAD_JOINT);
    r = joint_row(&F, CS_BLOCK_LIMIT, 1, (double[]){1}, 0, 0, 1, 0);
    r.tree = -1;
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 0, qvel, &o), CS_ROWS_BAD_JOINT);
    ck_assert_int_eq(e.nblock, nb);
    ck_assert_int_eq(e.nefc, nr);
    ck_assert_int_eq(e.nnz, nz);
    cs_efc_free(&e);
}
END_TEST


/* The soft response of a limit (one-sided, as a frictionless row) and of a friction-loss row
 * (MuJoCo's Huber: its zones, borders, cost, force, curvature), and the directional form the
 * line search uses. */
START_TEST(test_joint_soft_response)
{
    forest F;
    forest_init(&F);
    forest_tree(&F, 1, (int[]){-1});
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = row_opts(CS_CONE_ELLIPTIC);
    double qv = 0, f, c, h, fd, dhd;
    cs_joint_row_in r = joint_row(&F, CS_BLOCK_LIMIT, 0, (double[]){1}, -0.001, 0, 0.7, 0);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 0, &qv, &o), 0);
    r = joint_row(&F, CS_BLOCK_FRICTIONLOSS, 0, (double[]){1}, 0, 0, 0.7, 2);
    ck_assert_int_eq(cs_efc_add_joint_row(&e, &r, 0, &qv, &o), 0);

    double R = e.R[0];
    ck_assert_int_eq(cs_efc_soft(&e, 0, (double[]){-0.3}, &f, &c, &h), CS_ZONE_BOTTOM);
    ck_assert_double_eq_tol(f, 0.3 / R, 1e-12);
    ck_assert_double_eq_tol(c, 0.09 / (2 * R), 1e-12);
    ck_assert_double_eq_tol(h, 1 / R, 1e-12);
    for (int k = 0; k < 2; k++) { /* j >= 0: satisfied */
        double j = k ? 0.2 : 0;
        ck_assert_int_eq(cs_efc_soft(&e, 0, &j, &f, &c, &h), CS_ZONE_TOP);
        ck_assert(f == 0 && c == 0 && h == 0);
    }

    R = e.R[1];
    double Fl = 2, RF = R * Fl;
    /* j, zone, force, cost, curvature */
    struct { double j; int zone; double f, c, h; } cases[] = {
        {-3 * RF, CS_ZONE_LINEARNEG, Fl, Fl * (3 * RF - RF / 2), 0},
        {-RF, CS_ZONE_LINEARNEG, Fl, Fl * RF / 2, 0}, /* borders: the linear zones (MuJoCo) */
        {-0.5 * RF, CS_ZONE_BOTTOM, 0.5 * Fl, 0.125 * RF * RF / R, 1 / R},
        {0, CS_ZONE_BOTTOM, 0, 0, 1 / R},
        {0.7 * RF, CS_ZONE_BOTTOM, -0.7 * Fl, 0.245 * RF * RF / R, 1 / R},
        {RF, CS_ZONE_LINEARPOS, -Fl, Fl * RF / 2, 0},
        {4 * RF, CS_ZONE_LINEARPOS, -Fl, Fl * (4 * RF - RF / 2), 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double j = cases[i].j, dj = -1.7;
        ck_assert_int_eq(cs_efc_soft(&e, 1, &j, &f, &c, &h), cases[i].zone);
        ck_assert_double_eq_tol(f, cases[i].f, 1e-12);
        ck_assert_double_eq_tol(c, cases[i].c, 1e-12 * fmax(1, fabs(cases[i].c)));
        ck_assert_double_eq_tol(h, cases[i].h, 1e-9);
        /* the cost's slope is -f (continuous across the borders: central differences) */
        double eps = 1e-7 * RF, fp, fm, cp, cm, hh;
        cs_efc_soft(&e, 1, (double[]){j + eps}, &fp, &cp, &hh);
        cs_efc_soft(&e, 1, (double[]){j - eps}, &fm, &cm, &hh);
        ck_assert_double_eq_tol((cp - cm) / (2 * eps), -f, 1e-6 * Fl);
        /* along dj: f.dj and dj^2 curvature, same zone */
        ck_assert_int_eq(cs_efc_soft_dir(&e, 1, &j, &dj, &fd, &dhd), cases[i].zone);
        ck_assert_double_eq_tol(fd, f * dj, 1e-12);
        ck_assert_double_eq_tol(dhd, h * dj * dj, 1e-9);
    }
    /* the feasible set's decode: one force in the first entry */
    double fr[CS_MAXDIM];
    cs_efc_decode(&e, 1, (double[]){-1.5}, fr);
    ck_assert_double_eq(fr[0], -1.5);
    for (int i = 1; i < CS_MAXDIM; i++) ck_assert_double_eq(fr[i], 0);
    ck_assert_str_eq(cs_zone_name(CS_ZONE_LINEARNEG), "linearneg");
    ck_assert_str_eq(cs_zone_name(CS_ZONE_LINEARPOS), "linearpos");
    cs_efc_free(&e);
}
END_TEST

/* ---- solving ---- */

/* The solver paths compared: PGS sweeps only (pair groups, single blocks, MuJoCo's
 * updates), PGS with the Newton finish, Newton dense, Newton CG. */
enum { V_PGS_PAIR, V_PGS_BLOCK, V_PGS_MUJOCO, V_PGS_POLISH, V_NEWTON, V_NEWTON_CG, V_CG, NVARIANT };
static const char *VNAME[NVARIANT] = {"pgs pair", "pgs contact", "pgs mujoco", "pgs+finish",
                                      "newton dense", "newton cg", "cg"};

static int g_sweeps = 4000;      /* sweeps of the PGS-only paths */
static int g_newton_steps = 100; /* Newton's iteration limit */
static int g_cg_steps = 3000;    /* CG's */
static int g_newton_tree = 1;    /* Newton's factor on the elimination forest allowed */

/* cs_solve's return code (no assertion: Check's assertions allocate, so the allocation
 * count of a solve is taken around this) */
static int solve_rc(cs_solver_ws *w, const cs_mass *M, const double *a0, cs_efc *e, int v,
                    const double *warm, double *a, cs_solve_stats *st)
{
    cs_problem p = {M, a0, e, 0};
    cs_solver_opts o;
    cs_solver_opts_default(&o);
    o.stats = 1;
    o.type = v == V_CG ? CS_METHOD_CG : v >= V_NEWTON ? CS_METHOD_NEWTON : CS_METHOD_PGS;
    o.max_iter = v == V_PGS_POLISH ? 500 : v == V_CG ? g_cg_steps : v >= V_NEWTON ? g_newton_steps : g_sweeps;
    /* sweeps and CG: to stagnation (CG's stopping rule takes a small positive improvement
     * as convergence, and a CG step can improve little far from the optimum) */
    o.tolerance = v < V_PGS_POLISH || v == V_CG ? 0 : 1e-15;
    o.blocking = v == V_PGS_PAIR || v == V_PGS_POLISH ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    o.exact_block = v != V_PGS_MUJOCO;
    o.finish_after = v == V_PGS_POLISH ? 5 : 0;
    o.newton_dense_max = v == V_NEWTON_CG ? -1 : 0;
    o.newton_tree = g_newton_tree;
    return cs_solve(w, &p, &o, warm, a, st);
}

static void solve_v(cs_solver_ws *w, const cs_mass *M, const double *a0, cs_efc *e, int v,
                    const double *warm, double *a, cs_solve_stats *st)
{
    ck_assert_int_eq(solve_rc(w, M, a0, e, v, warm, a, st), 0);
}

/* x = M^-1 b by a dense Cholesky of M (the test's own, over F->Md) */
static void dense_solve(const forest *F, const double *b, double *x)
{
    int n = F->nv;
    static double L[MAXV * MAXV];
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = F->Md[i * MAXV + j];
            for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
            L[i * n + j] = i == j ? sqrt(s) : s / L[j * n + j];
        }
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++) s -= L[i * n + k] * x[k];
        x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = x[i];
        for (int k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
        x[i] = s / L[i * n + i];
    }
}

/* A one-dof tree of mass m pressed onto its lower limit by gravity: M (a - a0) = J^T f and
 * f = -(J a - a_ref)/R with J = 1 give f = (g + a_ref) / (R + 1/m), a = f/m - g, for every
 * solver path; pulled away from the limit the row carries nothing. */
START_TEST(test_limit_holds_one_dof)
{
    forest F;
    forest_init(&F);
    forest_tree(&F, 1, (int[]){-1});
    double m = 2.5;
    F.Md[0] = m;
    const cs_mass *M = forest_mass(&F);
    cs_solver_ws *w = cs_solver_create(1, 1);
    ck_assert_ptr_nonnull(w);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = row_opts(CS_CONE_ELLIPTIC);
    /* at the limit at rest; 2 mm beyond it and moving further in at 5 cm/s */
    double pos[2] = {0, -0.002}, vel[2] = {0, -0.05};
    for (int c = 0; c < 2; c++) {
        cs_efc_clear(&e);
        cs_joint_row_in r = joint_row(&F, CS_BLOCK_LIMIT, 0, (double[]){1}, pos[c], 0, 1 / m, 0);
        ck_assert_int_ge(cs_efc_add_joint_row(&e, &r, 0, &vel[c], &o), 0);
        double imp = c ? 0.95 : 0.9; /* saturated at 2 mm (width 1 mm); d0 at the limit */
        double R = (1 - imp) / imp / m, aref = -B_DEF * vel[c] - K_DEF * imp * pos[c];
        ck_assert_double_eq_tol(e.R[0], R, 1e-15);
        ck_assert_double_eq_tol(e.aref[0], aref, 1e-9);
        double fx = (G + aref) / (R + 1 / m), a0 = -G;
        for (int v = 0; v < NVARIANT; v++) {
            double a;
            cs_solve_stats st;
            solve_v(w, M, &a0, &e, v, NULL, &a, &st);
            ck_assert_msg(fabs(e.force[0] - fx) <= 1e-10 * fx, "%s: f %.15g, closed form %.15g",
                          VNAME[v], e.force[0], fx);
            ck_assert_double_eq(e.blk_force[0], e.force[0]);
            ck_assert_double_eq_tol(a, fx / m - G, 1e-10 * fx / m);
            ck_assert_int_eq(e.blk_zone[0], CS_ZONE_BOTTOM);
            ck_assert_int_eq(st.nisland, 1);
        }
    }
    /* pulled away: no force, a = a0 */
    cs_efc_clear(&e);
    cs_joint_row_in r = joint_row(&F, CS_BLOCK_LIMIT, 0, (double[]){1}, 0, 0, 1 / m, 0);
    double v0 = 0;
    ck_assert_int_ge(cs_efc_add_joint_row(&e, &r, 0, &v0, &o), 0);
    for (int v = 0; v < NVARIANT; v++) {
        double a, a0 = G;
        cs_solve_stats st;
        solve_v(w, M, &a0, &e, v, NULL, &a, &st);
        ck_assert_double_eq(e.force[0], 0);
        ck_assert_double_eq(a, G);
        ck_assert_int_eq(e.blk_zone[0], CS_ZONE_TOP);
    }
    cs_efc_free(&e);
    cs_solver_free(w);
}
END_TEST

/* A one-dof body of mass m pushed by a force P against dry friction F (a0 = P/m, a_ref =
 * -B v). The optimum of 1/2 m (a - a0)^2 + Huber(a - a_ref):
 * - the quadratic zone (|j| < R F; a body at rest pushed by less than F (1 + m R)): it
 *   nearly sticks, a = (P/m + a_ref/(m R)) / (1 + 1/(m R)), f = -(a - a_ref)/R;
 * - a linear zone: f = -+F exactly, a = (P -+ F)/m (sliding: dry friction decelerates). */
START_TEST(test_frictionloss_one_dof)
{
    forest F;
    forest_init(&F);
    forest_tree(&F, 1, (int[]){-1});
    double m = 2;
    F.Md[0] = m;
    const cs_mass *M = forest_mass(&F);
    cs_solver_ws *w = cs_solver_create(1, 1);
    cs_efc e;
    cs_efc_init(&e);
    cs_row_opts o = row_opts(CS_CONE_ELLIPTIC);
    double Fl = 3;
    /* push, velocity, expected zone */
    struct { double P, v; int zone; } cases[] = {
        {1, 0, CS_ZONE_BOTTOM},       /* below the bound: sticks (creeps) */
        {-2.9, 0, CS_ZONE_BOTTOM},
        {10, 0, CS_ZONE_LINEARPOS},   /* above F (1 + m R): slides */
        {-10, 0, CS_ZONE_LINEARNEG},
        {1, 0.3, CS_ZONE_LINEARPOS},  /* sliding forward, pushed by less than F: decelerates */
        {-1, -0.2, CS_ZONE_LINEARNEG},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cs_efc_clear(&e);
        cs_joint_row_in r = joint_row(&F, CS_BLOCK_FRICTIONLOSS, 0, (double[]){1}, 0, 0, 1 / m, Fl);
        ck_assert_int_ge(cs_efc_add_joint_row(&e, &r, 0, &cases[i].v, &o), 0);
        double R = 0.1 / 0.9 / m, aref = -B_DEF * cases[i].v, P = cases[i].P, a0 = P / m;
        ck_assert_double_eq_tol(e.R[0], R, 1e-15);
        ck_assert_double_eq_tol(e.aref[0], aref, 1e-12);
        double ax, fx;
        if (cases[i].zone == CS_ZONE_BOTTOM) {
            ax = (a0 + aref / (m * R)) / (1 + 1 / (m * R));
            fx = -(ax - aref) / R;
            ck_assert(fabs(ax - aref) < R * Fl); /* the case is in the zone it claims */
        } else {
            fx = cases[i].zone == CS_ZONE_LINEARPOS ? -Fl : Fl;
            ax = (P + fx) / m;
            ck_assert(fabs(ax - aref) >= R * Fl);
        }
        for (int v = 0; v < NVARIANT; v++) {
            double a;
            cs_solve_stats st;
            solve_v(w, M, &a0, &e, v, NULL, &a, &st);
            ck_assert_msg(fabs(a - ax) <= 1e-10 * fmax(1, fabs(ax)), "%s case %zu: a %.15g, "
                          "closed form %.15g", VNAME[v], i, a, ax);
            ck_assert_double_eq_tol(e.force[0], fx, 1e-10 * Fl);
            ck_assert_int_eq(e.blk_zone[0], cases[i].zone);
            ck_assert(st.feasibility <= 1e-12 * Fl);
            ck_assert(st.stationarity <= 1e-9 * Fl);
            ck_assert(st.complementarity <= 1e-9 * Fl * Fl);
        }
    }
    cs_efc_free(&e);
    cs_solver_free(w);
}
END_TEST

/* ---- forests with contacts and joint rows ---- */

typedef struct {
    forest F;
    double a0[MAXV], qvel[MAXV];
    cs_efc e;
    int nrow_joint;
} jprob;

/* g_link[s] >= 0: side s's contact point moves with that tree-local dof's link, its
 * Jacobian zero off the dof's chain of ancestors (a foot on a leg) */
static int g_link[2] = {-1, -1};

/* A contact between the sides' trees (t < 0: static) with random Jacobians over the whole
 * trees (t0 == t1: two links of one tree). */
static void add_contact(jprob *P, int t0, int t1, int dim, const cs_row_opts *o, int id)
{
    static double jac[2][6 * MAXV];
    cs_contact_side sd[2];
    int tr[2] = {t0, t1};
    for (int s = 0; s < 2; s++) {
        memset(&sd[s], 0, sizeof sd[s]);
        sd[s].tree = tr[s];
        sd[s].jacp = jac[s];
        sd[s].jacr = jac[s] + 3 * MAXV;
        sd[s].invweight[0] = 0.3 + urand();
        sd[s].invweight[1] = 0.5 + 3 * urand();
        if (tr[s] < 0) continue;
        int n = P->F.tree_dofnum[tr[s]];
        sd[s].dofadr = P->F.tree_dofadr[tr[s]];
        sd[s].ndof = n;
        sd[s].jacr = jac[s] + 3 * n;
        for (int i = 0; i < 6 * n; i++) jac[s][i] = 0.6 * srand1();
        if (g_link[s] < 0) continue;
        int a = P->F.tree_dofadr[tr[s]];
        for (int i = 0; i < n; i++) {
            int on = 0;
            for (int q = a + g_link[s]; q >= 0; q = P->F.dof_parent[q]) on |= q == a + i;
            for (int r = 0; r < 6 && !on; r++) jac[s][r * n + i] = 0;
        }
    }
    cs_contact_in c;
    memset(&c, 0, sizeof c);
    double q[4], nq = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = srand1();
        nq += q[i] * q[i];
    }
    nq = sqrt(nq);
    double W = q[0] / nq, X = q[1] / nq, Y = q[2] / nq, Z = q[3] / nq;
    double fr[9] = {1 - 2 * (Y * Y + Z * Z), 2 * (X * Y - Z * W), 2 * (X * Z + Y * W),
                    2 * (X * Y + Z * W), 1 - 2 * (X * X + Z * Z), 2 * (Y * Z - X * W),
                    2 * (X * Z - Y * W), 2 * (Y * Z + X * W), 1 - 2 * (X * X + Y * Y)};
    memcpy(c.frame, fr, sizeof fr);
    c.dist = -0.002 * urand();
    c.dim = dim;
    c.friction[0] = c.friction[1] = 0.3 + urand();
    c.friction[2] = 0.01 + 0.02 * urand();
    c.friction[3] = c.friction[4] = 0.001 + 0.01 * urand();
    memcpy(c.solref, SOLREF_DEF, sizeof c.solref);
    memcpy(c.solimp, SOLIMP_DEF, sizeof c.solimp);
    ck_assert_int_ge(cs_efc_add_contact(&P->e, &c, id, sd, P->qvel, o), 0);
}

/* Limits on random dofs of tree t (a hinge/slide: J = +-1; a "ball": a unit axis over three
 * consecutive dofs) and friction on random dofs. */
static void add_joint_rows(jprob *P, int t, int nlim, int nfric, const cs_row_opts *o)
{
    int n = P->F.tree_dofnum[t];
    double J[MAXV];
    for (int i = 0; i < nlim; i++) {
        memset(J, 0, sizeof(double) * n);
        int d = (int)(urand() * n);
        if (i % 3 == 2 && n >= 3) { /* a ball joint's limit row */
            d = d > n - 3 ? n - 3 : d;
            double x = srand1(), y = srand1(), z = srand1(), l = sqrt(x * x + y * y + z * z);
            J[d] = -x / l, J[d + 1] = -y / l, J[d + 2] = -z / l;
        } else {
            J[d] = urand() < 0.5 ? 1 : -1;
        }
        cs_joint_row_in r = joint_row(&P->F, CS_BLOCK_LIMIT, t, J, -0.004 * urand() + 0.001 * urand(),
                                      urand() < 0.5 ? 0 : 0.002, 0.5 + urand(), 0);
        ck_assert_int_ge(cs_efc_add_joint_row(&P->e, &r, i, P->qvel, o), 0);
        P->nrow_joint++;
    }
    for (int i = 0; i < nfric; i++) {
        memset(J, 0, sizeof(double) * n);
        int d = (int)(urand() * n);
        J[d] = 1;
        cs_joint_row_in r = joint_row(&P->F, CS_BLOCK_FRICTIONLOSS, t, J, 0, 0, 0.5 + urand(),
                                      0.05 + 4 * urand() * urand());
        ck_assert_int_ge(cs_efc_add_joint_row(&P->e, &r, P->F.tree_dofadr[t] + d, P->qvel, o), 0);
        P->nrow_joint++;
    }
}

/* a0 and qvel; some dofs at rest (a friction row there may stick: its quadratic zone) */
static void jprob_state(jprob *P)
{
    for (int q = 0; q < P->F.nv; q++) {
        P->a0[q] = 3 * srand1() - 2;
        P->qvel[q] = urand() < 0.5 ? 0 : 0.3 * srand1();
    }
}

/* Tallies of the zones met at the optima (the tests check the mix they claim to exercise). */
static int g_zone_limit[5], g_zone_fric[5];

static void tally_zones(const cs_efc *e)
{
    for (int k = 0; k < e->nblock; k++) {
        if (e->blk_kind[k] == CS_BLOCK_LIMIT) g_zone_limit[e->blk_zone[k]]++;
        if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) g_zone_fric[e->blk_zone[k]]++;
    }
}

static double vmax(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* Every path on P: qacc within 1e-8 (relative) of Newton dense's, forces feasible, residuals
 * small, strong duality between Newton's primal and PGS's dual; warm starts from the optimum
 * keep it; solves after the first allocate nothing. Returns the max relative qacc gap.
 * MuJoCo's updates are compared only without elliptic cones: their split elliptic update
 * (a normal step, then the friction at that normal) can stall at the apex, where the normal
 * step alone keeps f_n = 0 although friction and normal together would lift it
 * (docs/contact-math.md §6), so they need not reach the optimum there. */
static double agree(jprob *P, const char *what)
{
    const cs_mass *M = &P->F.mass;
    int nv = P->F.nv;
    cs_solver_ws *w = cs_solver_create(nv, P->F.ntree);
    ck_assert_ptr_nonnull(w);
    static double aref[MAXV], a[MAXV];
    cs_solve_stats sref, st;
    solve_v(w, M, P->a0, &P->e, V_NEWTON, NULL, aref, &sref);
    tally_zones(&P->e);
    double scale = fmax(1, vmax(aref, nv)), fsc = 1, worst = 0;
    for (int r = 0; r < P->e.nefc; r++) fsc = fmax(fsc, fabs(P->e.force[r]));
    int elliptic = 0;
    for (int k = 0; k < P->e.nblock; k++) elliptic |= P->e.blk_kind[k] == CS_BLOCK_ELLIPTIC;
    for (int pass = 0; pass < 2; pass++) {
        long before = alloc_count;
        int rc = 0;
        for (int v = 0; v < NVARIANT; v++) {
            if (v == V_PGS_MUJOCO && elliptic) continue;
            rc |= solve_rc(w, M, P->a0, &P->e, v, NULL, a, &st);
            double d = 0;
            for (int q = 0; q < nv; q++) d = fmax(d, fabs(a[q] - aref[q]));
            worst = fmax(worst, d / scale);
            if (pass) continue;
            printf("%s, %s: |a - a_newton| / |a| = %.2g, iterations %d, feasibility %.2g, "
                   "stationarity %.2g, complementarity %.2g, gap %.2g\n", what, VNAME[v],
                   d / scale, st.iterations, st.feasibility / fsc, st.stationarity / fsc,
                   st.complementarity / (fsc * fsc),
                   fabs(sref.primal_cost + st.dual_cost) / fabs(sref.primal_cost));
            ck_assert_msg(d <= 1e-8 * scale, "%s, %s: qacc off by %g", what, VNAME[v], d / scale);
            ck_assert(st.feasibility <= 1e-12 * fsc);
            ck_assert(st.stationarity <= 1e-7 * fsc);
            ck_assert(st.complementarity <= 1e-7 * fsc * fsc);
            if (v < V_NEWTON)
                ck_assert(fabs(sref.primal_cost + st.dual_cost) <= 1e-9 * fabs(sref.primal_cost));
        }
        /* the first solves sized the workspace; the same problem again allocates nothing */
        long made = alloc_count - before;
        ck_assert_int_eq(rc, 0);
        if (pass) ck_assert_msg(made == 0, "%s: %ld allocations in solves after the first", what,
                                made);
    }
    /* warm started from the optimum: kept, and the same optimum */
    for (int v = V_PGS_POLISH; v < NVARIANT; v++) {
        solve_v(w, M, P->a0, &P->e, v, aref, a, &st);
        ck_assert_int_eq(cs_solver_island(w, 0)->warm_used, 1);
        double d = 0;
        for (int q = 0; q < nv; q++) d = fmax(d, fabs(a[q] - aref[q]));
        ck_assert_msg(d <= 1e-8 * scale, "%s, warm %s: qacc off by %g", what, VNAME[v], d / scale);
        if (v == V_NEWTON) ck_assert_int_lt(st.iterations, sref.iterations);
    }
    cs_solver_free(w);
    return worst;
}

/* Forests of chains (3 and 20 dofs), a floating base with four two-dof legs (14 dofs) and
 * smaller trees, with contacts (between trees, with static geometry, between links of one
 * tree), limits and friction rows: every solver path reaches the same optimum. */
START_TEST(test_articulated_agreement)
{
    rng_state = 4711;
    memset(g_zone_limit, 0, sizeof g_zone_limit);
    memset(g_zone_fric, 0, sizeof g_zone_fric);
    static jprob P;
    for (int trial = 0; trial < 8; trial++) {
        memset(&P, 0, sizeof P);
        forest_init(&P.F);
        int par[MAXV];
        chain_parents(3, par);
        forest_tree(&P.F, 3, par);
        chain_parents(20, par);
        forest_tree(&P.F, 20, par);
        int n = legged_parents(4, 2, par);
        ck_assert_int_eq(n, 14);
        forest_tree(&P.F, n, par);
        chain_parents(trial % 2 ? 1 : 6, par);
        forest_tree(&P.F, trial % 2 ? 1 : 6, par);
        forest_mass(&P.F);
        jprob_state(&P);
        cs_efc_init(&P.e);
        cs_row_opts o = row_opts(trial % 4 < 2 ? CS_CONE_ELLIPTIC : CS_CONE_PYRAMIDAL);
        static const int dims[4] = {1, 3, 4, 6};
        int nt = P.F.ntree, id = 0;
        for (int t = 0; t < nt; t++) add_joint_rows(&P, t, 1 + (t == 1), 1 + (t > 0), &o);
        for (int c = 0; c < 8; c++) {
            int t1 = (int)(urand() * nt), t0 = urand() < 0.4 ? -1 : (int)(urand() * nt);
            add_contact(&P, t0, t1, dims[(c + trial) % 4], &o, id++);
        }
        add_contact(&P, 1, 1, 3, &o, id++); /* two links of the 20-dof chain */
        char what[64];
        snprintf(what, sizeof what, "forest %d (%s)", trial,
                 o.cone == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal");
        agree(&P, what);
        cs_efc_free(&P.e);
    }
    /* the optima exercised both sides of each row kind */
    printf("zones at the optima: limits top %d bottom %d; friction quadratic %d linear %d/%d\n",
           g_zone_limit[CS_ZONE_TOP], g_zone_limit[CS_ZONE_BOTTOM], g_zone_fric[CS_ZONE_BOTTOM],
           g_zone_fric[CS_ZONE_LINEARNEG], g_zone_fric[CS_ZONE_LINEARPOS]);
    ck_assert_int_gt(g_zone_limit[CS_ZONE_TOP], 0);
    ck_assert_int_gt(g_zone_limit[CS_ZONE_BOTTOM], 0);
    ck_assert_int_gt(g_zone_fric[CS_ZONE_BOTTOM], 0);
    ck_assert_int_gt(g_zone_fric[CS_ZONE_LINEARNEG] + g_zone_fric[CS_ZONE_LINEARPOS], 0);
    ck_assert_int_eq(g_zone_fric[CS_ZONE_TOP] + g_zone_fric[CS_ZONE_MIDDLE], 0);
}
END_TEST

/* Joint rows put their tree into an island: a tree with only a limit is an island of its
 * own, whose force is the one-row closed form f = -(J a0 - a_ref) / (J M^-1 J^T + R); a
 * tree without rows keeps a0. */
START_TEST(test_joint_islands)
{
    rng_state = 99;
    static jprob P;
    memset(&P, 0, sizeof P);
    forest_init(&P.F);
    int par[MAXV];
    chain_parents(5, par);
    forest_tree(&P.F, 5, par);
    forest_tree(&P.F, 6, par);
    forest_tree(&P.F, 4, par);
    forest_tree(&P.F, 3, par);
    const cs_mass *M = forest_mass(&P.F);
    jprob_state(&P);
    P.a0[2] = 5; /* pushed toward the upper limit of dof 2, at rest */
    P.qvel[2] = 0;
    cs_efc_init(&P.e);
    cs_row_opts o = row_opts(CS_CONE_ELLIPTIC);
    double J[5] = {0, 0, -1, 0, 0};
    cs_joint_row_in r = joint_row(&P.F, CS_BLOCK_LIMIT, 0, J, -0.003, 0, 0.9, 0);
    ck_assert_int_ge(cs_efc_add_joint_row(&P.e, &r, 0, P.qvel, &o), 0);
    add_contact(&P, 1, 2, 3, &o, 0);
    /* the limit's closed form: J M^-1 J^T from the test's dense solve */
    double b[MAXV] = {0}, x[MAXV];
    b[2] = -1;
    dense_solve(&P.F, b, x);
    double A = -x[2], j0 = -P.a0[2] - P.e.aref[0];
    ck_assert(j0 < 0); /* pressed into the limit: the row is active */
    double fx = -j0 / (A + P.e.R[0]);
    cs_solver_ws *w = cs_solver_create(P.F.nv, P.F.ntree);
    static double a[MAXV];
    for (int v = 0; v < NVARIANT; v++) {
        cs_solve_stats st;
        solve_v(w, M, P.a0, &P.e, v, NULL, a, &st);
        ck_assert_int_eq(st.nisland, 2);
        const cs_island_stats *is = cs_solver_island(w, 0);
        ck_assert_int_eq(is->ntree, 1);
        ck_assert_int_eq(is->nblock, 1);
        ck_assert_int_eq(is->nv, 5);
        ck_assert_int_eq(cs_solver_island(w, 1)->ntree, 2);
        ck_assert_msg(fabs(P.e.force[0] - fx) <= 1e-10 * fx, "%s: %.15g vs %.15g", VNAME[v],
                      P.e.force[0], fx);
        for (int q = 0; q < 5; q++) /* a = a0 + M^-1 J^T f */
            ck_assert_double_eq_tol(a[q], P.a0[q] + x[q] * fx, 1e-10 * fmax(1, fabs(a[q])));
        for (int q = 15; q < 18; q++) ck_assert_double_eq(a[q], P.a0[q]);
    }
    cs_solver_free(w);
    cs_efc_free(&P.e);
}
END_TEST

/* Trees of 72 dofs (a chain, and a floating base with three 22-dof legs) with contacts whose
 * rows span them (72, 78 and 144 columns, the last pyramidal condim 6: ten edge rows), limits
 * and friction: the former 64-column caps. The pyramid's edges are J_n +- mu_j J_j of the
 * same contact's elliptic rows; Newton factors the island densely by default (150 dofs) and
 * CG, PGS with the Newton finish agree with it. On a single 72-dof tree's island CG's Newton
 * step is the factor's (the preconditioner is that tree's exact block inverse: one CG
 * iteration solves the system), so one step of each lands on the same point. */
START_TEST(test_wide_trees)
{
    static jprob P;
    for (int cone = 0; cone < 2; cone++) {
        rng_state = 1234 + cone;
        memset(&P, 0, sizeof P);
        forest_init(&P.F);
        int par[MAXV];
        chain_parents(72, par);
        forest_tree(&P.F, 72, par);
        ck_assert_int_eq(legged_parents(3, 22, par), 72);
        forest_tree(&P.F, 72, par);
        chain_parents(6, par);
        forest_tree(&P.F, 6, par);
        const cs_mass *M = forest_mass(&P.F);
        jprob_state(&P);
        cs_efc_init(&P.e);
        cs_row_opts o = row_opts(cone ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC);
        add_joint_rows(&P, 0, 3, 3, &o);
        add_joint_rows(&P, 1, 3, 2, &o);
        int id = 0;
        add_contact(&P, -1, 0, 3, &o, id++);
        add_contact(&P, 0, 2, 4, &o, id++);
        add_contact(&P, 0, 0, 3, &o, id++);
        add_contact(&P, 1, -1, 6, &o, id++);
        unsigned long long seed = rng_state;
        int kwide = P.e.nblock;
        add_contact(&P, 0, 1, 6, &o, id++);
        ck_assert_int_eq(P.e.J_rownnz[P.e.blk_row[kwide]], 144);
        if (cone) { /* the same contact's elliptic rows, for the edges */
            cs_efc el;
            cs_efc_init(&el);
            rng_state = seed;
            cs_efc keep = P.e;
            P.e = el;
            cs_row_opts oe = row_opts(CS_CONE_ELLIPTIC);
            add_contact(&P, 0, 1, 6, &oe, 0);
            el = P.e;
            P.e = keep;
            ck_assert_int_eq(P.e.blk_nrow[kwide], 10);
            const double *fr = P.e.blk_friction + 5 * kwide;
            for (int j = 0; j < 5; j++)
                for (int q = 0; q < 144; q++) {
                    double n0 = el.J[q], t = el.J[(j + 1) * 144 + q];
                    int r0 = P.e.J_rowadr[P.e.blk_row[kwide]];
                    ck_assert_double_eq_tol(P.e.J[r0 + (2 * j) * 144 + q], n0 + fr[j] * t, 1e-15);
                    ck_assert_double_eq_tol(P.e.J[r0 + (2 * j + 1) * 144 + q], n0 - fr[j] * t, 1e-15);
                }
            cs_efc_free(&el);
        }
        cs_solver_ws *w = cs_solver_create(P.F.nv, P.F.ntree);
        static double ad[MAXV], a[MAXV];
        cs_solve_stats sd, st;
        solve_v(w, M, P.a0, &P.e, V_NEWTON, NULL, ad, &sd);
        ck_assert_int_eq(sd.nisland, 1);
        ck_assert_int_eq(cs_solver_island(w, 0)->nv, 150);
        ck_assert_int_eq(cs_solver_island(w, 0)->newton_dense, 1);
        double scale = fmax(1, vmax(ad, P.F.nv)), fsc = 1;
        for (int r = 0; r < P.e.nefc; r++) fsc = fmax(fsc, fabs(P.e.force[r]));
        ck_assert(sd.stationarity <= 1e-8 * fsc);
        int vs[2] = {V_NEWTON_CG, V_PGS_POLISH};
        for (int i = 0; i < 2; i++) {
            solve_v(w, M, P.a0, &P.e, vs[i], NULL, a, &st);
            double d = 0;
            for (int q = 0; q < P.F.nv; q++) d = fmax(d, fabs(a[q] - ad[q]));
            printf("wide trees (%s), %s: |a - a_dense| / |a| = %.2g, iterations %d (dense %d), "
                   "gap %.2g\n", cone ? "pyramidal" : "elliptic", VNAME[vs[i]], d / scale,
                   st.iterations, sd.iterations,
                   fabs(sd.primal_cost + st.dual_cost) / fabs(sd.primal_cost));
            ck_assert(d <= 1e-8 * scale);
            ck_assert(st.feasibility <= 1e-12 * fsc);
            ck_assert(st.stationarity <= 1e-7 * fsc);
            if (vs[i] == V_NEWTON_CG) ck_assert_int_eq(cs_solver_island(w, 0)->newton_dense, 2);
            else ck_assert(fabs(sd.primal_cost + st.dual_cost) <= 1e-9 * fabs(sd.primal_cost));
        }
        /* the 72-dof chain alone (its joint rows and its contacts with static geometry) */
        cs_efc_clear(&P.e);
        rng_state = 77 + cone;
        add_joint_rows(&P, 0, 4, 4, &o);
        add_contact(&P, -1, 0, 3, &o, 0);
        add_contact(&P, 0, -1, 6, &o, 1);
        add_contact(&P, 0, 0, 4, &o, 2);
        solve_v(w, M, P.a0, &P.e, V_NEWTON, NULL, ad, &sd);
        solve_v(w, M, P.a0, &P.e, V_NEWTON_CG, NULL, a, &st);
        ck_assert_int_eq(st.nisland, 1);
        ck_assert_int_eq(cs_solver_island(w, 0)->nv, 72);
        double d = 0, d1 = 0, dd = 0;
        for (int q = 0; q < P.F.nv; q++) d = fmax(d, fabs(a[q] - ad[q]));
        ck_assert(d <= 1e-10 * fmax(1, vmax(ad, P.F.nv)));
        g_newton_steps = 1;
        solve_v(w, M, P.a0, &P.e, V_NEWTON, NULL, ad, &sd);
        solve_v(w, M, P.a0, &P.e, V_NEWTON_CG, NULL, a, &st);
        g_newton_steps = 100;
        for (int q = 0; q < P.F.nv; q++) {
            d1 = fmax(d1, fabs(a[q] - ad[q]));
            dd = fmax(dd, fabs(ad[q] - P.a0[q]));
        }
        printf("72-dof chain alone (%s): |a_cg - a_dense| = %.2g; after one Newton step %.2g "
               "(the step %.2g)\n", cone ? "pyramidal" : "elliptic", d, d1, dd);
        ck_assert_int_eq(cs_solver_island(w, 0)->newton_dense, 2);
        ck_assert(dd > 0 && d1 <= 1e-9 * dd);
        cs_solver_free(w);
        cs_efc_free(&P.e);
    }
}
END_TEST

/* Robots whose rows each touch one chain of links (feet on the floor, a foot on a free box,
 * the box on the floor, joint limits and friction) keep H = M + J^T D J on the kinematic
 * tree's pattern: Newton factors it on that sparse pattern, and reaches the dense envelope
 * factor's optimum in as many steps; rows joining two legs (a ball limit across them, two
 * feet touching) add fill the factor takes on. */
START_TEST(test_tree_factor)
{
    rng_state = 1313;
    static jprob P;
    int used = 0, updated = 0;
    for (int trial = 0; trial < 8; trial++) {
        memset(&P, 0, sizeof P);
        forest_init(&P.F);
        int par[MAXV];
        int n = legged_parents(4, 3, par); /* 18 dofs: a base and four 3-dof legs */
        forest_tree(&P.F, n, par);
        chain_parents(6, par); /* a free box */
        forest_tree(&P.F, 6, par);
        forest_mass(&P.F);
        jprob_state(&P);
        cs_efc_init(&P.e);
        cs_row_opts o = row_opts(trial % 2 ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC);
        static const int dims[4] = {3, 1, 4, 6};
        int id = 0;
        add_joint_rows(&P, 0, 2 + trial % 3, 2, &o);
        for (int leg = 0; leg < 4; leg++) { /* feet on the floor */
            g_link[1] = 6 + 3 * leg + 2;
            add_contact(&P, -1, 0, dims[(leg + trial) % 4], &o, id++);
        }
        g_link[1] = -1;
        add_contact(&P, -1, 1, 3, &o, id++); /* the box on the floor */
        g_link[0] = 6 + 3 * (trial % 4) + 2;  /* a foot on the box */
        add_contact(&P, 0, 1, dims[trial % 4], &o, id++);
        if (trial >= 4) { /* two feet touching: one row over two legs */
            g_link[1] = 6 + 3 * ((trial + 1) % 4) + 1;
            add_contact(&P, 0, 0, 3, &o, id++);
        }
        g_link[0] = g_link[1] = -1;
        const cs_mass *M = &P.F.mass;
        int nv = P.F.nv;
        cs_solver_ws *w = cs_solver_create(nv, P.F.ntree);
        ck_assert_ptr_nonnull(w);
        static double at[MAXV], ad[MAXV];
        cs_solve_stats st, sd;
        solve_v(w, M, P.a0, &P.e, V_NEWTON, NULL, at, &st);
        ck_assert_int_eq(st.nisland, 1);
        int tree = cs_solver_island(w, 0)->newton_tree;
        updated += cs_solver_island(w, 0)->newton_updated;
        g_newton_tree = 0;
        solve_v(w, M, P.a0, &P.e, V_NEWTON, NULL, ad, &sd);
        g_newton_tree = 1;
        ck_assert_int_eq(cs_solver_island(w, 0)->newton_tree, 0);
        double d = 0, scale = fmax(1, vmax(ad, nv)), fsc = 1;
        for (int q = 0; q < nv; q++) d = fmax(d, fabs(at[q] - ad[q]));
        for (int r = 0; r < P.e.nefc; r++) fsc = fmax(fsc, fabs(P.e.force[r]));
        printf("legged robot %d (%s): %s factor; |a - a_envelope| / |a| = %.2g, iterations %d "
               "(envelope %d)\n", trial, o.cone == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal",
               tree ? "tree" : "envelope", d / scale, st.iterations, sd.iterations);
        ck_assert(d <= 1e-12 * scale);
        /* at MuJoCo's tolerance (not 1e-15, where the last steps chase rounding) the same
         * steps, to rounding */
        int it[2];
        for (int f = 0; f < 2; f++) {
            cs_problem p = {M, P.a0, &P.e, 0};
            cs_solver_opts so;
            cs_solver_opts_default(&so);
            so.type = CS_METHOD_NEWTON;
            so.newton_tree = !f;
            cs_solve_stats s1;
            ck_assert_int_eq(cs_solve(w, &p, &so, NULL, f ? ad : at, &s1), 0);
            it[f] = s1.iterations;
        }
        d = 0;
        for (int q = 0; q < nv; q++) d = fmax(d, fabs(at[q] - ad[q]));
        ck_assert_int_eq(it[0], it[1]);
        ck_assert(d <= 1e-12 * scale);
        ck_assert(st.stationarity <= 1e-7 * fsc);
        used += tree;
        cs_solver_free(w);
        char what[64];
        snprintf(what, sizeof what, "legged robot %d", trial);
        agree(&P, what); /* every path, and no allocation in a second solve */
        cs_efc_free(&P.e);
    }
    ck_assert_int_eq(used, 8);
    /* some steps took the factor of the step before by rank-one updates (pyramids' rows
     * changing zone), and agreed with the envelope's factor made anew all the same */
    printf("tree factor steps by rank-one updates: %d\n", updated);
    ck_assert_int_gt(updated, 0);
}
END_TEST

static Suite *joint_suite(void)
{
    Suite *s = suite_create("joint rows");
    TCase *t = tcase_create("rows");
    tcase_add_test(t, test_joint_row_numbers);
    tcase_add_test(t, test_joint_soft_response);
    suite_add_tcase(s, t);
    t = tcase_create("solve");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_limit_holds_one_dof);
    tcase_add_test(t, test_frictionloss_one_dof);
    tcase_add_test(t, test_joint_islands);
    tcase_add_test(t, test_articulated_agreement);
    tcase_add_test(t, test_wide_trees);
    tcase_add_test(t, test_tree_factor);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(joint_suite());
    srunner_run_all(r, CK_NORMAL);
    int nf = srunner_ntests_failed(r);
    srunner_free(r);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
