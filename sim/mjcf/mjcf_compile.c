/* Compiling the loader's intermediate form into a cs_model, as MuJoCo's compiler does:
 * fromto, size checks, geom masses (density or mass), body inertia from geoms or
 * <inertial> (principal axes), bounds, joints (axes, units, limits), welds, the dof forest,
 * pairs, keys, qpos0, and the inverse weights at qpos0 (invweight.c). All checks come before the model is allocated, so an error frees only
 * loader memory. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "collision/collision.h"
#include "history.h"
#include "inertia.h"
#include "sameframe.h"
#include "mjcf_ir.h"
#include "model_fields.h"
#include "stages.h"

/* the Coulomb model's contacts have no adhesion (docs/contact-math.md §12) */
#define COULOMB_NO_ADHESION                                                                    \
    "the Coulomb contact model (conesim:contact) does not take adhesion: use the soft model, " \
    "or no adhesion"
#define GFAIL(c, g, attr, ...) cs_mjcf_fail((c), (g)->line, "geom", (attr), __VA_ARGS__)
#define BFAIL(c, b, attr, ...) cs_mjcf_fail((c), (b)->line, "body", (attr), __VA_ARGS__)
#define JFAIL(c, j, attr, ...) cs_mjcf_fail((c), (j)->line, "joint", (attr), __VA_ARGS__)

static const char *const TYPENAME[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                       "cylinder", "box", "mesh"};

static void resolve_geom(cs_mjcf *c, cs_geomir *g)
{
    cs_gspec *s = &g->s;
    g->meshid = -1;
    /* a contact is detected within the sum of margin + gap of its geoms: MuJoCo requires it
     * non-negative (a negative margin alone, a shrunk surface, is fine) */
    if (s->margin + s->gap < 0)
        GFAIL(c, g, "margin", "margin + gap must not be negative (margin %g, gap %g)", s->margin,
              s->gap);
    if (s->adhesion != 0 && c->opt.contact == CS_CONTACT_COULOMB)
        GFAIL(c, g, "adhesion", "%s", COULOMB_NO_ADHESION);
    if (s->type == CS_GEOM_MESH) {
        if (!s->mesh) GFAIL(c, g, "mesh", "a geom of type mesh needs a mesh attribute");
        g->meshid = cs_mjcf_find_mesh(c, s->mesh);
        if (g->meshid < 0) GFAIL(c, g, "mesh", "no mesh asset named '%s'", s->mesh);
        if (s->shell)
            GFAIL(c, g, "shellinertia",
                  "for mesh geoms, inertia should be specified in the mesh asset (inertia=\"shell\")");
    } else if (s->mesh) { /* a primitive fitted to the mesh: sized in the compile loop */
        if (s->type == CS_GEOM_PLANE || s->type == CS_GEOM_HFIELD)
            GFAIL(c, g, "mesh", "a %s cannot be fitted to a mesh", TYPENAME[s->type]);
        if (s->has_fromto) GFAIL(c, g, "fromto", "fromto cannot be used with a mesh");
        if (cs_mjcf_find_mesh(c, s->mesh) < 0)
            GFAIL(c, g, "mesh", "no mesh asset named '%s'", s->mesh);
        return;
    }
    if (s->has_fromto) {
        if (s->type != CS_GEOM_CAPSULE && s->type != CS_GEOM_CYLINDER &&
            s->type != CS_GEOM_BOX && s->type != CS_GEOM_ELLIPSOID)
            GFAIL(c, g, "fromto", "fromto is not allowed for type %s", TYPENAME[s->type]);
        /* MuJoCo's convention: z points from the second end to the first */
        double d[3], *f = s->fromto;
        for (int i = 0; i < 3; i++) {
            d[i] = f[i] - f[3 + i];
            s->pos[i] = 0.5 * (f[i] + f[3 + i]);
        }
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l / 2 < 1e-14) GFAIL(c, g, "fromto", "the two end points coincide");
        cs_quat_z2vec(s->quat, d);
        s->size[1] = l / 2;
        if (s->type == CS_GEOM_BOX || s->type == CS_GEOM_ELLIPSOID) {
            s->size[2] = s->size[1];
            s->size[1] = s->size[0];
        }
    }
    /* a plane is infinite, but MuJoCo requires its third size (the rendered grid spacing) */
    if (s->type == CS_GEOM_PLANE && !(s->size[2] > 0))
        GFAIL(c, g, "size", "a plane needs a positive third size, its grid spacing (size[2] "
              "is %g)", s->size[2]);
    static const int NSIZE[] = {0, 0, 1, 2, 3, 2, 3, 0};
    for (int i = 0; i < NSIZE[s->type]; i++)
        if (!(s->size[i] > 0))
            GFAIL(c, g, "size", "%s needs %d positive size%s (size[%d] is %g)",
                  TYPENAME[s->type], NSIZE[s->type], NSIZE[s->type] > 1 ? "s" : "", i,
                  s->size[i]);
}

/* a key's vector of n numbers completed to len: from fill, else with 0 */
static double *key_pad(cs_mjcf *c, double *v, int n, int len, const double *fill)
{
    if (n >= len) return v;
    double *out = cs_mjcf_alloc(c, (size_t)len * sizeof *out);
    if (n) memcpy(out, v, (size_t)n * sizeof *out);
    for (int i = n; i < len; i++) out[i] = fill ? fill[i] : 0;
    return out;
}

static void rotate(const double q[4], const double v[3], double out[3])
{
    double R[9];
    cs_quat2mat(R, q);
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    memcpy(out, t, sizeof t);
}

/* v turned by the unit quaternion q without a matrix (the compiler's own rounding: t = w v +
 * q x v, v + 2 q x t), a zero v or the identity q left exact */
static void turn_by_quat(const double q[4], const double v[3], double out[3])
{
    if (v[0] == 0 && v[1] == 0 && v[2] == 0) {
        out[0] = out[1] = out[2] = 0;
        return;
    }
    if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0) {
        memcpy(out, v, 3 * sizeof *out);
        return;
    }
    double t[3] = {q[0] * v[0] + q[2] * v[2] - q[3] * v[1], q[0] * v[1] + q[3] * v[0] - q[1] * v[2],
                   q[0] * v[2] + q[1] * v[1] - q[2] * v[0]};
    double r[3] = {v[0] + 2 * (q[2] * t[2] - q[3] * t[1]), v[1] + 2 * (q[3] * t[0] - q[1] * t[2]),
                   v[2] + 2 * (q[1] * t[1] - q[2] * t[0])};
    memcpy(out, r, sizeof r);
}

/* A surface velocity given in the geom's frame, re-expressed in the frame the geom takes
 * from its mesh (origin moved to meshpos, turned by the mesh's quat mq): the linear part
 * gains omega x meshpos, then both parts turn by mq's inverse. */
static void surfacevel_to_mesh_frame(double sv[6], const double meshpos[3], const double mq[4])
{
    int any = 0;
    for (int k = 0; k < 6; k++) any |= sv[k] != 0;
    if (!any) return;
    const double *w = sv + 3;
    sv[0] += w[1] * meshpos[2] - w[2] * meshpos[1];
    sv[1] += w[2] * meshpos[0] - w[0] * meshpos[2];
    sv[2] += w[0] * meshpos[1] - w[1] * meshpos[0];
    double inv[4] = {mq[0], -mq[1], -mq[2], -mq[3]};
    turn_by_quat(inv, sv, sv);
    turn_by_quat(inv, sv + 3, sv + 3);
}

static void conjq(const double q[4], double r[4])
{
    r[0] = q[0]; r[1] = -q[1]; r[2] = -q[2]; r[3] = -q[3];
}

/* a copy of a name (NULL stays NULL); a failed copy sets *oom */
static char *dupname(const char *s, int *oom)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = cs_malloc(n);
    if (p) memcpy(p, s, n);
    else *oom = 1;
    return p;
}

/* units, axis, limits of one joint, as MuJoCo's compiler resolves them */
static void resolve_joint(cs_mjcf *c, cs_jointir *J)
{
    cs_jspec *s = &J->s;
    const cs_bspec *B = &c->body[J->body];
    double unit = J->unit ? J->unit : c->degree ? M_PI / 180 : 1;
    if (s->type == CS_JNT_FREE) {
        if (B->parent != 0)
            JFAIL(c, J, "type", "a free joint can only be used on a child of <worldbody> (as in "
                                "MuJoCo)");
        if (B->njnt > 1) /* named at the body's second joint */
            JFAIL(c, &c->jnt[B->jnt0 + 1], NULL, "a free joint can only appear by itself in a body");
        s->limited = CS_LIMITED_FALSE;
        s->actfrclimited = CS_LIMITED_FALSE;
        return;
    }
    if (s->type == CS_JNT_BALL) s->actfrclimited = CS_LIMITED_FALSE;
    int has_afr = s->actfrcrange[0] != 0 || s->actfrcrange[1] != 0;
    if (s->actfrclimited == CS_LIMITED_AUTO) {
        if (!c->autolimits && has_afr)
            JFAIL(c, J, "actuatorfrclimited", "actuatorfrcrange is given with compiler "
                  "autolimits=\"false\": set actuatorfrclimited");
        s->actfrclimited = s->actfrcrange[0] < s->actfrcrange[1] ? CS_LIMITED_TRUE
                                                                 : CS_LIMITED_FALSE;
    }
    if (s->actfrclimited == CS_LIMITED_TRUE && !(s->actfrcrange[0] < s->actfrcrange[1]))
        JFAIL(c, J, "actuatorfrcrange", "a limited actuator force range needs min < max (got %g "
              "%g)", s->actfrcrange[0], s->actfrcrange[1]);
    if (s->type == CS_JNT_HINGE || s->type == CS_JNT_SLIDE) {
        double l = sqrt(s->axis[0] * s->axis[0] + s->axis[1] * s->axis[1] + s->axis[2] * s->axis[2]);
        if (l < 1e-14) JFAIL(c, J, "axis", "zero-length axis");
        for (int k = 0; k < 3; k++) s->axis[k] /= l;
    } else {
        s->axis[0] = s->axis[1] = 0; /* a ball's dofs are the body's axes */
        s->axis[2] = 1;
    }
    int has_range = s->range[0] != 0 || s->range[1] != 0;
    if (s->limited == CS_LIMITED_AUTO) {
        if (!c->autolimits && has_range)
            JFAIL(c, J, "limited", "range is given with compiler autolimits=\"false\": set limited");
        s->limited = has_range ? CS_LIMITED_TRUE : CS_LIMITED_FALSE;
    }
    if (s->range[0] > s->range[1] && s->type != CS_JNT_BALL)
        JFAIL(c, J, "range", "range min %g is above max %g", s->range[0], s->range[1]);
    if (s->limited) {
        /* a ball's limit is on its rotation angle: the larger of the two numbers (MuJoCo
         * takes 0 too: the ball is then held at its reference orientation) */
        if (s->type == CS_JNT_BALL) {
            if (s->range[0] != 0)
                JFAIL(c, J, "range", "a limited ball joint's range must start at 0 "
                                     "(range=\"0 max\", got %g %g)", s->range[0], s->range[1]);
        } else if (!(s->range[0] < s->range[1])) {
            JFAIL(c, J, "range", "a limited joint needs range min < max (got %g %g)",
                  s->range[0], s->range[1]);
        }
    }
    if (s->type == CS_JNT_HINGE) {
        s->ref *= unit;
        s->springref *= unit;
    }
    if (s->type == CS_JNT_HINGE || s->type == CS_JNT_BALL)
        for (int k = 0; k < 2; k++) s->range[k] *= unit;
}

