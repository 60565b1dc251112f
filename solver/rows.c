/* Constraint rows of one contact (docs/contact-math.md §8) or joint (§10), with the details
 * settled against MuJoCo's engine_core_constraint.c (mj_instantiateContact, mj_diagApprox,
 * getsolparam, getimpedance, mj_makeImpedance):
 * - the impedance of a whole block is computed once from its FIRST row's pos and margin
 *   (elliptic: the normal row, pos = dist; pyramidal: every edge has pos = dist);
 * - elliptic friction rows have pos = margin = 0 and K = 0; their B comes from
 *   solreffriction when either entry is non-zero, else from solref;
 * - pyramidal edges all use solref, K included (their a_ref has a position term);
 * - R is first (1-imp)/imp dA for every row, then overwritten: elliptic R_1 = R_0/impratio
 *   and R_j = R_1 f_1^2/f_j^2; pyramidal every edge 2 mu^2 R_edge0, mu = f_1 sqrt(R_1/R_0);
 * - joint rows (mj_instantiateLimit, mj_instantiateFriction) at the end of the file. */
#include "rows.h"

#include "alloc.h"
#include "minval.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MINIMP 0.0001
#define MAXIMP 0.9999

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* fmax(lo, x) for a lo that is not NaN (NaN x gives lo, equal zeros give x) without libm's
 * out-of-line call */
static inline double atleast(double x, double lo) { return x >= lo ? x : lo; }

/* (the public functions below are these, inlined where a block is made) */
static inline void solimp_clamp(const double in[5], double out[5])
{
    out[0] = clampd(in[0], MINIMP, MAXIMP);
    out[1] = clampd(in[1], MINIMP, MAXIMP);
    out[2] = atleast(in[2], 0.0);
    out[3] = clampd(in[3], MINIMP, MAXIMP);
    out[4] = atleast(in[4], 1.0);
}

static double powi(double a, double b)
{
    if (b == 1.0) return a;
    if (b == 2.0) return a * a;
    return pow(a, b);
}

static inline double impedance(const double s[5], double pos, double m, double *impP)
{
    double dummy;
    if (!impP) impP = &dummy;
    if (s[0] == s[1] || s[2] <= CS_MINVAL) { /* flat */
        *impP = 0;
        return 0.5 * (s[0] + s[1]);
    }
    double x = (pos - m) / s[2], sgn = 1;
    if (x < 0) { x = -x; sgn = -1; }
    if (x >= 1 || x <= 0) {
        *impP = 0;
        return x >= 1 ? s[1] : s[0];
    }
    double y, yP;
    if (s[4] == 1) {
        y = x;
        yP = 1;
    } else if (x <= s[3]) {
        double a = 1 / powi(s[3], s[4] - 1);
        y = a * powi(x, s[4]);
        yP = s[4] * a * powi(x, s[4] - 1);
    } else {
        double b = 1 / powi(1 - s[3], s[4] - 1);
        y = 1 - b * powi(1 - x, s[4]);
        yP = s[4] * b * powi(1 - x, s[4] - 1);
    }
    *impP = yP * sgn * (s[1] - s[0]) / s[2];
    return s[0] + y * (s[1] - s[0]);
}

static inline int solref_fix(const double in[2], double timestep, int refsafe, double out[2])
{
    int warn = 0;
    out[0] = in[0];
    out[1] = in[1];
    if ((out[0] > 0) != (out[1] > 0)) {
        out[0] = 0.02;
        out[1] = 1;
        warn = 1;
    }
    if (refsafe && out[0] > 0) out[0] = atleast(out[0], 2 * timestep);
    return warn;
}

static inline void solref_kb(const double r[2], double dw, double *K, double *B)
{
    if (r[0] > 0)
        *K = 1 / atleast(dw * dw * r[0] * r[0] * r[1] * r[1], CS_MINVAL);
    else
        *K = -r[0] / atleast(dw * dw, CS_MINVAL);
    if (r[1] > 0)
        *B = 2 / atleast(dw * r[0], CS_MINVAL);
    else
        *B = -r[1] / atleast(dw, CS_MINVAL);
}

