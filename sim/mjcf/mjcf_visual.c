/* The visual elements of MJCF: <texture> and <material> assets, each geom's material,
 * <light> and <camera> in bodies. No physics reads them; viewers draw with them. Read as
 * MuJoCo's compiler reads them (defaults, builtin textures, texture files, the geom rgba
 * that overrides a material's, the tracking modes' reference poses at qpos0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "alloc.h"
#include "mjcf_ir.h"
#include "mjcf_read.h"
#include "pngread.h"

typedef struct {
    char *name, *file;
    int line, type, builtin, mark, width, height, hflip, vflip;
    int gridsize[2];
    char *gridlayout;
    double rgb1[3], rgb2[3], markrgb[3], random;
    int w, h;               /* compiled size */
    int *texel;             /* compiled: w x h texels, 0xRRGGBB */
} texir;

typedef struct {
    char *name, *texture;
    int line, texid, texuniform;
    double texrepeat[2], rgba[4], emission, specular, shininess, reflectance;
} matir;

/* a light or a camera in a body */
typedef struct {
    char *name, *target;
    int line, body, mode, targetbody;
    int directional, castshadow, active;
    double pos[3], dir[3], quat[4], fovy;
    int res[2];              /* a camera's image size in pixels */
    int projection;          /* a camera's: 0 perspective, 1 orthographic */
    float sensorsize[2], intrinsic[4]; /* its sensor (length units) and focal lengths and
                                          principal point there (MuJoCo keeps them in float) */
    double ambient[3], diffuse[3], specular[3], attenuation[3], cutoff, exponent;
} objir;

struct cs_mjcf_visual {
    texir *tex;
    int ntex, captex;
    matir *mat;
    int nmat, capmat;
    objir *light;
    int nlight, caplight;
    objir *cam;
    int ncam, capcam;
};

#define FAILV(c, n, attr, ...) cs_mjcf_fail((c), cs_mjcf_line(n), (const char *)(n)->name, (attr), __VA_ARGS__)

static struct cs_mjcf_visual *vis(cs_mjcf *c)
{
    if (!c->vis) c->vis = cs_mjcf_alloc(c, sizeof *c->vis);
    return c->vis;
}

static const char *const TEXTYPE[] = {"2d", "cube", "skybox", NULL};
static const char *const BUILTIN[] = {"none", "gradient", "checker", "flat", NULL};
static const char *const MARK[] = {"none", "edge", "cross", "random", NULL};
static const char *const BOOLW[] = {"false", "true", NULL};
static const char *const MODES[] = {"fixed", "track", "trackcom", "targetbody", "targetbodycom",
                                    NULL};

static void rgb_attr(cs_mjcf *c, xmlNode *n, const char *name, double *v, int k)
{
    double t[4];
    if (!cs_mjcf_nums(c, n, name, t, k, k)) return;
    for (int i = 0; i < k; i++)
        if (t[i] < 0 || t[i] > 1) FAILV(c, n, name, "each value must be between 0 and 1");
    memcpy(v, t, (size_t)k * sizeof *v);
}

static void parse_texture(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"name", "type", "builtin", "rgb1", "rgb2", "mark",
        "markrgb", "random", "width", "height", "file", "gridsize", "gridlayout", "hflip",
        "vflip", NULL}, (const char *const[]){"content_type", "colorspace", "nchannel",
        "fileright", "fileleft", "fileup", "filedown", "filefront", "fileback", NULL});
    texir T = {0};
    T.line = cs_mjcf_line(n);
    T.type = 1; /* MuJoCo's default: cube */
    T.rgb1[0] = T.rgb1[1] = T.rgb1[2] = 0.8;
    T.rgb2[0] = T.rgb2[1] = T.rgb2[2] = 0.5;
    T.random = 0.01;
    T.gridsize[0] = T.gridsize[1] = 1;
    int k = cs_mjcf_keyword(c, n, "type", TEXTYPE);
    if (k >= 0) T.type = k;
    k = cs_mjcf_keyword(c, n, "builtin", BUILTIN);
    if (k >= 0) T.builtin = k;
    k = cs_mjcf_keyword(c, n, "mark", MARK);
    if (k >= 0) T.mark = k;
    rgb_attr(c, n, "rgb1", T.rgb1, 3);
    rgb_attr(c, n, "rgb2", T.rgb2, 3);
    rgb_attr(c, n, "markrgb", T.markrgb, 3);
    double v[2];
    if (cs_mjcf_nums(c, n, "random", v, 1, 1)) T.random = v[0];
    cs_mjcf_ints(c, n, "width", &T.width, 1, 1);
    cs_mjcf_ints(c, n, "height", &T.height, 1, 1);
    if (cs_mjcf_ints(c, n, "gridsize", T.gridsize, 2, 2) &&
        (T.gridsize[0] < 1 || T.gridsize[1] < 1 || T.gridsize[0] > 12 || T.gridsize[1] > 12))
        FAILV(c, n, "gridsize", "each of the two counts must be 1 to 12");
    T.gridlayout = cs_mjcf_attr(c, n, "gridlayout");
    k = cs_mjcf_keyword(c, n, "hflip", BOOLW);
    if (k >= 0) T.hflip = k;
    k = cs_mjcf_keyword(c, n, "vflip", BOOLW);
    if (k >= 0) T.vflip = k;
    T.file = cs_mjcf_attr(c, n, "file");
    T.name = cs_mjcf_attr(c, n, "name");
    for (const char *const *a = (const char *const[]){"fileright", "fileleft", "fileup",
             "filedown", "filefront", "fileback", NULL}; *a; a++)
        if (!T.file && T.builtin == 0 && cs_mjcf_attr(c, n, *a))
            FAILV(c, n, *a, "cube textures from separate files are not supported (give one "
                            "file with gridsize and gridlayout)");
    if (!T.name && T.file) {
        /* MuJoCo: the file name without path and extension */
        const char *b = strrchr(T.file, '/');
        T.name = cs_mjcf_strdup(c, b ? b + 1 : T.file);
        char *dot = strrchr(T.name, '.');
        if (dot && dot != T.name) *dot = 0;
    }
    if (T.builtin == 0 && !T.file)
        FAILV(c, n, NULL, "a texture needs builtin or file");
    if (T.builtin && (T.width < 1 || (T.type == 0 && T.height < 1) || T.width > 16384 ||
                      T.height > 16384))
        FAILV(c, n, T.width < 1 ? "width" : "height",
              "a builtin texture needs width%s from 1 to 16384", T.type == 0 ? " and height" : "");
    struct cs_mjcf_visual *V = vis(c);
    for (int i = 0; T.name && i < V->ntex; i++)
        if (V->tex[i].name && strcmp(V->tex[i].name, T.name) == 0)
            FAILV(c, n, "name", "duplicate texture name '%s'", T.name);
    cs_mjcf_grow(c, (void **)&V->tex, &V->captex, V->ntex, sizeof *V->tex);
    V->tex[V->ntex++] = T;
}

