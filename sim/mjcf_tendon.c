/* Fixed tendons and equality constraints as MuJoCo's compiler resolves them: defaults,
 * names to indices, limits (autolimits), the checks, and the model's arrays. What needs
 * the reference pose (tendon_length0, the connect anchor in body2, the weld's relative
 * pose) is computed with the inverse weights (invweight.c). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "mjcf_ir.h"

#define TFAIL(c, T, attr, ...) \
    cs_mjcf_fail((c), (T)->line, (T)->spatial ? "spatial" : "fixed", (attr), __VA_ARGS__)
#define EFAIL(c, E, attr, ...) cs_mjcf_fail((c), (E)->line, (E)->tag, (attr), __VA_ARGS__)

static const double SOLREF[2] = {0.02, 1}, SOLIMP[5] = {0.9, 0.95, 0.001, 0.5, 2};

void cs_mjcf_default_tspec(cs_tspec *t)
{
    memset(t, 0, sizeof *t);
    t->limited = CS_LIMITED_AUTO;
    t->springlength[0] = t->springlength[1] = -1;
    memcpy(t->solreflimit, SOLREF, sizeof SOLREF);
    memcpy(t->solreffriction, SOLREF, sizeof SOLREF);
    memcpy(t->solimplimit, SOLIMP, sizeof SOLIMP);
    memcpy(t->solimpfriction, SOLIMP, sizeof SOLIMP);
}

void cs_mjcf_default_espec(cs_espec *e)
{
    e->active = 1;
    memcpy(e->solref, SOLREF, sizeof SOLREF);
    memcpy(e->solimp, SOLIMP, sizeof SOLIMP);
}

int cs_mjcf_find_tendon(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->nten; i++)
        if (c->ten[i].name && strcmp(c->ten[i].name, name) == 0) return i;
    return -1;
}

static int find_joint(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->njnt; i++)
        if (c->jnt[i].name && strcmp(c->jnt[i].name, name) == 0) return i;
    return -1;
}

static int find_body(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->nbody; i++)
        if (c->body[i].name && strcmp(c->body[i].name, name) == 0) return i;
    return -1;
}

/* a body moves when it or one of its ancestors has a joint */
static int body_moves(const cs_mjcf *c, int b)
{
    for (; b > 0; b = c->body[b].parent)
        if (c->body[b].njnt > 0) return 1;
    return 0;
}

/* the kinematic tree of a joint: its body's child of the world (trees split there) */
static int root_of(const cs_mjcf *c, int body)
{
    while (body > 0 && c->body[body].parent > 0) body = c->body[body].parent;
    return body;
}

static int find_site(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->nsite; i++)
        if (c->site[i].name && strcmp(c->site[i].name, name) == 0) return i;
    return -1;
}

static int find_geom(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->ngeom; i++)
        if (c->geom[i].name && strcmp(c->geom[i].name, name) == 0) return i;
    return -1;
}

/* the body that moves a tendon's k-th joint, site or geom (-1: a pulley) */
static int wrap_body(const cs_mjcf *c, const cs_tendonir *T, int k)
{
    if (!T->spatial) return c->jnt[T->jid[k]].body;
    if (T->kind[k] == CS_WRAP_PULLEY) return -1;
    return T->kind[k] == CS_WRAP_SITE ? c->site[T->jid[k]].body : c->geom[T->jid[k]].body;
}

/* A spatial tendon's path as MuJoCo's compiler checks it: names to sites and geoms (a
 * sphere or a cylinder, with an optional sidesite), then the order: a geom between two
 * sites, a pulley neither last nor next to another, every site beside something
 * that is not a pulley, no site twice in a row. */
