/* The solve in stages: prepare (islands; per block W = M^-1 J^T and G = J W + R), then per
 * island, on the pool's threads: warm start and sweep (pgs.c) or iterate (newton.c), store
 * (forces and zones onto the blocks), and statistics when asked. */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cs_solver_opts_default(cs_solver_opts *o)
{
    o->type = CS_METHOD_PGS;
    o->max_iter = 100;
    o->tolerance = 1e-8;
    o->exact_block = 1;
    o->blocking = CS_PGS_BLOCK_PAIR;
    o->newton_dense_max = 0;
    o->polish_after = 0;
    o->stats = 0;
    o->timestep = 0;
    o->coulomb_cone = CS_CONE_ELLIPTIC;
}

#define DMAX_DEFAULT 192

/* a thread's per-block scratch for trees of up to maxtd dofs */
static double *thread_scratch(double *old, int maxtd)
{
    return cs_realloc(old, sizeof(double) * (2 * CS_MAXROWS * (size_t)(maxtd > 0 ? maxtd : 1)));
}

static void free_threads(cs_solver_ws *w)
{
    cs_pool_free(w->pool);
    w->pool = NULL;
    if (w->tws)
        for (int i = 0; i < w->nthread; i++) {
            cs_free(w->tws[i].H);
            cs_free(w->tws[i].x);
            cs_free(w->tws[i].first);
            cs_free(w->tws[i].scr);
        }
    cs_free(w->tws);
    w->tws = NULL;
    w->nthread = 0;
}

int cs_solver_set_threads(cs_solver_ws *w, int n)
{
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
    }
    if (n > 64) n = 64;
    if (n == w->nthread && w->pool) return n;
    free_threads(w);
    w->tws = cs_calloc((size_t)n, sizeof *w->tws);
    if (!w->tws) return -1;
    w->nthread = n;
    size_t d = (size_t)w->dmax;
    for (int i = 0; i < n; i++) {
        w->tws[i].H = cs_malloc(sizeof(double) * (d * d + 1));
        w->tws[i].x = cs_malloc(sizeof(double) * (d + 1));
        w->tws[i].first = cs_malloc(sizeof(int) * (d + 1));
        w->tws[i].cap = w->dmax;
        w->tws[i].scr = thread_scratch(NULL, w->maxtd);
        if (!w->tws[i].H || !w->tws[i].x || !w->tws[i].first || !w->tws[i].scr) {
            free_threads(w);
            return -1;
        }
    }
    w->pool = cs_pool_create(n);
    if (!w->pool) {
        free_threads(w);
        return -1;
    }
    return n;
}

cs_solver_ws *cs_solver_create(int nv, int ntree)
{
    cs_solver_ws *w = cs_calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t n = (size_t)(nv > 0 ? nv : 1), nt = (size_t)(ntree > 0 ? ntree : 1);
    w->nv = nv;
    w->ntree = ntree;
    w->dmax = DMAX_DEFAULT < nv ? DMAX_DEFAULT : (nv > 0 ? nv : 1);
    int ok = (w->a = cs_malloc(sizeof(double) * n)) && (w->grad = cs_malloc(sizeof(double) * n)) &&
             (w->dir = cs_malloc(sizeof(double) * n)) && (w->Mdir = cs_malloc(sizeof(double) * n)) &&
             (w->tmp = cs_calloc(n, sizeof(double))) && (w->pcg = cs_malloc(sizeof(double) * 4 * n)) &&
             (w->dof_local = cs_malloc(sizeof(int) * n)) && (w->uf = cs_malloc(sizeof(int) * nt)) &&
             (w->tree_island = cs_malloc(sizeof(int) * nt)) &&
             (w->tadjadr = cs_malloc(sizeof(int) * (nt + 1))) && (w->tnext = cs_malloc(sizeof(int) * nt)) &&
             (w->tree_Padr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_tree_adr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_tree_num = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_trees = cs_malloc(sizeof(int) * nt)) && (w->isl_nv = cs_malloc(sizeof(int) * nt)) &&
             (w->isl_block_adr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_block_num = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->ist = cs_malloc(sizeof(cs_island_stats) * nt));
    if (!ok || cs_solver_set_threads(w, 1) < 0) {
        cs_solver_free(w);
        return NULL;
    }
    w->P = NULL; /* sized by the trees at the first solve (cs_solve knows them) */
    return w;
}

