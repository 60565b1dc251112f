/* <option> (with <flag>), <compiler>, <size>, <statistic> and <visual>: the settings of
 * the model and of its reading. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "option_table.h"
#include "stages.h"
#include "solver/solver.h"

#include "mjcf_read.h"

/* ---- <option>, <compiler>, <size> -------------------------------------------------- */
static void parse_flag(cs_mjcf *c, xmlNode *n)
{
    static const char *const ED[] = {"disable", "enable", NULL};
    /* MuJoCo 3.12's flags that change nothing here, either way: features the subset does
     * not have (inverse dynamics and its statistics) or speed only (midphase: the same
     * pairs are found) */
    static const char *const NOEFFECT[] = {"midphase", "fwdinv",
        "invdiscrete", NULL};
    for (xmlAttr *a = n->properties; a; a = a->next) {
        const char *an = (const char *)a->name;
        int k = cs_mjcf_keyword(c, n, an, ED);
        int bit, enable;
        /* the default of each is what conesim does; the other value is a behaviour it lacks */
        if (strcmp(an, "autoreset") == 0) {
            if (k == 1)
                FAILN(c, n, an, "automatic reset is not supported (a run stops at its last "
                                "finite state): use autoreset=\"disable\"");
            continue;
        }
        /* MuJoCo 3.12's <flag> has no passive (it refuses it): spring and damper */
        if (strcmp(an, "passive") == 0)
            FAILN(c, n, an, "unknown flag (MuJoCo 3.12 has spring and damper instead)");
        /* diagexact: R from the exact diagonal of J M^-1 J^T instead of MuJoCo's body-based
         * approximation, which is what conesim computes */
        if (strcmp(an, "diagexact") == 0) {
            if (k == 1) FAILN(c, n, an, "the exact constraint diagonal is not supported");
            continue;
        }
        if (cs_flag_lookup(an, &bit, &enable) == 0) {
            int *w = enable ? &c->opt.enableflags : &c->opt.disableflags;
            int set = enable ? (k == 1) : (k == 0);
            if (set) *w |= bit;
            else *w &= ~bit;
        } else if (!cs_mjcf_in_list(an, NOEFFECT)) {
            FAILN(c, n, an, "unknown flag");
        }
    }
}

/* <statistic> and <visual><global>: no physics, but the free camera's framing (the viewer's
 * default camera is MuJoCo's: azimuth, elevation, 1.5 extents from the centre) */
void cs_mjcf_parse_statistic(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"meaninertia", "meanmass", "meansize", "extent",
                                            "center", NULL}, NULL);
    double v;
    if (cs_mjcf_num1(c, n, "extent", &v)) {
        if (!(v > 0)) FAILN(c, n, "extent", "must be positive");
        c->stat_extent = v;
        cs_mjcf_note_ignored(c, "statistic/@extent");
    }
    if (cs_mjcf_nums(c, n, "center", c->stat_center, 3, 3)) cs_mjcf_note_ignored(c, "statistic/@center");
    /* MuJoCo's solvers scale their stopping rules by meaninertia; meanmass and meansize only
     * scale its drawings */
    if (cs_mjcf_num1(c, n, "meaninertia", &v)) {
        if (!(v > 0)) FAILN(c, n, "meaninertia", "must be positive");
        c->opt.meaninertia = v;
    }
    if (cs_mjcf_num1(c, n, "meanmass", &v)) cs_mjcf_note_ignored(c, "statistic/@meanmass");
    if (cs_mjcf_num1(c, n, "meansize", &v)) cs_mjcf_note_ignored(c, "statistic/@meansize");
}

void cs_mjcf_parse_visual(cs_mjcf *c, xmlNode *n)
{
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE && strcmp(cs_mjcf_ename(ch), "global") == 0) {
            cs_mjcf_num1(c, ch, "azimuth", &c->vis_azimuth);
            cs_mjcf_num1(c, ch, "elevation", &c->vis_elevation);
            static const char *const TF[] = {"false", "true", NULL};
            int k = cs_mjcf_keyword(c, ch, "orthographic", TF);
            if (k >= 0) c->vis_orthographic = k;
            /* the free camera's view: degrees, or a length when orthographic */
            if (cs_mjcf_num1(c, ch, "fovy", &c->vis_fovy) &&
                !(c->vis_fovy > 0 && (c->vis_orthographic || c->vis_fovy < 180)))
                FAILN(c, ch, "fovy", c->vis_orthographic ? "must be positive (a length)"
                                                         : "must be between 0 and 180 degrees");
        }
}

