/* <worldbody>: bodies, frames, and the geoms, sites, joints and inertials they hold, with
 * frames composed into their children's poses. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "inertia.h"
#include "spatial.h"

#include "mjcf_read.h"

/* ---- <worldbody> and <body> ------------------------------------------------------------- */
static void name_unique_body(cs_mjcf *c, xmlNode *n, const char *name)
{
    for (int i = 0; i < c->nbody; i++)
        if (c->body[i].name && strcmp(c->body[i].name, name) == 0)
            FAILN(c, n, "name", "duplicate body name '%s'", name);
}

const cs_xf CS_XF_IDENTITY = {{0, 0, 0}, {1, 0, 0, 0}};

/* out = F applied to the local pose (pos, quat) */
static void xf_apply(const cs_xf *F, double pos[3], double quat[4])
{
    double R[9], p[3];
    cs_quat2mat(R, F->quat);
    /* the turned offset summed first, then added: MuJoCo's rounding (mjuu_frameaccum) */
    for (int i = 0; i < 3; i++)
        p[i] = F->pos[i] + (R[3 * i] * pos[0] + R[3 * i + 1] * pos[1] + R[3 * i + 2] * pos[2]);
    memcpy(pos, p, sizeof p);
    cs_mulquat(quat, F->quat, quat);
    cs_mjcf_quat_renorm(quat);
}

static void parse_geom(cs_mjcf *c, xmlNode *n, int body, int cls, const cs_xf *F)
{
    cs_mjcf_check(c, n, CS_MJCF_GEOM_ATTRS, CS_MJCF_GEOM_VISUAL);
    int k = cs_mjcf_class_of(c, n, cls);
    cs_geomir g = {0};
    g.s = c->cls[k].geom;
    /* an element's own orientation replaces one from the class */
    g.s.quat[0] = 1; g.s.quat[1] = g.s.quat[2] = g.s.quat[3] = 0;
    double q[4];
    if (!cs_mjcf_frame(c, n, NULL, q)) memcpy(q, c->cls[k].geom.quat, sizeof q);
    cs_mjcf_read_geom_attrs(c, n, &g.s);
    memcpy(g.s.quat, q, sizeof q);
    g.name = cs_mjcf_attr(c, n, "name");
    if (g.name)
        for (int i = 0; i < c->ngeom; i++)
            if (c->geom[i].name && strcmp(c->geom[i].name, g.name) == 0)
                FAILN(c, n, "name", "duplicate geom name '%s'", g.name);
    g.body = body;
    g.line = cs_mjcf_line(n);
    memcpy(g.fpos, F->pos, sizeof g.fpos);
    memcpy(g.fquat, F->quat, sizeof g.fquat);
    cs_mjcf_grow(c, (void **)&c->geom, &c->capgeom, c->ngeom, sizeof *c->geom);
    c->geom[c->ngeom++] = g;
}