void cs_solver_free(cs_solver_ws *w)
{
    if (!w) return;
    free_threads(w);
    cs_i_coulomb_free(w); /* CS_METHOD_COULOMB */
    void *arr[] = {w->a, w->grad, w->dir, w->Mdir, w->tmp, w->pcg, w->dof_local, w->uf,
                   w->tree_island, w->tree_Padr, w->tadjadr, w->tadj, w->tnext, w->P, w->isl_tree_adr, w->isl_tree_num,
                   w->isl_trees, w->isl_nv, w->isl_block_adr, w->isl_block_num, w->isl_blocks,
                   w->ist, w->W, w->G, w->Hl, w->Gadr, w->bqp, w->bqp_ok, w->jres, w->Jd, w->fold, w->gord,
                   w->gadr, w->gvalid, w->gsig, w->gsc0, w->gsc1, w->gkey, w->gfac, w->gj0, w->gf0,
                   w->gf1, w->Hd, w->hp_ord, w->hp_tree, w->hp_blk, w->hp_adr, w->hp_key,
                   w->offadr, w->Hoff};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(w);
}

const cs_island_stats *cs_solver_island(const cs_solver_ws *w, int i)
{
    return (i >= 0 && i < w->nisland) ? &w->ist[i] : NULL;
}

/* ---- block pieces ------------------------------------------------------------------- */

void cs_efc_decode(const cs_efc *e, int k, const double *f, double *force)
{
    memset(force, 0, sizeof(double) * CS_MAXDIM);
    const double *fr = e->blk_friction + 5 * k;
    if (e->blk_kind[k] == CS_BLOCK_PYRAMIDAL) {
        /* docs/contact-math.md §5: f_n = sum of edges, phi_j = mu_j (alpha_j+ - alpha_j-) */
        for (int j = 0; j < e->blk_dim[k] - 1; j++) {
            force[0] += f[2 * j] + f[2 * j + 1];
            force[1 + j] = fr[j] * (f[2 * j] - f[2 * j + 1]);
        }
    } else { /* elliptic: the frame components; frictionless and joint rows: one force */
        for (int j = 0; j < e->blk_nrow[k]; j++) force[j] = f[j];
    }
}

/* A friction-loss row's Huber response (MuJoCo's mj_constraintUpdate_impl,
 * mjCNSTR_FRICTION_DOF): quadratic for |j| < R F, linear (force at the bound, no curvature)
 * beyond, the borders going to the linear zones. */
static cs_zone floss_soft(double j, double R, double F, double *f, double *cost, double *curv)
{
    if (j <= -R * F) {
        *f = F;
        *cost = -0.5 * R * F * F - F * j;
        *curv = 0;
        return CS_ZONE_LINEARNEG;
    }
    if (j >= R * F) {
        *f = -F;
        *cost = -0.5 * R * F * F + F * j;
        *curv = 0;
        return CS_ZONE_LINEARPOS;
    }
    *f = -j / R;
    *cost = 0.5 * j * j / R;
    *curv = 1 / R;
    return CS_ZONE_BOTTOM;
}