static void parse_material(cs_mjcf *c, xmlNode *n)
{
    cs_mjcf_check(c, n, (const char *const[]){"name", "texture", "texrepeat", "texuniform",
        "rgba", "emission", "specular", "shininess", "reflectance", NULL},
        (const char *const[]){"class", "metallic", "roughness", NULL});
    matir M = {0};
    M.line = cs_mjcf_line(n);
    M.name = cs_mjcf_attr(c, n, "name");
    if (!M.name) FAILV(c, n, "name", "a material needs a name");
    M.texture = cs_mjcf_attr(c, n, "texture");
    M.texrepeat[0] = M.texrepeat[1] = 1;
    M.rgba[0] = M.rgba[1] = M.rgba[2] = M.rgba[3] = 1;
    M.specular = M.shininess = 0.5;
    cs_mjcf_nums(c, n, "texrepeat", M.texrepeat, 2, 2);
    int k = cs_mjcf_keyword(c, n, "texuniform", BOOLW);
    if (k >= 0) M.texuniform = k;
    rgb_attr(c, n, "rgba", M.rgba, 4);
    double v;
    if (cs_mjcf_nums(c, n, "emission", &v, 1, 1)) M.emission = v;
    if (cs_mjcf_nums(c, n, "specular", &v, 1, 1)) M.specular = v;
    if (cs_mjcf_nums(c, n, "shininess", &v, 1, 1)) M.shininess = v;
    if (cs_mjcf_nums(c, n, "reflectance", &v, 1, 1)) M.reflectance = v;
    struct cs_mjcf_visual *V = vis(c);
    for (int i = 0; i < V->nmat; i++)
        if (strcmp(V->mat[i].name, M.name) == 0)
            FAILV(c, n, "name", "duplicate material name '%s'", M.name);
    cs_mjcf_grow(c, (void **)&V->mat, &V->capmat, V->nmat, sizeof *V->mat);
    V->mat[V->nmat++] = M;
}

int cs_mjcf_visual_asset(cs_mjcf *c, xmlNode *n)
{
    const char *en = (const char *)n->name;
    if (strcmp(en, "texture") == 0) parse_texture(c, n);
    else if (strcmp(en, "material") == 0) parse_material(c, n);
    else return 0;
    return 1;
}

