/* The driver: the solve in stages (cs_solve_stage: prepare, warm start, iterate, store,
 * statistics), each method from the table (methods.c) through its hooks. The stages that
 * run per island run on the pool's threads, one island per thread at a time; the driver
 * composes the methods (the plan's method, then its finishing method when it asks) and
 * owns every default (cs_solver_opts_default). */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The defaults of every option, in one place (the MJCF loader takes its defaults from
 * here): MuJoCo's where MuJoCo has the option (iterations, tolerance, the line search's);
 * conesim's own PGS: exact block solves, pair blocks, the Newton finish after 5 sweeps. */
void cs_solver_opts_default(cs_solver_opts *o)
{
    o->type = CS_METHOD_PGS;
    o->max_iter = 100;
    o->tolerance = 1e-8;
    o->exact_block = 1;
    o->blocking = CS_PGS_BLOCK_PAIR;
    o->newton_dense_max = 0;
    o->finish_after = 5;
    o->newton_early = 1;
    o->newton_tree = 1;
    o->ls_iterations = 50;
    o->ls_tolerance = 0.01;
    o->islands = 1;
    o->stats = 0;
    o->timestep = 0;
    o->coulomb_cone = CS_CONE_ELLIPTIC;
    o->coulomb_method = CS_COULOMB_AUTO;
    o->noslip_iterations = 0;
    o->noslip_tolerance = 1e-6;
}

int cs_solver_set_threads(cs_solver_ws *w, int n)
{
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
    }
    if (n > 64) n = 64;
    if (n == w->nthread && w->pool) return n;
    cs_pool_free(w->pool);
    w->pool = cs_pool_create(n);
    if (!w->pool) {
        w->nthread = 0;
        return -1;
    }
    w->nthread = n; /* the methods' per-thread scratch follows at the next solve */
    return n;
}

cs_solver_ws *cs_solver_create(int nv, int ntree)
{
    cs_solver_ws *w = cs_calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t n = (size_t)(nv > 0 ? nv : 1), nt = (size_t)(ntree > 0 ? ntree : 1);
    w->nv = nv;
    w->ntree = ntree;
    int ok = (w->a = cs_malloc(sizeof(double) * n)) && (w->s0 = cs_calloc(n, sizeof(double))) &&
             (w->s1 = cs_malloc(sizeof(double) * n)) && (w->s2 = cs_malloc(sizeof(double) * n)) &&
             (w->s3 = cs_malloc(sizeof(double) * n)) &&
             (w->sW = cs_calloc(n * CS_MAXROWS, sizeof(double))) &&
             (w->mark = cs_calloc(n, sizeof(int))) && (w->uf = cs_malloc(sizeof(int) * nt)) &&
             (w->tree_island = cs_malloc(sizeof(int) * nt)) &&
             (w->tadjadr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_tree_adr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_tree_num = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_trees = cs_malloc(sizeof(int) * nt)) && (w->isl_nv = cs_malloc(sizeof(int) * nt)) &&
             (w->isl_block_adr = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_block_num = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->isl_prep = cs_malloc(sizeof(int) * (nt + 1))) &&
             (w->ist = cs_malloc(sizeof(cs_island_stats) * nt));
    if (!ok || cs_solver_set_threads(w, 1) < 0) {
        cs_solver_free(w);
        return NULL;
    }
    return w;
}

void cs_solver_free(cs_solver_ws *w)
{
    if (!w) return;
    cs_pool_free(w->pool);
    for (int i = 0; i < CS_METHOD_COUNT; i++)
        for (int r = 0; r < 3; r++) {
            const cs_method *m = r == 2 ? cs_plans[i].inner : r ? cs_plans[i].finish : cs_plans[i].run;
            if (m && w->mws[m->slot] && m->destroy) m->destroy(w->mws[m->slot]);
            if (m) w->mws[m->slot] = NULL;
        }
    void *arr[] = {w->a, w->s0, w->s1, w->s2, w->s3, w->sW, w->mark, w->uf, w->tree_island, w->tadjadr,
                   w->tadj, w->isl_tree_adr, w->isl_tree_num, w->isl_trees, w->isl_nv,
                   w->isl_block_adr, w->isl_block_num, w->isl_blocks, w->isl_prep, w->ist, w->Gadr, w->W,
                   w->G, w->Y, w->rowb, w->ycol, w->ycnt, w->A};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(w);
}

const cs_island_stats *cs_solver_island(const cs_solver_ws *w, int i)
{
    return (i >= 0 && i < w->nisland) ? &w->ist[i] : NULL;
}

