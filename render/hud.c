/* HUD: text (stb_easy_font quads) and panels in window pixels; the force legend. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#include "render_gl.h"
#include "vec.h"

/* The vertex list lives in r->buf_2d; r->cap_2d is its capacity in vertices and the
 * used count is tracked here (one HUD is built at a time). */
static size_t n2d;

static void vert(cs_renderer *r, float x, float y, const float c[4])
{
    if (n2d == r->cap_2d) {
        size_t cap = r->cap_2d ? 2 * r->cap_2d : 4096;
        float *b = realloc(r->buf_2d, cap * 6 * sizeof *b);
        if (!b)
            return;
        r->buf_2d = b;
        r->cap_2d = cap;
    }
    float *p = r->buf_2d + 6 * n2d++;
    p[0] = x, p[1] = y, p[2] = c[0], p[3] = c[1], p[4] = c[2], p[5] = c[3];
}

void cs_hud_begin(cs_renderer *r)
{
    (void)r;
    n2d = 0;
}

void cs_hud_rect(cs_renderer *r, float x, float y, float w, float h, const float c[4])
{
    vert(r, x, y, c);
    vert(r, x + w, y, c);
    vert(r, x + w, y + h, c);
    vert(r, x, y, c);
    vert(r, x + w, y + h, c);
    vert(r, x, y + h, c);
}

float cs_hud_text_width(const char *text, float scale)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", text);
    return scale * (float)stb_easy_font_width(tmp);
}

float cs_hud_text(cs_renderer *r, float x, float y, float scale, const char *text,
                  const float c[4])
{
    static char quads[60000]; /* ~270 characters a line, 16-byte vertices */
    char tmp[512];
    unsigned char col[4] = {255, 255, 255, 255};
    snprintf(tmp, sizeof tmp, "%s", text);
    int nq = stb_easy_font_print(0, 0, tmp, col, quads, sizeof quads);
    for (int q = 0; q < nq; q++) {
        float vx[4], vy[4];
        for (int k = 0; k < 4; k++) {
            float *v = (float *)(quads + (size_t)(q * 4 + k) * 16);
            vx[k] = x + scale * v[0];
            vy[k] = y + scale * v[1];
        }
        vert(r, vx[0], vy[0], c);
        vert(r, vx[1], vy[1], c);
        vert(r, vx[2], vy[2], c);
        vert(r, vx[0], vy[0], c);
        vert(r, vx[2], vy[2], c);
        vert(r, vx[3], vy[3], c);
    }
    return scale * (float)stb_easy_font_width(tmp);
}

void cs_hud_end(cs_renderer *r, int w, int h)
{
    if (n2d == 0)
        return;
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->prog_2d);
    glUniform2f(r->u2_viewport, (float)w, (float)h);
    glBindVertexArray(r->vao_2d);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_2d);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n2d * 6 * sizeof(float)), r->buf_2d,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n2d);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    n2d = 0;
}

/* ------------------------------------------------------------ content */

#define MAXLINES 12

typedef struct {
    char line[MAXLINES][256];
    int n;
} lines;