/* a site: a named frame on a body (spatial tendons pass through sites) */
static void parse_site(cs_mjcf *c, xmlNode *n, int body, int cls, const cs_xf *F)
{
    cs_mjcf_check(c, n, (const char *const[]){"name", "class", "pos", "quat", "axisangle", "euler",
                                           "xyaxes", "zaxis", "fromto", "type", "size", NULL},
                CS_MJCF_SITE_VISUAL);
    int k = cs_mjcf_class_of(c, n, cls); /* the class, or the enclosing childclass: its pose, zone */
    cs_siteir S = {0};
    S.type = c->cls[k].site_type;
    memcpy(S.size, c->cls[k].site_size, sizeof S.size);
    cs_mjcf_read_site_shape(c, n, &S.type, S.size);
    S.quat[0] = 1;
    double ft[6];
    if (cs_mjcf_nums(c, n, "fromto", ft, 6, 6)) {
        /* as a geom's: the middle, z from the second end to the first */
        int t = S.type;
        if (t != CS_GEOM_CAPSULE && t != CS_GEOM_CYLINDER && t != CS_GEOM_BOX &&
            t != CS_GEOM_ELLIPSOID)
            FAILN(c, n, "fromto", "fromto requires a capsule, cylinder, box or ellipsoid site");
        double p[3], v[3];
        memcpy(p, c->cls[k].site_pos, sizeof p); /* the class's counts, as in MuJoCo */
        cs_mjcf_nums(c, n, "pos", p, 3, 3);
        if (p[0] != 0 || p[1] != 0 || p[2] != 0) FAILN(c, n, "fromto", "both pos and fromto given");
        for (int i = 0; i < 3; i++) {
            v[i] = ft[i] - ft[3 + i];
            S.pos[i] = 0.5 * (ft[i] + ft[3 + i]);
        }
        if (cs_mjcf_norm3(v) / 2 < 1e-14) FAILN(c, n, "fromto", "the two end points coincide");
        cs_quat_z2vec(S.quat, v);
    } else {
        /* the class's pose where the site gives none */
        memcpy(S.pos, c->cls[k].site_pos, sizeof S.pos);
        memcpy(S.quat, c->cls[k].site_quat, sizeof S.quat);
        double q[4] = {1, 0, 0, 0};
        cs_mjcf_frame(c, n, S.pos, q);
        /* MuJoCo resolves an alternative form (the site's, else the class's) over a quat */
        if (cs_mjcf_has_alt_orientation(n)) memcpy(S.quat, q, sizeof q);
        else if (c->cls[k].site_alt) memcpy(S.quat, c->cls[k].site_altquat, sizeof S.quat);
        else if (cs_mjcf_attr(c, n, "quat")) memcpy(S.quat, q, sizeof q);
    }
    xf_apply(F, S.pos, S.quat);
    S.name = cs_mjcf_attr(c, n, "name");
    if (S.name)
        for (int i = 0; i < c->nsite; i++)
            if (c->site[i].name && strcmp(c->site[i].name, S.name) == 0)
                FAILN(c, n, "name", "duplicate site name '%s'", S.name);
    S.body = body;
    S.line = cs_mjcf_line(n);
    cs_mjcf_grow(c, (void **)&c->site, &c->capsite, c->nsite, sizeof *c->site);
    c->site[c->nsite++] = S;
}

static void parse_inertial(cs_mjcf *c, xmlNode *n, cs_bspec *b)
{
    cs_mjcf_check(c, n, (const char *const[]){"pos", "quat", "axisangle", "euler", "xyaxes",
                                            "zaxis", "mass", "diaginertia", "fullinertia", NULL},
                NULL);
    if (b->has_inertial) FAILN(c, n, NULL, "a body may have only one <inertial>");
    b->has_inertial = 1;
    b->iquat[0] = 1;
    if (!cs_mjcf_nums(c, n, "pos", b->ipos, 3, 3)) FAILN(c, n, "pos", "required attribute missing");
    cs_mjcf_frame(c, n, NULL, b->iquat);
    int alt_orient = 0; /* MuJoCo 3.12 takes fullinertia with no orientation, quat included */
    static const char *const ORIENT[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis", NULL};
    for (const char *const *f = ORIENT; *f; f++)
        if (xmlHasProp(n, (const xmlChar *)*f)) alt_orient = 1;
    if (!cs_mjcf_num1(c, n, "mass", &b->imass)) FAILN(c, n, "mass", "required attribute missing");
    if (b->imass < 0) FAILN(c, n, "mass", "must not be negative");
    double d[6];
    int hasd = cs_mjcf_nums(c, n, "diaginertia", d, 3, 3);
    if (hasd) {
        cs_mjcf_nonneg(c, n, "diaginertia", d, 3);
        memcpy(b->iinertia, d, 3 * sizeof *d);
    }
    if (cs_mjcf_nums(c, n, "fullinertia", d, 6, 6)) {
        if (hasd) FAILN(c, n, "fullinertia", "give diaginertia or fullinertia, not both");
        if (alt_orient)
            FAILN(c, n, "fullinertia", "fullinertia and an inertial orientation cannot both be given");
        /* ixx iyy izz ixy ixz iyz in the inertial frame: rotate to principal axes */
        double A[9] = {d[0], d[3], d[4], d[3], d[1], d[5], d[4], d[5], d[2]}, ev[3], pq[4];
        cs_eig3(A, ev, pq);
        if (ev[2] < 0) FAILN(c, n, "fullinertia", "inertia matrix is not positive semi-definite");
        memcpy(b->iinertia, ev, sizeof ev);
        memcpy(b->iquat, pq, sizeof pq); /* as MuJoCo: the principal frame replaces quat */
    } else if (!hasd) {
        FAILN(c, n, "diaginertia", "required attribute missing (diaginertia or fullinertia)");
    }
}

static void parse_joint(cs_mjcf *c, xmlNode *n, int body, int cls, int freejoint,
                        const cs_xf *F)
{
    cs_jointir J = {0};
    if (freejoint) {
        cs_mjcf_check(c, n, (const char *const[]){"name", "align", NULL},
                    (const char *const[]){"group", NULL});
        static const char *const ALIGN[] = {"false", "true", "auto", NULL};
        int al = cs_mjcf_keyword(c, n, "align", ALIGN);
        J.align = al == 1 || (al != 0 && c->alignfree);
        cs_mjcf_default_jspec(&J.s);
        J.s.type = CS_JNT_FREE;
        J.s.limited = CS_LIMITED_FALSE;
    } else {
        cs_mjcf_check(c, n, CS_MJCF_JOINT_ATTRS, CS_MJCF_JOINT_VISUAL);
        int k = cs_mjcf_class_of(c, n, cls);
        J.s = c->cls[k].joint;
        cs_mjcf_read_joint_attrs(c, n, &J.s);
        J.align = J.s.type == CS_JNT_FREE && c->alignfree;
    }
    if (F && J.s.type != CS_JNT_FREE) {
        /* inside a <frame>: its pose carries the position, and the axis of a hinge or slide
         * (a ball's axis is not used), into the body's frame, as MuJoCo's compiler does */
        double q[4] = {1, 0, 0, 0}, R[9], a[3];
        xf_apply(F, J.s.pos, q);
        cs_quat2mat(R, F->quat);
        for (int i = 0; i < 3; i++)
            a[i] = R[3 * i] * J.s.axis[0] + R[3 * i + 1] * J.s.axis[1] + R[3 * i + 2] * J.s.axis[2];
        memcpy(J.s.axis, a, sizeof a);
    }
    J.name = cs_mjcf_attr(c, n, "name");
    if (J.name)
        for (int i = 0; i < c->njnt; i++)
            if (c->jnt[i].name && strcmp(c->jnt[i].name, J.name) == 0)
                FAILN(c, n, "name", "duplicate joint name '%s'", J.name);
    J.body = body;
    J.line = cs_mjcf_line(n);
    cs_bspec *b = &c->body[body];
    if (b->njnt == 0) b->jnt0 = c->njnt;
    b->njnt++;
    cs_mjcf_grow(c, (void **)&c->jnt, &c->capjnt, c->njnt, sizeof *c->jnt);
    c->jnt[c->njnt++] = J;
}

static const char *const VISUAL_ELEMS[] = {"site", "camera", "light", NULL};

static void parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F);

