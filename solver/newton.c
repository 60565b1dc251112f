/* Primal Newton on 1/2 (a - a0)^T M (a - a0) + sum_i l_i(J_i a - a_ref_i) (cone-math.md
 * §7), per island. The Hessian M + sum J_i^T H_i J_i is assembled dense over the island's
 * dofs and Cholesky-factored for islands of up to newton_dense_max bodies; larger
 * islands use matrix-free block-Jacobi preconditioned CG (O(nnz J) per product).
 * Line search: exact, a bracketed safeguarded Newton on the directional derivative; zones
 * are re-classified at every trial point (the curvature of l jumps across zone borders).
 * Stopping as MuJoCo's Newton: scaled improvement or scaled gradient norm < tolerance. */
#include "solver_internal.h"

#include <math.h>
#include <string.h>

/* u = J v for a block (v body-indexed, 6 per body). */
static void block_mul(const cs_block *b, const double *v, double *u)
{
    for (int r = 0; r < b->nrow; r++) {
        double s = 0;
        for (int q = 0; q < 2; q++)
            if (b->body[q] >= 0)
                for (int m = 0; m < 6; m++) s += b->J[r][6 * q + m] * v[6 * b->body[q] + m];
        u[r] = s;
    }
}

/* dst (6x6, leading dimension ld) += J_s1^T Hl J_s2 of a block. */
static void add_jthj(const cs_block *b, int s1, int s2, double *dst, int ld)
{
    int n = b->nrow;
    double HJ[CS_MAXROWS][6];
    for (int r = 0; r < n; r++)
        for (int q = 0; q < 6; q++) {
            double v = 0;
            for (int c = 0; c < n; c++) v += b->Hl[r * n + c] * b->J[c][6 * s2 + q];
            HJ[r][q] = v;
        }
    for (int q1 = 0; q1 < 6; q1++)
        for (int q2 = 0; q2 < 6; q2++) {
            double v = 0;
            for (int r = 0; r < n; r++) v += b->J[r][6 * s1 + q1] * HJ[r][q2];
            dst[q1 * ld + q2] += v;
        }
}

/* out = (M + sum J^T Hl J) v over the island (body-indexed vectors). */
static void hess_mul(cs_solver_ws *w, const cs_problem *p, int isl, const double *v, double *out)
{
    int badr = w->isl_body_adr[isl], nbi = w->isl_body_num[isl];
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    for (int k = 0; k < nbi; k++) {
        int b = w->isl_bodies[badr + k];
        for (int q = 0; q < 6; q++) {
            double s = 0;
            for (int m = 0; m < 6; m++) s += p->M[36 * b + 6 * q + m] * v[6 * b + m];
            out[6 * b + q] = s;
        }
    }
    for (int k = 0; k < nci; k++) {
        const cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        int n = b->nrow;
        double u[CS_MAXROWS], hu[CS_MAXROWS];
        block_mul(b, v, u);
        for (int r = 0; r < n; r++) {
            hu[r] = 0;
            for (int c = 0; c < n; c++) hu[r] += b->Hl[r * n + c] * u[c];
        }
        for (int s = 0; s < 2; s++)
            if (b->body[s] >= 0)
                for (int q = 0; q < 6; q++)
                    for (int r = 0; r < n; r++) out[6 * b->body[s] + q] += b->J[r][6 * s + q] * hu[r];
    }
}

/* Large islands: solve H x = -g by conjugate gradients, matrix-free, preconditioned with
 * the per-body 6x6 diagonal blocks of H (Cholesky-factored). The exact line search that
 * follows makes an inexact direction safe; CG from 0 always yields a descent direction. */
