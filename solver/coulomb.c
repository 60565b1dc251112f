/* The Coulomb-exact contact model (docs/contact-math.md §11): rows, the local solve of one
 * block, and the method itself, non-smooth block Gauss-Seidel (NSGS) over an island's
 * blocks, with its residual statistics. One row of the method table (methods.c): the
 * driver prepares W and G (G = J W, the rows' R being 0) and runs its hooks.
 *
 * Local problem of block k, forces x (the normal x_0, friction x_t), the other blocks fixed:
 * v = G x + c, G = J M^-1 J^T (no regulariser), c = J a - a_ref without this block's force.
 * With the rows of cs_coulomb_rows, v is (end-of-step velocity - target)/h.
 *   separate  c_0 >= 0: x = 0 (the normal velocity without force already meets its target);
 *   stick     the solution of G x = -c lies in the cone: every velocity of the block is at
 *             its target (v = 0), the friction inside the cone;
 *   slide     otherwise: the normal t = x_0 > 0 solves phi(t) = 0, phi(t) = the normal row's
 *             v_0 when x_t(t) is the fixed-normal QCQP's minimiser (§6) at normal t, which
 *             is maximally dissipative against v_t(t) (its KKT: v_t = -lam D^-2 x_t).
 * The convex cone problem of PGS has instead g'(t) = phi(t) - lam t = 0, i.e. v_0 = lam t > 0
 * when sliding: the normal velocity that lifts sliding bodies (de Saxce's coupling). Here
 * the normal row alone decides the normal, so nothing but the normal row pushes apart. */
#include "coulomb_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "alloc.h"

#define EPS DBL_EPSILON
#define GREG 1e-10     /* G + GREG max(diag G) I: rank-deficient blocks (a one-dof arm) */
#define ROOT_MAXIT 200
#define SECULAR_MAXIT 80

double cs_coulomb_target(double p, double K, double B, double h)
{
    double q = p + CS_COULOMB_SLOP;
    if (q >= 0) return -q / h;
    double rate = B > 0 ? K / B : 1 / h;
    if (!(rate <= 1 / h)) rate = 1 / h;
    return -rate * q;
}

void cs_coulomb_rows(cs_efc *e, double h)
{
    for (int k = 0; k < e->nblock; k++) {
        int kind = e->blk_kind[k], r0 = e->blk_row[k];
        for (int i = 0; i < e->blk_nrow[k]; i++) {
            int r = r0 + i;
            double vt = 0;
            if (kind == CS_BLOCK_EQUALITY) { /* every row back to 0 at solref's rate */
                double rate = e->B[r] > 0 ? e->K[r] / e->B[r] : 1 / h;
                if (!(rate <= 1 / h)) rate = 1 / h;
                vt = -rate * e->pos[r];
            } else if ((i == 0 && kind != CS_BLOCK_FRICTIONLOSS) || kind == CS_BLOCK_PYRAMIDAL) {
                /* a pyramid's edge v_n +- mu_j v_tj: the normal's target (friction's is 0) */
                vt = cs_coulomb_target(e->pos[r] - e->margin[r], e->K[r], e->B[r], h);
            }
            e->aref[r] = (vt - e->vel[r]) / h;
            e->R[r] = 0;
        }
    }
}

int cs_coulomb_pyramid_rows(int cone, int method)
{
    return cone == CS_CONE_PYRAMIDAL && method != CS_COULOMB_NSGS;
}

/* ---- small dense algebra ------------------------------------------------------------- */

/* Solve the n x n system A x = b (row-major, destroyed) by Gaussian elimination with
 * partial pivoting; 0, or -1 when singular. */
static int gauss(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(A[i * n + c]) > fabs(A[p * n + c])) p = i;
        if (!(fabs(A[p * n + c]) > 0)) return -1;
        if (p != c) {
            for (int j = 0; j < n; j++) {
                double t = A[c * n + j];
                A[c * n + j] = A[p * n + j];
                A[p * n + j] = t;
            }
            double t = b[c];
            b[c] = b[p];
            b[p] = t;
        }
        for (int i = c + 1; i < n; i++) {
            double f = A[i * n + c] / A[c * n + c];
            if (f == 0) continue;
            for (int j = c; j < n; j++) A[i * n + j] -= f * A[c * n + j];
            b[i] -= f * b[c];
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = i + 1; j < n; j++) s -= A[i * n + j] * b[j];
        b[i] = s / A[i * n + i];
    }
    return 0;
}

