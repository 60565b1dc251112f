/* <actuator> elements (general and its shortcuts) read into specs, as MuJoCo's parser
 * expands each shortcut into gain, bias and dynamics. */
#include <ctype.h>
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "mjcf_read.h"

/* ---- actuators ------------------------------------------------------------------------ */
void cs_mjcf_default_aspec(cs_aspec *a)
{
    memset(a, 0, sizeof *a);
    a->gainprm[0] = 1;
    a->dynprm[0] = 1;
    a->gear[0] = 1;
    a->ctrllimited = a->forcelimited = a->actlimited = CS_LIMITED_AUTO;
    a->actdim = -1;
}

/* the shortcuts conesim models; other MuJoCo actuator types are refused where they appear */
const char *const CS_MJCF_ACT_TAGS[] = {"general", "motor", "position", "velocity", "intvelocity",
                                       "damper", "muscle", "dcmotor", "adhesion", "cylinder",
                                       "pid", "orientation", NULL};
static const char *const ACT_OTHER[] = {"plugin", NULL};

/* MuJoCo's schema per tag: the attributes every actuator has, then each shortcut's own */
static const char *const ACT_COMMON[] = {"name", "class", "group", "nsample", "interp", "delay",
    "ctrlrange", "user", "ctrllimited", "forcelimited", "forcerange", "lengthrange", "gear",
    "damping", "armature", "cranklength", "joint", "jointinparent", "tendon", "slidersite",
    "cranksite", "site", "refsite", NULL};
static const char *const ACT_GENERAL[] = {"actlimited", "actrange", "body", "actdim", "input",
    "velrange", "ffrange", "dyntype", "gaintype", "biastype", "dynprm", "gainprm", "biasprm",
    "actearly", NULL};
static const char *const ACT_POSITION[] = {"inheritrange", "kp", "kv", "dampratio", "timeconst",
                                           NULL};
static const char *const ACT_INTVELOCITY[] = {"actlimited", "actrange", "inheritrange", "kp",
                                              "kv", "dampratio", NULL};
static const char *const ACT_KV[] = {"kv", NULL};
static const char *const ACT_PID[] = {"posrange", "velrange", "ffrange", "inheritrange", "kp",
                                      "kv", "dampratio", "ki", "imax", "slewmax", "input", NULL};
static const char *const ACT_CYLINDER[] = {"timeconst", "area", "diameter", "bias", NULL};
static const char *const ACT_MUSCLE[] = {"timeconst", "tausmooth", "range", "force", "scale",
                                         "lmin", "lmax", "vmax", "fpmax", "fvmax", NULL};
/* MuJoCo's muscle has no site transmission */
static const char *const MUSCLE_NOT[] = {"site", "refsite", NULL};
static const char *const ACT_DCMOTOR[] = {"motorconst", "resistance", "nominal", "saturation",
    "inductance", "cogging", "controller", "thermal", "lugre", "input", NULL};
/* a DC motor's force range comes from its saturation */
static const char *const DCMOTOR_NOT[] = {"forcelimited", "forcerange", NULL};
/* labels */
static const char *const ACT_VISUAL[] = {"user", NULL};
/* <orientation> has its own short list too: a ball joint or a site with a reference site,
 * no gear, no ctrllimited */
static const char *const ACT_ORIENT[] = {"name", "class", "group", "nsample", "interp", "delay",
    "ctrlrange", "user", "forcelimited", "forcerange", "joint", "site", "refsite", "kp", "kv",
    "dampratio", "input", NULL};
/* <adhesion> has its own short list: a body target, a gain, no gear and no ctrllimited */
static const char *const ACT_ADHESION[] = {"name", "class", "group", "nsample", "interp", "delay",
    "ctrlrange", "user", "forcelimited", "forcerange", "body", "gain", NULL};

static const char *const DYNW[] = {"none", "integrator", "filter", "filterexact", "muscle",
                                   "dcmotor", "pid", "user", NULL};
static const char *const GAINW[] = {"fixed", "affine", "muscle", "dcmotor", "so3", "pid", "user",
                                    NULL};
static const char *const BIASW[] = {"none", "affine", "muscle", "dcmotor", "so3", "user", NULL};