static const char *const DYNNAME[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                       "dcmotor", "pid", "user"};
static const char *const GAINNAME[] = {"fixed", "affine", "muscle", "dcmotor", "so3", "pid",
                                       "user"};
static const char *const BIASNAME[] = {"none", "affine", "muscle", "dcmotor", "so3", "user"};

/* one limit: MuJoCo's autolimits rule and range checks; returns 1 when it is enforced */
static int resolve_limit(cs_mjcf *c, const cs_actir *A, const char *what, int limited,
                         const double r[2])
{
    char la[32], ra[32];
    snprintf(la, sizeof la, "%slimited", what);
    snprintf(ra, sizeof ra, "%srange", what);
    int has = r[0] != 0 || r[1] != 0;
    if (limited == CS_LIMITED_AUTO && has && !c->autolimits)
        cs_mjcf_fail(c, A->line, A->tag, la, "%s is given with compiler autolimits=\"false\": "
                     "set %s", ra, la);
    if (has && r[0] > r[1])
        cs_mjcf_fail(c, A->line, A->tag, ra, "%s min %g is above max %g", ra, r[0], r[1]);
    int on = limited == CS_LIMITED_TRUE || (limited == CS_LIMITED_AUTO && r[0] < r[1]);
    if (on && !(r[0] < r[1]))
        cs_mjcf_fail(c, A->line, A->tag, ra, "a limited actuator needs %s min < max (got %g %g)",
                     ra, r[0], r[1]);
    return on;
}

#define AFAIL(c, A, attr, ...) cs_mjcf_fail((c), (A)->line, (A)->tag, (attr), __VA_ARGS__)

/* MuJoCo's checks of a muscle gain's or bias's parameters (the attribute named is the
 * muscle shortcut's; a <general> gives them in gainprm or biasprm) */
static void check_muscle(cs_mjcf *c, const cs_actir *A)
{
    const cs_aspec *s = &A->s;
    int sc = strcmp(A->tag, "muscle") == 0;
    for (int k = 0; k < 2; k++) {
        const double *p = k == 0 ? s->gainprm : s->biasprm;
        if (k == 0 && s->gaintype != CS_GAIN_MUSCLE) continue;
        if (k == 1 && s->biastype != CS_BIAS_MUSCLE) continue;
        const char *prm = k == 0 ? "gainprm" : "biasprm";
        if (p[0] >= p[1])
            AFAIL(c, A, sc ? "range" : prm, "a muscle needs range[0] < range[1] (got %g %g)",
                  p[0], p[1]);
        if (p[4] >= 1 || p[5] <= 1)
            AFAIL(c, A, sc ? (p[4] >= 1 ? "lmin" : "lmax") : prm,
                  "a muscle needs lmin < 1 < lmax (got %g %g)", p[4], p[5]);
        static const int POS[4] = {3, 6, 7, 8};
        static const char *const NAME[4] = {"scale", "vmax", "fpmax", "fvmax"};
        for (int q = 0; q < 4; q++)
            if (p[POS[q]] <= 0)
                AFAIL(c, A, sc ? NAME[q] : prm, "a muscle needs a positive %s (got %g)", NAME[q],
                      p[POS[q]]);
    }
}

/* the history buffer and delay, with a class's values in (MuJoCo's checks, and the
 * negative values it leaves unchecked: its step would write outside the buffer) */
static void check_history(cs_mjcf *c, const cs_actir *A)
{
    const cs_aspec *s = &A->s;
    if (s->nsample < 0) AFAIL(c, A, "nsample", "nsample cannot be negative");
    if (s->nsample > 16777216)
        AFAIL(c, A, "nsample", "at most 2^24 samples in history buffer, got %d", s->nsample);
    if (!isfinite(s->delay) || s->delay < 0) AFAIL(c, A, "delay", "delay cannot be negative");
    if (s->delay > 0 && s->nsample <= 0)
        AFAIL(c, A, "delay", "setting delay > 0 without a history buffer (nsample)");
}

/* a pid's or DC motor's input signature and controller states, MuJoCo's compiler checks;
 * the signature's default where none was given */
static void resolve_inputs(cs_mjcf *c, cs_actir *A)
{
    cs_aspec *s = &A->s;
    int given = s->ctrlspec;
    enum { SERVO = CS_INPUT_POS | CS_INPUT_VEL | CS_INPUT_FF };
    if (s->gaintype == CS_GAIN_SO3 || s->biastype == CS_BIAS_SO3) { /* an orientation servo */
        if (s->gaintype != CS_GAIN_SO3 || s->biastype != CS_BIAS_SO3)
            AFAIL(c, A, "gaintype", "gaintype and biastype must both be 'so3'");
        if (s->dyntype != CS_DYN_NONE && s->dyntype != CS_DYN_INTEGRATOR)
            AFAIL(c, A, "dyntype", "so3 requires dyntype 'none' or 'integrator'");
        if (s->gainprm[0] != -s->biasprm[1])
            AFAIL(c, A, "gainprm", "so3 requires gainprm[0] == -biasprm[1]");
        if (A->site && !A->refsite)
            AFAIL(c, A, "site", "so3 site transmission requires refsite");
        if (!A->site && (!A->joint || A->jip || A->tendon || A->cranksite || A->body))
            AFAIL(c, A, "joint", "so3 requires site or ball joint transmission");
        if (s->dyntype == CS_DYN_INTEGRATOR) { /* the setpoint integrated in act */
            if (s->actdim > 0 && s->actdim != 3)
                AFAIL(c, A, "actdim", "so3 integrator requires actdim 3");
            s->actdim = 3;
            if (s->actlimited == CS_LIMITED_TRUE && s->actrange[0] == 0 && s->actrange[1] == 0)
                s->actlimited = CS_LIMITED_FALSE;
        }
        s->ctrlspec = given ? given : CS_CHART_EXPMAP;
        if (given && !s->chart)
            AFAIL(c, A, "input", "so3 input must be expmap or quat");
        if (s->ctrlspec == CS_CHART_QUAT && s->dyntype != CS_DYN_NONE)
            AFAIL(c, A, "input", "so3 quat input requires dyntype 'none'");
        return;
    }
    if (s->chart)
        AFAIL(c, A, "input", "'%s' is an orientation's input (gaintype so3)",
              s->ctrlspec == CS_CHART_QUAT ? "quat" : "expmap");
    if (s->gaintype == CS_GAIN_PID) {
        if (s->biastype != CS_BIAS_AFFINE)
            AFAIL(c, A, "biastype", "pid requires biastype 'affine'");
        if (s->dyntype != CS_DYN_NONE && s->dyntype != CS_DYN_PID)
            AFAIL(c, A, "dyntype", "pid requires dyntype 'none' or 'pid'");
        if (s->dyntype == CS_DYN_NONE && s->gainprm[0] != 0)
            AFAIL(c, A, "ki", "ki (gainprm[0]) requires dyntype 'pid'");
        if (A->body) AFAIL(c, A, "body", "pid cannot use a body transmission");
        if (s->dyntype == CS_DYN_PID) { /* states: [slew, integral] */
            if (s->dynprm[0] < 0) AFAIL(c, A, "imax", "imax (dynprm[0]) must be non-negative");
            if (s->dynprm[1] < 0)
                AFAIL(c, A, "slewmax", "slewmax (dynprm[1]) must be non-negative");
            int nslot = (s->dynprm[1] > 0) + (s->gainprm[0] > 0);
            if (s->actdim > 0 && s->actdim != nslot)
                AFAIL(c, A, "actdim", "pid controller states require matching actdim");
            s->actdim = nslot;
        }
        s->ctrlspec = given ? given : CS_INPUT_POS | CS_INPUT_VEL;
        if (s->ctrlspec & ~SERVO)
            AFAIL(c, A, "input", "pid inputs are a subset of [pos, vel, ff]");
        if (s->dyntype == CS_DYN_PID && !(s->ctrlspec & CS_INPUT_POS))
            AFAIL(c, A, "input", "pid controller states require the pos input");
    }
    if (s->gaintype == CS_GAIN_DCMOTOR) {
        s->ctrlspec = given ? given : CS_INPUT_VOLTAGE;
        int ctl = s->ctrlspec == CS_INPUT_NONE ? 0 : s->ctrlspec & SERVO;
        const double *g = s->gainprm;
        if (ctl && g[1] <= 0)
            AFAIL(c, A, "motorconst", "dcmotor controller inputs require a positive motor "
                  "constant");
        if (!ctl && (g[4] != 0 || g[5] != 0 || g[6] != 0))
            AFAIL(c, A, "controller", "dcmotor controller gains require a controller input "
                  "[pos, vel, ff]");
        if (g[5] > 0 && !(s->ctrlspec & CS_INPUT_POS))
            AFAIL(c, A, "controller", "dcmotor integral gain requires the pos input");
        if (!ctl && s->dynprm[7] > 0)
            AFAIL(c, A, "controller", "dcmotor slew rate limiting requires a controller input "
                  "[pos, vel, ff]");
    }
    if (s->dyntype == CS_DYN_PID && s->gaintype != CS_GAIN_PID)
        AFAIL(c, A, "dyntype", "dyntype 'pid' requires gaintype 'pid'");
    if (given && s->gaintype != CS_GAIN_PID && s->gaintype != CS_GAIN_DCMOTOR)
        AFAIL(c, A, "input", "input is only available for so3, pid and dcmotor actuators");
}

