/* The primal problem of an island, min 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k)
 * (docs/contact-math.md §7), as the primal methods (Newton, CG) use it: the warm start, the
 * cost with its gradient and forces at a point, and the exact line search. */
#include "solver_internal.h"

#include <math.h>
#include <string.h>

/* The line search's safeguards besides MuJoCo's ls_tolerance and ls_iterations. Its bracket
 * doubles from the first trial point while phi' stays negative, at most LS_EXPAND_MAX times
 * (2^60 times the first step: no cost of a finite problem is that flat); the bracketed
 * Newton steps stop when phi' is rounding noise against phi'(0) (LS_SLOPE_FLOOR: a few
 * hundred ulps of the slope's terms) or the bracket has shrunk to the last bits of alpha
 * (LS_BRACKET_FLOOR), whichever comes first with the tolerance (tolerance 0 runs to them). */
#define LS_EXPAND_MAX 60
#define LS_SLOPE_FLOOR 1e-14
#define LS_BRACKET_FLOOR 1e-15

void cs_i_primal_warm_start(cs_solver_ws *w, int isl)
{
    const cs_problem *p = w->p;
    double *a = w->a;
    double c0 = cs_i_primal(w, p, isl, a), cw = cs_i_primal(w, p, isl, w->a_warm);
    if (cw < c0) {
        CS_FOR_ISLAND_DOFS(w, p, isl, q) a[q] = w->a_warm[q];
        w->ist[isl].warm_used = 1;
    }
}

/* g -= J^T f for block k over its nonzero columns, each entry taking the rows in order;
 * N > 0 fixes the rows at compile time */
static inline __attribute__((always_inline)) void sub_jt_n(const cs_efc *e, int k,
                                                          const double *f, double *g, const int N)
{
    int r0 = e->blk_row[k], n = N > 0 ? N : e->blk_nrow[k], nnz = e->J_rownnz[r0];
    int adr = e->J_rowadr[r0];
    const double *J = e->J + adr;
    CS_FOR_BLOCK_COLS(e, k, q, d, {
        double v = g[d];
        for (int r = 0; r < n; r++) v -= J[r * nnz + q] * f[r];
        g[d] = v;
    });
}

static void sub_jt(const cs_efc *e, int k, const double *f, double *g)
{
    int n = e->blk_nrow[k];
    if (n == 3) sub_jt_n(e, k, f, g, 3);
    else if (n == 4) sub_jt_n(e, k, f, g, 4); /* pyramidal condim 3 */
    else sub_jt_n(e, k, f, g, 0);
}

double cs_i_primal_eval(cs_solver_ws *w, int isl, const double *a, double *g, double *jres,
                        double *Hl, double *d)
{
    const cs_problem *p = w->p;
    cs_efc *e = p->efc;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    double c = 0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) d[q] = a[q] - p->a0[q];
    cs_i_mass_mul(w, p, isl, g, d);
    CS_FOR_ISLAND_DOFS(w, p, isl, q) c += 0.5 * d[q] * g[q];
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k];
        double *f = e->force + r0, l;
        cs_i_resid(e, k, a, jres + r0);
        e->blk_zone[k] = cs_efc_soft(e, k, jres + r0, f, &l, Hl ? Hl + w->Gadr[k] : NULL);
        c += l;
        sub_jt(e, k, f, g);
    }
    return c;
}

/* The line's data, made once per search as MuJoCo's PrimalPrepare does, in three compact
 * runs over the island's blocks so that each evaluation is a pass over contiguous records:
 * - an elliptic block: its residual along the line is j_n(alpha) = j_n + alpha dj_n and,
 *   with u = D j_t and v = D dj_t, the friction part's squared norm
 *   T^2(alpha) = uu + 2 alpha uv + alpha^2 vv, which is all its soft cost depends on
 *   (docs/contact-math.md §7: bottom zone l = j_n^2 / (2 R_n) + T^2 / (2 kappa), middle
 *   l = (T - j_n)^2 / (2 (R_n + kappa)), top 0): ELL doubles;
 * - a one-sided row (frictionless, pyramid edge, limit): l = j^2 / (2 R) where j < 0: ROW;
 * - a friction-loss row, MuJoCo's Huber cost: FLOSS.
 * A record's constants (R and friction's reciprocals) are written once by the layout, its
 * line's numbers by each add: an elliptic record is j_n, dj_n, uu, uv, vv, then R_n, kappa,
 * 1/R_n, 1/kappa, 1/(R_n + kappa); a row's j, dj, dj/R, dj^2/R, then 1/R; a friction-loss
 * row's j, dj, then R and its bound. */
