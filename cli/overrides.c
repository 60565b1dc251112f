#include "overrides.h"

#include <stdio.h>
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

int cs_overrides_apply(const cs_overrides *o, cs_model *m, char *err, size_t errlen)
{
    for (int i = 0; i < o->n; i++)
        if (cs_option_set(&m->opt, o->name[i], o->value[i], err, errlen) != 0) return -1;
    return 0;
}