/* ---- the elliptic section: QCQP at normal t in eigen-coordinates ---------------------- */

/* y minimising 1/2 y^T H y + w^T y over ||y|| <= t, H = Q diag(ev) Q^T (w in Q's basis);
 * d_k = 1/(ev_k + lam). Returns lam (0: inside). */
static double ball_qp(int r, const double *ev, const double *w, double t, double *y, double *d)
{
    double nw = 0;
    for (int k = 0; k < r; k++) nw += w[k] * w[k];
    nw = sqrt(nw);
    double n2 = 0;
    for (int k = 0; k < r; k++) {
        d[k] = 1 / ev[k];
        y[k] = -w[k] * d[k];
        n2 += y[k] * y[k];
    }
    if (n2 <= t * t) return 0;
    if (!(t > 0)) {
        for (int k = 0; k < r; k++) y[k] = 0;
        return INFINITY;
    }
    double lo = fmax(0, nw / t - ev[r - 1]), hi = nw / t - ev[0], lam = lo, n = 0;
    for (int it = 0; it < SECULAR_MAXIT; it++) {
        double s3 = 0;
        n2 = 0;
        for (int k = 0; k < r; k++) {
            d[k] = 1 / (ev[k] + lam);
            y[k] = -w[k] * d[k];
            n2 += y[k] * y[k];
            s3 += y[k] * y[k] * d[k];
        }
        n = sqrt(n2);
        if (n > t) lo = lam;
        else hi = lam;
        if (fabs(n - t) <= 4 * EPS * t) break;
        double nl = lam + (n - t) * n2 / (t * s3); /* Newton on 1/||y|| - 1/t */
        if (!(nl >= lo && nl <= hi)) nl = 0.5 * (lo + hi);
        if (fabs(nl - lam) <= 2 * EPS * lam) break;
        lam = nl;
    }
    double s = t / n;
    for (int k = 0; k < r; k++) y[k] *= s;
    return lam;
}

/* the normal row's velocity phi(t) with the friction at the QCQP's minimiser, and its
 * derivative (NAN where not known) */
typedef struct {
    int r, pyramid;
    const cs_bqp *q;      /* elliptic */
    const double *G, *c, *mu;
    int dim;
    double u[5];          /* elliptic: (D Q)^T c_t */
    double y[5], d[5];    /* elliptic: the last y(t) */
    double x[5];          /* the last friction (x coordinates) */
    int pat;              /* pyramid: the last active pattern (base 3) */
} local;

/* pyramid section: minimise 1/2 x^T G_tt x + b^T x over sum |x_j|/mu_j <= t by its KKT
 * systems, the previous pattern first (pattern: base-3 digits, 0 off, 1 +, 2 -) */
static void l1_qp(local *L, const double *b, double t)
{
    int r = L->r, dim = L->dim;
    const double *G = L->G, *mu = L->mu;
    double A[36], z[6], *x = L->x;
    for (int i = 0; i < r; i++) {
        z[i] = -b[i];
        for (int j = 0; j < r; j++) A[i * r + j] = G[(1 + i) * dim + 1 + j];
    }
    double s1 = 0;
    if (gauss(r, A, z) == 0) {
        for (int i = 0; i < r; i++) s1 += fabs(z[i]) / mu[i];
        if (s1 <= t) {
            memcpy(x, z, sizeof(double) * r);
            L->pat = 0;
            return;
        }
    }
    if (!(t > 0)) {
        memset(x, 0, sizeof(double) * r);
        return;
    }
    int npat = 1;
    for (int i = 0; i < r; i++) npat *= 3;
    double scale = t, bestv = INFINITY, best[5] = {0};
    for (int i = 0; i < r; i++) scale += fabs(b[i]) * mu[i];
    for (int k = -1; k < npat; k++) {
        int code = k < 0 ? L->pat : k;
        if (code == 0 || (k >= 0 && code == L->pat)) continue;
        int S[5], sg[5], n = 0;
        for (int i = 0, c = code; i < r; i++, c /= 3)
            if (c % 3) {
                S[n] = i;
                sg[n++] = c % 3 == 1 ? 1 : -1;
            }
        int m = n + 1;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) A[i * m + j] = G[(1 + S[i]) * dim + 1 + S[j]];
            A[i * m + n] = sg[i] / mu[S[i]];
            A[n * m + i] = sg[i] / mu[S[i]];
            z[i] = -b[S[i]];
        }
        A[n * m + n] = 0;
        z[n] = t;
        if (gauss(m, A, z)) continue;
        double nu = z[n], viol = fmax(0, -nu * t / scale), xs[5] = {0};
        for (int i = 0; i < n; i++) {
            xs[S[i]] = z[i];
            viol = fmax(viol, fmax(0, -sg[i] * z[i]) / (mu[S[i]] * scale));
        }
        for (int j = 0; j < r; j++) {
            int in = 0;
            for (int i = 0; i < n; i++) in |= S[i] == j;
            if (in) continue;
            double g = b[j];
            for (int i = 0; i < r; i++) g += G[(1 + j) * dim + 1 + i] * xs[i];
            viol = fmax(viol, fmax(0, fabs(g) * mu[j] - nu) * t / scale);
        }
        if (viol <= 1e-12) {
            memcpy(x, xs, sizeof(double) * r);
            L->pat = code;
            return;
        }
        if (viol < bestv) {
            bestv = viol;
            memcpy(best, xs, sizeof best);
        }
    }
    memcpy(x, best, sizeof(double) * r);
}

