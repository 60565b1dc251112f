/* Box : box as MuJoCo 3.12 computes it, to the rounding (its order of operations kept), so
 * that a box resting exactly on another makes the same contacts in both engines.
 *
 * Everything happens in box a's frame. A separating-axis test over the 15 candidate axes
 * (3 faces of each box, 9 edge crossings) finds the axis of largest separation; a face axis
 * wins near-ties (an edge axis must be better by a relative 1e-6, and an edge axis within
 * about 8 degrees of the best face and less than 5% deeper gives way to the face: a
 * resting stack would otherwise flip between the two by rounding). A face axis makes the
 * reference box's face clip the incident box's most opposed face against its four side
 * planes: every clipped corner within the margin is a contact (at most 12, near-duplicates
 * dropped), its depth the corner's height over the reference face, its point midway
 * between the two surfaces. An edge axis makes one contact at the middle of the two
 * supporting edges' closest points. */
#include <math.h>
#include <string.h>

#include "internal.h"

/* slack of the separation tests, times the boxes' summed half-sizes: a pair overlapping by
 * less than the rounding of its own supports must not read as apart */
#define SEP_EPS 1e-13
/* sin^2 of the angle between two edges below which their crossing is rounding noise */
#define PAR_EPS 1e-16
/* an axis component below which the supporting corner's sign is ambiguous */
#define SGN_EPS 1e-9
/* squared distance, relative to the reference face's size, of two clipped corners that
 * are one */
#define DUP_EPS 1e-14
/* an edge axis beats the best face axis only by this relative margin */
#define EDGE_BIAS 1e-6
/* a 4-gon clipped by 4 half-planes: at most 8 corners; room to spare */
#define MAXVERT 12

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* v <- v / |v| (|v| below 1e-15: the x axis) */
static void unit3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n < 1e-15) {
        v[0] = 1;
        v[1] = v[2] = 0;
        return;
    }
    double inv = 1 / n;
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

/* rot = ma^T mb: box b's axes (columns) in box a's frame */
static void rel_rotation(double rot[9], const double *ma, const double *mb)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            rot[3 * i + j] = ma[i] * mb[j] + ma[3 + i] * mb[3 + j] + ma[6 + i] * mb[6 + j];
}

/* Clip the polygon *cur (n corners, (x, y, z) with z carried along) to sign * v[c] <= lim.
 * When every corner is inside the polygon stays where it is; otherwise the result goes to
 * *spare and the two swap. Returns the corner count. */
