/* Drawing a frame: sky, geoms (lit, grid on planes, wireframe), shadows, then overlays. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"
#include "vec.h"

/* ------------------------------------------------------------ drawing */

static void mat4_mul(const float a[16], const float b[16], float out[16])
{
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + rr] * b[c * 4 + k];
            out[c * 4 + rr] = s;
        }
}

/* M = [rot * diag(scale) | pos] column-major; normal matrix rot * diag(1/scale). */
static void model_uniforms(cs_renderer *r, const double rot[9], const double pos[3],
                           const double scale[3], const float rgba[4], int mode, float emit)
{
    float m[16], nm[9];
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) {
            double s = scale[col];
            m[col * 4 + row] = (float)(rot[row * 3 + col] * s);
            nm[col * 3 + row] = (float)(rot[row * 3 + col] / (s != 0 ? s : 1e-9));
        }
    m[3] = m[7] = m[11] = 0;
    m[12] = (float)pos[0];
    m[13] = (float)pos[1];
    m[14] = (float)pos[2];
    m[15] = 1;
    if (r->flat) {
        rgba = r->flat;
        mode = SHADE_FLAT;
        emit = 0;
    } else if (r->shadow) {
        static const float dark[4] = {0, 0, 0, 0.3f};
        float sm[16];
        mat4_mul(r->shadow_mat, m, sm);
        memcpy(m, sm, sizeof m);
        rgba = dark;
        mode = SHADE_FLAT;
    }
    glUniformMatrix4fv(r->u_model, 1, GL_FALSE, m);
    glUniformMatrix3fv(r->u_normal, 1, GL_FALSE, nm);
    glUniform4fv(r->u_color, 1, rgba);
    glUniform1i(r->u_mode, mode);
    glUniform1f(r->u_emit, emit);
}

void cs_gl_draw_mesh(cs_renderer *r, int mesh, const double rot[9], const double pos[3],
                     const double scale[3], const float rgba[4], int mode, float emit)
{
    model_uniforms(r, rot, pos, scale, rgba, mode, emit);
    glBindVertexArray(r->mesh[mesh].vao);
    glDrawElements(GL_TRIANGLES, r->mesh[mesh].count, GL_UNSIGNED_INT, 0);
}

/* A mesh with texture coordinates under a 2D texture: its triangles through the lit
 * program, each corner with its coordinate; one normal per triangle, the look of the
 * untextured meshes. The material's uniforms are set (texture mode 4). */
static void draw_uv_mesh(cs_renderer *r, const cs_render_geom *g, float emit)
{
    size_t n = 3 * (size_t)g->mesh_nface;
    if (n == 0)
        return;
    if (n > r->cap_uv) {
        float *p = realloc(r->uvbuf, n * 8 * sizeof *p);
        if (!p)
            return;
        r->uvbuf = p;
        r->cap_uv = n;
    }
    float *o = r->uvbuf;
    for (int f = 0; f < g->mesh_nface; f++) {
        const double *w[3];
        for (int k = 0; k < 3; k++)
            w[k] = g->mesh_vert + 3 * g->mesh_face[3 * f + k];
        double e1[3], e2[3], nrm[3];
        for (int i = 0; i < 3; i++) {
            e1[i] = w[1][i] - w[0][i];
            e2[i] = w[2][i] - w[0][i];
        }
        cs_v3cross(e1, e2, nrm);
        if (cs_v3norm(nrm) > 0)
            cs_v3normalize(nrm);
        for (int k = 0; k < 3; k++, o += 8) {
            const double *uv = g->mesh_texcoord + 2 * g->mesh_facetexcoord[3 * f + k];
            for (int i = 0; i < 3; i++) {
                o[i] = (float)w[k][i];
                o[3 + i] = (float)nrm[i];
            }
            o[6] = (float)uv[0];
            o[7] = (float)uv[1];
        }
    }
    static const double one[3] = {1, 1, 1};
    model_uniforms(r, g->pose.mat, g->pose.pos, one, g->rgba, SHADE_LIT, emit);
    glBindVertexArray(r->vao_uv);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_uv);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 8 * sizeof(float)), r->uvbuf,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)n);
}

