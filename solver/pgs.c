/* Matrix-free dual PGS over contact blocks (design.md): a = a0 + M^-1 J^T f is kept
 * current; block i sees residual r_i = J_i a - a_ref_i + R_i f_i and the dim x dim
 * G_i = J_i M^-1 J_i^T + R_i; the update touches the block's two bodies only. By default
 * the blocks of one body pair are one Gauss-Seidel block (pair groups, below).
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

/* One block's update, in place (b->f, a); returns the block's dual cost change (<= 0 up
 * to rounding). */
static double block_update(cs_block *b, const cs_solver_opts *o, double *a)
{
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
        /* scalar rows in order (frictionless; MuJoCo's pyramid edges), residual kept
         * current */
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
    /* MuJoCo restores a block whose cost went up. An exact block solve cannot raise the
     * cost, and near the optimum the computed change is rounding noise (~1e-15, from the
     * boundary multiplier times the solution's last-bit error): restoring there freezes PGS
     * short of the optimum, so exact blocks are kept. */
    if (ch > 0 && !(b->kind != CS_BLOCK_FRICTIONLESS && o->exact_block)) {
        memcpy(b->f, old, sizeof(double) * n);
        return 0;
    }
    cs_i_apply(b, d, a);
    return ch;
}

/* ---- pair groups ----------------------------------------------------------------------
 * Why: with one block at a time, the corners of a box couple through the box's 6 dofs
 * and Gauss-Seidel converges only linearly, at a rate set by that coupling: a box sliding
 * and hopping on a slope needed > 100 sweeps on 16% of its steps. The blocks of one body
 * pair (all the contacts of a body with static geometry, or a box-on-box manifold) are
 * made one Gauss-Seidel block and minimised jointly and exactly, the other blocks' forces
 * fixed. This is still a dual block Gauss-Seidel: the dual cost decreases group by group,
 * the forces are cone members at every step, nothing beyond the pair's 6 or 12 dofs is
 * formed. What remains slow is only the coupling between different pairs (a stack).
 *
 * The group's dual problem, min 1/2 f^T (J M^-1 J^T + R) f + f^T (J a~ - a_ref) over its
 * cones (a~: the pair's acceleration without the group's forces), is by Fenchel duality
 * (cone-math.md §7, restricted to the group) the same as the primal
 *   min_x 1/2 (x - a~)^T M (x - a~) + sum_i l_i(J_i x - a_ref_i)
 * over the pair's 6 or 12 accelerations, whose minimiser gives the forces in closed form,
 * f_i = f_soft(J_i x - a_ref_i) (in the cone by construction). That small problem is
 * strongly convex and continuously differentiable (piecewise twice), so a damped Newton
 * iteration with the soft-cone Hessians (zones re-read at each point) solves it to
 * rounding in a few steps, however many contacts the pair has, where an
 * active-set or projected method over the stacked cones would be far larger.
 * Measured (2 s runs, default 100 sweeps / tolerance 1e-8; steps at the sweep limit, mean
 * sweeps a step, before -> after): incline_33 161 -> 0, 19.6 -> 1.0; its pyramidal version
 * 79 -> 0, 11.1 -> 1.0; box_stack 20 -> 0, 26 -> 2.9 (there the pairs of the stack still
 * couple, but through whole manifolds); aniso_box_condim3/6 21/19 -> 0, 9.4/9.7 -> 1.2. */

#define GKEY_POS (1LL << 24) /* gkey = pair * GKEY_POS + block index */
#define GMAXD 12

/* In-place heapsort: glibc's qsort may malloc a merge buffer (arrays over 1 KB), and the
 * step allocates nothing. */
static void sift(long long *v, int i, int n)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && v[c + 1] > v[c]) c++;
        if (v[i] >= v[c]) return;
        long long t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void sort_ll(long long *v, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) sift(v, i, n);
    for (int e = n - 1; e > 0; e--) {
        long long t = v[0];
        v[0] = v[e];
        v[e] = t;
        sift(v, 0, e);
    }
}

/* Groups of an island's blocks by body pair (with pair_group off: one block each), in
 * w->gkey / w->gadr; returns the number of groups. Blocks of one pair keep the caller's
 * order inside their group. */
