/* Matrix-free dual PGS over contact blocks: a = a0 + M^-1 J^T f is kept current; block k
 * sees the residual r_k = J_k a - a_ref_k + R_k f_k and the nrow x nrow matrix
 * G_k = J_k M^-1 J_k^T + R_k (made once per step in solver.c); an update touches the dofs
 * of the block's trees only. By default the blocks of one pair of trees are one
 * Gauss-Seidel block (pair groups, below).
 *
 * Stopping (as MuJoCo's mj_solPGS): after each sweep, improvement = -(sum of the blocks'
 * dual cost changes) * scale, scale = 1 / (meaninertia * max(1, nv of the model)); stop
 * when improvement <= tolerance or after max_iter sweeps; an island that is one pair group
 * stops after the sweep that solved it to its stationary point. Warm start (as
 * mj_fwdConstraint for PGS): the forces implied by the previous acceleration under the
 * new rows, f = f_soft(J a_warm - a_ref), kept only if their dual cost is <= 0, the cost
 * of f = 0 (per island here, globally in MuJoCo). */
#include "solver_internal.h"
#include "alloc.h"
#include "mass.h"
#include "minval.h"

#include <math.h>
#include <string.h>


/* The pair group's damped Newton (group_update):
 * - GROUP_GRAD_FLOOR: converged when every gradient entry is below this times the size of
 *   the terms of M (x - a~) it sums (a few dozen ulps: what rounding leaves of them);
 * - GROUP_NEWTON_MAX: at most this many Newton steps (a strongly convex, piecewise
 *   quadratic problem of <= 24 dofs needs a handful; beyond, the rounding floor sits
 *   above the gradient test and the cost check after the loop decides);
 * - GROUP_HALVINGS: the backtracking halves the step at most this often (2^-40 of a
 *   Newton step is below any change the cost can register);
 * - ARMIJO: the sufficient decrease of the backtracking (the usual 1e-4);
 * - a full step is also taken when it at least halves the gradient (GRAD_HALF) at a cost
 *   unchanged to COST_ROUNDING relative (near the optimum the cost change drowns in
 *   rounding: the cost pins x only to sqrt(eps));
 * - GROUP_RESTORE: after the solve, a dual cost rise beyond this times the terms summed
 *   means the small solve went wrong (an exact joint minimiser cannot raise the cost
 *   beyond rounding): the group is restored and swept block by block. */
#define GROUP_GRAD_FLOOR 1e-14
#define GROUP_NEWTON_MAX 50
#define GROUP_HALVINGS 40
#define ARMIJO 1e-4
#define GRAD_HALF 0.5
#define COST_ROUNDING 1e-13
#define GROUP_RESTORE 1e-10
/* A group of up to GROUP_W_ROWS rows takes a~ and the update's acceleration from its
 * blocks' W = M^-1 J^T (made once a solve, about half a tree solve per row); a larger one
 * from two solves with M's tree factor per group update, and needs no W */
#define GROUP_W_ROWS 8

/* pair groups: the largest group (two trees) solved jointly, in dofs */
#define CS_GMAXD 24
/* kept group factors: CS_GFAC doubles per block position, so a group of nb blocks keeps
 * its factor when nd^2 <= nb CS_GFAC (every pair of free bodies: 144 <= 2 72) */
#define CS_GFAC 72

typedef struct {
    int nv;
    double *grad;       /* per dof: the primal gradient of the finish test */
    int *lmap;          /* per dof: its column in the pair group being solved (islands,
                           solved on their own threads, own disjoint dofs) */
    int cap_efc, cap_block, cap_thread;
    double *mlc;        /* per thread: the M of its last pair group (CS_GMAXD^2) */
    int *bprep;         /* per block: 1 once its W and G are made in this solve (the
                           blocks swept alone and the small groups' need them) */
    int *isl_group;     /* per island: its groups' count once set up in this solve (at the
                           warm start), -1 before */
    int *mlkey;         /* per thread: that group's index in the island's solve, or -1 */
    double *fold;       /* per row: a group's old forces */
    cs_bqp *bqp;        /* per elliptic block: G's factors for the exact block solve */
    int *bqp_ok;        /* 1 where bqp was prepared */
    /* pair groups, by position in the island's block list (isl_blocks order) */
    int *gord, *gadr, *gvalid, *gsig, *gsc0, *gsc1;
    long long *gkey;
    double *gfac, *gj0, *gf0, *gf1;
    /* a grouped block's columns that are not zero, once per solve (J is fixed through it):
     * per block gcm (their count, -1 until made); at the block's J_rowadr in gjt (J's
     * entries there transposed) and gli (their local dofs) */
    int cap_nnz;
    int *gcm, *gli;
    double *gjt;
} pgs_ws;

/* MuJoCo's split update of an elliptic block (one ray/normal step, one fixed-normal
 * QCQP): kept for comparison (exact_block = 0). f in/out, r = residual at f. */
static void split_update(const cs_efc *e, int k, const double *G, const double *r, double *f)
{
    int n = e->blk_nrow[k], nt = n - 1;
    double old[CS_MAXROWS];
    memcpy(old, f, sizeof(double) * n);
    if (f[0] < CS_MINVAL) {
        f[0] = fmax(0, f[0] - r[0] / G[0]);
        for (int j = 1; j < n; j++) f[j] = 0;
    } else {
        double v1[CS_MAXROWS], den = 0, vr = 0;
        for (int i = 0; i < n; i++) {
            v1[i] = 0;
            for (int c = 0; c < n; c++) v1[i] += G[i * n + c] * f[c];
            den += f[i] * v1[i];
            vr += f[i] * r[i];
        }
        if (den >= CS_MINVAL) {
            double x = -vr / den;
            if (old[0] + x * old[0] < 0) x = -1;
            for (int i = 0; i < n; i++) f[i] += x * old[i];
        }
    }
    if (f[0] < CS_MINVAL) {
        for (int j = 1; j < n; j++) f[j] = 0;
        return;
    }
    double H[25], bc[5], x[5], lam;
    for (int i = 0; i < nt; i++) {
        bc[i] = r[1 + i] + G[(1 + i) * n] * (f[0] - old[0]);
        for (int c = 0; c < nt; c++) {
            H[i * nt + c] = G[(1 + i) * n + 1 + c];
            bc[i] -= H[i * nt + c] * old[1 + c];
        }
    }
    if (cs_fn_qcqp(nt, H, bc, e->blk_friction + 5 * k, f[0], x, &lam) >= 0)
        for (int i = 0; i < nt; i++) f[1 + i] = x[i];
}

/* One block's update, in place (its forces, a); returns the block's dual cost change
 * (<= 0 up to rounding). */