static void resolve_actuator(cs_mjcf *c, cs_actir *A, int *jnt, int *lim)
{
    cs_aspec *s = &A->s;
    check_history(c, A);
    int j = -1;
    const double *trnrange = NULL; /* the target's range, for inheritrange */
    A->slider = -1;
    if (A->cranksite) { /* MuJoCo's checks: the slider site, the rod, then the crank site */
        if (!s->slidersite)
            AFAIL(c, A, "slidersite", "a slider-crank transmission needs a slidersite");
        A->slider = cs_mjcf_find_site(c, s->slidersite);
        if (A->slider < 0) AFAIL(c, A, "slidersite", "no site named '%s'", s->slidersite);
        if (!(s->cranklength > 0))
            AFAIL(c, A, "cranklength", "a slider-crank's cranklength must be positive (got %g)",
                  s->cranklength);
        j = cs_mjcf_find_site(c, A->cranksite);
        if (j < 0) AFAIL(c, A, "cranksite", "no site named '%s'", A->cranksite);
    } else if (A->site) { /* MuJoCo's site transmission: a wrench at the site, or the site's
                             pose in a reference site's frame */
        j = cs_mjcf_find_site(c, A->site);
        if (j < 0) AFAIL(c, A, "site", "no site named '%s'", A->site);
        if (A->refsite) {
            A->slider = cs_mjcf_find_site(c, A->refsite);
            if (A->slider < 0) AFAIL(c, A, "refsite", "no site named '%s'", A->refsite);
        }
    } else if (A->body) { /* adhesion: the body's contacts */
        j = cs_mjcf_find_body(c, A->body);
        if (j < 0) AFAIL(c, A, "body", "no body named '%s'", A->body);
    } else if (A->tendon) {
        j = cs_mjcf_find_tendon(c, A->tendon);
        if (j < 0) AFAIL(c, A, "tendon", "no tendon named '%s'", A->tendon);
        trnrange = c->ten[j].s.range;
    } else {
        for (int i = 0; i < c->njnt; i++)
            if (c->jnt[i].name && strcmp(c->jnt[i].name, A->joint) == 0) j = i;
        if (j < 0) AFAIL(c, A, "joint", "no joint named '%s'", A->joint);
        int t = c->jnt[j].s.type;
        /* a ball's or free joint's range is no actuator's: inheritrange takes none */
        if (t == CS_JNT_HINGE || t == CS_JNT_SLIDE) trnrange = c->jnt[j].s.range;
    }
    *jnt = j;
    if (s->gaintype == CS_GAIN_SO3 && A->joint && !A->site && c->jnt[j].s.type != CS_JNT_BALL)
        AFAIL(c, A, "joint", "so3 joint transmission requires a ball joint");
    /* MuJoCo 3.12's actuator damping and armature act on a joint or a tendon only */
    int onjt = !A->cranksite && !A->site && !A->body;
    /* MuJoCo would add them to an orientation servo's ball joint; not followed here */
    if (s->gaintype == CS_GAIN_SO3 && (s->damping[0] != 0 || s->damping[1] != 0 ||
                                       s->damping[2] != 0 || s->armature != 0))
        AFAIL(c, A, s->armature != 0 ? "armature" : "damping", "damping and armature on an "
              "orientation (so3) actuator are not supported");
    if (!onjt && (s->damping[0] != 0 || s->damping[1] != 0 || s->damping[2] != 0))
        AFAIL(c, A, "damping", "damping requires a joint or tendon transmission");
    if (!onjt && s->armature != 0)
        AFAIL(c, A, "armature", "armature requires a joint or tendon transmission");
    if (A->tendon && s->armature != 0 && c->ten[j].spatial)
        for (int k = 0; k < c->ten[j].njoint; k++)
            if (c->ten[j].kind[k] == CS_WRAP_SPHERE || c->ten[j].kind[k] == CS_WRAP_CYLINDER)
                AFAIL(c, A, "armature", "armature on a tendon that wraps a geom (its Jacobian's "
                      "rate is not defined there, as in MuJoCo)");
    /* a DC motor only as <dcmotor> makes it (its state layout follows from its parameters) */
    int dc = strcmp(A->tag, "dcmotor") == 0;
    if (s->dyntype > CS_DYN_PID || (s->dyntype == CS_DYN_DCMOTOR && !dc))
        AFAIL(c, A, "dyntype", "dynamics '%s' are not supported (none, integrator, filter, "
              "filterexact, muscle, pid; DC motors through <dcmotor>)", DYNNAME[s->dyntype]);
    if (s->gaintype > CS_GAIN_PID || (s->gaintype == CS_GAIN_DCMOTOR && !dc))
        AFAIL(c, A, "gaintype", "gain '%s' is not supported (fixed, affine, muscle, so3, pid; "
              "DC motors through <dcmotor>)", GAINNAME[s->gaintype]);
    if (s->biastype > CS_BIAS_SO3 || (s->biastype == CS_BIAS_DCMOTOR && !dc))
        AFAIL(c, A, "biastype", "bias '%s' is not supported (none, affine, muscle, so3; DC "
              "motors through <dcmotor>)", BIASNAME[s->biastype]);
    resolve_inputs(c, A);
    check_muscle(c, A);
    /* MuJoCo's: more than one state only for user and DC motor dynamics (a pid with both
     * ki and slewmax is refused by this) */
    if (s->actdim > 1 && s->dyntype != CS_DYN_DCMOTOR && s->gaintype != CS_GAIN_SO3)
        AFAIL(c, A, "actdim", "actdim > 1 is only allowed for user and dcmotor dynamics");
    if (s->actdim == 1 && s->dyntype == CS_DYN_NONE)
        AFAIL(c, A, "actdim", "invalid actdim 1 in an actuator without dynamics");
    if (s->actdim == 0 && s->dyntype != CS_DYN_NONE && s->dyntype != CS_DYN_DCMOTOR)
        AFAIL(c, A, "actdim", "invalid actdim 0 in an actuator with dynamics");
    int nctrl = cs_mjcf_act_ctrlnum(s);
    if ((s->delay > 0 || s->nsample > 0) && nctrl == 0)
        AFAIL(c, A, s->delay > 0 ? "delay" : "nsample", "history and delay require an input");
    /* MuJoCo reads only the first control of a delayed block from the buffer, leaving the
     * others unset: refused */
    if (s->delay > 0 && nctrl > 1)
        AFAIL(c, A, "delay", "a delay on an actuator of several controls is not supported");
    /* inheritrange: a position-like actuator (or pid) takes the joint's range, scaled about
     * its middle */
    if (((s->gaintype == CS_GAIN_FIXED && s->gainprm[0] == -s->biasprm[1]) ||
         s->gaintype == CS_GAIN_PID) &&
        s->biastype == CS_BIAS_AFFINE && s->inheritrange > 0) {
        double *r;
        if (s->dyntype == CS_DYN_NONE || s->dyntype == CS_DYN_FILTEREXACT ||
            s->dyntype == CS_DYN_PID)
            r = s->ctrlrange;
        else if (s->dyntype == CS_DYN_INTEGRATOR) r = s->actrange;
        else AFAIL(c, A, "inheritrange", "inheritrange only available for position and "
                   "intvelocity actuators");
        const double *jr = trnrange;
        if (!jr)
            AFAIL(c, A, "inheritrange", "inheritrange can only be used with hinge, slide and "
                  "tendon transmissions");
        if (jr[0] == jr[1])
            AFAIL(c, A, "inheritrange", "inheritrange used but %s '%s' has no range",
                  A->tendon ? "tendon" : "joint", A->tendon ? A->tendon : A->joint);
        double mean = 0.5 * (jr[1] + jr[0]), radius = 0.5 * (jr[1] - jr[0]) * s->inheritrange;
        r[0] = mean - radius;
        r[1] = mean + radius;
    }
    lim[0] = resolve_limit(c, A, "ctrl", s->ctrllimited, s->ctrlrange);
    lim[1] = resolve_limit(c, A, "force", s->forcelimited, s->forcerange);
    lim[2] = resolve_limit(c, A, "act", s->actlimited, s->actrange);
    /* an orientation servo's forcerange bounds its torque's norm */
    if (s->gaintype == CS_GAIN_SO3 && lim[1] && s->forcerange[0] != 0)
        AFAIL(c, A, "forcerange", "so3 forcerange bounds the force norm, lower bound must be 0");
    if (lim[2] && s->dyntype == CS_DYN_NONE)
        AFAIL(c, A, "actrange", "actrange given but the actuator has no dynamics (dyntype none)");
}

static int near0(double x) { return fabs(x) < 1e-6; }

/* half sizes of the box with the mesh's volume and principal inertia, as MuJoCo's compiler
 * keeps them: a mesh geom's inertia and a primitive fitted to the mesh come from it */
static void mesh_box(const cs_meshir *M, double box[3])
{
    const double *e = M->inertia_u;
    for (int i = 0; i < 3; i++)
        box[i] = 0.5 * sqrt(fmax(0, 6 * (e[(i + 1) % 3] + e[(i + 2) % 3] - e[i]) / M->volume));
}

/* A primitive with a mesh attribute, as MuJoCo's compiler fits it: sized from the mesh's
 * equivalent-inertia box (or, with <compiler fitaabb>, to cover its bounding box), scaled
 * by fitscale, and placed at the mesh's inertial frame (the box's centre with fitaabb). */
static void fit_to_mesh(cs_mjcf *c, cs_gspec *s, const cs_meshir *M)
{
    double *sz = s->size, ctr[3] = {0, 0, 0};
    if (!c->fitaabb) {
        double box[3];
        mesh_box(M, box);
        switch (s->type) {
        case CS_GEOM_SPHERE: sz[0] = (box[0] + box[1] + box[2]) / 3; break;
        case CS_GEOM_CAPSULE:
            sz[0] = (box[0] + box[1]) / 2;
            sz[1] = fmax(0, box[2] - sz[0] / 2);
            break;
        case CS_GEOM_CYLINDER:
            sz[0] = (box[0] + box[1]) / 2;
            sz[1] = box[2];
            break;
        default: memcpy(sz, box, sizeof box); /* ellipsoid, box */
        }
    } else {
        double h[3];
        for (int i = 0; i < 3; i++) {
            ctr[i] = 0.5 * (M->aamm[i] + M->aamm[3 + i]);
            h[i] = M->aamm[3 + i] - ctr[i];
        }
        switch (s->type) {
        case CS_GEOM_SPHERE: sz[0] = fmax(h[0], fmax(h[1], h[2])); break;
        case CS_GEOM_CAPSULE:
        case CS_GEOM_CYLINDER:
            sz[0] = fmax(h[0], h[1]);
            sz[1] = h[2] - (s->type == CS_GEOM_CAPSULE ? sz[0] : 0);
            break;
        default: memcpy(sz, h, sizeof h);
        }
    }
    for (int i = 0; i < 3; i++) sz[i] *= s->fitscale;
    /* the mesh's frame (and the box's centre in it) accumulated into the geom's */
    double mc[3], mp[3];
    turn_by_quat(M->quat, ctr, mc);
    for (int k = 0; k < 3; k++) mc[k] += M->pos[k];
    rotate(s->quat, mc, mp);
    for (int k = 0; k < 3; k++) s->pos[k] += mp[k];
    cs_mulquat(s->quat, s->quat, M->quat);
    cs_mjcf_quat_renorm(s->quat);
    surfacevel_to_mesh_frame(s->surfacevel, mc, M->quat);
}

/* sizeof(mjContact) in MuJoCo 3.12 (66 numbers, 13 ints), for its arena guess */
#define CS_MJCONTACT_BYTES 584
/* keeps a contact count and its byte sizes within int and size_t */
#define CS_NCON_LIMIT (1 << 26)

/* The most contacts a step keeps when <size nconmax> does not say: what fits in MuJoCo's
 * arena, <size memory> or, without it, the size MuJoCo 3.12 guesses (user_model.cc: from
 * njmax, nstack and the model's sizes, rounded up to a megabyte). A contact costs its two
 * records and the arena MuJoCo gave a constraint row before the arena (8 ints and 14
 * numbers) for each of its rows, counted as 4 (a pyramidal condim-3 contact). The arrays
 * start small and grow to this only as steps need. */
static int contact_bound(const cs_mjcf *c, const cs_model *m)
{
    double bytes = c->memory;
    if (bytes < 0) {
        double ncon = 100, nj = c->njmax >= 0 ? c->njmax : 500, nv = m->nv;
        double big = nj + m->neq + nv, small = 20.0 * (m->nq + m->nv + m->nu + m->na + m->nbody +
                     m->njnt + m->ngeom + m->nsite + m->neq + m->ntendon + m->nwrap);
        bytes = c->nstack >= 0 ? 8.0 * c->nstack : 8 * fmax(1000, 5 * big * big + small);
        bytes += ncon * CS_MJCONTACT_BYTES + nj * (8 * 4 + 14 * 8) + nv * 3 * 4 +
                 nj * nv * (2 * 4 + 2 * 8) + nj * nj * (4 + 8);
        bytes = ceil(bytes / 1048576) * 1048576;
    }
    double per = (double)sizeof(cs_contact) + sizeof(cs_geom_contact) + 4 * (8 * 4 + 14 * 8);
    double n = floor(bytes / per);
    return n < CS_NCON_LIMIT ? (int)n : CS_NCON_LIMIT;
}

/* What the compile phases hand on to each other before the model exists: counts, and the
 * geoms', bodies', joints', pairs', actuators' and dofs' resolved numbers (the context owns
 * the arrays). */
