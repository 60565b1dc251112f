/* Fixed tendons and equality constraints as MuJoCo's compiler resolves them: defaults,
 * names to indices, limits (autolimits), the checks, and the model's arrays. What needs
 * the reference pose (tendon_length0, the connect anchor in body2, the weld's relative
 * pose) is computed with the inverse weights (invweight.c). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "mjcf_read.h"

#define TFAIL(c, T, attr, ...) \
    cs_mjcf_fail((c), (T)->line, (T)->spatial ? "spatial" : "fixed", (attr), __VA_ARGS__)
#define EFAIL(c, E, attr, ...) cs_mjcf_fail((c), (E)->line, (E)->tag, (attr), __VA_ARGS__)

static const double SOLREF[2] = {0.02, 1}, SOLIMP[5] = {0.9, 0.95, 0.001, 0.5, 2};

void cs_mjcf_default_tspec(cs_tspec *t)
{
    memset(t, 0, sizeof *t);
    t->limited = CS_LIMITED_AUTO;
    t->actfrclimited = CS_LIMITED_AUTO;
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
            if ((T->jid[k] = cs_mjcf_find_site(c, T->joint[k])) < 0)
                cs_mjcf_fail(c, ln, "site", "site", "no site named '%s'", T->joint[k]);
        } else if (T->kind[k] != CS_WRAP_PULLEY) {
            int g = cs_mjcf_find_geom(c, T->joint[k]);
            if (g < 0) cs_mjcf_fail(c, ln, "geom", "geom", "no geom named '%s'", T->joint[k]);
            int ty = c->geom[g].s.type;
            if (ty != CS_GEOM_SPHERE && ty != CS_GEOM_CYLINDER)
                cs_mjcf_fail(c, ln, "geom", "geom", "geom '%s' is not a sphere or a cylinder "
                             "(a tendon wraps those only)", T->joint[k]);
            T->jid[k] = g;
            T->kind[k] = ty == CS_GEOM_CYLINDER ? CS_WRAP_CYLINDER : CS_WRAP_SPHERE;
            if (T->side[k] && (T->sideid[k] = cs_mjcf_find_site(c, T->side[k])) < 0)
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

void cs_mjcf_resolve_tendons(cs_mjcf *c)
{
    for (int i = 0; i < c->nten; i++) {
        cs_tendonir *T = &c->ten[i];
        cs_tspec *s = &T->s;
        if (T->spatial) resolve_path(c, T);
        for (int k = 0; !T->spatial && k < T->njoint; k++) {
            int j = cs_mjcf_find_joint(c, T->joint[k]);
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
        for (int k = 0; s->armature != 0 && T->spatial && k < T->njoint; k++)
            if (T->kind[k] == CS_WRAP_SPHERE || T->kind[k] == CS_WRAP_CYLINDER)
                TFAIL(c, T, "armature", "tendon armature on a tendon that wraps a geom (its "
                                        "Jacobian's rate is not defined there, as in MuJoCo)");
        int has_range = s->range[0] != 0 || s->range[1] != 0;
        if (s->limited == CS_LIMITED_AUTO) {
            if (!c->autolimits && has_range)
                TFAIL(c, T, "limited", "range is given with compiler autolimits=\"false\": set "
                                       "limited");
            s->limited = has_range ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
        /* actuatorfrcrange: MuJoCo's rules (auto follows it under autolimits; it must hold 0) */
        int has_afr = s->actfrcrange[0] != 0 || s->actfrcrange[1] != 0;
        if (s->actfrclimited == CS_LIMITED_AUTO) {
            if (!c->autolimits && has_afr)
                TFAIL(c, T, "actuatorfrclimited", "actuatorfrcrange is given with compiler "
                      "autolimits=\"false\": set actuatorfrclimited");
            s->actfrclimited = has_afr ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
        }
        if (s->actfrclimited == CS_LIMITED_TRUE &&
            (!(s->actfrcrange[0] < s->actfrcrange[1]) || s->actfrcrange[0] > 0 ||
             s->actfrcrange[1] < 0))
            TFAIL(c, T, "actuatorfrcrange", "a limited actuator force range needs min < max "
                  "with 0 between them (got %g %g)", s->actfrcrange[0], s->actfrcrange[1]);
        if (s->limited && !(s->range[0] < s->range[1]))
            TFAIL(c, T, "range", "a limited tendon needs range min < max (got %g %g)",
                  s->range[0], s->range[1]);
        if (s->springlength[0] > s->springlength[1])
            TFAIL(c, T, "springlength", "springlength min %g is above max %g",
                  s->springlength[0], s->springlength[1]);
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
            E->type == CS_EQ_JOINT ? cs_mjcf_find_joint : E->type == CS_EQ_TENDON ? cs_mjcf_find_tendon
                                                                          : cs_mjcf_find_body;
        if (E->site) {
            a1 = "site1", a2 = "site2", what = "site", find = cs_mjcf_find_site;
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
        m->tendon_armature[i] = s->armature;
        m->tendon_actfrclimited[i] = s->actfrclimited == CS_LIMITED_TRUE;
        memcpy(m->tendon_actfrcrange + 2 * i, s->actfrcrange, 2 * sizeof(double));
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

/* ---- reading <tendon> ------------------------------------------------------------------ */
const char *const CS_MJCF_TENDON_ATTRS[] = {"name", "class", "limited", "range", "margin",
    "frictionloss", "stiffness", "damping", "springlength", "armature", "solreflimit",
    "solimplimit", "solreffriction", "solimpfriction", "actuatorfrclimited",
    "actuatorfrcrange", NULL};
const char *const CS_MJCF_TENDON_VISUAL[] = {"group", "user", "rgba", "width", "material", NULL};

void cs_mjcf_read_tendon_attrs(cs_mjcf *c, xmlNode *n, cs_tspec *t)
{
    int k = cs_mjcf_keyword(c, n, "limited", CS_MJCF_LIMITED);
    if (k >= 0) t->limited = k;
    cs_mjcf_nums(c, n, "range", t->range, 2, 2);
    double v, sl[2], si[5];
    if (cs_mjcf_num1(c, n, "margin", &v)) t->margin = v;
    if (cs_mjcf_num1(c, n, "frictionloss", &v)) { cs_mjcf_nonneg(c, n, "frictionloss", &v, 1); t->frictionloss = v; }
    cs_mjcf_poly_coef(c, n, "stiffness", t->stiffness);
    cs_mjcf_poly_coef(c, n, "damping", t->damping);
    if (cs_mjcf_num1(c, n, "armature", &v)) { cs_mjcf_nonneg(c, n, "armature", &v, 1); t->armature = v; }
    if ((k = cs_mjcf_nums(c, n, "springlength", sl, 1, 2))) {
        t->springlength[0] = sl[0];
        t->springlength[1] = k == 2 ? sl[1] : sl[0];
    }
    cs_mjcf_nums(c, n, "solreflimit", t->solreflimit, 1, 2);
    cs_mjcf_nums(c, n, "solreffriction", t->solreffriction, 1, 2);
    if ((k = cs_mjcf_nums(c, n, "solimplimit", si, 1, 5))) {
        cs_mjcf_solimp_check(c, n, "solimplimit", si);
        memcpy(t->solimplimit, si, (size_t)k * sizeof *si);
    }
    if ((k = cs_mjcf_nums(c, n, "solimpfriction", si, 1, 5))) {
        cs_mjcf_solimp_check(c, n, "solimpfriction", si);
        memcpy(t->solimpfriction, si, (size_t)k * sizeof *si);
    }
    if ((k = cs_mjcf_keyword(c, n, "actuatorfrclimited", CS_MJCF_LIMITED)) >= 0)
        t->actfrclimited = k;
    cs_mjcf_nums(c, n, "actuatorfrcrange", t->actfrcrange, 2, 2);
}

void cs_mjcf_parse_tendons(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        int spatial = strcmp(en, "spatial") == 0;
        if (!spatial && strcmp(en, "fixed") != 0)
            FAILN(c, ch, NULL, "unknown element inside <tendon>");
        cs_mjcf_check(c, ch, CS_MJCF_TENDON_ATTRS, CS_MJCF_TENDON_VISUAL);
        cs_tendonir T = {0};
        T.s = c->cls[cs_mjcf_class_of(c, ch, c->rootcls)].tendon;
        cs_mjcf_read_tendon_attrs(c, ch, &T.s);
        T.name = cs_mjcf_attr(c, ch, "name");
        T.line = cs_mjcf_line(ch);
        T.spatial = spatial;
        if (T.name)
            for (int i = 0; i < c->nten; i++)
                if (c->ten[i].name && strcmp(c->ten[i].name, T.name) == 0)
                    FAILN(c, ch, "name", "duplicate tendon name '%s'", T.name);
        int nj = 0;
        for (xmlNode *j = ch->children; j; j = j->next)
            if (j->type == XML_ELEMENT_NODE) nj++;
        if (!nj && !spatial) FAILN(c, ch, NULL, "a fixed tendon needs at least one <joint>");
        if (nj < 2 && spatial)
            FAILN(c, ch, NULL, "a spatial tendon's path needs at least two elements");
        T.joint = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.joint);
        T.coef = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.coef);
        T.jline = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.jline);
        T.jid = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.jid);
        T.kind = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.kind);
        T.side = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.side);
        T.sideid = cs_mjcf_alloc(c, (size_t)nj * sizeof *T.sideid);
        for (xmlNode *j = ch->children; j; j = j->next) {
            if (j->type != XML_ELEMENT_NODE) continue;
            int k = T.njoint;
            T.side[k] = NULL;
            T.sideid[k] = -1;
            T.coef[k] = 0;
            T.jline[k] = cs_mjcf_line(j);
            T.kind[k] = CS_WRAP_JOINT;
            if (spatial) { /* sites, wrapped geoms, pulleys */
                const char *wn = cs_mjcf_ename(j);
                if (strcmp(wn, "pulley") == 0) {
                    cs_mjcf_check(c, j, (const char *const[]){"divisor", NULL}, NULL);
                    if (!cs_mjcf_num1(c, j, "divisor", &T.coef[k]))
                        FAILN(c, j, "divisor", "missing pulley divisor");
                    if (!(T.coef[k] > 0))
                        FAILN(c, j, "divisor", "a pulley's divisor must be positive (got %g)",
                              T.coef[k]);
                    T.kind[k] = CS_WRAP_PULLEY;
                    T.joint[T.njoint++] = NULL;
                    continue;
                }
                int geom = strcmp(wn, "geom") == 0;
                if (!geom && strcmp(wn, "site") != 0)
                    FAILN(c, j, NULL, "unknown element inside <spatial>");
                if (geom)
                    cs_mjcf_check(c, j, (const char *const[]){"geom", "sidesite", NULL}, NULL);
                else
                    cs_mjcf_check(c, j, (const char *const[]){"site", NULL}, NULL);
                char *sn = cs_mjcf_attr(c, j, wn);
                if (!sn) FAILN(c, j, wn, "missing %s name", wn);
                if (geom) T.side[k] = cs_mjcf_attr(c, j, "sidesite");
                T.kind[k] = geom ? CS_WRAP_SPHERE : CS_WRAP_SITE;
                T.joint[T.njoint++] = sn;
                continue;
            }
            if (strcmp(cs_mjcf_ename(j), "joint") != 0)
                FAILN(c, j, NULL, "a fixed tendon holds <joint> elements only");
            cs_mjcf_check(c, j, (const char *const[]){"joint", "coef", NULL}, NULL);
            char *jn = cs_mjcf_attr(c, j, "joint");
            if (!jn) FAILN(c, j, "joint", "missing joint name");
            if (!cs_mjcf_num1(c, j, "coef", &T.coef[T.njoint]))
                FAILN(c, j, "coef", "missing coefficient");
            T.jline[T.njoint] = cs_mjcf_line(j);
            T.joint[T.njoint++] = jn;
        }
        cs_mjcf_grow(c, (void **)&c->ten, &c->capten, c->nten, sizeof *c->ten);
        c->ten[c->nten++] = T;
    }
}