static double phi(local *L, double t, double *dphi)
{
    int r = L->r;
    const double *c = L->c;
    *dphi = NAN;
    if (L->pyramid) {
        const double *G = L->G;
        double b[5], v = G[0] * t + c[0];
        for (int i = 0; i < r; i++) b[i] = c[1 + i] + t * G[(1 + i) * L->dim];
        l1_qp(L, b, t);
        for (int i = 0; i < r; i++) v += G[1 + i] * L->x[i];
        return v;
    }
    const cs_bqp *q = L->q;
    double w[5], v = q->g00 * t + c[0];
    for (int k = 0; k < r; k++) w[k] = L->u[k] + t * q->v[k];
    double lam = ball_qp(r, q->ev, w, t, L->y, L->d);
    double A = 0, B = 0, C = 0;
    for (int k = 0; k < r; k++) {
        v += q->v[k] * L->y[k];
        A += L->y[k] * L->y[k] * L->d[k];
        B += q->v[k] * L->y[k] * L->d[k];
        C += q->v[k] * q->v[k] * L->d[k];
    }
    *dphi = lam == 0 ? q->schur : (A > 0 ? q->g00 - C + B * (t + B) / A : NAN);
    for (int i = 0; i < r; i++) {
        double s = 0;
        for (int k = 0; k < r; k++) s += q->dq[i * r + k] * L->y[k];
        L->x[i] = s;
    }
    return v;
}

/* the root of phi on t > 0 (phi(0) = c_0 < 0): safeguarded Newton / secant in a bracket
 * grown from the start t0. Returns t, or -1 when no sign change was found. */
static double phi_root(local *L, double t0)
{
    double c0 = L->c[0], g00 = L->G[0];
    double lo = 0, flo = c0, hi = INFINITY, fhi = 0, t = t0 > 0 && isfinite(t0) ? t0 : -c0 / g00;
    double tol = 8 * EPS * (fabs(c0) + 1e-300);
    for (int it = 0; it < ROOT_MAXIT; it++) {
        double dp, f = phi(L, t, &dp);
        if (fabs(f) <= tol) return t;
        if (f < 0) {
            lo = t;
            flo = f;
        } else {
            hi = t;
            fhi = f;
        }
        if (isfinite(hi) && hi - lo <= 4 * EPS * hi) return f < 0 ? hi : t;
        double tn = t - f / dp; /* Newton where phi' is known */
        if (!(dp > 0) || !(tn > lo && tn < hi)) {
            if (isinf(hi)) tn = t * 2 + (lo > 0 ? 0 : -c0 / g00);
            else {
                tn = lo - flo * (hi - lo) / (fhi - flo); /* secant in the bracket */
                if (!(tn > lo && tn < hi) || it % 3 == 2) tn = 0.5 * (lo + hi);
            }
        }
        if (isinf(hi) && t > 1e30 * (-c0 / g00 + 1e-300)) return -1;
        t = tn;
    }
    return isinf(hi) ? -1 : 0.5 * (lo + hi);
}

