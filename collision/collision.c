/* The collision context: filters, broad phase (sweep and prune on AABBs, planes as
 * half-spaces), dispatch to the pair routines, contact assembly. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "internal.h"

struct cs_collision {
    int ngeom, npair, nexclude;
    cs_collision_geom *geom;
    cs_collision_pair *pair;
    uint64_t *exclude;   /* sorted body-pair keys */
    uint64_t *pairkey;   /* sorted geom-pair keys of explicit pairs (replacement test) */
    int *pairorder;      /* pair indices in pairkey order */
    cs_collision_options opt;
    int nplane, nsolid;
    int *plane, *solid;  /* geom indices */
    double *lo, *hi;     /* AABBs, 3 per geom */
    int *order, *tmp;    /* sweep order and merge-sort scratch */
    uint64_t *cand, *candtmp; /* candidate pair keys lo*2^32 + hi (geom indices) */
    int ncand, capcand;
    int *candout;        /* candidates as ordered (geom1, geom2) for the public accessor */
    const int *sleep;    /* per geom 0 awake, 1 asleep, 2 static; NULL: all awake */
    /* the filter's verdict for every two solids, made once (its inputs do not change in
     * the context's life): bit b of row a's words; NULL above PASS_MAX solids */
    uint64_t *pass;
    int passw;           /* words a row */
    int *six;            /* per geom its index in solid, or -1 */
};

/* the most solids whose pair verdicts are kept (32 KiB, and as many filter calls once) */
enum { PASS_MAX = 512 };

void cs_collision_set_sleep(cs_collision *c, const int *geom_sleep) { c->sleep = geom_sleep; }

/* MuJoCo's sleep filter: a sleeping geom meets neither another sleeping one nor the static
 * world; an explicit pair needs one awake side */
static int sleep_skip(const cs_collision *c, int i, int j)
{
    if (!c->sleep) return 0;
    int a = c->sleep[i], b = c->sleep[j];
    return (a == 1 && b) || (b == 1 && a);
}

void cs_collision_options_default(cs_collision_options *o)
{
    memset(o, 0, sizeof *o); /* fields added later default to 0 */
    o->filterparent = 1;
    o->multiccd = 1;
    o->ccd_iterations = 35; /* MuJoCo 3.12's */
    o->ccd_tolerance = 1e-6;
}