/* ---- reading <equality> ---------------------------------------------------------------- */
const char *const CS_MJCF_EQ_COMMON[] = {"name", "class", "active", "solref", "solimp", NULL};
static const char *const EQ_TAGS[] = {"connect", "weld", "joint", "tendon", NULL};
static const char *const EQ_ATTRS[][13] = {
    {"name", "class", "active", "solref", "solimp", "body1", "body2", "anchor", "site1", "site2",
     NULL},
    {"name", "class", "active", "solref", "solimp", "body1", "body2", "anchor", "site1", "site2",
     "relpose", "torquescale", NULL},
    {"name", "class", "active", "solref", "solimp", "joint1", "joint2", "polycoef", NULL},
    {"name", "class", "active", "solref", "solimp", "tendon1", "tendon2", "polycoef", NULL}};

void cs_mjcf_read_eq_attrs(cs_mjcf *c, xmlNode *n, cs_espec *e)
{
    cs_mjcf_bool(c, n, "active", &e->active);
    cs_mjcf_nums(c, n, "solref", e->solref, 1, 2);
    double si[5];
    int k = cs_mjcf_nums(c, n, "solimp", si, 1, 5);
    if (k) {
        cs_mjcf_solimp_check(c, n, "solimp", si);
        memcpy(e->solimp, si, (size_t)k * sizeof *si);
    }
}