/* fill L's elliptic eigen-coordinates of c */
static void local_init(local *L, int dim, const cs_bqp *q, const double *G, const double *c,
                       const double *mu, int pyramid)
{
    L->dim = dim;
    L->r = dim - 1;
    L->q = q;
    L->G = G;
    L->c = c;
    L->mu = mu;
    L->pyramid = pyramid;
    if (!pyramid)
        for (int k = 0; k < L->r; k++) {
            double s = 0;
            for (int i = 0; i < L->r; i++) s += q->dq[i * L->r + k] * c[1 + i];
            L->u[k] = s;
        }
}

/* The local Coulomb problem with G's factors prepared (q: elliptic and dim > 1). */
static int block_solve(int dim, const cs_bqp *q, const double *G, const double *c,
                       const double *mu, int pyramid, int *pat, double *x)
{
    int r = dim - 1;
    if (!(c[0] < 0)) { /* separate */
        memset(x, 0, sizeof(double) * dim);
        return 0;
    }
    /* stick: G x = -c with x in the cone */
    double A[36], z[6];
    memcpy(A, G, sizeof(double) * dim * dim);
    for (int i = 0; i < dim; i++) z[i] = -c[i];
    if (gauss(dim, A, z) == 0 && z[0] > 0) {
        double s = 0;
        for (int j = 0; j < r; j++) s += pyramid ? fabs(z[1 + j]) / mu[j] : (z[1 + j] / mu[j]) * (z[1 + j] / mu[j]);
        if (!pyramid) s = sqrt(s);
        if (s <= z[0]) {
            memcpy(x, z, sizeof(double) * dim);
            return 1;
        }
    }
    local L;
    local_init(&L, dim, q, G, c, mu, pyramid);
    L.pat = pat ? *pat : 0;
    double t = phi_root(&L, x[0]);
    if (t < 0) {
        /* no root (a friction coupling strong enough to beat the normal's stiffness): the
         * convex cone problem's minimiser instead */
        double cc[6];
        for (int i = 0; i < dim; i++) cc[i] = c[i];
        if (pyramid || !q || cs_bqp_solve(q, cc, x) < 0) cs_cone_qp(dim, G, cc, mu, x);
        return -1;
    }
    double dp;
    phi(&L, t, &dp); /* the friction at the root */
    x[0] = t;
    memcpy(x + 1, L.x, sizeof(double) * r);
    if (pat) *pat = L.pat;
    return 2;
}

int cs_coulomb_block(int dim, const double *G, const double *c, const double *mu, int pyramid,
                     double *x)
{
    if (dim < 1 || dim > CS_MAXDIM) return -1;
    if (dim == 1) {
        x[0] = c[0] < 0 ? -c[0] / G[0] : 0;
        return c[0] < 0 ? 1 : 0;
    }
    cs_bqp q;
    if (!pyramid && cs_bqp_prepare(&q, dim, G, mu) != 0) return -1;
    int pat = 0;
    return block_solve(dim, pyramid ? NULL : &q, G, c, mu, pyramid, &pat, x);
}

/* ---- the method ---------------------------------------------------------------------- */

#define KEY_POS (1LL << 24)

static double weight(int col, int i)
{
    unsigned x = (unsigned)col * 2654435761u + (unsigned)i * 40503u + 12345u;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    return (double)(x & 0xffffu) / 32768.0 - 1;
}

static void signature(const cs_efc *e, int k, double sig[2])
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    sig[0] = sig[1] = 0;
    for (int q = 0; q < nnz; q++)
        for (int i = 0; i < 2; i++) sig[i] += e->J[adr + q] * weight(e->J_colind[adr + q], i);
}

static long long pair_key(int kind, int t0, int t1)
{
    return (((long long)kind * 4096 + (t0 + 1)) * (1LL << 20) + (t1 + 1)) % (1LL << 38);
}

void *cs_i_coulomb_create(const cs_solver_ws *w)
{
    (void)w;
    return cs_calloc(1, sizeof(struct cs_coulomb_ws));
}

