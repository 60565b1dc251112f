/* Mass properties of primitives and rigid combinations, as MuJoCo's compiler computes
 * them: volume x density (or the given mass), exact primitive inertias, parallel axes,
 * and the principal-axes frame. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <string.h>

#include "conesim.h"
#include "inertia.h"

/* MuJoCo's compiler's expressions in its order of operations, so that masses and inertias
 * carry the same bits; shell: the surface's area instead of the volume */
double cs_geom_volume(int type, const double s[3], int shell)
{
    const double pi = M_PI;
    switch ((cs_geom_type)type) {
    case CS_GEOM_SPHERE:
        return shell ? 4 * pi * s[0] * s[0] : 4 * pi * s[0] * s[0] * s[0] / 3;
    case CS_GEOM_CAPSULE: {
        double h = 2 * s[1], r = s[0];
        return shell ? 4 * pi * r * r + 2 * pi * r * h : pi * (r * r * h + 4 * r * r * r / 3);
    }
    case CS_GEOM_CYLINDER: {
        double h = 2 * s[1], r = s[0];
        return shell ? 2 * pi * r * r + 2 * pi * r * h : pi * r * r * h;
    }
    case CS_GEOM_ELLIPSOID:
        if (shell) { /* Thomsen's approximation of the area */
            double p = 1.6075;
            double t = pow(s[0] * s[1], p) + pow(s[1] * s[2], p) + pow(s[2] * s[0], p);
            return 4 * pi * pow(t / 3, 1 / p);
        }
        return 4 * pi * s[0] * s[1] * s[2] / 3;
    case CS_GEOM_HFIELD: /* MuJoCo's: the box of the geom's size */
    case CS_GEOM_BOX:
        return shell ? 8 * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0]) : s[0] * s[1] * s[2] * 8;
    case CS_GEOM_PLANE:
    case CS_GEOM_MESH: break; /* a mesh's volume is its own (mjcf_mesh.c) */
    }
    return 0;
}

double cs_geom_rbound(int type, const double size[3])
{
    const double *s = size;
    switch ((cs_geom_type)type) {
    case CS_GEOM_SPHERE: return s[0];
    case CS_GEOM_CAPSULE: return s[0] + s[1];
    case CS_GEOM_CYLINDER: return sqrt(s[0] * s[0] + s[1] * s[1]);
    case CS_GEOM_ELLIPSOID: return fmax(s[0], fmax(s[1], s[2]));
    case CS_GEOM_BOX: return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    case CS_GEOM_PLANE:
    case CS_GEOM_HFIELD:
    case CS_GEOM_MESH: break; /* a mesh's bound is its own (mjcf_mesh.c) */
    }
    return 0;
}

static void capsule_inertia(double r, double hh, double m, int shell, double I[3])
{
    double h = 2 * hh, ms;
    if (shell) {
        double as = 4 * M_PI * r * r, ac = 2 * M_PI * r * h;
        ms = m * as / (as + ac);
    } else {
        ms = m * 4 * r / (4 * r + 3 * h); /* the two hemispheres' share of the volume */
    }
    double mc = m - ms;
    I[0] = I[1] = mc * ((shell ? 6 : 3) * r * r + h * h) / 12;
    I[2] = shell ? mc * r * r : mc * r * r / 2;
    double is = shell ? 2 * ms * r * r / 3 : 2 * ms * r * r / 5, d;
    if (shell) { /* hemispheres' centres r/2 beyond the cylinder's ends */
        double c = r / 2, hp = hh + c;
        d = ms * (hp * hp - c * c);
    } else {
        d = ms * h * (3 * r + 2 * h) / 8;
    }
    I[0] += is + d;
    I[1] += is + d;
    I[2] += is;
}

static void cylinder_inertia(double r, double hh, double m, int shell, double I[3])
{
    double h = 2 * hh;
    if (!shell) {
        I[0] = I[1] = m * (3 * r * r + h * h) / 12;
        I[2] = m * r * r / 2;
        return;
    }
    double ad = M_PI * r * r, ac = 2 * M_PI * r * h;
    double md = m * ad / (2 * ad + ac), mc = m - 2 * md;
    I[0] = I[1] = mc * (6 * r * r + h * h) / 12;
    I[2] = mc * r * r;
    double dx = md * r * r / 4 + md * hh * hh, dz = md * r * r / 2;
    I[0] += 2 * dx;
    I[1] += 2 * dx;
    I[2] += 2 * dz;
}

/* m (b^2 + c^2) / k about each axis: a solid ellipsoid (k = 5) or box (k = 3) of semi-axes s */
static void solid_inertia(const double s[3], double m, double k, double I[3])
{
    double s00 = s[0] * s[0], s11 = s[1] * s[1], s22 = s[2] * s[2];
    I[0] = m * (s11 + s22) / k;
    I[1] = m * (s00 + s22) / k;
    I[2] = m * (s00 + s11) / k;
}