typedef struct {
    int nb, ng, nj, nq, nv, nact, nu, nout, na, ntree, nM, nmocap;
    double *gmass, *ginertia;
    int *gcounts;                     /* a geom counts for its body's mass (inertiagrouprange) */
    double *bmass, *bipos, *biquat, *binert, *xpos, *xquat; /* bodies at the reference pose */
    int *weld;
    int *jqadr, *jdadr;
    int *pg1, *pg2, *eb1, *eb2;       /* pairs' geoms, excludes' bodies */
    double *qpos0, *qspring;
    int *ajnt, *aadr, *alim;          /* actuators' targets, activation addresses, limits */
    int *cadr, *cnum, *oadr;          /* actuators' control blocks, first outputs */
    int *lastdof, *dparent, *dtree;
    double *mo0;                      /* nv: an actuator's moment at qpos0 (dampratio) */
    int nameoom;                      /* a name could not be copied */
} compiling;

/* geoms: shapes (frames, fromto, meshes) and masses */
static void compile_geoms(cs_mjcf *c, compiling *cc)
{
    cc->gmass = cs_mjcf_alloc(c, (size_t)cc->ng * sizeof *cc->gmass);
    cc->ginertia = cs_mjcf_alloc(c, (size_t)cc->ng * 3 * sizeof *cc->ginertia);
    cc->gcounts = cs_mjcf_alloc(c, (size_t)(cc->ng + 1) * sizeof *cc->gcounts);
    for (int i = 0; i < cc->ng; i++) {
        cs_geomir *g = &c->geom[i];
        resolve_geom(c, g);
        {
            /* enclosing frames, after fromto as in MuJoCo */
            double R[9], p[3];
            cs_quat2mat(R, g->fquat);
            for (int k = 0; k < 3; k++)
                p[k] = g->fpos[k] + R[3 * k] * g->s.pos[0] + R[3 * k + 1] * g->s.pos[1] +
                       R[3 * k + 2] * g->s.pos[2];
            memcpy(g->s.pos, p, sizeof p);
            cs_mulquat(g->s.quat, g->fquat, g->s.quat);
            cs_normquat(g->s.quat);
        }
        if (g->s.type != CS_GEOM_MESH && g->s.mesh)
            fit_to_mesh(c, &g->s, &c->mesh[cs_mjcf_find_mesh(c, g->s.mesh)]);
        const cs_meshir *M = g->meshid >= 0 ? &c->mesh[g->meshid] : NULL;
        if (M) {
            /* the geom sits at the mesh's inertial frame (MuJoCo's frameaccum: the product
             * normalised as the compiler does, so a nearly unit one keeps its bits) */
            double mp[3];
            rotate(g->s.quat, M->pos, mp);
            for (int k = 0; k < 3; k++) g->s.pos[k] += mp[k];
            cs_mulquat(g->s.quat, g->s.quat, M->quat);
            cs_mjcf_quat_renorm(g->s.quat);
            surfacevel_to_mesh_frame(g->s.surfacevel, M->pos, M->quat);
            for (int k = 0; k < 3; k++)
                g->s.size[k] = fmax(fabs(M->aamm[k]), fabs(M->aamm[3 + k]));
        }
        double vol = M ? M->volume : cs_geom_volume(g->s.type, g->s.size, g->s.shell);
        int counts = g->s.group >= c->igroup[0] && g->s.group <= c->igroup[1];
        cc->gcounts[i] = counts;
        /* as MuJoCo's compiler: a given mass needs a volume above 1e-14, else the geom
         * weighs nothing */
        double m = g->s.mass >= 0 ? (vol > 1e-14 ? g->s.mass : 0) : g->s.density * vol;
        cc->gmass[i] = counts ? m : 0;
        if (M) { /* through the mesh's box, as MuJoCo's compiler rounds it */
            double b[3], *gi = cc->ginertia + 3 * i, gm = cc->gmass[i];
            mesh_box(M, b);
            gi[0] = gm * (b[1] * b[1] + b[2] * b[2]) / 3;
            gi[1] = gm * (b[0] * b[0] + b[2] * b[2]) / 3;
            gi[2] = gm * (b[0] * b[0] + b[1] * b[1]) / 3;
        } else
            cs_geom_inertia(g->s.type, g->s.size, cc->gmass[i], g->s.shell, cc->ginertia + 3 * i);
    }
}

/* body b's mass, centre and principal inertia from its selected geoms (more than one), in
 * MuJoCo's compiler's order: the centre first, then each geom's tensor and parallel-axis
 * term about it */
static void geoms_inertia(cs_mjcf *c, compiling *cc, cs_bspec *B, int b)
{
    double mass = 0, com[3] = {0, 0, 0}, tot[6] = {0, 0, 0, 0, 0, 0};
    for (int i = B->geom0; i < B->geom0 + B->ngeom; i++)
        if (cc->gcounts[i] && cc->gmass[i] > 1e-14) {
            mass += cc->gmass[i];
            for (int k = 0; k < 3; k++) com[k] += cc->gmass[i] * c->geom[i].s.pos[k];
        }
    if (mass < 1e-14)
        BFAIL(c, B, NULL, "body mass is too small to compute the centre of mass of its geoms "
                          "(total %g)", mass);
    double *ip = cc->bipos + 3 * b;
    for (int k = 0; k < 3; k++) ip[k] = com[k] / mass;
    for (int i = B->geom0; i < B->geom0 + B->ngeom; i++) {
        if (!cc->gcounts[i] || !(cc->gmass[i] > 1e-14)) continue;
        const double *gp = c->geom[i].s.pos;
        double d[3] = {gp[0] - ip[0], gp[1] - ip[1], gp[2] - ip[2]}, i0[6], i1[6];
        cs_inertia_global(i0, cc->ginertia + 3 * i, c->geom[i].s.quat);
        cs_inertia_offcenter(i1, cc->gmass[i], d);
        for (int k = 0; k < 6; k++) tot[k] = tot[k] + i0[k] + i1[k];
    }
    double full[9] = {tot[0], tot[3], tot[4], tot[3], tot[1], tot[5], tot[4], tot[5], tot[2]};
    cc->bmass[b] = mass;
    cs_eig3(full, cc->binert + 3 * b, cc->biquat + 4 * b);
}

/* bodies: mass properties, world frames at the reference pose, welds */
static void compile_bodies(cs_mjcf *c, compiling *cc)
{
    cc->bmass = cs_mjcf_alloc(c, (size_t)cc->nb * sizeof *cc->bmass);
    cc->bipos = cs_mjcf_alloc(c, (size_t)cc->nb * 3 * sizeof *cc->bipos);
    cc->biquat = cs_mjcf_alloc(c, (size_t)cc->nb * 4 * sizeof *cc->biquat);
    cc->binert = cs_mjcf_alloc(c, (size_t)cc->nb * 3 * sizeof *cc->binert);
    cc->xpos = cs_mjcf_alloc(c, (size_t)cc->nb * 3 * sizeof *cc->xpos);
    cc->xquat = cs_mjcf_alloc(c, (size_t)cc->nb * 4 * sizeof *cc->xquat);
    cc->weld = cs_mjcf_alloc(c, (size_t)cc->nb * sizeof *cc->weld);
    cc->biquat[0] = 1;
    for (int b = 1; b < cc->nb; b++) {
        cs_bspec *B = &c->body[b];
        int use_geoms = c->inertiafromgeom == 1 || (c->inertiafromgeom == 2 && !B->has_inertial);
        cc->biquat[4 * b] = 1;
        if (use_geoms) {
            /* the geoms in the inertia groups that weigh something, as MuJoCo selects them */
            int nsel = 0, last = -1;
            for (int i = B->geom0; i < B->geom0 + B->ngeom; i++)
                if (cc->gcounts[i] && cc->gmass[i] > 1e-14) { nsel++; last = i; }
            if (nsel == 1) {
                /* MuJoCo copies a single geom's frame and inertia unchanged */
                cc->bmass[b] = cc->gmass[last];
                memcpy(cc->bipos + 3 * b, c->geom[last].s.pos, 3 * sizeof *cc->bipos);
                memcpy(cc->biquat + 4 * b, c->geom[last].s.quat, 4 * sizeof *cc->biquat);
                cs_mjcf_quat_renorm(cc->biquat + 4 * b);
                memcpy(cc->binert + 3 * b, cc->ginertia + 3 * last, 3 * sizeof *cc->binert);
            } else if (nsel > 1) {
                geoms_inertia(c, cc, B, b);
            }
        } else if (B->has_inertial) {
            cc->bmass[b] = B->imass;
            memcpy(cc->bipos + 3 * b, B->ipos, 3 * sizeof *cc->bipos);
            memcpy(cc->biquat + 4 * b, B->iquat, 4 * sizeof *cc->biquat);
            memcpy(cc->binert + 3 * b, B->iinertia, 3 * sizeof *cc->binert);
        }
        if (cc->bmass[b] < c->boundmass) cc->bmass[b] = c->boundmass;
        for (int k = 0; k < 3; k++)
            if (cc->binert[3 * b + k] < c->boundinertia) cc->binert[3 * b + k] = c->boundinertia;
        double *I = cc->binert + 3 * b;
        double tol = 1e-12 * (I[0] + I[1] + I[2]);
        int bad = I[0] + I[1] < I[2] - tol || I[0] + I[2] < I[1] - tol || I[1] + I[2] < I[0] - tol;
        if (bad && c->balanceinertia) {
            double mean = (I[0] + I[1] + I[2]) / 3;
            I[0] = I[1] = I[2] = mean;
        } else if (bad) {
            BFAIL(c, B, NULL, "principal inertia (%g, %g, %g) violates A + B >= C "
                              "(use compiler balanceinertia)", I[0], I[1], I[2]);
        }
    }
}

/* bodies' world frames at the reference pose and welds (after fusing: the final tree) */
static void body_frames(cs_mjcf *c, compiling *cc)
{
    cc->xquat[0] = 1;
    for (int b = 1; b < cc->nb; b++) {
        cs_bspec *B = &c->body[b];
        int p = B->parent;
        rotate(cc->xquat + 4 * p, B->pos, cc->xpos + 3 * b);
        for (int k = 0; k < 3; k++) cc->xpos[3 * b + k] += cc->xpos[3 * p + k];
        cs_mulquat(cc->xquat + 4 * b, cc->xquat + 4 * p, B->quat);
        cs_normquat(cc->xquat + 4 * b);
        cc->weld[b] = B->njnt ? b : cc->weld[p];
    }
    for (int i = 0; i < cc->ng; i++)
        if (c->geom[i].s.type == CS_GEOM_PLANE && cc->weld[c->geom[i].body] != 0)
            GFAIL(c, &c->geom[i], "type", "planes are only allowed in static bodies");
}

/* <compiler settotalmass>: every body scaled, after fusing as MuJoCo's mj_setTotalmass */
static void total_mass(cs_mjcf *c, compiling *cc)
{
    if (c->settotalmass > 0) {
        double tot = 0;
        for (int b = 1; b < cc->nb; b++) tot += cc->bmass[b];
        if (tot > 0) {
            double s = c->settotalmass / tot;
            for (int b = 1; b < cc->nb; b++) {
                cc->bmass[b] *= s;
                for (int k = 0; k < 3; k++) cc->binert[3 * b + k] *= s;
            }
        }
    }
}

/* the pose of a child frame (p, q) re-expressed through the frame (fp, fq): (fp, fq) o (p, q) */
static void frame_child(const double fp[3], const double fq[4], double p[3], double q[4])
{
    double r[3], t[4];
    rotate(fq, p, r);
    for (int k = 0; k < 3; k++) p[k] = fp[k] + r[k];
    cs_mulquat(t, fq, q);
    cs_normquat(t);
    memcpy(q, t, sizeof t);
}