static double block_update(pgs_ws *pw, cs_solver_ws *w, const cs_efc *e, int k, int exact, double *a)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k];
    const double *G = w->G + w->Gadr[k], *R = e->R + r0;
    double *f = e->force + r0;
    double r[CS_MAXROWS], old[CS_MAXROWS], d[CS_MAXROWS];
    cs_i_resid(e, k, a, r);
    for (int i = 0; i < n; i++) r[i] += R[i] * f[i];
    memcpy(old, f, sizeof(double) * n);
    int kind = e->blk_kind[k];
    if (kind == CS_BLOCK_ELLIPTIC && !exact) {
        split_update(e, k, G, r, f);
    } else if (kind == CS_BLOCK_ELLIPTIC || (kind == CS_BLOCK_PYRAMIDAL && exact)) {
        double c[CS_MAXROWS], x[CS_MAXROWS];
        for (int i = 0; i < n; i++) {
            c[i] = r[i];
            for (int m = 0; m < n; m++) c[i] -= G[i * n + m] * old[m];
        }
        memcpy(x, old, sizeof(double) * n); /* the current point: the solve's start */
        int rc = kind != CS_BLOCK_ELLIPTIC ? cs_nonneg_qp(n, G, c, x)
                 : pw->bqp_ok[k]            ? cs_bqp_solve(&pw->bqp[k], c, x)
                                           : cs_cone_qp(n, G, c, e->blk_friction + 5 * k, x);
        if (rc >= 0) memcpy(f, x, sizeof(double) * n);
    } else if (kind == CS_BLOCK_EQUALITY && exact) {
        /* bilateral: the block's unconstrained minimiser f = old - G^-1 r */
        double L[CS_MAXROWS * CS_MAXROWS], x[CS_MAXROWS];
        memcpy(L, G, sizeof(double) * n * n);
        memcpy(x, r, sizeof(double) * n);
        if (cs_i_chol(n, L) == 0) {
            cs_i_chol_solve(n, L, x);
            for (int i = 0; i < n; i++) f[i] = old[i] - x[i];
        }
    } else {
        /* scalar rows in order (frictionless, limits, MuJoCo's pyramid edges: onto f >= 0;
         * a friction-loss row: onto its box; equality rows: unbounded, MuJoCo's PGS),
         * residual current */
        double lo = kind == CS_BLOCK_FRICTIONLOSS ? -e->frictionloss[r0]
                    : kind == CS_BLOCK_EQUALITY   ? -INFINITY
                                                  : 0;
        double hi = kind == CS_BLOCK_FRICTIONLOSS ? e->frictionloss[r0] : INFINITY;
        for (int i = 0; i < n; i++) {
            double nf = fmin(hi, fmax(lo, f[i] - r[i] / G[i * n + i])), di = nf - f[i];
            if (di != 0)
                for (int m = 0; m < n; m++) r[m] += G[m * n + i] * di;
            f[i] = nf;
        }
        for (int i = 0; i < n; i++) /* back to the residual at the old forces */
            for (int m = 0; m < n; m++) r[i] -= G[i * n + m] * (f[m] - old[m]);
    }
    double ch = 0;
    for (int i = 0; i < n; i++) d[i] = f[i] - old[i];
    for (int i = 0; i < n; i++) {
        double gd = 0;
        for (int m = 0; m < n; m++) gd += G[i * n + m] * d[m];
        ch += d[i] * (0.5 * gd + r[i]);
    }
    /* MuJoCo restores a block whose cost went up. An exact block solve cannot raise the
     * cost, and near the optimum the computed change is rounding noise (~1e-15, from the
     * boundary multiplier times the solution's last-bit error): restoring there freezes PGS
     * short of the optimum, so exact blocks are kept. */
    int scalar = kind == CS_BLOCK_FRICTIONLESS || kind == CS_BLOCK_LIMIT ||
                 kind == CS_BLOCK_FRICTIONLOSS || (kind == CS_BLOCK_EQUALITY && !exact);
    if (ch > 0 && !(!scalar && exact)) {
        memcpy(f, old, sizeof(double) * n);
        return 0;
    }
    cs_i_apply(w, e, k, d, a);
    return ch;
}

/* ---- pair groups ----------------------------------------------------------------------
 * Why: with one block at a time, the corners of a box couple through the box's 6 dofs
 * and Gauss-Seidel converges only linearly, at a rate set by that coupling: a box sliding
 * and hopping on a slope needed > 100 sweeps on 16% of its steps. The blocks of one body
 * pair (all the contacts of a body with static geometry, or a box-on-box manifold) are
 * made one Gauss-Seidel block and minimised jointly and exactly, the other blocks' forces
 * fixed. This is still a dual block Gauss-Seidel: the dual cost decreases group by group,
 * the forces are cone members at every step, nothing beyond the pair's dofs (6 or 12 for free bodies) is
 * formed. What remains slow is only the coupling between different pairs (a stack).
 *
 * The group's dual problem, min 1/2 f^T (J M^-1 J^T + R) f + f^T (J a~ - a_ref) over its
 * cones (a~: the pair's acceleration without the group's forces), is by Fenchel duality
 * (docs/contact-math.md §7, restricted to the group) the same as the primal
 *   min_x 1/2 (x - a~)^T M (x - a~) + sum_i l_i(J_i x - a_ref_i)
 * over the pair's accelerations, whose minimiser gives the forces in closed form,
 * f_i = f_soft(J_i x - a_ref_i) (in the cone by construction). That small problem is
 * strongly convex and continuously differentiable (piecewise twice), so a damped Newton
 * iteration with the soft-cone Hessians (zones re-read at each point) solves it to
 * rounding in a few steps, however many contacts the pair has, where an
 * active-set or projected method over the stacked cones would be far larger.
 * Measured (2 s runs, default 100 sweeps / tolerance 1e-8; steps at the sweep limit, mean
 * sweeps a step, before -> after): incline_33 161 -> 0, 19.6 -> 1.0; its pyramidal version
 * 79 -> 0, 11.1 -> 1.0; box_stack 20 -> 0, 26 -> 2.9 (there the pairs of the stack still
 * couple, but through whole manifolds); aniso_box_condim3/6 21/19 -> 0, 9.4/9.7 -> 1.2.
 *
 * Joint rows (limits, friction loss; docs/contact-math.md §10) have the trees {tree, -1}, so
 * they join the group of their tree's contacts with static geometry, and the group's Newton
 * treats them by their soft response like any block (a friction-loss row's Huber cost is
 * continuously differentiable and piecewise quadratic; where it has no curvature M keeps the
 * small Hessian positive definite): a limit and the ground contacts of one arm are settled
 * jointly. A joint row alone, in a tree above CS_GMAXD dofs, or under contact blocking is a
 * scalar update: a clamp onto f >= 0 (limit) or onto the box [-F, F] (friction loss). */


/* A group: blocks of one pair of trees, at positions gord[gadr[g] .. gadr[g+1]) of the
 * island's block list. Its dofs: tree A's, then tree B's (A < B; B absent for a tree
 * against static geometry), at most CS_GMAXD. */
typedef struct {
    int nb;           /* blocks */
    const int *blk;   /* their indices (pw->gord + start; positions hold block indices) */
    int pos;          /* position of the first block (per-position scratch) */
    int adr[2], num[2], nd;
    const int *lmap;  /* per dof of the model: its local column (set for the group's dofs) */
} group;

/* local column of dof q in the group */
static inline int local_dof(const group *g, int q)
{
    return g->lmap[q];
}

