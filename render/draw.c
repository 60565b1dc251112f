/* GL 3.3 core: context creation, shaders, primitive meshes, drawing the geoms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"
#include "vec.h"

/* ------------------------------------------------------------ shaders */

static const char *mesh_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "uniform mat4 u_model, u_viewproj;\n"
    "uniform mat3 u_normal;\n"
    "out vec3 v_world, v_normal, v_local;\n"
    "void main() {\n"
    "  vec4 w = u_model * vec4(a_pos, 1.0);\n"
    "  v_world = w.xyz; v_local = a_pos; v_normal = u_normal * a_normal;\n"
    "  gl_Position = u_viewproj * w;\n"
    "}\n";

/* Lighting: a key light from above and a headlight, MuJoCo-like; specular only from the
 * key light so a sphere's projected centre keeps its own colour. The plane draws its grid
 * procedurally with derivative-based antialiasing, faded where lines get denser than pixels. */
static const char *mesh_fs =
    "#version 330 core\n"
    "in vec3 v_world, v_normal, v_local;\n"
    "uniform vec4 u_color;\n"
    "uniform vec3 u_eye;\n"
    "uniform int u_mode;\n"
    "uniform vec3 u_grid;\n" /* spacing, local scale x, y */
    "uniform float u_emit;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "  if (u_mode == 1) { o_color = u_color; return; }\n"
    "  vec3 n = normalize(v_normal);\n"
    "  vec3 v = normalize(u_eye - v_world);\n"
    "  if (dot(n, v) < 0.0) n = -n;\n"
    "  vec3 key = normalize(vec3(0.3, 0.5, 1.0));\n"
    "  vec3 base = u_color.rgb;\n"
    "  if (u_mode == 2) {\n"
    "    vec2 p = v_local.xy * u_grid.yz / u_grid.x;\n"
    "    vec2 fw = max(fwidth(p), vec2(1e-6));\n"
    "    vec2 g = abs(fract(p - 0.5) - 0.5) / fw;\n"
    "    float line = 1.0 - min(min(g.x, g.y) / 1.2, 1.0);\n"
    "    float fade = clamp(1.5 - 4.0 * max(fw.x, fw.y), 0.0, 1.0);\n"
    "    base = mix(base, min(base * 1.8 + 0.25, vec3(1.0)), line * fade);\n"
    "  }\n"
    "  float diff = 0.5 * max(dot(n, key), 0.0) + 0.35 * max(dot(n, v), 0.0);\n"
    "  float spec = 0.25 * pow(max(dot(n, normalize(key + v)), 0.0), 40.0);\n"
    "  vec3 c = base * (0.28 + diff + u_emit) + vec3(spec);\n"
    "  o_color = vec4(min(c, vec3(1.0)), u_color.a);\n"
    "}\n";

static const char *sky_vs =
    "#version 330 core\n"
    "out float v_t;\n"
    "void main() {\n"
    "  vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);\n"
    "  v_t = 0.5 * (p.y + 1.0);\n"
    "  gl_Position = vec4(p, 0.9999, 1.0);\n"
    "}\n";

static const char *sky_fs =
    "#version 330 core\n"
    "in float v_t;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "  vec3 bottom = vec3(0.78, 0.84, 0.90), top = vec3(0.28, 0.42, 0.62);\n"
    "  o_color = vec4(mix(bottom, top, clamp(v_t, 0.0, 1.0)), 1.0);\n"
    "}\n";

static const char *batch_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_color;\n"
    "uniform mat4 u_viewproj;\n"
    "out vec3 v_color;\n"
    "void main() { v_color = a_color; gl_Position = u_viewproj * vec4(a_pos, 1.0); }\n";

static const char *batch_fs =
    "#version 330 core\n"
    "in vec3 v_color;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = vec4(v_color, 1.0); }\n";

static const char *hud_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 1) in vec4 a_color;\n"
    "uniform vec2 u_viewport;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "  v_color = a_color;\n"
    "  gl_Position = vec4(2.0 * a_pos.x / u_viewport.x - 1.0,\n"
    "                     1.0 - 2.0 * a_pos.y / u_viewport.y, 0.0, 1.0);\n"
    "}\n";

static const char *hud_fs =
    "#version 330 core\n"
    "in vec4 v_color;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = v_color; }\n";

