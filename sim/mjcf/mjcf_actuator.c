/* <actuator> elements (general and its shortcuts) read into specs, as MuJoCo's parser
 * expands each shortcut into gain, bias and dynamics. */
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
                                       "damper", "adhesion", NULL};
static const char *const ACT_OTHER[] = {"cylinder", "muscle", "orientation", "pid",
                                        "dcmotor", "plugin", NULL};

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
/* <adhesion> has its own short list: a body target, a gain, no gear and no ctrllimited */
static const char *const ACT_ADHESION[] = {"name", "class", "group", "nsample", "interp", "delay",
    "ctrlrange", "user", "forcelimited", "forcerange", "body", "gain", NULL};
/* labels and the length range (used by muscles and `lengthrange` computations only) */
static const char *const ACT_VISUAL[] = {"user", "lengthrange", "interp", NULL};

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
    return NULL;
}

static void act_check_attrs(cs_mjcf *c, xmlNode *n, const char *tag)
{
    const char *const *extra = act_extra(tag), *const *common = ACT_COMMON;
    if (strcmp(tag, "adhesion") == 0) common = ACT_ADHESION;
    cs_mjcf_audit_accepted(n, common);
    cs_mjcf_audit_accepted(n, extra);
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        if (strcmp(tag, "damper") == 0 && strcmp(an, "ctrllimited") == 0)
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
    limited_kw(c, n, "ctrllimited", &a->ctrllimited);
    limited_kw(c, n, "forcelimited", &a->forcelimited);
    limited_kw(c, n, "actlimited", &a->actlimited);
    k = cs_mjcf_nums(c, n, "gear", v, 1, 6);
    if (k) memcpy(a->gear, v, (size_t)k * sizeof *v); /* the rest keep theirs, as MuJoCo */
    if ((k = cs_mjcf_nums(c, n, "damping", v, 1, 3)))
        for (int i = 0; i < k; i++)
            if (v[i] != 0) FAILN(c, n, "damping", "actuator damping is not supported (give the "
                                                  "joint's damping)");
    if (cs_mjcf_num1(c, n, "armature", v) && v[0] != 0)
        FAILN(c, n, "armature", "actuator armature is not supported (give the joint's armature)");
    if (cs_mjcf_int1(c, n, "nsample", &iv) && iv != 0)
        FAILN(c, n, "nsample", "delayed controls are not supported");
    if (cs_mjcf_num1(c, n, "delay", v) && v[0] != 0)
        FAILN(c, n, "delay", "delayed controls are not supported");
    if (cs_mjcf_attr(c, n, "input"))
        FAILN(c, n, "input", "input signatures (pid, so3, dcmotor actuators) are not supported");
    cs_mjcf_nums(c, n, "velrange", v, 2, 2); /* pid inputs only: without effect here */
    cs_mjcf_nums(c, n, "ffrange", v, 2, 2);
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
        double kp = a->gainprm[0], kv, dr, tc;
        cs_mjcf_num1(c, n, "kp", &kp);
        int has_kv = cs_mjcf_num1(c, n, "kv", &kv), has_dr = cs_mjcf_num1(c, n, "dampratio", &dr);
        int has_tc = cs_mjcf_num1(c, n, "timeconst", &tc);
        double ir = a->inheritrange;
        cs_mjcf_num1(c, n, "inheritrange", &ir);
        a->gainprm[0] = kp;
        a->biasprm[1] = -kp;
        if (has_kv && has_dr) FAILN(c, n, "dampratio", "kv and dampratio cannot both be defined");
        if (has_kv) {
            if (kv < 0) FAILN(c, n, "kv", "kv cannot be negative");
            a->biasprm[2] = -kv;
        }
        if (has_dr) {
            if (dr < 0) FAILN(c, n, "dampratio", "dampratio cannot be negative");
            a->biasprm[2] = dr; /* positive: a damping ratio, made kv at compile time */
        }
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
                               "intvelocity, damper, adhesion and general are)");
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