/* group sort keys: key = pair * GKEY_POS + position, pair < (ntree + 1)^2 + nblock; with
 * fewer than GKEY_POS blocks and GKEY_TREES trees a key stays below 2^61 (63 bits fit) */
#define GKEY_POS (1LL << 24)
#define GKEY_TREES (1 << 18)

/* Order an island's blocks into groups: by pair of trees, the blocks of a pair in their
 * order, groups in the order of their first block (the rows' order, MuJoCo's sweep
 * order). Pairs with more than CS_GMAXD dofs stay single blocks. Fills pw->gord (block
 * indices) and pw->gadr; returns the number of groups. */
static int make_groups(pgs_ws *pw, cs_solver_ws *w, const cs_problem *p, int isl, int grouped)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    const int *blocks = w->isl_blocks + badr;
    int *ord = pw->gord + badr, *gadr = pw->gadr + badr + isl; /* nbk + 1 per island */
    long long *key = pw->gkey + badr;
    for (int b = 0; b < nbk; b++) pw->gvalid[badr + b] = 0; /* no kept factors yet */
    grouped = grouped && nbk < GKEY_POS && M->ntree < GKEY_TREES; /* keys fit in 63 bits */
    long long nt1 = (long long)M->ntree + 1;
    for (int b = 0; b < nbk; b++) {
        int k = blocks[b], t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 > t1) { int t = t0; t0 = t1; t1 = t; }
        int nd = (t0 >= 0 ? M->tree_dofnum[t0] : 0) + (t1 >= 0 ? M->tree_dofnum[t1] : 0);
        long long pair = (grouped && nd <= CS_GMAXD) ? (t0 + 1) * nt1 + t1 + 1
                                                     : nt1 * nt1 + b; /* alone */
        key[b] = pair * GKEY_POS + b;
    }
    if (grouped) {
        cs_i_sort_ll(key, nbk);
        for (int b = 0; b < nbk;) { /* re-key each pair's run by its first position */
            long long pk = key[b] / GKEY_POS, first = key[b] % GKEY_POS;
            for (; b < nbk && key[b] / GKEY_POS == pk; b++) key[b] = first * GKEY_POS + key[b] % GKEY_POS;
        }
        cs_i_sort_ll(key, nbk);
    } else {
        for (int b = 0; b < nbk; b++) key[b] = (long long)b * GKEY_POS + b;
    }
    int ng = 0;
    for (int b = 0; b < nbk; b++) {
        if (b == 0 || key[b] / GKEY_POS != key[b - 1] / GKEY_POS) gadr[ng++] = b;
        ord[b] = blocks[key[b] % GKEY_POS];
    }
    gadr[ng] = nbk;
    return ng;
}

static void group_init(pgs_ws *pw, const cs_solver_ws *w, const cs_problem *p, int isl, int gi, group *g)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl];
    const int *gadr = pw->gadr + badr + isl;
    int s = gadr[gi];
    g->nb = gadr[gi + 1] - s;
    g->blk = pw->gord + badr + s;
    g->pos = badr + s;
    int k = g->blk[0], t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
    if (t0 < 0 || (t1 >= 0 && t1 < t0)) { int t = t0; t0 = t1; t1 = t; }
    g->adr[0] = M->tree_dofadr[t0];
    g->num[0] = M->tree_dofnum[t0];
    g->adr[1] = t1 >= 0 ? M->tree_dofadr[t1] : 0;
    g->num[1] = t1 >= 0 ? M->tree_dofnum[t1] : 0;
    g->nd = g->num[0] + g->num[1];
    g->lmap = pw->lmap;
    if (g->nb > 1) /* the joint solve's column map (a lookup for its many dof indices) */
        for (int s = 0, o = 0; s < 2; o += g->num[s], s++)
            for (int i = 0; i < g->num[s]; i++) pw->lmap[g->adr[s] + i] = o + i;
}

/* the group's M (dense, nd x nd, block diagonal by tree; rows zeroed one by one, each a
 * short clear) */
static void group_mass(const cs_problem *p, const group *g, double *Ml)
{
    int nd = g->nd;
    for (int i = 0; i < nd; i++) memset(Ml + i * nd, 0, sizeof(double) * nd);
    const double *qM = p->M->qM;
    const int *par = p->M->dof_parent, *madr = p->M->dof_Madr;
    for (int s = 0, o = 0; s < 2; s++) {
        int lo = g->adr[s];
        for (int i = 0; i < g->num[s]; i++) { /* row i at its ancestors' columns, both halves */
            double *row = Ml + (o + i) * nd + o - lo, *col = Ml + o * nd + o + i - lo * nd;
            int a = madr[lo + i];
            for (int k = lo + i; k >= lo; k = par[k], a++) row[k] = col[k * nd] = qM[a];
        }
        o += g->num[s];
    }
}

/* vectors of four doubles (element-wise arithmetic rounds as the scalar one does; without
 * AVX one is two of two), moved through pointers */
typedef double pgs_v4d __attribute__((vector_size(32)));

/* y[i0 .. i0 + 4 W4 + S) of group_mass_mul over the tree's columns [o, hi): W4 vectors of
 * four and S (0 to 3) single entries, in one pass down the columns (all fixed at compile
 * time: the sums stay in registers) */
static inline __attribute__((always_inline)) void
mass_rows(const double *Ml, int nd, const double *d, double *y, int i0, int o, int hi,
          const int W4, const int S, const int ab)
{
    pgs_v4d t[4];
    double ts[3] = {0, 0, 0};
    memset(t, 0, sizeof t);
    for (int q = o; q < hi; q++) {
        const double *Mq = Ml + q * nd + i0;
        pgs_v4d dq = {d[q], d[q], d[q], d[q]};
        for (int w = 0; w < W4; w++) {
            pgs_v4d u;
            memcpy(&u, Mq + 4 * w, sizeof u);
            if (ab) u = (pgs_v4d){fabs(u[0]), fabs(u[1]), fabs(u[2]), fabs(u[3])};
            t[w] += u * dq;
        }
        for (int c = 0; c < S; c++) ts[c] += (ab ? fabs(Mq[4 * W4 + c]) : Mq[4 * W4 + c]) * d[q];
    }
    for (int w = 0; w < W4; w++) memcpy(y + i0 + 4 * w, t + w, sizeof t[w]);
    for (int c = 0; c < S; c++) y[i0 + 4 * W4 + c] = ts[c];
}

/* y = M d over the group's trees (with ab: |M| d). M is block diagonal by tree: a row's
 * tree's columns only (the others add zeros), each entry summing its terms in column order
 * from 0, as a dot product would. Sixteen rows at a time read down the columns (M is
 * symmetric: row q's entries at those rows), four entries of y to a vector. */
