/* Option overrides by name (the CLI's --timestep, --solver, --set option.NAME=VALUE ...).
 * They edit a model's options right after loading, before any cs_data is made from it:
 * nothing else in the model depends on them. Names and values are MJCF's <option>. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conesim.h"
#include "stages.h"

static int parse_nums(const char *s, double *out, int n)
{
    int k = 0;
    const char *p = s;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *end;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v) || k >= n) return -1;
        out[k++] = v;
        p = end;
    }
    return k;
}

static int fail(char *err, size_t errsz, const char *name, const char *value, const char *why)
{
    if (err && errsz) snprintf(err, errsz, "option %s=%s: %s", name, value, why);
    return -1;
}

/* <flag> names with an effect, MuJoCo's meaning (disable flags: set = feature off) */
static const struct { const char *name; int bit, enable; } FLAGS[] = {
    {"constraint", CS_DSBL_CONSTRAINT, 0}, {"contact", CS_DSBL_CONTACT, 0},
    {"gravity", CS_DSBL_GRAVITY, 0}, {"warmstart", CS_DSBL_WARMSTART, 0},
    {"filterparent", CS_DSBL_FILTERPARENT, 0}, {"refsafe", CS_DSBL_REFSAFE, 0},
    {"frictionloss", CS_DSBL_FRICTIONLOSS, 0}, {"limit", CS_DSBL_LIMIT, 0},
    {"equality", CS_DSBL_EQUALITY, 0},
    {"passive", CS_DSBL_PASSIVE, 0}, {"eulerdamp", CS_DSBL_EULERDAMP, 0},
    {"spring", CS_DSBL_SPRING, 0}, {"damper", CS_DSBL_DAMPER, 0},
    {"clampctrl", CS_DSBL_CLAMPCTRL, 0}, {"actuation", CS_DSBL_ACTUATION, 0},
    {"island", CS_DSBL_ISLAND, 0}, {"multiccd", CS_DSBL_MULTICCD, 0},
    {"nativeccd", CS_DSBL_NATIVECCD, 0},
    {"override", CS_ENBL_OVERRIDE, 1}, {"energy", CS_ENBL_ENERGY, 1}};

int cs_flag_lookup(const char *name, int *bit, int *enable)
{
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (strcmp(name, FLAGS[i].name) == 0) {
            *bit = FLAGS[i].bit;
            *enable = FLAGS[i].enable;
            return 0;
        }
    return -1;
}