/* The <option> attributes that are members of cs_option (option_table.h's CS_OPT_MJCF
 * lines), read and checked as cs_set checks them. Directions (3 numbers) are given whole;
 * MuJoCo reads a shorter o_solref, o_solimp or o_friction into the first values. */
static void option_attrs(cs_mjcf *c, xmlNode *n, cs_option *o)
{
    for (int i = 0; i < cs_option_ndefs; i++) {
        const cs_option_def *e = &cs_option_defs[i];
        if (!e->mjcf) continue;
        double v[CS_OPTION_MAXN];
        cs_option_get(o, e, v);
        if (e->check == CS_OPT_KEYWORD) {
            char buf[128];
            const char *words[16];
            int nw = 0;
            snprintf(buf, sizeof buf, "%s", e->words);
            for (char *s = buf; s && nw < 15;) { /* "a|!b|c": b is refused */
                char *bar = strchr(s, '|');
                if (bar) *bar = 0;
                words[nw++] = s[0] == '!' ? s + 1 : s;
                s = bar ? bar + 1 : NULL;
            }
            words[nw] = NULL;
            int k = cs_mjcf_keyword(c, n, e->name, words);
            if (k < 0) continue;
            if (words[k] != buf && words[k][-1] == '!')
                FAILN(c, n, e->name, "'%s' is not supported", words[k]);
            v[0] = k;
        } else if (e->type == CS_FIELD_INT) {
            int iv;
            if (!cs_mjcf_int1(c, n, e->name, &iv)) continue;
            v[0] = iv;
        } else if (!cs_mjcf_nums(c, n, e->name, v, e->n == 3 ? 3 : 1, e->n)) {
            continue;
        }
        char why[160];
        if (cs_option_put(o, e, v, why, sizeof why) != 0) FAILN(c, n, e->name, "%s", why);
    }
}

void cs_mjcf_parse_option(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"timestep", "gravity", "wind", "magnetic",
        "density", "viscosity", "impratio", "tolerance", "ls_tolerance", "noslip_tolerance",
        "ccd_tolerance", "iterations", "ls_iterations", "noslip_iterations", "ccd_iterations",
        "sdf_iterations", "sdf_initpoints", "cone", "jacobian", "solver", "integrator",
        "o_margin", "o_solref", "o_solimp", "o_friction", "actuatorgroupdisable",
        "sleep_tolerance", NULL}, NULL);
    cs_option *o = &c->opt;
    option_attrs(c, n, o);
    static const char *const JAC[] = {"dense", "sparse", "auto", NULL};
    cs_mjcf_keyword(c, n, "jacobian", JAC);
    /* actuator groups to disable, as MuJoCo reads them: each of 0..30 sets its bit */
    double g[31];
    int ng = cs_mjcf_nums(c, n, "actuatorgroupdisable", g, 1, 31);
    for (int i = 0; i < ng; i++) {
        if (g[i] != floor(g[i])) FAILN(c, n, "actuatorgroupdisable", "expects integers");
        if (g[i] < 0 || g[i] > 30)
            FAILN(c, n, "actuatorgroupdisable", "a group is 0 to 30 (got %g)", g[i]);
        o->disableactuator |= 1 << (int)g[i];
    }
    int it;
    /* no SDF geoms here (refused where they appear): the SDF solver's settings change nothing */
    if (cs_mjcf_int1(c, n, "sdf_iterations", &it)) cs_mjcf_note_ignored(c, "option/@sdf_iterations");
    if (cs_mjcf_int1(c, n, "sdf_initpoints", &it)) cs_mjcf_note_ignored(c, "option/@sdf_initpoints");
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        if (strcmp(cs_mjcf_ename(ch), "flag") == 0) parse_flag(c, ch);
        else FAILN(c, ch, NULL, "unknown element inside <option>");
    }
}

