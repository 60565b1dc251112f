/* The options by name, from their one description (option_table.h): text values (the CLI's
 * --timestep, --solver, --set option.NAME=VALUE, the MJCF <custom> contact model) and
 * numbers (cs_set), checked as the loader checks <option>. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conesim.h"
#include "numlist.h"
#include "option_table.h"
#include "stages.h"

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
    {"nativeccd", CS_DSBL_NATIVECCD, 0}, {"sensor", CS_DSBL_SENSOR, 0},
    {"override", CS_ENBL_OVERRIDE, 1}, {"energy", CS_ENBL_ENERGY, 1},
    {"sleep", CS_ENBL_SLEEP, 1}};

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

/* the C type's field code, and a build-time check of each line against the struct: its
 * member has the type and number of values the line says */
#define TYPE_CODE(t) _Generic((t)0, double: CS_FIELD_DOUBLE, int: CS_FIELD_INT)
#define DEF(f, t, n, chk, w, src) {#f, TYPE_CODE(t), n, chk, w, src, offsetof(cs_option, f)},
#define AGREES(f, t, n, chk, w, src) \
    _Static_assert(sizeof(((cs_option *)0)->f) == (n) * sizeof(t) && (n) <= CS_OPTION_MAXN && \
                       _Generic(&((cs_option *)0)->f, t *: (n) == 1, t(*)[n]: 1, default: 0), \
                   "cs_option." #f " differs from its CS_OPTION_FIELDS line");
CS_OPTION_FIELDS(AGREES)
const cs_option_def cs_option_defs[] = {CS_OPTION_FIELDS(DEF)};
const int cs_option_ndefs = (int)(sizeof cs_option_defs / sizeof cs_option_defs[0]);
#undef DEF
#undef AGREES

const cs_option_def *cs_option_find(const char *key)
{
    if (strcmp(key, "pgs_polish") == 0) key = "pgs_finish"; /* its older name */
    for (int i = 0; i < cs_option_ndefs; i++)
        if (strcmp(cs_option_defs[i].name, key) == 0) return &cs_option_defs[i];
    return NULL;
}

void cs_option_get(const cs_option *o, const cs_option_def *e, double *v)
{
    const char *p = (const char *)o + e->off;
    for (int k = 0; k < e->n; k++)
        v[k] = e->type == CS_FIELD_INT ? ((const int *)p)[k] : ((const double *)p)[k];
}

/* keyword i of "a|b|c" into w (empty past the end); its length, -1 past the end */
static int keyword_at(const char *words, int i, char *w, size_t wsz)
{
    const char *p = words;
    for (int k = 0; k < i; k++) {
        p = strchr(p, '|');
        if (!p) return -1;
        p++;
    }
    size_t len = strcspn(p, "|");
    snprintf(w, wsz, "%.*s", (int)len, p);
    return (int)len;
}

static int keyword_count(const char *words)
{
    int n = 1;
    for (const char *p = words; *p; p++) n += *p == '|';
    return n;
}

/* a keyword's position in the list; a word marked '!' (a code that is refused) is not one */
static int keyword_find(const char *words, const char *value)
{
    char w[64];
    for (int i = 0; keyword_at(words, i, w, sizeof w) >= 0; i++)
        if (w[0] != '!' && strcasecmp(w, value) == 0) return i;
    return -1;
}

/* "expects A, B or C" from the words not marked '!' */
static void keyword_expects(const char *words, char *why, size_t whysz)
{
    char w[64];
    int n = keyword_count(words), shown = 0, left = 0;
    for (int i = 0; i < n; i++)
        left += keyword_at(words, i, w, sizeof w) > 0 && w[0] != '!';
    size_t at = (size_t)snprintf(why, whysz, "expects ");
    for (int i = 0; i < n && at < whysz; i++) {
        if (keyword_at(words, i, w, sizeof w) <= 0 || w[0] == '!') continue;
        shown++;
        at += (size_t)snprintf(why + at, whysz - at, "%s%s",
                               shown == 1 ? "" : shown == left ? " or " : ", ", w);
    }
}

static int why_fail(char *why, size_t whysz, const char *text)
{
    if (why && whysz) snprintf(why, whysz, "%s", text);
    return -1;
}

int cs_option_put(cs_option *o, const cs_option_def *e, const double *v, char *why,
                  size_t whysz)
{
    for (int k = 0; k < e->n; k++) {
        double x = v[k];
        if (!isfinite(x)) return why_fail(why, whysz, "expects finite numbers");
        switch ((cs_option_check)e->check) {
        case CS_OPT_ANY: break;
        case CS_OPT_POSITIVE:
            if (!(x > 0)) return why_fail(why, whysz, "must be positive");
            break;
        case CS_OPT_NONNEG:
            if (x < 0) return why_fail(why, whysz, "must not be negative");
            break;
        case CS_OPT_COUNT:
            if (x < 0) return why_fail(why, whysz, "must not be negative");
            if (x != floor(x) || x > 1e9) return why_fail(why, whysz, "expects an integer");
            break;
        case CS_OPT_BOOL:
            if (x != 0 && x != 1) return why_fail(why, whysz, "expects 0 or 1");
            break;
        case CS_OPT_KEYWORD: {
            char w[64], refused[160] = "";
            int n = keyword_count(e->words);
            for (int i = 0; i < n; i++)
                if (keyword_at(e->words, i, w, sizeof w) > 0 && w[0] == '!')
                    snprintf(refused, sizeof refused, "; %d, %s, is not supported", i, w + 1);
            if (x != floor(x) || x < 0 || x >= n ||
                (keyword_at(e->words, (int)x, w, sizeof w) > 0 && w[0] == '!')) {
                if (why && whysz)
                    snprintf(why, whysz, "expects %s %s code 0..%d (MuJoCo's numbering%s)",
                             strchr("aeiou", e->name[0]) ? "an" : "a", e->name, n - 1, refused);
                return -1;
            }
            break;
        }
        case CS_OPT_BITS:
            if (x != floor(x) || x < 0 || x > 0x7fffffff)
                return why_fail(why, whysz, "expects a non-negative integer of flag bits");
            break;
        }
    }
    char *p = (char *)o + e->off;
    for (int k = 0; k < e->n; k++) {
        if (e->type == CS_FIELD_DOUBLE) ((double *)p)[k] = v[k];
        else ((int *)p)[k] = (int)v[k];
    }
    if (e->off == offsetof(cs_option, threads)) o->threads = o->threads > 64 ? 64 : o->threads;
    return 0;
}

int cs_option_set(cs_option *o, const char *name, const char *value, char *err, size_t errsz)
{
    const char *key = strncmp(name, "option.", 7) == 0 ? name + 7 : name;
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
    const cs_option_def *e = cs_option_find(key);
    if (!e) return fail(err, errsz, name, value, "unknown option");
    double v[CS_OPTION_MAXN];
    char why[160];
    if (e->check == CS_OPT_KEYWORD) {
        int k = keyword_find(e->words, value);
        v[0] = k;
        if (k < 0 && cs_numlist(value, v, 1) != 1) { /* neither a word nor its number */
            keyword_expects(e->words, why, sizeof why);
            return fail(err, errsz, name, value, why);
        }
    } else if (cs_numlist(value, v, e->n) != e->n) {
        snprintf(why, sizeof why, "expects %d finite number%s", e->n, e->n > 1 ? "s" : "");
        return fail(err, errsz, name, value, why);
    }
    if (cs_option_put(o, e, v, why, sizeof why) != 0) return fail(err, errsz, name, value, why);
    return 0;
}
