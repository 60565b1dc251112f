/* Default classes (lookup, the main class's specs), and the attribute readers that defaults
 * and elements share (geom, pair, joint, site): an element starts from its class's spec and
 * reads over it. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "mjcf_read.h"

/* ---- classes ------------------------------------------------------------------------------ */
int cs_mjcf_find_class(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->ncls; i++)
        if (strcmp(c->cls[i].name, name) == 0) return i;
    return -1;
}

int cs_mjcf_class_of(cs_mjcf *c, xmlNode *n, int inherited)
{
    char *cl = cs_mjcf_attr(c, n, "class");
    if (!cl) return inherited;
    int k = cs_mjcf_find_class(c, cl);
    if (k < 0) FAILN(c, n, "class", "unknown class '%s'", cl);
    return k;
}

void cs_mjcf_default_gspec(cs_gspec *g)
{
    memset(g, 0, sizeof *g);
    g->type = CS_GEOM_SPHERE;
    g->quat[0] = 1;
    g->contype = g->conaffinity = 1;
    g->condim = 3;
    g->friction[0] = 1; g->friction[1] = 0.005; g->friction[2] = 0.0001;
    g->solmix = 1;
    g->solref[0] = 0.02; g->solref[1] = 1;
    g->solimp[0] = 0.9; g->solimp[1] = 0.95; g->solimp[2] = 0.001; g->solimp[3] = 0.5;
    g->solimp[4] = 2;
    g->rgba[0] = g->rgba[1] = g->rgba[2] = 0.5; g->rgba[3] = 1;
    g->mass = -1;
    g->density = 1000;
    g->fitscale = 1;
    g->fluidcoef[0] = 0.5; g->fluidcoef[1] = 0.25; g->fluidcoef[2] = 1.5;
    g->fluidcoef[3] = 1; g->fluidcoef[4] = 1;
}

void cs_mjcf_default_pspec(cs_pspec *p)
{
    memset(p, 0, sizeof *p);
    p->condim = 3;
    p->friction[0] = p->friction[1] = 1;
    p->friction[2] = 0.005;
    p->friction[3] = p->friction[4] = 0.0001;
    p->solref[0] = 0.02; p->solref[1] = 1;
    p->solimp[0] = 0.9; p->solimp[1] = 0.95; p->solimp[2] = 0.001; p->solimp[3] = 0.5;
    p->solimp[4] = 2;
}

/* ---- element attribute readers (shared by defaults and elements) --------------------- */
static const char *const GEOMTYPES[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                        "cylinder", "box", "mesh", "sdf", NULL};

static void check_condim(cs_mjcf *c, xmlNode *n, int v)
{
    if (v != 1 && v != 3 && v != 4 && v != 6) FAILN(c, n, "condim", "must be 1, 3, 4 or 6 (got %d)", v);
}

/* solimp outside its ranges is legal MJCF: MuJoCo clamps it when it builds constraint rows
 * (docs/contact-math.md §8), so the solver clamps too and the loader keeps the values as written. */
void cs_mjcf_solimp_check(cs_mjcf *c, xmlNode *n, const char *name, const double *s)
{
    (void)c;
    (void)n;
    (void)name;
    (void)s;
}