static int clip_half(int n, double (**cur)[3], double (**spare)[3], int c, double sign,
                     double lim)
{
    double (*in)[3] = *cur, d[MAXVERT];
    int inside = 1;
    for (int k = 0; k < n; k++) {
        d[k] = sign * in[k][c] - lim;
        inside &= d[k] <= 0;
    }
    if (inside) return n;
    double (*out)[3] = *spare;
    int m = 0;
    for (int k = 0; k < n; k++) {
        int k1 = k + 1 == n ? 0 : k + 1;
        double dp = d[k], dq = d[k1];
        if (dp <= 0 && m < MAXVERT) memcpy(out[m++], in[k], sizeof out[0]);
        if (((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) && m < MAXVERT) {
            const double *p = in[k], *q = in[k1];
            double t = dp / (dp - dq);
            for (int i = 0; i < 3; i++) out[m][i] = p[i] + t * (q[i] - p[i]);
            m++;
        }
    }
    *cur = out;
    *spare = in;
    return m;
}

/* the one contact of an edge-edge axis i x j (box a's axis i, box b's axis j) */
static int edge_contact(const cs_shape *a, const cs_shape *b, const double rot[9],
                        const double p21[3], int i, int j, double septol, cs_rawcon *out)
{
    const double *sa = a->size, *sb = b->size;
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    double ax[3];
    ax[i] = 0;
    ax[i1] = -rot[3 * i2 + j];
    ax[i2] = rot[3 * i1 + j];
    unit3(ax);
    if (cs_dot3(ax, p21) < 0)
        for (int k = 0; k < 3; k++) ax[k] = -ax[k];
    /* the axis in b's frame; a component near zero leaves the supporting corner's sign open
     * (both edges support the axis): both are tried, the closer pair kept */
    double a2[3];
    for (int c = 0; c < 3; c++)
        a2[c] = ax[0] * rot[c] + ax[1] * rot[3 + c] + ax[2] * rot[6 + c];
    int amb1 = -1, amb2 = -1;
    if (fabs(ax[i1]) < SGN_EPS) amb1 = i1;
    else if (fabs(ax[i2]) < SGN_EPS) amb1 = i2;
    if (fabs(a2[j1]) < SGN_EPS) amb2 = j1;
    else if (fabs(a2[j2]) < SGN_EPS) amb2 = j2;
    double d2[3] = {rot[j], rot[3 + j], rot[6 + j]};
    double cosab = d2[i], denom = 1 - cosab * cosab;
    double w1[3] = {0, 0, 0}, w2[3] = {0, 0, 0}, best = 1e10;
    for (int v1 = 0; v1 < (amb1 >= 0 ? 2 : 1); v1++)
        for (int v2 = 0; v2 < (amb2 >= 0 ? 2 : 1); v2++) {
            double c1[3], cc[3], c2[3], e[3];
            c1[i] = 0;
            c1[i1] = ax[i1] >= 0 ? sa[i1] : -sa[i1];
            c1[i2] = ax[i2] >= 0 ? sa[i2] : -sa[i2];
            if (amb1 >= 0 && v1) c1[amb1] = -c1[amb1];
            cc[j] = 0;
            cc[j1] = a2[j1] >= 0 ? -sb[j1] : sb[j1];
            cc[j2] = a2[j2] >= 0 ? -sb[j2] : sb[j2];
            if (amb2 >= 0 && v2) cc[amb2] = -cc[amb2];
            cs_mulmv(c2, rot, cc);
            for (int k = 0; k < 3; k++) c2[k] += p21[k];
            for (int k = 0; k < 3; k++) e[k] = c2[k] - c1[k];
            /* closest points of the two segments, each clamp re-solving the other */
            double d1e = e[i], d2e = cs_dot3(d2, e);
            double s = denom < 1e-15 ? 0 : (d1e - cosab * d2e) / denom;
            s = clampd(s, -sa[i], sa[i]);
            double t = clampd(cosab * s - d2e, -sb[j], sb[j]);
            s = clampd(d1e + cosab * t, -sa[i], sa[i]);
            double p1[3], p2[3], g[3];
            memcpy(p1, c1, sizeof p1);
            p1[i] += s;
            memcpy(p2, c2, sizeof p2);
            for (int k = 0; k < 3; k++) p2[k] += d2[k] * t;
            for (int k = 0; k < 3; k++) g[k] = p2[k] - p1[k];
            double g2 = cs_dot3(g, g);
            if (g2 < best) {
                best = g2;
                memcpy(w1, p1, sizeof w1);
                memcpy(w2, p2, sizeof w2);
            }
        }
    double g[3] = {w2[0] - w1[0], w2[1] - w1[1], w2[2] - w1[2]};
    double dist = cs_dot3(g, ax);
    if (dist > septol) return 0;
    double mid[3] = {0.5 * (w1[0] + w2[0]), 0.5 * (w1[1] + w2[1]), 0.5 * (w1[2] + w2[2])};
    double p[3], n[3];
    cs_mulmv(p, a->mat, mid);
    for (int k = 0; k < 3; k++) p[k] += a->pos[k];
    cs_mulmv(n, a->mat, ax);
    cs_setcon(out, n, p, dist);
    return 1;
}

/* the contacts of face axis code (0..2 box a's, 3..5 box b's) */
static int face_contacts(const cs_shape *a, const cs_shape *b, const double rot[9],
                         const double p21[3], const double p12[3], int code, double margin,
                         cs_rawcon *out)
{
    int ref_a = code < 3, f = ref_a ? code : code - 3;
    const cs_shape *R = ref_a ? a : b, *I = ref_a ? b : a;
    const double *sr = R->size, *si = I->size, *po = ref_a ? p21 : p12;
    double rinc[9]; /* rinc[3 r + c]: component r of the incident box's axis c, in R's frame */
    if (ref_a) {
        memcpy(rinc, rot, sizeof rinc);
    } else {
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) rinc[3 * r + c] = rot[3 * c + r];
    }
    double sgn = po[f] >= 0 ? 1 : -1;
    int fi = 0; /* the incident face: the one most opposed to R's face normal */
    for (int k = 1; k < 3; k++)
        if (fabs(rinc[3 * f + k]) > fabs(rinc[3 * f + fi])) fi = k;
    double tinc = sgn * rinc[3 * f + fi] > 0 ? -1 : 1;
    /* the incident face's corners as (x, y) along R's two other axes and z, the height over
     * R's face (negative inside R), wound around the face */
    int ax = (f + 1) % 3, ay = (f + 2) % 3, bu = (fi + 1) % 3, bv = (fi + 2) % 3;
    double cx[3], du[3], dv[3], poly[2][MAXVERT][3];
    for (int r = 0; r < 3; r++) {
        int c = r == 0 ? ax : (r == 1 ? ay : f);
        cx[r] = po[c] + tinc * si[fi] * rinc[3 * c + fi];
        du[r] = si[bu] * rinc[3 * c + bu];
        dv[r] = si[bv] * rinc[3 * c + bv];
    }
    cx[2] = sgn * cx[2] - sr[f];
    du[2] *= sgn;
    dv[2] *= sgn;
    static const double corner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    for (int k = 0; k < 4; k++)
        for (int r = 0; r < 3; r++)
            poly[0][k][r] = cx[r] + corner[k][0] * du[r] + corner[k][1] * dv[r];
    double (*cur)[3] = poly[0], (*spare)[3] = poly[1];
    int n = 4;
    n = clip_half(n, &cur, &spare, 0, 1, sr[ax]);
    n = clip_half(n, &cur, &spare, 0, -1, sr[ax]);
    n = clip_half(n, &cur, &spare, 1, 1, sr[ay]);
    n = clip_half(n, &cur, &spare, 1, -1, sr[ay]);
    double kept[MAXVERT][3], dup2 = DUP_EPS * (sr[ax] * sr[ax] + sr[ay] * sr[ay]);
    int nk = 0;
    for (int k = 0; k < n; k++) {
        if (cur[k][2] > margin) continue;
        int dup = 0;
        for (int q = 0; q < nk && !dup; q++) {
            double dx = kept[q][0] - cur[k][0], dy = kept[q][1] - cur[k][1];
            dup = dx * dx + dy * dy < dup2;
        }
        if (!dup) memcpy(kept[nk++], cur[k], sizeof kept[0]);
    }
    double nsg = ref_a ? sgn : -sgn, nrm[3];
    for (int r = 0; r < 3; r++) nrm[r] = nsg * R->mat[3 * r + f];
    for (int k = 0; k < nk; k++) {
        double pc[3], p[3];
        pc[ax] = kept[k][0];
        pc[ay] = kept[k][1];
        pc[f] = sgn * (sr[f] + 0.5 * kept[k][2]);
        cs_mulmv(p, R->mat, pc);
        for (int r = 0; r < 3; r++) p[r] += R->pos[r];
        cs_setcon(out + k, nrm, p, kept[k][2]);
    }
    return nk;
}