/* pos, quat: the enclosing frames' pose in the body */
static void rot3(const double q[4], const double v[3], double out[3])
{
    double R[9];
    cs_quat2mat(R, q);
    for (int i = 0; i < 3; i++) out[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

int cs_mjcf_find_camera(const cs_mjcf *c, const char *name)
{
    for (int i = 0; c->vis && name && i < c->vis->ncam; i++)
        if (c->vis->cam[i].name && strcmp(c->vis->cam[i].name, name) == 0) return i;
    return -1;
}

int cs_mjcf_camera_pixels(const cs_mjcf *c, int id)
{
    return c->vis->cam[id].res[0] * c->vis->cam[id].res[1];
}

void cs_mjcf_visual_reframe(cs_mjcf *c, int body, const double fp[3], const double fq[4])
{
    if (!c->vis) return;
    for (int pass = 0; pass < 2; pass++) {
        objir *o = pass ? c->vis->cam : c->vis->light;
        int n = pass ? c->vis->ncam : c->vis->nlight;
        for (int i = 0; i < n; i++) {
            if (o[i].body != body) continue;
            double r[3], q[4];
            rot3(fq, o[i].pos, r);
            for (int k = 0; k < 3; k++) o[i].pos[k] = fp[k] + r[k];
            if (pass) {
                cs_mulquat(q, fq, o[i].quat);
                cs_normquat(q);
                memcpy(o[i].quat, q, sizeof q);
            } else {
                rot3(fq, o[i].dir, r);
                memcpy(o[i].dir, r, sizeof r);
            }
        }
    }
}

/* MuJoCo's camera intrinsics: the image's resolution; with a sensor size, the focal lengths
 * and principal point from lengths or pixels (pixels winning), and fovy from them; all in
 * float as MuJoCo keeps them */
static void camera_intrinsics(cs_mjcf *c, xmlNode *n, objir *O)
{
    O->res[0] = O->res[1] = 1;
    cs_mjcf_ints(c, n, "resolution", O->res, 2, 2);
    double ss[2] = {0, 0}, fl[2] = {0, 0}, fp[2] = {0, 0}, pl[2] = {0, 0}, pp[2] = {0, 0};
    cs_mjcf_nums(c, n, "sensorsize", ss, 2, 2);
    cs_mjcf_nums(c, n, "focal", fl, 2, 2);
    cs_mjcf_nums(c, n, "focalpixel", fp, 2, 2);
    cs_mjcf_nums(c, n, "principal", pl, 2, 2);
    cs_mjcf_nums(c, n, "principalpixel", pp, 2, 2);
    float s[2] = {(float)ss[0], (float)ss[1]};
    int has_intrinsic = fl[0] || fl[1] || fp[0] || fp[1] || pl[0] || pl[1] || pp[0] || pp[1];
    int has_size = s[0] > 0 && s[1] > 0;
    if (has_intrinsic && !has_size)
        FAILV(c, n, "sensorsize", "focal/principal require sensorsize");
    if (has_size && (O->res[0] <= 0 || O->res[1] <= 0))
        FAILV(c, n, "resolution", "sensorsize requires a positive resolution");
    memcpy(O->sensorsize, s, sizeof s);
    if (has_size) {
        float density[2] = {(float)O->res[0] / s[0], (float)O->res[1] / s[1]};
        O->intrinsic[0] = fp[0] ? (float)fp[0] / density[0] : (float)fl[0];
        O->intrinsic[1] = fp[1] ? (float)fp[1] / density[1] : (float)fl[1];
        O->intrinsic[2] = pp[0] ? (float)pp[0] / density[0] : (float)pl[0];
        O->intrinsic[3] = pp[1] ? (float)pp[1] / density[1] : (float)pl[1];
        O->fovy = atan2f(s[1] / 2, O->intrinsic[1]) * 360.0 / 3.14159265358979323846;
    } else {
        O->intrinsic[0] = O->intrinsic[1] = 0.01f; /* MuJoCo's znear, unused without a sensor */
    }
}

static const char *const CAMERA_ATTRS[] = {"name", "class", "mode", "target", "pos", "quat",
    "axisangle", "euler", "xyaxes", "zaxis", "fovy", "resolution", "focal", "focalpixel",
    "principal", "principalpixel", "sensorsize", "projection", NULL};
static const char *const CAMERA_IGNORED[] = {"ipd", "orthographic", "user", "output", NULL};
static const char *const LIGHT_ATTRS[] = {"name", "class", "mode", "target", "directional",
    "type", "castshadow", "active", "pos", "dir", "attenuation", "cutoff", "exponent",
    "ambient", "diffuse", "specular", NULL};
static const char *const LIGHT_IGNORED[] = {"bulbradius", "intensity", "range", "texture",
    "softness", NULL};
static const char *const ORIENTATION[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis",
                                          "dir", NULL};

static int has_any(xmlNode *n, const char *const *names)
{
    for (; *names; names++)
        if (cs_mjcf_prop(n, *names)) return 1;
    return 0;
}

/* dst takes the attributes of src it does not give itself (an orientation only when it
 * gives none, in any form) */
static void merge_attrs(cs_mjcf *c, xmlNode *dst, xmlNode *src)
{
    int oriented = has_any(dst, ORIENTATION);
    for (xmlAttr *a = src->properties; a; a = a->next) {
        const char *name = (const char *)a->name, *v = cs_mjcf_prop(src, name);
        if (!v || cs_mjcf_prop(dst, name) || (oriented && cs_mjcf_in_list(name, ORIENTATION)))
            continue;
        cs_mjcf_set_prop(c, dst, name, v);
    }
}

void cs_mjcf_visual_default(cs_mjcf *c, xmlNode *n, int cls)
{
    int light = strcmp((const char *)n->name, "light") == 0;
    if (cs_mjcf_prop(n, "name") || cs_mjcf_prop(n, "class"))
        FAILV(c, n, cs_mjcf_prop(n, "name") ? "name" : "class", "not allowed in a default class");
    cs_mjcf_check(c, n, (light ? LIGHT_ATTRS : CAMERA_ATTRS) + 2,
                  light ? LIGHT_IGNORED : CAMERA_IGNORED);
    for (xmlAttr *a = n->properties; a; a = a->next) /* read here: the elements take them */
        if (cs_mjcf_in_list((const char *)a->name, (light ? LIGHT_ATTRS : CAMERA_ATTRS) + 2))
            cs_mjcf_attr(c, n, (const char *)a->name);
    xmlNode **slot = light ? &c->cls[cls].light : &c->cls[cls].camera;
    if (*slot) merge_attrs(c, n, *slot); /* the parent class's, which this one refines */
    *slot = n;
}

int cs_mjcf_visual_item(cs_mjcf *c, xmlNode *n, int body, int cls, const double fpos[3],
                        const double fquat[4])
{
    const char *en = (const char *)n->name;
    int light = strcmp(en, "light") == 0;
    if (!light && strcmp(en, "camera") != 0) return 0;
    const cs_dclass *D = &c->cls[cs_mjcf_class_of(c, n, cls)];
    xmlNode *def = light ? D->light : D->camera;
    if (def) merge_attrs(c, n, def);
    objir O = {0};
    O.line = cs_mjcf_line(n);
    O.body = body;
    O.quat[0] = 1;
    O.dir[2] = -1;
    O.fovy = 45;
    O.castshadow = O.active = 1;
    O.attenuation[0] = 1;
    O.cutoff = 45;
    O.exponent = 10;
    for (int i = 0; i < 3; i++) {
        O.diffuse[i] = 0.7;
        O.specular[i] = 0.3;
    }
    if (light) {
        cs_mjcf_check(c, n, LIGHT_ATTRS, LIGHT_IGNORED);
        cs_mjcf_nums(c, n, "pos", O.pos, 3, 3);
        if (cs_mjcf_nums(c, n, "dir", O.dir, 3, 3)) {
            double l = sqrt(O.dir[0] * O.dir[0] + O.dir[1] * O.dir[1] + O.dir[2] * O.dir[2]);
            if (l < 1e-15) FAILV(c, n, "dir", "zero direction");
            for (int i = 0; i < 3; i++) O.dir[i] /= l;
        }
        int k = cs_mjcf_keyword(c, n, "directional", BOOLW);
        if (k >= 0) O.directional = k;
        static const char *const LTYPE[] = {"spot", "directional", "point", "image", NULL};
        k = cs_mjcf_keyword(c, n, "type", LTYPE);
        int image = k == 3;
        if (image) { /* MuJoCo's own renderer draws spot and directional lights only */
            cs_mjcf_note_ignored(c, "light/@type image (image-based lighting: the light is not "
                                    "drawn)");
            O.active = 0;
        }
        if (k >= 0) O.directional = k == 1;
        if (k == 2) O.cutoff = 180; /* a point light: a spot that lights every way */
        k = cs_mjcf_keyword(c, n, "castshadow", BOOLW);
        if (k >= 0) {
            O.castshadow = k;
            cs_mjcf_note_ignored(c, "light/@castshadow (planar shadows from the key light)");
        }
        k = cs_mjcf_keyword(c, n, "active", BOOLW);
        if (k >= 0 && !image) O.active = k;
        cs_mjcf_nums(c, n, "attenuation", O.attenuation, 3, 3);
        cs_mjcf_nums(c, n, "cutoff", &O.cutoff, 1, 1);
        cs_mjcf_nums(c, n, "exponent", &O.exponent, 1, 1);
        cs_mjcf_nums(c, n, "ambient", O.ambient, 3, 3);
        cs_mjcf_nums(c, n, "diffuse", O.diffuse, 3, 3);
        cs_mjcf_nums(c, n, "specular", O.specular, 3, 3);
    } else {
        cs_mjcf_check(c, n, CAMERA_ATTRS, CAMERA_IGNORED);
        cs_mjcf_frame(c, n, O.pos, O.quat);
        static const char *const PROJ[] = {"perspective", "orthographic", NULL};
        int pk = cs_mjcf_keyword(c, n, "projection", PROJ);
        if (pk >= 0) O.projection = pk;
        /* orthographic: fovy is the view's height in length units */
        if (cs_mjcf_nums(c, n, "fovy", &O.fovy, 1, 1) &&
            !(O.fovy > 0 && (O.projection == 1 || O.fovy < 180)))
            FAILV(c, n, "fovy", O.projection == 1 ? "must be positive (a length)"
                                                  : "must be between 0 and 180 degrees");
        camera_intrinsics(c, n, &O);
    }
    O.name = cs_mjcf_attr(c, n, "name");
    int k = cs_mjcf_keyword(c, n, "mode", MODES);
    if (k >= 0) O.mode = k;
    O.target = cs_mjcf_attr(c, n, "target");
    /* a targeting mode without a target stays where its body puts it, as in MuJoCo */
    /* the enclosing frames */
    double R[9], p[3], q[4];
    cs_quat2mat(R, fquat);
    for (int i = 0; i < 3; i++)
        p[i] = fpos[i] + R[3 * i] * O.pos[0] + R[3 * i + 1] * O.pos[1] + R[3 * i + 2] * O.pos[2];
    memcpy(O.pos, p, sizeof p);
    for (int i = 0; i < 3; i++)
        p[i] = R[3 * i] * O.dir[0] + R[3 * i + 1] * O.dir[1] + R[3 * i + 2] * O.dir[2];
    memcpy(O.dir, p, sizeof p);
    cs_mulquat(q, fquat, O.quat);
    cs_normquat(q);
    memcpy(O.quat, q, sizeof q);
    struct cs_mjcf_visual *V = vis(c);
    objir **arr = light ? &V->light : &V->cam;
    int *cnt = light ? &V->nlight : &V->ncam, *cap = light ? &V->caplight : &V->capcam;
    for (int i = 0; O.name && i < *cnt; i++)
        if ((*arr)[i].name && strcmp((*arr)[i].name, O.name) == 0)
            FAILV(c, n, "name", "duplicate %s name '%s'", en, O.name);
    cs_mjcf_grow(c, (void **)arr, cap, *cnt, sizeof **arr);
    (*arr)[(*cnt)++] = O;
    return 1;
}

/* ---- textures ------------------------------------------------------------------------- */

static int pack(const double *rgb)
{
    int v = 0;
    for (int j = 0; j < 3; j++) v = v << 8 | (int)(255 * rgb[j]);
    return v;
}

/* MuJoCo's gradient: a sigmoid of pos in (-1, 1) from rgb2 (pos -1) to rgb1 */
static int interp(const double *rgb1, const double *rgb2, double pos)
{
    double a = 0.5 * (1 + pos / sqrt(1 + pos * pos) * sqrt(2.0));
    a = a < 0 ? 0 : a > 1 ? 1 : a;
    double c[3];
    for (int j = 0; j < 3; j++) c[j] = a * rgb1[j] + (1 - a) * rgb2[j];
    return pack(c);
}

/* 2x2 blocks: rgb1 top left and bottom right */
static void checker(int *t, int a, int b, int w, int h)
{
    for (int r = 0; r < h; r++)
        for (int col = 0; col < w; col++) t[r * w + col] = ((r < h / 2) == (col < w / 2)) ? a : b;
}

static void marks(texir *T, int *t, int w, int h)
{
    int m = pack(T->markrgb);
    if (T->mark == 1) {
        for (int r = 0; r < h; r++) t[r * w] = t[r * w + w - 1] = m;
        for (int col = 0; col < w; col++) t[col] = t[(h - 1) * w + col] = m;
    } else if (T->mark == 2) {
        for (int r = 0; r < h; r++) t[r * w + w / 2] = m;
        for (int col = 0; col < w; col++) t[h / 2 * w + col] = m;
    } else if (T->mark == 3 && T->random > 0) {
        unsigned long s = 42; /* a fixed seed: the same dots every load */
        for (int k = 0; k < w * h; k++) {
            s = s * 6364136223846793005UL + 1442695040888963407UL;
            if ((double)(s >> 11) / 9007199254740992.0 < T->random) t[k] = m;
        }
    }
}

static void builtin(texir *T)
{
    int a = pack(T->rgb1), b = pack(T->rgb2);
    if (T->type == 0) {
        int w = T->w, h = T->h, *t = T->texel;
        for (int r = 0; r < h; r++)
            for (int col = 0; col < w; col++) {
                double x = w > 1 ? 2.0 * col / (w - 1) - 1 : 0;
                double y = h > 1 ? 1 - 2.0 * r / (h - 1) : 0;
                t[r * w + col] = T->builtin == 1 ? interp(T->rgb2, T->rgb1, 2 * sqrt(x * x + y * y) - 1)
                                 : T->builtin == 2 ? 0 : a;
            }
        if (T->builtin == 2) checker(t, a, b, w, h);
        marks(T, t, w, h);
        return;
    }
    int w = T->w, ww = w * w;
    for (int f = 0; f < 6; f++) {
        int *t = T->texel + f * ww;
        if (T->builtin == 2) {
            checker(t, f < 4 ? a : b, f < 4 ? b : a, w, w);
        } else {
            for (int r = 0; r < w; r++)
                for (int col = 0; col < w; col++) {
                    double x = w > 1 ? 2.0 * col / (w - 1) - 1 : 0;
                    double y = w > 1 ? 1 - 2.0 * r / (w - 1) : 0;
                    int v;
                    if (T->builtin == 3) {
                        v = f == 3 ? b : a;
                    } else if (f == 2 || f == 3) {
                        double up = 1 - acos(1 / sqrt(1 + x * x + y * y)) / (0.5 * 3.14159265358979323846);
                        v = interp(T->rgb1, T->rgb2, f == 2 ? up : -up);
                    } else {
                        v = interp(T->rgb1, T->rgb2, asin(y / sqrt(1 + x * x + y * y)) / (0.5 * 3.14159265358979323846));
                    }
                    t[r * w + col] = v;
                }
        }
        marks(T, t, w, w);
    }
}

/* MuJoCo's rule for asset files (as meshes): an absolute name as is; else an absolute
 * texturedir (or assetdir) with the name; else the model's directory, the dir, the name */
static char *resolve_path(cs_mjcf *c, const char *file)
{
    const char *dir = c->texturedir ? c->texturedir : c->assetdir;
    size_t n = strlen(file) + (dir ? strlen(dir) : 0) + strlen(c->file) + 4;
    char *p = cs_mjcf_alloc(c, n);
    if (file[0] == '/') {
        snprintf(p, n, "%s", file);
    } else if (dir && dir[0] == '/') {
        size_t l = strlen(dir);
        snprintf(p, n, "%s%s%s", dir, l && dir[l - 1] == '/' ? "" : "/", file);
    } else {
        const char *slash = strrchr(c->file, '/');
        int base = slash ? (int)(slash - c->file + 1) : 0;
        size_t l = dir ? strlen(dir) : 0;
        snprintf(p, n, "%.*s%s%s%s", base, c->file, dir ? dir : "",
                 l && dir[l - 1] != '/' ? "/" : "", file);
    }
    return p;
}

/* a KTX file (MuJoCo's image-based lighting and compressed textures): read by MuJoCo's
 * renderer only; here it must exist, and the texture is drawn as its rgb1 colour */
static int ktx_file(cs_mjcf *c, texir *T, const char *path)
{
    size_t n = strlen(path);
    if (n < 4 || strcasecmp(path + n - 4, ".ktx") != 0) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) cs_mjcf_fail(c, T->line, "texture", "file", "'%s': cannot open", path);
    fclose(f);
    cs_mjcf_note_ignored(c, "texture/@file in KTX format (the texture is drawn as its rgb1)");
    T->w = 1;
    T->h = T->type == 0 ? 1 : 6;
    T->texel = cs_mjcf_alloc(c, (size_t)T->h * sizeof *T->texel);
    for (int k = 0; k < T->h; k++) T->texel[k] = pack(T->rgb1);
    return 1;
}

static void load_file(cs_mjcf *c, texir *T)
{
    char *path = resolve_path(c, T->file), err[160];
    if (ktx_file(c, T, path)) return;
    int w, h;
    if (cs_png_size(path, &w, &h, err, sizeof err) != 0)
        cs_mjcf_fail(c, T->line, "texture", "file", "'%s': %s", path, err);
    if ((long)w * h > 100000000L)
        cs_mjcf_fail(c, T->line, "texture", "file", "'%s': %dx%d: texture too large", path, w, h);
    int gr = T->gridsize[0], gc = T->gridsize[1];
    int grid = T->type != 0 && (gr != 1 || gc != 1);
    if (T->type != 0 && (gr < 1 || gc < 1 || gr * gc > 12 || w / gc != h / gr || w % gc ||
                         h % gr))
        cs_mjcf_fail(c, T->line, "texture", "gridsize", "%dx%d image: gridsize %d %d must "
                     "divide it into at most 12 equal squares", w, h, gr, gc);
    if (grid && (!T->gridlayout || (int)strlen(T->gridlayout) != gr * gc))
        cs_mjcf_fail(c, T->line, "texture", "gridlayout", "expects %d characters from .RLUDFB",
                     gr * gc);
    for (int k = 0; grid && k < gr * gc; k++)
        if (!strchr(".RLUDFB", T->gridlayout[k]) || !T->gridlayout[k])
            cs_mjcf_fail(c, T->line, "texture", "gridlayout", "'%c' is not one of .RLUDFB",
                         T->gridlayout[k]);
    int fw = grid ? w / gc : w;
    T->w = fw;
    T->h = grid ? 6 * fw : (T->type == 0 ? h : fw);
    /* the texels first: nothing below jumps out while the decoded image is held */
    int *t = T->texel = cs_mjcf_alloc(c, (size_t)T->w * T->h * sizeof *T->texel);
    unsigned char *rgb;
    int w2, h2;
    if (cs_png_decode(path, &w2, &h2, &rgb, err, sizeof err) != 0 || w2 != w || h2 != h) {
        if (strcmp(err, "out of memory") == 0) cs_mjcf_nomem(c);
        cs_mjcf_fail(c, T->line, "texture", "file", "'%s': %s", path, err);
    }
    if (!grid) {
        for (int r = 0; r < T->h; r++)
            for (int col = 0; col < T->w; col++) {
                int sr = T->vflip ? T->h - 1 - r : r, sc = T->hflip ? T->w - 1 - col : col;
                const unsigned char *p = rgb + 3 * ((size_t)sr * w + sc);
                t[r * T->w + col] = p[0] << 16 | p[1] << 8 | p[2];
            }
    } else {
        int fill = pack(T->rgb1);
        for (int k = 0; k < T->w * T->h; k++) t[k] = fill;
        for (int k = 0; k < gr * gc; k++) {
            if (T->gridlayout[k] == '.') continue;
            int face = (int)(strchr("RLUDFB", T->gridlayout[k]) - "RLUDFB");
            int r0 = fw * (k / gc), c0 = fw * (k % gc);
            for (int r = 0; r < fw; r++)
                for (int col = 0; col < fw; col++) {
                    const unsigned char *p = rgb + 3 * ((size_t)(r0 + r) * w + c0 + col);
                    t[face * fw * fw + r * fw + col] = p[0] << 16 | p[1] << 8 | p[2];
                }
        }
    }
    free(rgb);
}

void cs_mjcf_visual_resolve(cs_mjcf *c)
{
    struct cs_mjcf_visual *V = vis(c);
    long ntexdata = 0;
    for (int i = 0; i < V->ntex; i++) {
        texir *T = &V->tex[i];
        if (T->builtin) {
            T->w = T->width;
            T->h = T->type == 0 ? T->height : 6 * T->width;
            if ((long)T->w * T->h > 100000000L)
                cs_mjcf_fail(c, T->line, "texture", "width", "texture too large");
            if (!(c->flags & CS_LOAD_NO_TEXELS)) { /* else the model's zeros */
                T->texel = cs_mjcf_alloc(c, (size_t)T->w * T->h * sizeof *T->texel);
                builtin(T);
            }
        } else {
            load_file(c, T);
        }
        ntexdata += (long)T->w * T->h;
        if (ntexdata > 1000000000L) cs_mjcf_fail(c, T->line, "texture", NULL, "textures too large");
    }
    for (int i = 0; i < V->nmat; i++) {
        matir *M = &V->mat[i];
        M->texid = -1;
        if (!M->texture) continue;
        for (int k = 0; k < V->ntex; k++)
            if (V->tex[k].name && strcmp(V->tex[k].name, M->texture) == 0) M->texid = k;
        if (M->texid < 0)
            cs_mjcf_fail(c, M->line, "material", "texture", "unknown texture '%s'", M->texture);
    }
    for (int i = 0; i < c->ngeom; i++) {
        const char *mat = c->geom[i].s.material;
        if (!mat) continue;
        int found = 0;
        for (int k = 0; k < V->nmat; k++) found |= strcmp(V->mat[k].name, mat) == 0;
        if (!found)
            cs_mjcf_fail(c, c->geom[i].line, "geom", "material", "unknown material '%s'", mat);
    }
    for (int pass = 0; pass < 2; pass++) {
        objir *arr = pass ? V->cam : V->light;
        int n = pass ? V->ncam : V->nlight;
        for (int i = 0; i < n; i++) {
            objir *O = &arr[i];
            O->targetbody = -1;
            if (!O->target) continue;
            O->targetbody = cs_mjcf_find_body(c, O->target);
            if (O->targetbody < 0)
                cs_mjcf_fail(c, O->line, pass ? "camera" : "light", "target",
                             "unknown body '%s'", O->target);
        }
    }
}

void cs_mjcf_visual_sizes(const cs_mjcf *c, cs_model *m)
{
    const struct cs_mjcf_visual *V = c->vis;
    long ntexdata = 0;
    for (int i = 0; i < V->ntex; i++) ntexdata += (long)V->tex[i].w * V->tex[i].h;
    m->ntex = V->ntex;
    m->ntexdata = (int)ntexdata;
    m->nmat = V->nmat;
    m->nlight = V->nlight;
    m->ncam = V->ncam;
}

static char *dup(const char *s, int *oom)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = cs_malloc(n);
    if (d) memcpy(d, s, n);
    else *oom = 1;
    return d;
}