static inline __attribute__((always_inline)) void
mass_mul(const double *Ml, const group *g, const double *d, double *y, const int ab)
{
    int nd = g->nd;
    for (int s = 0, o = 0; s < 2; o += g->num[s], s++) {
        int hi = o + g->num[s], i = o;
        for (; i + 16 <= hi; i += 16) mass_rows(Ml, nd, d, y, i, o, hi, 4, 0, ab);
        switch (hi - i) {
        case 1: mass_rows(Ml, nd, d, y, i, o, hi, 0, 1, ab); break;
        case 2: mass_rows(Ml, nd, d, y, i, o, hi, 0, 2, ab); break;
        case 3: mass_rows(Ml, nd, d, y, i, o, hi, 0, 3, ab); break;
        case 4: mass_rows(Ml, nd, d, y, i, o, hi, 1, 0, ab); break;
        case 5: mass_rows(Ml, nd, d, y, i, o, hi, 1, 1, ab); break;
        case 6: mass_rows(Ml, nd, d, y, i, o, hi, 1, 2, ab); break;
        case 7: mass_rows(Ml, nd, d, y, i, o, hi, 1, 3, ab); break;
        case 8: mass_rows(Ml, nd, d, y, i, o, hi, 2, 0, ab); break;
        case 9: mass_rows(Ml, nd, d, y, i, o, hi, 2, 1, ab); break;
        case 10: mass_rows(Ml, nd, d, y, i, o, hi, 2, 2, ab); break;
        case 11: mass_rows(Ml, nd, d, y, i, o, hi, 2, 3, ab); break;
        case 12: mass_rows(Ml, nd, d, y, i, o, hi, 3, 0, ab); break;
        case 13: mass_rows(Ml, nd, d, y, i, o, hi, 3, 1, ab); break;
        case 14: mass_rows(Ml, nd, d, y, i, o, hi, 3, 2, ab); break;
        case 15: mass_rows(Ml, nd, d, y, i, o, hi, 3, 3, ab); break;
        default: break;
        }
    }
}

CS_VECTOR_CLONES static void group_mass_mul(const double *Ml, const group *g, const double *d,
                                            double *y)
{
    mass_mul(Ml, g, d, y, 0);
}

CS_VECTOR_CLONES static void group_mass_mul_abs(const double *Ml, const group *g,
                                                const double *d, double *y)
{
    mass_mul(Ml, g, d, y, 1);
}

/* Hb's rows that are not all zero (ra, na; an inactive pyramid edge or limit adds exact
 * zeros to J^T Hb J) and whether those rows are diagonal (every zone but the elliptic
 * cone's middle): then (Hb J)_rq = Hb_rr J_rq, the one term that is not an exact zero */
static int hess_rows(const double *Hb, int n, int *ra, int *diag)
{
    int na = 0;
    *diag = 1;
    for (int r = 0; r < n; r++) {
        int nz = 0;
        for (int c = 0; c < n; c++)
            if (Hb[r * n + c] != 0) {
                nz = 1;
                if (c != r) *diag = 0;
            }
        if (nz) ra[na++] = r;
    }
    return na;
}

/* H(i1, i2) += v with i1, i2 in either order (H: upper triangle) */
static inline void hess_add(double *H, int nd, int i1, int i2, double v)
{
    if (i2 >= i1) H[i1 * nd + i2] += v;
    else H[i2 * nd + i1] += v;
}

/* H += J^T Hb J of a block over its m columns (Jt: J transposed, t n + r; li: their local
 * dofs). Each entry sums its rows in their order, from 0; rows of Hb that are zero are left
 * out (their terms are exact zeros, which leave a sum from +0 unchanged). Column t2's
 * entries with the columns t <= t2 go two to a vector (HJ by row: i CS_GMAXD + t). */
static inline __attribute__((always_inline)) void
block_hess_n(const double *Hb, const double *Jt, const int *li, int m, int n, int nd, double *H,
             const int *ra, int diag, int na, const int NA)
{
    if (NA > 0) na = NA;
    double Jc[CS_MAXROWS * CS_GMAXD], HJ[CS_MAXROWS * CS_GMAXD]; /* Jc: t na + i */
    for (int t = 0; t < m; t++)
        for (int i = 0; i < na; i++) {
            int r = ra[i];
            const double *Jq = Jt + t * n;
            Jc[t * na + i] = Jq[r];
            if (diag) {
                HJ[i * CS_GMAXD + t] = Hb[r * n + r] * Jq[r];
            } else {
                double v = 0;
                for (int r2 = 0; r2 < n; r2++) v += Hb[r * n + r2] * Jq[r2];
                HJ[i * CS_GMAXD + t] = v;
            }
        }
    if (m & 1) /* the last pair's second lane: read, its sum not used */
        for (int i = 0; i < na; i++) HJ[i * CS_GMAXD + m] = 0;
    for (int t2 = 0; t2 < m; t2++) {
        const double *J2 = Jc + t2 * na;
        for (int t = 0; t <= t2; t += 2) {
            cs_v2d v = {0, 0};
            for (int i = 0; i < na; i++) {
                cs_v2d ji = {J2[i], J2[i]};
                v += ji * cs_i_load2(HJ + i * CS_GMAXD + t);
            }
            hess_add(H, nd, li[t], li[t2], v[0]);
            if (t + 1 <= t2) hess_add(H, nd, li[t + 1], li[t2], v[1]);
        }
    }
}

static void block_hess(const double *Hb, const double *Jt, const int *li, int m, int n, int nd,
                       double *H)
{
    int ra[CS_MAXROWS], diag, na = hess_rows(Hb, n, ra, &diag);
    if (na == 4) block_hess_n(Hb, Jt, li, m, n, nd, H, ra, diag, na, 4);
    else if (na == 3) block_hess_n(Hb, Jt, li, m, n, nd, H, ra, diag, na, 3);
    else if (na == 2) block_hess_n(Hb, Jt, li, m, n, nd, H, ra, diag, na, 2);
    else if (na == 1) block_hess_n(Hb, Jt, li, m, n, nd, H, ra, diag, na, 1);
    else if (na) block_hess_n(Hb, Jt, li, m, n, nd, H, ra, diag, na, 0);
}

/* The columns of block k that are not zero, ascending (the rest add exact zeros: the dofs
 * off the chains to the contact's bodies, within the prefix cs_i_cols gives): their local
 * dofs li, and J's entries there transposed (Jt[t n + r]: each column's rows together);
 * returns their count */
static int block_cols(const cs_efc *e, const group *g, int k, double *Jt, int *li)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k];
    int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    const double *J = e->J + adr;
    int m = 0, lo[2], hi[2];
    cs_i_cols(e, k, lo, hi);
    for (int s = 0; s < 2; s++)
        for (int q = lo[s]; q < hi[s]; q++) {
            int nz = 0;
            for (int r = 0; r < n; r++) nz |= (Jt[m * n + r] = J[r * nnz + q]) != 0;
            if (nz) li[m++] = local_dof(g, ci[q]);
        }
    return m;
}

/* the group's blocks' columns (block_cols), made on the group's first update of a solve */
static void group_cols(pgs_ws *pw, const cs_efc *e, const group *g)
{
    for (int b = 0; b < g->nb; b++) {
        int k = g->blk[b], off = e->J_rowadr[e->blk_row[k]];
        if (pw->gcm[k] < 0) pw->gcm[k] = block_cols(e, g, k, pw->gjt + off, pw->gli + off);
    }
}

/* group_eval's part of block b (N > 0 fixes its rows' count at compile time);
 * returns the block's cost */