cs_zone cs_efc_soft(const cs_efc *e, int k, const double *j, double *f, double *cost,
                    double *hess)
{
    int n = e->blk_nrow[k];
    const double *R = e->R + e->blk_row[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
        double curv;
        cs_zone z = floss_soft(j[0], R[0], e->frictionloss[e->blk_row[k]], f, cost, &curv);
        if (hess) hess[0] = curv;
        return z;
    }
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) {
        /* frictionless, pyramid edges, limits */
        if (hess) memset(hess, 0, sizeof(double) * n * n);
        /* independent rows: l = j^2/(2R) for j < 0 */
        double c = 0;
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (j[i] < 0) {
                f[i] = -j[i] / R[i];
                c += 0.5 * j[i] * j[i] / R[i];
                if (hess) hess[i * n + i] = 1 / R[i];
                any = 1;
            } else {
                f[i] = 0;
            }
        }
        *cost = c;
        return any ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    }
    /* elliptic: the §7 closed form (R_j = kappa / friction_j^2, as the rows set them) */
    return cs_soft_cone(n - 1, j, R[0], e->blk_friction + 5 * k, e->blk_kappa[k], f, cost, hess);
}

/* In-place heapsort: glibc's qsort may malloc a merge buffer, and a step allocates
 * nothing. */
static void sift(long long *v, int i, int n)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && v[c + 1] > v[c]) c++;
        if (v[i] >= v[c]) return;
        long long t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

void cs_i_sort_ll(long long *v, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) sift(v, i, n);
    for (int e = n - 1; e > 0; e--) {
        long long t = v[0];
        v[0] = v[e];
        v[e] = t;
        sift(v, 0, e);
    }
}

cs_zone cs_efc_soft_dir(const cs_efc *e, int k, const double *j, const double *dj, double *fdj,
                        double *djhdj)
{
    int n = e->blk_nrow[k];
    const double *R = e->R + e->blk_row[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
        double f, c, curv;
        cs_zone z = floss_soft(j[0], R[0], e->frictionloss[e->blk_row[k]], &f, &c, &curv);
        *fdj = f * dj[0];
        *djhdj = curv * dj[0] * dj[0];
        return z;
    }
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) {
        double a = 0, b = 0;
        for (int i = 0; i < n; i++)
            if (j[i] < 0) {
                a -= j[i] / R[i] * dj[i];
                b += dj[i] * dj[i] / R[i];
            }
        *fdj = a;
        *djhdj = b;
        return b > 0 ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    }
    return cs_soft_cone_dir(n - 1, j, dj, R[0], e->blk_friction + 5 * k, e->blk_kappa[k], fdj,
                            djhdj);
}

void cs_i_resid(const cs_efc *e, int k, const double *a, double *j)
{
    int r0 = e->blk_row[k];
    for (int r = 0; r < e->blk_nrow[k]; r++) {
        int adr = e->J_rowadr[r0 + r], nnz = e->J_rownnz[r0 + r];
        const double *J = e->J + adr;
        const int *ci = e->J_colind + adr;
        double v = -e->aref[r0 + r];
        for (int q = 0; q < nnz; q++) v += J[q] * a[ci[q]];
        j[r] = v;
    }
}

void cs_i_apply(const cs_solver_ws *w, const cs_efc *e, int k, const double *d, double *a)
{
    int r0 = e->blk_row[k], adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    for (int r = 0; r < e->blk_nrow[k]; r++) {
        if (d[r] == 0) continue;
        const double *W = w->W + adr + r * nnz; /* rows of a block are contiguous */
        for (int q = 0; q < nnz; q++) a[ci[q]] += W[q] * d[r];
    }
}

void cs_i_mass_mul(const cs_solver_ws *w, const cs_problem *p, int isl, double *y,
                   const double *x)
{
    const cs_mass *M = p->M;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr];
        cs_mass_mul(M, y, x, lo, lo + M->tree_dofnum[tr]);
    }
}

double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a)
{
    const cs_mass *M = p->M;
    double c = 0, *d = w->tmp, *Md = w->Mdir, j[CS_MAXROWS], f[CS_MAXROWS], l;
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
        for (int q = lo; q < hi; q++) d[q] = a[q] - p->a0[q];
        cs_mass_mul(M, Md, d, lo, hi);
        for (int q = lo; q < hi; q++) c += 0.5 * d[q] * Md[q];
    }
    const cs_efc *e = p->efc;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_i_resid(e, k, a, j);
        cs_efc_soft(e, k, j, f, &l, NULL);
        c += l;
    }
    return c;
}

