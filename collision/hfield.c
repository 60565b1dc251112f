/* Height field against a convex geom, as MuJoCo 3.12's mjc_ConvexHField: the geom is
 * taken into the field's frame, its box (from its support function) picks the grid cells
 * under it, and each cell's two triangular prisms (from the base up to the surface, the
 * top raised by the margin) meet the geom (grown by half the margin) as two convex shapes:
 * one contact per prism they overlap in, at most CS_MAXCONPAIR in the grid's order (row
 * by row, along each row the prism of a cell's upper-left half, then its lower-right). */
#include <math.h>
#include <string.h>

#include "gjk.h"
#include "internal.h"

/* MuJoCo's prism walk: the new vertex (column col, row r + 1 - i) enters as the third of
 * the base and top triangles, the oldest leaves */
static void add_vertex(double prism[18], const cs_hfield *hf, int r, int col, int i,
                       double dx, double dy, double margin)
{
    memmove(prism, prism + 3, 6 * sizeof *prism);
    memmove(prism + 9, prism + 12, 6 * sizeof *prism);
    int row = r + 1 - i;
    double x = dx * col - hf->size[0], y = dy * row - hf->size[1];
    prism[6] = prism[15] = x;
    prism[7] = prism[16] = y;
    prism[17] = hf->data[row * hf->ncol + col] * hf->size[2] + margin;
}

/* The geom in the field's frame (lp, lm = R1^T R2); 0 when its bounding sphere (grown by the
 * margin) misses the field's box. */
static int field_frame(const cs_hfield *hf, const cs_pose *p1, const cs_shape *b, double margin,
                       double lp[3], double lm[9])
{
    const double *s = hf->size, *R1 = p1->mat;
    double rel[3] = {b->pos[0] - p1->pos[0], b->pos[1] - p1->pos[1], b->pos[2] - p1->pos[2]};
    cs_mulmtv(lp, R1, rel);
    double rad = cs_shape_rbound(b) + margin;
    if (s[0] < lp[0] - rad || -s[0] > lp[0] + rad || s[1] < lp[1] - rad ||
        -s[1] > lp[1] + rad || s[2] < lp[2] - rad || -s[3] > lp[2] + rad)
        return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            lm[3 * i + j] = R1[i] * b->mat[j] + R1[3 + i] * b->mat[3 + j] +
                            R1[6 + i] * b->mat[6 + j];
    return 1;
}

/* The grid cells under the geom's box [lo, hi] (field frame): columns c[0]..c[1], rows
 * c[2]..c[3]; 0 when the box misses the field or is not a number. */
static int cells_under(const cs_hfield *hf, const double lo[3], const double hi[3], double margin,
                       int c[4])
{
    const double *s = hf->size;
    if (lo[0] - margin > s[0] || hi[0] + margin < -s[0] || lo[1] - margin > s[1] ||
        hi[1] + margin < -s[1] || lo[2] - margin > s[2] || hi[2] + margin < -s[3])
        return 0;
    int nrow = hf->nrow, ncol = hf->ncol;
    double fc0 = floor((lo[0] + s[0]) / (2 * s[0]) * (ncol - 1));
    double fc1 = ceil((hi[0] + s[0]) / (2 * s[0]) * (ncol - 1));
    double fr0 = floor((lo[1] + s[1]) / (2 * s[1]) * (nrow - 1));
    double fr1 = ceil((hi[1] + s[1]) / (2 * s[1]) * (nrow - 1));
    if (!(fc0 == fc0 && fc1 == fc1 && fr0 == fr0 && fr1 == fr1))
        return 0; /* not a number: no geometry to test */
    c[0] = fc0 < 0 ? 0 : (int)fc0;
    c[1] = fc1 > ncol - 1 ? ncol - 1 : (int)fc1;
    c[2] = fr0 < 0 ? 0 : (int)fr0;
    c[3] = fr1 > nrow - 1 ? nrow - 1 : (int)fr1;
    return 1;
}

/* The native collider's walk (MuJoCo 3.12's default): the geom keeps one support cache
 * over its box and every prism, as MuJoCo's does. */
