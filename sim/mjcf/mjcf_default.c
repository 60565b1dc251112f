/* <default>: a tree of classes, each element's spec read over its parent class's (the
 * element readers of geoms, joints, sites, pairs, actuators, tendons and equalities). */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "stages.h"
#include "solver/solver.h"

#include "mjcf_read.h"

void cs_mjcf_parse_default(cs_mjcf *c, xmlNode *n, int parent)
{
    cs_mjcf_check(c, n, (const char *const[]){"class", NULL}, NULL);
    char *name = cs_mjcf_attr(c, n, "class");
    int me;
    if (parent < 0) {
        me = c->rootcls; /* top level: "main" (created by the caller) */
        if (name && strcmp(name, "main") != 0) c->cls[me].name = name;
    } else {
        if (!name) FAILN(c, n, "class", "a nested default needs a class name");
        if (cs_mjcf_find_class(c, name) >= 0) FAILN(c, n, "class", "duplicate class '%s'", name);
        cs_mjcf_grow(c, (void **)&c->cls, &c->capcls, c->ncls, sizeof *c->cls);
        me = c->ncls++;
        c->cls[me] = c->cls[parent];
        c->cls[me].name = name;
        c->cls[me].parent = parent;
    }
    for (xmlNode *ch = n->children; ch; ch = ch->next) {
        if (ch->type != XML_ELEMENT_NODE) continue;
        const char *en = cs_mjcf_ename(ch);
        if (strcmp(en, "geom") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_GEOM_ATTRS + 2, CS_MJCF_GEOM_VISUAL);
            cs_mjcf_read_geom_attrs(c, ch, &c->cls[me].geom);
        } else if (strcmp(en, "pair") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_PAIR_ATTRS + 4, NULL);
            cs_mjcf_read_pair_attrs(c, ch, &c->cls[me].pair);
        } else if (strcmp(en, "joint") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_JOINT_ATTRS + 2, CS_MJCF_JOINT_VISUAL);
            cs_mjcf_read_joint_attrs(c, ch, &c->cls[me].joint);
        } else if (strcmp(en, "mesh") == 0) {
            cs_mjcf_check(c, ch, (const char *const[]){"scale", NULL},
                        (const char *const[]){"maxhullvert", "inertia", "smoothnormal", NULL});
            double v[3];
            if (cs_mjcf_nums(c, ch, "scale", v, 3, 3)) memcpy(c->cls[me].meshscale, v, sizeof v);
        } else if (cs_mjcf_in_list(en, CS_MJCF_ACT_TAGS)) {
            /* one actuator default per class, whatever the shortcut (MuJoCo's) */
            for (int i = 0; CS_MJCF_ACT_TAGS[i]; i++)
                if (strcmp(en, CS_MJCF_ACT_TAGS[i]) == 0) en = CS_MJCF_ACT_TAGS[i];
            if (cs_mjcf_attr(c, ch, "name") || cs_mjcf_attr(c, ch, "class"))
                FAILN(c, ch, cs_mjcf_attr(c, ch, "name") ? "name" : "class",
                      "not allowed in a default class");
            /* MuJoCo's schema keeps these to the actuator itself */
            if (cs_mjcf_attr(c, ch, "lengthrange") || cs_mjcf_attr(c, ch, "tausmooth"))
                FAILN(c, ch, cs_mjcf_attr(c, ch, "lengthrange") ? "lengthrange" : "tausmooth",
                      "not allowed in a default class");
            if (cs_mjcf_read_actuator(c, ch, &c->cls[me].act, en) || cs_mjcf_attr(c, ch, "tendon") ||
                cs_mjcf_attr(c, ch, "cranksite"))
                FAILN(c, ch, cs_mjcf_attr(c, ch, "tendon") ? "tendon" : cs_mjcf_attr(c, ch, "cranksite")
                      ? "cranksite" : "joint",
                      "a transmission target is not allowed in a default class");
        } else if (strcmp(en, "tendon") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_TENDON_ATTRS + 2, CS_MJCF_TENDON_VISUAL);
            cs_mjcf_read_tendon_attrs(c, ch, &c->cls[me].tendon);
        } else if (strcmp(en, "equality") == 0) {
            cs_mjcf_check(c, ch, CS_MJCF_EQ_COMMON + 2, NULL);
            cs_mjcf_read_eq_attrs(c, ch, &c->cls[me].eq);
        } else if (strcmp(en, "default") == 0) {
            cs_mjcf_parse_default(c, ch, me);
        } else if (strcmp(en, "camera") == 0 || strcmp(en, "light") == 0) {
            cs_mjcf_visual_default(c, ch, me);
        } else if (strcmp(en, "site") == 0) {
            /* the class's pose: each site that gives no position, or no orientation, takes
             * the class's (a default fromto would need the site's size: refused) */
            if (cs_mjcf_attr(c, ch, "fromto"))
                FAILN(c, ch, "fromto", "a site's fromto in a default class is not supported "
                                       "(give it on each site)");
            double q[4] = {1, 0, 0, 0};
            if (cs_mjcf_frame(c, ch, c->cls[me].site_pos, q)) {
                int alt = cs_mjcf_has_alt_orientation(ch);
                memcpy(alt ? c->cls[me].site_altquat : c->cls[me].site_quat, q, sizeof q);
                if (alt) c->cls[me].site_alt = 1;
            }
            cs_mjcf_check(c, ch, (const char *const[]){"pos", "quat", "axisangle", "euler",
                                                     "xyaxes", "zaxis", "type", "size", NULL},
                        CS_MJCF_SITE_VISUAL);
            cs_mjcf_read_site_shape(c, ch, &c->cls[me].site_type, c->cls[me].site_size);
        } else {
            /* defaults for elements the subset does not have only matter if such elements
             * appear, and those are rejected where they appear */
            char buf[96];
            snprintf(buf, sizeof buf, "default/%s", en);
            cs_mjcf_note_ignored(c, buf);
            cs_mjcf_mark_ignored(ch);
        }
    }
}

/* a main class with MuJoCo's built-in defaults (the model's, or an attached model's) */
void cs_mjcf_init_class(cs_mjcf *c, cs_dclass *d)
{
    memset(d, 0, sizeof *d);
    d->name = cs_mjcf_strdup(c, "main");
    d->parent = -1;
    cs_mjcf_default_gspec(&d->geom);
    d->site_quat[0] = 1;
    d->meshscale[0] = d->meshscale[1] = d->meshscale[2] = 1;
    d->site_type = CS_GEOM_SPHERE;
    cs_mjcf_default_pspec(&d->pair);
    cs_mjcf_default_jspec(&d->joint);
    cs_mjcf_default_aspec(&d->act);
    cs_mjcf_default_tspec(&d->tendon);
    cs_mjcf_default_espec(&d->eq);
    d->site_size[0] = d->site_size[1] = d->site_size[2] = 0.005;
}