/* before the islands: per-step storage, and each block's match among the kept blocks */
int cs_i_coulomb_reserve(void *ws, const cs_solver_ws *w)
{
    struct cs_coulomb_ws *cw = ws;
    const cs_efc *e = w->p->efc;
    if (e->nblock > cw->cap_blk) {
        int c = cs_i_more(e->nblock);
        if (cs_i_resize((void **)&cw->pat, sizeof(int), c) ||
            cs_i_resize((void **)&cw->match, sizeof(int), c) ||
            cs_i_resize((void **)&cw->bqp_ok, sizeof(int), c) ||
            cs_i_resize((void **)&cw->bqp, sizeof(cs_bqp), c) ||
            cs_i_resize((void **)&cw->aa, sizeof(double) * AA_SLOTS, c))
            return -1;
        cw->cap_blk = c;
    }
    if (e->nefc > cw->cap_row) {
        int c = cs_i_more(e->nefc);
        if (cs_i_resize((void **)&cw->aref0, sizeof(double), c)) return -1;
        cw->cap_row = c;
    }
    for (int k = 0; k < e->nblock; k++) {
        cw->pat[k] = 0;
        cw->match[k] = -1;
        if (cw->n == 0 || cw->n >= KEY_POS) continue;
        long long key = pair_key(e->blk_kind[k], e->blk_tree[2 * k], e->blk_tree[2 * k + 1]);
        int lo = 0, hi = cw->n; /* first kept entry with this key */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (cw->ord[mid] / KEY_POS < key) lo = mid + 1;
            else hi = mid;
        }
        double sig[2], best = INFINITY;
        signature(e, k, sig);
        for (int i = lo; i < cw->n && cw->ord[i] / KEY_POS == key; i++) {
            int j = (int)(cw->ord[i] % KEY_POS);
            const cs_coulomb_keep *kp = &cw->k[j];
            if (kp->nrow != e->blk_nrow[k] || kp->t0 != e->blk_tree[2 * k] ||
                kp->t1 != e->blk_tree[2 * k + 1])
                continue;
            double dd = fabs(kp->sig[0] - sig[0]) + fabs(kp->sig[1] - sig[1]);
            if (dd < best && dd <= 1e-3 * (1 + fabs(sig[0]) + fabs(sig[1]))) {
                best = dd;
                cw->match[k] = j;
            }
        }
    }
    return 0;
}

/* after the islands: the forces kept for the next step's warm start */
void cs_i_coulomb_end(void *ws, cs_solver_ws *w)
{
    struct cs_coulomb_ws *cw = ws;
    const cs_efc *e = w->p->efc;
    if (!cw) return;
    cw->n = 0; /* no warm start next step unless all is kept */
    if (e->nblock > cw->cap) {
        int c = cs_i_more(e->nblock);
        if (cs_i_resize((void **)&cw->k, sizeof(cs_coulomb_keep), c) ||
            cs_i_resize((void **)&cw->ord, sizeof(long long), c))
            return;
        cw->cap = c;
    }
    for (int b = 0; b < e->nblock; b++) {
        cs_coulomb_keep *k = &cw->k[b];
        k->kind = e->blk_kind[b];
        k->t0 = e->blk_tree[2 * b];
        k->t1 = e->blk_tree[2 * b + 1];
        k->nrow = e->blk_nrow[b];
        signature(e, b, k->sig);
        memcpy(k->f, e->force + e->blk_row[b], sizeof(double) * (size_t)k->nrow);
        cw->ord[b] = pair_key(k->kind, k->t0, k->t1) * KEY_POS + b;
    }
    cs_i_sort_ll(cw->ord, e->nblock);
    cw->n = e->nblock;
}

void cs_i_coulomb_destroy(void *ws)
{
    struct cs_coulomb_ws *cw = ws;
    if (!cw) return;
    cs_free(cw->k);
    cs_free(cw->ord);
    cs_free(cw->pat);
    cs_free(cw->match);
    cs_free(cw->bqp);
    cs_free(cw->bqp_ok);
    cs_free(cw->aref0);
    cs_free(cw->aa);
    cs_free(cw);
}

/* G = J W (the driver's, the rows' R being 0) plus a tiny multiple of its diagonal, and the
 * elliptic factors of block k */