/* whether g is drawn with its mesh's texture coordinates */
static int uses_texcoord(const cs_render_geom *g)
{
    return g->type == CS_GEOM_MESH && g->mesh_texcoord && g->mesh_facetexcoord &&
           g->texture && g->texture->type == CS_TEX_2D;
}

/* A mesh geom without texture coordinates: its triangles flat shaded by the key light (per
 * face, on the CPU, through the overlay batch), or in wireframe mode its convex hull's
 * edges, the shape collisions use. No planar shadow. */
static void draw_user_mesh(cs_renderer *r, const cs_render_geom *g, double extent, int wire,
                           float emit)
{
    const double *R = g->pose.mat, *P = g->pose.pos;
    double l[3] = {0.3, 0.5, 1.0};
    cs_v3normalize(l);
    if (wire && g->hull_vert) {
        const float rgb[3] = {g->rgba[0], g->rgba[1], g->rgba[2]};
        for (int f = 0; f < g->hull_nface; f++) {
            int a = g->hull_faceadr[f], n = g->hull_faceadr[f + 1] - a;
            for (int k = 0; k < n; k++) {
                double x[3], y[3];
                const double *u = g->hull_vert + 3 * g->hull_facevert[a + k];
                const double *v = g->hull_vert + 3 * g->hull_facevert[a + (k + 1) % n];
                for (int i = 0; i < 3; i++) {
                    x[i] = P[i] + R[3 * i] * u[0] + R[3 * i + 1] * u[1] + R[3 * i + 2] * u[2];
                    y[i] = P[i] + R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
                }
                cs_gl_segment(r, x, y, 0.002 * extent, rgb);
            }
        }
    } else {
        for (int f = 0; f < g->mesh_nface; f++) {
            double w[3][3];
            for (int k = 0; k < 3; k++) {
                const double *u = g->mesh_vert + 3 * g->mesh_face[3 * f + k];
                for (int i = 0; i < 3; i++)
                    w[k][i] = P[i] + R[3 * i] * u[0] + R[3 * i + 1] * u[1] + R[3 * i + 2] * u[2];
            }
            double e1[3], e2[3], n[3];
            for (int i = 0; i < 3; i++) {
                e1[i] = w[1][i] - w[0][i];
                e2[i] = w[2][i] - w[0][i];
            }
            cs_v3cross(e1, e2, n);
            if (!(cs_v3norm(n) > 0))
                continue;
            cs_v3normalize(n);
            double lit = 0.35 + 0.65 * fabs(cs_v3dot(n, l)) + emit;
            float rgb[3];
            for (int i = 0; i < 3; i++)
                rgb[i] = r->flat ? r->flat[i] : (float)fmin(1.0, g->rgba[i] * lit);
            cs_gl_triangle(r, w[0], w[1], w[2], rgb);
        }
    }
    cs_gl_batch_flush(r);
    glUseProgram(r->prog_mesh);
}

GLuint cs_gl_texture(cs_renderer *r, const cs_render_texture *t)
{
    for (int i = 0; i < r->ntexcache; i++)
        if (r->texcache[i].texel == t->texel && r->texcache[i].w == t->width &&
            r->texcache[i].h == t->height)
            return r->texcache[i].id;
    int n = (int)(sizeof r->texcache / sizeof r->texcache[0]);
    if (r->ntexcache == n || t->width < 1 || t->height < 1 || !t->texel)
        return 0;
    size_t np = (size_t)t->width * t->height;
    unsigned char *rgb = malloc(3 * np);
    if (!rgb)
        return 0;
    for (size_t k = 0; k < np; k++) {
        rgb[3 * k] = (unsigned char)(t->texel[k] >> 16);
        rgb[3 * k + 1] = (unsigned char)(t->texel[k] >> 8);
        rgb[3 * k + 2] = (unsigned char)t->texel[k];
    }
    GLuint id;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, t->width, t->height, 0, GL_RGB, GL_UNSIGNED_BYTE,
                 rgb);
    free(rgb);
    if (t->type == CS_TEX_2D) {
        /* repeated across planes: mipmaps keep far checkers from shimmering */
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    } else {
        /* faces stacked in one image: sampled within a face, never across */
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    r->texcache[r->ntexcache].texel = t->texel;
    r->texcache[r->ntexcache].w = t->width;
    r->texcache[r->ntexcache].h = t->height;
    r->texcache[r->ntexcache++].id = id;
    return id;
}

