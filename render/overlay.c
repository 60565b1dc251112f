/* Overlays: contact points, force arrows, contact frames, the friction-cone figure; joint
 * axes, ranges and positions. */
#include <math.h>
#include <string.h>

#include "render_gl.h"
#include "vec.h"

/* Bounding radius of a geom about its centre (planes excluded by the caller). */
static double geom_radius(const cs_render_geom *g)
{
    const double *s = g->size;
    switch (g->type) {
    case CS_GEOM_SPHERE:
        return s[0];
    case CS_GEOM_CAPSULE:
        return s[0] + s[1];
    case CS_GEOM_CYLINDER:
        return sqrt(s[0] * s[0] + s[1] * s[1]);
    case CS_GEOM_ELLIPSOID:
        return fmax(s[0], fmax(s[1], s[2]));
    case CS_GEOM_BOX:
    case CS_GEOM_MESH:
        return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    default:
        return 0;
    }
}

double cs_scene_extent(const cs_render_scene *s)
{
    if (s->extent > 0)
        return s->extent;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int n = 0;
    for (int i = 0; i < s->ngeom; i++) {
        const cs_render_geom *g = &s->geoms[i];
        if (g->type == CS_GEOM_PLANE)
            continue;
        double rad = geom_radius(g);
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], g->pose.pos[k] - rad);
            hi[k] = fmax(hi[k], g->pose.pos[k] + rad);
        }
        n++;
    }
    if (n == 0)
        return 1;
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    double e = cs_v3norm(d);
    return e > 1e-6 ? e : 1;
}

/* The smallest 1, 2 or 5 x 10^k at or above x > 0. */
static double nice_up(double x)
{
    double p = pow(10, floor(log10(x))), m = x / p;
    double k = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
    return k * p;
}

double cs_render_force_ref(const cs_render_scene *s)
{
    double fmax_ = 0;
    for (int i = 0; i < s->ncontact; i++) {
        const cs_render_contact *c = &s->contacts[i];
        double f = fabs(c->force[0]);
        double t = hypot(c->force[1], c->force[2]);
        fmax_ = fmax(fmax_, fmax(f, t));
    }
    return fmax_ > 0 && isfinite(fmax_) ? nice_up(fmax_) : 0;
}

double cs_scene_force_scale(const cs_render_scene *s)
{
    if (s->force_scale > 0)
        return s->force_scale;
    /* The forces on screen set the scale: the largest one, rounded up to a round number
     * (so the scale changes in steps, not every frame), is drawn this fraction of the
     * extent long. */
    double ref = cs_render_force_ref(s);
    return ref > 0 ? CS_FORCE_ARROW_FRACTION * cs_scene_extent(s) / ref : 0;
}

double cs_render_force_scale(const cs_render_scene *s) { return cs_scene_force_scale(s); }

/* Contact point radius: a fraction of the extent, but never large against the geoms in
 * contact (a marker must not hide what it sits on). */
double cs_render_marker_radius(const cs_render_scene *s, const cs_render_contact *c)
{
    double r = 0.015 * cs_scene_extent(s);
    int g[2] = {c->geom1, c->geom2};
    for (int k = 0; k < 2; k++) {
        if (g[k] < 0 || g[k] >= s->ngeom || s->geoms[g[k]].type == CS_GEOM_PLANE)
            continue;
        double gr = geom_radius(&s->geoms[g[k]]);
        if (gr > 0)
            r = fmin(r, 0.12 * gr);
    }
    return r;
}

/* A force arrow: the shaft carries the length; thin arrows keep the proportions of long
 * ones (shaft radius 3.5% of the length, so the head is about a quarter of it), long ones
 * stop thickening at radius u/200. */
static void force_arrow(cs_renderer *r, const double from[3], const double v[3], double u,
                        const float rgb[3])
{
    double len = cs_v3norm(v);
    if (!(len > 0))
        return;
    cs_gl_arrow(r, from, v, fmin(0.005 * u, 0.035 * len), rgb);
}