static void addf(lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(lines *l, const char *fmt, ...)
{
    if (l->n >= MAXLINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->line[l->n++], sizeof l->line[0], fmt, ap);
    va_end(ap);
}

/* A text panel at (x, y) from the top-left, or from the bottom-right with right != 0. */
static void panel(cs_renderer *r, const lines *l, float x, float y, float scale, int right,
                  int w, int h)
{
    static const float bg[4] = {0, 0, 0, 0.55f}, fg[4] = {1, 1, 1, 1};
    float lh = 12 * scale, pad = 4 * scale, width = 0;
    for (int i = 0; i < l->n; i++)
        width = fmaxf(width, cs_hud_text_width(l->line[i], scale));
    if (right) {
        x = (float)w - width - 2 * pad - x;
        y = (float)h - l->n * lh - pad - y;
    }
    cs_hud_rect(r, x, y, width + 2 * pad, l->n * lh + pad, bg);
    for (int i = 0; i < l->n; i++)
        cs_hud_text(r, x + pad, y + pad + i * lh, scale, l->line[i], fg);
}

/* A round number of newtons for the legend's reference arrow. */
static double nice(double x)
{
    double p = pow(10, floor(log10(x))), m = x / p;
    return (m < 2 ? 1 : m < 5 ? 2 : 5) * p;
}

static void legend(cs_renderer *r, const cs_render_scene *s, float scale, int w, int h)
{
    static const float bg[4] = {0, 0, 0, 0.55f}, fg[4] = {1, 1, 1, 1};
    double fs = cs_scene_force_scale(s);
    float lh = 12 * scale, pad = 4 * scale, sw = 8 * scale;
    float y = (float)h - 3 * lh - 2 * pad;
    float x = pad;
    char ref[96] = "no contact force";
    if (fs > 0) {
        /* The automatic scale's round force (the largest on screen rounded up), or for a
         * fixed scale a round force whose arrow is about a quarter of the scene long. */
        double n = s->force_scale > 0 ? nice(cs_scene_extent(s) / 4 / fs) : cs_render_force_ref(s);
        snprintf(ref, sizeof ref, "arrow of %.3g m = %.3g N", n * fs, n);
    }
    (void)w;
    float width = fmaxf(cs_hud_text_width(ref, scale), sw + pad + cs_hud_text_width("friction force", scale));
    cs_hud_rect(r, x, y, width + 2 * pad, 3 * lh + pad, bg);
    float c1[4] = {cs_color_normal_force[0], cs_color_normal_force[1], cs_color_normal_force[2], 1};
    float c2[4] = {cs_color_friction_force[0], cs_color_friction_force[1],
                   cs_color_friction_force[2], 1};
    cs_hud_rect(r, x + pad, y + pad + 1 * scale, sw, sw - 2 * scale, c1);
    cs_hud_text(r, x + 2 * pad + sw, y + pad, scale, "normal force", fg);
    cs_hud_rect(r, x + pad, y + pad + lh + 1 * scale, sw, sw - 2 * scale, c2);
    cs_hud_text(r, x + 2 * pad + sw, y + pad + lh, scale, "friction force", fg);
    cs_hud_text(r, x + pad, y + pad + 2 * lh, scale, ref, fg);
}

static const char *zone_meaning(const char *z)
{
    if (strcmp(z, "middle") == 0)
        return "on the cone";
    if (strcmp(z, "bottom") == 0)
        return "inside the cone";
    if (strcmp(z, "top") == 0)
        return "no force";
    return "";
}

static const char *joint_word(int type)
{
    return type == CS_RENDER_JNT_HINGE ? "hinge" : type == CS_RENDER_JNT_SLIDE ? "slide" : "ball";
}

/* The joints overlay's lines: the selected body's joints (value, range, limit), then how many
 * joints are at a limit and which. */
static void joint_lines(lines *l, const cs_render_scene *s)
{
    const double deg = 180 / CS_PI;
    int shown = 0, nlim = 0, more = 0;
    char names[160] = "";
    size_t len = 0;
    for (int k = 0; k < s->njoint; k++) {
        const cs_render_joint *j = &s->joints[k];
        int lim = cs_joint_at_limit(j);
        if (lim && !more) {
            int n = snprintf(names + len, sizeof names - len, "%s%s", nlim ? ", " : "", j->name);
            if (n > 0 && len + (size_t)n < sizeof names - 4)
                len += (size_t)n;
            else
                more = 1;
            names[len] = 0;
        }
        nlim += lim != 0;
        if (s->selected_body <= 0 || j->body != s->selected_body || shown >= 3)
            continue;
        char val[96], range[64] = "";
        if (j->type == CS_RENDER_JNT_SLIDE) {
            snprintf(val, sizeof val, "%.4f m", j->pos);
            if (j->limited)
                snprintf(range, sizeof range, "  range %.4g .. %.4g m", j->range[0], j->range[1]);
        } else {
            snprintf(val, sizeof val, "%.4f rad (%.1f deg)", j->pos, j->pos * deg);
            if (j->limited && j->type == CS_RENDER_JNT_HINGE)
                snprintf(range, sizeof range, "  range %.1f .. %.1f deg", j->range[0] * deg,
                         j->range[1] * deg);
            else if (j->limited)
                snprintf(range, sizeof range, "  up to %.1f deg", j->range[1] * deg);
        }
        addf(l, "joint %s %s %s%s%s", j->name, joint_word(j->type), val, range,
             lim ? "  AT LIMIT" : "");
        shown++;
    }
    if (s->njoint > 0)
        addf(l, "joints %d  at a limit: %s%s", s->njoint, nlim ? names : "none",
             more ? " ..." : "");
}

/* Writes "name value [lo, hi]" into buf, shortening the name until it fits width. */
static void slider_label(const cs_render_actuator *a, float width, float scale, char *buf,
                         size_t len)
{
    char tail[96];
    double lo, hi;
    cs_ctrl_slider_range(a, &lo, &hi);
    snprintf(tail, sizeof tail, " %.4g  [%.3g, %.3g]%s%s", a->ctrl, lo, hi,
             a->limited ? "" : " free", a->driven ? " (schedule)" : "");
    int n = (int)strlen(a->name);
    for (; n > 0; n--) {
        snprintf(buf, len, "%.*s%s%s", n, a->name, n < (int)strlen(a->name) ? "~" : "", tail);
        if (cs_hud_text_width(buf, scale) <= width)
            return;
    }
    snprintf(buf, len, "%s", tail + 1);
}

/* The control panel (top right): title and clear button, what drives the controls, then
 * one slider per actuator: the track, the part from its lower end to the value filled,
 * and a knob at the value. */
static void ctrl_panel(cs_renderer *r, const cs_render_scene *s, float scale, int w, int h)
{
    static const float bg[4] = {0, 0, 0, 0.6f}, fg[4] = {1, 1, 1, 1},
                       dim[4] = {0.75f, 0.75f, 0.75f, 1}, button[4] = {0.35f, 0.35f, 0.4f, 1},
                       track[4] = {0.25f, 0.25f, 0.28f, 1}, fill[4] = {0.3f, 0.55f, 0.9f, 1},
                       driven_fill[4] = {0.55f, 0.55f, 0.55f, 1}, knob[4] = {1, 1, 1, 1},
                       driving[4] = {1, 0.85f, 0.2f, 1};
    double rc[4], rb[4];
    if (cs_ctrl_panel_rect(w, h, s->nactuator, CS_PANEL_BACKGROUND, rc) != 0)
        return;
    float lh = 12 * scale, pad = 4 * scale;
    cs_hud_rect(r, (float)rc[0], (float)rc[1], (float)rc[2], (float)rc[3], bg);
    cs_hud_text(r, (float)rc[0] + pad, (float)rc[1] + pad, scale, "controls (Tab hides)", fg);
    cs_ctrl_panel_rect(w, h, s->nactuator, CS_PANEL_CLEAR, rb);
    cs_hud_rect(r, (float)rb[0], (float)rb[1], (float)rb[2], (float)rb[3], button);
    cs_hud_text(r, (float)(rb[0] + 0.5 * (rb[2] - cs_hud_text_width("clear", scale))),
                (float)rb[1] + 1 * scale, scale, "clear", fg);
    char line[160];
    if (s->ctrl_source)
        snprintf(line, sizeof line, "driven by %s", s->ctrl_source);
    else
        snprintf(line, sizeof line, "drag a slider; 0 clears all");
    cs_hud_text(r, (float)rc[0] + pad, (float)rc[1] + pad + lh, scale, line,
                s->ctrl_source ? driving : dim);
    for (int i = 0; i < s->nactuator; i++) {
        double t[4];
        if (cs_ctrl_panel_rect(w, h, s->nactuator, i, t) != 0)
            break;
        const cs_render_actuator *a = &s->actuators[i];
        char label[160];
        slider_label(a, (float)t[2], scale, label, sizeof label);
        cs_hud_text(r, (float)t[0], (float)(t[1] - lh), scale, label, a->driven ? dim : fg);
        cs_hud_rect(r, (float)t[0], (float)t[1], (float)t[2], (float)t[3], track);
        double kx = cs_ctrl_slider_x(a, t, a->ctrl);
        cs_hud_rect(r, (float)t[0], (float)t[1], (float)(kx - t[0]), (float)t[3],
                    a->driven ? driven_fill : fill);
        cs_hud_rect(r, (float)(kx - 1.5 * scale), (float)(t[1] - 1.5 * scale), 3 * scale,
                    (float)t[3] + 3 * scale, knob);
    }
}

void cs_gl_hud(cs_renderer *r, const cs_render_scene *s, int w, int h)
{
    float scale = h >= 600 ? 2.0f : 1.0f;
    const cs_render_hud *d = &s->hud;
    cs_hud_begin(r);
    if (s->overlay & CS_OVERLAY_HUD) {
        lines l = {.n = 0};
        char rtf[48] = "";
        if (d->rtf > 0)
            snprintf(rtf, sizeof rtf, "  real-time x%.2f", d->rtf);
        addf(&l, "time %.4f s  %s  slow-motion x%.4g%s", d->time,
             d->paused ? "PAUSED" : "running", d->slowmo > 0 ? d->slowmo : 1, rtf);
        addf(&l, "contacts %d  %s%siterations %d  residual %.3g",
             d->ncon > s->ncontact ? d->ncon : s->ncontact,
             d->solver ? d->solver : "", d->solver ? "  " : "", d->iterations, d->residual);
        if (d->body_name)
            addf(&l, "body %s  pos %.4f %.4f %.4f  vel %.4f %.4f %.4f", d->body_name,
                 d->body_pos[0], d->body_pos[1], d->body_pos[2], d->body_vel[0],
                 d->body_vel[1], d->body_vel[2]);
        int k = cs_render_scene_cone_contact(s);
        if (k >= 0) {
            const cs_render_contact *c = &s->contacts[k];
            addf(&l, "contact %d%s  dim %d  dist %.3g  zone %s %s", k,
                 s->selected_contact == k ? "" : " (largest)", c->dim, c->dist, c->zone,
                 zone_meaning(c->zone));
            char buf[256];
            int n = snprintf(buf, sizeof buf, "f %.4g", c->force[0]);
            for (int i = 1; i < c->dim && i < 6 && n > 0 && (size_t)n < sizeof buf; i++)
                n += snprintf(buf + n, sizeof buf - (size_t)n, " %.4g", c->force[i]);
            double ratio = cs_contact_cone_ratio(c);
            addf(&l, "%s N  slip %.4g m/s  cone ratio %.4f%s", buf, c->slip, ratio,
                 ratio >= 1 - 1e-3 ? " (on the boundary)" : "");
        }
        if (s->overlay & CS_OVERLAY_JOINTS)
            joint_lines(&l, s);
        if (d->camera)
            addf(&l, "camera %s  ({ } next, previous; free camera after the last)", d->camera);
        if (d->message)
            addf(&l, "%s", d->message);
        panel(r, &l, 4 * scale, 4 * scale, scale, 0, w, h);
        /* the keys are the window's: a picture or a video has none */
        lines keys = {.n = 0};
        addf(&keys, "Space run/pause  Right step  Backspace reset  +/- speed  M contact model");
        addf(&keys, "C contacts  F forces  K cone  R frames  J joints  W wire  [ ] contact");
        addf(&keys, "Tab control panel  0 controls to 0  { } model cameras");
        addf(&keys, "drag: left orbit  right pan  ctrl perturb  dbl-click select");
        if (w >= 640 && !s->offscreen)
            panel(r, &keys, 4 * scale, 4 * scale, scale, 1, w, h);
    }
    if (s->overlay & CS_OVERLAY_FORCES)
        legend(r, s, scale, w, h);
    if ((s->overlay & CS_OVERLAY_CONTROLS) && s->nactuator > 0 && s->actuators)
        ctrl_panel(r, s, scale, w, h);
    cs_hud_end(r, w, h);
}