/* MuJoCo's free-joint alignment: a body whose only joint is a free joint with align (and no
 * child bodies) gets its inertial frame as its body frame; its geoms, sites, cameras and
 * lights are re-expressed in it (its qpos then means the inertial frame's pose) */
static void align_free_bodies(cs_mjcf *c, compiling *cc)
{
    for (int j = 0; j < c->njnt; j++) {
        int b = c->jnt[j].body;
        cs_bspec *B = &c->body[b];
        if (!c->jnt[j].align || c->jnt[j].s.type != CS_JNT_FREE || B->njnt != 1) continue;
        int leaf = 1;
        for (int k = b + 1; k < cc->nb && leaf; k++) leaf = c->body[k].parent != b;
        if (!leaf) continue;
        double ip[3], iq[4], ipi[3], iqi[4];
        memcpy(ip, cc->bipos + 3 * b, sizeof ip);
        memcpy(iq, cc->biquat + 4 * b, sizeof iq);
        cs_normquat(iq);
        frame_child(B->pos, B->quat, ip, iq); /* the inertial frame in the parent's */
        double pp[3], pq[4];
        memcpy(pp, cc->bipos + 3 * b, sizeof pp);
        memcpy(pq, cc->biquat + 4 * b, sizeof pq);
        cs_normquat(pq);
        conjq(pq, iqi);
        rotate(iqi, pp, ipi);
        for (int k = 0; k < 3; k++) ipi[k] = -ipi[k];
        memcpy(B->pos, ip, sizeof ip);
        memcpy(B->quat, iq, sizeof iq);
        for (int g = B->geom0; g < B->geom0 + B->ngeom; g++)
            frame_child(ipi, iqi, c->geom[g].s.pos, c->geom[g].s.quat);
        for (int s = 0; s < c->nsite; s++)
            if (c->site[s].body == b) frame_child(ipi, iqi, c->site[s].pos, c->site[s].quat);
        cs_mjcf_visual_reframe(c, b, ipi, iqi);
        memset(cc->bipos + 3 * b, 0, 3 * sizeof *cc->bipos);
        memcpy(cc->biquat + 4 * b, (const double[4]){1, 0, 0, 0}, 4 * sizeof *cc->biquat);
        int p = B->parent;
        rotate(cc->xquat + 4 * p, B->pos, cc->xpos + 3 * b);
        for (int k = 0; k < 3; k++) cc->xpos[3 * b + k] += cc->xpos[3 * p + k];
        cs_mulquat(cc->xquat + 4 * b, cc->xquat + 4 * p, B->quat);
        cs_normquat(cc->xquat + 4 * b);
    }
}

/* a free body carries everything welded to it: that composite needs mass and inertia */
static void check_free_bodies(cs_mjcf *c, compiling *cc)
{
    for (int j = 0; j < c->njnt; j++) {
        if (c->jnt[j].s.type != CS_JNT_FREE) continue;
        int b = c->jnt[j].body;
        cs_mass_acc acc;
        cs_mass_acc_init(&acc);
        double qinv[4], I[9], com[3];
        conjq(cc->xquat + 4 * b, qinv);
        for (int k = b; k < cc->nb; k++) {
            if (cc->weld[k] != b) continue;
            double rq[4], rp[3], d[3], ip[3], iq[4];
            cs_mulquat(rq, qinv, cc->xquat + 4 * k);
            for (int i = 0; i < 3; i++) d[i] = cc->xpos[3 * k + i] - cc->xpos[3 * b + i];
            rotate(qinv, d, rp);
            rotate(rq, cc->bipos + 3 * k, ip);
            for (int i = 0; i < 3; i++) ip[i] += rp[i];
            cs_mulquat(iq, rq, cc->biquat + 4 * k);
            cs_mass_acc_add(&acc, cc->bmass[k], ip, iq, cc->binert + 3 * k);
        }
        cs_bspec *B = &c->body[b];
        if (!cs_mass_acc_result(&acc, com, I) || acc.mass < 1e-15)
            BFAIL(c, B, NULL, "a free body needs a positive mass (its geoms and <inertial> "
                              "give %g)", acc.mass);
        double ev[3], q[4];
        cs_eig3(I, ev, q);
        if (!(ev[2] > 1e-15))
            BFAIL(c, B, NULL, "a free body needs positive inertia (principal moments %g, %g, %g)",
                  ev[0], ev[1], ev[2]);
    }
}

/* joints' addresses, in body (= joint) order */
static void joint_addresses(cs_mjcf *c, compiling *cc)
{
    cc->nj = c->njnt;
    cc->jqadr = cs_mjcf_alloc(c, (size_t)(cc->nj + 1) * sizeof *cc->jqadr);
    cc->jdadr = cs_mjcf_alloc(c, (size_t)(cc->nj + 1) * sizeof *cc->jdadr);
    for (int j = 0; j < cc->nj; j++) {
        cc->jqadr[j] = cc->nq;
        cc->jdadr[j] = cc->nv;
        cc->nq += cs_jnt_nq(c->jnt[j].s.type);
        cc->nv += cs_jnt_nv(c->jnt[j].s.type);
    }
}

/* pairs' geoms and excludes' bodies by name */
static void resolve_pairs(cs_mjcf *c, compiling *cc)
{
    cc->pg1 = cs_mjcf_alloc(c, (size_t)(c->npair + 1) * sizeof *cc->pg1);
    cc->pg2 = cs_mjcf_alloc(c, (size_t)(c->npair + 1) * sizeof *cc->pg2);
    for (int i = 0; i < c->npair; i++) {
        cs_pairir *p = &c->pair[i];
        cc->pg1[i] = cs_mjcf_find_geom(c, p->geom1);
        if (cc->pg1[i] < 0) cs_mjcf_fail(c, p->line, "pair", "geom1", "no geom named '%s'", p->geom1);
        cc->pg2[i] = cs_mjcf_find_geom(c, p->geom2);
        if (cc->pg2[i] < 0) cs_mjcf_fail(c, p->line, "pair", "geom2", "no geom named '%s'", p->geom2);
        if (cc->pg1[i] == cc->pg2[i])
            cs_mjcf_fail(c, p->line, "pair", "geom2", "a geom cannot be paired with itself");
        if (p->s.margin + p->s.gap < 0)
            cs_mjcf_fail(c, p->line, "pair", "margin", "margin + gap must not be negative "
                         "(margin %g, gap %g)", p->s.margin, p->s.gap);
        if (p->s.adhesion != 0 && c->opt.contact == CS_CONTACT_COULOMB)
            cs_mjcf_fail(c, p->line, "pair", "adhesion", "%s", COULOMB_NO_ADHESION);
    }
    cc->eb1 = cs_mjcf_alloc(c, (size_t)(c->nexcl + 1) * sizeof *cc->eb1);
    cc->eb2 = cs_mjcf_alloc(c, (size_t)(c->nexcl + 1) * sizeof *cc->eb2);
    for (int i = 0; i < c->nexcl; i++) {
        cs_exclir *e = &c->excl[i];
        cc->eb1[i] = cs_mjcf_find_body(c, e->body1);
        if (cc->eb1[i] < 0) cs_mjcf_fail(c, e->line, "exclude", "body1", "no body named '%s'", e->body1);
        cc->eb2[i] = cs_mjcf_find_body(c, e->body2);
        if (cc->eb2[i] < 0) cs_mjcf_fail(c, e->line, "exclude", "body2", "no body named '%s'", e->body2);
    }
}

/* the reference pose and the springs' rest pose; mocap bodies */
static void reference_pose(cs_mjcf *c, compiling *cc)
{
    cc->qpos0 = cs_mjcf_alloc(c, (size_t)(cc->nq + 1) * sizeof *cc->qpos0);
    cc->qspring = cs_mjcf_alloc(c, (size_t)(cc->nq + 1) * sizeof *cc->qspring);
    for (int j = 0; j < cc->nj; j++) {
        const cs_jspec *J = &c->jnt[j].s;
        double *q = cc->qpos0 + cc->jqadr[j], *qs = cc->qspring + cc->jqadr[j];
        int b = c->jnt[j].body;
        switch ((cs_joint_type)J->type) {
        case CS_JNT_FREE:
            memcpy(q, cc->xpos + 3 * b, 3 * sizeof *q);
            memcpy(q + 3, cc->xquat + 4 * b, 4 * sizeof *q);
            if (c->body[b].parent == 0) {
                /* MuJoCo's qpos0 is the body's own quaternion, normalized only when far
                 * from unit (the world's turn would normalize it once more) */
                memcpy(q + 3, c->body[b].quat, 4 * sizeof *q);
                cs_mjcf_quat_renorm(q + 3);
            }
            memcpy(qs, q, 7 * sizeof *q);
            break;
        case CS_JNT_BALL:
            q[0] = qs[0] = 1;
            q[1] = q[2] = q[3] = qs[1] = qs[2] = qs[3] = 0;
            break;
        case CS_JNT_SLIDE:
        case CS_JNT_HINGE:
            q[0] = J->ref;
            qs[0] = J->springref;
            break;
        }
    }
    cc->nmocap = 0;
    for (int b = 0; b < cc->nb; b++) {
        if (!c->body[b].mocap) continue;
        if (c->body[b].njnt > 0)
            BFAIL(c, &c->body[b], "mocap", "a mocap body cannot have joints");
        cc->nmocap++;
    }
}

static void complete_keys(cs_mjcf *c, compiling *cc)
{
    /* an attached model's keys, in its own layout: into this model's (mjcf_attach.c) */
    cs_mjcf_attach_keys(c, cc->qpos0, cc->jqadr, cc->jdadr, cc->nq, cc->nv);
    /* <size nkey>: MuJoCo adds keys, all at their defaults (qpos0, time 0), up to that many */
    while (c->nkey < c->size_nkey) {
        cs_mjcf_grow(c, (void **)&c->key, &c->capkey, c->nkey, sizeof *c->key);
        c->key[c->nkey] = (cs_keyir){.line = c->size_line};
        c->nkey++;
    }
    /* A short key is completed as MuJoCo 3.12 does (mjCModel::ExpandKeyframe): qpos from qpos0,
     * qvel, ctrl and act with 0, each mocap body not given in full from its own pose (when the
     * model is filled below); a long one is an error. */
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *K = &c->key[k];
        if (K->mpos && K->nmpos > 3 * cc->nmocap)
            cs_mjcf_fail(c, K->line, "key", "mpos", "expects at most %d numbers (3 per mocap "
                         "body), got %d", 3 * cc->nmocap, K->nmpos);
        if (K->mquat && K->nmquat > 4 * cc->nmocap)
            cs_mjcf_fail(c, K->line, "key", "mquat", "expects at most %d numbers (4 per mocap "
                         "body), got %d", 4 * cc->nmocap, K->nmquat);
        for (int i = 0; K->mquat && i < K->nmquat / 4; i++) {
            double *q = K->mquat + 4 * i;
            double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (l < 1e-15)
                cs_mjcf_fail(c, K->line, "key", "mquat", "zero quaternion for mocap body %d", i);
            for (int r = 0; r < 4; r++) q[r] /= l;
        }
    }
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *K = &c->key[k];
        if (K->qpos && K->nqpos > cc->nq)
            cs_mjcf_fail(c, K->line, "key", "qpos", "expects at most %d numbers (nq: the "
                         "joints' positions in MuJoCo's layout), got %d", cc->nq, K->nqpos);
        if (K->qvel && K->nqvel > cc->nv)
            cs_mjcf_fail(c, K->line, "key", "qvel", "expects at most %d numbers (nv: the "
                         "joints' velocities in MuJoCo's layout), got %d", cc->nv, K->nqvel);
        if (K->qpos) K->qpos = key_pad(c, K->qpos, K->nqpos, cc->nq, cc->qpos0);
        if (K->qvel) K->qvel = key_pad(c, K->qvel, K->nqvel, cc->nv, NULL);
        for (int j = 0; K->qpos && j < cc->nj; j++) {
            int t = c->jnt[j].s.type;
            if (t != CS_JNT_FREE && t != CS_JNT_BALL) continue;
            double *q = K->qpos + cc->jqadr[j] + (t == CS_JNT_FREE ? 3 : 0);
            /* MuJoCo 3.12 normalises them twice, each time only when the length is off 1
             * (by 1e-14, dividing; then by 1e-15, times the inverse): a unit quaternion
             * keeps its last bits */
            double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (l >= 1e-14 && fabs(l - 1) > 1e-14)
                for (int i = 0; i < 4; i++) q[i] /= l;
            l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (l < 1e-15) { /* the identity, as MuJoCo's normalisation makes it */
                q[0] = 1;
                q[1] = q[2] = q[3] = 0;
                continue;
            }
            if (fabs(l - 1) > 1e-15) {
                double inv = 1 / l;
                for (int i = 0; i < 4; i++) q[i] *= inv;
            }
        }
        if (K->name)
            for (int j = 0; j < k; j++)
                if (c->key[j].name && strcmp(c->key[j].name, K->name) == 0)
                    cs_mjcf_fail(c, K->line, "key", "name", "duplicate key name '%s'", K->name);
    }
}