static GLuint compile(GLenum type, const char *src, char *err, size_t errlen)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(err, errlen, "shader compile failed: %s", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint program(const char *vs, const char *fs, char *err, size_t errlen)
{
    GLuint v = compile(GL_VERTEX_SHADER, vs, err, errlen);
    if (!v)
        return 0;
    GLuint f = compile(GL_FRAGMENT_SHADER, fs, err, errlen);
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        snprintf(err, errlen, "shader link failed: %s", log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

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

static void build_meshes(cs_renderer *r)
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

/* ------------------------------------------------------------ context */

static char glfw_error[256];
/* GLFW is initialised once and left so for the process: glfwTerminate unloads Mesa's
 * driver, whose few still-held blocks LeakSanitizer then reports as leaks from an unknown
 * module (nothing a suppression can name). The window and context are freed per renderer. */
static int glfw_ready;

static void on_glfw_error(int code, const char *msg)
{
    snprintf(glfw_error, sizeof glfw_error, "GLFW error %d: %s", code, msg);
}

cs_renderer *cs_renderer_create(int w, int h, const char *title, int hidden, char *err,
                                size_t errlen)
{
    return cs_gl_create(w, h, title, hidden, 4, err, errlen);
}

cs_renderer *cs_gl_create(int w, int h, const char *title, int hidden, int samples, char *err,
                          size_t errlen)
{
    glfw_error[0] = '\0';
    glfwSetErrorCallback(on_glfw_error);
    if (!glfw_ready && !glfwInit()) {
        snprintf(err, errlen, "cannot open a display (is DISPLAY set? try xvfb-run): %s",
                 glfw_error);
        return NULL;
    }
    glfw_ready = 1;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, hidden ? GLFW_FALSE : GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, hidden ? 0 : samples);
    GLFWwindow *win = glfwCreateWindow(hidden ? 1 : w, hidden ? 1 : h,
                                       title ? title : "conesim", NULL, NULL);
    if (!win) {
        snprintf(err, errlen, "cannot create an OpenGL 3.3 core context: %s", glfw_error);
        return NULL;
    }
    glfwMakeContextCurrent(win);
    /* Headless never waits for vsync; the windowed loop sets its own interval. */
    glfwSwapInterval(0);
    cs_renderer *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        glfwDestroyWindow(win);
        return NULL;
    }
    r->window = win;
    r->hidden = hidden;
    r->want_samples = samples;
    const char *name = (const char *)glGetString(GL_RENDERER);
    snprintf(r->gl_name, sizeof r->gl_name, "%s", name ? name : "?");
    r->prog_mesh = program(mesh_vs, mesh_fs, err, errlen);
    r->prog_sky = r->prog_mesh ? program(sky_vs, sky_fs, err, errlen) : 0;
    r->prog_2d = r->prog_sky ? program(hud_vs, hud_fs, err, errlen) : 0;
    r->prog_batch = r->prog_2d ? program(batch_vs, batch_fs, err, errlen) : 0;
    if (!r->prog_batch) {
        cs_renderer_destroy(r);
        return NULL;
    }
    GLuint p = r->prog_mesh;
    r->u_model = glGetUniformLocation(p, "u_model");
    r->u_viewproj = glGetUniformLocation(p, "u_viewproj");
    r->u_normal = glGetUniformLocation(p, "u_normal");
    r->u_color = glGetUniformLocation(p, "u_color");
    r->u_eye = glGetUniformLocation(p, "u_eye");
    r->u_mode = glGetUniformLocation(p, "u_mode");
    r->u_grid = glGetUniformLocation(p, "u_grid");
    r->u_emit = glGetUniformLocation(p, "u_emit");
    r->u2_viewport = glGetUniformLocation(r->prog_2d, "u_viewport");
    r->ub_viewproj = glGetUniformLocation(r->prog_batch, "u_viewproj");
    build_meshes(r);
    build_templates(r);
    glGenVertexArrays(1, &r->vao_batch);
    glBindVertexArray(r->vao_batch);
    glGenBuffers(1, &r->vbo_batch);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_batch);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          (void *)(3 * sizeof(float)));
    glGenVertexArrays(1, &r->vao_empty);
    glGenVertexArrays(1, &r->vao_2d);
    glBindVertexArray(r->vao_2d);
    glGenBuffers(1, &r->vbo_2d);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_2d);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          (void *)(2 * sizeof(float)));
    glBindVertexArray(0);
    return r;
}