/* Overlays are depth tested against the geoms. The batch so far (arrows, cones, frames)
 * is first drawn faintly where a body hides it, then kept for the normal pass. */
static void draw_hidden_faintly(cs_renderer *r)
{
    size_t n = r->nbatch;
    if (n == 0)
        return;
    glEnable(GL_BLEND);
    glBlendColor(0, 0, 0, 0.3f);
    glBlendFunc(GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA);
    glDepthFunc(GL_GREATER);
    glDepthMask(GL_FALSE);
    cs_gl_batch_flush(r);
    r->nbatch = n; /* the vertices are still in the batch: drawn again below */
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
}

/* World vector f1 t1 + f2 t2 (the sliding friction) of contact c, times k. */
static void tangential(const cs_render_contact *c, double f1, double f2, double k, double out[3])
{
    const double *t1 = c->frame + 3, *t2 = c->frame + 6;
    for (int i = 0; i < 3; i++)
        out[i] = k * (f1 * t1[i] + f2 * t2[i]);
}

static void draw_cone(cs_renderer *r, const cs_render_contact *c, double scale, double u)
{
    double fn = c->force[0];
    if (c->dim < 3 || !(fn > 0) || !(scale > 0))
        return;
    const double *n = c->frame;
    double h = fn * scale, centre[3], mu1 = c->friction[0], mu2 = c->friction[1];
    for (int i = 0; i < 3; i++)
        centre[i] = c->pos[i] + h * n[i];
    /* Torsional and rolling components use part of the cone: the tangential slice at
     * their current values shrinks by sqrt(fn^2 - sum (f_i/mu_i)^2) / fn (elliptic) or
     * (fn - sum |f_i|/mu_i) / fn (pyramidal, whose slice is a diamond). */
    int pyramid = strcmp(c->zone, "pyramid") == 0;
    double rest = 0;
    for (int i = 2; i < c->dim - 1 && i < 5; i++)
        if (c->friction[i] > 0) {
            double q = c->force[1 + i] / c->friction[i];
            rest += pyramid ? fabs(q) : q * q;
        }
    double shrink = pyramid ? (rest < fn ? (fn - rest) / fn : 0)
                            : (rest < fn * fn ? sqrt(fn * fn - rest) / fn : 0);
    double thin = 0.003 * u;
    const int seg = 64;
    for (int pass = 0; pass < (rest > 0 ? 2 : 1); pass++) {
        double k = pass == 0 ? 1 : shrink;
        double prev[3];
        for (int j = 0; j <= seg; j++) {
            double a = 2 * CS_PI * j / seg, p[3], d[3];
            double ca = cos(a), sa = sin(a);
            if (pyramid) { /* the unit circle of the 1-norm */
                double l1 = fabs(ca) + fabs(sa);
                ca /= l1;
                sa /= l1;
            }
            tangential(c, mu1 * fn * k * ca, mu2 * fn * k * sa, scale, d);
            for (int i = 0; i < 3; i++)
                p[i] = centre[i] + d[i];
            if (j > 0)
                cs_gl_segment(r, prev, p, pass == 0 ? thin : 0.6 * thin, cs_color_cone);
            for (int i = 0; i < 3; i++)
                prev[i] = p[i];
        }
    }
    /* Four generators from the apex and the axis: the cone itself. */
    for (int j = 0; j < 4; j++) {
        double a = 0.5 * CS_PI * j, p[3], d[3];
        tangential(c, mu1 * fn * cos(a), mu2 * fn * sin(a), scale, d);
        for (int i = 0; i < 3; i++)
            p[i] = centre[i] + d[i];
        cs_gl_segment(r, c->pos, p, 0.6 * thin, cs_color_cone);
    }
    cs_gl_segment(r, c->pos, centre, 0.6 * thin, cs_color_cone);
    /* The friction force as a point of the cross-section; marked on the boundary. */
    double d[3], dot[3];
    tangential(c, c->force[1], c->force[2], scale, d);
    for (int i = 0; i < 3; i++)
        dot[i] = centre[i] + d[i];
    cs_gl_segment(r, c->pos, dot, thin, cs_color_cone);
    int boundary = cs_contact_cone_ratio(c) >= 1 - 1e-3;
    if (boundary) {
        cs_gl_ball(r, dot, 0.03 * u, cs_color_cone_boundary);
    } else {
        cs_gl_ball(r, dot, 0.02 * u, cs_color_cone_inside);
    }
}