static const char *const *act_extra(const char *tag)
{
    if (strcmp(tag, "general") == 0) return ACT_GENERAL;
    if (strcmp(tag, "position") == 0) return ACT_POSITION;
    if (strcmp(tag, "intvelocity") == 0) return ACT_INTVELOCITY;
    if (strcmp(tag, "velocity") == 0 || strcmp(tag, "damper") == 0) return ACT_KV;
    if (strcmp(tag, "muscle") == 0) return ACT_MUSCLE;
    if (strcmp(tag, "dcmotor") == 0) return ACT_DCMOTOR;
    if (strcmp(tag, "cylinder") == 0) return ACT_CYLINDER;
    if (strcmp(tag, "pid") == 0) return ACT_PID;
    return NULL;
}

static void act_check_attrs(cs_mjcf *c, xmlNode *n, const char *tag)
{
    const char *const *extra = act_extra(tag), *const *common = ACT_COMMON;
    if (strcmp(tag, "adhesion") == 0) common = ACT_ADHESION;
    if (strcmp(tag, "orientation") == 0) common = ACT_ORIENT;
    cs_mjcf_audit_accepted(n, common);
    cs_mjcf_audit_accepted(n, extra);
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (strcmp(tag, "damper") == 0 && strcmp(an, "ctrllimited") == 0)
            FAILN(c, n, an, "unknown or unsupported attribute");
        if (strcmp(tag, "muscle") == 0 && cs_mjcf_in_list(an, MUSCLE_NOT))
            FAILN(c, n, an, "unknown or unsupported attribute");
        if (strcmp(tag, "dcmotor") == 0 && cs_mjcf_in_list(an, DCMOTOR_NOT))
            FAILN(c, n, an, "unknown or unsupported attribute");
        if (cs_mjcf_in_list(an, ACT_VISUAL)) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s/@%s", tag, an);
            cs_mjcf_note_ignored(c, buf);
            cs_mjcf_mark_attr_ignored(a);
            continue;
        }
        if (cs_mjcf_in_list(an, common) || cs_mjcf_in_list(an, extra)) continue;
        FAILN(c, n, an, "unknown or unsupported attribute");
    }
}

/* MuJoCo's mjs_setToMuscle: its defaults replace the global ones still in place (a class's
 * values stay), then each attribute given (negative: not given) */
static void read_muscle(cs_mjcf *c, xmlNode *n, cs_aspec *a)
{
    static const double DEF[9] = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
    static const char *const PRM[9] = {NULL, NULL, "force", "scale", "lmin", "lmax", "vmax",
                                       "fpmax", "fvmax"};
    double *g = a->gainprm, *dp = a->dynprm, v[2];
    if (dp[0] == 1) dp[0] = 0.01; /* activation and deactivation time constants */
    if (dp[1] == 0) dp[1] = 0.04;
    if (g[0] == 1) g[0] = DEF[0];
    for (int k = 1; k < 9; k++)
        if (g[k] == 0) g[k] = DEF[k];
    double tausmooth = dp[2];
    if (cs_mjcf_num1(c, n, "tausmooth", v)) tausmooth = v[0];
    if (tausmooth < 0) FAILN(c, n, "tausmooth", "muscle tausmooth cannot be negative");
    dp[2] = tausmooth;
    if (cs_mjcf_nums(c, n, "timeconst", v, 2, 2))
        for (int k = 0; k < 2; k++)
            if (v[k] >= 0) dp[k] = v[k];
    if (cs_mjcf_nums(c, n, "range", v, 2, 2))
        for (int k = 0; k < 2; k++)
            if (v[k] >= 0) g[k] = v[k];
    for (int k = 2; k < 9; k++)
        if (cs_mjcf_num1(c, n, PRM[k], v) && v[0] >= 0) g[k] = v[0];
    memcpy(a->biasprm, g, 9 * sizeof *g);
    a->dyntype = CS_DYN_MUSCLE;
    a->gaintype = CS_GAIN_MUSCLE;
    a->biastype = CS_BIAS_MUSCLE;
}

