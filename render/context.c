/* GL 3.3 core context (hidden or windowed GLFW, or headless EGL from egl.c) and the shader
 * programs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless.h"
#include "render_gl.h"
#include "vec.h"

/* ------------------------------------------------------------ shaders */

static const char *mesh_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_model, u_viewproj;\n"
    "uniform mat3 u_normal;\n"
    "out vec3 v_world, v_normal, v_local;\n"
    "out vec2 v_uv;\n"
    "void main() {\n"
    "  vec4 w = u_model * vec4(a_pos, 1.0);\n"
    "  v_world = w.xyz; v_local = a_pos; v_normal = u_normal * a_normal; v_uv = a_uv;\n"
    "  gl_Position = u_viewproj * w;\n"
    "}\n";

/* A cube texture's colour in direction d: faces +x -x +y -y +z -z as GL's cube maps lay
 * them out, stacked in one 2D texture (6 faces) or one face for all. */
#define CUBE_GLSL \
    "vec3 cubetex(sampler2D t, vec3 d, int nface) {\n" \
    "  vec3 a = abs(d); float ma; vec2 sc; int f;\n" \
    "  if (a.x >= a.y && a.x >= a.z) { f = d.x > 0.0 ? 0 : 1; ma = a.x;\n" \
    "    sc = d.x > 0.0 ? vec2(-d.z, -d.y) : vec2(d.z, -d.y); }\n" \
    "  else if (a.y >= a.z) { f = d.y > 0.0 ? 2 : 3; ma = a.y;\n" \
    "    sc = d.y > 0.0 ? vec2(d.x, d.z) : vec2(d.x, -d.z); }\n" \
    "  else { f = d.z > 0.0 ? 4 : 5; ma = a.z; sc = d.z > 0.0 ? vec2(d.x, -d.y) : vec2(-d.x, -d.y); }\n" \
    "  vec2 st = 0.5 * (sc / max(ma, 1e-9) + 1.0);\n" \
    "  float w = float(textureSize(t, 0).x);\n" \
    "  st = clamp(st, vec2(0.5 / w), vec2(1.0 - 0.5 / w));\n" \
    "  if (nface == 6) st.y = (float(f) + st.y) / 6.0;\n" \
    "  return textureLod(t, st, 0.0).rgb;\n" \
    "}\n"

/* Lighting without the model's lights: a key light from above and a headlight, matte:
 * ambient + diffuse peak at 1 so a lit face shows its own colour, not white; a faint
 * specular on solids only (a sphere still reads as round), none on planes (a floor under a
 * light would glare). With the model's lights: MuJoCo's fixed-function model, its headlight
 * (ambient 0.1, diffuse 0.4, specular 0.5) plus each light's ambient, diffuse (spots: cutoff
 * and exponent) and specular x the material's specular, shininess x 128, emission; scaled
 * by u_lnorm so that a face the brightest light and the headlight meet head-on shows its own
 * colour rather than white (MuJoCo's sums saturate a light floor), and no specular on planes,
 * as above.
 * Textures multiply the colour: planes by MuJoCo's texture coordinates (texrepeat across
 * the plane, or per 2 m with texuniform and on infinite planes), meshes by their own
 * coordinates (times texrepeat), other geoms by the face their point lies on; cube
 * textures by direction. The plane draws its grid procedurally
 * when it has no texture, lines darker than the floor, with derivative-based antialiasing,
 * faded where lines get denser than pixels. */