static int make_groups(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, int isl)
{
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    int grouped = o->pgs_pair_group && o->exact_block && nci > 1 && p->nblock < GKEY_POS &&
                  p->nbody < (1 << 18); /* keys fit in 63 bits */
    for (int k = 0; k < nci; k++) {
        int bi = w->isl_blocks[cadr + k];
        const cs_block *b = &p->blocks[bi];
        long long lo = b->body[0] < b->body[1] ? b->body[0] : b->body[1];
        long long hi = b->body[0] < b->body[1] ? b->body[1] : b->body[0];
        long long pair = grouped ? (lo + 1) * ((long long)p->nbody + 1) + hi + 1 : k;
        w->gkey[k] = pair * GKEY_POS + bi;
    }
    if (grouped) {
        /* by pair, then re-keyed by each pair's first block: groups are visited in the
         * order their first contact comes (the caller's order, MuJoCo's sweep order) */
        sort_ll(w->gkey, nci);
        for (int k = 0; k < nci;) { /* one run of equal pairs per pass */
            long long pk = w->gkey[k] / GKEY_POS, first = w->gkey[k] % GKEY_POS;
            for (; k < nci && w->gkey[k] / GKEY_POS == pk; k++)
                w->gkey[k] = first * GKEY_POS + w->gkey[k] % GKEY_POS;
        }
        sort_ll(w->gkey, nci);
    }
    int ng = 0;
    for (int k = 0; k < nci; k++)
        if (k == 0 || w->gkey[k] / GKEY_POS != w->gkey[k - 1] / GKEY_POS) w->gadr[ng++] = k;
    w->gadr[ng] = nci;
    for (int k = 0; k < nci; k++) w->gvalid[k] = 0; /* no Hessian factor kept yet */
    return ng;
}

/* Local column slot (0 or 6) of a block's side s in the pair, -1 for static. */
static int slot(const cs_block *b, int s, const int *gb)
{
    return b->body[s] < 0 ? -1 : b->body[s] == gb[0] ? 0 : 6;
}

/* Group primal at x (nd = 6 or 12): cost, and if g: gradient M (x - at) - sum J^T f; if H:
 * Hessian M + sum J^T H_i J (lower triangle only); if sig: the blocks' Hessian signatures;
 * if jo / fo: their residuals J x - a_ref / forces (CS_MAXROWS per block). */
static double group_eval(const cs_problem *p, const long long *key, int nb, const int *gb,
                         int ngb, const double *at, const double *x, double *g, double *H,
                         int *sig, double *jo, double *fo)
{
    int nd = 6 * ngb;
    double c = 0;
    if (g) memset(g, 0, sizeof(double) * nd);
    if (H) memset(H, 0, sizeof(double) * nd * nd);
    for (int k = 0; k < ngb; k++) {
        const double *M = p->M + 36 * gb[k];
        for (int i = 0; i < 6; i++) {
            double s = 0;
            for (int q = 0; q < 6; q++) s += M[6 * i + q] * (x[6 * k + q] - at[6 * k + q]);
            c += 0.5 * (x[6 * k + i] - at[6 * k + i]) * s;
            if (g) g[6 * k + i] = s;
            if (H)
                for (int q = 0; q <= i; q++) H[(6 * k + i) * nd + 6 * k + q] = M[6 * i + q];
        }
    }
    for (int k = 0; k < nb; k++) {
        const cs_block *b = &p->blocks[(int)(key[k] % GKEY_POS)];
        int n = b->nrow, sl[2] = {slot(b, 0, gb), slot(b, 1, gb)};
        double j[CS_MAXROWS], f[CS_MAXROWS], Hb[CS_MAXROWS * CS_MAXROWS], l;
        for (int r = 0; r < n; r++) {
            double v = -b->aref[r];
            for (int s = 0; s < 2; s++) {
                if (sl[s] < 0) continue;
                const double *Jr = &b->J[r][6 * s], *xs = x + sl[s];
                for (int q = 0; q < 6; q++) v += Jr[q] * xs[q];
            }
            j[r] = v;
        }
        cs_zone z = cs_block_soft(b, j, f, &l, H ? Hb : NULL);
        c += l;
        if (jo) memcpy(jo + CS_MAXROWS * k, j, sizeof(double) * n);
        if (fo) memcpy(fo + CS_MAXROWS * k, f, sizeof(double) * n);
        if (sig) { /* which constant Hessian the block has here; -1: none (cone zone) */
            if (b->kind == CS_BLOCK_ELLIPTIC) {
                sig[k] = z == CS_ZONE_MIDDLE ? -1 : (int)z;
            } else {
                sig[k] = 0;
                for (int r = 0; r < n; r++) sig[k] |= (f[r] > 0) << r;
            }
        }
        if (z == CS_ZONE_TOP) continue; /* no force, no curvature */
        for (int s = 0; s < 2; s++) {
            if (sl[s] < 0) continue;
            if (g) {
                double *gs = g + sl[s];
                for (int r = 0; r < n; r++) {
                    const double *Jr = &b->J[r][6 * s];
                    for (int q = 0; q < 6; q++) gs[q] -= Jr[q] * f[r];
                }
            }
            if (!H) continue;
            double HJ[CS_MAXROWS][6]; /* Hb J, side s */
            for (int r = 0; r < n; r++)
                for (int q = 0; q < 6; q++) {
                    double v = 0;
                    for (int r2 = 0; r2 < n; r2++) v += Hb[r * n + r2] * b->J[r2][6 * s + q];
                    HJ[r][q] = v;
                }
            for (int s2 = 0; s2 < 2; s2++) { /* H rows of side s2, columns of side s */
                if (sl[s2] < sl[s]) continue; /* lower triangle: row block >= column block */
                for (int q2 = 0; q2 < 6; q2++)
                    for (int q = 0; q < 6; q++) {
                        if (sl[s2] == sl[s] && q > q2) continue;
                        double v = 0;
                        for (int r = 0; r < n; r++) v += b->J[r][6 * s2 + q2] * HJ[r][q];
                        H[(sl[s2] + q2) * nd + sl[s] + q] += v;
                    }
            }
        }
    }
    return c;
}

