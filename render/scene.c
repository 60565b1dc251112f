/* The scene description: defaults, overlay names, the cone position of a contact. */
#include <math.h>
#include <string.h>

#include "render.h"

const float cs_color_normal_force[3] = {1.0f, 0.85f, 0.0f};    /* yellow */
const float cs_color_friction_force[3] = {0.0f, 0.9f, 1.0f};   /* cyan */
const float cs_color_contact_point[3] = {1.0f, 0.2f, 0.1f};    /* red-orange */
const float cs_color_cone[3] = {1.0f, 1.0f, 1.0f};             /* white */
const float cs_color_cone_inside[3] = {0.1f, 1.0f, 0.2f};      /* green: sticking side */
const float cs_color_cone_boundary[3] = {1.0f, 0.0f, 0.6f};    /* magenta: on the cone */
/* Joints speak the cone's language: green inside the allowed set, magenta on its edge. */
const float cs_color_joint[3] = {0.55f, 0.45f, 1.0f};          /* violet */
const float cs_color_joint_inside[3] = {0.1f, 1.0f, 0.2f};     /* green: within the range */
const float cs_color_joint_limit[3] = {1.0f, 0.0f, 0.6f};      /* magenta: at a limit */

void cs_render_scene_init(cs_render_scene *s)
{
    memset(s, 0, sizeof *s);
    s->overlay = CS_OVERLAY_DEFAULT;
    s->selected_body = -1;
    s->selected_contact = -1;
    s->hud.slowmo = 1;
}

static const struct {
    const char *name;
    unsigned flag;
} overlay_names[] = {
    {"contacts", CS_OVERLAY_CONTACTS}, {"forces", CS_OVERLAY_FORCES},
    {"cones", CS_OVERLAY_CONES},       {"frames", CS_OVERLAY_FRAMES},
    {"wireframe", CS_OVERLAY_WIREFRAME}, {"hud", CS_OVERLAY_HUD},
    {"joints", CS_OVERLAY_JOINTS},     {"controls", CS_OVERLAY_CONTROLS},
};

int cs_overlay_parse(const char *list, unsigned *flags, char *bad, size_t badlen)
{
    unsigned f = 0;
    const char *p = list;
    if (strcmp(list, "none") == 0) {
        *flags = 0;
        return 0;
    }
    for (;;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t i, count = sizeof overlay_names / sizeof overlay_names[0];
        for (i = 0; i < count; i++)
            if (strlen(overlay_names[i].name) == n && strncmp(overlay_names[i].name, p, n) == 0)
                break;
        if (i == count) {
            if (bad && badlen) {
                size_t m = n < badlen - 1 ? n : badlen - 1;
                memcpy(bad, p, m);
                bad[m] = '\0';
            }
            return -1;
        }
        f |= overlay_names[i].flag;
        if (!e)
            break;
        p = e + 1;
    }
    *flags = f;
    return 0;
}

int cs_render_scene_cone_contact(const cs_render_scene *s)
{
    if (s->selected_contact >= 0 && s->selected_contact < s->ncontact)
        return s->selected_contact;
    int best = -1;
    for (int i = 0; i < s->ncontact; i++)
        if (s->contacts[i].dim > 1 &&
            (best < 0 || s->contacts[i].force[0] > s->contacts[best].force[0]))
            best = i;
    return best;
}

double cs_contact_cone_ratio(const cs_render_contact *c)
{
    double fn = c->force[0], sum = 0;
    int pyramid = strcmp(c->zone, "pyramid") == 0;
    if (!(fn > 0))
        return 0;
    /* Elliptic: the weighted 2-norm; pyramidal (edges n +- mu_i e_i): the weighted 1-norm. */
    for (int i = 0; i < c->dim - 1 && i < 5; i++)
        if (c->friction[i] > 0) {
            double u = c->force[1 + i] / c->friction[i];
            sum += pyramid ? fabs(u) : u * u;
        }
    return (pyramid ? sum : sqrt(sum)) / fn;
}

int cs_joint_at_limit(const cs_render_joint *j)
{
    if (!j->limited)
        return 0;
    double lo = j->range[0], hi = j->range[1];
    double tol = fmax(1e-3 * (hi - lo), 1e-6);
    if (j->type != CS_RENDER_JNT_BALL && j->pos <= lo + tol)
        return -1;
    if (j->pos >= hi - tol)
        return 1;
    return 0;
}