static void prepare(struct cs_coulomb_ws *cw, cs_solver_ws *w, int k, int pyramid)
{
    const cs_efc *e = w->p->efc;
    int n = e->blk_nrow[k];
    double *G = w->G + w->Gadr[k], dmax = 0;
    for (int r = 0; r < n; r++) dmax = fmax(dmax, G[r * n + r]);
    for (int r = 0; r < n; r++) G[r * n + r] += GREG * dmax + 1e-300;
    cw->bqp_ok[k] = e->blk_kind[k] == CS_BLOCK_ELLIPTIC && n > 1 && !pyramid &&
                    cs_bqp_prepare(&cw->bqp[k], n, G, e->blk_friction + 5 * k) == 0;
}

/* one block's update; returns the largest change of its own rows' v = G x + c (the
 * acceleration units of J a - a_ref) */
static double update(struct cs_coulomb_ws *cw, cs_solver_ws *w, const cs_efc *e, int k,
                     int pyramid, double *a)
{
    int n = e->blk_nrow[k], r0 = e->blk_row[k], kind = e->blk_kind[k];
    const double *G = w->G + w->Gadr[k];
    double *f = e->force + r0, c[CS_MAXROWS], x[CS_MAXROWS], d[CS_MAXROWS];
    cs_i_resid(e, k, a, c);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < n; m++) c[i] -= G[i * n + m] * f[m];
    memcpy(x, f, sizeof(double) * n);
    int zone = CS_ZONE_TOP;
    if (kind == CS_BLOCK_FRICTIONLOSS) {
        double F = e->frictionloss[r0], v = -c[0] / G[0];
        x[0] = fmin(F, fmax(-F, v));
        zone = v >= F ? CS_ZONE_LINEARNEG : v <= -F ? CS_ZONE_LINEARPOS : CS_ZONE_BOTTOM;
    } else if (kind == CS_BLOCK_EQUALITY) { /* hard bilateral: every row's v = 0 */
        double A[CS_MAXROWS * CS_MAXROWS];
        memcpy(A, G, sizeof(double) * n * n);
        for (int i = 0; i < n; i++) x[i] = -c[i];
        if (gauss(n, A, x)) memcpy(x, f, sizeof(double) * n);
        zone = CS_ZONE_BOTTOM;
    } else if (n == 1 || kind != CS_BLOCK_ELLIPTIC) { /* frictionless, limit: Signorini */
        for (int i = 0; i < n; i++) x[i] = c[i] < 0 ? -c[i] / G[i * n + i] : 0;
        zone = x[0] > 0 ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    } else {
        const double *mu = e->blk_friction + 5 * k;
        int rc = cw->bqp_ok[k] || pyramid
                     ? block_solve(n, cw->bqp_ok[k] ? &cw->bqp[k] : NULL, G, c, mu, pyramid,
                                   &cw->pat[k], x)
                     : -1;
        if (rc == -1 && !cw->bqp_ok[k] && !pyramid) cs_cone_qp(n, G, c, mu, x);
        zone = rc == 0 ? CS_ZONE_TOP : rc == 1 ? CS_ZONE_BOTTOM : CS_ZONE_MIDDLE;
    }
    e->blk_zone[k] = zone;
    double dv = 0;
    for (int i = 0; i < n; i++) d[i] = x[i] - f[i];
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int m = 0; m < n; m++) s += G[i * n + m] * d[m];
        dv = fmax(dv, fabs(s));
    }
    memcpy(f, x, sizeof(double) * n);
    cs_i_apply(w, e, k, d, a);
    return dv;
}

double cs_i_coulomb_residual(const cs_solver_ws *w, int isl, int with_G, int pyramid)
{
    const cs_efc *e = w->p->efc;
    const cs_solver_opts *o = w->o;
    double h = o->timestep > 0 ? o->timestep : 1, worst = 0, j[CS_MAXROWS], res[3];
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        cs_i_resid(e, k, w->a, j);
        double g = with_G ? w->G[w->Gadr[k]] : e->dA[r0];
        if (!(g > 0)) g = 1;
        cs_i_coulomb_resid(e, k, e->force + r0, j, g, h, pyramid, res);
        double r = fmax(res[0], fmax(res[1], res[2])) * h * g;
        if (!(r <= worst)) worst = r; /* NaN wins */
    }
    return worst;
}