static void resolve_path(cs_mjcf *c, cs_tendonir *T)
{
    int n = T->njoint;
    for (int k = 0; k < n; k++) {
        int ln = T->jline[k];
        T->jid[k] = -1;
        if (T->kind[k] == CS_WRAP_SITE) {
            if ((T->jid[k] = find_site(c, T->joint[k])) < 0)
                cs_mjcf_fail(c, ln, "site", "site", "no site named '%s'", T->joint[k]);
        } else if (T->kind[k] != CS_WRAP_PULLEY) {
            int g = find_geom(c, T->joint[k]);
            if (g < 0) cs_mjcf_fail(c, ln, "geom", "geom", "no geom named '%s'", T->joint[k]);
            int ty = c->geom[g].s.type;
            if (ty != CS_GEOM_SPHERE && ty != CS_GEOM_CYLINDER)
                cs_mjcf_fail(c, ln, "geom", "geom", "geom '%s' is not a sphere or a cylinder "
                             "(a tendon wraps those only)", T->joint[k]);
            T->jid[k] = g;
            T->kind[k] = ty == CS_GEOM_CYLINDER ? CS_WRAP_CYLINDER : CS_WRAP_SPHERE;
            if (T->side[k] && (T->sideid[k] = find_site(c, T->side[k])) < 0)
                cs_mjcf_fail(c, ln, "geom", "sidesite", "no site named '%s'", T->side[k]);
        }
    }
    for (int k = 0; k < n; k++) {
        int ln = T->jline[k], ty = T->kind[k];
        int prev = k > 0 ? T->kind[k - 1] : -1, next = k + 1 < n ? T->kind[k + 1] : -1;
        if (ty == CS_WRAP_PULLEY) {
            if (prev == CS_WRAP_PULLEY)
                cs_mjcf_fail(c, ln, "pulley", NULL, "two pulleys in a row in the tendon's path");
            if (k == n - 1)
                cs_mjcf_fail(c, ln, "pulley", NULL, "a tendon's path cannot end with a pulley");
        } else if (ty == CS_WRAP_SITE) {
            if ((prev == -1 || prev == CS_WRAP_PULLEY) && (next == -1 || next == CS_WRAP_PULLEY))
                cs_mjcf_fail(c, ln, "site", NULL, "a site in a tendon's path needs a neighbour "
                             "that is not a pulley");
            if (next == CS_WRAP_SITE && T->jid[k] == T->jid[k + 1])
                cs_mjcf_fail(c, T->jline[k + 1], "site", "site", "site '%s' is repeated",
                             T->joint[k]);
        } else if (prev != CS_WRAP_SITE || next != CS_WRAP_SITE) {
            cs_mjcf_fail(c, ln, "geom", NULL, "a wrapped geom must stand between two sites in "
                         "the tendon's path");
        }
    }
}

/* the distinct trees a tendon's joints (sites) move, added to t[] (n so far); returns the
 * count */
static int tendon_trees(const cs_mjcf *c, const cs_tendonir *T, int *t, int n)
{
    for (int k = 0; k < T->njoint; k++) {
        int b = wrap_body(c, T, k);
        if (T->spatial && (b < 0 || !body_moves(c, b))) continue;
        int r = root_of(c, b), seen = 0;
        for (int i = 0; i < n; i++) seen |= t[i] == r;
        if (!seen && n < 8) t[n++] = r;
    }
    return n;
}