/* The geom's material and texture uniforms; plane_size (sx, sy as drawn, and whether
 * each is infinite) gives a plane MuJoCo's texture coordinates. */
static void set_material(cs_renderer *r, const cs_render_geom *g, const double plane[4])
{
    glUniform4f(r->u_mat, g->specular, g->shininess, g->emission, g->material ? 1.0f : 0.0f);
    const cs_render_texture *t = g->texture;
    GLuint id = t && !r->shadow ? cs_gl_texture(r, t) : 0;
    if (!id) {
        glUniform1i(r->u_texmode, 0);
        return;
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, id);
    double scl[2] = {g->texrepeat[0], g->texrepeat[1]};
    if (t->type != CS_TEX_2D) {
        glUniform1i(r->u_texmode, 3);
        glUniform1i(r->u_nface, t->height == 6 * t->width ? 6 : 1);
    } else if (plane) {
        /* MuJoCo's plane: u from 0 to texrepeat across a finite side (times its half size
         * with texuniform), 0.5 texrepeat per metre on an infinite one, v downwards */
        double sc[2], off[2];
        for (int k = 0; k < 2; k++) {
            double half = plane[k], rep = scl[k] > 0 ? scl[k] : 1;
            if (plane[2 + k] == 0) {
                if (g->texuniform) rep *= half;
                sc[k] = rep / (2 * half);
                off[k] = rep / 2;
            } else {
                sc[k] = 0.5 * scl[k];
                off[k] = -0.5;
            }
        }
        glUniform1i(r->u_texmode, 1);
        glUniform2f(r->u_uvscale, (float)sc[0], (float)-sc[1]);
        glUniform2f(r->u_uvoff, (float)off[0], (float)off[1]);
        glUniform3f(r->u_size, (float)plane[0], (float)plane[1], 1.0f);
    } else {
        double rep0 = scl[0] > 0 ? scl[0] : 1, rep1 = scl[1] > 0 ? scl[1] : 1;
        if (g->texuniform) {
            rep0 *= g->size[0] > 0 ? g->size[0] : 1;
            rep1 *= g->size[1] > 0 ? g->size[1] : 1;
        }
        /* MuJoCo scales a mesh's own coordinates as it scales the face mapping */
        glUniform1i(r->u_texmode, uses_texcoord(g) ? 4 : 2);
        glUniform2f(r->u_uvscale, (float)rep0, (float)rep1);
    }
}