static inline __attribute__((always_inline)) double
group_block(const pgs_ws *pw, const cs_efc *e, const group *g, int b, const double *x,
            double *gr, double *H, int *sig, double *jo, double *fo, const int N)
{
    int nd = g->nd;
    int k = g->blk[b], n = N > 0 ? N : e->blk_nrow[k], r0 = e->blk_row[k];
    int off = e->J_rowadr[r0], m = pw->gcm[k];
    const double *Jt = pw->gjt + off;
    const int *li = pw->gli + off;
    double j[CS_MAXROWS], f[CS_MAXROWS], Hb[CS_MAXROWS * CS_MAXROWS], l;
    for (int r = 0; r < n; r++) j[r] = -e->aref[r0 + r];
    for (int t = 0; t < m; t++) { /* each row summed over the columns in order */
        double xt = x[li[t]];
        for (int r = 0; r < n; r++) j[r] += Jt[t * n + r] * xt;
    }
    cs_zone z = cs_efc_soft(e, k, j, f, &l, H ? Hb : NULL);
    if (jo) memcpy(jo + CS_MAXROWS * b, j, sizeof(double) * n);
    if (fo) memcpy(fo + CS_MAXROWS * b, f, sizeof(double) * n);
    if (sig) { /* which constant Hessian the block has here; -1: none (cone zone) */
        if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC) {
            sig[b] = z == CS_ZONE_MIDDLE ? -1 : (int)z;
        } else if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS ||
                   e->blk_kind[k] == CS_BLOCK_EQUALITY) {
            sig[b] = z == CS_ZONE_BOTTOM; /* quadratic 1/R, else none */
        } else {
            sig[b] = 0;
            for (int r = 0; r < n; r++) sig[b] |= (f[r] > 0) << r;
        }
    }
    if (z == CS_ZONE_TOP) return l; /* no force, no curvature (a friction-loss row in a
                                       linear zone has force, not curvature) */
    if (gr) /* each entry takes its rows' terms in the rows' order */
        for (int t = 0; t < m; t++) {
            double *gq = gr + li[t];
            for (int r = 0; r < n; r++) *gq -= Jt[t * n + r] * f[r];
        }
    if (H) block_hess(Hb, Jt, li, m, n, nd, H);
    return l;
}

/* Group primal at x: cost, and if gr: gradient M (x - at) - sum J^T f; if H: Hessian
 * M + sum J^T H_i J; if sig: the blocks' Hessian signatures; if jo / fo: their residuals
 * J x - a_ref / forces (CS_MAXROWS per block). */
static double group_eval(const pgs_ws *pw, const cs_efc *e, const group *g, const double *Ml,
                         const double *at, const double *x, double *gr, double *H, int *sig,
                         double *jo, double *fo)
{
    int nd = g->nd;
    double c = 0, d[CS_GMAXD] = {0}, md[CS_GMAXD];
    if (gr || !H) { /* an evaluation for H alone needs no M (x - a~) (its cost unused) */
        for (int i = 0; i < nd; i++) d[i] = x[i] - at[i];
        group_mass_mul(Ml, g, d, md);
        for (int i = 0; i < nd; i++) c += 0.5 * d[i] * md[i];
        if (gr) memcpy(gr, md, sizeof(double) * nd);
    }
    if (H) memcpy(H, Ml, sizeof(double) * nd * nd);
    for (int b = 0; b < g->nb; b++) { /* the common row counts unrolled */
        int n = e->blk_nrow[g->blk[b]];
        if (n == 4) c += group_block(pw, e, g, b, x, gr, H, sig, jo, fo, 4); /* pyramidal condim 3 */
        else if (n == 3) c += group_block(pw, e, g, b, x, gr, H, sig, jo, fo, 3); /* elliptic */
        else if (n == 1) c += group_block(pw, e, g, b, x, gr, H, sig, jo, fo, 1); /* limits */
        else c += group_block(pw, e, g, b, x, gr, H, sig, jo, fo, 0);
    }
    return c;
}

/* v <- M^-1 v on the group's dofs (local columns), through M's own tree factor: the
 * group's dofs are whole trees. y: scratch per dof of the model, at the group's dofs. */
static void group_minv(const cs_problem *p, const group *g, double *y, double *v)
{
    for (int s = 0, o = 0; s < 2; s++) {
        int lo = g->adr[s], n = g->num[s];
        if (!n) continue;
        memcpy(y + lo, v + o, sizeof(double) * n);
        cs_mass_solve(p->M, y, lo, lo + n);
        memcpy(v + o, y + lo, sizeof(double) * n);
        o += n;
    }
}

/* max(m, v) for m not NaN (fmax's result there, without its call) */
static inline double vmax(double m, double v)
{
    return v > m ? v : m;
}

/* Stationary to rounding: every gradient entry at most GROUP_GRAD_FLOOR times the size of
 * the terms of M (x - a~) it sums (or all zero); *gmax: the largest entry. */
static int group_stationary(const double *Ml, const group *g, const double *x,
                            const double *at, const double *gr, double *gmax)
{
    int nd = g->nd;
    double gbig = 0, ad[CS_GMAXD], mi[CS_GMAXD];
    for (int i = 0; i < nd; i++) {
        ad[i] = fabs(x[i] - at[i]);
        gbig = vmax(gbig, fabs(gr[i]));
    }
    *gmax = gbig;
    if (gbig == 0) return 1;
    /* |M_iq| <= max_i M_ii (M is positive definite): the terms' size is at most
     * nd max_i M_ii max_q ad_q, and a gradient above twice that (room for the bound's
     * rounding) fails the test without the sums */
    double dmax = 0, admax = 0, tmax = 0;
    for (int i = 0; i < nd; i++) {
        dmax = vmax(dmax, Ml[i * nd + i]);
        admax = vmax(admax, ad[i]);
        tmax = vmax(tmax, fabs(Ml[i * nd + i]) * ad[i]);
    }
    if (gbig > 2 * GROUP_GRAD_FLOOR * nd * dmax * admax) return 0;
    /* and at least its largest diagonal term (a sum of terms >= 0 rounds to no less than
     * any of them): a gradient below that passes */
    if (gbig <= GROUP_GRAD_FLOOR * tmax) return 1;
    group_mass_mul_abs(Ml, g, ad, mi);
    double gsc = 0;
    for (int i = 0; i < nd; i++) gsc = vmax(gsc, mi[i]);
    return gbig <= GROUP_GRAD_FLOOR * gsc;
}

/* a~ = a - M^-1 J^T f of the group (x: a on its dofs): from the blocks' W where the group
 * has it (usew), else through M's factor; a group alone in its island has all of the
 * island's forces: a~ = a0 */