/* The input signature (MuJoCo's ReadInputSpec): "none" (a DC motor without controls), or
 * tokens among pos, vel, ff and voltage, each once, in that order, as CS_INPUT_* bits; 0
 * when not given or empty (the type's default); a->ctrlspec when not given. charts: 0 a
 * pid's or DC motor's (an orientation chart refused: MuJoCo would take it as the bit with
 * the chart's number), 1 <general>'s (a chart keyword too, a->chart set), 2 an
 * orientation's (a chart keyword only). */
static int read_input_spec(cs_mjcf *c, xmlNode *n, cs_aspec *a, int charts)
{
    static const char *const TOK[] = {"pos", "vel", "ff", "voltage", NULL};
    int spec = a->ctrlspec;
    const char *in = cs_mjcf_attr(c, n, "input");
    if (!in) return spec;
    while (isspace((unsigned char)*in)) in++;
    size_t len = strlen(in);
    while (len && isspace((unsigned char)in[len - 1])) len--;
    a->chart = 0;
    if (len == 4 && strncmp(in, "none", 4) == 0 && charts != 2) return CS_INPUT_NONE;
    if (charts && ((len == 6 && strncmp(in, "expmap", 6) == 0) ||
                   (len == 4 && strncmp(in, "quat", 4) == 0))) {
        a->chart = 1;
        return in[0] == 'q' ? CS_CHART_QUAT : CS_CHART_EXPMAP;
    }
    if (charts == 2)
        FAILN(c, n, "input", "an orientation's input is expmap or quat");
    int prev = 0;
    spec = 0;
    for (const char *p = in, *end = in + len; p < end;) {
        while (p < end && isspace((unsigned char)*p)) p++;
        size_t l = 0;
        while (p + l < end && !isspace((unsigned char)p[l])) l++;
        int b = -1;
        for (int t = 0; TOK[t]; t++)
            if (strlen(TOK[t]) == l && strncmp(p, TOK[t], l) == 0) b = 1 << t;
        int chart = (l == 6 && strncmp(p, "expmap", 6) == 0) ||
                    (l == 4 && strncmp(p, "quat", 4) == 0);
        if (b < 0 && chart)
            FAILN(c, n, "input", "'%.*s' is an orientation's input, alone (<orientation>, or "
                  "gaintype so3)", (int)l, p);
        if (b < 0)
            FAILN(c, n, "input", "'%.*s' is not an input (pos, vel, ff, voltage; or none alone)",
                  (int)l, p);
        if (b <= prev)
            FAILN(c, n, "input", "inputs must be listed in canonical order [pos, vel, ff, "
                  "voltage], each once");
        prev = b;
        spec |= b;
        p += l;
    }
    return spec;
}

/* kv or dampratio (not both) into biasprm[2]: -kv, or the ratio as a positive number that
 * the compiler makes kv, as MuJoCo's servo shortcuts take them */
static void read_kv_dampratio(cs_mjcf *c, xmlNode *n, cs_aspec *a)
{
    double kv, dr;
    int has_kv = cs_mjcf_num1(c, n, "kv", &kv), has_dr = cs_mjcf_num1(c, n, "dampratio", &dr);
    if (has_kv && has_dr) FAILN(c, n, "dampratio", "kv and dampratio cannot both be defined");
    if (has_kv) {
        if (kv < 0) FAILN(c, n, "kv", "kv cannot be negative");
        a->biasprm[2] = -kv;
    }
    if (has_dr) {
        if (dr < 0) FAILN(c, n, "dampratio", "dampratio cannot be negative");
        a->biasprm[2] = dr; /* positive: a damping ratio, made kv at compile time */
    }
}

/* MuJoCo's mjs_setToPID, from its reader's values: kp in biasprm[1] (the class's -biasprm[1]
 * when not given), kv or a damping ratio in biasprm[2], ki in gainprm[0], imax and slewmax
 * in dynprm[0] and dynprm[1] (taken from a class only when the class's dynamics are a
 * pid's), posrange the position input's ctrlrange */
