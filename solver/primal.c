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
        int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
        const int *ci = e->J_colind + adr;
        double *f = e->force + r0, l;
        cs_i_resid(e, k, a, jres + r0);
        e->blk_zone[k] = cs_efc_soft(e, k, jres + r0, f, &l, Hl ? Hl + w->Gadr[k] : NULL);
        c += l;
        for (int r = 0; r < e->blk_nrow[k]; r++) {
            const double *J = e->J + adr + r * nnz;
            for (int q = 0; q < nnz; q++) g[ci[q]] -= J[q] * f[r];
        }
    }
    return c;
}

/* phi'(alpha), phi''(alpha) along the direction, block by block in closed form */
static void line_eval(const cs_solver_ws *w, int isl, const double *jres, const double *Jd,
                      double alpha, double dMr, double dMd, double *d1, double *d2)
{
    const cs_efc *e = w->p->efc;
    double s1 = dMr + alpha * dMd, s2 = dMd;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], n = e->blk_nrow[k], r0 = e->blk_row[k];
        const double *jr = jres + r0, *jd = Jd + r0;
        double j[CS_MAXROWS], fd, dhd;
        for (int r = 0; r < n; r++) j[r] = jr[r] + alpha * jd[r];
        cs_efc_soft_dir(e, k, j, jd, &fd, &dhd);
        s1 -= fd;
        s2 += dhd;
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
                        double dMr, double dMd, double d0, double start, double gtol,
                        int max_eval)
{
    double lo = 0, hi, a = start, d1, d2;
    int n = 0; /* evaluations of phi' */
    if (!(d0 < 0)) return 0;
    if (!(a > 0)) { /* phi's Newton step from 0 (phi'' >= dir^T M dir > 0) */
        line_eval(w, isl, jres, Jd, 0, dMr, dMd, &d1, &d2);
        n++;
        a = -d0 / d2;
        if (!(a > 0 && isfinite(a))) return 0;
    }
    line_eval(w, isl, jres, Jd, a, dMr, dMd, &d1, &d2);
    n++;
    if (fabs(d1) < gtol) return a;
    if (d1 <= 0) { /* still descending: double until phi' turns positive */
        lo = a;
        hi = 2 * a;
        for (int k = 0; k < LS_EXPAND_MAX && n < max_eval; k++) {
            double e1, e2;
            line_eval(w, isl, jres, Jd, hi, dMr, dMd, &e1, &e2);
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
        line_eval(w, isl, jres, Jd, a, dMr, dMd, &d1, &d2);
        n++;
        if (d1 > 0) hi = a; else lo = a;
    }
    return a;
}