void cs_solimp_clamp(const double in[5], double out[5]) { solimp_clamp(in, out); }
double cs_impedance(const double s[5], double pos, double m, double *impP)
{
    return impedance(s, pos, m, impP);
}
int cs_solref_fix(const double in[2], double timestep, int refsafe, double out[2])
{
    return solref_fix(in, timestep, refsafe, out);
}
void cs_solref_kb(const double r[2], double dw, double *K, double *B) { solref_kb(r, dw, K, B); }

/* ---- storage ---------------------------------------------------------------------- */

#define ROW_ARRAYS(X) X(type) X(id) X(block) X(J_rownnz) X(J_rowadr) X(pos) X(margin) X(dA) \
    X(K) X(B) X(vel) X(aref) X(R) X(force) X(frictionloss)
#define BLOCK_ARRAYS(X) X(blk_kind, 1) X(blk_dim, 1) X(blk_nrow, 1) X(blk_row, 1) \
    X(blk_id, 1) X(blk_tree, 2) X(blk_dofadr, 2) X(blk_ndof, 2) X(blk_nzdof, 2) X(blk_nzlo, 2) \
    X(blk_nnzcol, 2) X(blk_nzall, 1) X(blk_friction, 5) \
    X(blk_mu, 1) X(blk_kappa, 1) X(blk_imp, 1) X(blk_margin_c, 1) \
    X(blk_cvel, CS_MAXDIM) X(blk_force, CS_MAXDIM) X(blk_zone, 1)

void cs_efc_init(cs_efc *e) { memset(e, 0, sizeof *e); }

void cs_efc_free(cs_efc *e)
{
#define FREE_R(f) cs_free(e->f);
#define FREE_B(f, n) cs_free(e->f);
    ROW_ARRAYS(FREE_R)
    BLOCK_ARRAYS(FREE_B)
#undef FREE_R
#undef FREE_B
    cs_free(e->J_colind);
    cs_free(e->J_nzcol);
    cs_free(e->J);
    cs_efc_init(e);
}

void cs_efc_clear(cs_efc *e) { e->nefc = e->nblock = e->nnz = 0; }

static int grow(void **p, size_t elem, int need, int cap)
{
    if (need <= cap) return 0;
    void *q = cs_realloc(*p, elem * (size_t)need);
    if (!q) return -1;
    *p = q;
    return 0;
}

static int newcap(int cap, int need)
{
    int c = cap ? cap : 16;
    while (c < need) c = c > (1 << 29) ? need : c + c / 2 + 16;
    return c;
}

int cs_efc_reserve(cs_efc *e, int nblock, int nrow, int nnz)
{
    int nb = e->nblock + nblock, nr = e->nefc + nrow, nz = e->nnz + nnz;
    if (nr > e->cap_efc) {
        int c = newcap(e->cap_efc, nr);
#define GROW_R(f) if (grow((void **)&e->f, sizeof *e->f, c, e->cap_efc)) return -1;
        ROW_ARRAYS(GROW_R)
#undef GROW_R
        e->cap_efc = c;
    }
    if (nb > e->cap_block) {
        int c = newcap(e->cap_block, nb);
#define GROW_B(f, n) if (grow((void **)&e->f, (n) * sizeof *e->f, c, e->cap_block)) return -1;
        BLOCK_ARRAYS(GROW_B)
#undef GROW_B
        e->cap_block = c;
    }
    if (nz > e->cap_nnz) {
        int c = newcap(e->cap_nnz, nz);
        if (grow((void **)&e->J_colind, sizeof *e->J_colind, c, e->cap_nnz) ||
            grow((void **)&e->J_nzcol, sizeof *e->J_nzcol, c, e->cap_nnz) ||
            grow((void **)&e->J, sizeof *e->J, c, e->cap_nnz))
            return -1;
        e->cap_nnz = c;
    }
    return 0;
}

double cs_efc_J(const cs_efc *e, int r, int q)
{
    const int *ci = e->J_colind + e->J_rowadr[r];
    for (int k = 0; k < e->J_rownnz[r]; k++)
        if (ci[k] == q) return e->J[e->J_rowadr[r] + k];
    return 0;
}

/* blk_nzlo and blk_nzdof of block k: for each side, its first and one past its last column
 * with a nonzero in any of the block's nrow rows (nrow x ncol at J; 0 and 0 for a side
 * without one) -- every column outside is exactly zero (a contact on a link of a chain
 * moves only the dofs up to the link's; a joint's row, its own dofs) */