static void read_pid(cs_mjcf *c, xmlNode *n, cs_aspec *a)
{
    int cls = a->dyntype == CS_DYN_PID;
    double kp = -a->biasprm[1], ki = cls ? a->gainprm[0] : 0;
    double imax = cls ? a->dynprm[0] : 0, slew = cls ? a->dynprm[1] : 0, ir = a->inheritrange;
    cs_mjcf_num1(c, n, "kp", &kp);
    cs_mjcf_num1(c, n, "ki", &ki);
    cs_mjcf_num1(c, n, "imax", &imax);
    cs_mjcf_num1(c, n, "slewmax", &slew);
    a->ctrlspec = read_input_spec(c, n, a, 0);
    cs_mjcf_nums(c, n, "posrange", a->ctrlrange, 2, 2);
    cs_mjcf_num1(c, n, "inheritrange", &ir);
    read_kv_dampratio(c, n, a);
    a->biasprm[1] = -kp;
    if (slew < 0) FAILN(c, n, "slewmax", "slewmax cannot be negative");
    a->gainprm[0] = ki;
    a->dynprm[1] = slew;
    a->dyntype = ki != 0 || slew != 0 ? CS_DYN_PID : CS_DYN_NONE;
    if (ki != 0) a->dynprm[0] = imax;
    a->inheritrange = ir;
    if (ir > 0 && (a->ctrlrange[0] != 0 || a->ctrlrange[1] != 0))
        FAILN(c, n, "inheritrange", "posrange and inheritrange cannot both be defined");
    a->gaintype = CS_GAIN_PID;
    a->biastype = CS_BIAS_AFFINE;
}

/* MuJoCo's mjs_setToOrientation: kp in gainprm[0] and -kp in biasprm[1] (the class's
 * gainprm[0] when not given), kv or a damping ratio in biasprm[2], the input chart, so3
 * gain and bias, no dynamics */
static void read_orientation(cs_mjcf *c, xmlNode *n, cs_aspec *a)
{
    double kp = a->gainprm[0];
    cs_mjcf_num1(c, n, "kp", &kp);
    a->ctrlspec = read_input_spec(c, n, a, 2);
    read_kv_dampratio(c, n, a);
    a->gainprm[0] = kp;
    a->biasprm[1] = -kp;
    a->gaintype = CS_GAIN_SO3;
    a->biastype = CS_BIAS_SO3;
    a->dyntype = CS_DYN_NONE;
}

/* up to max numbers of attribute name into v (the rest keep theirs) */
static void nums_into(cs_mjcf *c, xmlNode *n, const char *name, double *v, int max)
{
    double t[6];
    int k = cs_mjcf_nums(c, n, name, t, 1, max);
    if (k) memcpy(v, t, (size_t)k * sizeof *t);
}

/* MuJoCo's mjs_setToDCMotor: resistance R and motor constant K (the geometric mean of a
 * torque and a back-EMF constant, or either; from nominal voltage, stall torque and no-load
 * speed when not given), the current's electrical time constant (inductance L / R, or te),
 * saturation as the force range and a current-rate bound, cogging, the on-board
 * controller (gains in gainprm[4..6], slewmax and Imax in dynprm[7..8], Vmax in gainprm[7])
 * the input signature (checked when compiled) and LuGre friction. Its thermal model is
 * refused. A class's DC motor values are the starting point, as MuJoCo's. */