static void ellipsoid_inertia(const double s[3], double m, int shell, double I[3])
{
    if (!shell) {
        solid_inertia(s, m, 5, I);
        return;
    }
    double s00 = s[0] * s[0], s11 = s[1] * s[1], s22 = s[2] * s[2];
    /* the solid grown by a thin layer minus the solid, at the density that gives m */
    double eps = 1e-6, ae = s[0] + eps, be = s[1] + eps, ce = s[2] + eps;
    double va = 4 * M_PI * s[0] * s[1] * s[2] / 3, vb = 4 * M_PI * ae * be * ce / 3;
    double rho = m / (vb - va), ma = va * rho, mb = vb * rho;
    I[0] = mb * (be * be + ce * ce) / 5 - ma * (s11 + s22) / 5;
    I[1] = mb * (ae * ae + ce * ce) / 5 - ma * (s00 + s22) / 5;
    I[2] = mb * (ae * ae + be * be) / 5 - ma * (s00 + s11) / 5;
}

static void box_inertia(const double s[3], double m, int shell, double I[3])
{
    if (!shell) {
        solid_inertia(s, m, 3, I);
        return;
    }
    double s00 = s[0] * s[0], s11 = s[1] * s[1], s22 = s[2] * s[2];
    /* six plates: each pair's mass by its area, its own inertia and its offset */
    double lx = 2 * s[0], ly = 2 * s[1], lz = 2 * s[2];
    double a0 = lx * ly, a1 = ly * lz, a2 = lz * lx, at = 2 * (a0 + a1 + a2);
    double m0 = m * a0 / at, m1 = m * a1 / at, m2 = m * a2 / at;
    double ix0 = m0 * ly * ly / 12, iy0 = m0 * lx * lx / 12, iz0 = m0 * (lx * lx + ly * ly) / 12;
    double ix1 = m1 * (ly * ly + lz * lz) / 12, iy1 = m1 * lz * lz / 12, iz1 = m1 * ly * ly / 12;
    double ix2 = m2 * lz * lz / 12, iy2 = m2 * (lx * lx + lz * lz) / 12, iz2 = m2 * lx * lx / 12;
    I[0] = 2 * (m0 * s22 + m2 * s11 + ix0 + ix1 + ix2);
    I[1] = 2 * (m0 * s22 + m1 * s00 + iy0 + iy1 + iy2);
    I[2] = 2 * (m1 * s00 + m2 * s11 + iz0 + iz1 + iz2);
}

void cs_geom_inertia(int type, const double s[3], double m, int shell, double I[3])
{
    I[0] = I[1] = I[2] = 0;
    switch ((cs_geom_type)type) {
    case CS_GEOM_SPHERE:
        I[0] = I[1] = I[2] = shell ? 2 * m * s[0] * s[0] / 3 : 2 * m * s[0] * s[0] / 5;
        break;
    case CS_GEOM_CAPSULE: capsule_inertia(s[0], s[1], m, shell, I); break;
    case CS_GEOM_CYLINDER: cylinder_inertia(s[0], s[1], m, shell, I); break;
    case CS_GEOM_ELLIPSOID: ellipsoid_inertia(s, m, shell, I); break;
    case CS_GEOM_HFIELD: /* as its box, as MuJoCo */
    case CS_GEOM_BOX: box_inertia(s, m, shell, I); break;
    case CS_GEOM_PLANE:
    case CS_GEOM_MESH: break; /* a mesh's inertia is its own (mjcf_mesh.c) */
    }
}

void cs_inertia_global(double g[6], const double local[3], const double quat[4])
{
    double R[9];
    cs_quat2mat(R, quat);
    double t[9] = {R[0] * local[0], R[3] * local[0], R[6] * local[0],
                   R[1] * local[1], R[4] * local[1], R[7] * local[1],
                   R[2] * local[2], R[5] * local[2], R[8] * local[2]};
    g[0] = R[0] * t[0] + R[1] * t[3] + R[2] * t[6];
    g[1] = R[3] * t[1] + R[4] * t[4] + R[5] * t[7];
    g[2] = R[6] * t[2] + R[7] * t[5] + R[8] * t[8];
    g[3] = R[0] * t[1] + R[1] * t[4] + R[2] * t[7];
    g[4] = R[0] * t[2] + R[1] * t[5] + R[2] * t[8];
    g[5] = R[3] * t[2] + R[4] * t[5] + R[5] * t[8];
}

void cs_inertia_offcenter(double r[6], double mass, const double v[3])
{
    r[0] = mass * (v[1] * v[1] + v[2] * v[2]);
    r[1] = mass * (v[0] * v[0] + v[2] * v[2]);
    r[2] = mass * (v[0] * v[0] + v[1] * v[1]);
    r[3] = -mass * v[0] * v[1];
    r[4] = -mass * v[0] * v[2];
    r[5] = -mass * v[1] * v[2];
}

void cs_mass_acc_init(cs_mass_acc *a) { memset(a, 0, sizeof *a); }