double cs_i_scale(const cs_solver_ws *w, const cs_problem *p, int isl)
{
    int nv = w->isl_nv[isl];
    return 1 / (p->meaninertia * (nv > 1 ? nv : 1));
}

/* ---- statistics ---------------------------------------------------------------------- */

static double cone_violation(const cs_efc *e, int k, const double *f)
{
    double v = 0;
    int n = e->blk_nrow[k];
    if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) /* the box */
        return fmax(0, fabs(f[0]) - e->frictionloss[e->blk_row[k]]);
    if (e->blk_kind[k] != CS_BLOCK_ELLIPTIC) { /* one-sided rows */
        for (int r = 0; r < n; r++) v = fmax(v, -f[r]);
        return v;
    }
    const double *fr = e->blk_friction + 5 * k;
    double s = 0;
    for (int j = 0; j < n - 1; j++) s += (f[1 + j] / fr[j]) * (f[1 + j] / fr[j]);
    return fmax(fmax(0, -f[0]), sqrt(s) - f[0]);
}

/* Residuals of an island's final state (forces in e->force, acceleration w->a). Uses the
 * island's dofs of w->grad and w->dir as scratch. */
static void island_stats(cs_solver_ws *w, const cs_problem *p, int isl)
{
    cs_island_stats *st = &w->ist[isl];
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    double *af = w->grad, *d = w->dir; /* a(f) = a0 + M^-1 J^T f */
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
        for (int q = lo; q < hi; q++) af[q] = p->a0[q];
    }
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b];
        cs_i_apply(w, e, k, e->force + e->blk_row[k], af);
    }
    double dual = 0, comp = 0, feas = 0, stat = 0, j[CS_MAXROWS], j0[CS_MAXROWS],
           ja[CS_MAXROWS], fs[CS_MAXROWS], l;
    for (int b = 0; b < nbk; b++) {
        int k = w->isl_blocks[badr + b], r0 = e->blk_row[k], n = e->blk_nrow[k];
        const double *f = e->force + r0;
        cs_i_resid(e, k, af, j);
        cs_i_resid(e, k, p->a0, j0);
        double c = 0;
        for (int r = 0; r < n; r++) {
            /* f.(J a0 - aref) + 1/2 f.(J (a_f - a0) + R f) */
            dual += f[r] * (0.5 * (j[r] + j0[r]) + 0.5 * e->R[r0 + r] * f[r]);
            c += f[r] * (j[r] + e->R[r0 + r] * f[r]);
        }
        if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
            /* the box's multipliers: the dual gradient g = j + R f pushes toward one bound
             * (g > 0: -F, g < 0: +F); its size times the distance to that bound */
            double g = j[0] + e->R[r0] * f[0], F = e->frictionloss[r0];
            c = g > 0 ? g * (f[0] + F) : -g * (F - f[0]);
        }
        comp += fabs(c);
        feas = fmax(feas, cone_violation(e, k, f));
        cs_i_resid(e, k, w->a, ja);
        cs_efc_soft(e, k, ja, fs, &l, NULL);
        for (int r = 0; r < n; r++) stat = fmax(stat, fabs(fs[r] - f[r]));
    }
    /* Newton's law residual M (a - a0) - J^T f = M (a - a(f)) */
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
        for (int q = lo; q < hi; q++) d[q] = w->a[q] - af[q];
        cs_mass_mul(M, af, d, lo, hi); /* af is free again */
        for (int q = lo; q < hi; q++) stat = fmax(stat, fabs(af[q]));
    }
    st->primal_cost = cs_i_primal(w, p, isl, w->a);
    st->dual_cost = dual;
    st->feasibility = feas;
    st->stationarity = stat;
    st->complementarity = comp;
}

/* ---- prepare ------------------------------------------------------------------------- */