static const char *mesh_fs =
    "#version 330 core\n"
    "in vec3 v_world, v_normal, v_local;\n"
    "in vec2 v_uv;\n"
    "uniform vec4 u_color;\n"
    "uniform vec3 u_eye;\n"
    "uniform int u_mode;\n"
    "uniform vec3 u_grid;\n" /* spacing, local scale x, y */
    "uniform float u_emit;\n"
    "uniform int u_texmode;\n" /* 0 none, 1 plane coordinates, 2 box faces, 3 cube,
                                 * 4 the mesh's own coordinates */
    "uniform sampler2D u_tex;\n"
    "uniform vec2 u_uvscale, u_uvoff;\n"
    "uniform vec3 u_size;\n"
    "uniform int u_nface;\n"
    "uniform vec4 u_mat;\n" /* specular, shininess, emission, 1 = a material */
    "uniform int u_nlight;\n"
    "uniform vec3 u_lpos[8], u_ldir[8], u_lamb[8], u_ldif[8], u_lspec[8], u_lcut[8];\n"
    "uniform float u_lnorm;\n"
    "out vec4 o_color;\n"
    CUBE_GLSL
    "void main() {\n"
    "  if (u_mode == 1) { o_color = u_color; return; }\n"
    "  vec3 n = normalize(v_normal);\n"
    "  vec3 v = normalize(u_eye - v_world);\n"
    "  if (dot(n, v) < 0.0) n = -n;\n"
    "  vec3 base = u_color.rgb;\n"
    "  if (u_texmode == 1) {\n"
    "    base *= texture(u_tex, (v_local * u_size).xy * u_uvscale + u_uvoff).rgb;\n"
    "  } else if (u_texmode == 2) {\n"
    "    vec3 a = abs(v_local); vec2 uv;\n"
    "    if (a.x >= a.y && a.x >= a.z) uv = v_local.yz; else if (a.y >= a.z) uv = v_local.xz;\n"
    "    else uv = v_local.xy;\n"
    "    base *= texture(u_tex, (0.5 * uv + 0.5) * u_uvscale).rgb;\n"
    "  } else if (u_texmode == 3) {\n"
    "    base *= cubetex(u_tex, v_local, u_nface);\n"
    "  } else if (u_texmode == 4) {\n"
    "    base *= texture(u_tex, v_uv * u_uvscale).rgb;\n"
    "  }\n"
    "  float ks = 0.06;\n"
    "  if (u_mode == 2) {\n"
    "    vec2 p = v_local.xy * u_grid.yz / u_grid.x;\n"
    "    vec2 fw = max(fwidth(p), vec2(1e-6));\n"
    "    vec2 g = abs(fract(p - 0.5) - 0.5) / fw;\n"
    "    float line = 1.0 - min(min(g.x, g.y) / 1.2, 1.0);\n"
    "    float fade = clamp(1.5 - 4.0 * max(fw.x, fw.y), 0.0, 1.0);\n"
    "    base = mix(base, base * 0.72, line * fade);\n"
    "    ks = 0.0;\n"
    "  }\n"
    "  if (u_texmode == 1) ks = 0.0;\n"
    "  if (u_nlight > 0) {\n"
    "    float spec = u_mat.w > 0.0 ? u_mat.x : 0.5, shin = 128.0 * (u_mat.w > 0.0 ? u_mat.y : 0.5);\n"
    "    if (ks == 0.0) spec = 0.0;\n"
    "    float nv = max(dot(n, v), 0.0);\n"
    "    vec3 c = base * (0.1 + 0.4 * nv) + vec3(0.5 * spec * pow(nv, max(shin, 1.0)));\n"
    "    for (int i = 0; i < u_nlight; i++) {\n"
    "      vec3 l; float att = 1.0;\n"
    "      if (u_lcut[i].z > 0.5) l = -u_ldir[i];\n"
    "      else {\n"
    "        l = normalize(u_lpos[i] - v_world);\n"
    "        float cs = dot(-l, u_ldir[i]);\n"
    "        att = u_lcut[i].x <= -0.999 ? 1.0 : cs >= u_lcut[i].x ? pow(max(cs, 1e-6), u_lcut[i].y) : 0.0;\n"
    "      }\n"
    "      float nl = max(dot(n, l), 0.0);\n"
    "      float sp = nl > 0.0 ? pow(max(dot(n, normalize(l + v)), 0.0), max(shin, 1.0)) : 0.0;\n"
    "      c += base * u_lamb[i] + att * (base * u_ldif[i] * nl + u_lspec[i] * spec * sp);\n"
    "    }\n"
    "    c = c * u_lnorm + base * (u_mat.z + u_emit);\n"
    "    o_color = vec4(min(c, vec3(1.0)), u_color.a);\n"
    "    return;\n"
    "  }\n"
    "  vec3 key = normalize(vec3(0.3, 0.5, 1.0));\n"
    "  float diff = 0.5 * max(dot(n, key), 0.0) + 0.22 * max(dot(n, v), 0.0);\n"
    "  float spec = ks * pow(max(dot(n, normalize(key + v)), 0.0), 30.0);\n"
    "  vec3 c = base * (0.3 + diff + u_emit + u_mat.z) + vec3(spec);\n"
    "  o_color = vec4(min(c, vec3(1.0)), u_color.a);\n"
    "}\n";