/* actuators: the joint they drive, their types, ranges (inheritrange, limits) and
 * activations, as MuJoCo's compiler resolves them; keys' ctrl and act completed */
static void compile_actuators(cs_mjcf *c, compiling *cc)
{
    cc->nact = c->nact;
    cc->nu = cc->na = cc->nout = 0;
    cc->ajnt = cs_mjcf_alloc(c, (size_t)(cc->nact + 1) * sizeof *cc->ajnt);
    cc->aadr = cs_mjcf_alloc(c, (size_t)(cc->nact + 1) * sizeof *cc->aadr);
    cc->alim = cs_mjcf_alloc(c, (size_t)(3 * cc->nact + 1) * sizeof *cc->alim);
    cc->cadr = cs_mjcf_alloc(c, (size_t)(cc->nact + 1) * sizeof *cc->cadr);
    cc->cnum = cs_mjcf_alloc(c, (size_t)(cc->nact + 1) * sizeof *cc->cnum);
    cc->oadr = cs_mjcf_alloc(c, (size_t)(cc->nact + 1) * sizeof *cc->oadr);
    for (int i = 0; i < cc->nact; i++)
        resolve_actuator(c, &c->act[i], cc->ajnt + i, cc->alim + 3 * i);
    for (int i = 0; i < cc->nact; i++) {
        const cs_aspec *s = &c->act[i].s;
        int n = cs_mjcf_act_states(s);
        cc->aadr[i] = n ? cc->na : -1;
        cc->na += n;
        cc->cadr[i] = cc->nu;
        cc->cnum[i] = cs_mjcf_act_ctrlnum(s);
        cc->nu += cc->cnum[i];
        cc->oadr[i] = cc->nout;
        cc->nout += cs_mjcf_act_outputs(s);
    }
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *K = &c->key[k];
        if (K->ctrl && K->nctrl > cc->nu)
            cs_mjcf_fail(c, K->line, "key", "ctrl", "expects at most %d numbers (nu: the "
                         "actuators' controls), got %d", cc->nu, K->nctrl);
        if (K->act && K->nact > cc->na)
            cs_mjcf_fail(c, K->line, "key", "act", "expects at most %d numbers (na: one per "
                         "actuator with dynamics), got %d", cc->na, K->nact);
        if (K->ctrl) K->ctrl = key_pad(c, K->ctrl, K->nctrl, cc->nu, NULL);
        if (K->act) K->act = key_pad(c, K->act, K->nact, cc->na, NULL);
    }

}

/* the dof forest: a dof's parent is the previous dof of its body, else the last dof of
 * the parent's chain; a dof without a parent starts a tree */
static void dof_forest(cs_mjcf *c, compiling *cc)
{
    cc->mo0 = cs_mjcf_alloc(c, ((size_t)cc->nv + 1) * sizeof *cc->mo0);
    cc->lastdof = cs_mjcf_alloc(c, (size_t)cc->nb * sizeof *cc->lastdof);
    cc->dparent = cs_mjcf_alloc(c, (size_t)(cc->nv + 1) * sizeof *cc->dparent);
    cc->dtree = cs_mjcf_alloc(c, (size_t)(cc->nv + 1) * sizeof *cc->dtree);
    cc->ntree = cc->nM = 0;
    cc->lastdof[0] = -1;
    for (int b = 1; b < cc->nb; b++) {
        cc->lastdof[b] = cc->lastdof[c->body[b].parent];
        for (int j = c->body[b].jnt0; j < c->body[b].jnt0 + c->body[b].njnt; j++)
            for (int k = 0; k < cs_jnt_nv(c->jnt[j].s.type); k++) {
                int i = cc->jdadr[j] + k;
                cc->dparent[i] = cc->lastdof[b];
                cc->dtree[i] = cc->dparent[i] < 0 ? cc->ntree++ : cc->dtree[cc->dparent[i]];
                cc->lastdof[b] = i;
                for (int a = i; a >= 0; a = cc->dparent[a]) cc->nM++;
            }
    }

}

/* the model with its sizes and every array allocated (NULL out of memory) */
static cs_model * new_model(cs_mjcf *c, compiling *cc)
{
    cs_model *m = cs_calloc(1, sizeof *m);
    if (!m) cs_mjcf_nomem(c);
    m->modelname = dupname(c->modelname, &cc->nameoom);
    m->path = dupname(c->file, &cc->nameoom);
    m->nbody = cc->nb;
    m->ngeom = cc->ng;
    m->njnt = cc->nj;
    m->nq = cc->nq;
    m->nv = cc->nv;
    m->npair = c->npair;
    m->nexclude = c->nexcl;
    m->nkey = c->nkey;
    m->opt = c->opt;
    m->stat_extent = c->stat_extent;
    memcpy(m->stat_center, c->stat_center, sizeof m->stat_center);
    m->vis_azimuth = c->vis_azimuth;
    m->vis_elevation = c->vis_elevation;
    m->vis_fovy = c->vis_fovy;
    m->vis_orthographic = c->vis_orthographic;
    int nmv = 0, nmf = 0, nmg = 0, nmh = 0, nmt = 0;
    for (int k = 0; k < c->nmesh; k++) {
        nmt += c->mesh[k].ntexcoord;
        nmv += c->mesh[k].nvert;
        nmf += c->mesh[k].ntri;
        nmg += c->mesh[k].ngraph;
        nmh += c->mesh[k].nhull;
    }
    m->nmesh = c->nmesh;
    m->nmeshvert = nmv;
    m->nmeshface = nmf;
    m->nmeshgraph = nmg;
    m->nmeshhull = nmh;
    m->nmeshtexcoord = nmt;
    m->nactuator = cc->nact;
    m->nu = cc->nu;
    m->nout = cc->nout;
    m->na = cc->na;
    m->ntree = cc->ntree;
    m->nM = cc->nM;
    m->nmocap = cc->nmocap;
    cs_mjcf_tendon_sizes(c, m);
    cs_mjcf_sensor_sizes(c, m);
    for (int i = 0; i < cc->nact; i++) /* the actuators' buffers, then the sensors' */
        if (c->act[i].s.nsample > 0) m->nhistory += cs_history_size(c->act[i].s.nsample, 1);
    cs_mjcf_visual_sizes(c, m);
    cs_mjcf_hfield_sizes(c, m);
    m->nconmax = c->nconmax > 0 ? c->nconmax : contact_bound(c, m);
    m->ncon_reserve = c->nconmax > 0 ? c->nconmax : (m->nconmax < 64 ? m->nconmax : 64);
    int oom = cs_model_alloc(m) != 0 || cs_mjcf_build_tendons(c, m) != 0;
    if (oom) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    return m;
}

static void fill_bodies(cs_mjcf *c, compiling *cc, cs_model *m)
{
    int imocap = 0;
    for (int b = 0; b < cc->nb; b++) {
        cs_bspec *B = &c->body[b];
        m->body_parent[b] = B->parent;
        m->body_weldid[b] = cc->weld[b];
        m->body_geomadr[b] = B->ngeom ? B->geom0 : -1;
        m->body_geomnum[b] = B->ngeom;
        memcpy(m->body_pos + 3 * b, B->pos, 3 * sizeof(double));
        memcpy(m->body_quat + 4 * b, B->quat, 4 * sizeof(double));
        memcpy(m->body_ipos + 3 * b, cc->bipos + 3 * b, 3 * sizeof(double));
        memcpy(m->body_iquat + 4 * b, cc->biquat + 4 * b, 4 * sizeof(double));
        m->body_mass[b] = cc->bmass[b];
        m->body_gravcomp[b] = B->gravcomp;
        m->body_mocapid[b] = B->mocap ? imocap++ : -1;
        m->ngravcomp += B->gravcomp != 0;
        memcpy(m->body_inertia + 3 * b, cc->binert + 3 * b, 3 * sizeof(double));
        m->body_name[b] = dupname(B->name, &cc->nameoom);
    }
}

/* joints and their dofs */
static void fill_joints(cs_mjcf *c, compiling *cc, cs_model *m)
{
    for (int j = 0; j < cc->nj; j++) {
        const cs_jspec *J = &c->jnt[j].s;
        m->jnt_type[j] = J->type;
        m->jnt_qposadr[j] = cc->jqadr[j];
        m->jnt_dofadr[j] = cc->jdadr[j];
        m->jnt_bodyid[j] = c->jnt[j].body;
        m->jnt_limited[j] = J->limited == CS_LIMITED_TRUE;
        memcpy(m->jnt_pos + 3 * j, J->pos, 3 * sizeof(double));
        memcpy(m->jnt_axis + 3 * j, J->axis, 3 * sizeof(double));
        memcpy(m->jnt_range + 2 * j, J->range, 2 * sizeof(double));
        m->jnt_stiffness[j] = J->stiffness[0];
        memcpy(m->jnt_stiffnesspoly + CS_NPOLY * j, J->stiffness + 1, CS_NPOLY * sizeof(double));
        m->jnt_margin[j] = J->margin;
        memcpy(m->jnt_solref + 2 * j, J->solreflimit, 2 * sizeof(double));
        memcpy(m->jnt_solimp + 5 * j, J->solimplimit, 5 * sizeof(double));
        m->jnt_name[j] = dupname(c->jnt[j].name, &cc->nameoom);
        m->jnt_actfrclimited[j] = J->actfrclimited == CS_LIMITED_TRUE;
        memcpy(m->jnt_actfrcrange + 2 * j, J->actfrcrange, 2 * sizeof(double));
        m->jnt_actgravcomp[j] = J->actgravcomp;
        for (int k = 0; k < cs_jnt_nv(J->type); k++) {
            int i = cc->jdadr[j] + k;
            m->dof_jntid[i] = j;
            m->dof_bodyid[i] = c->jnt[j].body;
            m->dof_armature[i] = J->armature;
            m->dof_damping[i] = J->damping[0];
            memcpy(m->dof_dampingpoly + CS_NPOLY * i, J->damping + 1, CS_NPOLY * sizeof(double));
            m->dof_frictionloss[i] = J->frictionloss;
            memcpy(m->dof_solref + 2 * i, J->solreffriction, 2 * sizeof(double));
            memcpy(m->dof_solimp + 5 * i, J->solimpfriction, 5 * sizeof(double));
        }
    }
    memcpy(m->qpos0, cc->qpos0, (size_t)cc->nq * sizeof(double));
    memcpy(m->qpos_spring, cc->qspring, (size_t)cc->nq * sizeof(double));
}

