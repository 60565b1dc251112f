/* Fluid forces, MuJoCo's ellipsoid model (geom fluidshape="ellipsoid"): each such geom is the
 * ellipsoid of its semi-axes (sphere r r r, capsule r r h+r, cylinder r r h, others the
 * size) and feels, in its own frame with v relative to the wind:
 *   added mass      the fluid moving with it, rho (m_v v) x w and rho (m_v v) x v +
 *                   rho (I_v w) x w, m_v and I_v its virtual mass and inertia (Lamb's
 *                   coefficients of the ellipsoid, from one integral each);
 *   Magnus lift     C_M rho V w x v;
 *   Kutta lift      C_K rho cos(a) A_proj ((n x v) x v), n the normal of the cross-section
 *                   the velocity sees (area A_proj), a its angle to v;
 *   drag            -(3 pi D mu + rho |v| (C_blunt A_proj + C_slender (A_max - A_proj))) v,
 *                   D = 2/3 (sum of semi-axes), A_max pi d_max d_mid;
 *   angular drag    -(pi D^3 mu + rho |m|) w, m_k = w_k (C_ang I_k + C_slender (I_max - I_k)).
 * The coefficients C_blunt, C_slender, C_ang, C_K, C_M are the geom's fluidcoef (MuJoCo's
 * defaults 0.5 0.25 1.5 1 1). implicitfast takes the derivative d force / d velocity in the
 * geom's frame, by MuJoCo's closed forms. */
#include <math.h>
#include <string.h>

#include "minval.h"
#include "conesim.h"
#include "data_scratch.h"
#include "stages.h"

#define EPS 1e-15    /* mjEPS */
#define PI 3.14159265358979323846

/* geom_fluid's layout: MuJoCo's mjNFLUID = 12 */
enum { F_ON, F_BLUNT, F_SLENDER, F_ANG, F_KUTTA, F_MAGNUS, F_VMASS, F_VINERT = F_VMASS + 3 };

static void semiaxes(int type, const double *size, double s[3])
{
    switch (type) {
    case CS_GEOM_SPHERE: s[0] = s[1] = s[2] = size[0]; break;
    case CS_GEOM_CAPSULE: s[0] = s[1] = size[0]; s[2] = size[1] + size[0]; break;
    case CS_GEOM_CYLINDER: s[0] = s[1] = size[0]; s[2] = size[1]; break;
    default: s[0] = size[0]; s[1] = size[1]; s[2] = size[2];
    }
}

/* Lamb's kappa along x: dx dy dz times the integral over l from 0 to infinity of
 * 1 / ((dx^2 + l)^(3/2) (dy^2 + l)^(1/2) (dz^2 + l)^(1/2)), by MuJoCo's 15-point
 * Gauss-Kronrod rule after l = x^3 / (1 - x)^2 (its nodes, weights and the scaling by
 * (dx^3 dy dz)^(2/5), so that the coefficients are MuJoCo's to the last digit) */
static double kappa(double dx, double dy, double dz)
{
    static const double w[15] = {
        0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236,
        0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529,
        0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766};
    static const double l[15] = {
        7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193,
        0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
        0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642,
        11.644841677041734, 39.53187807410903, 177.5711362220801,
        1429.4772912937397, 54087.416549217705};
    static const double dl[15] = {
        5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166,
        0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
        1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009,
        156.58546376397112, 747.9826085305024, 5827.4042950027115,
        116754.0197944512, 25482945.327264845};
    double ix = 1 / (dx * dx), iy = 1 / (dy * dy), iz = 1 / (dz * dz);
    double scale = pow(dx * dx * dx * dy * dz, 0.4), k = 0;
    for (int i = 0; i < 15; i++) {
        double lam = scale * l[i];
        double den = (1 + lam * ix) * sqrt((1 + lam * ix) * (1 + lam * iy) * (1 + lam * iz));
        k += scale * dl[i] / den * w[i];
    }
    return k * ix;
}

