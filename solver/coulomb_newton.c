/* The Coulomb model's method for islands of many contacts (docs/contact-math.md §11):
 * proximal Newton. Block Gauss-Seidel (coulomb.c) converges linearly at a rate that falls
 * with the length of the chains of hard contacts it propagates forces through (a tower, a
 * chain of links, a robot's feet under its body); this method solves the whole island at
 * once, as a short sequence of convex soft problems that conesim's primal Newton solves:
 *
 *   f^{k+1} = argmin over f in the cones of
 *             1/2 f'(A + R) f + f'(J a0 - a_ref + s^k e_n - R f^k),
 *
 * the Coulomb rows' problem with a proximal term 1/2 (f - f^k)' R (f - f^k) (R a small
 * diagonal, shaped as the soft cone needs: R_j mu_j^2 = R_n mu_1^2) and de Saxce's shift
 * s^k = ||D j_t|| on each contact's normal row. It is MuJoCo's soft problem with
 * a_ref' = a_ref + R f^k - s^k e_n, so the inner solve is Newton's (tree-factored on robots),
 * warm-started from the last acceleration. At a fixed point f = f^k: the proximal term
 * vanishes and the shift turns the convex cone's conditions into Coulomb's (v_n + ||D v_t||
 * in the dual cone: Signorini and maximum dissipation), so they hold exactly, without a
 * regulariser's creep. The proximal iteration contracts a mode of A of eigenvalue sigma by
 * R / (sigma + R) per outer iteration whatever the stack's height, where Gauss-Seidel's
 * sweeps carry a force one contact further each. The shifts' fixed point is accelerated
 * (Anderson): plain iteration crawls where sliding couples strongly into the normals. The
 * method stops on the Coulomb residuals themselves (below: tolerance in m/s).
 *
 * The driver's plan: this method runs first; on islands of a few blocks (where exact block
 * solves settle in a sweep or two), or when Newton stalls, it hands its point to block
 * Gauss-Seidel (coulomb.c). With the pyramid cone the rows are the pyramid's edges (the
 * soft problems' pyramidal cone, each edge one-sided, the shift max_j mu_j |v_tj| on every
 * edge), and this method solves every island alone. */
#include "coulomb_internal.h"

#include <math.h>
#include <string.h>

/* R = PROX_EPS times the row's diagonal approximation of A (MuJoCo's diagApprox). Smaller
 * contracts faster but makes the inner problem stiffer, and Newton's iterations on a stiff
 * soft problem grow (zones change along each line); 1e-3 keeps both low on the stacks,
 * chains and robots of bench/ */
#define PROX_EPS 1e-3
/* the inner Newton stops at this fraction of the tolerance: its own rule (the scaled cost's
 * improvement) leaves an error in the forces that would otherwise floor the outer residual
 * just above the tolerance */
#define INNER_TOL 1e-2
/* islands of at most this many blocks go to block Gauss-Seidel at once */
#define SMALL_ISLAND 2

/* the warm start: the previous step's acceleration (the inner Newton starts there) */
static void cn_warm_start(void *ws, cs_solver_ws *w, int thread, int isl)
{
    (void)ws;
    (void)thread;
    const cs_problem *p = w->p;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] = w->a_warm[q];
}

/* the proximal weights of block k's rows, and the soft cone's shape from them */
static void prox_weights(cs_efc *e, int k)
{
    int r0 = e->blk_row[k], n = e->blk_nrow[k];
    for (int i = 0; i < n; i++) {
        double d = e->dA[r0 + i];
        e->R[r0 + i] = PROX_EPS * (d > 0 && isfinite(d) ? d : 1);
    }
    if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC && n > 1) {
        const double *mu = e->blk_friction + 5 * k;
        double Rn = e->R[r0], kap = Rn * mu[0] * mu[0];
        for (int i = 1; i < n; i++) e->R[r0 + i] = kap / (mu[i - 1] * mu[i - 1]);
        e->blk_kappa[k] = kap;
        e->blk_mu[k] = mu[0];
    }
}

/* de Saxce's shift of block k at w->a with the Coulomb rows in place: the support function
 * of the friction set at j_t, ||D j_t|| for the ellipse, max_j mu_j |j_tj| for the pyramid
 * (0 for a block without friction rows) */
