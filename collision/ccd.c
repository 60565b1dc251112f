/* libccd narrow phase: MPR on support functions inflated by margin/2 each (as MuJoCo
 * does), so one penetration query also finds separated pairs within the margin:
 * dist = margin - depth. Pairs that can rest flat get extra points by rotating geom2
 * slightly about the two tangents through the first point and re-running MPR. */
#include <math.h>
#include <string.h>

#include <ccd/ccd.h>

#include "internal.h"

typedef struct {
    int type;
    const double *size;
    double pos[3];
    double mat[9];
    double inflate; /* margin / 2 */
} ccd_obj;

static void local_support(int type, const double *s, const double d[3], double x[3])
{
    double len;
    switch (type) {
    case CS_GEOM_SPHERE:
        len = sqrt(cs_dot3(d, d));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[0] * d[i] / len : 0;
        break;
    case CS_GEOM_CAPSULE:
        len = sqrt(cs_dot3(d, d));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[0] * d[i] / len : 0;
        x[2] += d[2] >= 0 ? s[1] : -s[1];
        break;
    case CS_GEOM_ELLIPSOID: {
        double sd[3] = {s[0] * d[0], s[1] * d[1], s[2] * d[2]};
        len = sqrt(cs_dot3(sd, sd));
        for (int i = 0; i < 3; i++)
            x[i] = len > 0 ? s[i] * sd[i] / len : 0;
        break;
    }
    case CS_GEOM_CYLINDER: {
        double rho = sqrt(d[0] * d[0] + d[1] * d[1]);
        x[0] = rho > 0 ? s[0] * d[0] / rho : 0;
        x[1] = rho > 0 ? s[0] * d[1] / rho : 0;
        x[2] = d[2] >= 0 ? s[1] : -s[1];
        break;
    }
    case CS_GEOM_BOX:
    default:
        for (int i = 0; i < 3; i++)
            x[i] = d[i] >= 0 ? s[i] : -s[i];
        break;
    }
}

void cs_support(const cs_shape *sh, const double d[3], double out[3])
{
    double dl[3], xl[3];
    cs_mulmtv(dl, sh->mat, d);
    local_support(sh->type, sh->size, dl, xl);
    cs_mulmv(out, sh->mat, xl);
    for (int i = 0; i < 3; i++)
        out[i] += sh->pos[i];
}

static void obj_support(const void *o, const ccd_vec3_t *dir, ccd_vec3_t *v)
{
    const ccd_obj *ob = o;
    double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, dl[3], xl[3], x[3];
    cs_mulmtv(dl, ob->mat, d);
    local_support(ob->type, ob->size, dl, xl);
    cs_mulmv(x, ob->mat, xl);
    double len = sqrt(cs_dot3(d, d));
    for (int i = 0; i < 3; i++)
        v->v[i] = x[i] + ob->pos[i] + (len > 0 ? ob->inflate * d[i] / len : 0);
}

static void obj_center(const void *o, ccd_vec3_t *c)
{
    const ccd_obj *ob = o;
    for (int i = 0; i < 3; i++)
        c->v[i] = ob->pos[i];
}

static void make_obj(ccd_obj *o, const cs_shape *s, double inflate)
{
    o->type = s->type;
    o->size = s->size;
    memcpy(o->pos, s->pos, sizeof o->pos);
    memcpy(o->mat, s->mat, sizeof o->mat);
    o->inflate = inflate;
}

static int mpr(const cs_collision_options *opt, const ccd_obj *o1, const ccd_obj *o2,
               double margin, double n[3], double p[3], double *dist)
{
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = obj_support;
    ccd.support2 = obj_support;
    ccd.center1 = obj_center;
    ccd.center2 = obj_center;
    ccd.max_iterations = (unsigned long)(opt->ccd_iterations > 0 ? opt->ccd_iterations : 50);
    ccd.mpr_tolerance = opt->ccd_tolerance > 0 ? opt->ccd_tolerance : 1e-6;
    ccd_real_t depth;
    ccd_vec3_t dir, pos;
    if (ccdMPRPenetration(o1, o2, &ccd, &depth, &dir, &pos) != 0)
        return 0;
    double len = sqrt(dir.v[0] * dir.v[0] + dir.v[1] * dir.v[1] + dir.v[2] * dir.v[2]);
    if (!(len > 0))
        return 0; /* touching exactly with an undefined normal */
    for (int i = 0; i < 3; i++) {
        n[i] = dir.v[i] / len;
        p[i] = pos.v[i];
    }
    *dist = margin - depth;
    return *dist <= margin;
}