void cs_mjcf_read_geom_attrs(cs_mjcf *c, xmlNode *n, cs_gspec *g)
{
    int k = cs_mjcf_keyword(c, n, "type", GEOMTYPES);
    if (k >= 0) {
        if (k == 8) FAILN(c, n, "type", "geom type 'sdf' is not supported");
        g->type = k;
    }
    double v[6];
    int ns = cs_mjcf_nums(c, n, "size", v, 1, 3);
    if (ns) {
        cs_mjcf_nonneg(c, n, "size", v, ns);
        for (int i = 0; i < ns; i++) g->size[i] = v[i];
    }
    cs_mjcf_frame(c, n, g->pos, g->quat);
    if (cs_mjcf_nums(c, n, "fromto", v, 6, 6)) {
        double p[3];
        if (cs_mjcf_nums(c, n, "pos", p, 3, 3) && (p[0] != 0 || p[1] != 0 || p[2] != 0))
            FAILN(c, n, "fromto", "both pos and fromto given");
        g->has_fromto = 1;
        memcpy(g->fromto, v, sizeof g->fromto);
    }
    int iv;
    if (cs_mjcf_int1(c, n, "contype", &iv)) g->contype = iv;
    if (cs_mjcf_int1(c, n, "conaffinity", &iv)) g->conaffinity = iv;
    if (cs_mjcf_int1(c, n, "condim", &iv)) { check_condim(c, n, iv); g->condim = iv; }
    if (cs_mjcf_int1(c, n, "priority", &iv)) g->priority = iv;
    if (cs_mjcf_int1(c, n, "group", &iv)) g->group = iv;
    int nf = cs_mjcf_nums(c, n, "friction", v, 1, 3);
    if (nf) { cs_mjcf_nonneg(c, n, "friction", v, nf); memcpy(g->friction, v, (size_t)nf * sizeof *v); }
    if (cs_mjcf_num1(c, n, "solmix", v)) { cs_mjcf_nonneg(c, n, "solmix", v, 1); g->solmix = v[0]; }
    if ((k = cs_mjcf_nums(c, n, "solref", v, 1, 2))) memcpy(g->solref, v, (size_t)k * sizeof *v);
    int ni = cs_mjcf_nums(c, n, "solimp", v, 1, 5);
    if (ni) { memcpy(g->solimp, v, (size_t)ni * sizeof *v); cs_mjcf_solimp_check(c, n, "solimp", g->solimp); }
    /* MuJoCo 3.12 takes a negative margin (a shrunk surface); margin + gap is checked when
     * the geom is compiled */
    if (cs_mjcf_num1(c, n, "margin", v)) g->margin = v[0];
    if (cs_mjcf_num1(c, n, "gap", v)) g->gap = v[0];
    if (cs_mjcf_nums(c, n, "rgba", v, 4, 4)) memcpy(g->rgba, v, 4 * sizeof *v);
    char *mat = cs_mjcf_attr(c, n, "material");
    if (mat) g->material = mat;
    if (cs_mjcf_num1(c, n, "mass", v)) {
        if (v[0] < 0) FAILN(c, n, "mass", "must not be negative");
        g->mass = v[0];
    }
    if (cs_mjcf_num1(c, n, "density", v)) {
        if (v[0] < 0) FAILN(c, n, "density", "must not be negative");
        g->density = v[0];
    }
    if (cs_mjcf_num1(c, n, "fitscale", v)) {
        if (!(v[0] > 0)) FAILN(c, n, "fitscale", "must be positive");
        g->fitscale = v[0];
    }
    int b;
    if (cs_mjcf_bool(c, n, "shellinertia", &b)) g->shell = b;
    static const char *const FLUID[] = {"none", "ellipsoid", NULL};
    if ((k = cs_mjcf_keyword(c, n, "fluidshape", FLUID)) >= 0) g->fluidshape = k;
    if ((k = cs_mjcf_nums(c, n, "fluidcoef", v, 1, 5))) memcpy(g->fluidcoef, v, (size_t)k * sizeof *v);
    double sv[6];
    if (cs_mjcf_nums(c, n, "surfacevel", sv, 6, 6)) memcpy(g->surfacevel, sv, sizeof sv);
    if (cs_mjcf_num1(c, n, "adhesion", v)) g->adhesion = v[0];
    char *s = cs_mjcf_attr(c, n, "mesh");
    if (s) g->mesh = s;
    s = cs_mjcf_attr(c, n, "hfield");
    if (s) g->hfield = s;
}

const char *const CS_MJCF_GEOM_ATTRS[] = {
    "name", "class", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
    "fromto", "contype", "conaffinity", "condim", "priority", "group", "friction", "solmix",
    "solref", "solimp", "margin", "gap", "rgba", "mass", "density", "shellinertia",
    "fluidshape", "fluidcoef", "mesh", "hfield", "fitscale", "material", "surfacevel",
    "adhesion", NULL};