static void read_dcmotor(cs_mjcf *c, xmlNode *n, cs_aspec *a)
{
    double *g = a->gainprm, *dp = a->dynprm, *b = a->biasprm;
    int inh = a->gaintype == CS_GAIN_DCMOTOR;
    double mc[2] = {inh ? g[1] : 0, 0}, R = inh ? g[0] : 0, nom[3] = {0, 0, 0};
    double sat[3] = {0, 0, inh ? dp[1] : 0}, ind[2] = {0, inh ? dp[0] : 0};
    double cog[3] = {inh ? b[0] : 0, inh ? b[1] : 0, inh ? b[2] : 0};
    double ctl[6] = {inh ? g[4] : 0, inh ? g[5] : 0, inh ? g[6] : 0, inh ? dp[7] : 0,
                     inh ? dp[8] : 0, inh ? g[7] : 0};
    double th[6] = {0}, lu[5] = {inh ? dp[5] : 0, inh ? dp[6] : 0, inh ? b[3] : 0,
                               inh ? b[4] : 0, inh ? b[5] : 0};
    int spec = inh ? a->ctrlspec : 0;
    nums_into(c, n, "motorconst", mc, 2);
    cs_mjcf_num1(c, n, "resistance", &R);
    nums_into(c, n, "nominal", nom, 3);
    nums_into(c, n, "saturation", sat, 3);
    nums_into(c, n, "inductance", ind, 2);
    nums_into(c, n, "cogging", cog, 3);
    nums_into(c, n, "controller", ctl, 6);
    nums_into(c, n, "thermal", th, 6);
    nums_into(c, n, "lugre", lu, 5);
    if (th[0] > 0 || th[1] > 0 || th[2] > 0)
        FAILN(c, n, "thermal", "a DC motor's thermal model is not supported");
    a->ctrlspec = spec; /* the class's when it is a DC motor's */
    spec = read_input_spec(c, n, a, 0);
    double Kt = mc[0], Ke = mc[1], vn = nom[0], tau0 = nom[1], w0 = nom[2];
    /* Ke from the no-load speed, w0 = vn Ke / (Ke^2 + R B) with the actuator's viscous
     * damping B (MuJoCo's mjs_setToDCMotor) */
    if (vn > 0 && Ke <= 0 && w0 > 0) {
        double B = a->damping[0];
        if (B > 0 && R > 0) {
            double disc = vn * vn - 4 * R * B * w0 * w0;
            Ke = disc > 0 ? (vn + sqrt(disc)) / (2 * w0) : vn / w0;
        } else if (B > 0 && tau0 > 0) {
            double ke = vn / w0 - vn * B / tau0;
            Ke = ke > 0 ? ke : vn / w0;
        } else {
            Ke = vn / w0;
        }
    }
    double K = Kt > 0 && Ke > 0 ? sqrt(Kt * Ke) : Kt > 0 ? Kt : Ke;
    if (R == 0 && vn > 0 && tau0 > 0 && K > 0) R = K * vn / tau0;
    if (K <= 0) FAILN(c, n, "motorconst", "DC motor: motor constant K must be positive");
    if (R <= 0) FAILN(c, n, "resistance", "DC motor: resistance R must be positive");
    a->dyntype = CS_DYN_DCMOTOR;
    a->gaintype = CS_GAIN_DCMOTOR;
    a->biastype = CS_BIAS_DCMOTOR;
    g[0] = R;
    g[1] = K;
    g[4] = ctl[0]; /* the controller: kp, ki, kd (torque space), slewmax, Imax, Vmax */
    g[5] = ctl[1];
    g[6] = ctl[2];
    dp[7] = ctl[3];
    dp[8] = ctl[4];
    if (ctl[5] > 0) g[7] = ctl[5];
    if (sat[0] > 0 || sat[1] > 0) { /* a torque bound, or a current bound times K */
        double tmax = sat[0] == 0 && sat[1] > 0 ? K * sat[1] : sat[0];
        a->forcerange[0] = -tmax;
        a->forcerange[1] = tmax;
        a->forcelimited = CS_LIMITED_TRUE;
    }
    if (sat[2] > 0) dp[1] = sat[2];
    memcpy(b, cog, sizeof cog);
    if (ind[0] < 0) FAILN(c, n, "inductance", "DC motor: inductance must be non-negative");
    if (ind[1] < 0)
        FAILN(c, n, "inductance", "DC motor: electrical time constant must be non-negative");
    dp[0] = ind[0] > 0 ? ind[0] / R : ind[1];
    /* its states: the slew-limited setpoint, the integral, the current (when it has a time
     * constant) */
    if (lu[0] > 0) { /* LuGre: stiffness, damping (sigma0, sigma1); Coulomb, static, Stribeck */
        dp[5] = lu[0];
        dp[6] = lu[1];
        memcpy(b + 3, lu + 2, 3 * sizeof *lu);
    }
    a->actdim = (dp[0] > 0) + (ctl[3] > 0) + (ctl[1] > 0) + (lu[0] > 0);
    g[8] = 0;
    a->ctrlspec = spec;
    a->actlimited = CS_LIMITED_FALSE;
    a->actearly = 1;
}