/* rotation matrix about unit axis u by angle th, applied on the left: R * m */
static void rotate(double out[9], const double u[3], double th, const double m[9])
{
    double c = cos(th), s = sin(th), C = 1 - c, R[9];
    R[0] = c + u[0] * u[0] * C;
    R[1] = u[0] * u[1] * C - u[2] * s;
    R[2] = u[0] * u[2] * C + u[1] * s;
    R[3] = u[1] * u[0] * C + u[2] * s;
    R[4] = c + u[1] * u[1] * C;
    R[5] = u[1] * u[2] * C - u[0] * s;
    R[6] = u[2] * u[0] * C - u[1] * s;
    R[7] = u[2] * u[1] * C + u[0] * s;
    R[8] = c + u[2] * u[2] * C;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[3 * i + j] = R[3 * i] * m[j] + R[3 * i + 1] * m[3 + j] + R[3 * i + 2] * m[6 + j];
}

static int can_rest_flat(int t)
{
    return t == CS_GEOM_BOX || t == CS_GEOM_CYLINDER || t == CS_GEOM_CAPSULE;
}

int cs_convex_ccd(const cs_collision_options *opt, const cs_shape *a, const cs_shape *b,
                  double margin, cs_rawcon *out)
{
    ccd_obj o1, o2;
    double n[3], p[3], dist;
    make_obj(&o1, a, 0.5 * margin);
    make_obj(&o2, b, 0.5 * margin);
    if (!mpr(opt, &o1, &o2, margin, n, p, &dist))
        return 0;
    cs_setcon(out, n, p, dist);
    int cnt = 1;
    if (!opt->multiccd || !can_rest_flat(a->type) || !can_rest_flat(b->type))
        return cnt;

    /* Extra points: tilt geom2 by a small angle about each tangent through p. A flat
     * contact patch then touches at its rim; map that point back to the unperturbed pose
     * and correct its distance to first order (the tilt moved it by delta along n). */
    double fr[9] = {n[0], n[1], n[2], 0, 0, 0, 0, 0, 0};
    cs_make_frame(fr);
    double scale = 0;
    for (int i = 0; i < 3; i++)
        scale = fmax(scale, fmax(a->size[i], b->size[i]));
    const double eps = 1e-3, tol = 1e-3 * scale;
    for (int k = 0; k < 4; k++) {
        double u[3];
        for (int i = 0; i < 3; i++)
            u[i] = ((k & 1) ? -1 : 1) * fr[3 * (1 + (k >> 1)) + i];
        ccd_obj o2r = o2;
        double rel[3];
        rotate(o2r.mat, u, eps, b->mat);
        for (int i = 0; i < 3; i++)
            rel[i] = b->pos[i] - p[i];
        double rr[9], rrel[3];
        double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        rotate(rr, u, eps, I);
        cs_mulmv(rrel, rr, rel);
        for (int i = 0; i < 3; i++)
            o2r.pos[i] = p[i] + rrel[i];
        double nk[3], pk[3], dk;
        if (!mpr(opt, &o1, &o2r, margin, nk, pk, &dk))
            continue;
        /* undo the tilt for the point: x = p + R(-eps)(pk - p) */
        double rinv[9], d[3], x[3];
        rotate(rinv, u, -eps, I);
        for (int i = 0; i < 3; i++)
            d[i] = pk[i] - p[i];
        cs_mulmv(x, rinv, d);
        for (int i = 0; i < 3; i++)
            x[i] += p[i];
        double delta[3] = {pk[0] - x[0], pk[1] - x[1], pk[2] - x[2]};
        double dt = dk - cs_dot3(delta, n);
        if (dt > margin)
            continue;
        int dup = 0;
        for (int c = 0; c < cnt; c++) {
            double e[3] = {out[c].pos[0] - x[0], out[c].pos[1] - x[1], out[c].pos[2] - x[2]};
            if (cs_dot3(e, e) < tol * tol)
                dup = 1;
        }
        if (dup)
            continue;
        cs_setcon(out + cnt++, n, x, dt);
    }
    return cnt;
}