static int find(int *par, int x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

/* exact-size (re)allocation of per-step arrays; their capacity is tracked by the caller */
static int resize(void **p, size_t elem, int n)
{
    void *q = cs_realloc(*p, elem * (size_t)(n > 0 ? n : 1));
    if (!q) return -1;
    *p = q;
    return 0;
}

static int more(int need) { return need + need / 2 + 16; }

/* Per-step storage for the step's rows, nonzeros, blocks: grows when a step needs more
 * than any before, then is reused. */
static int reserve(cs_solver_ws *w, const cs_efc *e)
{
    int nnz = e->nnz, nefc = e->nefc, nb = e->nblock, nG = 0, noff = 0;
    for (int k = 0; k < nb; k++) {
        nG += e->blk_nrow[k] * e->blk_nrow[k];
        noff += e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1]; /* two-tree curvature blocks */
    }
    if (nnz > w->cap_nnz) {
        int c = more(nnz);
        if (resize((void **)&w->W, sizeof(double), c)) return -1;
        w->cap_nnz = c;
    }
    if (nG > w->cap_G) {
        int c = more(nG);
        if (resize((void **)&w->G, sizeof(double), c) || resize((void **)&w->Hl, sizeof(double), c))
            return -1;
        w->cap_G = c;
    }
    if (nefc > w->cap_efc) {
        int c = more(nefc);
        if (resize((void **)&w->jres, sizeof(double), c) || resize((void **)&w->Jd, sizeof(double), c) ||
            resize((void **)&w->fold, sizeof(double), c))
            return -1;
        w->cap_efc = c;
    }
    if (noff > w->cap_off || !w->Hoff) {
        int c = more(noff);
        if (resize((void **)&w->Hoff, sizeof(double), c)) return -1;
        w->cap_off = c;
    }
    if (nb > w->cap_block) {
        int c = more(nb);
        size_t si = sizeof(int), sd = sizeof(double);
        if (resize((void **)&w->hp_ord, si, c) || resize((void **)&w->hp_tree, si, 2 * c) ||
            resize((void **)&w->hp_blk, si, 2 * c + 1) || resize((void **)&w->hp_adr, si, c) ||
            resize((void **)&w->hp_key, sizeof(long long), c) || resize((void **)&w->offadr, si, c))
            return -1;
        if (resize((void **)&w->Gadr, si, c) || resize((void **)&w->isl_blocks, si, c) ||
            resize((void **)&w->bqp, sizeof(cs_bqp), c) || resize((void **)&w->bqp_ok, si, c) ||
            resize((void **)&w->gord, si, c) || resize((void **)&w->gadr, si, 2 * c + 1) ||
            resize((void **)&w->gvalid, si, c) || resize((void **)&w->gsig, si, c) ||
            resize((void **)&w->gsc0, si, c) || resize((void **)&w->gsc1, si, c) ||
            resize((void **)&w->gkey, sizeof(long long), c) || resize((void **)&w->tadj, si, 2 * c) ||
            resize((void **)&w->gfac, sd, CS_GFAC * c) ||
            resize((void **)&w->gj0, sd, CS_MAXROWS * c) || resize((void **)&w->gf0, sd, CS_MAXROWS * c) ||
            resize((void **)&w->gf1, sd, CS_MAXROWS * c))
            return -1;
        w->cap_block = c;
    }
    for (int k = 0, a = 0, o = 0; k < nb; k++) {
        w->Gadr[k] = a;
        a += e->blk_nrow[k] * e->blk_nrow[k];
        w->offadr[k] = o;
        o += e->blk_ndof[2 * k] * e->blk_ndof[2 * k + 1];
    }
    return 0;
}

/* Union-find over trees joined by blocks; islands numbered in order of their first block,
 * so a single-island problem keeps the rows' order (MuJoCo's sweep order). */
