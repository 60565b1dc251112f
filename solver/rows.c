/* Constraint rows of one contact (cone-math.md §8), with the details settled against
 * MuJoCo's engine_core_constraint.c (mj_instantiateContact, mj_diagApprox, getsolparam,
 * getimpedance, mj_makeImpedance):
 * - the impedance of a whole block is computed once from its FIRST row's pos and margin
 *   (elliptic: the normal row, pos = dist; pyramidal: every edge has pos = dist);
 * - elliptic friction rows have pos = margin = 0 and K = 0; their B comes from
 *   solreffriction when either entry is non-zero, else from solref;
 * - pyramidal edges all use solref, K included (their a_ref has a position term);
 * - R is first (1-imp)/imp dA for every row, then overwritten: elliptic R_1 = R_0/impratio
 *   and R_j = R_1 f_1^2/f_j^2; pyramidal every edge 2 mu^2 R_edge0, mu = f_1 sqrt(R_1/R_0). */
#include "rows.h"

#include <math.h>
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

void cs_contact_jacobian(const cs_contact_in *c, const cs_bodies_in *bd, double J[6][12])
{
    memset(J, 0, sizeof(double) * 72);
    for (int s = 0; s < 2; s++) {
        int b = c->body[s];
        if (b < 0) continue;
        double sg = s ? 1.0 : -1.0; /* velocity of geom2 relative to geom1 */
        const double *R = bd->xmat + 9 * b, *x = bd->xpos + 3 * b;
        double r[3] = {c->pos[0] - x[0], c->pos[1] - x[1], c->pos[2] - x[2]};
        /* point velocity = v + (R w_local) x r = v - [r]x R w_local */
        double Jp[3][6] = {{0}}, Jr[3][6] = {{0}};
        for (int i = 0; i < 3; i++) Jp[i][i] = 1;
        for (int k = 0; k < 3; k++) {
            double col[3] = {R[0 * 3 + k], R[1 * 3 + k], R[2 * 3 + k]}; /* R e_k */
            double cr[3] = {col[1] * r[2] - col[2] * r[1], col[2] * r[0] - col[0] * r[2],
                            col[0] * r[1] - col[1] * r[0]};             /* (R e_k) x r */
            for (int i = 0; i < 3; i++) {
                Jp[i][3 + k] = cr[i];
                Jr[i][3 + k] = col[i];
            }
        }
        for (int row = 0; row < 6; row++) {
            const double *axis = c->frame + 3 * (row % 3);
            double(*src)[6] = row < 3 ? Jp : Jr;
            for (int q = 0; q < 6; q++)
                J[row][6 * s + q] +=
                    sg * (axis[0] * src[0][q] + axis[1] * src[1][q] + axis[2] * src[2][q]);
        }
    }
}

int cs_rows_make(const cs_contact_in *c, int ci, const cs_bodies_in *bd, const cs_row_opts *o,
                 cs_block *out)
{
    double iw[4] = {0, 0, 0, 0};
    for (int s = 0; s < 2; s++)
        if (c->body[s] >= 0) {
            iw[2 * s] = bd->invweight0[2 * c->body[s]];
            iw[2 * s + 1] = bd->invweight0[2 * c->body[s] + 1];
        }
    return cs_rows_make_iw(c, ci, bd, o, iw, out);
}