static const char *sky_vs =
    "#version 330 core\n"
    "out float v_t;\n"
    "out vec2 v_p;\n"
    "void main() {\n"
    "  vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);\n"
    "  v_t = 0.5 * (p.y + 1.0);\n"
    "  v_p = p;\n"
    "  gl_Position = vec4(p, 0.9999, 1.0);\n"
    "}\n";

/* The model's skybox by view direction (world z up, MuJoCo's "up" face), else a gradient */
static const char *sky_fs =
    "#version 330 core\n"
    "in float v_t;\n"
    "in vec2 v_p;\n"
    "uniform int u_mode, u_nface;\n"
    "uniform vec3 u_cf, u_cr, u_cu;\n"
    "uniform sampler2D u_tex;\n"
    "out vec4 o_color;\n"
    CUBE_GLSL
    "void main() {\n"
    "  if (u_mode == 1) {\n"
    "    vec3 d = normalize(u_cf + v_p.x * u_cr + v_p.y * u_cu);\n"
    "    o_color = vec4(cubetex(u_tex, vec3(d.x, d.z, -d.y), u_nface), 1.0);\n"
    "    return;\n"
    "  }\n"
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
    glfwWindowHint(GLFW_SAMPLES, hidden == 1 ? 0 : samples);
    cs_egl_release(); /* GLFW makes the new context current while it creates it */
    GLFWwindow *win = glfwCreateWindow(hidden == 1 ? 1 : w, hidden == 1 ? 1 : h,
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
    return cs_gl_setup(r, err, errlen);
}

cs_renderer *cs_gl_setup(cs_renderer *r, char *err, size_t errlen)
{
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
    r->u_texmode = glGetUniformLocation(p, "u_texmode");
    r->u_tex = glGetUniformLocation(p, "u_tex");
    r->u_uvscale = glGetUniformLocation(p, "u_uvscale");
    r->u_uvoff = glGetUniformLocation(p, "u_uvoff");
    r->u_size = glGetUniformLocation(p, "u_size");
    r->u_nface = glGetUniformLocation(p, "u_nface");
    r->u_mat = glGetUniformLocation(p, "u_mat");
    r->u_nlight = glGetUniformLocation(p, "u_nlight");
    r->u_lpos = glGetUniformLocation(p, "u_lpos");
    r->u_ldir = glGetUniformLocation(p, "u_ldir");
    r->u_lamb = glGetUniformLocation(p, "u_lamb");
    r->u_ldif = glGetUniformLocation(p, "u_ldif");
    r->u_lspec = glGetUniformLocation(p, "u_lspec");
    r->u_lcut = glGetUniformLocation(p, "u_lcut");
    r->u_lnorm = glGetUniformLocation(p, "u_lnorm");
    r->us_cf = glGetUniformLocation(r->prog_sky, "u_cf");
    r->us_cr = glGetUniformLocation(r->prog_sky, "u_cr");
    r->us_cu = glGetUniformLocation(r->prog_sky, "u_cu");
    r->us_tex = glGetUniformLocation(r->prog_sky, "u_tex");
    r->us_mode = glGetUniformLocation(r->prog_sky, "u_mode");
    r->us_nface = glGetUniformLocation(r->prog_sky, "u_nface");
    r->u2_viewport = glGetUniformLocation(r->prog_2d, "u_viewport");
    r->ub_viewproj = glGetUniformLocation(r->prog_batch, "u_viewproj");
    cs_gl_build_meshes(r);
    glGenVertexArrays(1, &r->vao_batch);
    glBindVertexArray(r->vao_batch);
    glGenBuffers(1, &r->vbo_batch);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_batch);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                          (void *)(3 * sizeof(float)));
    /* textured meshes: position, normal, texture coordinate, rewritten per draw */
    glGenVertexArrays(1, &r->vao_uv);
    glBindVertexArray(r->vao_uv);
    glGenBuffers(1, &r->vbo_uv);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_uv);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 8 * sizeof(float),
                          (void *)(3 * sizeof(float)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 8 * sizeof(float),
                          (void *)(6 * sizeof(float)));
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

/* A GLX context (GLFW's) and an EGL one current in the same thread at once is an X error
 * in Mesa: the other kind is released first. */
static void release_glfw(void)
{
    if (glfw_ready && glfwGetCurrentContext())
        glfwMakeContextCurrent(NULL);
}