const char *const CS_MJCF_GEOM_VISUAL[] = {"user", NULL};

void cs_mjcf_read_pair_attrs(cs_mjcf *c, xmlNode *n, cs_pspec *p)
{
    double v[5];
    int iv;
    if (cs_mjcf_int1(c, n, "condim", &iv)) { check_condim(c, n, iv); p->condim = iv; }
    int nf = cs_mjcf_nums(c, n, "friction", v, 1, 5);
    if (nf) { cs_mjcf_nonneg(c, n, "friction", v, nf); memcpy(p->friction, v, (size_t)nf * sizeof *v); }
    int k;
    if ((k = cs_mjcf_nums(c, n, "solref", v, 1, 2))) memcpy(p->solref, v, (size_t)k * sizeof *v);
    if ((k = cs_mjcf_nums(c, n, "solreffriction", v, 1, 2)))
        memcpy(p->solreffriction, v, (size_t)k * sizeof *v);
    int ni = cs_mjcf_nums(c, n, "solimp", v, 1, 5);
    if (ni) { memcpy(p->solimp, v, (size_t)ni * sizeof *v); cs_mjcf_solimp_check(c, n, "solimp", p->solimp); }
    if (cs_mjcf_num1(c, n, "margin", v)) p->margin = v[0];
    if (cs_mjcf_num1(c, n, "gap", v)) p->gap = v[0];
    if (cs_mjcf_num1(c, n, "adhesion", v)) p->adhesion = v[0];
}

const char *const CS_MJCF_PAIR_ATTRS[] = {"name", "class", "geom1", "geom2", "condim",
    "friction", "solref", "solreffriction", "solimp", "margin", "gap", "adhesion", NULL};

static const char *const JOINT_TYPES[] = {"free", "ball", "slide", "hinge", NULL};

const char *const CS_MJCF_LIMITED[] = {"false", "true", "auto", NULL};

/* A joint's or tendon's stiffness or damping: MuJoCo 3.12 reads up to three numbers, the
 * linear coefficient and two of higher order (stiffness a x + b x^2 + c x^3, damping
 * a v + b v|v| + c v^3); numbers not given keep their value (the class's), as MuJoCo's reader
 * does. The linear one must not be negative; the others are the user's to choose. */
int cs_mjcf_poly_coef(cs_mjcf *c, xmlNode *n, const char *name, double out[3])
{
    double v[3];
    int k = cs_mjcf_nums(c, n, name, v, 1, 3);
    if (!k) return 0;
    cs_mjcf_nonneg(c, n, name, v, 1);
    memcpy(out, v, (size_t)k * sizeof *v);
    return 1;
}

