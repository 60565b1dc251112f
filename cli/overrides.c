#include "overrides.h"
#include "numlist.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* geometry: what the compiler derives masses, inertia, frames and starts from */
static const char *const GEOMETRY[] = {"pos", "quat", "euler", "axisangle", "xyaxes", "zaxis",
                                       "fromto", "size", NULL};

int cs_override_recompiles(const char *name)
{
    if (strncmp(name, "mjcf.", 5) == 0) return 1;
    if (strncmp(name, "ctrl.", 5) == 0 || strncmp(name, "option.", 7) == 0 ||
        strncmp(name, "opt.", 4) == 0 || !strchr(name, '.'))
        return 0;
    size_t len = strcspn(name, "[");
    const char *last = NULL;
    for (const char *p = name; p < name + len; p++)
        if (*p == '.') last = p;
    if (!last || last == strchr(name, '.')) return 0; /* not KIND.NAME.ATTR: cs_set says why */
    for (int i = 0; GEOMETRY[i]; i++)
        if (strlen(GEOMETRY[i]) == (size_t)(name + len - last - 1) &&
            strncmp(last + 1, GEOMETRY[i], (size_t)(name + len - last - 1)) == 0)
            return 1;
    return !cs_set_knows(name);
}

const char *cs_scene_path(const char *path, char *buf, size_t len)
{
    if (!buf || len == 0 || strchr(path, '/') || access(path, F_OK) == 0) return path;
    /* $CONESIM_SCENES, then the installed scenes (either may be missing) */
    const char *dirs[2] = {getenv("CONESIM_SCENES"), NULL};
#ifdef CS_SCENEDIR
    dirs[1] = CS_SCENEDIR;
#endif
    for (int i = 0; i < 2; i++) {
        const char *d = dirs[i];
        if (!d || !*d) continue;
        int n = snprintf(buf, len, "%s/%s", d, path);
        if (n < 0 || (size_t)n >= len) continue;
        if (access(buf, F_OK) == 0) return buf;
    }
    return path;
}

void cs_scene_missing(const char *path, char *err, size_t errlen)
{
    if (strchr(path, '/') || access(path, F_OK) == 0 || !err || errlen == 0) return;
    const char *dirs[2] = {getenv("CONESIM_SCENES"), NULL};
#ifdef CS_SCENEDIR
    dirs[1] = CS_SCENEDIR;
#endif
    size_t used = strlen(err);
    int n = snprintf(err + used, errlen - used, " (looked in the working directory");
    for (int i = 0; i < 2 && n >= 0 && (size_t)n < errlen - used; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        used += (size_t)n;
        n = snprintf(err + used, errlen - used, i ? ", in the installed scenes %s"
                                                  : ", in $CONESIM_SCENES %s", dirs[i]);
    }
    if (n >= 0 && (size_t)n < errlen - used) {
        used += (size_t)n;
        snprintf(err + used, errlen - used, ")");
    }
}

cs_model *cs_overrides_load(const cs_overrides *o, const char *path, unsigned flags,
                            int nextra, const char *const *names, const char *const *values,
                            FILE *warn, char *err, size_t errlen)
{
    const char *en[CS_MAXOVERRIDE + 16], *ev[CS_MAXOVERRIDE + 16];
    int n = 0;
    for (int i = 0; o && i < o->n; i++)
        if (cs_override_recompiles(o->name[i])) {
            en[n] = o->name[i];
            ev[n++] = o->value[i];
        }
    for (int i = 0; i < nextra && n < CS_MAXOVERRIDE + 16; i++)
        if (cs_override_recompiles(names[i])) {
            en[n] = names[i];
            ev[n++] = values[i];
        }
    char buf[4096];
    const char *file = cs_scene_path(path, buf, sizeof buf);
    cs_model *m = cs_load_xml_flags(file, flags, n, en, ev, warn, err, errlen);
    if (!m && file == path) {
        int e = errno;
        cs_scene_missing(path, err, errlen);
        errno = e;
    }
    return m;
}

int cs_ctrl_override(const cs_model *m, cs_data *d, const char *name, const char *value,
                     char *err, size_t errlen)
{
    if (strncmp(name, "ctrl.", 5) != 0) return 1;
    const char *a = name + 5;
    int id = cs_name2id_ctrl(m, a); /* a control's name (cs_ctrl_label) or index */
    if (id < 0) {
        snprintf(err, errlen, "%s: no control named '%s' (the scene has %d)", name, a, m->nu);
        return -1;
    }
    double v;
    if (cs_numlist(value, &v, 1) != 1) {
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
    if (cs_override_recompiles(name)) return 0; /* applied by cs_overrides_load */
    return cs_set_text(m, name, value, err, errlen);
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
