/* <compiler fusestatic="true">: MuJoCo's FuseStatic (user_model.cc, XMLreference "compiler").
 * After each body's mass properties are compiled, every body without joints that is not a
 * mocap body goes into its parent, in depth-first order, unless something names it (an
 * exclude, a connect or weld between bodies, an adhesion actuator, a sensor's object or
 * reference, a camera's or light's target, a tuple, a skin's bone) or a force or torque
 * sensor sits on one of its sites. Its children hang from the parent in its place, its geoms,
 * sites, cameras and lights follow the parent's own (in the order the bodies were fused) with
 * their frames composed with its pose, and its mass and inertia join the parent's unless the
 * parent is the world. */
#include <math.h>
#include <string.h>

#include "inertia.h"
#include "mjcf_ir.h"

/* MuJoCo's compiler thresholds (mjMINVAL, mjEPS) */
#define FUSE_MINVAL 1e-15
#define FUSE_EPS 1e-14

/* (p, q) := (bp, bq) o (p, q), as MuJoCo's frameaccum (the product renormalized only when
 * off unit) */
static void compose(const double bp[3], const double bq[4], double p[3], double q[4])
{
    double R[9], r[3], t[4];
    cs_quat2mat(R, bq);
    for (int i = 0; i < 3; i++) r[i] = R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
    for (int i = 0; i < 3; i++) p[i] = bp[i] + r[i];
    cs_mulquat(t, bq, q);
    cs_mjcf_quat_renorm(t);
    memcpy(q, t, sizeof t);
}

/* the bodies something names (an exclude, a connect or weld between bodies, an adhesion
 * actuator, a sensor, a camera's or light's target, a tuple, a skin's bone): isref, and the
 * last of them in maxref */
typedef struct {
    const cs_mjcf *c;
    int *isref, maxref;
} refs;

static int note(void *ctx, const char *name)
{
    refs *R = ctx;
    int x = name ? cs_mjcf_find_body(R->c, name) : -1;
    if (x >= 0) {
        R->isref[x] = 1;
        if (x > R->maxref) R->maxref = x;
    }
    return 0;
}

static void find_refs(const cs_mjcf *c, refs *R)
{
    for (int i = 0; i < c->nexcl; i++) {
        note(R, c->excl[i].body1);
        note(R, c->excl[i].body2);
    }
    for (int i = 0; i < c->neq; i++) {
        const cs_eqir *E = &c->eq[i];
        if ((E->type == CS_EQ_CONNECT || E->type == CS_EQ_WELD) && !E->site) {
            note(R, E->obj1);
            note(R, E->obj2);
        }
    }
    for (int i = 0; i < c->nact; i++) note(R, c->act[i].body);
    for (int i = 0; i < c->nbodyref; i++) note(R, c->bodyref[i]);
    cs_mjcf_sensor_body_names(c, note, R);
    cs_mjcf_visual_targets(c, note, R);
}

/* Whether MuJoCo's compiler keeps body b, nlive bodies being left: it asks only of a named
 * body, and keeps it when a force or torque sensor is on one of its sites or when a lookup of
 * a named body fails with b's name taken out of its name table. That happens on b's own name,
 * and also on a body not yet reached whose number, as it was before any fusing, is past the
 * bodies left: the table keeps a body's old number until the pass reaches it, so after a
 * fusion every named body is kept until the pass reaches the last body something names. */
static int kept(const cs_mjcf *c, const refs *R, int b, int nlive)
{
    if (!c->body[b].name) return 0;
    return R->isref[b] || (R->maxref > b && R->maxref > nlive - 1) ||
           cs_mjcf_sensor_force_on_body(c, b);
}

/* MuJoCo's AccumulateInertia: body b's mass properties (pose (bp, bq) in p's frame) added
 * to p's: the combined centre of mass, the two tensors about it, principal axes */