void cs_mjcf_read_joint_attrs(cs_mjcf *c, xmlNode *n, cs_jspec *j)
{
    int k = cs_mjcf_keyword(c, n, "type", JOINT_TYPES);
    if (k >= 0) j->type = k; /* the list is in cs_joint_type order */
    cs_mjcf_nums(c, n, "pos", j->pos, 3, 3);
    cs_mjcf_nums(c, n, "axis", j->axis, 3, 3);
    cs_mjcf_num1(c, n, "ref", &j->ref);
    cs_mjcf_num1(c, n, "springref", &j->springref);
    k = cs_mjcf_keyword(c, n, "limited", CS_MJCF_LIMITED);
    if (k >= 0) j->limited = k;
    cs_mjcf_nums(c, n, "range", j->range, 2, 2);
    k = cs_mjcf_keyword(c, n, "actuatorfrclimited", CS_MJCF_LIMITED);
    if (k >= 0) j->actfrclimited = k;
    cs_mjcf_nums(c, n, "actuatorfrcrange", j->actfrcrange, 2, 2);
    double v;
    if (cs_mjcf_num1(c, n, "margin", &v)) j->margin = v;
    cs_mjcf_poly_coef(c, n, "damping", j->damping);
    if (cs_mjcf_num1(c, n, "armature", &v)) { cs_mjcf_nonneg(c, n, "armature", &v, 1); j->armature = v; }
    if (cs_mjcf_num1(c, n, "frictionloss", &v)) { cs_mjcf_nonneg(c, n, "frictionloss", &v, 1); j->frictionloss = v; }
    cs_mjcf_poly_coef(c, n, "stiffness", j->stiffness);
    cs_mjcf_nums(c, n, "solreflimit", j->solreflimit, 1, 2);
    cs_mjcf_nums(c, n, "solreffriction", j->solreffriction, 1, 2);
    double si[5];
    int ni = cs_mjcf_nums(c, n, "solimplimit", si, 1, 5);
    if (ni) { cs_mjcf_solimp_check(c, n, "solimplimit", si); memcpy(j->solimplimit, si, (size_t)ni * sizeof *si); }
    ni = cs_mjcf_nums(c, n, "solimpfriction", si, 1, 5);
    if (ni) { cs_mjcf_solimp_check(c, n, "solimpfriction", si); memcpy(j->solimpfriction, si, (size_t)ni * sizeof *si); }
    if (cs_mjcf_nums(c, n, "springdamper", j->springdamper, 2, 2) &&
        (j->springdamper[0] != 0 || j->springdamper[1] != 0) &&
        (j->springdamper[0] <= 0 || j->springdamper[1] <= 0))
        FAILN(c, n, "springdamper", "springdamper values must both be positive when given");
    cs_mjcf_bool(c, n, "actuatorgravcomp", &j->actgravcomp);
}

void cs_mjcf_default_jspec(cs_jspec *j)
{
    memset(j, 0, sizeof *j);
    j->type = CS_JNT_HINGE;
    j->axis[2] = 1;
    j->limited = CS_LIMITED_AUTO;
    j->actfrclimited = CS_LIMITED_AUTO;
    j->solreflimit[0] = j->solreffriction[0] = 0.02;
    j->solreflimit[1] = j->solreffriction[1] = 1;
    const double si[5] = {0.9, 0.95, 0.001, 0.5, 2};
    memcpy(j->solimplimit, si, sizeof si);
    memcpy(j->solimpfriction, si, sizeof si);
}

const char *const CS_MJCF_JOINT_ATTRS[] = {"name", "class", "type", "pos", "axis",
    "damping", "armature", "frictionloss", "stiffness", "springref", "ref", "limited", "range",
    "margin", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "springdamper",
    "actuatorfrclimited", "actuatorfrcrange", "actuatorgravcomp", NULL};
const char *const CS_MJCF_JOINT_VISUAL[] = {"user", "group", NULL};


/* ---- sites ----------------------------------------------------------------------------- */
const char *const CS_MJCF_SITE_VISUAL[] = {"material", "rgba", "group", "user", NULL};

/* a site's zone (type, size), over what its class gave */
void cs_mjcf_read_site_shape(cs_mjcf *c, xmlNode *n, int *type, double size[3])
{
    static const char *const TYPES[] = {"sphere", "capsule", "ellipsoid", "cylinder", "box",
                                        NULL};
    static const int CODE[] = {CS_GEOM_SPHERE, CS_GEOM_CAPSULE, CS_GEOM_ELLIPSOID,
                               CS_GEOM_CYLINDER, CS_GEOM_BOX};
    int k = cs_mjcf_keyword(c, n, "type", TYPES);
    if (k >= 0) *type = CODE[k];
    double v[3];
    int ns = cs_mjcf_nums(c, n, "size", v, 1, 3);
    for (int i = 0; i < ns; i++) {
        if (!(v[i] >= 0)) FAILN(c, n, "size", "must not be negative");
        size[i] = v[i];
    }
}

int cs_mjcf_has_alt_orientation(xmlNode *n)
{
    static const char *const ALT[] = {"axisangle", "euler", "xyaxes", "zaxis", NULL};
    for (const char *const *a = ALT; *a; a++)
        if (xmlHasProp(n, (const xmlChar *)*a)) return 1;
    return 0;
}