int cs_box_box(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
               double margin, cs_rawcon *out)
{
    (void)opt;
    const double *sa = a->size, *sb = b->size;
    double rot[9], rabs[9], p21[3], p12[3], d[3];
    for (int k = 0; k < 3; k++) d[k] = b->pos[k] - a->pos[k];
    cs_mulmtv(p21, a->mat, d);
    for (int k = 0; k < 3; k++) d[k] = a->pos[k] - b->pos[k];
    cs_mulmtv(p12, b->mat, d);
    rel_rotation(rot, a->mat, b->mat);
    for (int k = 0; k < 9; k++) rabs[k] = fabs(rot[k]);
    double septol = margin + SEP_EPS * (sa[0] + sa[1] + sa[2] + sb[0] + sb[1] + sb[2]);
    double best = -1e10;
    int code = -1;
    for (int i = 0; i < 3; i++) { /* a's faces */
        double r2 = rabs[3 * i] * sb[0] + rabs[3 * i + 1] * sb[1] + rabs[3 * i + 2] * sb[2];
        double sep = fabs(p21[i]) - sa[i] - r2;
        if (sep > septol) return 0;
        if (sep > best) {
            best = sep;
            code = i;
        }
    }
    for (int j = 0; j < 3; j++) { /* b's faces */
        double r1 = rabs[j] * sa[0] + rabs[3 + j] * sa[1] + rabs[6 + j] * sa[2];
        double sep = fabs(p12[j]) - sb[j] - r1;
        if (sep > septol) return 0;
        if (sep > best) {
            best = sep;
            code = 3 + j;
        }
    }
    double face_sep = best;
    int face_code = code;
    for (int i = 0; i < 3; i++) /* edge crossings: a's axis i x b's axis j, in a's frame */
        for (int j = 0; j < 3; j++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            double x1 = -rot[3 * i2 + j], x2 = rot[3 * i1 + j], nn = x1 * x1 + x2 * x2;
            if (nn < PAR_EPS) continue; /* near-parallel edges: a face axis covers them */
            double inv = 1 / sqrt(nn);
            x1 *= inv;
            x2 *= inv;
            double r1 = sa[i1] * fabs(x1) + sa[i2] * fabs(x2);
            double b1 = x1 * rot[3 * i1 + j1] + x2 * rot[3 * i2 + j1];
            double b2 = x1 * rot[3 * i1 + j2] + x2 * rot[3 * i2 + j2];
            double r2 = sb[j1] * fabs(b1) + sb[j2] * fabs(b2);
            double sep = fabs(x1 * p21[i1] + x2 * p21[i2]) - r1 - r2;
            if (sep > septol) return 0;
            if (sep - EDGE_BIAS * fabs(sep) > best && sep > face_sep) {
                best = sep;
                code = 6 + 3 * i + j;
            }
        }
    if (code < 0) return 0;
    if (code >= 6) { /* an edge axis nearly along the best face axis gives way to it */
        int i = (code - 6) / 3, j = (code - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        double ax[3];
        ax[i] = 0;
        ax[i1] = -rot[3 * i2 + j];
        ax[i2] = rot[3 * i1 + j];
        unit3(ax);
        double fd;
        if (face_code < 3) {
            fd = fabs(ax[face_code]);
        } else {
            int f = face_code - 3;
            fd = fabs(ax[0] * rot[f] + ax[1] * rot[3 + f] + ax[2] * rot[6 + f]);
        }
        if (fd > 0.99 && best < face_sep + 0.05 * fabs(face_sep) + 1e-15) code = face_code;
    }
    if (code >= 6)
        return edge_contact(a, b, rot, p21, (code - 6) / 3, (code - 6) % 3, septol, out);
    return face_contacts(a, b, rot, p21, p12, code, margin, out);
}