void cs_gl_free_plain(cs_renderer *r)
{
    if (!r->fbo_plain)
        return;
    glDeleteFramebuffers(1, &r->fbo_plain);
    GLuint rbs[2] = {r->rb_plain_color, r->rb_plain_depth};
    glDeleteRenderbuffers(2, rbs);
    r->fbo_plain = 0;
}

void cs_gl_make_current(cs_renderer *r)
{
    if (r->egl) {
        release_glfw();
        cs_egl_make_current(r->egl);
    } else {
        cs_egl_release();
        glfwMakeContextCurrent(r->window);
    }
}

void cs_renderer_destroy(cs_renderer *r)
{
    if (!r)
        return;
    cs_gl_make_current(r);
    for (int i = 0; i < MESH_COUNT; i++) {
        glDeleteBuffers(1, &r->mesh[i].vbo);
        glDeleteBuffers(1, &r->mesh[i].ibo);
        glDeleteVertexArrays(1, &r->mesh[i].vao);
    }
    glDeleteVertexArrays(1, &r->vao_empty);
    glDeleteVertexArrays(1, &r->vao_batch);
    glDeleteBuffers(1, &r->vbo_batch);
    glDeleteVertexArrays(1, &r->vao_uv);
    glDeleteBuffers(1, &r->vbo_uv);
    free(r->uvbuf);
    for (int i = 0; i < TPL_COUNT; i++)
        free(r->tpl[i].v);
    for (int i = 0; i < r->ntexcache; i++)
        glDeleteTextures(1, &r->texcache[i].id);
    free(r->batch);
    glDeleteVertexArrays(1, &r->vao_2d);
    glDeleteBuffers(1, &r->vbo_2d);
    if (r->fbo) {
        glDeleteFramebuffers(1, &r->fbo);
        glDeleteFramebuffers(1, &r->fbo_ms);
        GLuint rbs[3] = {r->rb_color, r->rb_ms_color, r->rb_ms_depth};
        glDeleteRenderbuffers(3, rbs);
    }
    cs_gl_free_plain(r);
    if (r->prog_mesh)
        glDeleteProgram(r->prog_mesh);
    if (r->prog_sky)
        glDeleteProgram(r->prog_sky);
    if (r->prog_2d)
        glDeleteProgram(r->prog_2d);
    if (r->prog_batch)
        glDeleteProgram(r->prog_batch);
    free(r->buf_2d);
    if (r->egl)
        cs_egl_destroy(r->egl);
    else
        glfwDestroyWindow(r->window);
    free(r);
}

const char *cs_renderer_gl_name(const cs_renderer *r)
{
    return r->gl_name;
}

/* CONESIM_GL=egl: EGL only; =glfw: the hidden GLFW window only; unset: EGL, then GLFW. */
cs_renderer *cs_renderer_create_headless(int samples, char *err, size_t errlen)
{
    const char *want = getenv("CONESIM_GL");
    int egl_ok = !want || !*want || strcmp(want, "egl") == 0;
    int glfw_ok = !want || !*want || strcmp(want, "glfw") == 0;
    if (!egl_ok && !glfw_ok) {
        snprintf(err, errlen, "CONESIM_GL=%s: expected egl or glfw", want);
        return NULL;
    }
    char egl_err[256] = "";
    if (egl_ok) {
        release_glfw();
        struct cs_egl *e = cs_egl_create(egl_err, sizeof egl_err);
        if (e) {
            cs_renderer *r = calloc(1, sizeof *r);
            if (!r) {
                cs_egl_destroy(e);
                snprintf(err, errlen, "out of memory");
                return NULL;
            }
            r->egl = e;
            r->hidden = 1;
            r->want_samples = samples;
            return cs_gl_setup(r, err, errlen);
        }
        if (!glfw_ok) {
            snprintf(err, errlen, "%s", egl_err);
            return NULL;
        }
    }
    char glfw_err[512] = "";
    cs_renderer *r = cs_gl_create(1, 1, "conesim", 1, samples, glfw_err, sizeof glfw_err);
    if (!r) {
        if (egl_ok)
            snprintf(err, errlen, "%s; %s", egl_err, glfw_err);
        else
            snprintf(err, errlen, "%s", glfw_err);
    }
    return r;
}

const char *cs_renderer_backend(const cs_renderer *r)
{
    return r->egl ? "egl" : "glfw";
}