static double shift(const cs_efc *e, int k, const double *a)
{
    int n = e->blk_nrow[k];
    double j[CS_MAXROWS], s = 0;
    if (e->blk_kind[k] == CS_BLOCK_PYRAMIDAL) { /* the pyramid's: max_j mu_j |j_tj| */
        cs_i_resid(e, k, a, j);
        for (int i = 0; i < n; i += 2) s = fmax(s, 0.5 * fabs(j[i] - j[i + 1]));
        return s;
    }
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC || n == 1) return 0;
    const double *mu = e->blk_friction + 5 * k;
    cs_i_resid(e, k, a, j);
    for (int i = 1; i < n; i++) s += (mu[i - 1] * j[i]) * (mu[i - 1] * j[i]);
    return sqrt(s);
}

/* the rows of the next inner problem: R, and a_ref' = a_ref0 + R f^k - s^k e_n */
static void prox_rows(struct cs_coulomb_ws *cw, cs_solver_ws *w, int isl)
{
    cs_efc *e = w->p->efc;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        double s = cw->aa[(size_t)k * AA_SLOTS];
        int all = e->blk_kind[k] == CS_BLOCK_PYRAMIDAL; /* every edge carries the normal */
        prox_weights(e, k);
        for (int i = 0; i < e->blk_nrow[k]; i++)
            e->aref[r0 + i] =
                cw->aref0[r0 + i] + e->R[r0 + i] * e->force[r0 + i] - (i && !all ? 0 : s);
    }
}

/* the Coulomb rows back (a_ref, R = 0) */
static void restore(struct cs_coulomb_ws *cw, cs_solver_ws *w, int isl)
{
    cs_efc *e = w->p->efc;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        for (int i = 0; i < e->blk_nrow[k]; i++) {
            e->aref[r0 + i] = cw->aref0[r0 + i];
            e->R[r0 + i] = 0;
        }
    }
}

/* The Coulomb zones of an island's pyramidal blocks from their forces (Newton's are the
 * edges' soft zones): separate without normal force, slide on the pyramid's surface, stick
 * inside it */
static void pyramid_zones(cs_efc *e, const cs_solver_ws *w, int isl)
{
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        if (e->blk_kind[k] != CS_BLOCK_PYRAMIDAL) continue;
        const double *f = e->force + e->blk_row[k];
        double fn = 0, ft = 0;
        for (int i = 0; i < e->blk_nrow[k]; i += 2) {
            fn += f[i] + f[i + 1];
            ft += fabs(f[i] - f[i + 1]); /* sum |f_tj| / mu_j */
        }
        e->blk_zone[k] = !(fn > 0) ? CS_ZONE_TOP
                         : ft >= fn * (1 - 1e-9) ? CS_ZONE_MIDDLE
                                                 : CS_ZONE_BOTTOM;
    }
}

/* Anderson acceleration (type II, depth m <= AA_DEPTH) of the shifts' fixed point
 * s = F(s), F the shifts at the inner solution for shifts s. A block's record: the shift
 * in use, then its last AA_DEPTH + 1 inputs and outputs (ring slot i % (AA_DEPTH + 1)).
 * The least squares over the island's blocks is summed in island order (the same for every
 * thread count). Writes the next shifts; returns ||F(s) - s||. */
static double aa_update(struct cs_coulomb_ws *cw, const cs_solver_ws *w, int isl, int i, int m)
{
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], L = AA_DEPTH + 1;
    int cur = i % L;
    double A[AA_DEPTH * AA_DEPTH] = {0}, rhs[AA_DEPTH] = {0}, fn = 0, gam[AA_DEPTH] = {0};
    /* column c: the change of F(s) - s from slot i - m + c to the next */
    for (int b = 0; b < nbk; b++) {
        const double *x = cw->aa + (size_t)w->isl_blocks[badr + b] * AA_SLOTS + 1, *g = x + L;
        double fk = g[cur] - x[cur], df[AA_DEPTH];
        fn += fk * fk;
        for (int c = 0; c < m; c++) {
            int s0 = (i - m + c) % L, s1 = (i - m + c + 1) % L;
            df[c] = (g[s1] - x[s1]) - (g[s0] - x[s0]);
        }
        for (int c = 0; c < m; c++) {
            rhs[c] += df[c] * fk;
            for (int d = 0; d <= c; d++) A[c * m + d] += df[c] * df[d];
        }
    }
    if (m > 0) {
        double tr = 0;
        for (int c = 0; c < m; c++) tr += A[c * m + c];
        for (int c = 0; c < m; c++) {
            for (int d = 0; d < c; d++) A[d * m + c] = A[c * m + d];
            A[c * m + c] += 1e-12 * tr + 1e-300;
            gam[c] = rhs[c];
        }
        if (cs_i_chol(m, A) == 0) cs_i_chol_solve(m, A, gam);
        else
            for (int c = 0; c < m; c++) gam[c] = 0;
    }
    for (int b = 0; b < nbk; b++) {
        double *a = cw->aa + (size_t)w->isl_blocks[badr + b] * AA_SLOTS, *x = a + 1, *g = x + L;
        double next = g[cur];
        for (int c = 0; c < m; c++) {
            int s0 = (i - m + c) % L, s1 = (i - m + c + 1) % L;
            next -= gam[c] * (g[s1] - g[s0]);
        }
        /* a shift is a norm; an extrapolation stays within a few times the map's own output
         * (far beyond it the map was not near linear) */
        double cap = 4 * fmax(g[cur], x[cur]);
        a[0] = next > 0 ? (next < cap ? next : cap) : 0;
    }
    return sqrt(fn);
}