/* v rotated by angle a about the unit axis k (Rodrigues). */
static void rotate_about(const double v[3], const double k[3], double a, double out[3])
{
    double c = cos(a), sn = sin(a), kxv[3], kv = cs_v3dot(k, v);
    cs_v3cross(k, v, kxv);
    for (int i = 0; i < 3; i++)
        out[i] = v[i] * c + kxv[i] * sn + k[i] * kv * (1 - c);
}

/* p = a + t v */
static void along(const double a[3], const double v[3], double t, double p[3])
{
    for (int i = 0; i < 3; i++)
        p[i] = a[i] + t * v[i];
}

/* A hinge: its axis as an arrow through the anchor; limited, the allowed range as an arc
 * about the axis closed by two rays, and the current angle as a longer ray with a dot at its
 * end, green inside the range, magenta at or beyond a limit (and so is that limit's ray). */
static void draw_hinge(cs_renderer *r, const cs_render_joint *j, double u, int lim)
{
    double a[3];
    along(j->anchor, j->axis, -0.12 * u, a);
    double v[3] = {0.24 * u * j->axis[0], 0.24 * u * j->axis[1], 0.24 * u * j->axis[2]};
    cs_gl_arrow(r, a, v, 0.005 * u, cs_color_joint);
    cs_gl_ball(r, j->anchor, 0.012 * u, cs_color_joint);
    if (!j->limited || !(cs_v3norm(j->ref) > 0.5))
        return;
    double rho = 0.08 * u, lo = j->range[0], hi = j->range[1], span = hi - lo;
    int full = span >= 2 * CS_PI;
    if (full)
        hi = lo + 2 * CS_PI, span = 2 * CS_PI;
    int n = (int)ceil(span / (CS_PI / 36));
    if (n < 1)
        n = 1;
    double prev[3], d[3], p[3];
    for (int k = 0; k <= n; k++) {
        rotate_about(j->ref, j->axis, lo + span * k / n, d);
        along(j->anchor, d, rho, p);
        if (k > 0)
            cs_gl_segment(r, prev, p, 0.004 * u, cs_color_joint);
        memcpy(prev, p, sizeof p);
    }
    if (!full)
        for (int e = 0; e < 2; e++) {
            int hit = lim == (e ? 1 : -1);
            rotate_about(j->ref, j->axis, e ? hi : lo, d);
            along(j->anchor, d, rho, p);
            cs_gl_segment(r, j->anchor, p, (hit ? 0.005 : 0.003) * u,
                          hit ? cs_color_joint_limit : cs_color_joint);
        }
    const float *c = lim ? cs_color_joint_limit : cs_color_joint_inside;
    rotate_about(j->ref, j->axis, j->pos, d);
    along(j->anchor, d, 1.3 * rho, p);
    cs_gl_segment(r, j->anchor, p, 0.006 * u, c);
    cs_gl_ball(r, p, 0.015 * u, c);
}

/* A slide: limited, the range as an arrow along the axis (head at the upper limit) with the
 * current position as a dot on it; else a short arrow through the anchor. */