/* <compiler><lengthrange>: how actuator length ranges are computed (MuJoCo's mjLROpt) */
static void read_lengthrange(cs_mjcf *c, xmlNode *n)
{
    static const char *const ATTRS[] = {"mode", "useexisting", "uselimit", "accel", "maxforce",
        "timeconst", "timestep", "inttotal", "interval", "tolrange", NULL};
    static const char *const MODE[] = {"none", "muscle", "muscleuser", "all", NULL};
    if (strcmp(cs_mjcf_ename(n), "lengthrange") != 0)
        FAILN(c, n, NULL, "unknown element inside <compiler>");
    cs_mjcf_check(c, n, ATTRS, NULL);
    cs_lropt *o = &c->lropt;
    int k = cs_mjcf_keyword(c, n, "mode", MODE);
    if (k >= 0) o->mode = k;
    cs_mjcf_bool(c, n, "useexisting", &o->useexisting);
    cs_mjcf_bool(c, n, "uselimit", &o->uselimit);
    cs_mjcf_num1(c, n, "accel", &o->accel);
    cs_mjcf_num1(c, n, "maxforce", &o->maxforce);
    cs_mjcf_num1(c, n, "timeconst", &o->timeconst);
    cs_mjcf_num1(c, n, "timestep", &o->timestep);
    cs_mjcf_num1(c, n, "inttotal", &o->inttotal);
    cs_mjcf_num1(c, n, "interval", &o->interval);
    cs_mjcf_num1(c, n, "tolrange", &o->tolrange);
}

void cs_mjcf_parse_compiler(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"angle", "eulerseq", "autolimits",
        "inertiafromgeom", "boundmass", "boundinertia", "settotalmass", "balanceinertia",
        "inertiagrouprange", "coordinate", "fusestatic", "alignfree", "discardvisual", "fitaabb",
        "usethread", "strippath", "saveinertial", "meshdir", "assetdir", "conflict",
        "texturedir", NULL}, NULL);
    cs_mjcf_bool(c, n, "fitaabb", &c->fitaabb);
    c->meshdir = cs_mjcf_attr(c, n, "meshdir");
    c->assetdir = cs_mjcf_attr(c, n, "assetdir");
    c->texturedir = cs_mjcf_attr(c, n, "texturedir");
    static const char *const ANG[] = {"radian", "degree", NULL};
    int k = cs_mjcf_keyword(c, n, "angle", ANG);
    if (k >= 0) c->degree = k;
    char *es = cs_mjcf_attr(c, n, "eulerseq");
    if (es) {
        if (strlen(es) != 3) FAILN(c, n, "eulerseq", "expects 3 characters from xyzXYZ");
        for (int i = 0; i < 3; i++)
            if (!strchr("xyzXYZ", es[i]))
                FAILN(c, n, "eulerseq", "expects 3 characters from xyzXYZ");
        memcpy(c->eulerseq, es, 4);
    }
    int b;
    if (cs_mjcf_bool(c, n, "autolimits", &b)) c->autolimits = b;
    static const char *const IFG[] = {"false", "true", "auto", NULL};
    k = cs_mjcf_keyword(c, n, "inertiafromgeom", IFG);
    if (k >= 0) c->inertiafromgeom = k;
    double v[2];
    if (cs_mjcf_num1(c, n, "boundmass", v)) { cs_mjcf_nonneg(c, n, "boundmass", v, 1); c->boundmass = v[0]; }
    if (cs_mjcf_num1(c, n, "boundinertia", v)) { cs_mjcf_nonneg(c, n, "boundinertia", v, 1); c->boundinertia = v[0]; }
    if (cs_mjcf_num1(c, n, "settotalmass", v)) c->settotalmass = v[0];
    if (cs_mjcf_bool(c, n, "balanceinertia", &b)) c->balanceinertia = b;
    int gr[2];
    if (cs_mjcf_ints(c, n, "inertiagrouprange", gr, 2, 2)) {
        c->igroup[0] = gr[0];
        c->igroup[1] = gr[1];
    }
    static const char *const COORD[] = {"local", "global", NULL};
    if (cs_mjcf_keyword(c, n, "coordinate", COORD) == 1)
        FAILN(c, n, "coordinate", "global coordinates are not supported (MuJoCo removed them)");
    if (cs_mjcf_bool(c, n, "fusestatic", &b)) c->fusestatic = b;
    if (cs_mjcf_bool(c, n, "alignfree", &b)) c->alignfree = b;
    cs_mjcf_bool(c, n, "discardvisual", &b);
    cs_mjcf_bool(c, n, "usethread", &b);
    cs_mjcf_bool(c, n, "strippath", &b);
    cs_mjcf_bool(c, n, "saveinertial", &b);
    /* what <attach> does when an attached model's options differ (mjcf_attach.c) */
    static const char *const CONFLICT[] = {"warning", "merge", "error", NULL};
    k = cs_mjcf_keyword(c, n, "conflict", CONFLICT);
    if (k >= 0) c->conflict = k;
    for (xmlNode *ch = n->children; ch; ch = ch->next)
        if (ch->type == XML_ELEMENT_NODE) read_lengthrange(c, ch);
}