void cs_fluid_coefs(int type, const double *size, int ellipsoid, const double coef[5],
                    double out[12])
{
    memset(out, 0, 12 * sizeof *out);
    if (!ellipsoid) return;
    double s[3];
    semiaxes(type, size, s);
    double dx = s[0], dy = s[1], dz = s[2], V = 4.0 / 3.0 * PI * dx * dy * dz;
    double kx = kappa(dx, dy, dz), ky = kappa(dy, dz, dx), kz = kappa(dz, dx, dy);
    /* the virtual inertia's factors: numerator and denominator share a sign, both taken
     * absolute, the denominator at least EPS */
#define SQ(x) ((x) * (x))
    double Ix = SQ(dy * dy - dz * dz) * fabs(kz - ky) /
                fmax(EPS, fabs(2 * (dy * dy - dz * dz) + (dy * dy + dz * dz) * (ky - kz)));
    double Iy = SQ(dz * dz - dx * dx) * fabs(kx - kz) /
                fmax(EPS, fabs(2 * (dz * dz - dx * dx) + (dz * dz + dx * dx) * (kz - kx)));
    double Iz = SQ(dx * dx - dy * dy) * fabs(ky - kx) /
                fmax(EPS, fabs(2 * (dx * dx - dy * dy) + (dx * dx + dy * dy) * (kx - ky)));
#undef SQ
    out[F_ON] = 1;
    for (int k = 0; k < 5; k++) out[F_BLUNT + k] = coef[k];
    out[F_VMASS] = V * kx / fmax(EPS, 2 - kx);
    out[F_VMASS + 1] = V * ky / fmax(EPS, 2 - ky);
    out[F_VMASS + 2] = V * kz / fmax(EPS, 2 - kz);
    out[F_VINERT] = V * Ix / 5;
    out[F_VINERT + 1] = V * Iy / 5;
    out[F_VINERT + 2] = V * Iz / 5;
}

static void cross(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* the largest moment of inertia of the ellipsoid about axis k's plane: 8/15 pi s_k
 * max(s_i, s_j)^4 */
static double max_moment(const double s[3], int k)
{
    double d = fmax(s[(k + 1) % 3], s[(k + 2) % 3]);
    return 8.0 / 15.0 * PI * s[k] * d * d * d * d;
}

/* the force [torque; force] in the geom's frame from its velocity lv = [w; v - wind] */
static void local_force(const double *F, const double s[3], double rho, double mu,
                        const double lv[6], double f[6])
{
    const double *w = lv, *v = lv + 3;
    memset(f, 0, 6 * sizeof *f);
    /* added mass */
    double P[3], L[3], t[3];
    for (int k = 0; k < 3; k++) {
        P[k] = rho * F[F_VMASS + k] * v[k];
        L[k] = rho * F[F_VINERT + k] * w[k];
    }
    cross(t, P, w);
    for (int k = 0; k < 3; k++) f[3 + k] += t[k];
    cross(t, P, v);
    for (int k = 0; k < 3; k++) f[k] += t[k];
    cross(t, L, w);
    for (int k = 0; k < 3; k++) f[k] += t[k];

    double V = 4.0 / 3.0 * PI * s[0] * s[1] * s[2];
    double dmax = fmax(fmax(s[0], s[1]), s[2]), dmin = fmin(fmin(s[0], s[1]), s[2]);
    double dmid = s[0] + s[1] + s[2] - dmax - dmin, Amax = PI * dmax * dmid;
    /* Magnus */
    double mag[3];
    cross(mag, w, v);
    for (int k = 0; k < 3; k++) mag[k] *= F[F_MAGNUS] * rho * V;
    /* the projected area: the velocity's component along the cross-section's normal is
     * num / sqrt(den) */
    double a = s[1] * s[2], b = s[2] * s[0], c = s[0] * s[1];
    double den = a * a * a * a * v[0] * v[0] + b * b * b * b * v[1] * v[1] +
                 c * c * c * c * v[2] * v[2];
    double num = a * a * v[0] * v[0] + b * b * v[1] * v[1] + c * c * v[2] * v[2];
    double Aproj = PI * sqrt(den / fmax(CS_MINVAL, num));
    double n[3] = {a * a * v[0], b * b * v[1], c * c * v[2]};
    double cosa = num / fmax(CS_MINVAL, norm3(v) * den);
    double circ[3], kut[3];
    cross(circ, n, v);
    for (int k = 0; k < 3; k++) circ[k] *= F[F_KUTTA] * rho * cosa * Aproj;
    cross(kut, circ, v);
    /* drag and angular drag, linear (Stokes) plus quadratic */
    double D = 2.0 / 3.0 * (s[0] + s[1] + s[2]);
    double Imax = 8.0 / 15.0 * PI * dmid * dmax * dmax * dmax * dmax, mom[3];
    for (int k = 0; k < 3; k++) {
        double I = max_moment(s, k);
        mom[k] = w[k] * (F[F_ANG] * I + F[F_SLENDER] * (Imax - I));
    }
    double lin = mu * 3 * PI * D +
                 rho * norm3(v) * (Aproj * F[F_BLUNT] + F[F_SLENDER] * (Amax - Aproj));
    double ang = mu * PI * D * D * D + rho * norm3(mom);
    for (int k = 0; k < 3; k++) {
        f[k] -= ang * w[k];
        f[3 + k] += mag[k] + kut[k] - lin * v[k];
    }
    for (int k = 0; k < 6; k++) f[k] *= F[F_ON];
}

/* geom g's velocity in its own frame, and its world Jacobian at its centre (jp, jr: 3 x nv) */
static void geom_velocity(const cs_model *m, cs_data *d, int g, double *jp, double *jr,
                          double lv[6])
{
    int nv = m->nv, b = m->geom_body[g];
    const cs_pose *X = d->geom_xpose + g;
    cs_jac(m, d, b, X->pos, jp, jr);
    double v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i]) {
            v[k] += jp[(size_t)k * nv + i] * d->qvel[i];
            w[k] += jr[(size_t)k * nv + i] * d->qvel[i];
        }
    for (int k = 0; k < 3; k++) {
        lv[k] = lv[3 + k] = 0;
        for (int r = 0; r < 3; r++) {
            lv[k] += X->mat[3 * r + k] * w[r];
            lv[3 + k] += X->mat[3 * r + k] * (v[r] - m->opt.wind[r]);
        }
    }
}