static void draw_slide(cs_renderer *r, const cs_render_joint *j, double u, int lim)
{
    double a[3], b[3], v[3];
    if (j->limited) {
        along(j->anchor, j->axis, j->range[0] - j->pos, a);
        along(j->anchor, j->axis, j->range[1] - j->pos, b);
        cs_gl_ball(r, a, 0.01 * u, cs_color_joint); /* the lower end; the head is the upper */
    } else {
        along(j->anchor, j->axis, -0.12 * u, a);
        along(j->anchor, j->axis, 0.12 * u, b);
    }
    for (int i = 0; i < 3; i++)
        v[i] = b[i] - a[i];
    cs_gl_arrow(r, a, v, 0.005 * u, cs_color_joint);
    cs_gl_ball(r, j->anchor, 0.018 * u, lim ? cs_color_joint_limit : cs_color_joint_inside);
}

static void draw_joints(cs_renderer *r, const cs_render_scene *s, double u)
{
    for (int k = 0; k < s->njoint; k++) {
        const cs_render_joint *j = &s->joints[k];
        int lim = cs_joint_at_limit(j);
        switch (j->type) {
        case CS_RENDER_JNT_HINGE:
            draw_hinge(r, j, u, lim);
            break;
        case CS_RENDER_JNT_SLIDE:
            draw_slide(r, j, u, lim);
            break;
        case CS_RENDER_JNT_BALL:
            /* A dot at the pivot; limited, coloured by its rotation against the cone. */
            cs_gl_ball(r, j->anchor, 0.022 * u,
                       !j->limited ? cs_color_joint
                                   : lim ? cs_color_joint_limit : cs_color_joint_inside);
            break;
        default:
            break;
        }
    }
}

void cs_gl_overlays(cs_renderer *r, const cs_render_scene *s)
{
    double u = r->unit, scale = cs_scene_force_scale(s);
    unsigned ov = s->overlay;
    for (int k = 0; k < s->ncontact; k++) {
        const cs_render_contact *c = &s->contacts[k];
        if (ov & CS_OVERLAY_FRAMES) {
            static const float axis_color[3][3] = {{1, 0.1f, 0.1f}, {0.1f, 0.9f, 0.1f},
                                                   {0.2f, 0.3f, 1}};
            for (int a = 0; a < 3; a++) {
                double v[3] = {0.15 * u * c->frame[3 * a], 0.15 * u * c->frame[3 * a + 1],
                               0.15 * u * c->frame[3 * a + 2]};
                force_arrow(r, c->pos, v, u, axis_color[a]);
            }
        }
        if ((ov & CS_OVERLAY_FORCES) && scale > 0) {
            double v[3];
            for (int i = 0; i < 3; i++)
                v[i] = scale * c->force[0] * c->frame[i];
            force_arrow(r, c->pos, v, u, cs_color_normal_force);
            if (c->dim >= 3) {
                tangential(c, c->force[1], c->force[2], scale, v);
                force_arrow(r, c->pos, v, u, cs_color_friction_force);
            }
        }
    }
    if (ov & CS_OVERLAY_CONES) {
        int k = cs_render_scene_cone_contact(s);
        if (k >= 0)
            draw_cone(r, &s->contacts[k], scale, u);
    }
    draw_hidden_faintly(r);
    /* Contact points: hidden where a body hides them. */
    if (ov & CS_OVERLAY_CONTACTS)
        for (int k = 0; k < s->ncontact; k++) {
            const cs_render_contact *c = &s->contacts[k];
            double rad = cs_render_marker_radius(s, c);
            cs_gl_ball(r, c->pos, k == s->selected_contact ? 1.5 * rad : rad,
                       cs_color_contact_point);
        }
    cs_gl_batch_flush(r);
    /* Joints sit inside their bodies: that overlay is drawn over them. */
    if (ov & CS_OVERLAY_JOINTS) {
        draw_joints(r, s, u);
        glDisable(GL_DEPTH_TEST);
        cs_gl_batch_flush(r);
        glEnable(GL_DEPTH_TEST);
    }
}