static int limited_kw(cs_mjcf *c, xmlNode *n, const char *name, int *out)
{
    static const char *const LIM[] = {"false", "true", "auto", NULL};
    int k = cs_mjcf_keyword(c, n, name, LIM);
    if (k >= 0) *out = k;
    return k >= 0;
}

/* The attributes of one actuator element (or a default class's) onto a, in MuJoCo's order:
 * the general attributes, then the shortcut's own, which set the gain, bias and dynamics
 * (mjs_setToMotor, mjs_setToPosition, ...). Returns the joint named as the target, if any. */
char *cs_mjcf_read_actuator(cs_mjcf *c, xmlNode *n, cs_aspec *a, const char *tag)
{
    act_check_attrs(c, n, tag);
    double v[CS_NGAIN];
    int k, iv;
    cs_mjcf_nums(c, n, "ctrlrange", a->ctrlrange, 2, 2);
    cs_mjcf_nums(c, n, "forcerange", a->forcerange, 2, 2);
    cs_mjcf_nums(c, n, "actrange", a->actrange, 2, 2);
    cs_mjcf_nums(c, n, "lengthrange", a->lengthrange, 2, 2);
    limited_kw(c, n, "ctrllimited", &a->ctrllimited);
    limited_kw(c, n, "forcelimited", &a->forcelimited);
    limited_kw(c, n, "actlimited", &a->actlimited);
    k = cs_mjcf_nums(c, n, "gear", v, 1, 6);
    if (k) memcpy(a->gear, v, (size_t)k * sizeof *v); /* the rest keep theirs, as MuJoCo */
    if ((k = cs_mjcf_nums(c, n, "damping", v, 1, 3))) memcpy(a->damping, v, (size_t)k * sizeof *v);
    if (cs_mjcf_num1(c, n, "armature", v)) a->armature = v[0];
    if (cs_mjcf_int1(c, n, "nsample", &iv)) a->nsample = iv; /* checked when compiled */
    if (cs_mjcf_num1(c, n, "delay", v)) a->delay = v[0];
    static const char *const INTERP[] = {"zoh", "linear", "cubic", NULL};
    if ((k = cs_mjcf_keyword(c, n, "interp", INTERP)) >= 0) a->interp = k;
    if (strcmp(tag, "general") == 0) a->ctrlspec = read_input_spec(c, n, a, 1);
    cs_mjcf_nums(c, n, "velrange", a->velrange, 2, 2); /* a pid's vel and ff inputs */
    cs_mjcf_nums(c, n, "ffrange", a->ffrange, 2, 2);
    if (cs_mjcf_int1(c, n, "actdim", &iv)) a->actdim = iv;
    if ((k = cs_mjcf_keyword(c, n, "dyntype", DYNW)) >= 0) a->dyntype = k;
    if ((k = cs_mjcf_keyword(c, n, "gaintype", GAINW)) >= 0) a->gaintype = k;
    if ((k = cs_mjcf_keyword(c, n, "biastype", BIASW)) >= 0) a->biastype = k;
    if ((k = cs_mjcf_nums(c, n, "dynprm", v, 1, CS_NDYN))) memcpy(a->dynprm, v, (size_t)k * sizeof *v);
    if ((k = cs_mjcf_nums(c, n, "gainprm", v, 1, CS_NGAIN))) memcpy(a->gainprm, v, (size_t)k * sizeof *v);
    if ((k = cs_mjcf_nums(c, n, "biasprm", v, 1, CS_NBIAS))) memcpy(a->biasprm, v, (size_t)k * sizeof *v);
    cs_mjcf_bool(c, n, "actearly", &a->actearly);
    if (cs_mjcf_int1(c, n, "group", &iv)) a->group = iv;

    /* the transmission: a joint, a tendon or a slider-crank (cranksite, slidersite and
     * cranklength; the last two may come from a default class) */
    char *joint = cs_mjcf_attr(c, n, "joint"), *jip = cs_mjcf_attr(c, n, "jointinparent");
    char *tendon = cs_mjcf_attr(c, n, "tendon"), *crank = cs_mjcf_attr(c, n, "cranksite");
    if (joint && jip) FAILN(c, n, "jointinparent", "give one transmission target (also 'joint')");
    if (jip) joint = jip; /* on hinge and slide joints the same as joint */
    if (joint && tendon) FAILN(c, n, "tendon", "give one transmission target (also 'joint')");
    if (crank && (joint || tendon))
        FAILN(c, n, "cranksite", "give one transmission target (also '%s')",
              joint ? "joint" : "tendon");
    char *site = cs_mjcf_attr(c, n, "site");
    if (site && (joint || tendon || crank))
        FAILN(c, n, "site", "give one transmission target (also '%s')",
              joint ? "joint" : tendon ? "tendon" : "cranksite");
    if (cs_mjcf_attr(c, n, "refsite") && !site)
        FAILN(c, n, "refsite", "a reference site needs a site transmission (site=...)");
    char *body = cs_mjcf_attr(c, n, "body");
    if (body && (joint || tendon || crank || site))
        FAILN(c, n, "body", "give one transmission target (also '%s')",
              joint ? "joint" : tendon ? "tendon" : crank ? "cranksite" : "site");
    int has_cl = cs_mjcf_num1(c, n, "cranklength", v);
    if (has_cl) a->cranklength = v[0];
    char *ss = cs_mjcf_attr(c, n, "slidersite");
    if (ss) a->slidersite = ss;
    if ((has_cl || ss) && (joint || tendon))
        FAILN(c, n, has_cl ? "cranklength" : "slidersite", "cranklength and slidersite can only "
              "be used in a slider-crank transmission");

    if (strcmp(tag, "motor") == 0) {
        a->gainprm[0] = 1;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_NONE;
    } else if (strcmp(tag, "position") == 0 || strcmp(tag, "intvelocity") == 0) {
        double kp = a->gainprm[0], tc;
        cs_mjcf_num1(c, n, "kp", &kp);
        read_kv_dampratio(c, n, a);
        int has_tc = cs_mjcf_num1(c, n, "timeconst", &tc);
        double ir = a->inheritrange;
        cs_mjcf_num1(c, n, "inheritrange", &ir);
        a->gainprm[0] = kp;
        a->biasprm[1] = -kp;
        if (has_tc) {
            if (tc < 0) FAILN(c, n, "timeconst", "timeconst cannot be negative");
            a->dynprm[0] = tc;
            a->dyntype = tc == 0 ? CS_DYN_NONE : CS_DYN_FILTEREXACT;
        }
        a->inheritrange = ir;
        if (ir > 0 && strcmp(tag, "position") == 0 && (a->ctrlrange[0] || a->ctrlrange[1]))
            FAILN(c, n, "inheritrange", "ctrlrange and inheritrange cannot both be defined");
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_AFFINE;
        if (tag[0] == 'i') {
            a->dyntype = CS_DYN_INTEGRATOR;
            if (ir > 0 && (a->actrange[0] || a->actrange[1]))
                FAILN(c, n, "inheritrange", "actrange and inheritrange cannot both be defined");
        }
    } else if (strcmp(tag, "velocity") == 0) {
        double kv = a->gainprm[0];
        cs_mjcf_num1(c, n, "kv", &kv);
        memset(a->biasprm, 0, sizeof a->biasprm);
        a->gainprm[0] = kv;
        a->biasprm[2] = -kv;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_AFFINE;
    } else if (strcmp(tag, "adhesion") == 0) { /* MuJoCo's mjs_setToAdhesion: dynamics and
                                                   bias parameters are left as they are */
        double gain = a->gainprm[0];
        cs_mjcf_num1(c, n, "gain", &gain);
        a->gainprm[0] = gain;
        a->ctrllimited = CS_LIMITED_TRUE;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_NONE;
        if (gain < 0) FAILN(c, n, "gain", "adhesion gain cannot be negative");
        if (a->ctrlrange[0] < 0 || a->ctrlrange[1] < 0)
            FAILN(c, n, "ctrlrange", "adhesion control range cannot be negative");
    } else if (strcmp(tag, "damper") == 0) {
        double kv = a->gaintype == CS_GAIN_AFFINE ? -a->gainprm[2] : 0;
        cs_mjcf_num1(c, n, "kv", &kv);
        memset(a->gainprm, 0, sizeof a->gainprm);
        a->gainprm[2] = -kv;
        a->ctrllimited = CS_LIMITED_TRUE;
        a->dyntype = CS_DYN_NONE;
        a->gaintype = CS_GAIN_AFFINE;
        a->biastype = CS_BIAS_NONE;
        if (kv < 0) FAILN(c, n, "kv", "damping coefficient cannot be negative");
        if (a->ctrlrange[0] < 0 || a->ctrlrange[1] < 0)
            FAILN(c, n, "ctrlrange", "damper control range cannot be negative");
    } else if (strcmp(tag, "cylinder") == 0) { /* MuJoCo's mjs_setToCylinder: a filtered
        pressure times the area (a diameter given wins), plus the bias; the rest as they are */
        double tc = a->dynprm[0], area = a->gainprm[0], dia = -1;
        double bias[3] = {a->biasprm[0], a->biasprm[1], a->biasprm[2]};
        cs_mjcf_num1(c, n, "timeconst", &tc);
        cs_mjcf_nums(c, n, "bias", bias, 3, 3);
        cs_mjcf_num1(c, n, "area", &area);
        cs_mjcf_num1(c, n, "diameter", &dia);
        a->dynprm[0] = tc;
        a->gainprm[0] = dia >= 0 ? M_PI / 4 * dia * dia : area;
        memcpy(a->biasprm, bias, sizeof bias);
        a->dyntype = CS_DYN_FILTER;
        a->gaintype = CS_GAIN_FIXED;
        a->biastype = CS_BIAS_AFFINE;
    } else if (strcmp(tag, "muscle") == 0) {
        read_muscle(c, n, a);
    } else if (strcmp(tag, "dcmotor") == 0) {
        read_dcmotor(c, n, a);
    } else if (strcmp(tag, "pid") == 0) {
        read_pid(c, n, a);
    } else if (strcmp(tag, "orientation") == 0) {
        read_orientation(c, n, a);
    }
    return joint;
}