static void make_islands(cs_solver_ws *w, const cs_problem *p)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int nt = M->ntree;
    for (int i = 0; i < nt; i++) {
        w->uf[i] = i;
        w->tree_island[i] = -1;
    }
    for (int k = 0; k < e->nblock; k++) {
        int t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 >= 0 && t1 >= 0) {
            int r0 = find(w->uf, t0), r1 = find(w->uf, t1);
            if (r0 != r1) w->uf[r1 > r0 ? r1 : r0] = r1 > r0 ? r0 : r1;
        }
    }
    int nis = 0;
    for (int k = 0; k < e->nblock; k++) {
        int t = e->blk_tree[2 * k] >= 0 ? e->blk_tree[2 * k] : e->blk_tree[2 * k + 1];
        if (t < 0) continue; /* no dofs: the caller keeps such blocks out */
        int root = find(w->uf, t);
        if (w->tree_island[root] < 0) w->tree_island[root] = nis++;
    }
    for (int i = 0; i < nt; i++) w->tree_island[i] = w->tree_island[find(w->uf, i)];
    w->nisland = nis;
    for (int i = 0; i <= nis; i++) w->isl_tree_num[i] = w->isl_block_num[i] = 0;
    for (int i = 0; i < nis; i++) w->isl_nv[i] = 0;
    for (int i = 0; i < nt; i++)
        if (w->tree_island[i] >= 0) {
            w->isl_tree_num[w->tree_island[i]]++;
            w->isl_nv[w->tree_island[i]] += M->tree_dofnum[i];
        }
    for (int k = 0; k < e->nblock; k++) {
        int t = e->blk_tree[2 * k] >= 0 ? e->blk_tree[2 * k] : e->blk_tree[2 * k + 1];
        if (t >= 0) w->isl_block_num[w->tree_island[t]]++;
    }
    int at = 0, ab = 0;
    for (int i = 0; i < nis; i++) {
        w->isl_tree_adr[i] = at;
        w->isl_block_adr[i] = ab;
        at += w->isl_tree_num[i];
        ab += w->isl_block_num[i];
        w->isl_tree_num[i] = w->isl_block_num[i] = 0;
    }
    for (int i = 0; i < nt; i++) {
        int is = w->tree_island[i];
        if (is >= 0) w->isl_trees[w->isl_tree_adr[is] + w->isl_tree_num[is]++] = i;
    }
    for (int k = 0; k < e->nblock; k++) {
        int t = e->blk_tree[2 * k] >= 0 ? e->blk_tree[2 * k] : e->blk_tree[2 * k + 1];
        if (t < 0) continue;
        int is = w->tree_island[t];
        w->isl_blocks[w->isl_block_adr[is] + w->isl_block_num[is]++] = k;
    }
    /* trees joined by blocks, as lists per tree (Newton orders an island's dofs by it) */
    for (int i = 0; i <= nt; i++) w->tadjadr[i] = 0;
    for (int k = 0; k < e->nblock; k++) {
        int t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 >= 0 && t1 >= 0 && t0 != t1) {
            w->tadjadr[t0 + 1]++;
            w->tadjadr[t1 + 1]++;
        }
    }
    for (int i = 0; i < nt; i++) w->tadjadr[i + 1] += w->tadjadr[i];
    for (int i = 0; i < nt; i++) w->uf[i] = w->tadjadr[i]; /* fill positions */
    for (int k = 0; k < e->nblock; k++) {
        int t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        if (t0 >= 0 && t1 >= 0 && t0 != t1) {
            w->tadj[w->uf[t0]++] = t1;
            w->tadj[w->uf[t1]++] = t0;
        }
    }
}

/* W = M^-1 J^T and G = J W + R of block k. The rows span their trees' dofs, so scattering
 * a row into w->tmp sets every dof the tree solves read. */