int cs_rows_make_iw(const cs_contact_in *c, int ci, const cs_bodies_in *bd, const cs_row_opts *o,
                    const double invweight[4], cs_block *out)
{
    memset(out, 0, sizeof *out);
    int warn = 0, dim = c->dim;
    if (dim != 1 && dim != 3 && dim != 4 && dim != 6) {
        warn |= CS_ROWS_BAD_DIM;
        dim = 1;
    }
    out->dim = dim;
    out->contact = ci;
    out->body[0] = c->body[0];
    out->body[1] = c->body[1];
    out->island = -1;
    out->margin_c = c->margin - c->gap;
    for (int j = 0; j < dim - 1; j++) out->friction[j] = fmax(1e-5, c->friction[j]);
    const double *f = out->friction;

    double Jc[6][12];
    cs_contact_jacobian(c, bd, Jc);
    for (int j = 0; j < dim; j++)
        for (int s = 0; s < 2; s++)
            if (c->body[s] >= 0)
                for (int q = 0; q < 6; q++) out->cvel[j] += Jc[j][6 * s + q] * bd->qvel[6 * c->body[s] + q];

    double sr[2], srf[2] = {0, 0}, si[5];
    warn |= cs_solref_fix(c->solref, o->timestep, o->refsafe, sr) ? CS_ROWS_WARN_SOLREF : 0;
    if ((c->solreffriction[0] > 0) != (c->solreffriction[1] > 0)) {
        warn |= CS_ROWS_WARN_SOLREFFRICTION;
    } else {
        srf[0] = c->solreffriction[0];
        srf[1] = c->solreffriction[1];
        if (o->refsafe && srf[0] > 0) srf[0] = fmax(srf[0], 2 * o->timestep);
    }
    cs_solimp_clamp(c->solimp, si);

    double tran = invweight[0] + invweight[2], rot = invweight[1] + invweight[3];

    if (dim == 1) {
        out->kind = CS_BLOCK_FRICTIONLESS;
        out->nrow = 1;
        memcpy(out->J[0], Jc[0], sizeof Jc[0]);
        out->pos[0] = c->dist;
        out->margin[0] = out->margin_c;
        out->dA[0] = tran;
    } else if (o->cone == CS_CONE_ELLIPTIC) {
        out->kind = CS_BLOCK_ELLIPTIC;
        out->nrow = dim;
        for (int j = 0; j < dim; j++) {
            memcpy(out->J[j], Jc[j], sizeof Jc[j]);
            out->dA[j] = j < 3 ? tran : rot;
        }
        out->pos[0] = c->dist; /* friction rows: pos = margin = 0 */
        out->margin[0] = out->margin_c;
    } else {
        out->kind = CS_BLOCK_PYRAMIDAL;
        out->nrow = 2 * (dim - 1);
        for (int k = 0; k < dim - 1; k++) {
            for (int q = 0; q < 12; q++) {
                out->J[2 * k][q] = Jc[0][q] + f[k] * Jc[k + 1][q];
                out->J[2 * k + 1][q] = Jc[0][q] - f[k] * Jc[k + 1][q];
            }
            out->dA[2 * k] = out->dA[2 * k + 1] = tran + f[k] * f[k] * (k < 2 ? tran : rot);
        }
        for (int j = 0; j < out->nrow; j++) {
            out->pos[j] = c->dist;
            out->margin[j] = out->margin_c;
        }
    }

    /* impedance once per block, from the first row */
    out->imp = cs_impedance(si, out->pos[0], out->margin[0], &out->impP);
    double imp = out->imp;
    for (int j = 0; j < out->nrow; j++) {
        out->R[j] = fmax(MINVAL, (1 - imp) * out->dA[j] / imp);
        int ellfric = out->kind == CS_BLOCK_ELLIPTIC && j > 0;
        const double *ref = ellfric && (srf[0] != 0 || srf[1] != 0) ? srf : sr;
        cs_solref_kb(ref, si[1], &out->K[j], &out->B[j]);
        if (ellfric) out->K[j] = 0;
        double v = 0;
        for (int s = 0; s < 2; s++)
            if (c->body[s] >= 0)
                for (int q = 0; q < 6; q++) v += out->J[j][6 * s + q] * bd->qvel[6 * c->body[s] + q];
        out->vel[j] = v;
        out->aref[j] = -out->B[j] * v - out->K[j] * imp * (out->pos[j] - out->margin[j]);
    }

    if (out->kind != CS_BLOCK_FRICTIONLESS) {
        double R0 = out->R[0];
        double R1 = R0 / fmax(MINVAL, o->impratio);
        out->mu = f[0] * sqrt(R1 / R0);
        if (out->kind == CS_BLOCK_ELLIPTIC) {
            out->R[1] = R1;
            for (int j = 1; j < dim - 1; j++) out->R[j + 1] = R1 * f[0] * f[0] / (f[j] * f[j]);
            out->kappa = R1 * f[0] * f[0];
        } else {
            double Rpy = 2 * out->mu * out->mu * R0;
            for (int j = 0; j < out->nrow; j++) out->R[j] = Rpy;
        }
    }
    return warn;
}