static void group_atilde(const pgs_ws *pw, const cs_solver_ws *w, const group *g, int alone,
                         int usew, const double *x, double *y, double *at)
{
    const cs_problem *p = w->p;
    const cs_efc *e = p->efc;
    if (alone) {
        for (int s = 0, o = 0; s < 2; o += g->num[s], s++)
            memcpy(at + o, p->a0 + g->adr[s], sizeof(double) * g->num[s]);
        return;
    }
    double v[CS_GMAXD] = {0};
    for (int b = 0; b < g->nb; b++) {
        int k = g->blk[b], r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        for (int r = 0; r < e->blk_nrow[k]; r++) {
            double fr = e->force[r0 + r];
            if (fr == 0) continue;
            if (usew) { /* W fills its trees */
                const double *W = w->W + adr + r * nnz;
                for (int q = 0; q < nnz; q++) v[local_dof(g, ci[q])] += W[q] * fr;
            } else { /* J: the columns that are not zero */
                int n = e->blk_nrow[k];
                const double *Jt = pw->gjt + adr;
                const int *li = pw->gli + adr;
                for (int t = 0; t < pw->gcm[k]; t++) v[li[t]] += Jt[t * n + r] * fr;
            }
        }
    }
    if (!usew) group_minv(p, g, y, v);
    for (int i = 0; i < g->nd; i++) at[i] = x[i] - v[i];
}

/* Exact joint update of a group's blocks; adds the dual cost decrease to *impr. Returns 0,
 * or -1 (nothing changed) if the small Newton solve failed. */
static int group_update(pgs_ws *pw, const cs_solver_ws *w, const group *g, int gi, int alone,
                        int thread, double *a, double *y, double *impr, int *exact)
{
    const cs_problem *p = w->p;
    *exact = 0;
    cs_efc *e = p->efc;
    int nd = g->nd, pos = g->pos;
    double at[CS_GMAXD], x[CS_GMAXD], gr[CS_GMAXD], H[CS_GMAXD * CS_GMAXD], dx[CS_GMAXD],
        xt[CS_GMAXD], gt[CS_GMAXD];
    /* M is constant through the solve: the thread's last group keeps its M for the next
     * sweep (an island of one joint group, a humanoid on the floor, builds it once) */
    double *Ml = pw->mlc + (size_t)thread * CS_GMAXD * CS_GMAXD;
    if (pw->mlkey[thread] != gi) {
        group_mass(p, g, Ml);
        pw->mlkey[thread] = gi;
    }
    for (int s = 0, o = 0; s < 2; s++) {
        for (int i = 0; i < g->num[s]; i++) x[o + i] = a[g->adr[s] + i];
        o += g->num[s];
    }
    int usew = pw->bprep[g->blk[0]];
    group_cols(pw, e, g);
    group_atilde(pw, w, g, alone, usew, x, y, at);
    /* Damped Newton; stop when the gradient is rounding-level against M (x - a~) or the
     * line search cannot decrease the cost any more. The line search evaluates the
     * gradient at its trial point too, which the next convergence test reuses. Per-block
     * buffers are the workspace's, at the group's positions. */
    int *sig = pw->gsc0 + pos, *sigt = pw->gsc1 + pos;
    double *jb0 = pw->gj0 + (size_t)CS_MAXROWS * pos, *fx = pw->gf0 + (size_t)CS_MAXROWS * pos,
           *ft = pw->gf1 + (size_t)CS_MAXROWS * pos;
    /* the Newton's first step needs H at x unless a kept factor may serve: made with the
     * first evaluation (the residuals and zones it reads are the same) */
    int hx = !pw->gvalid[pos];
    double c = group_eval(pw, e, g, Ml, at, x, gr, hx ? H : NULL, sig, jb0, fx);
    double *Hf = pw->gfac + (size_t)CS_GFAC * (size_t)pos;
    int keep = nd * nd <= g->nb * CS_GFAC;
    for (int it = 0;; it++) {
        double gmax;
        if (group_stationary(Ml, g, x, at, gr, &gmax)) {
            *exact = 1; /* stationary to rounding: the group's exact minimiser */
            break;
        }
        if (it >= GROUP_NEWTON_MAX) break; /* rounding floor above the test: the cost check
                                              below decides */
        /* The Hessian is constant while no block is in the cone zone and the zones stay
         * (a resting stack: all bottom zone), so its factor is kept for the later sweeps
         * of this solve. */
        int same = pw->gvalid[pos], cacheable = keep;
        for (int b = 0; b < g->nb; b++) {
            same = same && sig[b] == pw->gsig[pos + b];
            cacheable = cacheable && sig[b] >= 0;
        }
        if (!same || !cacheable) {
            if (!hx) group_eval(pw, e, g, Ml, at, x, NULL, H, NULL, NULL, NULL);
            if (cs_i_chol_upper(nd, H)) return -1;
            pw->gvalid[pos] = cacheable;
            if (cacheable) {
                memcpy(Hf, H, sizeof(double) * nd * nd);
                memcpy(pw->gsig + pos, sig, sizeof(int) * g->nb);
            }
        }
        const double *L = pw->gvalid[pos] ? Hf : H;
        for (int i = 0; i < nd; i++) dx[i] = -gr[i];
        cs_i_chol_upper_solve(nd, L, dx);
        double gd = 0;
        for (int i = 0; i < nd; i++) gd += gr[i] * dx[i];
        if (!(gd < 0)) break;
        double al = 1, ct = 0;
        int ok = 0;
        for (int ls = 0; ls < GROUP_HALVINGS; ls++, al *= 0.5) {
            for (int i = 0; i < nd; i++) xt[i] = x[i] + al * dx[i];
            ct = group_eval(pw, e, g, Ml, at, xt, gt, NULL, sigt, NULL, ft);
            /* Armijo; near the optimum the cost change drowns in rounding (the cost then
             * pins x only to sqrt(eps)), so a full step that halves the gradient at a cost
             * unchanged to rounding is taken too */
            double gtm = 0;
            for (int i = 0; i < nd; i++) gtm = vmax(gtm, fabs(gt[i]));
            if (ct <= c + ARMIJO * al * gd ||
                (ls == 0 && gtm <= GRAD_HALF * gmax && ct <= c + COST_ROUNDING * fabs(c))) {
                ok = 1;
                break;
            }
        }
        if (!ok) break; /* no decrease left at rounding level */
        double st = 0;
        for (int i = 0; i < nd; i++) st = vmax(st, fabs(xt[i] - x[i]));
        memcpy(x, xt, sizeof(double) * nd);
        memcpy(gr, gt, sizeof(double) * nd);
        hx = 0; /* H is at the old x */
        int *si = sig; /* the signatures and forces at x follow x */
        sig = sigt;
        sigt = si;
        double *sw = fx;
        fx = ft;
        ft = sw;
        c = ct;
        if (st == 0) break; /* the step no longer moves x */
    }
    /* forces f_i = f_soft(J_i x - a_ref_i) (fx, from the last evaluation at x); dual change
     * sum d.r + 1/2 (sum J^T d).da + 1/2 d.R d with r = J a - a_ref + R f the residuals at
     * the current a (jb0, from the first evaluation) and da = sum M^-1 J^T d */
    double da[CS_GMAXD] = {0}, jtd[CS_GMAXD] = {0}, ch = 0, chs = 0;
    double *fo = pw->fold; /* old forces, should the group be restored (rows' positions) */
    for (int b = 0; b < g->nb; b++) {
        int k = g->blk[b], n = e->blk_nrow[k], r0 = e->blk_row[k];
        int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        const double *f = fx + CS_MAXROWS * b, *j0 = jb0 + CS_MAXROWS * b, *R = e->R + r0;
        double *fb = e->force + r0;
        for (int r = 0; r < n; r++) {
            double d = f[r] - fb[r];
            ch += d * (j0[r] + R[r] * fb[r] + 0.5 * R[r] * d);
            chs += fabs(d * (j0[r] + R[r] * fb[r])) + fabs(0.5 * R[r] * d * d);
            fo[r0 + r] = fb[r];
            fb[r] = f[r];
            const double *J = e->J + adr + r * nnz;
            if (usew) {
                const double *W = w->W + adr + r * nnz;
                for (int q = 0; q < nnz; q++) {
                    int l = local_dof(g, ci[q]);
                    da[l] += W[q] * d;
                    jtd[l] += J[q] * d;
                }
            } else {
                const double *Jt = pw->gjt + adr;
                const int *li = pw->gli + adr;
                for (int t = 0; t < pw->gcm[k]; t++) jtd[li[t]] += Jt[t * n + r] * d;
            }
        }
    }
    /* da = M^-1 J^T d; a group alone in its island, solved to its stationary point, has
     * M (x - a0) = J^T f there to rounding: da = x - a (and a becomes x) */
    int tox = alone && *exact;
    if (tox) {
        for (int s = 0, o = 0; s < 2; o += g->num[s], s++)
            for (int i = 0; i < g->num[s]; i++) da[o + i] = x[o + i] - a[g->adr[s] + i];
    } else if (!usew) {
        memcpy(da, jtd, sizeof(double) * nd);
        group_minv(p, g, y, da);
    }
    for (int i = 0; i < nd; i++) {
        ch += 0.5 * jtd[i] * da[i];
        chs += fabs(0.5 * jtd[i] * da[i]);
    }
    /* an exact joint minimiser cannot raise the cost beyond rounding (relative to the
     * terms summed); anything more means the small solve went wrong: restore, and let the
     * blocks be swept one by one */
    if (ch > GROUP_RESTORE * chs) {
        for (int b = 0; b < g->nb; b++) {
            int k = g->blk[b], r0 = e->blk_row[k];
            memcpy(e->force + r0, fo + r0, sizeof(double) * e->blk_nrow[k]);
        }
        return -1;
    }
    for (int s = 0, o = 0; s < 2; o += g->num[s], s++)
        for (int i = 0; i < g->num[s]; i++)
            a[g->adr[s] + i] = tox ? x[o + i] : a[g->adr[s] + i] + da[o + i];
    *impr -= ch;
    return 0;
}