static const char *const FRAME_ATTRS[] = {"name", "childclass", "pos", "quat", "axisangle",
                                          "euler", "xyaxes", "zaxis", NULL};

/* A <frame> composes its pose with the enclosing one and may set a childclass. */
static void enter_frame(cs_mjcf *c, xmlNode *n, const cs_xf *F, int *cls, cs_xf *out)
{
    cs_mjcf_check(c, n, FRAME_ATTRS, NULL);
    cs_mjcf_attr(c, n, "name"); /* a name only identifies it (for --set edits) */
    cs_xf L = CS_XF_IDENTITY;
    cs_mjcf_frame(c, n, L.pos, L.quat);
    *out = *F;
    double p[3], q[4];
    memcpy(p, L.pos, sizeof p);
    memcpy(q, L.quat, sizeof q);
    xf_apply(F, p, q);
    memcpy(out->pos, p, sizeof p);
    memcpy(out->quat, q, sizeof q);
    char *cc = cs_mjcf_attr(c, n, "childclass");
    if (cc) {
        int k = cs_mjcf_find_class(c, cc);
        if (k < 0) FAILN(c, n, "childclass", "unknown class '%s'", cc);
        *cls = k;
    }
}

/* The body's own items, frames included, in document order (geoms get contiguous ids, as
 * MuJoCo numbers them). */