static void nonzero_range(cs_efc *e, int k, const double *J, int nrow, int ncol)
{
    if (nrow == 1) { /* a joint's row: the same scan without the rows' loop */
        for (int s = 0, c0 = 0; s < 2; s++) {
            int n = e->blk_ndof[2 * k + s], z = n, a = 0;
            const double *Js = J + c0;
            while (z > 0 && Js[z - 1] == 0) z--;
            while (a < z && Js[a] == 0) a++;
            e->blk_nzdof[2 * k + s] = z;
            e->blk_nzlo[2 * k + s] = a;
            c0 += n;
        }
        return;
    }
    for (int s = 0, c0 = 0; s < 2; s++) {
        int n = e->blk_ndof[2 * k + s], z = n, a = 0;
        for (; z > 0; z--) {
            int r = 0;
            while (r < nrow && J[(size_t)r * ncol + c0 + z - 1] == 0) r++;
            if (r < nrow) break;
        }
        for (; a < z; a++) {
            int r = 0;
            while (r < nrow && J[(size_t)r * ncol + c0 + a] == 0) r++;
            if (r < nrow) break;
        }
        e->blk_nzdof[2 * k + s] = z;
        e->blk_nzlo[2 * k + s] = a;
        c0 += n;
    }
}

/* Blocks whose nonzero ranges span at most this many columns (a contact of two free
 * bodies) are taken whole, unscanned: few zeros to skip there */
#define NZCOL_SCAN 12

/* J_nzcol, blk_nnzcol and blk_nzall of block k, whose nrow x ncol values are at J and
 * whose room starts at position adr: the columns within each side's nonzero range that
 * hold a nonzero in any row, when scan (the ranges whole otherwise). The products over them
 * skip only exact zeros: the dofs off the chains to a contact's bodies, which a range from
 * the first nonzero to the last still holds. */
static inline void nonzero_cols(cs_efc *e, int k, const double *J, int nrow, int ncol, int adr,
                                int scan)
{
    int *col = e->J_nzcol + adr, m = 0, nd0 = e->blk_ndof[2 * k];
    int lo[2] = {e->blk_nzlo[2 * k], nd0 + e->blk_nzlo[2 * k + 1]};
    int hi[2] = {e->blk_nzdof[2 * k], nd0 + e->blk_nzdof[2 * k + 1]};
    e->blk_nnzcol[2 * k] = hi[0] - lo[0];
    e->blk_nnzcol[2 * k + 1] = hi[1] - lo[1];
    e->blk_nzall[k] = 1;
    if (!scan || hi[0] - lo[0] + hi[1] - lo[1] <= NZCOL_SCAN) return;
    for (int s = 0; s < 2; s++) {
        int m0 = m;
        for (int q = lo[s]; q < hi[s]; q++) {
            /* nonzero in a row: a bit set besides the sign's (+-0 have none) */
            uint64_t any = 0;
            for (int r = 0; r < nrow; r++) {
                uint64_t b;
                memcpy(&b, J + (size_t)r * ncol + q, sizeof b);
                any |= b << 1;
            }
            col[m] = q;
            m += any != 0;
        }
        e->blk_nnzcol[2 * k + s] = m - m0;
    }
    e->blk_nzall[k] = m == hi[0] - lo[0] + hi[1] - lo[1];
}

/* ---- one contact's block -------------------------------------------------------------- */

/* the number of leading columns of side S that hold a nonzero in jacp or jacr (its later
 * columns are zero: a point on a chain's link moves only the dofs up to the link's) */
static int side_nz(const cs_contact_side *S)
{
    int n = S->ndof, z = S->nzcol > 0 && S->nzcol < n ? S->nzcol : n;
    for (; z > 0; z--) {
        int k = 0;
        while (k < 3 && S->jacp[k * n + z - 1] == 0 && S->jacr[k * n + z - 1] == 0) k++;
        if (k < 3) break;
    }
    return z;
}

/* Columns 0 .. z - 1 of one side's contact-frame Jacobian rows (n, t1, t2, then rotations
 * about n, t1, t2): sg times the frame rows f times its jacp/jacr, each value 0 + the
 * product (as if added onto zeros), at Jc (row stride ncol); cv[j] += row j's values times
 * qv, column by column. */