/* a block swept alone: its W, G and, for the exact elliptic block solve, G's factors, once
 * per solve (a group's blocks need none of them while the group's joint solve succeeds) */
static void prepare_single(pgs_ws *pw, cs_solver_ws *w, int k)
{
    const cs_efc *e = w->p->efc;
    if (pw->bprep[k]) return;
    cs_i_prepare_block(w, k, CS_NEED_W | CS_NEED_G);
    pw->bqp_ok[k] = w->o->exact_block && e->blk_kind[k] == CS_BLOCK_ELLIPTIC &&
                    cs_bqp_prepare(&pw->bqp[k], e->blk_nrow[k], w->G + w->Gadr[k],
                                   e->blk_friction + 5 * k) == 0;
    pw->bprep[k] = 1;
}

/* The island's groups, and W and G of the blocks that are swept alone or in groups small
 * enough that W costs less than M^-1 at each update; returns the number of groups. */
static int pgs_setup(pgs_ws *pw, cs_solver_ws *w, int isl)
{
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    const cs_efc *e = p->efc;
    int grouped = o->blocking == CS_PGS_BLOCK_PAIR && o->exact_block && w->isl_block_num[isl] > 1;
    int ngroup = make_groups(pw, w, p, isl, grouped);
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        pw->bprep[k] = 0;
        pw->gcm[k] = -1;
    }
    for (int gi = 0; gi < ngroup; gi++) {
        group g;
        group_init(pw, w, p, isl, gi, &g);
        int rows = 0;
        for (int b = 0; b < g.nb; b++) rows += e->blk_nrow[g.blk[b]];
        /* an island that is one group is solved by one update: M's factor, no W */
        if (g.nb == 1 || (rows <= GROUP_W_ROWS && ngroup > 1))
            for (int b = 0; b < g.nb; b++) prepare_single(pw, w, g.blk[b]);
    }
    return pw->isl_group[isl] = ngroup;
}

/* warm start: the forces the previous acceleration implies under the new rows, kept if
 * their dual cost beats zero forces */
static void pgs_warm_start(void *ws, cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    pgs_ws *pw = ws;
    const cs_problem *p = w->p;
    const double *a_warm = w->a_warm;
    cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    double j[CS_MAXROWS], l, *a = w->a;
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b];
        cs_i_resid(e, k, a_warm, j);
        cs_efc_soft(e, k, j, e->force + e->blk_row[k], &l, NULL);
    }
    pgs_setup(pw, w, isl);
    double *v = w->s0; /* a = a0 + M^-1 J^T f: W where the blocks have it */
    int solve = 0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) v[q] = 0;
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b];
        if (pw->bprep[k]) {
            cs_i_apply(w, e, k, e->force + e->blk_row[k], a);
        } else {
            cs_i_add_jt(e, k, e->force + e->blk_row[k], v);
            solve = 1;
        }
    }
    if (solve) {
        cs_i_mass_solve(w, p, isl, v);
        CS_FOR_ISLAND_DOFS(w, p, isl, q) a[q] += v[q];
    }
    /* dual cost of the implied forces: f.(J a0 - aref) + 1/2 f.(J(a_f - a0) + R f) */
    double dual = 0, jf[CS_MAXROWS], j0[CS_MAXROWS];
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
        cs_i_resid(e, k, a, jf);
        cs_i_resid(e, k, p->a0, j0);
        for (int r = 0; r < e->blk_nrow[k]; r++)
            dual += e->force[r0 + r] * (0.5 * (jf[r] + j0[r]) + 0.5 * e->R[r0 + r] * e->force[r0 + r]);
    }
    if (dual > 0) { /* zero is better */
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            memset(e->force + e->blk_row[k], 0, sizeof(double) * e->blk_nrow[k]);
        }
        for (int t = 0; t < w->isl_tree_num[isl]; t++) {
            int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
            int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
            for (int q = lo; q < hi; q++) a[q] = p->a0[q];
        }
    } else {
        w->ist[isl].warm_used = 1;
    }
}

/* Scaled norm of the primal gradient at the sweeps' point: with a = a0 + M^-1 J^T f kept
 * exactly, M (a - a0) - J^T f_soft(J a - a_ref) = J^T (f - f_soft(J a - a_ref)). Zero only
 * at the optimum, unlike the improvement of a sweep, which is also small where the sweeps
 * crawl (stacks). Uses the island's dofs of pw->grad. */