static uint64_t key2(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int has_key(const uint64_t *keys, int n, uint64_t k)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (keys[mid] == k)
            return 1;
        if (keys[mid] < k)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

static void fail(char *err, size_t errlen, const char *msg, int idx)
{
    if (err && errlen)
        snprintf(err, errlen, msg, idx);
}

void cs_collision_free(cs_collision *c)
{
    if (!c)
        return;
    cs_free(c->geom);
    cs_free(c->pair);
    cs_free(c->exclude);
    cs_free(c->pairkey);
    cs_free(c->pairorder);
    cs_free(c->plane);
    cs_free(c->solid);
    cs_free(c->lo);
    cs_free(c->hi);
    cs_free(c->order);
    cs_free(c->tmp);
    cs_free(c->cand);
    cs_free(c->candtmp);
    cs_free(c->candout);
    cs_free(c->pass);
    cs_free(c->six);
    cs_free(c);
}

static int has_hull(const cs_collision_geom *g)
{
    return g->hull.nvert >= 4 && g->hull.vert && g->hull.adj;
}

static int valid_condim(int d)
{
    return d == 1 || d == 3 || d == 4 || d == 6;
}

cs_collision *cs_collision_create(const cs_collision_geom *geoms, int ngeom,
                                  const cs_collision_pair *pairs, int npair,
                                  const cs_collision_exclude *excludes, int nexclude,
                                  const cs_collision_options *opt, char *err, size_t errlen)
{
    if (ngeom < 0 || npair < 0 || nexclude < 0 || (ngeom && !geoms) || (npair && !pairs) ||
        (nexclude && !excludes)) {
        fail(err, errlen, "collision: bad array sizes%.0d", 0);
        return NULL;
    }
    for (int i = 0; i < ngeom; i++) {
        const cs_collision_geom *g = geoms + i;
        if (g->type < 0 || g->type >= CS_GEOM_NTYPES) {
            fail(err, errlen, "collision: geom %d has an unsupported type", i);
            return NULL;
        }
        if (g->type == CS_GEOM_HFIELD &&
            (g->hfield.nrow < 2 || g->hfield.ncol < 2 || !g->hfield.data ||
             !(g->hfield.size[0] > 0 && g->hfield.size[1] > 0 && g->hfield.size[2] > 0 &&
               g->hfield.size[3] > 0))) {
            fail(err, errlen, "collision: height field geom %d has no grid", i);
            return NULL;
        }
        /* a mesh that only explicit pairs or nothing collide needs no hull here (MuJoCo
         * builds none for it); pairs are checked below */
        if (g->type == CS_GEOM_MESH && (g->contype || g->conaffinity) && !has_hull(g)) {
            fail(err, errlen, "collision: mesh geom %d has no hull", i);
            return NULL;
        }
        if (!valid_condim(g->condim)) {
            fail(err, errlen, "collision: geom %d has condim other than 1, 3, 4, 6", i);
            return NULL;
        }
        if (g->margin + g->gap < 0) { /* a contact is detected within the sum */
            fail(err, errlen, "collision: geom %d has a negative margin + gap", i);
            return NULL;
        }
    }
    for (int k = 0; k < npair; k++) {
        const cs_collision_pair *p = pairs + k;
        if (p->geom1 < 0 || p->geom1 >= ngeom || p->geom2 < 0 || p->geom2 >= ngeom ||
            p->geom1 == p->geom2) {
            fail(err, errlen, "collision: pair %d names invalid geoms", k);
            return NULL;
        }
        if (!valid_condim(p->condim)) {
            fail(err, errlen, "collision: pair %d has condim other than 1, 3, 4, 6", k);
            return NULL;
        }
        for (int s = 0; s < 2; s++) {
            const cs_collision_geom *g = geoms + (s ? p->geom2 : p->geom1);
            if (g->type == CS_GEOM_MESH && !has_hull(g)) {
                fail(err, errlen, "collision: pair %d names a mesh geom without a hull", k);
                return NULL;
            }
        }
    }
    cs_collision *c = cs_calloc(1, sizeof *c);
    if (!c)
        goto oom;
    c->ngeom = ngeom;
    c->npair = npair;
    c->nexclude = nexclude;
    if (opt)
        c->opt = *opt;
    else
        cs_collision_options_default(&c->opt);
    size_t ng = ngeom > 0 ? (size_t)ngeom : 1;
    c->geom = cs_malloc(ng * sizeof *c->geom);
    c->pair = cs_malloc((npair ? npair : 1) * sizeof *c->pair);
    c->exclude = cs_malloc((nexclude ? nexclude : 1) * sizeof *c->exclude);
    c->pairkey = cs_malloc((npair ? npair : 1) * sizeof *c->pairkey);
    c->pairorder = cs_malloc((npair ? npair : 1) * sizeof *c->pairorder);
    c->plane = cs_malloc(ng * sizeof(int));
    c->solid = cs_malloc(ng * sizeof(int));
    c->lo = cs_malloc(3 * ng * sizeof(double));
    c->hi = cs_malloc(3 * ng * sizeof(double));
    c->order = cs_malloc(ng * sizeof(int));
    c->tmp = cs_malloc(ng * sizeof(int));
    c->capcand = 8 * (int)ng + 16;
    c->cand = cs_malloc((size_t)c->capcand * sizeof(uint64_t));
    c->candtmp = cs_malloc((size_t)c->capcand * sizeof(uint64_t));
    c->candout = cs_malloc((size_t)c->capcand * 2 * sizeof(int));
    if (!c->geom || !c->pair || !c->exclude || !c->pairkey || !c->pairorder || !c->plane || !c->solid ||
        !c->lo || !c->hi || !c->order || !c->tmp || !c->cand || !c->candtmp || !c->candout)
        goto oom;
    if (ngeom)
        memcpy(c->geom, geoms, (size_t)ngeom * sizeof *geoms);
    if (npair)
        memcpy(c->pair, pairs, (size_t)npair * sizeof *pairs);
    for (int k = 0; k < nexclude; k++)
        c->exclude[k] = key2(excludes[k].body1, excludes[k].body2);
    qsort(c->exclude, (size_t)nexclude, sizeof(uint64_t), cmp_u64);
    /* explicit pairs sorted by geom-pair key (stable: duplicates keep file order) */
    for (int k = 0; k < npair; k++) {
        uint64_t key = key2(pairs[k].geom1, pairs[k].geom2);
        int m = k;
        while (m > 0 && c->pairkey[m - 1] > key) {
            c->pairkey[m] = c->pairkey[m - 1];
            c->pairorder[m] = c->pairorder[m - 1];
            m--;
        }
        c->pairkey[m] = key;
        c->pairorder[m] = k;
    }
    for (int i = 0; i < ngeom; i++) {
        if (!geoms[i].contype && !geoms[i].conaffinity)
            continue; /* never collides automatically (explicit pairs bypass this) */
        if (geoms[i].type == CS_GEOM_PLANE)
            c->plane[c->nplane++] = i;
        else
            c->solid[c->nsolid++] = i;
    }
    if (c->nsolid > 1 && c->nsolid <= PASS_MAX) {
        c->passw = (c->nsolid + 63) / 64;
        c->pass = cs_calloc((size_t)c->nsolid * (size_t)c->passw, sizeof *c->pass);
        c->six = cs_malloc(ng * sizeof(int));
        if (!c->pass || !c->six)
            goto oom;
        for (int i = 0; i < ngeom; i++)
            c->six[i] = -1;
        for (int a = 0; a < c->nsolid; a++)
            c->six[c->solid[a]] = a;
        for (int a = 0; a < c->nsolid; a++)
            for (int b = 0; b < c->nsolid; b++)
                if (cs_collision_filter(c, c->solid[a], c->solid[b]))
                    c->pass[(size_t)a * c->passw + (b >> 6)] |= (uint64_t)1 << (b & 63);
    }
    return c;
oom:
    cs_collision_free(c);
    fail(err, errlen, "collision: out of memory%.0d", 0);
    return NULL;
}

int cs_collision_filter(const cs_collision *c, int i, int j)
{
    const cs_collision_geom *a = c->geom + i, *b = c->geom + j;
    if (i == j || (a->type == CS_GEOM_PLANE && b->type == CS_GEOM_PLANE))
        return 0;
    if (!(a->contype & b->conaffinity) && !(b->contype & a->conaffinity))
        return 0;
    if (a->weldbody == b->weldbody || (a->dofless && b->dofless))
        return 0;
    if (c->opt.filterparent && a->weldbody != 0 && b->weldbody != 0 &&
        (a->weldbody == b->weldparent || b->weldbody == a->weldparent))
        return 0;
    if (c->nexclude && has_key(c->exclude, c->nexclude, key2(a->body, b->body)))
        return 0;
    if (c->npair && has_key(c->pairkey, c->npair, key2(i, j)))
        return 0; /* the explicit pair replaces the automatic contact */
    return 1;
}

void cs_geom_aabb(int type, const double size[3], const cs_pose *p, double margin,
                  double lo[3], double hi[3])
{
    const double *R = p->mat;
    for (int i = 0; i < 3; i++) {
        double h = 0; /* each type sets it; 0 for a number that is no type */
        const double *row = R + 3 * i; /* world axis i in local coordinates */
        switch ((cs_geom_type)type) {
        case CS_GEOM_PLANE:
            lo[i] = -HUGE_VAL;
            hi[i] = HUGE_VAL;
            continue;
        case CS_GEOM_SPHERE:
            h = size[0];
            break;
        case CS_GEOM_CAPSULE:
            h = size[1] * fabs(row[2]) + size[0];
            break;
        case CS_GEOM_ELLIPSOID:
            h = sqrt(row[0] * row[0] * size[0] * size[0] + row[1] * row[1] * size[1] * size[1] +
                     row[2] * row[2] * size[2] * size[2]);
            break;
        case CS_GEOM_CYLINDER:
            h = size[1] * fabs(row[2]) + size[0] * sqrt(fmax(0, 1 - row[2] * row[2]));
            break;
        case CS_GEOM_BOX:
        case CS_GEOM_MESH:   /* its box about the origin (size); cs_geom_aabb_hull is exact */
        case CS_GEOM_HFIELD: /* MuJoCo's box of size; geom_aabb takes the grid's own */
            h = fabs(row[0]) * size[0] + fabs(row[1]) * size[1] + fabs(row[2]) * size[2];
            break;
        }
        lo[i] = p->pos[i] - h - margin;
        hi[i] = p->pos[i] + h + margin;
    }
}

void cs_geom_aabb_hull(const cs_hull *h, const cs_pose *p, double margin, double lo[3],
                       double hi[3])
{
    double c[3], e[3], wc[3];
    for (int i = 0; i < 3; i++) {
        c[i] = 0.5 * (h->aabb[i] + h->aabb[3 + i]);
        e[i] = 0.5 * (h->aabb[3 + i] - h->aabb[i]);
    }
    cs_mulmv(wc, p->mat, c);
    for (int i = 0; i < 3; i++) {
        const double *row = p->mat + 3 * i;
        double hw = fabs(row[0]) * e[0] + fabs(row[1]) * e[1] + fabs(row[2]) * e[2];
        lo[i] = p->pos[i] + wc[i] - hw - margin;
        hi[i] = p->pos[i] + wc[i] + hw + margin;
    }
}

/* a geom's AABB: meshes by their hull's box, height fields by the grid's box from the
 * base to the top */
static void geom_aabb(const cs_collision_geom *g, const cs_pose *p, double margin, double lo[3],
                      double hi[3])
{
    if (g->type == CS_GEOM_MESH && g->hull.aabb) {
        cs_geom_aabb_hull(&g->hull, p, margin, lo, hi);
    } else if (g->type == CS_GEOM_HFIELD) {
        const double *s = g->hfield.size;
        double aabb[6] = {-s[0], -s[1], -s[3], s[0], s[1], s[2]};
        cs_hull box = {0};
        box.aabb = aabb;
        cs_geom_aabb_hull(&box, p, margin, lo, hi);
    } else
        cs_geom_aabb(g->type, g->size, p, margin, lo, hi);
}

/* merge sort of idx[0..n) by key[idx] (stable, no allocation) */
static void sort_by(int *idx, int *tmp, int n, const double *key, int stride)
{
    for (int w = 1; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            int i = s, j = m, k = s;
            while (i < m && j < e)
                tmp[k++] = (key[stride * idx[j]] < key[stride * idx[i]]) ? idx[j++] : idx[i++];
            while (i < m)
                tmp[k++] = idx[i++];
            while (j < e)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

static void sort_u64(uint64_t *a, uint64_t *tmp, int n)
{
    for (int w = 1; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            int i = s, j = m, k = s;
            while (i < m && j < e)
                tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
            while (i < m)
                tmp[k++] = a[i++];
            while (j < e)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof *a);
    }
}

static int push_cand(cs_collision *c, uint64_t k)
{
    if (c->ncand == c->capcand) {
        /* grows only past the largest candidate count seen so far */
        int cap = 2 * c->capcand;
        uint64_t *a = cs_realloc(c->cand, (size_t)cap * sizeof *a);
        if (!a)
            return 0;
        c->cand = a;
        uint64_t *b = cs_realloc(c->candtmp, (size_t)cap * sizeof *b);
        if (!b)
            return 0;
        c->candtmp = b;
        int *o = cs_realloc(c->candout, (size_t)cap * 2 * sizeof *o);
        if (!o)
            return 0;
        c->candout = o;
        c->capcand = cap;
    }
    c->cand[c->ncand++] = k;
    return 1;
}

/* plane p against the AABB of geom g inflated by its margin + gap: the box's lowest point
 * along the plane normal is within the plane's margin + gap */
static int plane_hits(const cs_collision *c, int p, const cs_pose *pp, int g)
{
    const double *lo = c->lo + 3 * g, *hi = c->hi + 3 * g;
    double lown = 0;
    for (int i = 0; i < 3; i++) {
        double n = pp->mat[3 * i + 2];
        double ctr = 0.5 * (lo[i] + hi[i]) - pp->pos[i], half = 0.5 * (hi[i] - lo[i]);
        lown += n * ctr - fabs(n) * half;
    }
    return lown <= c->geom[p].margin + c->geom[p].gap;
}

int cs_collision_broadphase(cs_collision *c, const cs_pose *poses)
{
    c->ncand = 0;
    for (int k = 0; k < c->nsolid; k++) {
        int g = c->solid[k];
        geom_aabb(c->geom + g, poses + g, c->geom[g].margin + c->geom[g].gap, c->lo + 3 * g,
                  c->hi + 3 * g);
        c->order[k] = g;
    }
    /* sweep along the axis where the boxes are most spread (fewest overlaps) */
    double mean[3] = {0, 0, 0}, var[3] = {0, 0, 0};
    for (int k = 0; k < c->nsolid; k++)
        for (int i = 0; i < 3; i++)
            mean[i] += c->lo[3 * c->solid[k] + i];
    for (int i = 0; i < 3; i++)
        mean[i] /= c->nsolid > 0 ? c->nsolid : 1;
    for (int k = 0; k < c->nsolid; k++)
        for (int i = 0; i < 3; i++) {
            double d = c->lo[3 * c->solid[k] + i] - mean[i];
            var[i] += d * d;
        }
    int x = 0;
    for (int i = 1; i < 3; i++)
        if (var[i] > var[x])
            x = i;
    int y = (x + 1) % 3, z = (x + 2) % 3;
    sort_by(c->order, c->tmp, c->nsolid, c->lo + x, 3);
    for (int a = 0; a < c->nsolid; a++) {
        int i = c->order[a];
        const double *li = c->lo + 3 * i, *hi_ = c->hi + 3 * i;
        const uint64_t *row = c->pass ? c->pass + (size_t)c->six[i] * c->passw : NULL;
        for (int b = a + 1; b < c->nsolid; b++) {
            int j = c->order[b];
            const double *lj = c->lo + 3 * j, *hj = c->hi + 3 * j;
            if (lj[x] > hi_[x])
                break;
            if (row && !((row[c->six[j] >> 6] >> (c->six[j] & 63)) & 1))
                continue;
            if (lj[y] > hi_[y] || li[y] > hj[y] || lj[z] > hi_[z] || li[z] > hj[z])
                continue;
            if ((row || cs_collision_filter(c, i, j)) && !sleep_skip(c, i, j) &&
                !push_cand(c, key2(i, j)))
                return -1;
        }
    }
    for (int k = 0; k < c->nplane; k++) {
        int p = c->plane[k];
        for (int m = 0; m < c->nsolid; m++) {
            int g = c->solid[m];
            if (plane_hits(c, p, poses + p, g) && cs_collision_filter(c, p, g) &&
                !sleep_skip(c, p, g) && !push_cand(c, key2(p, g)))
                return -1;
        }
    }
    sort_u64(c->cand, c->candtmp, c->ncand);
    for (int k = 0; k < c->ncand; k++) {
        int i = (int)(c->cand[k] >> 32), j = (int)(c->cand[k] & 0xffffffffu);
        if (c->geom[i].type > c->geom[j].type) {
            int t = i;
            i = j;
            j = t;
        }
        c->candout[2 * k] = i;
        c->candout[2 * k + 1] = j;
    }
    return c->ncand;
}

const cs_hull *cs_collision_hull(const cs_collision *c, int g)
{
    if (g < 0 || g >= c->ngeom || c->geom[g].type != CS_GEOM_MESH || !has_hull(c->geom + g))
        return NULL;
    return &c->geom[g].hull;
}

const int *cs_collision_candidates(const cs_collision *c, int *n)
{
    *n = c->ncand;
    return c->candout;
}

/* dispatch table, MuJoCo order: [type1][type2] with type1 <= type2 */
static cs_narrow_fn table(int t1, int t2)
{
    switch (t1) {
    case CS_GEOM_PLANE:
        switch (t2) {
        case CS_GEOM_SPHERE:
            return cs_plane_sphere;
        case CS_GEOM_CAPSULE:
            return cs_plane_capsule;
        case CS_GEOM_ELLIPSOID:
            return cs_plane_ellipsoid;
        case CS_GEOM_CYLINDER:
            return cs_plane_cylinder;
        case CS_GEOM_BOX:
            return cs_plane_box;
        case CS_GEOM_MESH:
            return cs_plane_mesh;
        default:
            return NULL;
        }
    case CS_GEOM_SPHERE:
        switch (t2) {
        case CS_GEOM_SPHERE:
            return cs_sphere_sphere;
        case CS_GEOM_CAPSULE:
            return cs_sphere_capsule;
        case CS_GEOM_CYLINDER:
            return cs_sphere_cylinder;
        case CS_GEOM_BOX:
            return cs_sphere_box;
        default:
            return cs_convex_ccd;
        }
    case CS_GEOM_CAPSULE:
        switch (t2) {
        case CS_GEOM_CAPSULE:
            return cs_capsule_capsule;
        case CS_GEOM_BOX:
            return cs_capsule_box;
        default:
            return cs_convex_ccd;
        }
    case CS_GEOM_ELLIPSOID:
    case CS_GEOM_CYLINDER:
        return cs_convex_ccd;
    case CS_GEOM_BOX:
        return t2 == CS_GEOM_BOX ? cs_box_box : cs_convex_ccd;
    case CS_GEOM_MESH:
        return cs_convex_ccd;
    default: /* height fields: cs_collide_pair_hfield, with their grid */
        return NULL;
    }
}

int cs_collide_pair(const cs_collision *c, int type1, const double size1[3], const cs_pose *p1,
                    int type2, const double size2[3], const cs_pose *p2, double margin,
                    cs_geom_contact *out)
{
    return cs_collide_pair_hull(c, type1, size1, NULL, p1, type2, size2, NULL, p2, margin, out);
}

/* one narrow-phase function on a pair, with the collider's options (defaults without one)
 * and the contact frames made */
static int run_pair(const cs_collision *c, cs_narrow_fn fn, int type1, const double size1[3],
                    const cs_hull *hull1, const cs_pose *p1, int type2, const double size2[3],
                    const cs_hull *hull2, const cs_pose *p2, double margin,
                    cs_geom_contact *out)
{
    int hint1 = -1, hint2 = -1;
    cs_shape a = {type1, size1, p1->pos, p1->mat, hull1, &hint1, NULL, 0};
    cs_shape b = {type2, size2, p2->pos, p2->mat, hull2, &hint2, NULL, 0};
    cs_collision_options def;
    const cs_collision_options *opt = c ? &c->opt : NULL;
    if (!opt) {
        cs_collision_options_default(&def);
        opt = &def;
    }
    int n = fn(opt, &a, &b, margin, out);
    for (int k = 0; k < n; k++)
        cs_make_frame(out[k].frame);
    return n;
}

int cs_collide_pair_hull(const cs_collision *c, int type1, const double size1[3],
                         const cs_hull *hull1, const cs_pose *p1, int type2,
                         const double size2[3], const cs_hull *hull2, const cs_pose *p2,
                         double margin, cs_geom_contact *out)
{
    if (type1 > type2 || type1 < 0 || type2 >= CS_GEOM_NTYPES)
        return 0;
    if ((type1 == CS_GEOM_MESH && !hull1) || (type2 == CS_GEOM_MESH && !hull2))
        return 0;
    cs_narrow_fn fn = table(type1, type2);
    if (!fn)
        return 0;
    return run_pair(c, fn, type1, size1, hull1, p1, type2, size2, hull2, p2, margin, out);
}

int cs_collide_pair_hfield(const cs_collision *c, const cs_hfield *hf, const cs_pose *p1,
                           int type2, const double size2[3], const cs_hull *hull2,
                           const cs_pose *p2, double margin, cs_geom_contact *out)
{
    /* MuJoCo collides height fields with the convex types only (not planes or fields) */
    if (!hf || !hf->data || hf->nrow < 2 || hf->ncol < 2 || type2 <= CS_GEOM_HFIELD ||
        type2 >= CS_GEOM_NTYPES || (type2 == CS_GEOM_MESH && !hull2))
        return 0;
    int hint = -1;
    cs_shape b = {type2, size2, p2->pos, p2->mat, hull2, &hint, NULL, 0};
    cs_collision_options def;
    const cs_collision_options *opt = c ? &c->opt : NULL;
    if (!opt) {
        cs_collision_options_default(&def);
        opt = &def;
    }
    int n = cs_hfield_convex(opt, hf, p1, &b, margin, out);
    for (int k = 0; k < n; k++)
        cs_make_frame(out[k].frame);
    return n;
}

int cs_collide_pair_distance(const cs_collision *c, int type1, const double size1[3],
                             const cs_hull *hull1, const cs_pose *p1, int type2,
                             const double size2[3], const cs_hull *hull2, const cs_pose *p2,
                             double distmax, cs_geom_contact *out)
{
    if (type1 > type2 || type1 < 0 || type2 >= CS_GEOM_NTYPES)
        return 0;
    if ((type1 == CS_GEOM_MESH && !hull1) || (type2 == CS_GEOM_MESH && !hull2))
        return 0;
    cs_narrow_fn fn = table(type1, type2);
    /* the general convex pairs measure the gap of separated shapes exactly (the native
     * collider only sees overlaps of the margin-grown shapes) */
    if (fn == cs_convex_ccd)
        fn = cs_convex_distance;
    if (fn && (type1 != CS_GEOM_BOX || type2 != CS_GEOM_BOX))
        return run_pair(c, fn, type1, size1, hull1, p1, type2, size2, hull2, p2, distmax, out);
    if (!fn)
        return 0;
    /* boxes apart: the box-box clipper reports touching faces only, the general convex path
     * the distance (MuJoCo measures box pairs with its convex collider too) */
    return run_pair(c, cs_convex_distance, type1, size1, hull1, p1, type2, size2, hull2, p2,
                    distmax, out);
}

/* narrow phase of one pair (g1, g2 already in MuJoCo order), append to con */
static int emit(const cs_collision *c, const cs_pose *poses, int g1, int g2, int ipair,
                cs_geom_contact *con, int maxcon, int ncon, int *dropped)
{
    const cs_collision_geom *a = c->geom + g1, *b = c->geom + g2;
    double margin, gap;
    if (ipair >= 0) {
        margin = c->pair[ipair].margin;
        gap = c->pair[ipair].gap;
    } else {
        /* MuJoCo 3.12 sums them: a geom's margin inflates its own surface */
        margin = a->margin + b->margin;
        gap = a->gap + b->gap;
    }
    cs_geom_contact buf[CS_MAXCONPAIR];
    int n = a->type == CS_GEOM_HFIELD
                ? cs_collide_pair_hfield(c, &a->hfield, poses + g1, b->type, b->size,
                                         b->type == CS_GEOM_MESH ? &b->hull : NULL, poses + g2,
                                         margin + gap, buf)
                : cs_collide_pair_hull(c, a->type, a->size,
                                       a->type == CS_GEOM_MESH ? &a->hull : NULL, poses + g1,
                                       b->type, b->size, b->type == CS_GEOM_MESH ? &b->hull : NULL,
                                       poses + g2, margin + gap, buf);
    for (int k = 0; k < n; k++) {
        if (ncon >= maxcon) {
            *dropped += n - k;
            break;
        }
        cs_geom_contact *o = con + ncon++;
        memcpy(o->pos, buf[k].pos, sizeof o->pos);
        memcpy(o->frame, buf[k].frame, sizeof o->frame);
        o->dist = buf[k].dist;
        o->geom1 = g1;
        o->geom2 = g2;
        o->pair = ipair;
        o->margin = margin;
        o->gap = gap;
        if (ipair >= 0) {
            const cs_collision_pair *p = c->pair + ipair;
            o->dim = p->condim;
            for (int i = 0; i < 5; i++) {
                o->friction[i] = cs_fmax(p->friction[i], CS_MINMU);
                o->solimp[i] = p->solimp[i];
            }
            for (int i = 0; i < 2; i++) {
                o->solref[i] = p->solref[i];
                o->solreffriction[i] = p->solreffriction[i];
            }
            o->adhesion = p->adhesion;
        } else {
            cs_mix_params(a, b, o);
        }
    }
    return ncon;
}

/* explicit pair: AABBs inflated by the pair's margin + gap must overlap (planes: half-space) */
static int pair_near(const cs_collision *c, const cs_pose *poses, int g1, int g2, double m)
{
    double l1[3], h1[3], l2[3], h2[3];
    const cs_collision_geom *a = c->geom + g1, *b = c->geom + g2;
    geom_aabb(a, poses + g1, 0, l1, h1);
    geom_aabb(b, poses + g2, 0, l2, h2);
    for (int i = 0; i < 3; i++)
        if (l2[i] > h1[i] + m || l1[i] > h2[i] + m)
            return 0;
    return 1;
}

int cs_collision_detect(cs_collision *c, const cs_pose *poses, cs_geom_contact *con, int maxcon,
                        int *dropped)
{
    int drop = 0, ncon = 0;
    if (cs_collision_broadphase(c, poses) < 0) {
        if (dropped)
            *dropped = -1;
        return 0;
    }
    /* explicit pairs are merged into the candidate order by their geom-pair key */
    int kp = 0;
    for (int k = 0; k <= c->ncand; k++) {
        uint64_t key = k < c->ncand ? c->cand[k] : UINT64_MAX;
        for (; kp < c->npair && c->pairkey[kp] <= key; kp++) {
            int pi = c->pairorder[kp];
            int g1 = c->pair[pi].geom1, g2 = c->pair[pi].geom2;
            if (c->geom[g1].type > c->geom[g2].type) {
                int t = g1;
                g1 = g2;
                g2 = t;
            }
            if (c->sleep && c->sleep[g1] && c->sleep[g2])
                continue;
            if (pair_near(c, poses, g1, g2, c->pair[pi].margin + c->pair[pi].gap))
                ncon = emit(c, poses, g1, g2, pi, con, maxcon, ncon, &drop);
        }
        if (k == c->ncand)
            break;
        int g1 = c->candout[2 * k], g2 = c->candout[2 * k + 1];
        ncon = emit(c, poses, g1, g2, -1, con, maxcon, ncon, &drop);
    }
    if (dropped)
        *dropped = drop;
    return ncon;
}
