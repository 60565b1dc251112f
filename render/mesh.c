/* Primitive meshes (GPU, for geoms) and overlay shapes (CPU templates, batched). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"
#include "vec.h"

/* ------------------------------------------------------------ meshes */

typedef struct {
    float *v;       /* x y z nx ny nz */
    unsigned *i;
    size_t nv, ni, cv, ci;
} builder;

static int b_vert(builder *b, double x, double y, double z, double nx, double ny, double nz)
{
    if (b->nv == b->cv) {
        b->cv = b->cv ? 2 * b->cv : 256;
        b->v = realloc(b->v, b->cv * 6 * sizeof *b->v);
    }
    float *p = b->v + 6 * b->nv;
    p[0] = (float)x, p[1] = (float)y, p[2] = (float)z;
    p[3] = (float)nx, p[4] = (float)ny, p[5] = (float)nz;
    return (int)b->nv++;
}

static void b_tri(builder *b, unsigned a, unsigned c, unsigned d)
{
    if (b->ni + 3 > b->ci) {
        b->ci = b->ci ? 2 * b->ci : 512;
        b->i = realloc(b->i, b->ci * sizeof *b->i);
    }
    b->i[b->ni++] = a;
    b->i[b->ni++] = c;
    b->i[b->ni++] = d;
}

static void upload(cs_mesh *m, builder *b)
{
    glGenVertexArrays(1, &m->vao);
    glBindVertexArray(m->vao);
    glGenBuffers(1, &m->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(b->nv * 6 * sizeof(float)), b->v,
                 GL_STATIC_DRAW);
    glGenBuffers(1, &m->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(b->ni * sizeof(unsigned)), b->i,
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          (void *)(3 * sizeof(float)));
    glBindVertexArray(0);
    m->count = (GLsizei)b->ni;
    free(b->v);
    free(b->i);
    memset(b, 0, sizeof *b);
}

/* The builder's indexed triangles expanded into a plain list of positions. */
static void make_template(cs_tpl *t, builder *b)
{
    t->n = (int)b->ni;
    t->v = malloc(b->ni * 3 * sizeof *t->v);
    for (size_t k = 0; t->v && k < b->ni; k++)
        memcpy(t->v + 3 * k, b->v + 6 * b->i[k], 3 * sizeof *t->v);
    free(b->v);
    free(b->i);
    memset(b, 0, sizeof *b);
}

static void build_templates(cs_renderer *r)
{
    const int seg = 16, rings = 8;
    builder b = {0};
    for (int j = 0; j <= rings; j++)
        for (int i = 0; i <= seg; i++) {
            double th = CS_PI * j / rings, ph = 2 * CS_PI * i / seg;
            b_vert(&b, sin(th) * cos(ph), sin(th) * sin(ph), cos(th), 0, 0, 0);
        }
    for (int j = 0; j < rings; j++)
        for (int i = 0; i < seg; i++) {
            unsigned a = j * (seg + 1) + i, c = a + seg + 1;
            b_tri(&b, a, c, a + 1);
            b_tri(&b, a + 1, c, c + 1);
        }
    make_template(&r->tpl[TPL_SPHERE], &b);
    for (int i = 0; i <= seg; i++) {
        double ph = 2 * CS_PI * i / seg;
        b_vert(&b, cos(ph), sin(ph), -1, 0, 0, 0);
        b_vert(&b, cos(ph), sin(ph), 1, 0, 0, 0);
    }
    for (int i = 0; i < seg; i++) {
        unsigned a = 2 * i;
        b_tri(&b, a, a + 2, a + 1);
        b_tri(&b, a + 1, a + 2, a + 3);
    }
    make_template(&r->tpl[TPL_TUBE], &b);
    b_vert(&b, 0, 0, 1, 0, 0, 0);
    b_vert(&b, 0, 0, 0, 0, 0, 0);
    for (int i = 0; i <= seg; i++) {
        double ph = 2 * CS_PI * i / seg;
        b_vert(&b, cos(ph), sin(ph), 0, 0, 0, 0);
    }
    for (int i = 0; i < seg; i++) {
        b_tri(&b, 0, 2 + i, 3 + i);
        b_tri(&b, 1, 3 + i, 2 + i);
    }
    make_template(&r->tpl[TPL_CONE], &b);
}