static void side_rows(const double f[9], const cs_contact_side *S, int z, double sg, int dim,
                      int ncol, const double *qv, double *Jc, double cv[CS_MAXDIM])
{
    const double a0 = f[0], a1 = f[1], a2 = f[2], b0 = f[3], b1 = f[4], b2 = f[5];
    const double c0 = f[6], c1 = f[7], c2 = f[8];
    int n = S->ndof;
    const double *px = S->jacp, *py = px + n, *pz = py + n;
    const double *rx = S->jacr, *ry = rx + n, *rz = ry + n;
    double *J0 = Jc, *J1 = Jc + ncol, *J2 = J1 + ncol, *J3 = J2 + ncol, *J4 = J3 + ncol,
           *J5 = J4 + ncol;
    double v0 = cv[0], v1 = cv[1], v2 = cv[2], v3 = cv[3], v4 = cv[4], v5 = cv[5];
    if (dim == 1) {
        for (int q = 0; q < z; q++) {
            double x = 0.0 + sg * (a0 * px[q] + a1 * py[q] + a2 * pz[q]);
            J0[q] = x;
            v0 += x * qv[q];
        }
    } else {
        for (int q = 0; q < z; q++) {
            double p0 = px[q], p1 = py[q], p2 = pz[q], w = qv[q];
            double x0 = 0.0 + sg * (a0 * p0 + a1 * p1 + a2 * p2);
            double x1 = 0.0 + sg * (b0 * p0 + b1 * p1 + b2 * p2);
            double x2 = 0.0 + sg * (c0 * p0 + c1 * p1 + c2 * p2);
            J0[q] = x0;
            J1[q] = x1;
            J2[q] = x2;
            v0 += x0 * w;
            v1 += x1 * w;
            v2 += x2 * w;
        }
        if (dim > 3)
            for (int q = 0; q < z; q++) {
                double r0 = rx[q], r1 = ry[q], r2 = rz[q], w = qv[q];
                double x3 = 0.0 + sg * (a0 * r0 + a1 * r1 + a2 * r2);
                J3[q] = x3;
                v3 += x3 * w;
                if (dim > 4) {
                    double x4 = 0.0 + sg * (b0 * r0 + b1 * r1 + b2 * r2);
                    double x5 = 0.0 + sg * (c0 * r0 + c1 * r1 + c2 * r2);
                    J4[q] = x4;
                    J5[q] = x5;
                    v4 += x4 * w;
                    v5 += x5 * w;
                }
            }
    }
    cv[0] = v0;
    cv[1] = v1;
    cv[2] = v2;
    cv[3] = v3;
    cv[4] = v4;
    cv[5] = v5;
}

/* Contact-frame Jacobian rows of the velocity of side 1 relative to side 0 over the block's
 * columns (side 0's dofs, then side 1's; merged: side 0's only), the sides' nonzero column
 * counts nz, and the rows' products with qvel over those columns (cv). */
static void frame_jacobian(const cs_contact_in *c, const cs_contact_side *sd, int merged,
                           int dim, int ncol, const double *qvel, double *Jc, int nz[2],
                           double cv[CS_MAXDIM])
{
    int z[2] = {sd[0].ndof ? side_nz(&sd[0]) : 0, sd[1].ndof ? side_nz(&sd[1]) : 0};
    for (int j = 0; j < CS_MAXDIM; j++) cv[j] = 0;
    if (merged) { /* side 1 adds onto side 0's columns */
        memset(Jc, 0, sizeof(double) * (size_t)dim * (size_t)ncol);
        for (int s = 0; s < 2; s++) {
            const cs_contact_side *S = &sd[s];
            double sg = s ? 1.0 : -1.0;
            for (int row = 0; row < dim; row++) {
                const double *axis = c->frame + 3 * (row % 3);
                const double *src = row < 3 ? S->jacp : S->jacr;
                double *Jr = Jc + (size_t)row * ncol;
                for (int q = 0; q < z[s]; q++)
                    Jr[q] += sg * (axis[0] * src[q] + axis[1] * src[S->ndof + q] +
                                   axis[2] * src[2 * S->ndof + q]);
            }
        }
        nz[0] = z[0] > z[1] ? z[0] : z[1];
        nz[1] = 0;
        const double *qv = qvel + sd[0].dofadr;
        for (int j = 0; j < dim; j++) {
            double v = 0;
            for (int q = 0; q < nz[0]; q++) v += Jc[(size_t)j * ncol + q] * qv[q];
            cv[j] = v;
        }
        return;
    }
    for (int s = 0, col0 = 0; s < 2; s++) {
        const cs_contact_side *S = &sd[s];
        nz[s] = z[s];
        if (S->ndof == 0) continue;
        side_rows(c->frame, S, z[s], s ? 1.0 : -1.0, dim, ncol, qvel + S->dofadr, Jc + col0, cv);
        if (z[s] < S->ndof) /* the side's columns past its last nonzero */
            for (int j = 0; j < dim; j++)
                memset(Jc + (size_t)j * ncol + col0 + z[s], 0,
                       sizeof(double) * (size_t)(S->ndof - z[s]));
        col0 += S->ndof;
    }
}