void cs_renderer_destroy(cs_renderer *r)
{
    if (!r)
        return;
    glfwMakeContextCurrent(r->window);
    for (int i = 0; i < MESH_COUNT; i++) {
        glDeleteBuffers(1, &r->mesh[i].vbo);
        glDeleteBuffers(1, &r->mesh[i].ibo);
        glDeleteVertexArrays(1, &r->mesh[i].vao);
    }
    glDeleteVertexArrays(1, &r->vao_empty);
    glDeleteVertexArrays(1, &r->vao_batch);
    glDeleteBuffers(1, &r->vbo_batch);
    for (int i = 0; i < TPL_COUNT; i++)
        free(r->tpl[i].v);
    free(r->batch);
    glDeleteVertexArrays(1, &r->vao_2d);
    glDeleteBuffers(1, &r->vbo_2d);
    if (r->fbo) {
        glDeleteFramebuffers(1, &r->fbo);
        glDeleteFramebuffers(1, &r->fbo_ms);
        GLuint rbs[3] = {r->rb_color, r->rb_ms_color, r->rb_ms_depth};
        glDeleteRenderbuffers(3, rbs);
    }
    if (r->prog_mesh)
        glDeleteProgram(r->prog_mesh);
    if (r->prog_sky)
        glDeleteProgram(r->prog_sky);
    if (r->prog_2d)
        glDeleteProgram(r->prog_2d);
    if (r->prog_batch)
        glDeleteProgram(r->prog_batch);
    free(r->buf_2d);
    glfwDestroyWindow(r->window);
    free(r);
}

const char *cs_renderer_gl_name(const cs_renderer *r)
{
    return r->gl_name;
}

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
void cs_gl_draw_mesh(cs_renderer *r, int mesh, const double rot[9], const double pos[3],
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
    if (r->shadow) {
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
    glBindVertexArray(r->mesh[mesh].vao);
    glDrawElements(GL_TRIANGLES, r->mesh[mesh].count, GL_UNSIGNED_INT, 0);
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

static void draw_geom(cs_renderer *r, const cs_render_geom *g, double extent, int selected,
                      int wire)
{
    const double *sz = g->size, *rot = g->pose.mat, *pos = g->pose.pos;
    float emit = selected ? 0.35f : 0.0f;
    const float *c = g->rgba;
    if (wire && g->type != CS_GEOM_PLANE)
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    switch (g->type) {
    case CS_GEOM_PLANE: {
        /* Infinite planes (size 0) are drawn out to where the far plane would clip them. */
        double big = 40 * extent;
        double sx = sz[0] > 0 ? sz[0] : big, sy = sz[1] > 0 ? sz[1] : big;
        double spacing = sz[2] > 0 ? sz[2] : (sz[0] > 0 ? sz[0] / 10 : extent / 4);
        double s[3] = {sx, sy, 1};
        glUniform3f(r->u_grid, (float)spacing, (float)sx, (float)sy);
        cs_gl_draw_mesh(r, MESH_QUAD, rot, pos, s, c, SHADE_GRID, emit);
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
    glBindVertexArray(r->vao_empty);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    double zn, zf;
    cs_camera_clip(cam, extent, &zn, &zf);
    float view[16], proj[16];
    cs_camera_view_matrix(cam, view);
    cs_camera_proj_matrix(cam, (double)w / h, zn, zf, proj);
    mat4_mul(proj, view, r->viewproj);
    cs_camera_frame(cam, r->eye, NULL, NULL, NULL);

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glUseProgram(r->prog_mesh);
    glUniformMatrix4fv(r->u_viewproj, 1, GL_FALSE, r->viewproj);
    glUniform3f(r->u_eye, (float)r->eye[0], (float)r->eye[1], (float)r->eye[2]);
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

    /* Overlays on top of the geoms (contacts are inside bodies), ordered among themselves. */
    glClear(GL_DEPTH_BUFFER_BIT);
    cs_gl_overlays(r, s);

    if (s->overlay & (CS_OVERLAY_HUD | CS_OVERLAY_FORCES | CS_OVERLAY_CONES))
        cs_gl_hud(r, s, w, h);
    glBindVertexArray(0);
    glUseProgram(0);
}