static void accumulate(cs_mjcf *c, cs_mjcf_massprops *mp, int p, int b, const double bp[3],
                       const double bq[4])
{
    /* the two inertial frames in p's frame: p's own, b's through b's pose */
    double ip[2][3], iq[2][4], m[2] = {mp->mass[p], mp->mass[b]}, in[2][3];
    memcpy(ip[0], mp->ipos + 3 * p, sizeof ip[0]);
    memcpy(iq[0], mp->iquat + 4 * p, sizeof iq[0]);
    memcpy(ip[1], mp->ipos + 3 * b, sizeof ip[1]);
    memcpy(iq[1], mp->iquat + 4 * b, sizeof iq[1]);
    compose(bp, bq, ip[1], iq[1]);
    memcpy(in[0], mp->inert + 3 * p, sizeof in[0]);
    memcpy(in[1], mp->inert + 3 * b, sizeof in[1]);
    double M = m[0] + m[1], com[3];
    double *rp = mp->ipos + 3 * p, *rq = mp->iquat + 4 * p, *ri = mp->inert + 3 * p;
    mp->mass[p] = M;
    if (M < FUSE_MINVAL) {
        mp->mass[p] = 0;
        memset(rp, 0, 3 * sizeof *rp);
        memset(ri, 0, 3 * sizeof *ri);
        rq[0] = 1;
        rq[1] = rq[2] = rq[3] = 0;
        return;
    }
    for (int k = 0; k < 3; k++) com[k] = (m[0] * ip[0][k] + m[1] * ip[1][k]) / M;
    /* both tensors about the combined centre: R diag(I) R^T + m (|d|^2 E - d d^T) */
    double T[9] = {0};
    for (int j = 0; j < 2; j++) {
        double R[9], d[3];
        cs_quat2mat(R, iq[j]);
        for (int k = 0; k < 3; k++) d[k] = ip[j][k] - com[k];
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++) {
                double t = 0;
                for (int k = 0; k < 3; k++) t += R[3 * r + k] * in[j][k] * R[3 * s + k];
                T[3 * r + s] += t + m[j] * ((r == s ? d2 : 0) - d[r] * d[s]);
            }
    }
    double ev[3], q[4];
    cs_eig3(T, ev, q);
    if (ev[2] < FUSE_EPS)
        cs_mjcf_fail(c, c->body[b].line, "body", NULL, "fusing this static body into its "
                     "parent gives an inertia without positive principal moments (%g, %g, %g)",
                     ev[0], ev[1], ev[2]);
    memcpy(rp, com, sizeof com);
    memcpy(rq, q, sizeof q);
    memcpy(ri, ev, sizeof ev);
}

int *cs_mjcf_fuse_order(cs_mjcf *c, const cs_mjcf_fusemap *f, int n, const int *body)
{
    int *count = cs_mjcf_alloc(c, ((size_t)f->nbody + 1) * sizeof *count);
    int *perm = cs_mjcf_alloc(c, ((size_t)n + 1) * sizeof *perm);
    memset(count, 0, ((size_t)f->nbody + 1) * sizeof *count);
    for (int i = 0; i < n; i++) count[f->rank[body[i]] + 1]++;
    for (int r = 0; r < f->nbody; r++) count[r + 1] += count[r];
    for (int i = 0; i < n; i++) perm[count[f->rank[body[i]]]++] = i;
    return perm;
}

/* permute an array of n records of size es by perm (new i = old perm[i]) */
static void permute(cs_mjcf *c, void *arr, int n, size_t es, const int *perm)
{
    if (n <= 0) return;
    char *tmp = cs_mjcf_alloc(c, (size_t)n * es), *a = arr;
    for (int i = 0; i < n; i++) memcpy(tmp + (size_t)i * es, a + (size_t)perm[i] * es, es);
    memcpy(a, tmp, (size_t)n * es);
}

