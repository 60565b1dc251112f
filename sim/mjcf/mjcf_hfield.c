/* Height fields: the <hfield> asset and the geoms that use it, read as MuJoCo 3.12's
 * compiler reads them. Elevations come from the `elevation` attribute (written top row
 * first, stored bottom row first), from a PNG (grey, or the red channel of colour, as
 * lodepng's grey conversion; rows flipped), from MuJoCo's binary format (two ints nrow and
 * ncol, then nrow x ncol floats, bottom row first), or are zero with only nrow and ncol;
 * then shifted and scaled to [0, 1] in single precision, as MuJoCo keeps them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "alloc.h"
#include "mjcf_ir.h"
#include "pngread.h"

#define FAILH(c, n, attr, ...) \
    cs_mjcf_fail((c), cs_mjcf_line(n), (const char *)(n)->name, (attr), __VA_ARGS__)
#define HFAIL(c, h, attr, ...) cs_mjcf_fail((c), (h)->line, "hfield", (attr), __VA_ARGS__)

/* the most grid points of all fields together (a 5792 x 5792 terrain): counts stay ints */
#define MAXPOINTS (1L << 25)

int cs_mjcf_find_hfield(const cs_mjcf *c, const char *name)
{
    for (int i = 0; i < c->nhfield; i++)
        if (c->hfield[i].name && strcmp(c->hfield[i].name, name) == 0) return i;
    return -1;
}

int cs_mjcf_hfield_asset(cs_mjcf *c, xmlNode *n)
{
    if (strcmp((const char *)n->name, "hfield") != 0) return 0;
    cs_mjcf_check_attrs(c, n, (const char *const[]){"name", "content_type", "file", "nrow",
                                                    "ncol", "size", "elevation", NULL});
    cs_hfieldir H;
    memset(&H, 0, sizeof H);
    H.line = cs_mjcf_line(n);
    H.name = cs_mjcf_attr(c, n, "name");
    H.file = cs_mjcf_attr(c, n, "file");
    H.content_type = cs_mjcf_attr(c, n, "content_type");
    if (!cs_mjcf_nums(c, n, "size", H.size, 4, 4))
        FAILH(c, n, "size", "a height field needs its size (radius x, radius y, elevation z, "
                            "base z)");
    for (int i = 0; i < 4; i++)
        if (!(H.size[i] > 0))
            FAILH(c, n, "size", "each of the 4 sizes must be positive (size[%d] is %g)", i,
                  H.size[i]);
    cs_mjcf_ints(c, n, "nrow", &H.nrow, 1, 1);
    cs_mjcf_ints(c, n, "ncol", &H.ncol, 1, 1);
    char *e = cs_mjcf_attr(c, n, "elevation");
    if (e) {
        int cap = 1;
        for (char *p = e; *p; p++) cap += *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        H.elevation = cs_mjcf_alloc(c, (size_t)cap * sizeof *H.elevation);
        H.nelevation = cs_mjcf_nums(c, n, "elevation", H.elevation, 0, cap);
    }
    if (!H.file) {
        /* MuJoCo reads nrow, ncol and elevation only without a file (a file sets them) */
        if (H.nrow < 2 || H.ncol < 2)
            FAILH(c, n, H.nrow < 2 ? "nrow" : "ncol",
                  "a height field without a file needs nrow and ncol of at least 2 (got %d x "
                  "%d)", H.nrow, H.ncol);
        if ((long)H.nrow * H.ncol > MAXPOINTS)
            FAILH(c, n, "nrow", "%d x %d points: more than %ld are not supported", H.nrow,
                  H.ncol, MAXPOINTS);
        if (e && H.nelevation != H.nrow * H.ncol)
            FAILH(c, n, "elevation", "expects nrow x ncol = %d numbers, got %d",
                  H.nrow * H.ncol, H.nelevation);
    } else if (!H.name) {
        /* MuJoCo: the file name without path and extension */
        const char *b = strrchr(H.file, '/');
        b = b ? b + 1 : H.file;
        H.name = cs_mjcf_strdup(c, b);
        char *dot = strrchr(H.name, '.');
        if (dot && dot != H.name) *dot = 0;
    }
    if (H.name && cs_mjcf_find_hfield(c, H.name) >= 0)
        FAILH(c, n, "name", "duplicate height field name '%s'", H.name);
    cs_mjcf_grow(c, (void **)&c->hfield, &c->caphfield, c->nhfield, sizeof *c->hfield);
    c->hfield[c->nhfield++] = H;
    return 1;
}

