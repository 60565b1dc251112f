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

double cs_geom_volume(int type, const double s[3])
{
    switch (type) {
    case CS_GEOM_SPHERE: return 4.0 / 3.0 * M_PI * s[0] * s[0] * s[0];
    case CS_GEOM_CAPSULE:
        return M_PI * s[0] * s[0] * (2 * s[1]) + 4.0 / 3.0 * M_PI * s[0] * s[0] * s[0];
    case CS_GEOM_CYLINDER: return M_PI * s[0] * s[0] * (2 * s[1]);
    case CS_GEOM_ELLIPSOID: return 4.0 / 3.0 * M_PI * s[0] * s[1] * s[2];
    case CS_GEOM_BOX: return 8 * s[0] * s[1] * s[2];
    default: return 0;
    }
}

void cs_geom_inertia(int type, const double s[3], double m, double I[3])
{
    I[0] = I[1] = I[2] = 0;
    switch (type) {
    case CS_GEOM_SPHERE:
        I[0] = I[1] = I[2] = 0.4 * m * s[0] * s[0];
        break;
    case CS_GEOM_CAPSULE: {
        /* cylinder plus two hemispheres displaced along z (exact) */
        double r = s[0], h = 2 * s[1];
        double ms = m * 4 * r / (4 * r + 3 * h), mc = m - ms;
        I[0] = I[1] = mc * (3 * r * r + h * h) / 12 + 0.4 * ms * r * r
                      + ms * h * (3 * r + 2 * h) / 8;
        I[2] = mc * r * r / 2 + 0.4 * ms * r * r;
        break;
    }
    case CS_GEOM_CYLINDER: {
        double r = s[0], h = 2 * s[1];
        I[0] = I[1] = m * (3 * r * r + h * h) / 12;
        I[2] = m * r * r / 2;
        break;
    }
    case CS_GEOM_ELLIPSOID:
        I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 5;
        I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 5;
        I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 5;
        break;
    case CS_GEOM_BOX:
        I[0] = m * (s[1] * s[1] + s[2] * s[2]) / 3;
        I[1] = m * (s[0] * s[0] + s[2] * s[2]) / 3;
        I[2] = m * (s[0] * s[0] + s[1] * s[1]) / 3;
        break;
    default: break;
    }
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

/* Cyclic Jacobi: robust and exact enough for 3x3 (converges in a few sweeps). */
void cs_eig3(const double Ain[9], double ev[3], double quat[4])
{
    double A[9], V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(A, Ain, sizeof A);
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
        double scale = fabs(A[0]) + fabs(A[4]) + fabs(A[8]);
        if (off <= 1e-300 || off <= 1e-17 * scale) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = A[3 * p + q];
                if (apq == 0) continue;
                double theta = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                /* A <- G^T A G, V <- V G with G the rotation in the (p, q) plane */
                for (int k = 0; k < 3; k++) {
                    double akp = A[3 * k + p], akq = A[3 * k + q];
                    A[3 * k + p] = c * akp - s * akq;
                    A[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = A[3 * p + k], aqk = A[3 * q + k];
                    A[3 * p + k] = c * apk - s * aqk;
                    A[3 * q + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = V[3 * k + p], vkq = V[3 * k + q];
                    V[3 * k + p] = c * vkp - s * vkq;
                    V[3 * k + q] = s * vkp + c * vkq;
                }
            }
    }
    /* sort descending, carrying eigenvector columns */
    int idx[3] = {0, 1, 2};
    double d[3] = {A[0], A[4], A[8]};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (d[idx[j]] > d[idx[i]]) { int t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
    double W[9];
    for (int c = 0; c < 3; c++) {
        ev[c] = d[idx[c]];
        for (int r = 0; r < 3; r++) W[3 * r + c] = V[3 * r + idx[c]];
    }
    /* right-handed: third column = first x second */
    W[2] = W[3] * W[7] - W[6] * W[4];
    W[5] = W[6] * W[1] - W[0] * W[7];
    W[8] = W[0] * W[4] - W[3] * W[1];
    cs_mat2quat(quat, W);
}
