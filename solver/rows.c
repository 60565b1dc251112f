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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MINVAL 1e-15 /* mjMINVAL */
#define MINIMP 0.0001
#define MAXIMP 0.9999

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

void cs_solimp_clamp(const double in[5], double out[5])
{
    out[0] = clampd(in[0], MINIMP, MAXIMP);
    out[1] = clampd(in[1], MINIMP, MAXIMP);
    out[2] = fmax(0.0, in[2]);
    out[3] = clampd(in[3], MINIMP, MAXIMP);
    out[4] = fmax(1.0, in[4]);
}

static double powi(double a, double b)
{
    if (b == 1.0) return a;
    if (b == 2.0) return a * a;
    return pow(a, b);
}

double cs_impedance(const double s[5], double pos, double m, double *impP)
{
    double dummy;
    if (!impP) impP = &dummy;
    if (s[0] == s[1] || s[2] <= MINVAL) { /* flat */
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

int cs_solref_fix(const double in[2], double timestep, int refsafe, double out[2])
{
    int warn = 0;
    out[0] = in[0];
    out[1] = in[1];
    if ((out[0] > 0) != (out[1] > 0)) {
        out[0] = 0.02;
        out[1] = 1;
        warn = 1;
    }
    if (refsafe && out[0] > 0) out[0] = fmax(out[0], 2 * timestep);
    return warn;
}

void cs_solref_kb(const double r[2], double dw, double *K, double *B)
{
    if (r[0] > 0)
        *K = 1 / fmax(MINVAL, dw * dw * r[0] * r[0] * r[1] * r[1]);
    else
        *K = -r[0] / fmax(MINVAL, dw * dw);
    if (r[1] > 0)
        *B = 2 / fmax(MINVAL, dw * r[0]);
    else
        *B = -r[1] / fmax(MINVAL, dw);
}

/* ---- storage ---------------------------------------------------------------------- */

#define ROW_ARRAYS(X) X(type) X(id) X(block) X(J_rownnz) X(J_rowadr) X(pos) X(margin) X(dA) \
    X(K) X(B) X(vel) X(aref) X(R) X(force) X(frictionloss)
#define BLOCK_ARRAYS(X) X(blk_kind, 1) X(blk_dim, 1) X(blk_nrow, 1) X(blk_row, 1) \
    X(blk_id, 1) X(blk_tree, 2) X(blk_dofadr, 2) X(blk_ndof, 2) X(blk_nzdof, 2) X(blk_friction, 5) \
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

/* blk_nzdof of block k: for each side, the columns up to its last one with a nonzero in any
 * of the block's nrow rows (nrow x ncol at J) -- every column after it is exactly zero (a
 * contact on a link of a chain moves only the dofs up to the link's) */
static void last_nonzero(cs_efc *e, int k, const double *J, int nrow, int ncol)
{
    for (int s = 0, c0 = 0; s < 2; s++) {
        int n = e->blk_ndof[2 * k + s], z = n;
        for (; z > 0; z--) {
            int r = 0;
            while (r < nrow && J[(size_t)r * ncol + c0 + z - 1] == 0) r++;
            if (r < nrow) break;
        }
        e->blk_nzdof[2 * k + s] = z;
        c0 += n;
    }
}

/* ---- one contact's block -------------------------------------------------------------- */

/* Contact-frame Jacobian rows (n, t1, t2, then rotations about n, t1, t2) of the velocity of
 * side 1 relative to side 0, over the block's columns (side 0's dofs, then side 1's). */
static void frame_jacobian(const cs_contact_in *c, const cs_contact_side *sd, int merged,
                           int dim, int ncol, double *Jc, int nz[2])
{
    memset(Jc, 0, sizeof(double) * (size_t)dim * (size_t)ncol);
    nz[0] = nz[1] = 0;
    for (int s = 0; s < 2; s++) {
        const cs_contact_side *S = &sd[s];
        if (S->ndof == 0) continue;
        /* the side's columns past its last nonzero in jacp or jacr stay zero */
        int n = S->ndof, z = n;
        for (; z > 0; z--) {
            int k = 0;
            while (k < 3 && S->jacp[k * n + z - 1] == 0 && S->jacr[k * n + z - 1] == 0) k++;
            if (k < 3) break;
        }
        int t = (s == 1 && merged) ? 0 : s;
        if (z > nz[t]) nz[t] = z;
        double sg = s ? 1.0 : -1.0;
        int col0 = (s == 1 && !merged) ? sd[0].ndof : 0;
        for (int row = 0; row < dim; row++) {
            const double *axis = c->frame + 3 * (row % 3);
            const double *src = row < 3 ? S->jacp : S->jacr;
            double *Jr = Jc + (size_t)row * ncol + col0;
            for (int q = 0; q < z; q++)
                Jr[q] += sg * (axis[0] * src[q] + axis[1] * src[S->ndof + q] +
                               axis[2] * src[2 * S->ndof + q]);
        }
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
    e->blk_margin_c[k] = c->margin - c->gap;
    for (int s = 0; s < 2; s++) {
        int keep = !(merged && s == 1);
        e->blk_tree[2 * k + s] = keep ? sd[s].tree : -1;
        e->blk_dofadr[2 * k + s] = keep ? sd[s].dofadr : 0;
        e->blk_ndof[2 * k + s] = keep ? sd[s].ndof : 0;
    }
    double *fr = e->blk_friction + 5 * k;
    memset(fr, 0, 5 * sizeof *fr);
    for (int j = 0; j < dim - 1; j++) fr[j] = fmax(1e-5, c->friction[j]);
    memset(e->blk_force + CS_MAXDIM * k, 0, CS_MAXDIM * sizeof(double));
    e->blk_mu[k] = e->blk_kappa[k] = 0;

    /* the frame Jacobian goes straight into the rows' value storage (dim rows; a pyramid's
     * 2 (dim - 1) rows are room for them); pyramid edges are made from it in place below */
    double *Jframe = e->J + e->nnz, *Jrows = Jframe;
    frame_jacobian(c, sd, merged, dim, ncol, Jframe, e->blk_nzdof + 2 * k);
    const int *nz = e->blk_nzdof + 2 * k;
    double *cv = e->blk_cvel + CS_MAXDIM * k;
    for (int j = 0; j < CS_MAXDIM; j++) cv[j] = 0;
    for (int j = 0; j < dim; j++) {
        double v = 0;
        for (int s = 0, col = 0; s < 2; s++) {
            int a = e->blk_dofadr[2 * k + s];
            for (int q = 0; q < nz[s]; q++) v += Jframe[(size_t)j * ncol + col + q] * qvel[a + q];
            col += e->blk_ndof[2 * k + s];
        }
        cv[j] = v;
    }

    double sr[2], srf[2] = {0, 0}, si[5];
    cs_solref_fix(c->solref, o->timestep, o->refsafe, sr);
    if ((c->solreffriction[0] > 0) == (c->solreffriction[1] > 0)) { /* mixed sign: 0 0 */
        srf[0] = c->solreffriction[0];
        srf[1] = c->solreffriction[1];
        if (o->refsafe && srf[0] > 0) srf[0] = fmax(srf[0], 2 * o->timestep);
    }
    cs_solimp_clamp(c->solimp, si);
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
    for (int j = 0; j < nrow; j++) {
        int r = r0 + j;
        e->type[r] = kind;
        e->id[r] = id;
        e->block[r] = k;
        e->J_rownnz[r] = ncol;
        e->J_rowadr[r] = e->nnz + j * ncol;
        int *ci = e->J_colind + e->J_rowadr[r];
        for (int s = 0, col = 0; s < 2; s++) {
            int a = e->blk_dofadr[2 * k + s], n = e->blk_ndof[2 * k + s];
            for (int q = 0; q < n; q++) ci[col + q] = a + q;
            col += n;
        }
        e->force[r] = 0;
        e->frictionloss[r] = 0;
        if (kind == CS_BLOCK_PYRAMIDAL) {
            int kk = j / 2;
            e->dA[r] = tran + fr[kk] * fr[kk] * (kk < 2 ? tran : rot);
            e->pos[r] = c->dist;
            e->margin[r] = e->blk_margin_c[k];
        } else {
            e->dA[r] = j < 3 ? tran : rot;
            e->pos[r] = j == 0 ? c->dist : 0; /* friction rows: pos = margin = 0 */
            e->margin[r] = j == 0 ? e->blk_margin_c[k] : 0;
        }
    }
    e->nnz += nrow * ncol;

    /* impedance once per block, from the first row */
    double imp = cs_impedance(si, e->pos[r0], e->margin[r0], NULL);
    e->blk_imp[k] = imp;
    for (int j = 0; j < nrow; j++) {
        int r = r0 + j;
        e->R[r] = fmax(MINVAL, (1 - imp) * e->dA[r] / imp);
        int ellfric = kind == CS_BLOCK_ELLIPTIC && j > 0;
        const double *ref = ellfric && (srf[0] != 0 || srf[1] != 0) ? srf : sr;
        cs_solref_kb(ref, si[1], &e->K[r], &e->B[r]);
        if (ellfric) e->K[r] = 0;
        const double *Jr = e->J + e->J_rowadr[r];
        double v = 0;
        for (int s = 0, col = 0; s < 2; s++) {
            int a = e->blk_dofadr[2 * k + s];
            for (int q = 0; q < nz[s]; q++) v += Jr[col + q] * qvel[a + q];
            col += e->blk_ndof[2 * k + s];
        }
        e->vel[r] = v;
        e->aref[r] = -e->B[r] * v - e->K[r] * imp * (e->pos[r] - e->margin[r]);
    }
    if (kind != CS_BLOCK_FRICTIONLESS) {
        double R0 = e->R[r0], R1 = R0 / fmax(MINVAL, o->impratio);
        e->blk_mu[k] = fr[0] * sqrt(R1 / R0);
        if (kind == CS_BLOCK_ELLIPTIC) {
            e->R[r0 + 1] = R1;
            for (int j = 1; j < dim - 1; j++) e->R[r0 + j + 1] = R1 * fr[0] * fr[0] / (fr[j] * fr[j]);
            e->blk_kappa[k] = R1 * fr[0] * fr[0];
        } else {
            double Rpy = 2 * e->blk_mu[k] * e->blk_mu[k] * R0;
            for (int j = 0; j < nrow; j++) e->R[r0 + j] = Rpy;
        }
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
    cs_solref_fix(in->solref, o->timestep, o->refsafe, sr);
    cs_solimp_clamp(in->solimp, si);
    if (eq) {
        for (int j = 0; j < nrow; j++) ipos += in->pos[j] * in->pos[j];
        ipos = sqrt(ipos);
    } else if (!fric) {
        ipos = in->pos[0];
    }
    double imp = cs_impedance(si, ipos, margin, NULL), K, B;
    e->blk_imp[k] = imp;
    e->blk_margin_c[k] = margin;
    cs_solref_kb(sr, si[1], &K, &B);
    if (fric) K = 0;
    for (int j = 0; j < nrow; j++) {
        int r = r0 + j;
        e->type[r] = kind;
        e->id[r] = id;
        e->block[r] = k;
        e->J_rownnz[r] = n;
        e->J_rowadr[r] = e->nnz;
        double *J = e->J + e->nnz, v = 0;
        int *ci = e->J_colind + e->nnz;
        for (int q = 0; q < n; q++) {
            int dof = q < in->ndof[0] ? in->dofadr[0] + q : in->dofadr[1] + q - in->ndof[0];
            J[q] = in->J[(size_t)j * n + q];
            ci[q] = dof;
            v += J[q] * qvel[dof];
        }
        e->nnz += n;
        e->force[r] = 0;
        e->frictionloss[r] = fric ? in->frictionloss : 0;
        e->pos[r] = fric ? 0 : in->pos[j];
        e->margin[r] = margin;
        e->dA[r] = in->invweight[j];
        e->vel[r] = v;
        if (j < CS_MAXDIM) e->blk_cvel[CS_MAXDIM * k + j] = v;
        e->R[r] = fmax(MINVAL, (1 - imp) * e->dA[r] / imp);
        e->K[r] = K;
        e->B[r] = B;
        e->aref[r] = -B * v - K * imp * (e->pos[r] - margin);
    }
    last_nonzero(e, k, e->J + e->J_rowadr[r0], nrow, n);
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