/* MuJoCo's content type of the file: the attribute, else by extension; none is its own
 * binary format */
static int file_kind(cs_mjcf *c, const cs_hfieldir *h)
{
    const char *t = h->content_type;
    if (t && *t) {
        if (strcasecmp(t, "image/png") == 0) return 1;
        if (strcasecmp(t, "image/vnd.mujoco.hfield") == 0) return 2;
        HFAIL(c, h, "content_type", "unsupported content type '%s' (image/png or "
                                    "image/vnd.mujoco.hfield)", t);
    }
    const char *dot = strrchr(h->file, '.'), *slash = strrchr(h->file, '/');
    if (!dot || (slash && dot < slash)) return 2;
    if (strcasecmp(dot, ".png") == 0) return 1;
    if (strcasecmp(dot, ".stl") == 0 || strcasecmp(dot, ".obj") == 0 ||
        strcasecmp(dot, ".ply") == 0 || strcasecmp(dot, ".msh") == 0 ||
        strcasecmp(dot, ".ktx") == 0)
        HFAIL(c, h, "file", "'%s' is not a height field file (PNG or MuJoCo's binary format)",
              h->file);
    return 2;
}

static void read_png(cs_mjcf *c, cs_hfieldir *h, const char *path)
{
    int w, ht, w2, h2;
    unsigned char *rgb = NULL;
    char err[160] = "the image changed while it was read";
    if (cs_png_size(path, &w, &ht, err, sizeof err) != 0)
        HFAIL(c, h, "file", "cannot read '%s': %s", h->file, err);
    if (w < 2 || ht < 2)
        HFAIL(c, h, "file", "'%s' is %d x %d pixels: a height field needs at least 2 x 2",
              h->file, w, ht);
    if ((long)w * ht > MAXPOINTS)
        HFAIL(c, h, "file", "'%s' is %d x %d pixels: more than %ld points are not supported",
              h->file, w, ht, MAXPOINTS);
    /* the loader's memory first: a failure there leaves nothing to free */
    h->data = cs_mjcf_alloc(c, (size_t)w * (size_t)ht * sizeof *h->data);
    if (cs_png_decode(path, &w2, &h2, &rgb, err, sizeof err) != 0 || w2 != w || h2 != ht) {
        free(rgb);
        HFAIL(c, h, "file", "cannot read '%s': %s", h->file, err);
    }
    h->nrow = ht;
    h->ncol = w;
    /* the image's top row is the field's last (largest y) */
    for (int r = 0; r < ht; r++)
        for (int k = 0; k < w; k++)
            h->data[(size_t)r * w + k] = rgb[3 * ((size_t)(ht - 1 - r) * w + k)];
    free(rgb);
}

static void read_binary(cs_mjcf *c, cs_hfieldir *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) HFAIL(c, h, "file", "cannot open '%s'", h->file);
    int dims[2];
    if (fread(dims, sizeof(int), 2, f) != 2) {
        fclose(f);
        HFAIL(c, h, "file", "'%s' has no height field header (two ints, nrow and ncol)",
              h->file);
    }
    if (dims[0] < 2 || dims[1] < 2 || (long)dims[0] * dims[1] > MAXPOINTS) {
        fclose(f);
        HFAIL(c, h, "file", "'%s': a height field of %d x %d (each at least 2, at most %ld "
              "points)", h->file, dims[0], dims[1], MAXPOINTS);
    }
    size_t cnt = (size_t)dims[0] * (size_t)dims[1];
    float *d = cs_mjcf_alloc(c, cnt * sizeof *d);
    size_t got = fread(d, sizeof(float), cnt, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != cnt || extra)
        HFAIL(c, h, "file", "'%s': its size is not 8 + 4 x nrow x ncol bytes (%d x %d)",
              h->file, dims[0], dims[1]);
    for (size_t i = 0; i < cnt; i++)
        if (!isfinite(d[i])) HFAIL(c, h, "file", "'%s' holds a value that is not finite", h->file);
    h->nrow = dims[0];
    h->ncol = dims[1];
    h->data = d;
}