static void pcg(cs_solver_ws *w, const cs_problem *p, int isl, const double *g, double *x)
{
    int badr = w->isl_body_adr[isl], nbi = w->isl_body_num[isl];
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    int nb6 = 6 * w->max_body;
    double *r = w->pcg, *z = r + nb6, *d = z + nb6, *Hd = d + nb6, *P = w->P;
    for (int k = 0; k < nbi; k++) {
        int b = w->isl_bodies[badr + k];
        memcpy(P + 36 * b, p->M + 36 * b, sizeof(double) * 36);
    }
    for (int k = 0; k < nci; k++) {
        const cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        for (int s = 0; s < 2; s++)
            if (b->body[s] >= 0) add_jthj(b, s, s, P + 36 * b->body[s], 6);
    }
    double rz = 0, g2 = 0;
    for (int k = 0; k < nbi; k++) {
        int b = w->isl_bodies[badr + k];
        cs_i_chol(6, P + 36 * b); /* M_b PD plus PSD terms */
        for (int q = 0; q < 6; q++) {
            x[6 * b + q] = 0;
            r[6 * b + q] = -g[6 * b + q];
            z[6 * b + q] = r[6 * b + q];
            g2 += g[6 * b + q] * g[6 * b + q];
        }
        cs_i_chol_solve(6, P + 36 * b, z + 6 * b);
        for (int q = 0; q < 6; q++) {
            d[6 * b + q] = z[6 * b + q];
            rz += r[6 * b + q] * z[6 * b + q];
        }
    }
    for (int it = 0; it < 6 * nbi + 50; it++) {
        hess_mul(w, p, isl, d, Hd);
        double dHd = 0, r2 = 0, rzn = 0;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) dHd += d[6 * b + q] * Hd[6 * b + q];
        }
        if (!(dHd > 0)) break;
        double al = rz / dHd;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) {
                x[6 * b + q] += al * d[6 * b + q];
                r[6 * b + q] -= al * Hd[6 * b + q];
                r2 += r[6 * b + q] * r[6 * b + q];
                z[6 * b + q] = r[6 * b + q];
            }
            cs_i_chol_solve(6, P + 36 * b, z + 6 * b);
            for (int q = 0; q < 6; q++) rzn += r[6 * b + q] * z[6 * b + q];
        }
        /* inexact Newton: a relative residual of 1e-3 is enough, since the exact line search
         * and the outer gradient/improvement tests decide convergence (a 512-sphere pile:
         * 4x faster than solving to 1e-14, 5.43 -> 5.5 Newton steps, same state to 3e-9 m) */
        if (r2 <= 1e-6 * g2) break;
        double be = rzn / rz;
        rz = rzn;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) d[6 * b + q] = z[6 * b + q] + be * d[6 * b + q];
        }
    }
}

/* phi'(alpha), phi''(alpha) along dir: uses b->jres (j at alpha = 0) and b->Jd. */
static void line_eval(cs_solver_ws *w, const cs_problem *p, int isl, double alpha, double dMr,
                      double dMd, double *d1, double *d2)
{
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    double s1 = dMr + alpha * dMd, s2 = dMd;
    for (int k = 0; k < nci; k++) {
        const cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        int n = b->nrow;
        double j[CS_MAXROWS], f[CS_MAXROWS], h[CS_MAXROWS * CS_MAXROWS], l;
        for (int r = 0; r < n; r++) j[r] = b->jres[r] + alpha * b->Jd[r];
        cs_block_soft(b, j, f, &l, h);
        for (int r = 0; r < n; r++) {
            s1 -= f[r] * b->Jd[r];
            double hv = 0;
            for (int c = 0; c < n; c++) hv += h[r * n + c] * b->Jd[c];
            s2 += b->Jd[r] * hv;
        }
    }
    *d1 = s1;
    *d2 = s2;
}

static double line_search(cs_solver_ws *w, const cs_problem *p, int isl, double dMr, double dMd)
{
    double d0, h0, lo = 0, hi, a = 1, d1, d2;
    line_eval(w, p, isl, 0, dMr, dMd, &d0, &h0);
    if (!(d0 < 0)) return 0;
    line_eval(w, p, isl, 1, dMr, dMd, &d1, &d2);
    if (d1 <= 0) {
        lo = 1;
        hi = 2;
        for (int k = 0; k < 60; k++) {
            double e1, e2;
            line_eval(w, p, isl, hi, dMr, dMd, &e1, &e2);
            if (e1 > 0) break;
            lo = hi;
            a = hi;
            d1 = e1;
            d2 = e2;
            hi *= 2;
        }
    } else {
        hi = 1;
    }
    for (int k = 0; k < 60; k++) {
        if (fabs(d1) <= 1e-14 * fabs(d0) || hi - lo <= 1e-15 * hi) break;
        double an = d2 > 0 ? a - d1 / d2 : 0.5 * (lo + hi);
        if (!(an > lo && an < hi)) an = 0.5 * (lo + hi);
        a = an;
        line_eval(w, p, isl, a, dMr, dMd, &d1, &d2);
        if (d1 > 0) hi = a; else lo = a;
    }
    return a;
}