static void draw_geom(cs_renderer *r, const cs_render_geom *g, double extent, int selected,
                      int wire)
{
    const double *sz = g->size, *rot = g->pose.mat, *pos = g->pose.pos;
    float emit = selected ? 0.35f : 0.0f;
    const float *c = g->rgba;
    if (wire && g->type != CS_GEOM_PLANE)
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    if (g->type != CS_GEOM_PLANE)
        set_material(r, g, NULL);
    switch (g->type) {
    case CS_GEOM_PLANE: {
        /* Infinite planes (size 0) are drawn out to where the far plane would clip them. */
        double big = 40 * extent;
        double sx = sz[0] > 0 ? sz[0] : big, sy = sz[1] > 0 ? sz[1] : big;
        double spacing = sz[2] > 0 ? sz[2] : (sz[0] > 0 ? sz[0] / 10 : extent / 4);
        double s[3] = {sx, sy, 1};
        glUniform3f(r->u_grid, (float)spacing, (float)sx, (float)sy);
        double pl[4] = {sx, sy, sz[0] > 0 ? 0 : 1, sz[1] > 0 ? 0 : 1};
        set_material(r, g, pl);
        /* a textured plane shows its texture, not the grid */
        cs_gl_draw_mesh(r, MESH_QUAD, rot, pos, s, c,
                        g->texture && !r->shadow ? SHADE_LIT : SHADE_GRID, emit);
        break;
    }
    case CS_GEOM_SPHERE: {
        double s[3] = {sz[0], sz[0], sz[0]};
        cs_gl_draw_mesh(r, MESH_SPHERE, rot, pos, s, c, SHADE_LIT, emit);
        break;
    }
    case CS_GEOM_ELLIPSOID:
        cs_gl_draw_mesh(r, MESH_SPHERE, rot, pos, sz, c, SHADE_LIT, emit);
        break;
    case CS_GEOM_BOX:
        cs_gl_draw_mesh(r, MESH_BOX, rot, pos, sz, c, SHADE_LIT, emit);
        break;
    case CS_GEOM_CAPSULE:
    case CS_GEOM_CYLINDER: {
        double s[3] = {sz[0], sz[0], sz[1]};
        cs_gl_draw_mesh(r, MESH_TUBE, rot, pos, s, c, SHADE_LIT, emit);
        for (int e = -1; e <= 1; e += 2) {
            double p[3];
            for (int i = 0; i < 3; i++)
                p[i] = pos[i] + e * sz[1] * rot[i * 3 + 2];
            if (g->type == CS_GEOM_CAPSULE) {
                double sr[3] = {sz[0], sz[0], sz[0]};
                cs_gl_draw_mesh(r, MESH_SPHERE, rot, p, sr, c, SHADE_LIT, emit);
            } else {
                double sd[3] = {sz[0], sz[0], e}; /* e = -1 flips the disk to face -z */
                cs_gl_draw_mesh(r, MESH_DISK, rot, p, sd, c, SHADE_LIT, emit);
            }
        }
        break;
    }
    case CS_GEOM_MESH:
        if (!r->shadow && g->mesh_vert) {
            if (wire)
                glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
            if (!wire && uses_texcoord(g))
                draw_uv_mesh(r, g, emit);
            else
                draw_user_mesh(r, g, extent, wire, emit);
        }
        break;
    default:
        break;
    }
    if (wire && g->type != CS_GEOM_PLANE)
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}


/* Planar shadows from the key light: every geom above a plane is flattened onto it along
 * the light, drawn dark and translucent only where that plane is visible (stencil 1),
 * each pixel once (stencil incremented). Cheap on llvmpipe and free of shadow-map acne. */