static double pgs_gradient(pgs_ws *pw, cs_solver_ws *w, const cs_problem *p, int isl, double scale)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    double *g = pw->grad, j[CS_MAXROWS], fs[CS_MAXROWS], l, gn = 0;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        for (int q = lo; q < lo + M->tree_dofnum[tr]; q++) g[q] = 0;
    }
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        cs_i_resid(e, k, w->a, j);
        cs_efc_soft(e, k, j, fs, &l, NULL);
        for (int r = 0; r < e->blk_nrow[k]; r++) fs[r] = e->force[r0 + r] - fs[r];
        cs_i_add_jt(e, k, fs, g);
    }
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t], lo = M->tree_dofadr[tr];
        for (int q = lo; q < lo + M->tree_dofnum[tr]; q++) gn += g[q] * g[q];
    }
    return scale * sqrt(gn);
}

static cs_iter_status pgs_iterate(void *ws, cs_solver_ws *w, int thread, int isl, int max_iter,
                                  int handoff, int *iters)
{
    (void)handoff;
    pgs_ws *pw = ws;
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    double scale = cs_i_scale(w, p, isl), *a = w->a;
    int ngroup = pw->isl_group[isl] >= 0 ? pw->isl_group[isl] : pgs_setup(pw, w, isl);
    pw->isl_group[isl] = -1; /* the next solve groups anew */
    pw->mlkey[thread] = -1; /* the groups are this call's */
    int iter = 0;
    cs_iter_status status = CS_ITER_LIMIT;
    while (iter < max_iter) {
        double impr = 0;
        int exact = ngroup == 1; /* the island one group, solved exactly */
        for (int gi = 0; gi < ngroup; gi++) {
            group g;
            group_init(pw, w, p, isl, gi, &g);
            int ex = 0;
            if (g.nb > 1 && group_update(pw, w, &g, gi, ngroup == 1, thread, a, w->s0, &impr, &ex) == 0) {
                exact = exact && ex;
                continue;
            }
            exact = 0;
            for (int b = 0; b < g.nb; b++) { /* single block, or the group solve failed */
                prepare_single(pw, w, g.blk[b]);
                impr -= block_update(pw, w, e, g.blk[b], o->exact_block, a);
            }
        }
        impr *= scale;
        st->improvement = impr;
        iter++;
        if (!isfinite(impr)) { /* a problem that is not finite: no sweep count helps */
            status = CS_ITER_STALLED;
            break;
        }
        /* an island that is one group solved to its stationary point is solved: another
         * sweep would find it there and change nothing (its improvement is rounding) */
        if (exact) {
            st->improvement = 0;
            status = CS_ITER_CONVERGED;
            break;
        }
        int small = impr <= o->tolerance; /* <=: tolerance 0 runs to exact stagnation */
        if (small && (!o->finish_after || pgs_gradient(pw, w, p, isl, scale) < o->tolerance)) {
            status = CS_ITER_CONVERGED;
            break;
        }
        /* crawling, or stopped by the improvement short of the optimum: ask for the finish */
        if (o->finish_after > 0 && (small || iter >= o->finish_after) && iter < max_iter) {
            status = CS_ITER_HANDOFF;
            break;
        }
    }
    *iters = iter;
    return status;
}

/* ---- workspace ------------------------------------------------------------------------ */

static void pgs_destroy(void *ws)
{
    pgs_ws *pw = ws;
    if (!pw) return;
    void *arr[] = {pw->grad, pw->lmap, pw->mlc, pw->bprep, pw->isl_group, pw->mlkey, pw->fold, pw->bqp, pw->bqp_ok, pw->gord, pw->gadr, pw->gvalid,
                   pw->gsig, pw->gsc0, pw->gsc1, pw->gkey, pw->gfac, pw->gj0, pw->gf0, pw->gf1,
                   pw->gcm, pw->gli, pw->gjt};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(pw);
}

static void *pgs_create(const cs_solver_ws *w)
{
    pgs_ws *pw = cs_calloc(1, sizeof *pw);
    if (!pw) return NULL;
    pw->nv = w->nv;
    pw->grad = cs_malloc(sizeof(double) * (size_t)(w->nv > 0 ? w->nv : 1));
    pw->lmap = cs_malloc(sizeof(int) * (size_t)(w->nv > 0 ? w->nv : 1));
    pw->isl_group = cs_malloc(sizeof(int) * (size_t)(w->ntree + 1));
    if (!pw->grad || !pw->lmap || !pw->isl_group) {
        pgs_destroy(pw);
        return NULL;
    }
    for (int i = 0; i <= w->ntree; i++) pw->isl_group[i] = -1;
    return pw;
}

static int pgs_reserve(void *ws, const cs_solver_ws *w)
{
    pgs_ws *pw = ws;
    const cs_efc *e = w->p->efc;
    if (e->nefc > pw->cap_efc) {
        int c = cs_i_more(e->nefc);
        if (cs_i_resize((void **)&pw->fold, sizeof(double), c)) return -1;
        pw->cap_efc = c;
    }
    if (e->nnz > pw->cap_nnz) {
        int c = cs_i_more(e->nnz);
        if (cs_i_resize((void **)&pw->gjt, sizeof(double), c) ||
            cs_i_resize((void **)&pw->gli, sizeof(int), c))
            return -1;
        pw->cap_nnz = c;
    }
    if (w->nthread > pw->cap_thread) {
        int c = w->nthread;
        if (cs_i_resize((void **)&pw->mlc, sizeof(double) * CS_GMAXD * CS_GMAXD, c) ||
            cs_i_resize((void **)&pw->mlkey, sizeof(int), c))
            return -1;
        pw->cap_thread = c;
    }
    if (e->nblock > pw->cap_block) {
        int c = cs_i_more(e->nblock);
        size_t si = sizeof(int), sd = sizeof(double);
        if (cs_i_resize((void **)&pw->bqp, sizeof(cs_bqp), c) ||
            cs_i_resize((void **)&pw->bqp_ok, si, c) || cs_i_resize((void **)&pw->bprep, si, c) ||
            cs_i_resize((void **)&pw->gcm, si, c) ||
            cs_i_resize((void **)&pw->gord, si, c) ||
            cs_i_resize((void **)&pw->gadr, si, 2 * c + 1) ||
            cs_i_resize((void **)&pw->gvalid, si, c) || cs_i_resize((void **)&pw->gsig, si, c) ||
            cs_i_resize((void **)&pw->gsc0, si, c) || cs_i_resize((void **)&pw->gsc1, si, c) ||
            cs_i_resize((void **)&pw->gkey, sizeof(long long), c) ||
            cs_i_resize((void **)&pw->gfac, sd, CS_GFAC * c) ||
            cs_i_resize((void **)&pw->gj0, sd, CS_MAXROWS * c) ||
            cs_i_resize((void **)&pw->gf0, sd, CS_MAXROWS * c) ||
            cs_i_resize((void **)&pw->gf1, sd, CS_MAXROWS * c))
            return -1;
        pw->cap_block = c;
    }
    return 0;
}

const cs_method cs_method_pgs = {
    .name = "PGS",
    .slot = CS_METHOD_PGS,
    .needs = CS_NEED_W | CS_NEED_G,
    .lazy = 1, /* a pair group's blocks need neither */
    .create = pgs_create,
    .destroy = pgs_destroy,
    .reserve = pgs_reserve,
    .warm_start = pgs_warm_start,
    .iterate = pgs_iterate,
};