int cs_fluid_ellipsoid_body(const cs_model *m, int b)
{
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++)
        if (m->geom_fluid[12 * g + F_ON] > 0) return 1;
    return 0;
}

void cs_fluid_ellipsoid_passive(const cs_model *m, cs_data *d, int b)
{
    int nv = m->nv;
    double *jp = d->scratch->eq_scratch, *jr = jp + 3 * (size_t)nv;
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
        const double *F = m->geom_fluid + 12 * g;
        if (F[F_ON] == 0) continue;
        double s[3], lv[6], lf[6], T[3], Fw[3];
        semiaxes(m->geom_type[g], m->geom_size + 3 * g, s);
        geom_velocity(m, d, g, jp, jr, lv);
        local_force(F, s, m->opt.density, m->opt.viscosity, lv, lf);
        const double *R = d->geom_xpose[g].mat;
        for (int r = 0; r < 3; r++) {
            T[r] = R[3 * r] * lf[0] + R[3 * r + 1] * lf[1] + R[3 * r + 2] * lf[2];
            Fw[r] = R[3 * r] * lf[3] + R[3 * r + 1] * lf[4] + R[3 * r + 2] * lf[5];
        }
        for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
            for (int k = 0; k < 3; k++)
                d->qfrc_passive[i] += jp[(size_t)k * nv + i] * Fw[k] + jr[(size_t)k * nv + i] * T[k];
    }
}

/* B += the 3 x 3 block D (row-major) at rows 3 rb, columns 3 cb */
static void add_block(double B[36], const double D[9], int rb, int cb)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) B[6 * (3 * rb + r) + 3 * cb + c] += D[3 * r + c];
}