static void draw_shadows(cs_renderer *r, const cs_render_scene *s, double extent)
{
    double l[3] = {0.3, 0.5, 1.0};
    cs_v3normalize(l);
    for (int k = 0; k < s->ngeom; k++) {
        const cs_render_geom *pl = &s->geoms[k];
        if (pl->type != CS_GEOM_PLANE || pl->rgba[3] < 1)
            continue;
        double n[3] = {pl->pose.mat[2], pl->pose.mat[5], pl->pose.mat[8]};
        double ln = cs_v3dot(l, n), d = cs_v3dot(pl->pose.pos, n);
        if (ln < 0.1)
            continue;
        /* x' = x - l ((x . n - d) / (l . n)): S = I - l n^T / ln, translation l d / ln. */
        float *S = r->shadow_mat;
        for (int c = 0; c < 3; c++)
            for (int rr = 0; rr < 3; rr++)
                S[c * 4 + rr] = (float)((rr == c) - l[rr] * n[c] / ln);
        for (int rr = 0; rr < 3; rr++)
            S[12 + rr] = (float)(l[rr] * d / ln);
        S[3] = S[7] = S[11] = 0;
        S[15] = 1;
        glEnable(GL_STENCIL_TEST);
        glClear(GL_STENCIL_BUFFER_BIT);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glDepthMask(GL_FALSE);
        glDepthFunc(GL_LEQUAL);
        glStencilFunc(GL_ALWAYS, 1, 0xff);
        glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
        draw_geom(r, pl, extent, 0, 0);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glDisable(GL_DEPTH_TEST);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glStencilFunc(GL_EQUAL, 1, 0xff);
        glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
        r->shadow = 1;
        for (int i = 0; i < s->ngeom; i++) {
            const cs_render_geom *g = &s->geoms[i];
            if (g->type == CS_GEOM_PLANE || g->rgba[3] <= 0 ||
                cs_v3dot(g->pose.pos, n) - d < 0)
                continue;
            draw_geom(r, g, extent, 0, 0);
        }
        r->shadow = 0;
        glDisable(GL_BLEND);
        glDisable(GL_STENCIL_TEST);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
    }
}

/* The frame's view and projection (r->viewproj, r->eye) with depth testing on and the
 * mesh program in use; the clipping planes out (may be NULL). */
static void set_camera(cs_renderer *r, const cs_camera *cam, int w, int h, double extent,
                       double *znear, double *zfar)
{
    double zn, zf;
    cs_camera_clip(cam, extent, &zn, &zf);
    float view[16], proj[16];
    cs_camera_view_matrix(cam, view);
    cs_camera_proj_matrix(cam, (double)w / h, zn, zf, proj);
    mat4_mul(proj, view, r->viewproj);
    cs_camera_frame(cam, r->eye, NULL, NULL, NULL);
    if (znear)
        *znear = zn;
    if (zfar)
        *zfar = zf;
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glUseProgram(r->prog_mesh);
    glUniformMatrix4fv(r->u_viewproj, 1, GL_FALSE, r->viewproj);
    glUniform3f(r->u_eye, (float)r->eye[0], (float)r->eye[1], (float)r->eye[2]);
}