static cs_iter_status coulomb_iterate(void *ws, cs_solver_ws *w, int thread, int isl,
                                      int max_iter, int handoff, int *iters)
{
    (void)thread;
    struct cs_coulomb_ws *cw = ws;
    const cs_problem *p = w->p;
    cs_efc *e = p->efc;
    const cs_solver_opts *o = w->o;
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    int pyramid = o->coulomb_cone == CS_CONE_PYRAMIDAL;
    /* from another method's forces, or (none yet) from the previous step's */
    int start = 0;
    if (handoff)
        for (int b = 0; b < nbk && !start; b++) {
            int k = w->isl_blocks[badr + b];
            for (int r = 0; r < e->blk_nrow[k]; r++) start |= e->force[e->blk_row[k] + r] != 0;
        }
    cs_i_prepare_island(w, isl, CS_NEED_W | CS_NEED_G);
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b];
        prepare(cw, w, k, pyramid);
        /* warm start: the same block's forces of the previous step */
        double *f = e->force + e->blk_row[k];
        if (!start && cw->match[k] >= 0) {
            const cs_coulomb_keep *kp = &cw->k[cw->match[k]];
            memcpy(f, kp->f, sizeof(double) * (size_t)kp->nrow);
            cs_i_apply(w, e, k, f, w->a);
            w->ist[isl].warm_used = 1;
        }
    }
    double h = o->timestep > 0 ? o->timestep : 1;
    int it = 0;
    cs_iter_status status = CS_ITER_LIMIT;
    while (it < max_iter) {
        it++;
        double dv = 0;
        for (int b = 0; b < nbk; b++) /* forward, then backward: symmetric Gauss-Seidel */
            dv = fmax(dv, update(cw, w, e, w->isl_blocks[badr + (it % 2 ? b : nbk - 1 - b)],
                                 pyramid, w->a));
        if (dv * h <= o->tolerance) {
            status = CS_ITER_CONVERGED;
            break;
        }
    }
    *iters = it;
    w->ist[isl].improvement = cs_i_coulomb_residual(w, isl, 1, pyramid);
    return status;
}

/* ---- statistics --------------------------------------------------------------------- */

void cs_i_coulomb_resid(const cs_efc *e, int k, const double *f, const double *j, double gnn,
                        double h, int pyramid, double res[3])
{
    int r0 = e->blk_row[k], n = e->blk_nrow[k], kind = e->blk_kind[k];
    double rho = 1 / (h * gnn), ff[CS_MAXDIM], jf[CS_MAXDIM];
    if (kind == CS_BLOCK_PYRAMIDAL) { /* edges to the frame: f_n = sum of the edges, f_t =
                                         mu (f+ - f-); j_n, mu j_t the pairs' mean, half
                                         difference */
        const double *mu = e->blk_friction + 5 * k;
        n = e->blk_dim[k];
        ff[0] = 0;
        for (int i = 0; i < n - 1; i++) {
            ff[0] += f[2 * i] + f[2 * i + 1];
            ff[1 + i] = mu[i] * (f[2 * i] - f[2 * i + 1]);
            jf[1 + i] = (j[2 * i] - j[2 * i + 1]) / (2 * mu[i]);
        }
        jf[0] = 0.5 * (j[0] + j[1]);
        f = ff;
        j = jf;
        kind = CS_BLOCK_ELLIPTIC;
        pyramid = 1;
    }
    res[0] = res[1] = res[2] = 0;
    if (kind == CS_BLOCK_EQUALITY) { /* no cone, no Signorini: the rows' velocity */
        for (int i = 0; i < n; i++) res[1] = fmax(res[1], fabs(j[i]) / gnn);
        return;
    }
    if (kind == CS_BLOCK_FRICTIONLOSS) {
        double F = e->frictionloss[r0];
        res[0] = fmax(0, fabs(f[0]) - F);
        res[2] = fabs(f[0] - fmin(F, fmax(-F, f[0] - rho * h * j[0])));
        return;
    }
    /* Signorini: min(f_n, rho (v_n+ - v*)) with rho = 1/(h G_nn) turning the velocity into
     * the force that would remove it; v+ - v* = h j */
    res[1] = fabs(fmin(f[0], rho * h * j[0]));
    double cone = -f[0];
    if (n > 1 && kind == CS_BLOCK_ELLIPTIC) {
        const double *mu = e->blk_friction + 5 * k;
        /* cone: ||D^-1 f_t|| (or the pyramid's sum) beyond f_n */
        double s = 0;
        for (int i = 1; i < n; i++)
            s += pyramid ? fabs(f[i]) / mu[i - 1] : (f[i] / mu[i - 1]) * (f[i] / mu[i - 1]);
        if (!pyramid) s = sqrt(s);
        cone = fmax(cone, s - f[0]);
        /* maximum dissipation: y = D^-1 f_t equals its projection onto the section of
         * radius f_n after a step against D v_t (the natural map; zero iff y minimises
         * y . D v_t over the section) */
        double y[5], z[5], fn = fmax(f[0], 0), nz = 0;
        for (int i = 1; i < n; i++) {
            y[i - 1] = f[i] / mu[i - 1];
            z[i - 1] = y[i - 1] - rho * mu[i - 1] * h * j[i];
        }
        if (pyramid) { /* projection onto the l1 ball of radius fn (sort-free bisection) */
            double s1 = 0;
            for (int i = 0; i < n - 1; i++) s1 += fabs(z[i]);
            if (s1 > fn) {
                double lo = 0, hi = 0;
                for (int i = 0; i < n - 1; i++) hi = fmax(hi, fabs(z[i]));
                for (int it = 0; it < 100; it++) {
                    double m = 0.5 * (lo + hi), sm = 0;
                    for (int i = 0; i < n - 1; i++) sm += fmax(0, fabs(z[i]) - m);
                    if (sm > fn) lo = m;
                    else hi = m;
                }
                for (int i = 0; i < n - 1; i++) z[i] = copysign(fmax(0, fabs(z[i]) - hi), z[i]);
            }
        } else {
            for (int i = 0; i < n - 1; i++) nz += z[i] * z[i];
            nz = sqrt(nz);
            if (nz > fn)
                for (int i = 0; i < n - 1; i++) z[i] *= nz > 0 ? fn / nz : 0;
        }
        for (int i = 0; i < n - 1; i++) res[2] = fmax(res[2], fabs(y[i] - z[i]) * mu[i]);
    }
    res[0] = fmax(0, cone);
}