void cs_mjcf_parse_equality(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (strncmp(en, "flex", 4) == 0)
            FAILN(c, ch, NULL, "flex equality constraints are not supported (no flexes)");
        int t = -1;
        for (int i = 0; EQ_TAGS[i]; i++)
            if (strcmp(en, EQ_TAGS[i]) == 0) t = i;
        if (t < 0) FAILN(c, ch, NULL, "unknown element inside <equality>");
        cs_mjcf_check(c, ch, EQ_ATTRS[t], NULL);
        cs_eqir E = {0};
        E.s = c->cls[cs_mjcf_class_of(c, ch, c->rootcls)].eq;
        cs_mjcf_read_eq_attrs(c, ch, &E.s);
        E.type = t;
        E.tag = EQ_TAGS[t];
        E.line = cs_mjcf_line(ch);
        E.name = cs_mjcf_attr(c, ch, "name");
        if (E.name)
            for (int i = 0; i < c->neq; i++)
                if (c->eq[i].name && strcmp(c->eq[i].name, E.name) == 0)
                    FAILN(c, ch, "name", "duplicate equality name '%s'", E.name);
        E.id1 = E.id2 = -1;
        E.polycoef[1] = 1; /* MuJoCo's default 0 1 0 0 0: obj1 = obj2 */
        E.torquescale = 1;
        E.relpose[1] = 1;  /* 0 1 0 0 0 0 0: the quaternion part 0, the pose at qpos0 */
        if (t == CS_EQ_CONNECT || t == CS_EQ_WELD) {
            E.has_anchor = cs_mjcf_nums(c, ch, "anchor", E.anchor, 3, 3) > 0;
            /* MuJoCo's choice: bodies when body1 is given (and, for a connect, an anchor),
             * else the two sites */
            E.obj1 = cs_mjcf_attr(c, ch, "body1");
            E.obj2 = cs_mjcf_attr(c, ch, "body2");
            char *s1 = cs_mjcf_attr(c, ch, "site1"), *s2 = cs_mjcf_attr(c, ch, "site2");
            if (E.obj1 && (t == CS_EQ_WELD || E.has_anchor) && (s1 || s2))
                cs_mjcf_note_ignored(c, t == CS_EQ_WELD ? "weld/@site1, @site2 (body1 given: the body form)"
                                                : "connect/@site1, @site2 (body1 and anchor given: "
                                                  "the body form)");
            if (!E.obj1 || (t == CS_EQ_CONNECT && !E.has_anchor)) {
                if (!s1 && !s2 && !E.obj1) FAILN(c, ch, "body1", "missing body1 (or site1 and site2)");
                if (!s1 && !s2) FAILN(c, ch, "anchor", "a connect constraint needs an anchor");
                if (!s1 || !s2)
                    FAILN(c, ch, s1 ? "site2" : "site1", "the site form needs site1 and site2");
                E.site = 1;
                E.obj1 = s1;
                E.obj2 = s2;
            }
            if (t == CS_EQ_WELD) {
                cs_mjcf_nums(c, ch, "relpose", E.relpose, 7, 7);
                E.has_relpose = E.relpose[3] != 0 || E.relpose[4] != 0 || E.relpose[5] != 0 ||
                                E.relpose[6] != 0;
                cs_mjcf_num1(c, ch, "torquescale", &E.torquescale);
            }
        } else {
            const char *a1 = t == CS_EQ_JOINT ? "joint1" : "tendon1";
            const char *a2 = t == CS_EQ_JOINT ? "joint2" : "tendon2";
            E.obj1 = cs_mjcf_attr(c, ch, a1);
            E.obj2 = cs_mjcf_attr(c, ch, a2);
            if (!E.obj1) FAILN(c, ch, a1, "missing %s", a1);
            cs_mjcf_nums(c, ch, "polycoef", E.polycoef, 1, 5); /* the rest keep 0 1 0 0 0 */
        }
        cs_mjcf_grow(c, (void **)&c->eq, &c->capeq, c->neq, sizeof *c->eq);
        c->eq[c->neq++] = E;
    }
}