/* Exact joint update of the group's blocks (w->gkey[g0 .. g0+gn)); adds the dual cost
 * decrease to *impr. Returns 0, or -1 (nothing changed) if the small Newton solve failed. */
static int group_update(cs_solver_ws *w, const cs_problem *p, int g0, int gn, double *a,
                        double *impr)
{
    const long long *key = w->gkey + g0;
    const cs_block *b0 = &p->blocks[(int)(key[0] % GKEY_POS)];
    int gb[2] = {-1, -1}, ngb = 0;
    for (int s = 0; s < 2; s++)
        if (b0->body[s] >= 0) gb[ngb++] = b0->body[s];
    if (!ngb) return -1; /* not in an island: cannot happen */
    if (ngb == 2 && gb[0] > gb[1]) { int t = gb[0]; gb[0] = gb[1]; gb[1] = t; }
    int nd = 6 * ngb;
    double at[GMAXD], x[GMAXD], gr[GMAXD], H[GMAXD * GMAXD], dx[GMAXD], xt[GMAXD];
    for (int k = 0; k < ngb; k++) memcpy(x + 6 * k, a + 6 * gb[k], sizeof(double) * 6);
    memcpy(at, x, sizeof(double) * nd);
    for (int k = 0; k < gn; k++) { /* a~ = a - M^-1 J^T f of the group */
        const cs_block *b = &p->blocks[(int)(key[k] % GKEY_POS)];
        for (int s = 0; s < 2; s++) {
            int sl = slot(b, s, gb);
            if (sl < 0) continue;
            for (int q = 0; q < 6; q++)
                for (int r = 0; r < b->nrow; r++) at[sl + q] -= b->W[6 * s + q][r] * b->f[r];
        }
    }
    /* Damped Newton; stop when the gradient is rounding-level against M (x - a~) or the
     * line search cannot decrease the cost any more. The line search evaluates the
     * gradient at its trial point too, which the next convergence test reuses. Per-block
     * buffers are the workspace's, at the group's positions. */
    int *sig = w->gsc0 + g0, *sigt = w->gsc1 + g0;
    double *jb0 = w->gj0 + (size_t)CS_MAXROWS * g0, *fx = w->gf0 + (size_t)CS_MAXROWS * g0,
           *ft = w->gf1 + (size_t)CS_MAXROWS * g0;
    double c = group_eval(p, key, gn, gb, ngb, at, x, gr, NULL, sig, jb0, fx), gt[GMAXD];
    for (int it = 0;; it++) {
        double gmax = 0, gsc = 0;
        for (int k = 0; k < ngb; k++) {
            const double *M = p->M + 36 * gb[k];
            for (int i = 0; i < 6; i++) {
                double mi = 0;
                for (int q = 0; q < 6; q++) mi += fabs(M[6 * i + q]) * fabs(x[6 * k + q] - at[6 * k + q]);
                gsc = fmax(gsc, mi);
            }
        }
        for (int i = 0; i < nd; i++) gmax = fmax(gmax, fabs(gr[i]));
        if (gmax <= 1e-14 * gsc || gmax == 0) break;
        if (it >= 50) break; /* rounding floor above the test: the cost check below decides */
        /* The Hessian is constant while no block is in the cone zone and the zones stay
         * (a resting stack: all bottom zone), so its factor is kept for the later sweeps
         * of this solve. */
        double *Hf = w->gfac + (size_t)GMAXD * GMAXD * (size_t)(g0 / 2);
        int same = w->gvalid[g0], cacheable = 1;
        for (int k = 0; k < gn; k++) {
            same = same && sig[k] == w->gsig[g0 + k];
            cacheable = cacheable && sig[k] >= 0;
        }
        if (!same || !cacheable) {
            group_eval(p, key, gn, gb, ngb, at, x, NULL, H, NULL, NULL, NULL);
            if (cs_i_chol(nd, H)) return -1;
            w->gvalid[g0] = cacheable;
            if (cacheable) {
                memcpy(Hf, H, sizeof(double) * nd * nd);
                memcpy(w->gsig + g0, sig, sizeof(int) * gn);
            }
        }
        const double *L = w->gvalid[g0] ? Hf : H;
        for (int i = 0; i < nd; i++) dx[i] = -gr[i];
        cs_i_chol_solve(nd, L, dx);
        double gd = 0;
        for (int i = 0; i < nd; i++) gd += gr[i] * dx[i];
        if (!(gd < 0)) break;
        double al = 1, ct = 0;
        int ok = 0;
        for (int ls = 0; ls < 40; ls++, al *= 0.5) {
            for (int i = 0; i < nd; i++) xt[i] = x[i] + al * dx[i];
            ct = group_eval(p, key, gn, gb, ngb, at, xt, gt, NULL, sigt, NULL, ft);
            /* Armijo; near the optimum the cost change drowns in rounding (the cost then
             * pins x only to sqrt(eps)), so a full step that halves the gradient at a cost
             * unchanged to rounding is taken too */
            double gtm = 0;
            for (int i = 0; i < nd; i++) gtm = fmax(gtm, fabs(gt[i]));
            if (ct <= c + 1e-4 * al * gd ||
                (ls == 0 && gtm <= 0.5 * gmax && ct <= c + 1e-13 * fabs(c))) {
                ok = 1;
                break;
            }
        }
        if (!ok) break; /* no decrease left at rounding level */
        double st = 0;
        for (int i = 0; i < nd; i++) st = fmax(st, fabs(xt[i] - x[i]));
        memcpy(x, xt, sizeof(double) * nd);
        memcpy(gr, gt, sizeof(double) * nd);
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
    double da[GMAXD] = {0}, jtd[GMAXD] = {0}, ch = 0, chs = 0;
    for (int k = 0; k < gn; k++) {
        cs_block *b = &p->blocks[(int)(w->gkey[g0 + k] % GKEY_POS)];
        int n = b->nrow, sl[2] = {slot(b, 0, gb), slot(b, 1, gb)};
        const double *f = fx + CS_MAXROWS * k, *j0 = jb0 + CS_MAXROWS * k;
        double d[CS_MAXROWS];
        for (int q = 0; q < n; q++) {
            d[q] = f[q] - b->f[q];
            ch += d[q] * (j0[q] + b->R[q] * b->f[q] + 0.5 * b->R[q] * d[q]);
            chs += fabs(d[q] * (j0[q] + b->R[q] * b->f[q])) + fabs(0.5 * b->R[q] * d[q] * d[q]);
            b->Jd[q] = b->f[q]; /* old forces, should the group be restored */
            b->f[q] = f[q];
        }
        for (int s = 0; s < 2; s++) {
            if (sl[s] < 0) continue;
            for (int i = 0; i < 6; i++)
                for (int q = 0; q < n; q++) {
                    da[sl[s] + i] += b->W[6 * s + i][q] * d[q];
                    jtd[sl[s] + i] += b->J[q][6 * s + i] * d[q];
                }
        }
    }
    for (int i = 0; i < nd; i++) {
        ch += 0.5 * jtd[i] * da[i];
        chs += fabs(0.5 * jtd[i] * da[i]);
    }
    /* an exact joint minimiser cannot raise the cost beyond rounding (relative to the
     * terms summed); anything more means the small solve went wrong: restore, and let the
     * blocks be swept one by one */
    if (ch > 1e-10 * chs) {
        for (int k = 0; k < gn; k++) {
            cs_block *b = &p->blocks[(int)(w->gkey[g0 + k] % GKEY_POS)];
            memcpy(b->f, b->Jd, sizeof(double) * b->nrow);
        }
        return -1;
    }
    for (int k = 0; k < ngb; k++)
        for (int q = 0; q < 6; q++) a[6 * gb[k] + q] += da[6 * k + q];
    *impr -= ch;
    return 0;
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
    int ngroup = make_groups(w, p, o, isl);
    int iter = 0;
    while (iter < o->max_iter) {
        double impr = 0;
        for (int gg = 0; gg < ngroup; gg++) {
            int g = gg;
            int g0 = w->gadr[g], gn = w->gadr[g + 1] - g0;
            if (gn > 1 && group_update(w, p, g0, gn, a, &impr) == 0) continue;
            for (int k = 0; k < gn; k++) /* single block, or the group solve failed */
                impr -= block_update(&p->blocks[(int)(w->gkey[g0 + k] % GKEY_POS)], o, a);
        }
        impr *= scale;
        st->improvement = impr;
        iter++;
        if (impr <= o->tolerance) break; /* <=: tolerance 0 runs to exact stagnation */
    }
    st->iterations = iter;
}