/* the forest: row i of M holds M(i,i) and one entry per ancestor dof */
static void fill_forest(cs_mjcf *c, compiling *cc, cs_model *m)
{
    m->ntree = cc->ntree;
    m->nM = 0;
    for (int i = 0; i < cc->nv; i++) {
        m->dof_parent[i] = cc->dparent[i];
        m->dof_treeid[i] = cc->dtree[i];
        m->dof_Madr[i] = m->nM;
        for (int a = i; a >= 0; a = cc->dparent[a]) m->nM++;
        if (cc->dparent[i] < 0) m->tree_dofadr[cc->dtree[i]] = i;
        m->tree_dofnum[cc->dtree[i]]++;
    }
    for (int b = 0; b < cc->nb; b++) {
        const cs_bspec *B = &c->body[b];
        int p = B->parent;
        m->body_rootid[b] = (b == 0 || p == 0) ? b : m->body_rootid[p];
        m->body_jntadr[b] = B->njnt ? B->jnt0 : -1;
        m->body_jntnum[b] = B->njnt;
        int nd = 0;
        for (int j = B->jnt0; j < B->jnt0 + B->njnt; j++) nd += cs_jnt_nv(c->jnt[j].s.type);
        m->body_dofadr[b] = nd ? cc->jdadr[B->jnt0] : -1;
        m->body_dofnum[b] = nd;
        m->body_lastdof[b] = cc->lastdof[b];
        m->body_treeid[b] = cc->lastdof[b] >= 0 ? cc->dtree[cc->lastdof[b]] : -1;
    }
}

static void body_simple(const cs_mjcf *c, cs_model *m)
{
    /* MuJoCo's body_simple: the inertial frame is the body frame, and the body is a root or
     * hangs from a static child of the world; a parent is never simple; joints must sit at
     * the body origin with axis-aligned hinge/slide axes and nothing after a rotation; slide
     * joints only give 2 */
    for (int b = 1; b < m->nbody; b++) {
        const double *ip = m->body_ipos + 3 * b, *iq = m->body_iquat + 4 * b;
        int same = near0(ip[0]) && near0(ip[1]) && near0(ip[2]) &&
                   near0(iq[1]) && near0(iq[2]) && near0(iq[3]) && near0(fabs(iq[0]) - 1);
        int p = m->body_parent[b];
        m->body_simple[b] = same && !c->body[b].nosimple &&
                            (m->body_rootid[b] == b ||
                             (m->body_parent[p] == 0 && m->body_dofnum[p] == 0));
        if (p > 0) m->body_simple[p] = 0;
        int rot = 0, allslide = 1;
        for (int j = m->body_jntadr[b]; j >= 0 && j < m->body_jntadr[b] + m->body_jntnum[b]; j++) {
            const double *a = m->jnt_axis + 3 * j, *jp = m->jnt_pos + 3 * j;
            int t = m->jnt_type[j];
            int aligned = (!near0(a[0])) + (!near0(a[1])) + (!near0(a[2])) == 1;
            if (rot || !(near0(jp[0]) && near0(jp[1]) && near0(jp[2])) ||
                ((t == CS_JNT_HINGE || t == CS_JNT_SLIDE) && !aligned))
                m->body_simple[b] = 0;
            if (t == CS_JNT_BALL || t == CS_JNT_HINGE) rot = 1;
            if (t != CS_JNT_SLIDE) allslide = 0;
        }
        if (m->body_simple[b] && m->body_dofnum[b]) m->body_simple[b] = allslide ? 2 : 1;
    }
}

/* a tendon with armature couples the dofs its path's bodies move: those are not simple
 * (after the geoms' bodies are known) */
static void tendon_armature_simple(cs_model *m)
{
    for (int t = 0; t < m->ntendon; t++)
        for (int w = m->tendon_adr[t]; m->tendon_armature[t] != 0 &&
                                       w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
            int o = m->wrap_objid[w];
            if (m->wrap_type[w] == CS_WRAP_SITE) m->body_simple[m->site_bodyid[o]] = 0;
            if (m->wrap_type[w] == CS_WRAP_SPHERE || m->wrap_type[w] == CS_WRAP_CYLINDER)
                m->body_simple[m->geom_body[o]] = 0;
        }
}

static void fill_geoms(cs_mjcf *c, compiling *cc, cs_model *m)
{
    for (int i = 0; i < cc->ng; i++) {
        cs_gspec *s = &c->geom[i].s;
        m->geom_type[i] = s->type;
        m->geom_body[i] = c->geom[i].body;
        m->geom_contype[i] = s->contype;
        m->geom_conaffinity[i] = s->conaffinity;
        m->geom_condim[i] = s->condim;
        m->geom_priority[i] = s->priority;
        m->geom_group[i] = s->group;
        memcpy(m->geom_size + 3 * i, s->size, 3 * sizeof(double));
        memcpy(m->geom_pos + 3 * i, s->pos, 3 * sizeof(double));
        memcpy(m->geom_quat + 4 * i, s->quat, 4 * sizeof(double));
        /* as the compiler normalises: a frame composed with a mesh's keeps its last bits */
        cs_mjcf_quat_renorm(m->geom_quat + 4 * i);
        memcpy(m->geom_friction + 3 * i, s->friction, 3 * sizeof(double));
        m->geom_solmix[i] = s->solmix;
        memcpy(m->geom_solref + 2 * i, s->solref, 2 * sizeof(double));
        memcpy(m->geom_solimp + 5 * i, s->solimp, 5 * sizeof(double));
        m->geom_margin[i] = s->margin;
        m->geom_gap[i] = s->gap;
        memcpy(m->geom_surfacevel + 6 * i, s->surfacevel, 6 * sizeof(double));
        m->geom_adhesion[i] = s->adhesion;
        memcpy(m->geom_rgba + 4 * i, s->rgba, 4 * sizeof(double));
        int hf = c->geom[i].hfieldid;
        m->geom_dataid[i] = hf >= 0 ? hf : c->geom[i].meshid;
        m->geom_rbound[i] = c->geom[i].meshid >= 0 ? c->mesh[c->geom[i].meshid].rbound
                            : hf >= 0 ? cs_mjcf_hfield_rbound(&c->hfield[hf])
                                      : cs_geom_rbound(s->type, s->size);
        m->geom_mass[i] = cc->gmass[i];
        cs_fluid_coefs(s->type, m->geom_size + 3 * i, s->fluidshape, s->fluidcoef,
                       m->geom_fluid + 12 * i);
        m->geom_name[i] = dupname(c->geom[i].name, &cc->nameoom);
    }
}

static void fill_meshes(cs_mjcf *c, compiling *cc, cs_model *m)
{
    for (int k = 0, av = 0, af = 0, ag = 0, ah = 0, at = 0; k < c->nmesh; k++) {
        const cs_meshir *M = &c->mesh[k];
        m->mesh_texcoordadr[k] = M->ntexcoord ? at : -1;
        m->mesh_texcoordnum[k] = M->ntexcoord;
        if (M->ntexcoord) {
            memcpy(m->mesh_texcoord + 2 * (size_t)at, M->texcoord,
                   2 * (size_t)M->ntexcoord * sizeof(double));
            memcpy(m->mesh_facetexcoord + 3 * (size_t)af, M->facetex,
                   3 * (size_t)M->ntri * sizeof(int));
        } else {
            memset(m->mesh_facetexcoord + 3 * (size_t)af, 0, 3 * (size_t)M->ntri * sizeof(int));
        }
        at += M->ntexcoord;
        m->mesh_vertadr[k] = av;
        m->mesh_vertnum[k] = M->nvert;
        m->mesh_faceadr[k] = af;
        m->mesh_facenum[k] = M->ntri;
        m->mesh_graphadr[k] = M->ngraph ? ag : -1;
        m->mesh_hulladr[k] = M->ngraph ? ah : -1;
        memcpy(m->mesh_vert + 3 * (size_t)av, M->vert, 3 * (size_t)M->nvert * sizeof(double));
        memcpy(m->mesh_face + 3 * (size_t)af, M->tri, 3 * (size_t)M->ntri * sizeof(int));
        if (M->ngraph) {
            memcpy(m->mesh_graph + ag, M->graph, (size_t)M->ngraph * sizeof(int));
            memcpy(m->mesh_hull + ah, M->hull, (size_t)M->nhull * sizeof(double));
        }
        memcpy(m->mesh_pos + 3 * k, M->pos, 3 * sizeof(double));
        memcpy(m->mesh_quat + 4 * k, M->quat, 4 * sizeof(double));
        m->mesh_volume[k] = M->volume;
        m->mesh_name[k] = dupname(M->name, &cc->nameoom);
        av += M->nvert;
        af += M->ntri;
        ag += M->ngraph;
        ah += M->nhull;
    }
}

static void fill_pairs(cs_mjcf *c, compiling *cc, cs_model *m)
{
    for (int i = 0, np = c->npair; i < np; i++) {
        cs_pspec *s = &c->pair[i].s;
        m->pair_geom1[i] = cc->pg1[i];
        m->pair_geom2[i] = cc->pg2[i];
        m->pair_condim[i] = s->condim;
        memcpy(m->pair_friction + 5 * i, s->friction, 5 * sizeof(double));
        memcpy(m->pair_solref + 2 * i, s->solref, 2 * sizeof(double));
        memcpy(m->pair_solreffriction + 2 * i, s->solreffriction, 2 * sizeof(double));
        memcpy(m->pair_solimp + 5 * i, s->solimp, 5 * sizeof(double));
        m->pair_margin[i] = s->margin;
        m->pair_gap[i] = s->gap;
        m->pair_adhesion[i] = s->adhesion;
        m->pair_name[i] = dupname(c->pair[i].name, &cc->nameoom);
    }
    for (int i = 0; i < c->nexcl; i++) {
        m->exclude_body1[i] = cc->eb1[i];
        m->exclude_body2[i] = cc->eb2[i];
    }
}

static void fill_keys(cs_mjcf *c, compiling *cc, cs_model *m)
{
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *K = &c->key[k];
        m->key_time[k] = K->time;
        memcpy(m->key_qpos + (size_t)cc->nq * k, K->qpos ? K->qpos : cc->qpos0, (size_t)cc->nq * sizeof(double));
        if (K->qvel) memcpy(m->key_qvel + (size_t)cc->nv * k, K->qvel, (size_t)cc->nv * sizeof(double));
        m->key_name[k] = dupname(K->name, &cc->nameoom);
    }

    for (int k = 0; k < c->nkey; k++) { /* mocap poses: the bodies' own unless given */
        cs_keyir *K = &c->key[k];
        for (int b = 0; b < cc->nb; b++) {
            int i = m->body_mocapid[b];
            if (i < 0) continue;
            double *kp = m->key_mpos + 3 * ((size_t)cc->nmocap * k + i);
            double *kq = m->key_mquat + 4 * ((size_t)cc->nmocap * k + i);
            int gp = K->mpos && 3 * i + 3 <= K->nmpos, gq = K->mquat && 4 * i + 4 <= K->nmquat;
            memcpy(kp, gp ? K->mpos + 3 * i : m->body_pos + 3 * b, 3 * sizeof *kp);
            memcpy(kq, gq ? K->mquat + 4 * i : m->body_quat + 4 * b, 4 * sizeof *kq);
        }
    }
    for (int k = 0; k < c->nkey; k++) {
        cs_keyir *K = &c->key[k];
        if (K->ctrl) memcpy(m->key_ctrl + (size_t)cc->nu * k, K->ctrl, (size_t)cc->nu * sizeof(double));
        if (K->act) memcpy(m->key_act + (size_t)cc->na * k, K->act, (size_t)cc->na * sizeof(double));
    }
}