void cs_render_frame(cs_renderer *r, const cs_render_scene *s, const cs_camera *cam, int w,
                     int h)
{
    double extent = cs_scene_extent(s);
    r->unit = extent;
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);

    /* Sky: drawn first, no depth writes. */
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->prog_sky);
    GLuint sky = s->skybox ? cs_gl_texture(r, s->skybox) : 0;
    glUniform1i(r->us_mode, sky != 0);
    if (sky) {
        double f[3], u[3], rt[3];
        cs_camera_frame(cam, NULL, f, u, rt);
        /* an orthographic view sees the sky as a 45 degree view would */
        double t = tan(0.5 * (cam->ortho ? 45 : cam->fovy) * 3.14159265358979323846 / 180);
        double a = (double)w / h;
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, sky);
        glUniform1i(r->us_nface, s->skybox->height == 6 * s->skybox->width ? 6 : 1);
        glUniform3f(r->us_cf, (float)f[0], (float)f[1], (float)f[2]);
        glUniform3f(r->us_cr, (float)(rt[0] * t * a), (float)(rt[1] * t * a), (float)(rt[2] * t * a));
        glUniform3f(r->us_cu, (float)(u[0] * t), (float)(u[1] * t), (float)(u[2] * t));
    }
    glBindVertexArray(r->vao_empty);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    set_camera(r, cam, w, h, extent, NULL, NULL);
    /* the model's lights (MuJoCo draws at most 8) */
    int nl = s->nlight < 8 ? s->nlight : 8;
    float lp[8][3], ld[8][3], la[8][3], lf[8][3], ls[8][3], lc[8][3];
    for (int i = 0; i < nl; i++) {
        const cs_render_light *L = &s->lights[i];
        for (int k = 0; k < 3; k++) {
            lp[i][k] = (float)L->pos[k];
            ld[i][k] = (float)L->dir[k];
            la[i][k] = L->ambient[k];
            lf[i][k] = L->diffuse[k];
            ls[i][k] = L->specular[k];
        }
        lc[i][0] = (float)cos(L->cutoff * 3.14159265358979323846 / 180);
        lc[i][1] = (float)L->exponent;
        lc[i][2] = (float)L->directional;
    }
    /* the headlight's 0.5 plus the brightest light's ambient and diffuse (its brightest
     * channel): a face that light meets head-on shows its own colour */
    double brightest = 0;
    for (int i = 0; i < nl; i++) {
        const cs_render_light *L = &s->lights[i];
        brightest = fmax(brightest, fmax(L->ambient[0], fmax(L->ambient[1], L->ambient[2])) +
                                        fmax(L->diffuse[0], fmax(L->diffuse[1], L->diffuse[2])));
    }
    double total = 0.5 + brightest;
    glUniform1f(r->u_lnorm, (float)(1 / fmax(1, total)));
    glUniform1i(r->u_nlight, nl);
    if (nl) {
        glUniform3fv(r->u_lpos, nl, lp[0]);
        glUniform3fv(r->u_ldir, nl, ld[0]);
        glUniform3fv(r->u_lamb, nl, la[0]);
        glUniform3fv(r->u_ldif, nl, lf[0]);
        glUniform3fv(r->u_lspec, nl, ls[0]);
        glUniform3fv(r->u_lcut, nl, lc[0]);
    }
    r->lit_by_model = nl > 0;
    int wire = (s->overlay & CS_OVERLAY_WIREFRAME) != 0;
    /* Opaque first, then shadows, then the translucent ones blended without depth writes. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (!s->no_shadows)
                draw_shadows(r, s, extent);
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            glDepthMask(GL_FALSE);
        }
        for (int i = 0; i < s->ngeom; i++) {
            const cs_render_geom *g = &s->geoms[i];
            if ((g->rgba[3] < 1) != (pass == 1) || g->rgba[3] <= 0)
                continue;
            draw_geom(r, g, extent, s->selected_body > 0 && g->body == s->selected_body,
                      wire);
        }
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);

    /* Overlays against the geoms' depth: what a body hides stays hidden (overlay.c draws
     * the hidden parts of arrows and cones faintly, contact points not at all). */
    cs_gl_overlays(r, s);

    if (s->overlay & (CS_OVERLAY_HUD | CS_OVERLAY_FORCES | CS_OVERLAY_CONES | CS_OVERLAY_CONTROLS))
        cs_gl_hud(r, s, w, h);
    glBindVertexArray(0);
    glUseProgram(0);
}

/* Segmentation: each visible geom flat in the colour of its index + 1 (24 bits, red the
 * low byte), nothing else (no sky, shadows, overlays or blending), on black. Translucent
 * geoms count as solid, as in MuJoCo's segmentation. */
void cs_gl_draw_ids(cs_renderer *r, const cs_render_scene *s, const cs_camera *cam, int w,
                    int h, double *znear, double *zfar)
{
    double extent = cs_scene_extent(s);
    r->unit = extent;
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    set_camera(r, cam, w, h, extent, znear, zfar);
    glUniform1i(r->u_nlight, 0);
    for (int i = 0; i < s->ngeom; i++) {
        const cs_render_geom *g = &s->geoms[i];
        if (g->rgba[3] <= 0)
            continue;
        unsigned id = (unsigned)i + 1;
        float c[4] = {(float)(id & 0xff) / 255.0f, (float)((id >> 8) & 0xff) / 255.0f,
                      (float)((id >> 16) & 0xff) / 255.0f, 1.0f};
        r->flat = c;
        draw_geom(r, g, extent, 0, 0);
    }
    r->flat = NULL;
    glBindVertexArray(0);
    glUseProgram(0);
}