/* d (a x b) / d a and d (a x b) / d b, row-major */
static void dcross(const double a[3], const double b[3], double Da[9], double Db[9])
{
    const double A[9] = {0, b[2], -b[1], -b[2], 0, b[0], b[1], -b[0], 0};
    const double Bm[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    memcpy(Da, A, sizeof A);
    memcpy(Db, Bm, sizeof Bm);
}

/* B = d f / d lv of local_force, 6 x 6 row-major, by MuJoCo's formulas (its drag and
 * angular-drag terms are its own closed forms, which the trajectories then follow) */
static void deriv(const double *F, const double s[3], double rho, double mu, const double lv[6],
                  double B[36])
{
    const double *w = lv, *v = lv + 3;
    double Da[9], Db[9], D[9];
    memset(B, 0, 36 * sizeof *B);
    /* added mass: torque += L x w + P x v, force += P x w */
    double P[3], L[3];
    for (int k = 0; k < 3; k++) {
        P[k] = rho * F[F_VMASS + k] * v[k];
        L[k] = rho * F[F_VINERT + k] * w[k];
    }
    dcross(L, w, Da, Db);
    add_block(B, Db, 0, 0);
    for (int i = 0; i < 9; i++) Da[i] *= rho * F[F_VINERT + i % 3];
    add_block(B, Da, 0, 0);
    dcross(P, v, Da, Db);
    add_block(B, Db, 0, 1);
    for (int i = 0; i < 9; i++) Da[i] *= rho * F[F_VMASS + i % 3];
    add_block(B, Da, 0, 1);
    dcross(P, w, Da, Db);
    add_block(B, Db, 1, 0);
    for (int i = 0; i < 9; i++) Da[i] *= rho * F[F_VMASS + i % 3];
    add_block(B, Da, 1, 1);
    /* Magnus: force += C_M rho V w x v */
    double V = 4.0 / 3.0 * PI * s[0] * s[1] * s[2], cm = F[F_MAGNUS] * rho * V;
    double ws[3] = {cm * w[0], cm * w[1], cm * w[2]}, vs[3] = {cm * v[0], cm * v[1], cm * v[2]};
    dcross(ws, vs, Da, Db);
    add_block(B, Da, 1, 0);
    add_block(B, Db, 1, 1);
    /* Kutta lift */
    double a = s[1] * s[2] * s[1] * s[2], b = s[2] * s[0] * s[2] * s[0], c = s[0] * s[1] * s[0] * s[1];
    double x = v[0], y = v[1], z = v[2], xx = x * x, yy = y * y, zz = z * z;
    double xy = x * y, yz = y * z, xz = x * z;
    double den = a * a * xx + b * b * yy + c * c * zz, num = a * xx + b * yy + c * zz;
    double n2 = xx + yy + zz;
    {
        double scale = PI * F[F_KUTTA] * rho / fmax(CS_MINVAL, sqrt(den * num * n2));
        double fx = yy * (a - b) + zz * (a - c), fy = xx * (b - a) + zz * (b - c);
        double fz = xx * (c - a) + yy * (c - b);
        double pt = num / fmax(CS_MINVAL, den), ct = num / fmax(CS_MINVAL, n2);
        const double abc[3] = {a, b, c}, f3[3] = {fx, fy, fz};
        double in[3] = {a * a * pt - a + ct, b * b * pt - b + ct, c * c * pt - c + ct};
        const double vv[9] = {xx, xy, xz, xy, yy, yz, xz, yz, zz};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) {
                D[3 * r + k] = (2 * num * (abc[k] - abc[r]) + in[k] * f3[r]) * vv[3 * r + k];
                if (r == k) D[3 * r + k] -= f3[r] * num;
                D[3 * r + k] *= scale;
            }
        add_block(B, D, 1, 1);
    }
    /* drag */
    double dmax = fmax(fmax(s[0], s[1]), s[2]), dmin = fmin(fmin(s[0], s[1]), s[2]);
    double dmid = s[0] + s[1] + s[2] - dmax - dmin, Dq = 2.0 / 3.0 * (s[0] + s[1] + s[2]);
    {
        double Amax = PI * dmax * dmid;
        double dA = PI / fmax(CS_MINVAL, sqrt(num * num * num * den));
        double Aproj = PI * sqrt(den / fmax(CS_MINVAL, num));
        double norm = sqrt(n2), inv = 1 / fmax(CS_MINVAL, norm);
        double lin = mu * 3 * PI * Dq;
        double quad = rho * (Aproj * F[F_BLUNT] + F[F_SLENDER] * (Amax - Aproj));
        double ac = rho * norm * (F[F_BLUNT] - F[F_SLENDER]);
        double dAp[3] = {ac * dA * a * x * (b * yy * (a - b) + c * zz * (a - c)),
                         ac * dA * b * y * (a * xx * (b - a) + c * zz * (b - c)),
                         ac * dA * c * z * (a * xx * (c - a) + b * yy * (c - b))};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) {
                D[3 * r + k] = -quad * inv * (v[r] * v[k] + (r == k ? n2 : 0)) - v[r] * dAp[k];
                if (r == k) D[3 * r + k] -= lin;
            }
        add_block(B, D, 1, 1);
    }
    /* angular drag */
    {
        double Imax = 8.0 / 15.0 * PI * dmid * dmax * dmax * dmax * dmax, coef[3], mom[3];
        for (int k = 0; k < 3; k++) {
            double I = max_moment(s, k);
            coef[k] = F[F_ANG] * I + F[F_SLENDER] * (Imax - I);
            mom[k] = w[k] * coef[k];
        }
        double dens = rho / fmax(CS_MINVAL, norm3(mom)), lin = mu * PI * Dq * Dq * Dq, sq[3];
        for (int k = 0; k < 3; k++) sq[k] = -dens * w[k] * coef[k] * coef[k];
        double diag = w[0] * sq[0] + w[1] * sq[1] + w[2] * sq[2] - lin;
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) D[3 * r + k] = w[r] * sq[k] + (r == k ? diag : 0);
        add_block(B, D, 0, 0);
    }
    for (int k = 0; k < 36; k++) B[k] *= F[F_ON];
}