/* the ranges of an actuator's n controls (MuJoCo's): ctrlrange for each, a pid's vel and
 * ff inputs their own ranges, limited when they are proper */
static void ctrl_ranges(const cs_aspec *A, int limited, int *lim, double *range, int n)
{
    for (int k = 0; k < n; k++) {
        lim[k] = limited;
        memcpy(range + 2 * k, A->ctrlrange, sizeof A->ctrlrange);
    }
    if (A->gaintype != CS_GAIN_PID) return;
    int k = A->ctrlspec & CS_INPUT_POS ? 1 : 0;
    const double *own[2] = {A->velrange, A->ffrange};
    const int bit[2] = {CS_INPUT_VEL, CS_INPUT_FF};
    for (int b = 0; b < 2; b++)
        if (A->ctrlspec & bit[b]) {
            lim[k] = own[b][0] < own[b][1];
            memcpy(range + 2 * k, own[b], 2 * sizeof *own[b]);
            k++;
        }
}

static void fill_actuators(cs_mjcf *c, compiling *cc, cs_model *m)
{
    int hadr = 0; /* the next history buffer's start */
    for (int i = 0; i < cc->nact; i++) {
        const cs_aspec *A = &c->act[i].s;
        m->actuator_trntype[i] = A->gaintype == CS_GAIN_SO3 ? CS_TRN_SO3
                                 : c->act[i].tendon      ? CS_TRN_TENDON
                                 : c->act[i].cranksite ? CS_TRN_SLIDERCRANK
                                 : c->act[i].site      ? CS_TRN_SITE
                                 : c->act[i].body      ? CS_TRN_BODY
                                 : c->act[i].jip && (c->jnt[cc->ajnt[i]].s.type == CS_JNT_BALL ||
                                                     c->jnt[cc->ajnt[i]].s.type == CS_JNT_FREE)
                                     ? CS_TRN_JOINTINPARENT
                                     : CS_TRN_JOINT;
        m->actuator_cranklength[i] = c->act[i].cranksite ? A->cranklength : 0;
        m->actuator_dyntype[i] = A->dyntype;
        m->actuator_gaintype[i] = A->gaintype;
        m->actuator_biastype[i] = A->biastype;
        m->actuator_trnid[2 * i] = cc->ajnt[i];
        m->actuator_trnid[2 * i + 1] = c->act[i].slider;
        m->actuator_actadr[i] = cc->aadr[i];
        m->actuator_actnum[i] = cs_mjcf_act_states(A);
        m->actuator_ctrladr[i] = cc->cadr[i];
        m->actuator_ctrlnum[i] = cc->cnum[i];
        m->actuator_ctrlspec[i] = A->ctrlspec;
        m->actuator_outadr[i] = cc->oadr[i];
        m->actuator_outnum[i] = cs_mjcf_act_outputs(A);
        ctrl_ranges(A, cc->alim[3 * i], m->actuator_ctrllimited + cc->cadr[i],
                    m->actuator_ctrlrange + 2 * cc->cadr[i], cc->cnum[i]);
        m->actuator_forcelimited[i] = cc->alim[3 * i + 1];
        m->actuator_actlimited[i] = cc->alim[3 * i + 2];
        m->actuator_actearly[i] = A->actearly;
        m->actuator_group[i] = A->group;
        memcpy(m->actuator_dynprm + CS_NDYN * i, A->dynprm, sizeof A->dynprm);
        memcpy(m->actuator_gainprm + CS_NGAIN * i, A->gainprm, sizeof A->gainprm);
        memcpy(m->actuator_biasprm + CS_NBIAS * i, A->biasprm, sizeof A->biasprm);
        memcpy(m->actuator_forcerange + 2 * i, A->forcerange, sizeof A->forcerange);
        memcpy(m->actuator_actrange + 2 * i, A->actrange, sizeof A->actrange);
        memcpy(m->actuator_gear + 6 * i, A->gear, sizeof A->gear);
        memcpy(m->actuator_lengthrange + 2 * i, A->lengthrange, sizeof A->lengthrange);
        m->actuator_history[2 * i] = A->nsample;
        m->actuator_history[2 * i + 1] = A->interp;
        m->actuator_delay[i] = A->delay;
        m->actuator_historyadr[i] = A->nsample > 0 ? hadr : -1;
        if (A->nsample > 0) hadr += cs_history_size(A->nsample, 1);
        m->actuator_name[i] = dupname(c->act[i].name, &cc->nameoom);
        m->actuator_damping[i] = A->damping[0];
        memcpy(m->actuator_dampingpoly + CS_NPOLY * i, A->damping + 1, CS_NPOLY * sizeof(double));
        m->actuator_armature[i] = A->armature;
    }
    cs_actuator_targets(m);
}

static void springdamper(cs_mjcf *c, compiling *cc, cs_model *m)
{
    /* springdamper: stiffness and damping of a mass-spring-damper with this time constant
     * and damping ratio, the mass being the joint's mean inverse weight at qpos0 inverted
     * (MuJoCo's rule, which replaces any stiffness and damping given) */
    for (int j = 0; j < cc->nj; j++) {
        const double *sd = c->jnt[j].s.springdamper;
        if (sd[0] <= 0 || sd[1] <= 0) continue;
        int adr = m->jnt_dofadr[j], n = cs_jnt_nv(m->jnt_type[j]);
        double w = 0;
        for (int k = 0; k < n; k++) w += m->dof_invweight0[adr + k];
        double inertia = n / fmax(1e-15, w);
        m->jnt_stiffness[j] = inertia / fmax(1e-15, sd[0] * sd[0] * sd[1] * sd[1]);
        for (int k = 0; k < n; k++) m->dof_damping[adr + k] = 2 * inertia / fmax(1e-15, sd[0]);
    }
}

static void dampratio(cs_mjcf *c, compiling *cc, cs_model *m)
{
    /* dampratio: a position-like actuator's positive biasprm[2] is a damping ratio; kv from
     * the reflected inertia at qpos0, the sum over the moment's dofs of dof_M0 / moment^2
     * (MuJoCo's set0) */
    double *mo0 = cc->mo0;
    for (int i = 0; i < cc->nact; i++) {
        double *b = m->actuator_biasprm + CS_NBIAS * i, *g = m->actuator_gainprm + CS_NGAIN * i;
        int pid = m->actuator_gaintype[i] == CS_GAIN_PID; /* its kp only in biasprm[1] */
        if ((!pid && g[0] != -b[1]) || b[2] <= 0) continue;
        double trn = fabs(m->actuator_gear[6 * i]), mass = 0;
        int ty = m->actuator_trntype[i];
        int spatial = ty == CS_TRN_TENDON && c->ten[m->actuator_trnid[2 * i]].spatial;
        if (cs_actuator_dense(m, i) || spatial) { /* from the moment */
            if (cs_actuator_moment0(m, i, mo0) != 0) {
                cs_free_model(m);
                cs_mjcf_nomem(c);
            }
            for (int q = 0; q < m->nv; q++)
                if (mo0[q] * mo0[q] > 1e-15) mass += m->dof_M0[q] / (mo0[q] * mo0[q]);
        } else if (ty == CS_TRN_TENDON) { /* each dof's reflected inertia */
            int t = m->actuator_trnid[2 * i];
            for (int w = m->tendon_adr[t]; w < m->tendon_adr[t] + m->tendon_num[t]; w++) {
                if (m->wrap_type[w] != CS_WRAP_JOINT) continue; /* refused while resolving */
                double mo = trn * m->wrap_prm[w];
                if (mo * mo > 1e-15) mass += m->dof_M0[m->jnt_dofadr[m->wrap_objid[w]]] / (mo * mo);
            }
        } else if (trn * trn > 1e-15) {
            mass = m->dof_M0[m->jnt_dofadr[m->actuator_trnid[2 * i]]] / (trn * trn);
        }
        b[2] = -(b[2] * 2 * sqrt((pid ? -b[1] : g[0]) * mass));
    }
}

cs_model *cs_mjcf_compile(cs_mjcf *c)
{
    compiling cc = {.nb = c->nbody, .ng = c->ngeom};
    cs_mjcf_meshes(c);
    cs_mjcf_hfield_resolve(c);
    compile_geoms(c, &cc);
    for (int j = 0; j < c->njnt; j++) resolve_joint(c, &c->jnt[j]);
    compile_bodies(c, &cc);
    body_frames(c, &cc);
    align_free_bodies(c, &cc);
    if (c->fusestatic) {
        cs_mjcf_massprops mp = {cc.bmass, cc.bipos, cc.biquat, cc.binert, cc.gmass,
                                cc.ginertia, cc.gcounts};
        cs_mjcf_fuse_static(c, &mp);
        cc.nb = c->nbody;
        body_frames(c, &cc);
    }
    total_mass(c, &cc);
    cs_mjcf_resolve_tendons(c);
    cs_mjcf_resolve_sensors(c);
    check_free_bodies(c, &cc);
    joint_addresses(c, &cc);
    resolve_pairs(c, &cc);
    reference_pose(c, &cc);
    complete_keys(c, &cc);
    compile_actuators(c, &cc);
    dof_forest(c, &cc);
    cs_mjcf_visual_resolve(c);

    /* ---- nothing can fail from here on but memory: build the model ---- */
    cs_model *m = new_model(c, &cc);
    fill_bodies(c, &cc, m);
    fill_joints(c, &cc, m);
    fill_forest(c, &cc, m);
    body_simple(c, m);
    fill_geoms(c, &cc, m);
    tendon_armature_simple(m);
    fill_meshes(c, &cc, m);
    fill_pairs(c, &cc, m);
    fill_keys(c, &cc, m);
    fill_actuators(c, &cc, m);
    if (cc.nameoom) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    cs_sameframe_all(m);
    /* inverse weights at qpos0; the mass matrix there must be positive definite */
    int bad = cs_model_invweight0(m);
    if (bad == -1) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    if (bad > 0) {
        int b = m->dof_bodyid[bad - 1];
        cs_free_model(m);
        BFAIL(c, &c->body[b], NULL, "the mass matrix is not positive definite at the reference "
                                    "pose: a moving body (or its subtree) without mass or "
                                    "inertia");
    }
    springdamper(c, &cc, m);
    dampratio(c, &cc, m);
    if (cs_mjcf_build_sensors(c, m) != 0 || cs_mjcf_visual_build(c, m) != 0 ||
        cs_mjcf_hfield_build(c, m) != 0) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    cs_mjcf_sleep_build(c, m);
    /* last, as MuJoCo's compiler: the length ranges simulate the finished model */
    if (cs_model_acc0(m) != 0) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    char err[256];
    int lr = cs_model_lengthrange(m, &c->lropt, err, sizeof err);
    if (lr < 0) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    if (lr > 0) {
        cs_free_model(m);
        cs_mjcf_fail(c, c->act[lr - 1].line, c->act[lr - 1].tag, NULL, "%s", err);
    }
    return m;
}