void cs_mjcf_parse_actuators(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, NULL, NULL);
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (cs_mjcf_in_list(en, ACT_OTHER))
            FAILN(c, ch, NULL, "actuator type not supported (motor, position, velocity, "
                               "intvelocity, damper, cylinder, muscle, dcmotor, adhesion and "
                               "general are)");
        if (!cs_mjcf_in_list(en, CS_MJCF_ACT_TAGS)) FAILN(c, ch, NULL, "unknown element inside <actuator>");
        cs_actir A = {0};
        int k = cs_mjcf_class_of(c, ch, c->rootcls);
        A.s = c->cls[k].act;
        for (int i = 0; CS_MJCF_ACT_TAGS[i]; i++)
            if (strcmp(en, CS_MJCF_ACT_TAGS[i]) == 0) A.tag = CS_MJCF_ACT_TAGS[i];
        A.joint = cs_mjcf_read_actuator(c, ch, &A.s, A.tag);
        A.tendon = cs_mjcf_attr(c, ch, "tendon");
        A.cranksite = cs_mjcf_attr(c, ch, "cranksite");
        A.site = cs_mjcf_attr(c, ch, "site");
        A.jip = cs_mjcf_attr(c, ch, "jointinparent") != NULL;
        A.refsite = cs_mjcf_attr(c, ch, "refsite");
        A.body = cs_mjcf_attr(c, ch, "body");
        if (!A.joint && !A.tendon && !A.cranksite && !A.site && !A.body)
            FAILN(c, ch, "joint", "missing transmission target (a joint, a tendon, a site, a "
                                  "cranksite or a body)");
        A.name = cs_mjcf_attr(c, ch, "name");
        if (A.name)
            for (int i = 0; i < c->nact; i++)
                if (c->act[i].name && strcmp(c->act[i].name, A.name) == 0)
                    FAILN(c, ch, "name", "duplicate actuator name '%s'", A.name);
        A.line = cs_mjcf_line(ch);
        cs_mjcf_grow(c, (void **)&c->act, &c->capact, c->nact, sizeof *c->act);
        c->act[c->nact++] = A;
    }
}