#define SEG 48   /* around */
#define RINGS 24 /* pole to pole */

static void build_gpu_meshes(cs_renderer *r)
{
    builder b = {0};
    /* unit sphere */
    for (int j = 0; j <= RINGS; j++) {
        double th = CS_PI * j / RINGS;
        for (int i = 0; i <= SEG; i++) {
            double ph = 2 * CS_PI * i / SEG;
            double x = sin(th) * cos(ph), y = sin(th) * sin(ph), z = cos(th);
            b_vert(&b, x, y, z, x, y, z);
        }
    }
    for (int j = 0; j < RINGS; j++)
        for (int i = 0; i < SEG; i++) {
            unsigned a = j * (SEG + 1) + i, c = a + SEG + 1;
            b_tri(&b, a, c, a + 1);
            b_tri(&b, a + 1, c, c + 1);
        }
    upload(&r->mesh[MESH_SPHERE], &b);
    /* open tube: radius 1, z in [-1, 1] */
    for (int i = 0; i <= SEG; i++) {
        double ph = 2 * CS_PI * i / SEG, x = cos(ph), y = sin(ph);
        b_vert(&b, x, y, -1, x, y, 0);
        b_vert(&b, x, y, 1, x, y, 0);
    }
    for (int i = 0; i < SEG; i++) {
        unsigned a = 2 * i;
        b_tri(&b, a, a + 2, a + 1);
        b_tri(&b, a + 1, a + 2, a + 3);
    }
    upload(&r->mesh[MESH_TUBE], &b);
    /* disk at z = 0 facing +z */
    b_vert(&b, 0, 0, 0, 0, 0, 1);
    for (int i = 0; i <= SEG; i++) {
        double ph = 2 * CS_PI * i / SEG;
        b_vert(&b, cos(ph), sin(ph), 0, 0, 0, 1);
    }
    for (int i = 0; i < SEG; i++)
        b_tri(&b, 0, 1 + i, 2 + i);
    upload(&r->mesh[MESH_DISK], &b);
    /* cube [-1, 1]^3, flat faces */
    for (int axis = 0; axis < 3; axis++)
        for (int s = -1; s <= 1; s += 2) {
            unsigned base = (unsigned)b.nv;
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            for (int k = 0; k < 4; k++) {
                double p[3], n[3] = {0, 0, 0};
                p[axis] = s;
                p[u] = (k == 1 || k == 2) ? 1 : -1;
                p[v] = (k >= 2) ? 1 : -1;
                n[axis] = s;
                b_vert(&b, p[0], p[1], p[2], n[0], n[1], n[2]);
            }
            b_tri(&b, base, base + 1, base + 2);
            b_tri(&b, base, base + 2, base + 3);
        }
    upload(&r->mesh[MESH_BOX], &b);
    /* quad [-1, 1]^2 at z = 0 */
    b_vert(&b, -1, -1, 0, 0, 0, 1);
    b_vert(&b, 1, -1, 0, 0, 0, 1);
    b_vert(&b, 1, 1, 0, 0, 0, 1);
    b_vert(&b, -1, 1, 0, 0, 0, 1);
    b_tri(&b, 0, 1, 2);
    b_tri(&b, 0, 2, 3);
    upload(&r->mesh[MESH_QUAD], &b);
}