/* world poses of every body at qpos0 (the model's tree as written) and subtree centres of
 * mass there; MuJoCo keeps the tracking modes' offsets from these */
static int pose0(const cs_model *m, double *xpos, double *xmat, double *com)
{
    int nb = m->nbody;
    double *xquat = cs_malloc((size_t)nb * 4 * sizeof *xquat), *mass = cs_calloc((size_t)nb, sizeof *mass);
    if (!xquat || !mass) {
        cs_free(xquat);
        cs_free(mass);
        return -1;
    }
    xquat[0] = 1;
    xquat[1] = xquat[2] = xquat[3] = 0;
    memset(xpos, 0, 3 * sizeof *xpos);
    memset(com, 0, (size_t)nb * 3 * sizeof *com);
    for (int b = 0; b < nb; b++) {
        if (b > 0) {
            int p = m->body_parent[b];
            double R[9];
            cs_quat2mat(R, xquat + 4 * p);
            const double *bp = m->body_pos + 3 * b;
            for (int i = 0; i < 3; i++)
                xpos[3 * b + i] = xpos[3 * p + i] + R[3 * i] * bp[0] + R[3 * i + 1] * bp[1] +
                                  R[3 * i + 2] * bp[2];
            cs_mulquat(xquat + 4 * b, xquat + 4 * p, m->body_quat + 4 * b);
            cs_normquat(xquat + 4 * b);
        }
        cs_quat2mat(xmat + 9 * b, xquat + 4 * b);
    }
    for (int b = nb - 1; b >= 0; b--) {
        const double *R = xmat + 9 * b, *ip = m->body_ipos + 3 * b;
        double bm = m->body_mass[b];
        for (int i = 0; i < 3; i++)
            com[3 * b + i] += bm * (xpos[3 * b + i] + R[3 * i] * ip[0] + R[3 * i + 1] * ip[1] +
                                    R[3 * i + 2] * ip[2]);
        mass[b] += bm;
        if (b > 0) {
            int p = m->body_parent[b];
            for (int i = 0; i < 3; i++) com[3 * p + i] += com[3 * b + i];
            mass[p] += mass[b];
        }
    }
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < 3; i++)
            com[3 * b + i] = mass[b] > 0 ? com[3 * b + i] / mass[b] : xpos[3 * b + i];
    cs_free(xquat);
    cs_free(mass);
    return 0;
}