enum { ELL = CS_LINE_ELL, ROW = 5, FLOSS = 4 };
_Static_assert(CS_LINE_ELL_CONST == 5, "the elliptic record's constants follow its 5 numbers");
_Static_assert(ELL <= CS_LINE_QUAD_BLOCK && ROW * CS_MAXROWS <= CS_LINE_QUAD_BLOCK &&
                   FLOSS * 6 <= CS_LINE_QUAD_BLOCK, "a block's line data fits its room");

void cs_i_line_layout(const cs_solver_ws *w, int isl, double *quad, cs_line *L)
{
    const cs_efc *e = w->p->efc;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl], ne = 0, nr = 0, nf = 0;
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b];
        if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC) ne++;
        else if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS || e->blk_kind[k] == CS_BLOCK_EQUALITY)
            nf += e->blk_nrow[k]; /* an equality row: a friction-loss record with no bound */
        else nr += e->blk_nrow[k];
    }
    /* the island's room: CS_LINE_QUAD_BLOCK doubles per block from its first position */
    quad += CS_LINE_QUAD_BLOCK * (size_t)badr;
    L->ne = ne;
    L->nr = nr;
    L->nf = nf;
    L->ell = quad;
    L->row = quad + ELL * ne;
    L->floss = L->row + ROW * nr;
    double *ell = L->ell, *row = L->row, *fl = L->floss;
    for (int b = 0; b < nbk; b++) { /* the records' constants */
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k], n = e->blk_nrow[k];
        const double *R = e->R + r0;
        if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC) {
            double Rn = R[0], kap = e->blk_kappa[k];
            ell[5] = Rn;
            ell[6] = kap;
            ell[7] = 1 / Rn;
            ell[8] = kap > 0 ? 1 / kap : 0; /* no friction: u = v = 0 */
            ell[9] = 1 / (Rn + kap);
            ell += ELL;
        } else if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
            fl[2] = R[0];
            fl[3] = e->frictionloss[r0];
            fl += FLOSS;
        } else if (e->blk_kind[k] == CS_BLOCK_EQUALITY) {
            for (int r = 0; r < n; r++, fl += FLOSS) {
                fl[2] = R[r];
                fl[3] = INFINITY; /* |j| < R F always: the quadratic zone */
            }
        } else {
            for (int r = 0; r < n; r++, row += ROW) row[4] = 1 / R[r];
        }
    }
    cs_i_line_begin(L);
}

void cs_i_line_begin(cs_line *L)
{
    L->curv0 = 0;
    L->ell_at = L->ell;
    L->row_at = L->row;
    L->floss_at = L->floss;
}

/* an elliptic block's tangential sums (N > 0: n fixed at compile time, condim 3) */
static inline __attribute__((always_inline)) void ell_sums(int n, const double *mu,
                                                           const double *jr, const double *jd,
                                                           double *s, const int N)
{
    if (N > 0) n = N;
    double uu = 0, uv = 0, vv = 0;
    for (int i = 1; i < n; i++) {
        double m = mu[i - 1] > 0 ? mu[i - 1] : 0, u = m * jr[i], v = m * jd[i];
        uu += u * u;
        uv += u * v;
        vv += v * v;
    }
    s[0] = uu;
    s[1] = uv;
    s[2] = vv;
}

void cs_i_line_add(const cs_efc *e, int k, const double *jr, const double *jd, cs_line *L)
{
    int n = e->blk_nrow[k];
    if (e->blk_kind[k] == CS_BLOCK_ELLIPTIC) {
        const double *mu = e->blk_friction + 5 * k;
        double sums[3], *q = L->ell_at;
        if (n == 3) ell_sums(n, mu, jr, jd, sums, 3);
        else ell_sums(n, mu, jr, jd, sums, 0);
        double uu = sums[0], uv = sums[1], vv = sums[2];
        q[0] = jr[0];
        q[1] = jd[0];
        q[2] = uu;
        q[3] = uv;
        q[4] = vv;
        L->ell_at += ELL;
        double T = sqrt(uu); /* phi'' at alpha = 0, as line_eval */
        if (jr[0] < T) {
            if (q[6] * jr[0] + q[5] * T <= 0) {
                L->curv0 += jd[0] * jd[0] * q[7] + vv * q[8];
            } else {
                double dT = uv / T, m = dT - jd[0];
                L->curv0 += (m * m + (T - jr[0]) * (vv - dT * dT) / T) * q[9];
            }
        }
    } else if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS || e->blk_kind[k] == CS_BLOCK_EQUALITY) {
        double *q = L->floss_at;
        for (int r = 0; r < n; r++, q += FLOSS) {
            q[0] = jr[r];
            q[1] = jd[r];
            if (fabs(jr[r]) < q[2] * q[3]) L->curv0 += jd[r] * jd[r] / q[2];
        }
        L->floss_at = q;
    } else {
        double *q = L->row_at;
        for (int r = 0; r < n; r++, q += ROW) {
            q[0] = jr[r];
            q[1] = jd[r];
            q[2] = jd[r] * q[4];
            q[3] = jd[r] * jd[r] * q[4];
            if (jr[r] < 0) L->curv0 += q[3];
        }
        L->row_at = q;
    }
}