void cs_i_newton(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, int isl,
                 const double *a_warm)
{
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_body_adr[isl], nbi = w->isl_body_num[isl];
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    int nv = 6 * nbi;
    double *a = w->a, *g = w->grad, *dir = w->dir, *Md = w->Mdir, *H = w->H;

    if (a_warm) { /* keep the warm acceleration if its primal cost beats a0's */
        double c0 = cs_i_primal(w, p, isl, a), cw = cs_i_primal(w, p, isl, a_warm);
        if (cw < c0) {
            for (int k = 0; k < nbi; k++) {
                int b = w->isl_bodies[badr + k];
                memcpy(a + 6 * b, a_warm + 6 * b, sizeof(double) * 6);
            }
            st->warm_used = 1;
        }
    }
    double scale = cs_i_scale(w, isl);
    double cost = cs_i_primal(w, p, isl, a);
    int dmax = o->newton_dense_max == 0 ? 32 : o->newton_dense_max;
    if (dmax > CS_NEWTON_DENSE_CAP) dmax = CS_NEWTON_DENSE_CAP;
    int dense = nbi <= dmax;
    int iter = 0;
    while (iter < o->max_iter) {
        /* gradient M (a - a0) - J^T f; block Hessians of the soft-cone costs */
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            const double *M = p->M + 36 * b;
            for (int q = 0; q < 6; q++) {
                double s = 0;
                for (int m = 0; m < 6; m++) s += M[6 * q + m] * (a[6 * b + m] - p->a0[6 * b + m]);
                g[6 * b + q] = s;
            }
        }
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            double f[CS_MAXROWS], l;
            cs_i_resid(b, a, b->jres);
            cs_block_soft(b, b->jres, f, &l, b->Hl);
            for (int s = 0; s < 2; s++) {
                int bi = b->body[s];
                if (bi < 0) continue;
                for (int q = 0; q < 6; q++)
                    for (int r = 0; r < b->nrow; r++) g[6 * bi + q] -= b->J[r][6 * s + q] * f[r];
            }
        }
        double gn = 0;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) gn += g[6 * b + q] * g[6 * b + q];
        }
        /* as MuJoCo: always attempt one Newton step, test the gradient only after it (a
         * warm start that already meets the tolerance would otherwise keep its forces,
         * which lag the optimum by up to the tolerance step after step) */
        if (iter > 0 && scale * sqrt(gn) < o->tolerance) break;
        if (dense) {
            /* H = M + sum J^T Hl J over the island's dofs, Cholesky */
            memset(H, 0, sizeof(double) * nv * nv);
            for (int k = 0; k < nbi; k++) {
                int b = w->isl_bodies[badr + k];
                for (int q = 0; q < 6; q++)
                    for (int m = 0; m < 6; m++) H[(6 * k + q) * nv + 6 * k + m] = p->M[36 * b + 6 * q + m];
            }
            for (int k = 0; k < nci; k++) {
                const cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
                for (int s1 = 0; s1 < 2; s1++) {
                    if (b->body[s1] < 0) continue;
                    for (int s2 = 0; s2 < 2; s2++) {
                        if (b->body[s2] < 0) continue;
                        add_jthj(b, s1, s2, H + 6 * w->body_local[b->body[s1]] * nv +
                                                6 * w->body_local[b->body[s2]], nv);
                    }
                }
            }
            if (cs_i_chol(nv, H)) break; /* cannot occur with M PD */
            double *x = w->tmp;
            for (int k = 0; k < nbi; k++) {
                int b = w->isl_bodies[badr + k];
                for (int q = 0; q < 6; q++) x[6 * k + q] = -g[6 * b + q];
            }
            cs_i_chol_solve(nv, H, x);
            for (int k = nbi - 1; k >= 0; k--) { /* island-local -> body-indexed */
                int b = w->isl_bodies[badr + k];
                for (int q = 0; q < 6; q++) dir[6 * b + q] = x[6 * k + q];
            }
        } else {
            pcg(w, p, isl, g, dir);
        }
        double dMr = 0, dMd = 0;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            const double *M = p->M + 36 * b;
            for (int q = 0; q < 6; q++) {
                double s = 0;
                for (int m = 0; m < 6; m++) s += M[6 * q + m] * dir[6 * b + m];
                Md[6 * b + q] = s;
            }
        }
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) {
                dMr += Md[6 * b + q] * (a[6 * b + q] - p->a0[6 * b + q]);
                dMd += Md[6 * b + q] * dir[6 * b + q];
            }
        }
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            block_mul(b, dir, b->Jd);
        }
        double alpha = line_search(w, p, isl, dMr, dMd);
        iter++;
        if (alpha == 0) break;
        for (int k = 0; k < nbi; k++) {
            int b = w->isl_bodies[badr + k];
            for (int q = 0; q < 6; q++) a[6 * b + q] += alpha * dir[6 * b + q];
        }
        double nc = cs_i_primal(w, p, isl, a);
        st->improvement = scale * (cost - nc);
        cost = nc;
        if (st->improvement < o->tolerance) break;
    }
    st->iterations = iter;
    /* reported forces: the soft-cone forces at the final a */
    for (int k = 0; k < nci; k++) {
        cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        double l;
        cs_i_resid(b, a, b->jres);
        cs_block_soft(b, b->jres, b->f, &l, NULL);
    }
}