int cs_mjcf_visual_build(cs_mjcf *c, cs_model *m)
{
    struct cs_mjcf_visual *V = c->vis; /* made by cs_mjcf_visual_sizes: nothing jumps here */
    int oom = 0;
    for (int i = 0, adr = 0; i < V->ntex; i++) {
        texir *T = &V->tex[i];
        m->tex_type[i] = T->type;
        m->tex_width[i] = T->w;
        m->tex_height[i] = T->h;
        m->tex_adr[i] = adr;
        if (T->texel) memcpy(m->tex_data + adr, T->texel, (size_t)T->w * T->h * sizeof *T->texel);
        adr += T->w * T->h;
        m->tex_name[i] = dup(T->name, &oom);
    }
    for (int i = 0; i < V->nmat; i++) {
        matir *M = &V->mat[i];
        m->mat_texid[i] = M->texid;
        m->mat_texuniform[i] = M->texuniform;
        memcpy(m->mat_texrepeat + 2 * i, M->texrepeat, sizeof M->texrepeat);
        memcpy(m->mat_rgba + 4 * i, M->rgba, sizeof M->rgba);
        m->mat_emission[i] = M->emission;
        m->mat_specular[i] = M->specular;
        m->mat_shininess[i] = M->shininess;
        m->mat_reflectance[i] = M->reflectance;
        m->mat_name[i] = dup(M->name, &oom);
    }
    for (int i = 0; i < m->ngeom; i++) {
        const char *mat = c->geom[i].s.material;
        m->geom_matid[i] = -1;
        for (int k = 0; mat && k < V->nmat; k++)
            if (strcmp(V->mat[k].name, mat) == 0) m->geom_matid[i] = k;
    }
    int nb = m->nbody;
    double *xpos = cs_malloc((size_t)nb * 3 * sizeof *xpos), *xmat = cs_malloc((size_t)nb * 9 * sizeof *xmat);
    double *com = cs_malloc((size_t)nb * 3 * sizeof *com);
    if (!xpos || !xmat || !com || pose0(m, xpos, xmat, com) != 0) {
        cs_free(xpos);
        cs_free(xmat);
        cs_free(com);
        return -1;
    }
    for (int i = 0; i < V->nlight; i++) {
        objir *O = &V->light[i];
        int b = O->body;
        const double *R = xmat + 9 * b;
        m->light_mode[i] = O->mode;
        m->light_bodyid[i] = b;
        m->light_targetbodyid[i] = O->targetbody;
        m->light_directional[i] = O->directional;
        m->light_castshadow[i] = O->castshadow;
        m->light_active[i] = O->active;
        memcpy(m->light_pos + 3 * i, O->pos, sizeof O->pos);
        memcpy(m->light_dir + 3 * i, O->dir, sizeof O->dir);
        for (int k = 0; k < 3; k++) {
            double wp = xpos[3 * b + k] + R[3 * k] * O->pos[0] + R[3 * k + 1] * O->pos[1] +
                        R[3 * k + 2] * O->pos[2];
            m->light_pos0[3 * i + k] = wp - xpos[3 * b + k];
            m->light_poscom0[3 * i + k] = wp - com[3 * (O->targetbody >= 0 ? O->targetbody : b) + k];
            m->light_dir0[3 * i + k] = R[3 * k] * O->dir[0] + R[3 * k + 1] * O->dir[1] +
                                       R[3 * k + 2] * O->dir[2];
        }
        memcpy(m->light_ambient + 3 * i, O->ambient, sizeof O->ambient);
        memcpy(m->light_diffuse + 3 * i, O->diffuse, sizeof O->diffuse);
        memcpy(m->light_specular + 3 * i, O->specular, sizeof O->specular);
        memcpy(m->light_attenuation + 3 * i, O->attenuation, sizeof O->attenuation);
        m->light_cutoff[i] = O->cutoff;
        m->light_exponent[i] = O->exponent;
        m->light_name[i] = dup(O->name, &oom);
    }
    for (int i = 0; i < V->ncam; i++) {
        objir *O = &V->cam[i];
        int b = O->body;
        const double *R = xmat + 9 * b;
        m->cam_mode[i] = O->mode;
        m->cam_bodyid[i] = b;
        m->cam_targetbodyid[i] = O->targetbody;
        memcpy(m->cam_pos + 3 * i, O->pos, sizeof O->pos);
        memcpy(m->cam_quat + 4 * i, O->quat, sizeof O->quat);
        m->cam_fovy[i] = O->fovy;
        m->cam_projection[i] = O->projection;
        m->cam_resolution[2 * i] = O->res[0];
        m->cam_resolution[2 * i + 1] = O->res[1];
        for (int k = 0; k < 2; k++) m->cam_sensorsize[2 * i + k] = O->sensorsize[k];
        for (int k = 0; k < 4; k++) m->cam_intrinsic[4 * i + k] = O->intrinsic[k];
        double L[9];
        cs_quat2mat(L, O->quat);
        for (int k = 0; k < 3; k++) {
            double wp = xpos[3 * b + k] + R[3 * k] * O->pos[0] + R[3 * k + 1] * O->pos[1] +
                        R[3 * k + 2] * O->pos[2];
            m->cam_pos0[3 * i + k] = wp - xpos[3 * b + k];
            /* MuJoCo: from the target's subtree centre of mass when there is a target */
            m->cam_poscom0[3 * i + k] = wp - com[3 * (O->targetbody >= 0 ? O->targetbody : b) + k];
            for (int j = 0; j < 3; j++)
                m->cam_mat0[9 * i + 3 * k + j] = R[3 * k] * L[j] + R[3 * k + 1] * L[3 + j] +
                                                 R[3 * k + 2] * L[6 + j];
        }
        m->cam_name[i] = dup(O->name, &oom);
    }
    cs_free(xpos);
    cs_free(xmat);
    cs_free(com);
    return oom ? -1 : 0;
}