static cs_iter_status cn_iterate(void *ws, cs_solver_ws *w, int thread, int isl, int max_iter,
                                 int handoff, int *iters)
{
    (void)handoff;
    struct cs_coulomb_ws *cw = ws;
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    int pyramid = o->coulomb_cone == CS_CONE_PYRAMIDAL;
    /* an island with pyramidal rows: this method alone (block Gauss-Seidel works on frame
     * rows) */
    int edges = 0;
    for (int b = 0; b < nbk; b++) edges |= e->blk_kind[w->isl_blocks[badr + b]] == CS_BLOCK_PYRAMIDAL;
    *iters = 0;
    if (o->coulomb_method == CS_COULOMB_NSGS ||
        (o->coulomb_method == CS_COULOMB_AUTO && nbk <= SMALL_ISLAND && !edges)) {
        CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] = p->a0[q]; /* its own warm start */
        return CS_ITER_HANDOFF;
    }
    int L = AA_DEPTH + 1;
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
        memcpy(cw->aref0 + r0, e->aref + r0, sizeof(double) * (size_t)e->blk_nrow[k]);
        const double *kf = cs_i_coulomb_kept(cw, k); /* the proximal centre: last step's */
        if (kf) {
            memcpy(e->force + r0, kf, sizeof(double) * (size_t)e->blk_nrow[k]);
            st->warm_used = 1;
        }
        cw->aa[(size_t)k * AA_SLOTS] = shift(e, k, w->a); /* from the warm acceleration */
    }
    int it = 0, outer = 0, hist = 0;
    double res = INFINITY, fprev = INFINITY;
    cs_iter_status status = CS_ITER_LIMIT;
    while (it < max_iter) {
        for (int b = 0; b < nbk; b++) { /* this iteration's input */
            double *a = cw->aa + (size_t)w->isl_blocks[badr + b] * AA_SLOTS;
            a[1 + outer % L] = a[0];
        }
        prox_rows(cw, w, isl);
        int ni = 0;
        cs_iter_status s = cs_i_inner(w, thread, isl, max_iter - it, 1, INNER_TOL * o->tolerance, &ni);
        it += ni > 0 ? ni : 1; /* an evaluation without a step counts as one */
        st->outer++;
        restore(cw, w, isl);
        res = cs_i_coulomb_residual(w, isl, 0, pyramid);
        if (res <= o->tolerance) {
            status = CS_ITER_CONVERGED;
            break;
        }
        if (s == CS_ITER_STALLED || !isfinite(res)) {
            status = edges ? CS_ITER_STALLED : CS_ITER_HANDOFF;
            break;
        }
        for (int b = 0; b < nbk; b++) { /* this iteration's output */
            int k = w->isl_blocks[badr + b];
            cw->aa[(size_t)k * AA_SLOTS + 1 + L + outer % L] = shift(e, k, w->a);
        }
        /* the history restarts when the fixed point's residual grows (a zone change made the
         * map another) */
        int m = hist < AA_DEPTH ? hist : AA_DEPTH;
        double fn = aa_update(cw, w, isl, outer, m);
        if (m > 0 && fn > fprev) {
            hist = 0;
            aa_update(cw, w, isl, outer, 0);
        }
        fprev = fn;
        hist++;
        outer++;
    }
    if (edges) pyramid_zones(e, w, isl);
    st->improvement = res;
    *iters = it;
    return status;
}

const cs_method cs_method_coulomb_newton = {
    .name = "Coulomb-Newton",
    .slot = CS_METHOD_COULOMB, /* the workspace block Gauss-Seidel uses too */
    .needs = 0,                /* Newton works from J */
    .create = cs_i_coulomb_create,
    .destroy = cs_i_coulomb_destroy,
    .reserve = cs_i_coulomb_reserve,
    .warm_start = cn_warm_start,
    .iterate = cn_iterate,
    .store = cs_i_store_decode,
    .stats = cs_i_coulomb_stats, /* block Gauss-Seidel's: the same conditions */
    .end = cs_i_coulomb_end,
};