/* ---- statistics ---------------------------------------------------------------------- */

static double cone_violation(const cs_efc *e, int k, const double *f)
{
    double v = 0;
    int n = e->blk_nrow[k];
    if (e->blk_kind[k] == CS_BLOCK_EQUALITY) return 0; /* any force */
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
 * island's dofs of w->s2 and w->s3 (and cs_i_primal w->s0, w->s1) as scratch. */
static void island_stats(cs_solver_ws *w, const cs_problem *p, int isl)
{
    cs_island_stats *st = &w->ist[isl];
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    double *af = w->s2, *d = w->s3; /* a(f) = a0 + M^-1 J^T f */
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
        if (e->blk_kind[k] == CS_BLOCK_EQUALITY) c = 0; /* no bound, nothing complementary */
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

/* union of the sets of trees a and b (-1: static, nothing) */
static void join(int *uf, int a, int b)
{
    if (a < 0 || b < 0) return;
    int r0 = find(uf, a), r1 = find(uf, b);
    if (r0 != r1) uf[r1 > r0 ? r1 : r0] = r1 > r0 ? r0 : r1;
}

/* The driver's per-step storage: islands' block lists and the block layout always; W and G
 * only when a method of the plan (or the statistics) needs them. Grows when a step needs
 * more than any before, then is reused. */
static int reserve(cs_solver_ws *w, const cs_efc *e, int needs)
{
    int nb = e->nblock, nG = 0;
    for (int k = 0; k < nb; k++) nG += e->blk_nrow[k] * e->blk_nrow[k];
    if (nb > w->cap_block) {
        int c = cs_i_more(nb);
        size_t si = sizeof(int);
        if (cs_i_resize((void **)&w->Gadr, si, c) || cs_i_resize((void **)&w->isl_blocks, si, c) ||
            cs_i_resize((void **)&w->tadj, si, 2 * c))
            return -1;
        w->cap_block = c;
    }
    if ((needs & (CS_NEED_W | CS_NEED_G)) && e->nnz > w->cap_W) {
        int c = cs_i_more(e->nnz);
        if (cs_i_resize((void **)&w->W, sizeof(double), c)) return -1;
        w->cap_W = c;
    }
    if ((needs & CS_NEED_Y) && e->nnz > w->cap_Y) {
        int c = cs_i_more(e->nnz);
        if (cs_i_resize((void **)&w->Y, sizeof(double), c) ||
            cs_i_resize((void **)&w->ycol, sizeof(int), c))
            return -1;
        w->cap_Y = c;
    }
    if ((needs & CS_NEED_Y) && nb > w->cap_ycnt) {
        int c = cs_i_more(nb);
        if (cs_i_resize((void **)&w->ycnt, sizeof(int), 2 * c)) return -1;
        w->cap_ycnt = c;
    }
    if ((needs & CS_NEED_Y) && nG > w->cap_A) {
        int c = cs_i_more(nG);
        if (cs_i_resize((void **)&w->A, sizeof(double), c)) return -1;
        w->cap_A = c;
    }
    if ((needs & CS_NEED_Y) && e->nefc > w->cap_rowb) {
        int c = cs_i_more(e->nefc);
        if (cs_i_resize((void **)&w->rowb, sizeof(double), c)) return -1;
        w->cap_rowb = c;
    }
    if ((needs & CS_NEED_G) && nG > w->cap_G) {
        int c = cs_i_more(nG);
        if (cs_i_resize((void **)&w->G, sizeof(double), c)) return -1;
        w->cap_G = c;
    }
    for (int k = 0, a = 0; k < nb; k++) {
        w->Gadr[k] = a;
        a += e->blk_nrow[k] * e->blk_nrow[k];
    }
    w->nG = nG;
    return 0;
}

/* Union-find over trees joined by blocks; islands numbered in order of their first block,
 * so a single-island problem keeps the rows' order (MuJoCo's sweep order). */
static void make_islands(cs_solver_ws *w, const cs_problem *p, int separate)
{
    const cs_efc *e = p->efc;
    const cs_mass *M = p->M;
    int nt = M->ntree;
    for (int i = 0; i < nt; i++) {
        w->uf[i] = i;
        w->tree_island[i] = -1;
    }
    int first = -1; /* islands off: the first tree a block touches */
    for (int k = 0; k < e->nblock; k++) {
        int t0 = e->blk_tree[2 * k], t1 = e->blk_tree[2 * k + 1];
        join(w->uf, t0, t1);
        if (!separate) { /* one problem: every block's trees join the first one */
            if (first < 0) first = t0 >= 0 ? t0 : t1;
            join(w->uf, t0, first);
            join(w->uf, t1, first);
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

/* Whether the dofs off + col[i], i < m, hold each one's parent: then L^-T, which carries a
 * dof's value to its ancestors, fills only them (a contact's rows are nonzero on the chains
 * to its bodies). Uses w->mark on the dofs. */
static int closed_cols(cs_solver_ws *w, const int *par, const int *col, int m, int off)
{
    int ok = 1;
    for (int i = 0; i < m; i++) w->mark[off + col[i]] = 1;
    for (int i = 0; i < m && ok; i++) {
        int p = par[off + col[i]];
        ok = p < 0 || w->mark[p];
    }
    for (int i = 0; i < m; i++) w->mark[off + col[i]] = 0;
    return ok;
}

/* Y = D^-1/2 L^-T J^T of block k where it can be nonzero: over J's listed nonzero columns of
 * a side when they hold their parents, else over the side's chain from its first column (J's
 * zeros beyond stay zeros, as every dof's ancestors come before it); the columns where a row
 * of Y is nonzero into ycol. Only the blocks noslip sweeps. */
static void prepare_block_y(cs_solver_ws *w, const cs_problem *p, int k)
{
    const cs_efc *e = p->efc;
    if (!cs_i_noslip_swept(e, k)) return;
    int r0 = e->blk_row[k], n = e->blk_nrow[k];
    int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    int lo[2], hi[2], cnt[2], off[2];
    cs_i_cols_chain(e, k, lo, hi);
    const int *nzc = cs_i_nzcols(e, k, cnt, off);
    const double *dinv = p->M->qLDiagInv, *J = e->J + adr;
    double *x = w->sW, *Y = w->Y + adr;
    int *yc = w->ycol + adr, m = 0;
    for (int s = 0; s < 2; s++) {
        int m0 = m;
        w->ycnt[2 * k + s] = 0;
        if (hi[s] <= lo[s]) continue;
        const int *col = nzc + (s ? cnt[0] : 0);
        if (!e->blk_nzall[k] && closed_cols(w, p->M->dof_parent, col, cnt[s], off[s])) {
            for (int r = 0; r < n; r++)
                for (int i = 0; i < cnt[s]; i++) x[(off[s] + col[i]) * n + r] = J[r * nnz + col[i]];
            cs_mass_half_solve_cols(p->M, x, n, col, cnt[s], off[s]);
            for (int i = 0; i < cnt[s]; i++) {
                int q = col[i], d = off[s] + q, any = 0;
                double h = sqrt(dinv[d]);
                for (int r = 0; r < n; r++) any |= (Y[r * nnz + q] = x[d * n + r] * h) != 0;
                if (any) yc[m++] = q;
            }
        } else {
            for (int r = 0; r < n; r++)
                for (int q = lo[s]; q < hi[s]; q++) x[ci[q] * n + r] = J[r * nnz + q];
            int d0 = e->blk_dofadr[2 * k + s];
            cs_mass_half_solve_rows(p->M, x, n, d0, d0 + hi[s] - lo[s]);
            for (int q = lo[s]; q < hi[s]; q++) {
                double h = sqrt(dinv[ci[q]]);
                int any = 0;
                for (int r = 0; r < n; r++) any |= (Y[r * nnz + q] = x[ci[q] * n + r] * h) != 0;
                if (any) yc[m++] = q;
            }
        }
        w->ycnt[2 * k + s] = m - m0;
    }
}

/* W = M^-1 J^T and, if asked, G = J W + R of block k. The rows span their trees' dofs, so
 * scattering the rows into w->sW sets every dof the tree solves read. */
static void prepare_block(cs_solver_ws *w, const cs_problem *p, int k, int needs)
{
    const cs_efc *e = p->efc;
    if (needs & CS_NEED_Y) prepare_block_y(w, p, k);
    if (!(needs & CS_NEED_W)) return;
    const cs_mass *M = p->M;
    int r0 = e->blk_row[k], n = e->blk_nrow[k];
    int adr = e->J_rowadr[r0], nnz = e->J_rownnz[r0];
    const int *ci = e->J_colind + adr;
    double *x = w->sW; /* the block's rows interleaved: one solve walks the tree for all */
    for (int r = 0; r < n; r++) {
        const double *J = e->J + adr + r * nnz;
        for (int q = 0; q < nnz; q++) x[ci[q] * n + r] = J[q];
    }
    for (int s = 0; s < 2; s++) {
        int lo = e->blk_dofadr[2 * k + s], nd = e->blk_ndof[2 * k + s];
        if (nd) cs_mass_solve_rows(M, x, n, lo, lo + nd);
    }
    for (int r = 0; r < n; r++) {
        double *W = w->W + adr + r * nnz;
        for (int q = 0; q < nnz; q++) W[q] = x[ci[q] * n + r];
    }
    if (!(needs & CS_NEED_G)) return;
    double *G = w->G + w->Gadr[k];
    int lo[2], hi[2]; /* J's columns that can be nonzero (the rest add exact zeros) */
    cs_i_cols(e, k, lo, hi);
    for (int r = 0; r < n; r++) {
        const double *Jr = e->J + adr + r * nnz;
        for (int c = 0; c <= r; c++) {
            const double *Wc = w->W + adr + c * nnz;
            double v = 0;
            for (int s = 0; s < 2; s++)
                for (int q = lo[s]; q < hi[s]; q++) v += Jr[q] * Wc[q];
            G[r * n + c] = G[c * n + r] = v;
        }
        G[r * n + r] += e->R[r0 + r];
    }
}

/* ---- the stages of an island ---------------------------------------------------------- */

/* prepare: a = a0 on the island's dofs, the blocks' W and G as needed */
static void stage_prepare(cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    const cs_problem *p = w->p;
    cs_island_stats *st = &w->ist[isl];
    memset(st, 0, sizeof *st);
    st->ntree = w->isl_tree_num[isl];
    st->nblock = w->isl_block_num[isl];
    st->nv = w->isl_nv[isl];
    CS_FOR_ISLAND_DOFS(w, p, isl, q) w->a[q] = p->a0[q];
    w->isl_prep[isl] = 0;
    cs_i_prepare_island(w, isl, w->prep);
}

void cs_i_prepare_island(cs_solver_ws *w, int isl, int needs)
{
    if (needs & CS_NEED_G) needs |= CS_NEED_W;
    needs &= w->needs;
    if ((needs & ~w->isl_prep[isl]) == 0) return;
    /* W again with G: prepare_block makes both in one pass */
    int make = needs & ~(w->isl_prep[isl] & CS_NEED_Y);
    for (int b = 0; b < w->isl_block_num[isl]; b++)
        prepare_block(w, w->p, w->isl_blocks[w->isl_block_adr[isl] + b], make);
    w->isl_prep[isl] |= needs;
}

void cs_i_prepare_block(cs_solver_ws *w, int k, int needs)
{
    if (needs & CS_NEED_G) needs |= CS_NEED_W;
    prepare_block(w, w->p, k, needs & w->needs & (CS_NEED_W | CS_NEED_G));
}

cs_iter_status cs_i_inner(cs_solver_ws *w, int thread, int isl, int max_iter, int handoff,
                          double tol, int *iters)
{
    const cs_method *m = cs_plans[w->o->type].inner;
    *iters = 0;
    if (!m) return CS_ITER_STALLED;
    double keep = w->tol[thread];
    w->tol[thread] = tol;
    cs_iter_status s = m->iterate(w->mws[m->slot], w, thread, isl, max_iter, handoff, iters);
    w->tol[thread] = keep;
    return s;
}

static void stage_warm_start(cs_solver_ws *w, int thread, int isl)
{
    const cs_method *m = cs_plans[w->o->type].run;
    if (w->a_warm && m->warm_start) m->warm_start(w->mws[m->slot], w, thread, isl);
}

/* iterate: the plan's method; when it asks, its finishing method from its point with the
 * iterations left */
static void stage_iterate(cs_solver_ws *w, int thread, int isl)
{
    const cs_plan *plan = &cs_plans[w->o->type];
    cs_island_stats *st = &w->ist[isl];
    int it = 0, fin = 0, max = w->o->max_iter;
    w->tol[thread] = w->o->tolerance;
    cs_iter_status s = plan->run->iterate(w->mws[plan->run->slot], w, thread, isl, max, 0, &it);
    if (s == CS_ITER_HANDOFF && plan->finish && it < max) {
        cs_i_prepare_island(w, isl, plan->finish->needs);
        plan->finish->iterate(w->mws[plan->finish->slot], w, thread, isl, max - it, 1, &fin);
    }
    st->iterations = it + fin;
    st->finish = fin;
}

static int noslip_on(const cs_solver_opts *o)
{
    return o->noslip_iterations > 0 && o->type != CS_METHOD_COULOMB;
}

static void stage_noslip(cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    if (noslip_on(w->o)) cs_i_noslip(w, isl);
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

static void stage_store(cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    const cs_method *m = cs_plans[w->o->type].run;
    if (noslip_on(w->o)) store_island(w, w->p, isl); /* the pass's forces are final */
    else if (m->store) m->store(w->mws[m->slot], w, isl);
    else store_island(w, w->p, isl);
}

static void stage_stats(cs_solver_ws *w, int thread, int isl)
{
    (void)thread;
    const cs_method *m = cs_plans[w->o->type].run;
    if (!w->o->stats) return;
    if (m->stats) m->stats(w->mws[m->slot], w, isl);
    else island_stats(w, w->p, isl);
}

/* the per-island stages in order (CS_STAGE_PREPARE's global part runs in cs_solve) */
static void (*const STAGE[CS_STAGE_COUNT])(cs_solver_ws *w, int thread, int isl) = {
    [CS_STAGE_PREPARE] = stage_prepare,
    [CS_STAGE_WARMSTART] = stage_warm_start,
    [CS_STAGE_ITERATE] = stage_iterate,
    [CS_STAGE_NOSLIP] = stage_noslip,
    [CS_STAGE_STORE] = stage_store,
    [CS_STAGE_STATS] = stage_stats,
};

static void solve_island(void *arg, int thread, int isl)
{
    cs_solver_ws *w = arg;
    for (int s = 0; s < CS_STAGE_COUNT; s++) STAGE[s](w, thread, isl);
}

/* a method's workspace, made at the first solve that runs it, grown to this solve */
static int method_reserve(cs_solver_ws *w, const cs_method *m)
{
    if (!m) return 0;
    if (!w->mws[m->slot] && m->create) {
        w->mws[m->slot] = m->create(w);
        if (!w->mws[m->slot]) return -1;
    }
    return m->reserve ? m->reserve(w->mws[m->slot], w) : 0;
}

int cs_solve(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, const double *a_warm,
             double *a_out, cs_solve_stats *st)
{
    const cs_mass *M = p->M;
    cs_efc *e = p->efc;
    memset(st, 0, sizeof *st);
    if (M->nv != w->nv || M->ntree > w->ntree) return -1;
    if ((unsigned)o->type >= CS_METHOD_COUNT || !cs_plans[o->type].run) return -1;
    for (int k = 0; k < e->nblock; k++) /* every side is a whole tree of M (or static) */
        for (int s = 0; s < 2; s++) {
            int t = e->blk_tree[2 * k + s];
            if (t >= M->ntree || (t >= 0 && (e->blk_dofadr[2 * k + s] != M->tree_dofadr[t] ||
                                             e->blk_ndof[2 * k + s] != M->tree_dofnum[t])))
                return -1;
        }
    /* prepare, global part: what the plan needs, the storage, the islands */
    const cs_plan *plan = &cs_plans[o->type];
    /* prep: what every island gets; needs: the storage, also for what the finishing method
     * prepares on the islands it runs on (its needs made just before it runs) */
    int prep = plan->run->lazy ? 0 : plan->run->needs;
    if (o->stats) prep |= CS_NEED_W; /* the dual cost of the forces */
    if (noslip_on(o)) prep |= CS_NEED_Y;
    int needs = prep | plan->run->needs | (plan->finish ? plan->finish->needs : 0) |
                (plan->inner ? plan->inner->needs : 0);
    double tr = 0;
    for (int i = 0; i < M->nv; i++) tr += M->qM[M->dof_Madr[i]];
    cs_problem ps = *p;
    if (!(ps.meaninertia > 0)) ps.meaninertia = M->nv ? tr / M->nv : 1;
    w->p = &ps;
    w->o = o;
    w->a_warm = a_warm;
    w->needs = needs;
    w->prep = prep;
    if (reserve(w, e, needs) || method_reserve(w, plan->run) ||
        (plan->finish && plan->finish->slot != plan->run->slot && method_reserve(w, plan->finish)) ||
        method_reserve(w, plan->inner)) {
        w->p = NULL;
        return CS_SOLVE_NOMEM;
    }
    memcpy(w->a, p->a0, sizeof(double) * (size_t)M->nv);
    for (int k = 0; k < e->nblock; k++) {
        e->blk_zone[k] = CS_ZONE_TOP;
        memset(e->blk_force + CS_MAXDIM * k, 0, sizeof(double) * CS_MAXDIM);
    }
    for (int r = 0; r < e->nefc; r++) e->force[r] = 0;
    make_islands(w, &ps, o->islands);
    /* the per-island stages */
    cs_pool_run(w->pool, w->nisland, solve_island, w);
    if (plan->run->end) plan->run->end(w->mws[plan->run->slot], w);
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