static void prepare_block(cs_solver_ws *w, const cs_problem *p, int k)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int r0 = e->blk_row[k], n = e->blk_nrow[k];
    int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    double *x = w->tmp;
    for (int r = 0; r < n; r++) {
        const double *J = e->J + adr + r * nnz;
        double *W = w->W + adr + r * nnz;
        for (int q = 0; q < nnz; q++) x[ci[q]] = J[q];
        for (int s = 0; s < 2; s++) {
            int lo = e->blk_dofadr[2 * k + s], nd = e->blk_ndof[2 * k + s];
            if (nd) cs_mass_solve(M, x, lo, lo + nd);
        }
        for (int q = 0; q < nnz; q++) W[q] = x[ci[q]];
    }
    double *G = w->G + w->Gadr[k];
    for (int r = 0; r < n; r++) {
        const double *Jr = e->J + adr + r * nnz;
        for (int c = 0; c <= r; c++) {
            const double *Wc = w->W + adr + c * nnz;
            double v = 0;
            for (int q = 0; q < nnz; q++) v += Jr[q] * Wc[q];
            G[r * n + c] = G[c * n + r] = v;
        }
        G[r * n + r] += e->R[r0 + r];
    }
    /* the exact elliptic block solve's per-step part (only PGS sweeps use it) */
    w->bqp_ok[k] = w->o->type == CS_METHOD_PGS && e->blk_kind[k] == CS_BLOCK_ELLIPTIC &&
                   cs_bqp_prepare(&w->bqp[k], n, G, e->blk_friction + 5 * k) == 0;
}

/* store: row forces -> contact-frame forces and zones at the final acceleration */
static void store_island(cs_solver_ws *w, const cs_problem *p, int isl)
{
    cs_efc *e = p->efc;
    double j[CS_MAXROWS], fs[CS_MAXROWS], l;
    for (int b = 0; b < w->isl_block_num[isl]; b++) {
        int k = w->isl_blocks[w->isl_block_adr[isl] + b];
        cs_i_resid(e, k, w->a, j);
        e->blk_zone[k] = cs_efc_soft(e, k, j, fs, &l, NULL);
        cs_efc_decode(e, k, e->force + e->blk_row[k], e->blk_force + CS_MAXDIM * k);
    }
}

static void solve_island(void *arg, int thread, int isl)
{
    cs_solver_ws *w = arg;
    const cs_problem *p = w->p;
    const cs_mass *M = p->M;
    cs_island_stats *st = &w->ist[isl];
    memset(st, 0, sizeof *st);
    st->ntree = w->isl_tree_num[isl];
    st->nblock = w->isl_block_num[isl];
    st->nv = w->isl_nv[isl];
    for (int t = 0; t < w->isl_tree_num[isl]; t++) {
        int tr = w->isl_trees[w->isl_tree_adr[isl] + t];
        int lo = M->tree_dofadr[tr], hi = lo + M->tree_dofnum[tr];
        for (int q = lo; q < hi; q++) w->a[q] = p->a0[q];
    }
    if (w->o->type == CS_METHOD_COULOMB) { /* the Coulomb-exact model: its own method */
        cs_i_coulomb(w, &w->tws[thread], isl);
        for (int b = 0; b < w->isl_block_num[isl]; b++) {
            int k = w->isl_blocks[w->isl_block_adr[isl] + b];
            cs_efc_decode(p->efc, k, p->efc->force + p->efc->blk_row[k],
                          p->efc->blk_force + CS_MAXDIM * k);
        }
        if (w->o->stats) cs_i_coulomb_stats(w, p, isl);
        return;
    }
    /* W and G serve the sweeps (and the statistics' dual cost); Newton works from J */
    if (w->o->type != CS_METHOD_NEWTON || w->o->stats)
        for (int b = 0; b < w->isl_block_num[isl]; b++)
            prepare_block(w, p, w->isl_blocks[w->isl_block_adr[isl] + b]);
    if (w->o->type == CS_METHOD_NEWTON)
        cs_i_newton(w, &w->tws[thread], isl);
    else
        cs_i_pgs(w, &w->tws[thread], isl);
    store_island(w, p, isl);
    if (w->o->stats) island_stats(w, p, isl);
}