void cs_i_coulomb_stats(void *ws, cs_solver_ws *w, int isl)
{
    (void)ws;
    const cs_problem *p = w->p;
    cs_island_stats *st = &w->ist[isl];
    const cs_efc *e = p->efc;
    const cs_solver_opts *o = w->o;
    int pyramid = o->coulomb_cone == CS_CONE_PYRAMIDAL;
    double h = o->timestep > 0 ? o->timestep : 1;
    double cone = 0, sig = 0, dis = 0, power = 0, stab = 0, j[CS_MAXROWS], res[3];
    cs_i_prepare_island(w, isl, CS_NEED_G); /* the proximal method's islands have none */
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b], r0 = e->blk_row[k];
        int n = e->blk_nrow[k];
        const double *f = e->force + r0, *G = w->G + w->Gadr[k];
        cs_i_resid(e, k, w->a, j);
        for (int i = 0; i < n; i++) { /* end-of-step velocity, its target */
            double vs = e->vel[r0 + i] + h * e->aref[r0 + i], vp = vs + h * j[i];
            power += f[i] * vp;
            stab += f[i] * vs;
        }
        cs_i_coulomb_resid(e, k, f, j, G[0], h, pyramid, res);
        if (e->blk_kind[k] == CS_BLOCK_EQUALITY) { /* per row: its own G_ii */
            res[1] = 0;
            for (int i = 0; i < n; i++) res[1] = fmax(res[1], fabs(j[i]) / G[i * n + i]);
        }
        cone = fmax(cone, res[0]);
        sig = fmax(sig, res[1]);
        dis = fmax(dis, res[2]);
    }
    st->feasibility = fmax(0, cone);
    st->stationarity = sig;
    st->complementarity = dis;
    st->primal_cost = power;
    st->dual_cost = stab;
}

const cs_method cs_method_coulomb = {
    .name = "Coulomb",
    .slot = CS_METHOD_COULOMB,
    .needs = CS_NEED_W | CS_NEED_G, /* G = J W: the rows' R is 0 */
    .create = cs_i_coulomb_create,
    .destroy = cs_i_coulomb_destroy,
    .reserve = cs_i_coulomb_reserve,
    .iterate = coulomb_iterate,
    .store = cs_i_store_decode,
    .stats = cs_i_coulomb_stats,
    .end = cs_i_coulomb_end,
};