/* ---- fusestatic -------------------------------------------------------------------- */
int cs_mjcf_visual_targets(const cs_mjcf *c, cs_mjcf_name_fn fn, void *ctx)
{
    for (int pass = 0; c->vis && pass < 2; pass++) {
        const objir *o = pass ? c->vis->cam : c->vis->light;
        int n = pass ? c->vis->ncam : c->vis->nlight;
        for (int i = 0; i < n; i++)
            if (o[i].target && fn(ctx, o[i].target)) return 1;
    }
    return 0;
}

int cs_mjcf_visual_bodies(cs_mjcf *c, int cam, int **body)
{
    int n = !c->vis ? 0 : cam ? c->vis->ncam : c->vis->nlight;
    *body = cs_mjcf_alloc(c, ((size_t)n + 1) * sizeof **body);
    for (int i = 0; i < n; i++) (*body)[i] = (cam ? c->vis->cam : c->vis->light)[i].body;
    return n;
}

/* a moved camera's pose, a moved light's position and direction, re-expressed in the body
 * it goes to (MuJoCo composes a light's position alone and turns its direction) */
void cs_mjcf_visual_fuse(cs_mjcf *c, const cs_mjcf_fusemap *f, int cam, const int *perm)
{
    int n = !c->vis ? 0 : cam ? c->vis->ncam : c->vis->nlight;
    if (!n) return;
    objir *o = cam ? c->vis->cam : c->vis->light;
    for (int i = 0; i < n; i++) {
        int b = o[i].body;
        if (f->moved[b]) {
            const double *bp = f->pose + 7 * b, *bq = bp + 3;
            double r[3], q[4];
            rot3(bq, o[i].pos, r);
            for (int k = 0; k < 3; k++) o[i].pos[k] = bp[k] + r[k];
            if (cam) {
                cs_mulquat(q, bq, o[i].quat);
                cs_mjcf_quat_renorm(q);
                memcpy(o[i].quat, q, sizeof q);
            } else {
                rot3(bq, o[i].dir, r);
                memcpy(o[i].dir, r, sizeof r);
            }
        }
        o[i].body = f->to[b];
    }
    objir *tmp = cs_mjcf_alloc(c, (size_t)n * sizeof *tmp);
    for (int i = 0; i < n; i++) tmp[i] = o[perm[i]];
    memcpy(o, tmp, (size_t)n * sizeof *tmp);
}