void cs_mass_acc_add(cs_mass_acc *a, double mass, const double pos[3], const double quat[4],
                     const double inertia[3])
{
    double R[9];
    cs_quat2mat(R, quat);
    /* R diag(I) R^T + m (|p|^2 E - p p^T): tensor about the accumulator origin */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double t = 0;
            for (int k = 0; k < 3; k++) t += R[3 * i + k] * inertia[k] * R[3 * j + k];
            t += mass * ((i == j ? pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2] : 0)
                         - pos[i] * pos[j]);
            a->J[3 * i + j] += t;
        }
    a->mass += mass;
    for (int i = 0; i < 3; i++) a->mc[i] += mass * pos[i];
}

int cs_mass_acc_result(const cs_mass_acc *a, double com[3], double I[9])
{
    if (!(a->mass > 0)) {
        memset(com, 0, 3 * sizeof *com);
        memset(I, 0, 9 * sizeof *I);
        return 0;
    }
    for (int i = 0; i < 3; i++) com[i] = a->mc[i] / a->mass;
    double c2 = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            I[3 * i + j] = a->J[3 * i + j] - a->mass * ((i == j ? c2 : 0) - com[i] * com[j]);
    return 1;
}

/* MuJoCo 3.12's compiler's eigen-decomposition of a symmetric 3x3 matrix (mjuu_eig3: mesh
 * frames, fullinertia, bodies' inertia from their geoms), so that principal inertias and axes
 * come out as MuJoCo's do, digit for digit: Jacobi rotations accumulated in a quaternion, each
 * on the largest off-diagonal element of the rotated matrix, until that element is below
 * 1e-12 (absolute: small bodies' inertias keep MuJoCo's residual) or the rotation's cosine is
 * within 1e-12 of 1; then eigenvalues sorted decreasing by quarter turns of the quaternion. */

/* the compiler's normalisation: a length within 1e-14 of 1 is kept (so a nearly unit
 * quaternion keeps its last bits, as MuJoCo's mesh frames do), a squared length below 1e-14
 * leaves the quaternion as it is, otherwise each part is divided by the length */
static void quat_normalize(double q[4])
{
    double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (n < 1e-14) return;
    n = sqrt(n);
    if (fabs(n - 1) > 1e-14)
        for (int k = 0; k < 4; k++) q[k] /= n;
}

/* the compiler's quaternion product: normalised as it is formed, and again after */
static void quat_turn(double q[4], const double r[4])
{
    cs_mulquat(q, q, r);
    quat_normalize(q);
    quat_normalize(q);
}

void cs_eig3(const double A[9], double ev[3], double quat[4])
{
    const double eps = 1e-12;
    double V[9], T[9], D[9], r[4];
    quat[0] = 1;
    quat[1] = quat[2] = quat[3] = 0;
    for (int it = 0; it < 500; it++) {
        cs_quat2mat(V, quat);
        for (int i = 0; i < 3; i++) /* T = V^T A, D = T V */
            for (int j = 0; j < 3; j++)
                T[3 * i + j] = V[i] * A[j] + V[3 + i] * A[3 + j] + V[6 + i] * A[6 + j];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                D[3 * i + j] = T[3 * i] * V[j] + T[3 * i + 1] * V[3 + j] + T[3 * i + 2] * V[6 + j];
        ev[0] = D[0];
        ev[1] = D[4];
        ev[2] = D[8];
        int rk, ck, rotk;
        if (fabs(D[1]) > fabs(D[2]) && fabs(D[1]) > fabs(D[5])) rk = 0, ck = 1, rotk = 2;
        else if (fabs(D[2]) > fabs(D[5])) rk = 0, ck = 2, rotk = 1;
        else rk = 1, ck = 2, rotk = 0;
        if (fabs(D[3 * rk + ck]) < eps) break;
        double tau = (D[4 * ck] - D[4 * rk]) / (2 * D[3 * rk + ck]);
        double t = tau >= 0 ? 1 / (tau + sqrt(1 + tau * tau)) : -1 / (-tau + sqrt(1 + tau * tau));
        double c = 1 / sqrt(1 + t * t);
        if (c > 1 - eps) break;
        r[1] = r[2] = r[3] = 0;
        r[rotk + 1] = tau >= 0 ? -sqrt(0.5 - 0.5 * c) : sqrt(0.5 - 0.5 * c);
        if (rotk == 1) r[rotk + 1] = -r[rotk + 1];
        r[0] = sqrt(1 - r[rotk + 1] * r[rotk + 1]);
        quat_normalize(r);
        quat_turn(quat, r);
    }
    /* decreasing order: compare (0,1), (1,2), (0,1), each swap a quarter turn */
    for (int j = 0; j < 3; j++) {
        int a = j % 2;
        if (ev[a] + eps < ev[a + 1]) {
            double t = ev[a];
            ev[a] = ev[a + 1];
            ev[a + 1] = t;
            r[0] = 0.707106781186548;
            r[1] = r[2] = r[3] = 0;
            r[(a + 2) % 3 + 1] = r[0];
            quat_turn(quat, r);
        }
    }
}