int cs_solve(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, const double *a_warm,
             double *a_out, cs_solve_stats *st)
{
    const cs_mass *M = p->M;
    cs_efc *e = p->efc;
    memset(st, 0, sizeof *st);
    if (M->nv != w->nv || M->ntree > w->ntree) return -1;
    for (int k = 0; k < e->nblock; k++) /* every side is a whole tree of M (or static) */
        for (int s = 0; s < 2; s++) {
            int t = e->blk_tree[2 * k + s];
            if (t >= M->ntree || (t >= 0 && (e->blk_dofadr[2 * k + s] != M->tree_dofadr[t] ||
                                             e->blk_ndof[2 * k + s] != M->tree_dofnum[t])))
                return -1;
        }
    /* the threads' per-block scratch, sized by the largest tree */
    int maxtd = 0;
    for (int t = 0; t < M->ntree; t++)
        if (M->tree_dofnum[t] > maxtd) maxtd = M->tree_dofnum[t];
    if (maxtd > w->maxtd) {
        for (int i = 0; i < w->nthread; i++) {
            double *s = thread_scratch(w->tws[i].scr, maxtd);
            if (!s) return CS_SOLVE_NOMEM;
            w->tws[i].scr = s;
        }
        w->maxtd = maxtd;
    }
    /* Newton CG's per-tree preconditioner blocks, laid out for this forest */
    int nP = 0;
    for (int t = 0; t < M->ntree; t++) nP += M->tree_dofnum[t] * M->tree_dofnum[t];
    if (!w->P || !w->Hd || nP != w->tree_Padr[M->ntree]) {
        double *P = cs_realloc(w->P, sizeof(double) * (size_t)(nP + 1));
        if (!P) return CS_SOLVE_NOMEM;
        w->P = P;
        double *Hd = cs_realloc(w->Hd, sizeof(double) * (size_t)(nP + 1));
        if (!Hd) return CS_SOLVE_NOMEM;
        w->Hd = Hd;
        for (int t = 0, a = 0; t < M->ntree; t++) {
            w->tree_Padr[t] = a;
            a += M->tree_dofnum[t] * M->tree_dofnum[t];
        }
        w->tree_Padr[M->ntree] = nP;
    }
    if (reserve(w, e)) return CS_SOLVE_NOMEM;
    if (o->type == CS_METHOD_COULOMB && cs_i_coulomb_begin(w, e)) return CS_SOLVE_NOMEM;
    double tr = 0;
    for (int i = 0; i < M->nv; i++) tr += M->qM[M->dof_Madr[i]];
    cs_problem ps = *p;
    if (!(ps.meaninertia > 0)) ps.meaninertia = M->nv ? tr / M->nv : 1;
    memcpy(w->a, p->a0, sizeof(double) * (size_t)M->nv);
    for (int k = 0; k < e->nblock; k++) {
        e->blk_zone[k] = CS_ZONE_TOP;
        memset(e->blk_force + CS_MAXDIM * k, 0, sizeof(double) * CS_MAXDIM);
    }
    for (int r = 0; r < e->nefc; r++) e->force[r] = 0;
    make_islands(w, &ps);
    w->p = &ps;
    w->o = o;
    w->a_warm = a_warm;
    cs_pool_run(w->pool, w->nisland, solve_island, w);
    if (o->type == CS_METHOD_COULOMB) cs_i_coulomb_end(w, e);
    w->p = NULL;
    st->nisland = w->nisland;
    for (int i = 0; i < w->nisland; i++) { /* in island order: the same for any thread count */
        const cs_island_stats *is = &w->ist[i];
        if (is->iterations > st->iterations) st->iterations = is->iterations;
        st->improvement = fmax(st->improvement, is->improvement);
        st->primal_cost += is->primal_cost;
        st->dual_cost += is->dual_cost;
        st->feasibility = fmax(st->feasibility, is->feasibility);
        st->stationarity = fmax(st->stationarity, is->stationarity);
        st->complementarity += is->complementarity;
    }
    memcpy(a_out, w->a, sizeof(double) * (size_t)M->nv);
    return 0;
}
