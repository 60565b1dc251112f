#include "overrides.h"

#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_overrides_add(cs_overrides *o, const char *opt, const char *arg, char *why, size_t whylen)
{
    if (o->n >= CS_MAXOVERRIDE) {
        snprintf(why, whylen, "more than %d option overrides", CS_MAXOVERRIDE);
        return 0;
    }
    const char *name = opt + 2, *value = arg;
    if (strcmp(opt, "--set") == 0) {
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof o->buf[0]) {
            snprintf(why, whylen, "--set: expected NAME=VALUE, got '%s'", arg);
            return 0;
        }
        memcpy(o->buf[o->n], arg, (size_t)(eq - arg));
        o->buf[o->n][eq - arg] = 0;
        name = o->buf[o->n];
        value = eq + 1;
    }
    o->name[o->n] = name;
    o->value[o->n] = value;
    o->n++;
    return 1;
}

/* "NAME[k]" -> base length and k; -1 without an index, -2 for a malformed one */
static int split_index(const char *name, size_t *baselen)
{
    const char *br = strchr(name, '[');
    *baselen = br ? (size_t)(br - name) : strlen(name);
    if (!br) return -1;
    char *end;
    long k = strtol(br + 1, &end, 10);
    if (end == br + 1 || !isdigit((unsigned char)br[1]) || strcmp(end, "]") != 0 || k > 1000)
        return -2;
    return (int)k;
}

static int parse_values(const char *s, double *out, int n)
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

/* option.NAME[k]: the option's current vector with element k changed, set as a whole so
 * cs_option_set checks it */
static int option_element(cs_model *m, const char *name, size_t baselen, int k,
                          const char *value, char *err, size_t errlen)
{
    const char *key = strncmp(name, "option.", 7) == 0 ? name + 7 : name;
    size_t keylen = baselen - (size_t)(key - name);
    cs_field f;
    for (int i = 0; cs_option_field(&m->opt, i, &f) == 0; i++) {
        if (strlen(f.name) != keylen || strncmp(f.name, key, keylen) != 0) continue;
        if (f.type != CS_FIELD_DOUBLE || f.ndim != 1 || k >= f.shape[0]) break;
        double v;
        if (parse_values(value, &v, 1) != 1) {
            snprintf(err, errlen, "%s=%s: expects one finite number", name, value);
            return -1;
        }
        char buf[256], full[64];
        size_t len = 0;
        for (int j = 0; j < f.shape[0]; j++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%.17g", j ? " " : "",
                                    j == k ? v : ((const double *)f.ptr)[j]);
        snprintf(full, sizeof full, "%.*s", (int)baselen, name);
        return cs_option_set(&m->opt, full, buf, err, errlen);
    }
    snprintf(err, errlen, "%s: not an element of an option vector", name);
    return -1;
}

/* geom.NAME.ATTR, pair.INDEX|NAME.ATTR, body.NAME.pos: the model's array and its length */
static double *model_attr(cs_model *m, const char *name, size_t baselen, int *count, int *body,
                          char *err, size_t errlen)
{
    char kind[8], elem[128], attr[32];
    const char *d1 = memchr(name, '.', baselen);
    const char *d2 = d1 ? memchr(d1 + 1, '.', baselen - (size_t)(d1 + 1 - name)) : NULL;
    /* element names may hold dots: the attribute is after the last one */
    if (d2) {
        const char *last = d2;
        for (const char *p = d2 + 1; p < name + baselen; p++)
            if (*p == '.') last = p;
        d2 = last;
    }
    if (!d1 || !d2 || d2 == d1 + 1 || (size_t)(d1 - name) >= sizeof kind ||
        (size_t)(d2 - d1 - 1) >= sizeof elem || (size_t)(name + baselen - d2 - 1) >= sizeof attr) {
        snprintf(err, errlen, "%s: expected option.NAME, geom.NAME.ATTR, pair.INDEX.ATTR or "
                              "body.NAME.pos", name);
        return NULL;
    }
    snprintf(kind, sizeof kind, "%.*s", (int)(d1 - name), name);
    snprintf(elem, sizeof elem, "%.*s", (int)(d2 - d1 - 1), d1 + 1);
    snprintf(attr, sizeof attr, "%.*s", (int)(name + baselen - d2 - 1), d2 + 1);
    *body = -1;
    if (strcmp(kind, "geom") == 0) {
        int g = cs_name2id_geom(m, elem);
        if (g < 0) {
            snprintf(err, errlen, "%s: no geom named '%s'", name, elem);
            return NULL;
        }
        static const struct { const char *name; int n; size_t off; } G[] = {
            {"friction", 3, offsetof(cs_model, geom_friction)},
            {"solref", 2, offsetof(cs_model, geom_solref)},
            {"solimp", 5, offsetof(cs_model, geom_solimp)},
            {"solmix", 1, offsetof(cs_model, geom_solmix)},
        };
        for (size_t i = 0; i < sizeof G / sizeof G[0]; i++)
            if (strcmp(attr, G[i].name) == 0) {
                *count = G[i].n;
                return *(double **)((char *)m + G[i].off) + (size_t)g * (size_t)G[i].n;
            }
        snprintf(err, errlen, "%s: geom attribute '%s' cannot be set (friction, solref, solimp, "
                              "solmix can)", name, attr);
        return NULL;
    }
    if (strcmp(kind, "pair") == 0) {
        int p = -1;
        long l;
        char *end;
        l = strtol(elem, &end, 10);
        if (*elem && !*end) p = l >= 0 && l < m->npair ? (int)l : -1;
        else
            for (int i = 0; i < m->npair; i++)
                if (m->pair_name[i] && strcmp(m->pair_name[i], elem) == 0) p = i;
        if (p < 0) {
            snprintf(err, errlen, "%s: no pair '%s' (the scene has %d)", name, elem, m->npair);
            return NULL;
        }
        static const struct { const char *name; int n; size_t off; } P[] = {
            {"friction", 5, offsetof(cs_model, pair_friction)},
            {"solref", 2, offsetof(cs_model, pair_solref)},
            {"solreffriction", 2, offsetof(cs_model, pair_solreffriction)},
            {"solimp", 5, offsetof(cs_model, pair_solimp)},
        };
        for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
            if (strcmp(attr, P[i].name) == 0) {
                *count = P[i].n;
                return *(double **)((char *)m + P[i].off) + (size_t)p * (size_t)P[i].n;
            }
        snprintf(err, errlen, "%s: pair attribute '%s' cannot be set (friction, solref, "
                              "solreffriction, solimp can)", name, attr);
        return NULL;
    }
    if (strcmp(kind, "body") == 0) {
        int b = cs_name2id_body(m, elem);
        if (b <= 0) {
            snprintf(err, errlen, "%s: no body named '%s'", name, elem);
            return NULL;
        }
        if (strcmp(attr, "pos") != 0) {
            snprintf(err, errlen, "%s: body attribute '%s' cannot be set (pos can)", name, attr);
            return NULL;
        }
        *count = 3;
        *body = b;
        return m->body_pos + 3 * (size_t)b;
    }
    snprintf(err, errlen, "%s: expected option.NAME, geom.NAME.ATTR, pair.INDEX.ATTR or "
                          "body.NAME.pos", name);
    return NULL;
}