/* <size memory>: bytes, with an optional suffix K M G T P E (powers of 1024), "-1" for
 * MuJoCo's own guess; as MuJoCo 3.12's reader, one unsigned integer and nothing else */
static double memory_bytes(cs_mjcf *c, xmlNode *n, const char *s)
{
    static const char msg[] = "expects an unsigned integer with an optional suffix K, M, G, T, "
                              "P or E (or -1), got '%s'";
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (strncmp(p, "-1", 2) == 0) {
        const char *q = p + 2;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
        if (!*q) return -1;
    }
    if (*p < '0' || *p > '9') FAILN(c, n, "memory", msg, s);
    double v = 0;
    for (; *p >= '0' && *p <= '9'; p++) v = 10 * v + (*p - '0');
    static const char SUF[] = "KMGTPE";
    const char *k = *p ? strchr(SUF, *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p) : NULL;
    if (*p && !k) FAILN(c, n, "memory", msg, s);
    if (k) {
        v = ldexp(v, 10 * (int)(k - SUF + 1));
        p++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p) FAILN(c, n, "memory", msg, s);
    if (v >= 0x1p64) FAILN(c, n, "memory", "'%s' is too big (more bytes than size_t holds)", s);
    return v;
}

void cs_mjcf_parse_size(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"memory", "njmax", "nconmax", "nstack",
        "nuserdata", "nkey", "nuser_body", "nuser_jnt", "nuser_geom", "nuser_site",
        "nuser_cam", "nuser_tendon", "nuser_actuator", "nuser_sensor", NULL}, NULL);
    int iv;
    /* MuJoCo's -1 is "not given"; nconmax is a hard cap on the contacts a step keeps, memory
     * the bound within which conesim grows its contact arrays, njmax and nstack (legacy) size
     * MuJoCo's default arena, and so that bound, as MuJoCo 3.12 does */
    if (cs_mjcf_int1(c, n, "nconmax", &iv)) {
        if (iv < -1) FAILN(c, n, "nconmax", "must be >= -1");
        c->nconmax = iv > 0 ? iv : 0;
    }
    if (cs_mjcf_int1(c, n, "njmax", &iv)) {
        if (iv < -1) FAILN(c, n, "njmax", "must be >= -1");
        c->njmax = iv;
    }
    if (cs_mjcf_int1(c, n, "nstack", &iv)) {
        if (iv < -1) FAILN(c, n, "nstack", "must be >= -1");
        c->nstack = iv;
    }
    const char *mem = cs_mjcf_attr(c, n, "memory");
    if (mem) c->memory = memory_bytes(c, n, mem);
    /* MuJoCo's user-array sizes: conesim has no user data but the sensors' */
    static const char *const SIZES[] = {"nuserdata", "nuser_body",
        "nuser_jnt", "nuser_geom", "nuser_site", "nuser_cam", "nuser_tendon", "nuser_actuator",
        NULL};
    if (cs_mjcf_int1(c, n, "nuser_sensor", &iv)) {
        if (iv < -1) FAILN(c, n, "nuser_sensor", "must be >= -1");
        c->nuser_sensor = iv;
    }
    for (const char *const *s = SIZES; *s; s++)
        if (cs_mjcf_attr(c, n, *s)) {
            char buf[48];
            snprintf(buf, sizeof buf, "size/@%s", *s);
            cs_mjcf_note_ignored(c, buf);
        }
    if (cs_mjcf_int1(c, n, "nkey", &iv)) {
        if (iv < 0) FAILN(c, n, "nkey", "must not be negative");
        c->size_nkey = iv;
        c->size_line = cs_mjcf_line(n);
    }
}