void cs_mjcf_parse_items(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F, int in_frame)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (strcmp(en, "geom") == 0) parse_geom(c, ch, me, cls, F);
        else if (strcmp(en, "frame") == 0) {
            int k = cls;
            cs_xf G;
            enter_frame(c, ch, F, &k, &G);
            cs_mjcf_parse_items(c, ch, me, k, &G, 1);
        } else if (strcmp(en, "inertial") == 0) {
            if (me == 0) FAILN(c, ch, NULL, "the world body has no inertial");
            if (in_frame) FAILN(c, ch, NULL, "not allowed inside <frame>");
            parse_inertial(c, ch, &c->body[me]);
        } else if (strcmp(en, "joint") == 0 || strcmp(en, "freejoint") == 0) {
            if (me == 0) FAILN(c, ch, NULL, "the world body cannot have joints");
            parse_joint(c, ch, me, cls, en[0] == 'f', in_frame ? F : NULL);
        } else if (strcmp(en, "body") == 0) continue;
        else if (strcmp(en, "site") == 0) parse_site(c, ch, me, cls, F);
        else if (strcmp(en, "attach") == 0) cs_mjcf_attach(c, ch, me, F, 0);
        else if (cs_mjcf_visual_item(c, ch, me, cls, F->pos, F->quat)) continue;
        else if (cs_mjcf_in_list(en, VISUAL_ELEMS)) {
            cs_mjcf_note_ignored(c, en);
            cs_mjcf_mark_ignored(ch);
        }
        else FAILN(c, ch, NULL, "element not supported here (bodies, joints, geoms, "
                                "inertials and frames only)");
    }
}

/* Child bodies depth-first in document order, frames included. */
void cs_mjcf_parse_children(cs_mjcf *c, xmlNode *n, int me, int cls, const cs_xf *F)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(cs_mjcf_ename(ch), "body") == 0) parse_body(c, ch, me, cls, F);
        else if (strcmp(cs_mjcf_ename(ch), "attach") == 0) cs_mjcf_attach(c, ch, me, F, 1);
        else if (strcmp(cs_mjcf_ename(ch), "frame") == 0) {
            int k = cls;
            cs_xf G;
            enter_frame(c, ch, F, &k, &G);
            cs_mjcf_parse_children(c, ch, me, k, &G);
        }
    }
}

static void parse_body_children(cs_mjcf *c, xmlNode *n, int me, int cls)
{
    c->body[me].geom0 = c->ngeom;
    cs_mjcf_parse_items(c, n, me, cls, &CS_XF_IDENTITY, 0);
    c->body[me].ngeom = c->ngeom - c->body[me].geom0;
    cs_mjcf_parse_children(c, n, me, cls, &CS_XF_IDENTITY);
}

static void parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F)
{
    cs_mjcf_check(c, n, (const char *const[]){"name", "childclass", "pos", "quat", "axisangle",
                                            "euler", "xyaxes", "zaxis", "mocap", "gravcomp",
                                            "sleep", "simple", NULL},
                (const char *const[]){"user", NULL});
    cs_bspec b = {0};
    b.quat[0] = 1;
    b.iquat[0] = 1;
    b.parent = parent;
    b.line = cs_mjcf_line(n);
    b.name = cs_mjcf_attr(c, n, "name");
    if (b.name) name_unique_body(c, n, b.name);
    cs_mjcf_frame(c, n, b.pos, b.quat);
    xf_apply(F, b.pos, b.quat);
    if (cs_mjcf_bool(c, n, "mocap", &b.mocap) && b.mocap && parent != 0)
        FAILN(c, n, "mocap", "a mocap body must be a child of the world body");
    cs_mjcf_num1(c, n, "gravcomp", &b.gravcomp);
    /* MuJoCo 3.12's sleep policy (the compiler checks it is on a tree's root), and whether a
     * body that qualifies as simple is (its mass matrix block the constant diagonal dof_M0) */
    static const char *const SLEEP[] = {"auto", "never", "allowed", "init", NULL};
    static const int POLICY[] = {CS_SLEEP_AUTO, CS_SLEEP_NEVER, CS_SLEEP_ALLOWED, CS_SLEEP_INIT};
    static const char *const SIMPLE[] = {"false", "auto", NULL};
    int sl = cs_mjcf_keyword(c, n, "sleep", SLEEP);
    b.sleep = sl >= 0 ? POLICY[sl] : CS_SLEEP_AUTO;
    b.nosimple = cs_mjcf_keyword(c, n, "simple", SIMPLE) == 0;
    char *cc = cs_mjcf_attr(c, n, "childclass");
    if (cc) {
        int k = cs_mjcf_find_class(c, cc);
        if (k < 0) FAILN(c, n, "childclass", "unknown class '%s'", cc);
        cls = k;
    }
    cs_mjcf_grow(c, (void **)&c->body, &c->capbody, c->nbody, sizeof *c->body);
    int me = c->nbody++;
    c->body[me] = b;
    parse_body_children(c, n, me, cls);
}

void cs_mjcf_parse_body(cs_mjcf *c, xmlNode *n, int parent, int cls, const cs_xf *F)
{
    parse_body(c, n, parent, cls, F);
}