static int hfield_native(const cs_collision_options *opt, const cs_hfield *hf, const cs_pose *p1,
                         const cs_shape *b, double margin, cs_rawcon *out)
{
    const double *s = hf->size, *R1 = p1->mat;
    double lp[3], lm[9];
    if (!field_frame(hf, p1, b, margin, lp, lm)) return 0;
    cs_shape g = {b->type, b->size, lp, lm, b->hull, NULL, NULL, 0};
    cs_gjk_obj o2;
    cs_gjk_obj_init(&o2, &g, 0);
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        double d[3] = {0, 0, 0}, x[3];
        d[k] = 1;
        cs_gjk_support(&o2, d, x);
        hi[k] = x[k];
        d[k] = -1;
        cs_gjk_support(&o2, d, x);
        lo[k] = x[k];
    }
    int cr[4];
    if (!cells_under(hf, lo, hi, margin, cr)) return 0;
    int nrow = hf->nrow, ncol = hf->ncol, cmin = cr[0], cmax = cr[1], rmin = cr[2], rmax = cr[3];
    /* the margin grows the geom by half (its support) and raises the prisms' tops */
    o2.margin = margin;
    double dx = (2.0 * s[0]) / (ncol - 1), dy = (2.0 * s[1]) / (nrow - 1);
    double prism[18] = {0};
    prism[2] = prism[5] = prism[8] = -s[3];
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const double O[3] = {0, 0, 0};
    cs_shape A = {CS_GEOM_HFIELD, s, O, I, NULL, NULL, prism, 0};
    cs_gjk_obj o1;
    cs_gjk_obj_init(&o1, &A, 0);
    cs_gjk_config cfg = {opt->ccd_iterations, opt->ccd_tolerance, 1};
    int n = 0;
    for (int r = rmin; r < rmax && n < CS_MAXCONPAIR; r++) {
        add_vertex(prism, hf, r, cmin, 0, dx, dy, margin);
        add_vertex(prism, hf, r, cmin, 1, dx, dy, margin);
        for (int col = cmin + 1; col <= cmax && n < CS_MAXCONPAIR; col++)
            for (int i = 0; i < 2 && n < CS_MAXCONPAIR; i++) {
                add_vertex(prism, hf, r, col, i, dx, dy, margin);
                if (prism[11] < lo[2] && prism[14] < lo[2] && prism[17] < lo[2])
                    continue; /* the prism's top is below the geom */
                cs_gjk_result res;
                if (!(cs_gjk_collide(&cfg, &o1, &o2, &res) < 0))
                    continue;
                double nl[3], pl[3], nw[3], pw[3];
                for (int k = 0; k < 3; k++) {
                    pl[k] = (res.x1[k] + res.x2[k]) * 0.5;
                    nl[k] = res.x1[k] - res.x2[k];
                }
                cs_gjk_normalize(nl);
                cs_mulmv(nw, R1, nl);
                cs_mulmv(pw, R1, pl);
                for (int k = 0; k < 3; k++)
                    pw[k] += p1->pos[k];
                cs_setcon(out + n++, nw, pw, res.dist[0]);
            }
    }
    return n;
}

int cs_hfield_convex(const cs_collision_options *opt, const cs_hfield *hf, const cs_pose *p1,
                     const cs_shape *b, double margin, cs_rawcon *out)
{
    if (!opt->ccd_mpr)
        return hfield_native(opt, hf, p1, b, margin, out);
    const double *s = hf->size, *R1 = p1->mat;
    double lp[3], lm[9];
    if (!field_frame(hf, p1, b, margin, lp, lm)) return 0;
    int hint = -1;
    cs_shape g = {b->type, b->size, lp, lm, b->hull, &hint, NULL, 0};

    /* its box there, from the support function */
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        double d[3] = {0, 0, 0}, x[3];
        d[k] = 1;
        cs_support(&g, d, x);
        hi[k] = x[k];
        d[k] = -1;
        cs_support(&g, d, x);
        lo[k] = x[k];
    }
    /* the cells under it */
    int cr[4];
    if (!cells_under(hf, lo, hi, margin, cr)) return 0;
    int nrow = hf->nrow, ncol = hf->ncol, cmin = cr[0], cmax = cr[1], rmin = cr[2], rmax = cr[3];

    /* the geom grown by half the margin (MuJoCo's margin on the second shape): a sphere's
     * or capsule's radius, any other shape's support point */
    double gsize[3] = {b->size[0], b->size[1], b->size[2]};
    if (b->type == CS_GEOM_SPHERE || b->type == CS_GEOM_CAPSULE)
        gsize[0] += 0.5 * margin;
    else
        g.inflate = 0.5 * margin;
    g.size = gsize;

    double dx = 2 * s[0] / (ncol - 1), dy = 2 * s[1] / (nrow - 1);
    double prism[18] = {0};
    prism[2] = prism[5] = prism[8] = -s[3];
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const double O[3] = {0, 0, 0};
    double ext[3] = {dx, dy, s[2] + s[3]};
    cs_shape A = {CS_GEOM_HFIELD, ext, O, I, NULL, NULL, prism, 0};
    int n = 0;
    for (int r = rmin; r < rmax && n < CS_MAXCONPAIR; r++) {
        add_vertex(prism, hf, r, cmin, 0, dx, dy, margin);
        add_vertex(prism, hf, r, cmin, 1, dx, dy, margin);
        for (int col = cmin + 1; col <= cmax && n < CS_MAXCONPAIR; col++)
            for (int i = 0; i < 2 && n < CS_MAXCONPAIR; i++) {
                add_vertex(prism, hf, r, col, i, dx, dy, margin);
                if (prism[11] < lo[2] && prism[14] < lo[2] && prism[17] < lo[2])
                    continue; /* the prism's top is below the geom */
                double nl[3], pl[3], dist;
                if (!cs_ccd_single(opt, &A, &g, 0, nl, pl, &dist) || !(dist < 0))
                    continue;
                double nw[3], pw[3];
                cs_mulmv(nw, R1, nl);
                cs_mulmv(pw, R1, pl);
                for (int k = 0; k < 3; k++)
                    pw[k] += p1->pos[k];
                cs_setcon(out + n++, nw, pw, dist);
            }
    }
    return n;
}