/* phi'(alpha), phi''(alpha) along the direction from the line's data */
static void line_eval(const cs_line *L, double alpha, double dMr, double dMd, double *d1,
                      double *d2)
{
    double s1 = dMr + alpha * dMd, s2 = dMd;
    const double *q = L->ell;
    for (int i = 0; i < L->ne; i++, q += ELL) {
        double jn = q[0] + alpha * q[1], tv = q[3] + alpha * q[4]; /* tv = T T' */
        double t2 = q[2] + alpha * (2 * q[3] + alpha * q[4]), T = t2 > 0 ? sqrt(t2) : 0;
        if (jn >= T) continue;           /* top: no force */
        if (q[6] * jn + q[5] * T <= 0) { /* bottom */
            s1 += jn * q[1] * q[7] + tv * q[8];
            s2 += q[1] * q[1] * q[7] + q[4] * q[8];
        } else { /* middle (T > 0 here) */
            double dT = tv / T, m = dT - q[1];
            s1 += (T - jn) * m * q[9];
            s2 += (m * m + (T - jn) * (q[4] - dT * dT) / T) * q[9];
        }
    }
    q = L->row;
    for (int i = 0; i < L->nr; i++, q += ROW) {
        double j = q[0] + alpha * q[1];
        if (j < 0) {
            s1 += j * q[2];
            s2 += q[3];
        }
    }
    q = L->floss;
    for (int i = 0; i < L->nf; i++, q += FLOSS) { /* MuJoCo's Huber: linear beyond R F */
        double j = q[0] + alpha * q[1], RF = q[2] * q[3];
        if (j <= -RF) {
            s1 -= q[3] * q[1];
        } else if (j >= RF) {
            s1 += q[3] * q[1];
        } else {
            s1 += j * q[1] / q[2];
            s2 += q[1] * q[1] / q[2];
        }
    }
    *d1 = s1;
    *d2 = s2;
}

double cs_i_line_gtol(const cs_solver_ws *w, int isl, const double *dir, double scale)
{
    double n2 = 0;
    CS_FOR_ISLAND_DOFS(w, w->p, isl, q) n2 += dir[q] * dir[q];
    return w->o->tolerance * w->o->ls_tolerance * sqrt(n2) / scale;
}

double cs_i_line_search(cs_solver_ws *w, int isl, const double *jres, const double *Jd,
                        double *quad, double dMr, double dMd, double d0, double start,
                        double gtol, int max_eval)
{
    if (!(d0 < 0)) return 0;
    const cs_efc *e = w->p->efc;
    cs_line L;
    cs_i_line_layout(w, isl, quad, &L);
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        cs_i_line_add(e, k, jres + r0, Jd + r0, &L);
    }
    return cs_i_line_run(&L, dMr, dMd, d0, start, gtol, max_eval);
}

double cs_i_line_run(const cs_line *L0, double dMr, double dMd, double d0, double start,
                     double gtol, int max_eval)
{
    const cs_line *L = L0;
    double lo = 0, hi, a = start, d1, d2;
    int n = 0; /* evaluations of phi' */
    if (!(d0 < 0)) return 0;
    if (!(a > 0)) { /* phi's Newton step from 0 (phi'' >= dir^T M dir > 0), phi''(0) made
                       with the records */
        a = -d0 / (dMd + L->curv0);
        if (!(a > 0 && isfinite(a))) return 0;
    }
    line_eval(L, a, dMr, dMd, &d1, &d2);
    n++;
    if (fabs(d1) < gtol) return a;
    if (d1 <= 0) { /* still descending: double until phi' turns positive */
        lo = a;
        hi = 2 * a;
        for (int k = 0; k < LS_EXPAND_MAX && n < max_eval; k++) {
            double e1, e2;
            line_eval(L, hi, dMr, dMd, &e1, &e2);
            n++;
            if (e1 > 0) break;
            lo = hi;
            a = hi;
            d1 = e1;
            d2 = e2;
            if (fabs(d1) < gtol) return a;
            hi *= 2;
        }
    } else {
        hi = a;
    }
    while (n < max_eval) { /* safeguarded Newton on phi' inside [lo, hi] */
        if (fabs(d1) < gtol || fabs(d1) <= LS_SLOPE_FLOOR * fabs(d0) ||
            hi - lo <= LS_BRACKET_FLOOR * hi)
            break;
        double an = d2 > 0 ? a - d1 / d2 : 0.5 * (lo + hi);
        if (!(an > lo && an < hi)) an = 0.5 * (lo + hi);
        a = an;
        line_eval(L, a, dMr, dMd, &d1, &d2);
        n++;
        if (d1 > 0) hi = a; else lo = a;
    }
    return a;
}