int cs_option_set(cs_option *o, const char *name, const char *value, char *err, size_t errsz)
{
    const char *key = strncmp(name, "option.", 7) == 0 ? name + 7 : name;
    double v[5];
    int n;
    if (strncmp(key, "flag.", 5) == 0) {
        int on, bit, enable;
        if (strcmp(value, "enable") == 0) on = 1;
        else if (strcmp(value, "disable") == 0) on = 0;
        else return fail(err, errsz, name, value, "expects enable or disable");
        if (cs_flag_lookup(key + 5, &bit, &enable) == 0) {
            int *w = enable ? &o->enableflags : &o->disableflags;
            int set = enable ? on : !on;
            if (set) *w |= bit;
            else *w &= ~bit;
            return 0;
        }
        return fail(err, errsz, name, value, "unknown flag");
    }
    if (strcmp(key, "cone") == 0) {
        if (strcasecmp(value, "pyramidal") == 0) o->cone = CS_CONE_PYRAMIDAL;
        else if (strcasecmp(value, "elliptic") == 0) o->cone = CS_CONE_ELLIPTIC;
        else return fail(err, errsz, name, value, "expects pyramidal or elliptic");
        return 0;
    }
    if (strcmp(key, "pgs_blocks") == 0) { /* conesim's own: not an MJCF attribute */
        if (strcasecmp(value, "contact") == 0) o->pgs_blocks = CS_PGS_CONTACT;
        else if (strcasecmp(value, "pair") == 0) o->pgs_blocks = CS_PGS_PAIR;
        else return fail(err, errsz, name, value, "expects contact or pair");
        return 0;
    }
    if (strcmp(key, "integrator") == 0) {
        if (strcasecmp(value, "euler") == 0) o->integrator = CS_INT_EULER;
        else if (strcasecmp(value, "rk4") == 0) o->integrator = CS_INT_RK4;
        else if (strcasecmp(value, "implicitfast") == 0) o->integrator = CS_INT_IMPLICITFAST;
        else return fail(err, errsz, name, value, "expects Euler, RK4 or implicitfast");
        return 0;
    }
    if (strcmp(key, "contact") == 0) { /* conesim's own: the contact model */
        if (strcasecmp(value, "soft") == 0) o->contact = CS_CONTACT_SOFT;
        else if (strcasecmp(value, "coulomb") == 0) o->contact = CS_CONTACT_COULOMB;
        else return fail(err, errsz, name, value, "expects soft or coulomb");
        return 0;
    }
    if (strcmp(key, "solver") == 0) {
        if (strcasecmp(value, "pgs") == 0) o->solver = CS_SOLVER_PGS;
        else if (strcasecmp(value, "cg") == 0) o->solver = CS_SOLVER_CG;
        else if (strcasecmp(value, "newton") == 0) o->solver = CS_SOLVER_NEWTON;
        else return fail(err, errsz, name, value, "expects PGS, CG or Newton");
        return 0;
    }
    struct { const char *name; double *dst; int count, positive, integer; } NUM[] = {
        {"timestep", &o->timestep, 1, 2, 0},     {"impratio", &o->impratio, 1, 2, 0},
        {"tolerance", &o->tolerance, 1, 1, 0},   {"ls_tolerance", &o->ls_tolerance, 1, 1, 0},
        {"noslip_tolerance", &o->noslip_tolerance, 1, 1, 0},
        {"noslip_iterations", NULL, 1, 1, 1},
        {"o_margin", &o->o_margin, 1, 0, 0},     {"gravity", o->gravity, 3, 0, 0},
        {"o_solref", o->o_solref, 2, 0, 0},      {"o_solimp", o->o_solimp, 5, 0, 0},
        {"o_friction", o->o_friction, 5, 1, 0},  {"iterations", NULL, 1, 1, 1},
        {"ls_iterations", NULL, 1, 1, 1},        {"threads", NULL, 1, 1, 1},
        {"pgs_finish", NULL, 1, 1, 1},   {"pgs_polish", NULL, 1, 1, 1}, /* its older name */
        {"eq_jdotv", NULL, 1, 1, 1},
        {"newton_early", NULL, 1, 1, 1},
        {"viscosity", &o->viscosity, 1, 1, 0},   {"wind", o->wind, 3, 0, 0},
        {"ccd_tolerance", &o->ccd_tolerance, 1, 1, 0}, {"ccd_iterations", NULL, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof NUM / sizeof NUM[0]; i++) {
        if (strcmp(key, NUM[i].name) != 0) continue;
        n = parse_nums(value, v, NUM[i].count);
        if (n != NUM[i].count) {
            char why[64];
            snprintf(why, sizeof why, "expects %d finite number%s", NUM[i].count,
                     NUM[i].count > 1 ? "s" : "");
            return fail(err, errsz, name, value, why);
        }
        for (int k = 0; k < n; k++) {
            if (NUM[i].positive == 2 && !(v[k] > 0)) return fail(err, errsz, name, value, "must be positive");
            if (NUM[i].positive == 1 && v[k] < 0) return fail(err, errsz, name, value, "must not be negative");
        }
        if (NUM[i].integer) {
            if (v[0] != floor(v[0]) || v[0] > 1e9) return fail(err, errsz, name, value, "expects an integer");
            if (strcmp(key, "iterations") == 0) o->iterations = (int)v[0];
            else if (strcmp(key, "threads") == 0) o->threads = (int)fmin(v[0], 64);
            else if (strncmp(key, "pgs_", 4) == 0) o->pgs_finish = (int)v[0];
            else if (strcmp(key, "eq_jdotv") == 0) o->eq_jdotv = v[0] != 0;
            else if (strcmp(key, "newton_early") == 0) {
                if (v[0] > 1) return fail(err, errsz, name, value, "expects 0 or 1");
                o->newton_early = (int)v[0];
            }
            else if (strcmp(key, "noslip_iterations") == 0) o->noslip_iterations = (int)v[0];
            else if (strcmp(key, "ccd_iterations") == 0) o->ccd_iterations = (int)v[0];
            else o->ls_iterations = (int)v[0];
        } else {
            memcpy(NUM[i].dst, v, (size_t)n * sizeof *v);
        }
        return 0;
    }
    return fail(err, errsz, name, value, "unknown option");
}