int cs_efc_add_contact(cs_efc *e, const cs_contact_in *c, int id, const cs_contact_side sd[2],
                       const double *qvel, const cs_row_opts *o)
{
    int dim = c->dim;
    if (dim != 1 && dim != 3 && dim != 4 && dim != 6) dim = 1; /* the loader rejects these */
    /* two sides in one tree (links of one articulated body) share columns */
    int merged = sd[0].ndof > 0 && sd[1].ndof > 0 && sd[0].tree == sd[1].tree;
    int ncol = merged ? sd[0].ndof : sd[0].ndof + sd[1].ndof;
    int kind = dim == 1 ? CS_BLOCK_FRICTIONLESS
                        : (o->cone == CS_CONE_ELLIPTIC ? CS_BLOCK_ELLIPTIC : CS_BLOCK_PYRAMIDAL);
    int nrow = kind == CS_BLOCK_PYRAMIDAL ? 2 * (dim - 1) : (kind == CS_BLOCK_ELLIPTIC ? dim : 1);
    if (cs_efc_reserve(e, 1, nrow, nrow * ncol)) return -1;

    int k = e->nblock++, r0 = e->nefc;
    e->nefc += nrow;
    e->blk_kind[k] = kind;
    e->blk_dim[k] = dim;
    e->blk_nrow[k] = nrow;
    e->blk_row[k] = r0;
    e->blk_id[k] = id;
    e->blk_zone[k] = CS_ZONE_TOP;
    double margin_c = c->margin - c->gap;
    e->blk_margin_c[k] = margin_c;
    int *tree = e->blk_tree + 2 * k, *dofadr = e->blk_dofadr + 2 * k, *ndof = e->blk_ndof + 2 * k;
    tree[0] = sd[0].tree;
    dofadr[0] = sd[0].dofadr;
    ndof[0] = sd[0].ndof;
    tree[1] = merged ? -1 : sd[1].tree;
    dofadr[1] = merged ? 0 : sd[1].dofadr;
    ndof[1] = merged ? 0 : sd[1].ndof;
    double *fr = e->blk_friction + 5 * k, *bf = e->blk_force + CS_MAXDIM * k;
    for (int j = 0; j < 5; j++) fr[j] = j < dim - 1 ? atleast(c->friction[j], 1e-5) : 0;
    for (int j = 0; j < CS_MAXDIM; j++) bf[j] = 0;
    e->blk_mu[k] = e->blk_kappa[k] = 0;

    /* the frame Jacobian goes straight into the rows' value storage (dim rows; a pyramid's
     * 2 (dim - 1) rows are room for them); pyramid edges are made from it in place below */
    double *Jframe = e->J + e->nnz, *Jrows = Jframe;
    double *cv = e->blk_cvel + CS_MAXDIM * k;
    frame_jacobian(c, sd, merged, dim, ncol, qvel, Jframe, e->blk_nzdof + 2 * k, cv);
    e->blk_nzlo[2 * k] = e->blk_nzlo[2 * k + 1] = 0;
    const int *nz = e->blk_nzdof + 2 * k;

    /* the contact's parameters, once: solref (mixed signs -> 0.02 1, refsafe), solreffriction
     * (mixed signs -> 0 0), solimp clamped; K and B of solref and of the friction rows */
    double sr[2], srf[2] = {0, 0}, si[5], Kn, Bn, Kf, Bf;
    solref_fix(c->solref, o->timestep, o->refsafe, sr);
    if ((c->solreffriction[0] > 0) == (c->solreffriction[1] > 0)) {
        srf[0] = c->solreffriction[0];
        srf[1] = c->solreffriction[1];
        if (o->refsafe && srf[0] > 0) srf[0] = atleast(srf[0], 2 * o->timestep);
    }
    solimp_clamp(c->solimp, si);
    solref_kb(sr, si[1], &Kn, &Bn);
    Kf = Kn;
    Bf = Bn;
    if (kind == CS_BLOCK_ELLIPTIC) {
        if (srf[0] != 0 || srf[1] != 0) solref_kb(srf, si[1], &Kf, &Bf);
        Kf = 0;
    }
    double tran = sd[0].invweight[0] + sd[1].invweight[0];
    double rot = sd[0].invweight[1] + sd[1].invweight[1];

    if (kind == CS_BLOCK_PYRAMIDAL) {
        /* edges 2k, 2k+1 from frame rows 0 and k+1, filled from the last edge down: edge k
         * writes rows 2k, 2k+1 >= k + 1 while the edges after it read only frame rows 0 .. k,
         * and within a column both reads come before the writes */
        for (int kk = dim - 2; kk >= 0; kk--)
            for (int q = 0; q < ncol; q++) { /* (zero columns too: a pyramid's rows are
                                                written over the frame's) */
                double n0 = Jframe[q], t = Jframe[(size_t)(kk + 1) * ncol + q];
                Jrows[(size_t)(2 * kk) * ncol + q] = n0 + fr[kk] * t;
                Jrows[(size_t)(2 * kk + 1) * ncol + q] = n0 - fr[kk] * t;
            }
    }

    nonzero_cols(e, k, Jrows, nrow, ncol, e->nnz, sd[0].offchain || sd[1].offchain);

    /* every row of the block has the block's columns */
    int *ci0 = e->J_colind + e->nnz, *ci = ci0;
    for (int s = 0; s < 2; s++) {
        int a = dofadr[s], n = ndof[s];
        for (int q = 0; q < n; q++) ci[q] = a + q;
        ci += n;
    }
    for (int j = 1; j < nrow; j++, ci += ncol) memcpy(ci, ci0, sizeof(int) * (size_t)ncol);

    /* impedance once per block, from the first row (pos = dist, margin = margin_c) */
    double imp = impedance(si, c->dist, margin_c, NULL);
    e->blk_imp[k] = imp;
    for (int j = 0; j < nrow; j++) {
        int r = r0 + j;
        e->type[r] = kind;
        e->id[r] = id;
        e->block[r] = k;
        e->J_rownnz[r] = ncol;
        e->J_rowadr[r] = e->nnz + j * ncol;
        e->force[r] = 0;
        e->frictionloss[r] = 0;
        double v;
        if (kind == CS_BLOCK_PYRAMIDAL) {
            int kk = j / 2;
            e->dA[r] = tran + fr[kk] * fr[kk] * (kk < 2 ? tran : rot);
            e->pos[r] = c->dist;
            e->margin[r] = margin_c;
            e->K[r] = Kn;
            e->B[r] = Bn;
            const double *Jr = Jrows + (size_t)j * ncol;
            v = 0;
            for (int s = 0, col = 0; s < 2; s++) {
                const double *qv = qvel + dofadr[s];
                for (int q = 0; q < nz[s]; q++) v += Jr[col + q] * qv[q];
                col += ndof[s];
            }
            double st = c->friction[kk] * c->surfvel[kk + 1];
            if (st != 0) v += j % 2 ? -st : st;
        } else { /* the frame rows: their velocities are the contact-frame velocity's */
            e->dA[r] = j < 3 ? tran : rot;
            e->pos[r] = j == 0 ? c->dist : 0; /* friction rows: pos = margin = 0 */
            e->margin[r] = j == 0 ? margin_c : 0;
            e->K[r] = j ? Kf : Kn;
            e->B[r] = j ? Bf : Bn;
            v = cv[j];
            if (c->surfvel[j] != 0) v += c->surfvel[j];
        }
        e->vel[r] = v;
        e->aref[r] = -e->B[r] * v - e->K[r] * imp * (e->pos[r] - e->margin[r]);
    }
    e->nnz += nrow * ncol;

    /* R: (1 - imp) / imp dA of the first row; the others follow from it */
    double R0 = atleast((1 - imp) * e->dA[r0] / imp, CS_MINVAL);
    e->R[r0] = R0;
    if (kind != CS_BLOCK_FRICTIONLESS) {
        /* impratio 1 (the default): R1 = R0 and mu = f_1 exactly, without the chain of
         * divisions and the square root that give the same bits */
        int unit = o->impratio == 1;
        double R1 = unit ? R0 : R0 / atleast(o->impratio, CS_MINVAL);
        e->blk_mu[k] = unit ? fr[0] : fr[0] * sqrt(R1 / R0);
        if (kind == CS_BLOCK_ELLIPTIC) {
            e->R[r0 + 1] = R1;
            for (int j = 1; j < dim - 1; j++) e->R[r0 + j + 1] = R1 * fr[0] * fr[0] / (fr[j] * fr[j]);
            e->blk_kappa[k] = R1 * fr[0] * fr[0];
        } else {
            double Rpy = 2 * e->blk_mu[k] * e->blk_mu[k] * R0;
            for (int j = 0; j < nrow; j++) e->R[r0 + j] = Rpy;
        }
    }
    /* adhesion: the solver's force is the net force plus the adhesion (the translated cone),
     * so its rows aim at a_ref + R adhesion: the penetration at rest is the same as without
     * adhesion. A pyramid carries the normal on its 2 (dim - 1) edges equally */
    if (c->adhesion != 0) {
        if (kind == CS_BLOCK_PYRAMIDAL)
            for (int j = 0; j < nrow; j++) e->aref[r0 + j] += e->R[r0 + j] * c->adhesion / nrow;
        else
            e->aref[r0] += e->R[r0] * c->adhesion;
    }
    return 0;
}