int cs_ctrl_override(const cs_model *m, cs_data *d, const char *name, const char *value,
                     char *err, size_t errlen)
{
    if (strncmp(name, "ctrl.", 5) != 0) return 1;
    const char *a = name + 5;
    int id = cs_name2id_actuator(m, a);
    if (id < 0 && *a) { /* an index */
        char *end;
        long l = strtol(a, &end, 10);
        if (!*end && isdigit((unsigned char)*a) && l < m->nu) id = (int)l;
    }
    if (id < 0) {
        snprintf(err, errlen, "%s: no actuator named '%s' (the scene has %d)", name, a, m->nu);
        return -1;
    }
    double v;
    if (parse_values(value, &v, 1) != 1) {
        snprintf(err, errlen, "%s=%s: expects one finite number", name, value);
        return -1;
    }
    if (d) d->ctrl[id] = v;
    return 0;
}

int cs_overrides_apply_ctrl(const cs_overrides *o, const cs_model *m, cs_data *d, char *err,
                            size_t errlen)
{
    for (int i = 0; i < o->n; i++)
        if (cs_ctrl_override(m, d, o->name[i], o->value[i], err, errlen) < 0) return -1;
    return 0;
}

int cs_model_override(cs_model *m, const char *name, const char *value, char *err, size_t errlen)
{
    int rc = cs_ctrl_override(m, NULL, name, value, err, errlen);
    if (rc <= 0) return rc;
    size_t baselen;
    int k = split_index(name, &baselen);
    if (k == -2) {
        snprintf(err, errlen, "%s: bad element index (expected NAME[K])", name);
        return -1;
    }
    int model = strncmp(name, "geom.", 5) == 0 || strncmp(name, "pair.", 5) == 0 ||
                strncmp(name, "body.", 5) == 0;
    if (!model) {
        if (k < 0) return cs_option_set(&m->opt, name, value, err, errlen);
        return option_element(m, name, baselen, k, value, err, errlen);
    }
    int count, body;
    double *dst = model_attr(m, name, baselen, &count, &body, err, errlen);
    if (!dst) return -1;
    double v[5];
    int want = k >= 0 ? 1 : count;
    if (k >= count) {
        snprintf(err, errlen, "%s: index %d out of range (%d elements)", name, k, count);
        return -1;
    }
    if (parse_values(value, v, want) != want) {
        snprintf(err, errlen, "%s=%s: expects %d finite number%s", name, value, want,
                 want > 1 ? "s" : "");
        return -1;
    }
    if (k >= 0) dst[k] = v[0];
    else memcpy(dst, v, (size_t)count * sizeof *v);
    /* a free body starts at its joint's qpos (qpos0 or a keyframe): move that too */
    int jf = body > 0 && m->body_jntnum[body] == 1 ? m->body_jntadr[body] : -1;
    if (jf >= 0 && m->jnt_type[jf] == CS_JNT_FREE) {
        int a = m->jnt_qposadr[jf];
        for (int j = 0; j < 3; j++) {
            if (k >= 0 && j != k) continue;
            m->qpos0[a + j] = dst[j];
            for (int key = 0; key < m->nkey; key++) m->key_qpos[(size_t)key * m->nq + a + j] = dst[j];
        }
    }
    return 0;
}

int cs_overrides_apply(const cs_overrides *o, cs_model *m, char *err, size_t errlen)
{
    for (int i = 0; i < o->n; i++) {
        if (!o->ctrl_ok && strncmp(o->name[i], "ctrl.", 5) == 0) {
            snprintf(err, errlen, "%s: controls are set by run and sweep", o->name[i]);
            return -1;
        }
        if (cs_model_override(m, o->name[i], o->value[i], err, errlen) != 0) return -1;
    }
    return 0;
}
