/* Matrix-free dual PGS over contact blocks (design.md): a = a0 + M^-1 J^T f is kept
 * current; block i sees residual r_i = J_i a - a_ref_i + R_i f_i and the dim x dim
 * G_i = J_i M^-1 J_i^T + R_i; the update touches the block's two bodies only.
 *
 * Stopping (as MuJoCo's mj_solPGS): after each sweep, improvement = -(sum of the blocks'
 * dual cost changes) * scale, scale = 1 / (meaninertia * max(1, nv)), nv = 6 * bodies of
 * the island (MuJoCo: the whole model's nv); stop when improvement < tolerance or after
 * max_iter sweeps. Warm start (as mj_fwdConstraint for PGS): the forces implied by the
 * previous acceleration under the new rows, f = f_soft(J a_warm - a_ref), kept only if
 * their dual cost is <= 0, the cost of f = 0 (per island here, globally in MuJoCo). */
#include "solver_internal.h"

#include <math.h>
#include <string.h>

#define MINVAL 1e-15

/* MuJoCo's split update of an elliptic block (one ray/normal step, one fixed-normal
 * QCQP): kept for comparison (exact_block = 0). f in/out, r = residual at f. */
static void split_update(const cs_block *b, const double *r, double *f)
{
    int n = b->nrow, nt = n - 1;
    const double *G = b->G;
    double old[CS_MAXROWS];
    memcpy(old, f, sizeof(double) * n);
    if (f[0] < MINVAL) {
        f[0] = fmax(0, f[0] - r[0] / G[0]);
        for (int j = 1; j < n; j++) f[j] = 0;
    } else {
        double v1[CS_MAXROWS], den = 0, vr = 0;
        for (int i = 0; i < n; i++) {
            v1[i] = 0;
            for (int k = 0; k < n; k++) v1[i] += G[i * n + k] * f[k];
            den += f[i] * v1[i];
            vr += f[i] * r[i];
        }
        if (den >= MINVAL) {
            double x = -vr / den;
            if (old[0] + x * old[0] < 0) x = -1;
            for (int i = 0; i < n; i++) f[i] += x * old[i];
        }
    }
    if (f[0] < MINVAL) {
        for (int j = 1; j < n; j++) f[j] = 0;
        return;
    }
    double H[25], bc[5], x[5], lam;
    for (int i = 0; i < nt; i++) {
        bc[i] = r[1 + i] + G[(1 + i) * n] * (f[0] - old[0]);
        for (int k = 0; k < nt; k++) {
            H[i * nt + k] = G[(1 + i) * n + 1 + k];
            bc[i] -= H[i * nt + k] * old[1 + k];
        }
    }
    if (cs_fn_qcqp(nt, H, bc, b->friction, f[0], x, &lam) >= 0)
        for (int i = 0; i < nt; i++) f[1 + i] = x[i];
}

void cs_i_pgs(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, int isl,
              const double *a_warm)
{
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_body_adr[isl], nbi = w->isl_body_num[isl];
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    double *a = w->a, j[CS_MAXROWS], l;

    /* a = a0 on the island already; warm start */
    if (a_warm) {
        double dual = 0;
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            cs_i_resid(b, a_warm, j);
            cs_block_soft(b, j, b->f, &l, NULL);
        }
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            cs_i_apply(b, b->f, a);
        }
        /* dual cost of the implied forces: f.(J a0 - aref) + 1/2 f.(J(a_f - a0) + R f) */
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            double jf[CS_MAXROWS], j0[CS_MAXROWS];
            cs_i_resid(b, a, jf);
            cs_i_resid(b, p->a0, j0);
            for (int r = 0; r < b->nrow; r++)
                dual += b->f[r] * (0.5 * (jf[r] + j0[r]) + 0.5 * b->R[r] * b->f[r]);
        }
        if (dual > 0) { /* zero is better */
            for (int k = 0; k < nci; k++) memset(p->blocks[w->isl_blocks[cadr + k]].f, 0,
                                                 sizeof(double) * CS_MAXROWS);
            for (int k = 0; k < nbi; k++) {
                int b = w->isl_bodies[badr + k];
                memcpy(a + 6 * b, p->a0 + 6 * b, sizeof(double) * 6);
            }
        } else {
            st->warm_used = 1;
        }
    }

    double scale = cs_i_scale(w, isl);
    int iter = 0;
    while (iter < o->max_iter) {
        double impr = 0;
        for (int k = 0; k < nci; k++) {
            cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
            int n = b->nrow;
            double r[CS_MAXROWS], old[CS_MAXROWS], d[CS_MAXROWS];
            cs_i_resid(b, a, r);
            for (int i = 0; i < n; i++) r[i] += b->R[i] * b->f[i];
            memcpy(old, b->f, sizeof(double) * n);
            if (b->kind == CS_BLOCK_ELLIPTIC) {
                if (o->exact_block) {
                    double c[CS_MAXROWS], x[CS_MAXROWS];
                    for (int i = 0; i < n; i++) {
                        c[i] = r[i];
                        for (int m = 0; m < n; m++) c[i] -= b->G[i * n + m] * old[m];
                    }
                    memcpy(x, old, sizeof(double) * n); /* the current normal: bracket guess */
                    if (cs_cone_qp(n, b->G, c, b->friction, x) >= 0) memcpy(b->f, x, sizeof(double) * n);
                } else {
                    split_update(b, r, b->f);
                }
            } else if (b->kind == CS_BLOCK_PYRAMIDAL && o->exact_block) {
                double c[CS_MAXROWS], x[CS_MAXROWS];
                for (int i = 0; i < n; i++) {
                    c[i] = r[i];
                    for (int m = 0; m < n; m++) c[i] -= b->G[i * n + m] * old[m];
                }
                memcpy(x, old, sizeof(double) * n);
                if (cs_nonneg_qp(n, b->G, c, x) >= 0) memcpy(b->f, x, sizeof(double) * n);
            } else {
                /* scalar rows in order (frictionless; MuJoCo's pyramid edges), residual
                 * kept current */
                double rr[CS_MAXROWS];
                memcpy(rr, r, sizeof(double) * n);
                for (int i = 0; i < n; i++) {
                    double nf = fmax(0, b->f[i] - rr[i] / b->G[i * n + i]), di = nf - b->f[i];
                    if (di != 0)
                        for (int m = 0; m < n; m++) rr[m] += b->G[m * n + i] * di;
                    b->f[i] = nf;
                }
            }
            double ch = 0;
            for (int i = 0; i < n; i++) d[i] = b->f[i] - old[i];
            for (int i = 0; i < n; i++) {
                double gd = 0;
                for (int m = 0; m < n; m++) gd += b->G[i * n + m] * d[m];
                ch += d[i] * (0.5 * gd + r[i]);
            }
            /* MuJoCo restores a block whose cost went up. An exact block solve cannot raise
             * the cost, and near the optimum the computed change is rounding noise
             * (~1e-15, from the boundary multiplier times the solution's last-bit error):
             * restoring there freezes PGS short of the optimum, so exact blocks are kept. */
            if (ch > 0 && !(b->kind != CS_BLOCK_FRICTIONLESS && o->exact_block)) {
                memcpy(b->f, old, sizeof(double) * n);
                continue;
            }
            cs_i_apply(b, d, a);
            impr -= ch;
        }
        impr *= scale;
        st->improvement = impr;
        iter++;
        if (impr <= o->tolerance) break; /* <=: tolerance 0 runs to exact stagnation */
    }
    st->iterations = iter;
}