static const double ident[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* A rotation whose z column is the unit vector z (any x, y completing the frame). */
static void frame_from_z(const double z[3], double rot[9])
{
    double a[3] = {1, 0, 0}, x[3], y[3];
    if (fabs(z[0]) > 0.9)
        a[0] = 0, a[1] = 1;
    cs_v3cross(a, z, x);
    cs_v3normalize(x);
    cs_v3cross(z, x, y);
    for (int i = 0; i < 3; i++) {
        rot[i * 3 + 0] = x[i];
        rot[i * 3 + 1] = y[i];
        rot[i * 3 + 2] = z[i];
    }
}

/* Appends template t transformed by [rot * diag(scale) | pos] in one colour. */
static void batch_add(cs_renderer *r, int t, const double rot[9], const double pos[3],
                      const double scale[3], const float rgb[3])
{
    const cs_tpl *T = &r->tpl[t];
    if (!T->v)
        return;
    if (r->nbatch + (size_t)T->n > r->cap_batch) {
        size_t cap = r->cap_batch ? 2 * r->cap_batch : 16384;
        while (cap < r->nbatch + (size_t)T->n)
            cap *= 2;
        float *nb = realloc(r->batch, cap * 6 * sizeof *nb);
        if (!nb)
            return;
        r->batch = nb;
        r->cap_batch = cap;
    }
    float *o = r->batch + 6 * r->nbatch;
    for (int k = 0; k < T->n; k++, o += 6) {
        double l[3] = {T->v[3 * k] * scale[0], T->v[3 * k + 1] * scale[1],
                       T->v[3 * k + 2] * scale[2]};
        for (int i = 0; i < 3; i++)
            o[i] = (float)(pos[i] + rot[3 * i] * l[0] + rot[3 * i + 1] * l[1] +
                           rot[3 * i + 2] * l[2]);
        o[3] = rgb[0], o[4] = rgb[1], o[5] = rgb[2];
    }
    r->nbatch += (size_t)T->n;
}

void cs_gl_triangle(cs_renderer *r, const double a[3], const double b[3], const double c[3],
                    const float rgb[3])
{
    if (r->nbatch + 3 > r->cap_batch) {
        size_t cap = r->cap_batch ? 2 * r->cap_batch : 16384;
        float *nb = realloc(r->batch, cap * 6 * sizeof *nb);
        if (!nb)
            return;
        r->batch = nb;
        r->cap_batch = cap;
    }
    const double *p[3] = {a, b, c};
    float *o = r->batch + 6 * r->nbatch;
    for (int k = 0; k < 3; k++, o += 6) {
        for (int i = 0; i < 3; i++)
            o[i] = (float)p[k][i];
        o[3] = rgb[0], o[4] = rgb[1], o[5] = rgb[2];
    }
    r->nbatch += 3;
}

void cs_gl_batch_flush(cs_renderer *r)
{
    if (r->nbatch == 0)
        return;
    glUseProgram(r->prog_batch);
    glUniformMatrix4fv(r->ub_viewproj, 1, GL_FALSE, r->viewproj);
    glBindVertexArray(r->vao_batch);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_batch);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(r->nbatch * 6 * sizeof(float)), r->batch,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)r->nbatch);
    r->nbatch = 0;
}

void cs_gl_ball(cs_renderer *r, const double p[3], double radius, const float rgb[3])
{
    double s[3] = {radius, radius, radius};
    batch_add(r, TPL_SPHERE, ident, p, s, rgb);
}

void cs_gl_segment(cs_renderer *r, const double a[3], const double b[3], double radius,
                   const float rgb[3])
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, len = cs_v3norm(d);
    if (!(len > 0))
        return;
    double z[3] = {d[0] / len, d[1] / len, d[2] / len}, rot[9];
    frame_from_z(z, rot);
    double mid[3] = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])};
    double s[3] = {radius, radius, 0.5 * len};
    batch_add(r, TPL_TUBE, rot, mid, s, rgb);
}

void cs_gl_arrow(cs_renderer *r, const double from[3], const double vec[3], double radius,
                 const float rgb[3])
{
    double len = cs_v3norm(vec);
    if (!(len > 0))
        return;
    double z[3] = {vec[0] / len, vec[1] / len, vec[2] / len}, rot[9];
    frame_from_z(z, rot);
    /* Head 3 shaft radii wide, at most half the arrow long. */
    double head = 8 * radius < 0.5 * len ? 8 * radius : 0.5 * len;
    double base[3];
    for (int i = 0; i < 3; i++)
        base[i] = from[i] + (len - head) * z[i];
    cs_gl_segment(r, from, base, radius, rgb);
    double s[3] = {3 * radius, 3 * radius, head};
    batch_add(r, TPL_CONE, rot, base, s, rgb);
}

void cs_gl_build_meshes(cs_renderer *r)
{
    build_gpu_meshes(r);
    build_templates(r);
}