void cs_fluid_ellipsoid_deriv(const cs_model *m, cs_data *d, int b, int symmetric, double h,
                              double *qH, double *up, double *A6, int o)
{
    int nv = m->nv;
    double *jp = d->scratch->eq_scratch, *jr = jp + 3 * (size_t)nv;
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; g++) {
        const double *F = m->geom_fluid + 12 * g;
        if (F[F_ON] == 0) continue;
        double s[3], lv[6], B[36];
        semiaxes(m->geom_type[g], m->geom_size + 3 * g, s);
        geom_velocity(m, d, g, jp, jr, lv);
        deriv(F, s, m->opt.density, m->opt.viscosity, lv, B);
        if (symmetric)
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < r; c++) B[6 * r + c] = B[6 * c + r] = 0.5 * (B[6 * r + c] + B[6 * c + r]);
        /* the geom-frame Jacobian rows: [R^T jr; R^T jp] over the body's chain */
        cs_fluid_local_rows(m, b, d->geom_xpose[g].mat, jp, jr);
#define ROW(k, i) ((k) < 3 ? jr[(size_t)(k) * nv + (i)] : jp[(size_t)((k) - 3) * nv + (i)])
        if (A6) {
            /* a standalone free body's block: A -= h J^T B J over its dofs o .. o + 5 */
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++) {
                    double sum = 0;
                    for (int k = 0; k < 6; k++)
                        for (int l = 0; l < 6; l++) sum += ROW(k, o + r) * B[6 * k + l] * ROW(l, o + c);
                    A6[6 * r + c] -= h * sum;
                }
        } else {
            /* without up (implicitfast's qH) MuJoCo's reduced sparsity: a simple body's
             * dofs keep only their diagonal */
            int diag_only = !up && m->body_simple[b];
            for (int i = m->body_lastdof[b]; i >= 0; i = m->dof_parent[i])
                for (int j = i, e = 0; j >= 0 && !(diag_only && e); j = m->dof_parent[j], e++) {
                    double sum = 0;
                    for (int k = 0; k < 6; k++)
                        for (int l = 0; l < 6; l++) sum += ROW(k, i) * B[6 * k + l] * ROW(l, j);
                    qH[m->dof_Madr[i] + e] -= h * sum;
                    if (!up || !e) continue;
                    sum = 0; /* the (j, i) entry: B is not symmetric here */
                    for (int k = 0; k < 6; k++)
                        for (int l = 0; l < 6; l++) sum += ROW(k, j) * B[6 * k + l] * ROW(l, i);
                    up[m->dof_Madr[i] + e] -= h * sum;
                }
        }
#undef ROW
    }
}