/* ---- rows that are not a contact's: limits, friction loss, equality ------------------- */

/* MuJoCo's mj_instantiateLimit / mj_instantiateFriction / mj_instantiateEquality rows with
 * mj_makeImpedance's numbers (docs/contact-math.md §10): a friction row has pos = margin =
 * 0 (so imp = solimp's d0 unless flat) and K = 0; an equality block's impedance is taken
 * at the norm of its residuals. */
int cs_efc_add_rows(cs_efc *e, const cs_rows_in *in, int id, const double *qvel,
                    const cs_row_opts *o)
{
    int kind = in->kind, fric = kind == CS_BLOCK_FRICTIONLOSS, eq = kind == CS_BLOCK_EQUALITY;
    int nrow = in->nrow;
    if ((kind != CS_BLOCK_LIMIT && !fric && !eq) || nrow < 1 || nrow > (eq ? 6 : 1) ||
        in->tree[0] < 0 || in->ndof[0] <= 0 || in->dofadr[0] < 0 ||
        (in->tree[1] >= 0 && (in->tree[1] == in->tree[0] || in->ndof[1] <= 0 ||
                              in->dofadr[1] < 0)) ||
        (fric && !(in->frictionloss > 0 && isfinite(in->frictionloss))))
        return CS_ROWS_BAD_JOINT;
    int nd1 = in->tree[1] >= 0 ? in->ndof[1] : 0, n = in->ndof[0] + nd1;
    if (cs_efc_reserve(e, 1, nrow, nrow * n)) return -1;
    int k = e->nblock++, r0 = e->nefc;
    e->nefc += nrow;
    e->blk_kind[k] = kind;
    e->blk_dim[k] = nrow;
    e->blk_nrow[k] = nrow;
    e->blk_row[k] = r0;
    e->blk_id[k] = id;
    e->blk_zone[k] = eq ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    e->blk_tree[2 * k] = in->tree[0];
    e->blk_tree[2 * k + 1] = nd1 ? in->tree[1] : -1;
    e->blk_dofadr[2 * k] = in->dofadr[0];
    e->blk_dofadr[2 * k + 1] = nd1 ? in->dofadr[1] : 0;
    e->blk_ndof[2 * k] = in->ndof[0];
    e->blk_ndof[2 * k + 1] = nd1;
    memset(e->blk_friction + 5 * k, 0, 5 * sizeof(double));
    e->blk_mu[k] = e->blk_kappa[k] = 0;
    memset(e->blk_force + CS_MAXDIM * k, 0, CS_MAXDIM * sizeof(double));
    memset(e->blk_cvel + CS_MAXDIM * k, 0, CS_MAXDIM * sizeof(double));

    double sr[2], si[5], margin = kind == CS_BLOCK_LIMIT ? in->margin : 0, ipos = 0;
    solref_fix(in->solref, o->timestep, o->refsafe, sr);
    solimp_clamp(in->solimp, si);
    if (eq) {
        for (int j = 0; j < nrow; j++) ipos += in->pos[j] * in->pos[j];
        ipos = sqrt(ipos);
    } else if (!fric) {
        ipos = in->pos[0];
    }
    double imp = impedance(si, ipos, margin, NULL), K, B;
    e->blk_imp[k] = imp;
    e->blk_margin_c[k] = margin;
    solref_kb(sr, si[1], &K, &B);
    if (fric) K = 0;
    /* the rows' values and columns first, then their nonzero range: the products with qvel
     * read only that (the rest adds exact zeros) */
    int nd0 = in->ndof[0], a0 = in->dofadr[0], a1 = in->dofadr[1] - nd0; /* (no reloads
                                                                            through ci) */
    for (int j = 0; j < nrow; j++) {
        int *ci = e->J_colind + e->nnz + (size_t)j * n;
        memcpy(e->J + e->nnz + (size_t)j * n, in->J + (size_t)j * n, sizeof(double) * (size_t)n);
        for (int q = 0; q < nd0; q++) ci[q] = a0 + q;
        for (int q = nd0; q < n; q++) ci[q] = a1 + q;
    }
    nonzero_range(e, k, e->J + e->nnz, nrow, n);
    nonzero_cols(e, k, e->J + e->nnz, nrow, n, e->nnz, 1);
    int lo[2] = {e->blk_nzlo[2 * k], in->ndof[0] + e->blk_nzlo[2 * k + 1]};
    int hi[2] = {e->blk_nzdof[2 * k], in->ndof[0] + e->blk_nzdof[2 * k + 1]};
    for (int j = 0; j < nrow; j++) {
        int r = r0 + j;
        e->type[r] = kind;
        e->id[r] = id;
        e->block[r] = k;
        e->J_rownnz[r] = n;
        e->J_rowadr[r] = e->nnz;
        const double *J = e->J + e->nnz;
        const int *ci = e->J_colind + e->nnz;
        double v = 0;
        for (int h = 0; h < 2; h++)
            for (int q = lo[h]; q < hi[h]; q++) v += J[q] * qvel[ci[q]];
        e->nnz += n;
        e->force[r] = 0;
        e->frictionloss[r] = fric ? in->frictionloss : 0;
        e->pos[r] = fric ? 0 : in->pos[j];
        e->margin[r] = margin;
        e->dA[r] = in->invweight[j];
        e->vel[r] = v;
        if (j < CS_MAXDIM) e->blk_cvel[CS_MAXDIM * k + j] = v;
        e->R[r] = atleast((1 - imp) * e->dA[r] / imp, CS_MINVAL);
        e->K[r] = K;
        e->B[r] = B;
        e->aref[r] = -B * v - K * imp * (e->pos[r] - margin);
    }
    return 0;
}

/* one row on one tree: the general form with side 1 absent */
int cs_efc_add_joint_row(cs_efc *e, const cs_joint_row_in *in, int id, const double *qvel,
                         const cs_row_opts *o)
{
    cs_rows_in r = {in->kind, 1, {in->tree, -1}, {in->dofadr, 0}, {in->ndof, 0}, in->J,
                    &in->pos, in->margin, {in->solref[0], in->solref[1]},
                    {in->solimp[0], in->solimp[1], in->solimp[2], in->solimp[3], in->solimp[4]},
                    &in->invweight, in->frictionloss};
    if (in->kind != CS_BLOCK_LIMIT && in->kind != CS_BLOCK_FRICTIONLOSS) return CS_ROWS_BAD_JOINT;
    return cs_efc_add_rows(e, &r, id, qvel, o);
}