void cs_mjcf_fuse_static(cs_mjcf *c, cs_mjcf_massprops *mp)
{
    int nb = c->nbody;
    int *own = cs_mjcf_alloc(c, (size_t)nb * sizeof *own);   /* the kept body it ends in */
    int *to = cs_mjcf_alloc(c, (size_t)nb * sizeof *to);     /* that body's new number */
    int *moved = cs_mjcf_alloc(c, (size_t)nb * sizeof *moved);
    int *rank = cs_mjcf_alloc(c, (size_t)nb * sizeof *rank);
    double *pose = cs_mjcf_alloc(c, (size_t)nb * 7 * sizeof *pose);
    refs R = {c, cs_mjcf_alloc(c, (size_t)nb * sizeof *R.isref), -1};
    memset(R.isref, 0, (size_t)nb * sizeof *R.isref);
    find_refs(c, &R);
    own[0] = 0;
    moved[0] = 0;
    for (int b = 1, nlive = nb; b < nb; b++) {
        cs_bspec *B = &c->body[b];
        int p = own[B->parent];
        B->parent = p; /* a fused parent's children hang from where it went */
        moved[b] = !(kept(c, &R, b, nlive) || B->njnt || B->mocap);
        if (!moved[b]) {
            own[b] = b;
            continue;
        }
        own[b] = p;
        nlive--;
        memcpy(pose + 7 * b, B->pos, 3 * sizeof *pose);
        memcpy(pose + 7 * b + 3, B->quat, 4 * sizeof *pose);
        for (int k = b + 1; k < nb; k++)
            if (c->body[k].parent == b) compose(B->pos, B->quat, c->body[k].pos, c->body[k].quat);
        if (p != 0 && mp->mass[b] >= FUSE_MINVAL) accumulate(c, mp, p, b, B->pos, B->quat);
    }
    /* new numbers; an element's place: its final body first, then the body it came from
     * (a body's own before those fused into it, in the order they were) */
    int n = 0;
    for (int b = 0; b < nb; b++)
        if (own[b] == b) to[b] = n++;
    for (int b = 0; b < nb; b++) to[b] = to[own[b]];
    {
        int *cnt = cs_mjcf_alloc(c, ((size_t)n + 1) * sizeof *cnt);
        memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
        for (int b = 0; b < nb; b++) cnt[to[b] + 1]++;
        for (int k = 0; k < n; k++) cnt[k + 1] += cnt[k];
        for (int b = 0; b < nb; b++) rank[b] = cnt[to[b]]++;
    }
    cs_mjcf_fusemap F = {nb, to, moved, rank, pose};

    /* geoms (and their compiled masses), in their new order */
    int ng = c->ngeom;
    int *gb = cs_mjcf_alloc(c, ((size_t)ng + 1) * sizeof *gb);
    for (int i = 0; i < ng; i++) {
        cs_geomir *g = &c->geom[i];
        gb[i] = g->body;
        if (moved[g->body]) compose(pose + 7 * g->body, pose + 7 * g->body + 3, g->s.pos, g->s.quat);
        g->body = to[g->body];
    }
    int *perm = cs_mjcf_fuse_order(c, &F, ng, gb);
    permute(c, c->geom, ng, sizeof *c->geom, perm);
    permute(c, mp->gmass, ng, sizeof *mp->gmass, perm);
    permute(c, mp->ginertia, ng, 3 * sizeof *mp->ginertia, perm);
    permute(c, mp->gcounts, ng, sizeof *mp->gcounts, perm);

    /* sites */
    int ns = c->nsite;
    int *sb = cs_mjcf_alloc(c, ((size_t)ns + 1) * sizeof *sb);
    for (int i = 0; i < ns; i++) {
        cs_siteir *s = &c->site[i];
        sb[i] = s->body;
        if (moved[s->body]) compose(pose + 7 * s->body, pose + 7 * s->body + 3, s->pos, s->quat);
        s->body = to[s->body];
    }
    perm = cs_mjcf_fuse_order(c, &F, ns, sb);
    permute(c, c->site, ns, sizeof *c->site, perm);
    for (int cam = 0; cam < 2; cam++) {
        int *vb, nv = cs_mjcf_visual_bodies(c, cam, &vb);
        cs_mjcf_visual_fuse(c, &F, cam, cs_mjcf_fuse_order(c, &F, nv, vb));
    }
    for (int j = 0; j < c->njnt; j++) c->jnt[j].body = to[c->jnt[j].body];

    /* the kept bodies, renumbered, with their mass properties and geom ranges */
    for (int b = 0; b < nb; b++) {
        if (own[b] != b) continue;
        int k = to[b];
        cs_bspec B = c->body[b];
        if (b) B.parent = to[B.parent];
        c->body[k] = B;
        mp->mass[k] = mp->mass[b];
        memmove(mp->ipos + 3 * k, mp->ipos + 3 * b, 3 * sizeof *mp->ipos);
        memmove(mp->iquat + 4 * k, mp->iquat + 4 * b, 4 * sizeof *mp->iquat);
        memmove(mp->inert + 3 * k, mp->inert + 3 * b, 3 * sizeof *mp->inert);
    }
    c->nbody = n;
    for (int k = 0; k < n; k++) c->body[k].geom0 = c->body[k].ngeom = 0;
    for (int i = ng - 1; i >= 0; i--) {
        cs_bspec *B = &c->body[c->geom[i].body];
        B->geom0 = i;
        B->ngeom++;
    }
}