void cs_mjcf_resolve_tendons(cs_mjcf *c)
{
    for (int i = 0; i < c->nten; i++) {
        cs_tendonir *T = &c->ten[i];
        cs_tspec *s = &T->s;
        if (T->spatial) resolve_path(c, T);
        for (int k = 0; !T->spatial && k < T->njoint; k++) {
            int j = find_joint(c, T->joint[k]);
            if (j < 0)
                cs_mjcf_fail(c, T->jline[k], "joint", "joint", "no joint named '%s'", T->joint[k]);
            int ty = c->jnt[j].s.type;
            if (ty != CS_JNT_HINGE && ty != CS_JNT_SLIDE)
                cs_mjcf_fail(c, T->jline[k], "joint", "joint", "a fixed tendon's joint must be "
                             "a hinge or a slide ('%s' is a %s joint)", T->joint[k],
                             ty == CS_JNT_FREE ? "free" : "ball");
            for (int q = 0; q < k; q++)
                if (T->jid[q] == j)
                    cs_mjcf_fail(c, T->jline[k], "joint", "joint", "joint '%s' appears twice "
                                 "in the tendon", T->joint[k]);
            T->jid[k] = j;
        }
        if (s->armature != 0)
            TFAIL(c, T, "armature", "tendon armature is not supported");
        int has_range = s->range[0] != 0 || s->range[1] != 0;
        if (s->limited == CS_LIMITED_AUTO) {
            if (!c->autolimits && has_range)
                TFAIL(c, T, "limited", "range is given with compiler autolimits=\"false\": set "
                                       "limited");
            s->limited = has_range ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
        if (s->limited && !(s->range[0] < s->range[1]))
            TFAIL(c, T, "range", "a limited tendon needs range min < max (got %g %g)",
                  s->range[0], s->range[1]);
        if (s->springlength[0] > s->springlength[1])
            TFAIL(c, T, "springlength", "springlength min %g is above max %g",
                  s->springlength[0], s->springlength[1]);
        int t[8];
        if ((s->limited || s->frictionloss > 0) && tendon_trees(c, T, t, 0) > 2)
            TFAIL(c, T, NULL, "a limited tendon or one with frictionloss may move at most two "
                              "kinematic trees here (its rows have two sides)");
    }
    for (int i = 0; i < c->neq; i++) {
        cs_eqir *E = &c->eq[i];
        const char *a1 = E->type == CS_EQ_JOINT ? "joint1" : E->type == CS_EQ_TENDON ? "tendon1"
                                                                                     : "body1";
        const char *a2 = E->type == CS_EQ_JOINT ? "joint2" : E->type == CS_EQ_TENDON ? "tendon2"
                                                                                     : "body2";
        const char *what = E->type == CS_EQ_JOINT ? "joint" : E->type == CS_EQ_TENDON ? "tendon"
                                                                                     : "body";
        int (*find)(const cs_mjcf *, const char *) =
            E->type == CS_EQ_JOINT ? find_joint : E->type == CS_EQ_TENDON ? cs_mjcf_find_tendon
                                                                          : find_body;
        if (E->site) {
            a1 = "site1", a2 = "site2", what = "site", find = find_site;
        }
        E->id1 = find(c, E->obj1);
        if (E->id1 < 0) EFAIL(c, E, a1, "no %s named '%s'", what, E->obj1);
        E->id2 = E->obj2 ? find(c, E->obj2) : (E->type <= CS_EQ_WELD ? 0 : -1);
        if (E->obj2 && E->id2 < 0) EFAIL(c, E, a2, "no %s named '%s'", what, E->obj2);
        if (E->type <= CS_EQ_WELD && E->id1 == E->id2)
            EFAIL(c, E, a2, "%s and %s are the same %s", a1, a2, what);
        if (E->type == CS_EQ_JOINT) {
            for (int k = 0; k < 2; k++) {
                int j = k ? E->id2 : E->id1;
                if (j < 0) continue;
                int ty = c->jnt[j].s.type;
                if (ty != CS_JNT_HINGE && ty != CS_JNT_SLIDE)
                    EFAIL(c, E, k ? a2 : a1, "a joint equality couples hinge and slide joints "
                          "only");
            }
            if (E->id1 == E->id2) EFAIL(c, E, a2, "joint1 and joint2 are the same joint");
        }
        if (E->type == CS_EQ_TENDON) {
            int t[8], n = tendon_trees(c, &c->ten[E->id1], t, 0);
            if (E->id2 >= 0) n = tendon_trees(c, &c->ten[E->id2], t, n);
            if (n > 2)
                EFAIL(c, E, NULL, "the tendons move more than two kinematic trees (a row has two "
                                  "sides here)");
            if (E->id1 == E->id2) EFAIL(c, E, a2, "tendon1 and tendon2 are the same tendon");
            /* MuJoCo 3.12 stops at a tendon equality when sleeping is on */
            if (c->opt.enableflags & CS_ENBL_SLEEP)
                EFAIL(c, E, NULL, "a tendon equality with <flag sleep=\"enable\">: MuJoCo 3.12 "
                                  "does not support it");
        }
        if (E->type == CS_EQ_WELD && E->has_relpose) {
            double *q = E->relpose + 3;
            double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            for (int k = 0; k < 4; k++) q[k] /= l;
        }
    }
}

static char *dupname(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cs_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void cs_mjcf_tendon_sizes(const cs_mjcf *c, cs_model *m)
{
    int nw = 0;
    for (int i = 0; i < c->nten; i++) nw += c->ten[i].njoint;
    m->ntendon = c->nten;
    m->nwrap = nw;
    m->neq = c->neq;
    m->nsite = c->nsite;
}

int cs_mjcf_build_tendons(const cs_mjcf *c, cs_model *m)
{
    int nt = c->nten, ne = c->neq;
    int oom = 0;
    for (int i = 0; i < c->nsite; i++) {
        const cs_siteir *S = &c->site[i];
        m->site_bodyid[i] = S->body;
        memcpy(m->site_pos + 3 * i, S->pos, 3 * sizeof(double));
        memcpy(m->site_quat + 4 * i, S->quat, 4 * sizeof(double));
        m->site_type[i] = S->type;
        memcpy(m->site_size + 3 * i, S->size, 3 * sizeof(double));
        if (S->name && !(m->site_name[i] = dupname(S->name))) oom = 1;
    }
    for (int i = 0, w = 0; i < nt; i++) {
        const cs_tendonir *T = &c->ten[i];
        const cs_tspec *s = &T->s;
        m->tendon_adr[i] = w;
        m->tendon_num[i] = T->njoint;
        for (int k = 0; k < T->njoint; k++, w++) {
            m->wrap_type[w] = T->kind[k];
            m->wrap_objid[w] = T->jid[k];
            m->wrap_prm[w] = T->kind[k] == CS_WRAP_SPHERE || T->kind[k] == CS_WRAP_CYLINDER
                                 ? T->sideid[k] : T->coef[k];
        }
        m->tendon_limited[i] = s->limited == CS_LIMITED_TRUE;
        memcpy(m->tendon_range + 2 * i, s->range, 2 * sizeof(double));
        m->tendon_margin[i] = s->margin;
        memcpy(m->tendon_solref_lim + 2 * i, s->solreflimit, 2 * sizeof(double));
        memcpy(m->tendon_solimp_lim + 5 * i, s->solimplimit, 5 * sizeof(double));
        memcpy(m->tendon_solref_fri + 2 * i, s->solreffriction, 2 * sizeof(double));
        memcpy(m->tendon_solimp_fri + 5 * i, s->solimpfriction, 5 * sizeof(double));
        m->tendon_frictionloss[i] = s->frictionloss;
        m->tendon_stiffness[i] = s->stiffness[0];
        m->tendon_damping[i] = s->damping[0];
        memcpy(m->tendon_stiffnesspoly + CS_NPOLY * i, s->stiffness + 1, CS_NPOLY * sizeof(double));
        memcpy(m->tendon_dampingpoly + CS_NPOLY * i, s->damping + 1, CS_NPOLY * sizeof(double));
        /* negative: the length at qpos0, set with it (invweight.c) */
        memcpy(m->tendon_lengthspring + 2 * i, s->springlength, 2 * sizeof(double));
        if (T->name && !(m->tendon_name[i] = dupname(T->name))) oom = 1;
    }
    for (int i = 0; i < ne; i++) {
        const cs_eqir *E = &c->eq[i];
        double *dt = m->eq_data + CS_NEQDATA * i;
        m->eq_type[i] = E->type;
        m->eq_obj1id[i] = E->id1;
        m->eq_obj2id[i] = E->id2;
        m->eq_objtype[i] = E->type == CS_EQ_JOINT    ? CS_OBJ_JOINT
                           : E->type == CS_EQ_TENDON ? CS_OBJ_TENDON
                           : E->site                 ? CS_OBJ_SITE
                                                     : CS_OBJ_BODY;
        m->eq_active0[i] = E->s.active;
        memcpy(m->eq_solref + 2 * i, E->s.solref, 2 * sizeof(double));
        memcpy(m->eq_solimp + 5 * i, E->s.solimp, 5 * sizeof(double));
        if (E->type == CS_EQ_CONNECT && E->site) {
            memset(dt, 0, CS_NEQDATA * sizeof(double)); /* unused: the sites are the anchors */
        } else if (E->type == CS_EQ_CONNECT) {
            memcpy(dt, E->anchor, 3 * sizeof(double)); /* data[3..5]: at qpos0 */
        } else if (E->type == CS_EQ_WELD) {
            memcpy(dt, E->anchor, 3 * sizeof(double));
            memcpy(dt + 3, E->relpose, 7 * sizeof(double)); /* quat 0: at qpos0 */
            dt[10] = E->torquescale;
        } else {
            memcpy(dt, E->polycoef, 5 * sizeof(double));
        }
        if (E->name && !(m->eq_name[i] = dupname(E->name))) oom = 1;
    }
    return oom ? -1 : 0;
}