static void compile_hfield(cs_mjcf *c, cs_hfieldir *h)
{
    if (h->file) {
        int kind = file_kind(c, h);
        const char *path = cs_mjcf_asset_path(c, h->file);
        if (kind == 1)
            read_png(c, h, path);
        else
            read_binary(c, h, path);
    } else {
        size_t cnt = (size_t)h->nrow * (size_t)h->ncol;
        h->data = cs_mjcf_alloc(c, cnt * sizeof *h->data);
        for (size_t i = 0; i < cnt; i++) h->data[i] = 0;
        /* the attribute is written top row first */
        for (int r = 0; r < h->nrow && h->elevation; r++)
            for (int k = 0; k < h->ncol; k++)
                h->data[(size_t)(h->nrow - 1 - r) * h->ncol + k] =
                    (float)h->elevation[(size_t)r * h->ncol + k];
    }
    /* to [0, 1] in single precision, as MuJoCo's compiler does */
    size_t cnt = (size_t)h->nrow * (size_t)h->ncol;
    float lo = 1e10f, hi = -1e10f;
    for (size_t i = 0; i < cnt; i++) {
        lo = fminf(lo, h->data[i]);
        hi = fmaxf(hi, h->data[i]);
    }
    if (!(lo <= hi)) HFAIL(c, h, NULL, "the elevation data has no range");
    for (size_t i = 0; i < cnt; i++) {
        h->data[i] -= lo;
        if (hi - lo > 1e-14f) h->data[i] /= hi - lo;
    }
}

double cs_mjcf_hfield_rbound(const cs_hfieldir *h)
{
    const double *s = h->size;
    return sqrt(s[0] * s[0] + s[1] * s[1] + fmax(s[2] * s[2], s[3] * s[3]));
}

void cs_mjcf_hfield_resolve(cs_mjcf *c)
{
    long total = 0;
    for (int k = 0; k < c->nhfield; k++) {
        compile_hfield(c, &c->hfield[k]);
        total += (long)c->hfield[k].nrow * c->hfield[k].ncol;
        if (total > MAXPOINTS)
            HFAIL(c, &c->hfield[k], NULL, "the height fields hold more than %ld points together",
                  MAXPOINTS);
    }
    for (int i = 0; i < c->ngeom; i++) {
        cs_geomir *g = &c->geom[i];
        cs_gspec *s = &g->s;
        g->hfieldid = -1;
        if (s->type != CS_GEOM_HFIELD) {
            if (s->hfield)
                cs_mjcf_fail(c, g->line, "geom", "hfield",
                             "only a geom of type hfield takes a height field");
            continue;
        }
        if (!s->hfield)
            cs_mjcf_fail(c, g->line, "geom", "hfield",
                         "a geom of type hfield needs an hfield attribute");
        if (s->mesh)
            cs_mjcf_fail(c, g->line, "geom", "mesh", "a height field cannot be fitted to a mesh");
        if (s->has_fromto)
            cs_mjcf_fail(c, g->line, "geom", "fromto", "fromto is not allowed for type hfield");
        g->hfieldid = cs_mjcf_find_hfield(c, s->hfield);
        if (g->hfieldid < 0)
            cs_mjcf_fail(c, g->line, "geom", "hfield", "no hfield asset named '%s'", s->hfield);
        /* MuJoCo's geom size: the asset's radii and a box height for mass and drawing */
        const double *hs = c->hfield[g->hfieldid].size;
        s->size[0] = hs[0];
        s->size[1] = hs[1];
        s->size[2] = 0.25 * hs[2] + 0.5 * hs[3];
    }
}

void cs_mjcf_hfield_sizes(const cs_mjcf *c, cs_model *m)
{
    m->nhfield = c->nhfield;
    m->nhfielddata = 0;
    for (int k = 0; k < c->nhfield; k++) m->nhfielddata += c->hfield[k].nrow * c->hfield[k].ncol;
}

int cs_mjcf_hfield_build(const cs_mjcf *c, cs_model *m)
{
    int adr = 0, oom = 0;
    for (int k = 0; k < c->nhfield; k++) {
        const cs_hfieldir *h = &c->hfield[k];
        memcpy(m->hfield_size + 4 * k, h->size, 4 * sizeof(double));
        m->hfield_nrow[k] = h->nrow;
        m->hfield_ncol[k] = h->ncol;
        m->hfield_adr[k] = adr;
        for (int i = 0; i < h->nrow * h->ncol; i++) m->hfield_data[adr + i] = h->data[i];
        adr += h->nrow * h->ncol;
        if (h->name) {
            size_t len = strlen(h->name) + 1;
            m->hfield_name[k] = cs_malloc(len);
            if (m->hfield_name[k])
                memcpy(m->hfield_name[k], h->name, len);
            else
                oom = 1;
        }
    }
    return oom ? -1 : 0;
}
