/* Solver driver: workspace, per-step block preparation (W = M^-1 J^T, G = J W + R),
 * contact islands, the soft-cone block response, costs and residual statistics. */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cs_solver_opts_default(cs_solver_opts *o)
{
    o->type = CS_METHOD_PGS;
    o->max_iter = 100;
    o->tolerance = 1e-8;
    o->exact_block = 1;
    o->newton_dense_max = 0;
    o->pgs_pair_group = 1;
}

cs_solver_ws *cs_solver_create(int max_body, int max_block)
{
    if (max_body < 1) max_body = 1;
    if (max_block < 1) max_block = 1;
    cs_solver_ws *w = cs_calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t nb = (size_t)max_body, nc = (size_t)max_block;
    w->max_body = max_body;
    w->max_block = max_block;
    w->L = cs_malloc(sizeof(double) * 36 * nb);
    w->a = cs_malloc(sizeof(double) * 6 * nb);
    w->grad = cs_malloc(sizeof(double) * 6 * nb);
    w->dir = cs_malloc(sizeof(double) * 6 * nb);
    w->Mdir = cs_malloc(sizeof(double) * 6 * nb);
    w->tmp = cs_malloc(sizeof(double) * 6 * nb);
    size_t nh = nb < CS_NEWTON_DENSE_CAP ? nb : CS_NEWTON_DENSE_CAP;
    w->H = cs_malloc(sizeof(double) * 36 * nh * nh);
    w->P = cs_malloc(sizeof(double) * 36 * nb);
    w->pcg = cs_malloc(sizeof(double) * 24 * nb);
    w->parent = cs_malloc(sizeof(int) * nb);
    w->body_island = cs_malloc(sizeof(int) * nb);
    w->body_local = cs_malloc(sizeof(int) * nb);
    w->isl_bodies = cs_malloc(sizeof(int) * nb);
    w->isl_body_adr = cs_malloc(sizeof(int) * (nb + 1));
    w->isl_body_num = cs_malloc(sizeof(int) * (nb + 1));
    w->isl_blocks = cs_malloc(sizeof(int) * nc);
    w->isl_block_adr = cs_malloc(sizeof(int) * (nb + 1));
    w->isl_block_num = cs_malloc(sizeof(int) * (nb + 1));
    w->ist = cs_malloc(sizeof(cs_island_stats) * nb);
    w->gkey = cs_malloc(sizeof(long long) * nc);
    w->gadr = cs_malloc(sizeof(int) * (nc + 1));
    w->gvalid = cs_malloc(sizeof(int) * nc);
    w->gsig = cs_malloc(sizeof(int) * nc);
    w->gfac = cs_malloc(sizeof(double) * 144 * (nc / 2 + 1));
    w->gj0 = cs_malloc(sizeof(double) * CS_MAXROWS * nc);
    w->gf0 = cs_malloc(sizeof(double) * CS_MAXROWS * nc);
    w->gf1 = cs_malloc(sizeof(double) * CS_MAXROWS * nc);
    w->gsc0 = cs_malloc(sizeof(int) * nc);
    w->gsc1 = cs_malloc(sizeof(int) * nc);
    if (!w->L || !w->a || !w->grad || !w->dir || !w->Mdir || !w->tmp || !w->H || !w->P || !w->pcg || !w->parent ||
        !w->body_island || !w->body_local || !w->isl_bodies || !w->isl_body_adr ||
        !w->isl_body_num || !w->isl_blocks || !w->isl_block_adr || !w->isl_block_num ||
        !w->ist || !w->gkey || !w->gadr || !w->gvalid || !w->gsig || !w->gfac ||
        !w->gj0 || !w->gf0 || !w->gf1 || !w->gsc0 || !w->gsc1) {
        cs_solver_free(w);
        return NULL;
    }
    return w;
}

void cs_solver_free(cs_solver_ws *w)
{
    if (!w) return;
    cs_free(w->L);
    cs_free(w->a);
    cs_free(w->grad);
    cs_free(w->dir);
    cs_free(w->Mdir);
    cs_free(w->tmp);
    cs_free(w->H);
    cs_free(w->P);
    cs_free(w->pcg);
    cs_free(w->parent);
    cs_free(w->body_island);
    cs_free(w->body_local);
    cs_free(w->isl_bodies);
    cs_free(w->isl_body_adr);
    cs_free(w->isl_body_num);
    cs_free(w->isl_blocks);
    cs_free(w->isl_block_adr);
    cs_free(w->isl_block_num);
    cs_free(w->ist);
    cs_free(w->gkey);
    cs_free(w->gadr);
    cs_free(w->gvalid);
    cs_free(w->gsig);
    cs_free(w->gfac);
    cs_free(w->gj0);
    cs_free(w->gf0);
    cs_free(w->gf1);
    cs_free(w->gsc0);
    cs_free(w->gsc1);
    cs_free(w);
}

const cs_island_stats *cs_solver_island(const cs_solver_ws *w, int i)
{
    return (i >= 0 && i < w->nisland) ? &w->ist[i] : NULL;
}

void cs_block_decode(const cs_block *b, const double *f, double *force)
{
    memset(force, 0, sizeof(double) * CS_MAXDIM);
    if (b->kind == CS_BLOCK_PYRAMIDAL) {
        /* cone-math.md §5: f_n = sum of edges, phi_j = mu_j (alpha_j+ - alpha_j-) */
        for (int k = 0; k < b->dim - 1; k++) {
            force[0] += f[2 * k] + f[2 * k + 1];
            force[1 + k] = b->friction[k] * (f[2 * k] - f[2 * k + 1]);
        }
    } else {
        for (int j = 0; j < b->nrow; j++) force[j] = f[j];
    }
}

cs_zone cs_block_soft(const cs_block *b, const double *j, double *f, double *cost, double *hess)
{
    int n = b->nrow;
    if (hess) memset(hess, 0, sizeof(double) * n * n);
    if (b->kind != CS_BLOCK_ELLIPTIC) {
        /* independent rows: l = j^2/(2R) for j < 0 */
        double c = 0;
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (j[i] < 0) {
                f[i] = -j[i] / b->R[i];
                c += 0.5 * j[i] * j[i] / b->R[i];
                if (hess) hess[i * n + i] = 1 / b->R[i];
                any = 1;
            } else {
                f[i] = 0;
            }
        }
        *cost = c;
        return any ? CS_ZONE_BOTTOM : CS_ZONE_TOP;
    }
    /* elliptic: the §7 closed form of solver/cone (R_j = kappa / friction_j^2, which is
     * exactly how cs_rows_make set the friction rows' R) */
    return cs_soft_cone(n - 1, j, b->R[0], b->friction, b->kappa, f, cost, hess);
}

void cs_i_apply(const cs_block *b, const double *d, double *a)
{
    for (int s = 0; s < 2; s++) {
        int bi = b->body[s];
        if (bi < 0) continue;
        for (int q = 0; q < 6; q++) {
            double v = 0;
            for (int r = 0; r < b->nrow; r++) v += b->W[6 * s + q][r] * d[r];
            a[6 * bi + q] += v;
        }
    }
}

void cs_i_resid(const cs_block *b, const double *a, double *j)
{
    for (int r = 0; r < b->nrow; r++) {
        double v = -b->aref[r];
        for (int s = 0; s < 2; s++) {
            int bi = b->body[s];
            if (bi < 0) continue;
            for (int q = 0; q < 6; q++) v += b->J[r][6 * s + q] * a[6 * bi + q];
        }
        j[r] = v;
    }
}

static void mulM(const double *M, const double *x, double *y)
{
    for (int i = 0; i < 6; i++) {
        double s = 0;
        for (int k = 0; k < 6; k++) s += M[6 * i + k] * x[k];
        y[i] = s;
    }
}

double cs_i_primal(cs_solver_ws *w, const cs_problem *p, int isl, const double *a)
{
    double c = 0, d[6], Md[6], j[CS_MAXROWS], f[CS_MAXROWS], l;
    for (int k = 0; k < w->isl_body_num[isl]; k++) {
        int b = w->isl_bodies[w->isl_body_adr[isl] + k];
        for (int q = 0; q < 6; q++) d[q] = a[6 * b + q] - p->a0[6 * b + q];
        mulM(p->M + 36 * b, d, Md);
        for (int q = 0; q < 6; q++) c += 0.5 * d[q] * Md[q];
    }
    for (int k = 0; k < w->isl_block_num[isl]; k++) {
        const cs_block *b = &p->blocks[w->isl_blocks[w->isl_block_adr[isl] + k]];
        cs_i_resid(b, a, j);
        cs_block_soft(b, j, f, &l, NULL);
        c += l;
    }
    return c;
}

double cs_i_scale(const cs_solver_ws *w, int isl)
{
    int nv = 6 * w->isl_body_num[isl];
    return 1 / (w->meaninertia * (nv > 1 ? nv : 1));
}

static double cone_violation(const cs_block *b)
{
    double v = 0;
    if (b->kind != CS_BLOCK_ELLIPTIC) {
        for (int r = 0; r < b->nrow; r++) v = fmax(v, -b->f[r]);
        return v;
    }
    double s = 0;
    for (int k = 0; k < b->dim - 1; k++) s += (b->f[1 + k] / b->friction[k]) * (b->f[1 + k] / b->friction[k]);
    return fmax(fmax(0, -b->f[0]), sqrt(s) - b->f[0]);
}

/* Final statistics of an island from the blocks' forces f and w->a. */
void cs_i_island_stats(cs_solver_ws *w, const cs_problem *p, int isl)
{
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_body_adr[isl], nbi = w->isl_body_num[isl];
    int cadr = w->isl_block_adr[isl], nci = w->isl_block_num[isl];
    double *af = w->tmp; /* a(f) = a0 + M^-1 J^T f */
    for (int k = 0; k < nbi; k++) {
        int b = w->isl_bodies[badr + k];
        memcpy(af + 6 * b, p->a0 + 6 * b, sizeof(double) * 6);
    }
    for (int k = 0; k < nci; k++) {
        const cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        cs_i_apply(b, b->f, af);
    }
    double dual = 0, comp = 0, feas = 0, stat = 0, j[CS_MAXROWS], j0[CS_MAXROWS],
           fs[CS_MAXROWS], l;
    for (int k = 0; k < nci; k++) {
        cs_block *b = &p->blocks[w->isl_blocks[cadr + k]];
        cs_i_resid(b, af, j);
        cs_i_resid(b, p->a0, j0);
        double c = 0;
        for (int r = 0; r < b->nrow; r++) {
            /* f.(J a0 - aref) + 1/2 f.(J (a_f - a0) + R f) */
            dual += b->f[r] * (0.5 * (j[r] + j0[r]) + 0.5 * b->R[r] * b->f[r]);
            c += b->f[r] * (j[r] + b->R[r] * b->f[r]);
        }
        comp += fabs(c);
        feas = fmax(feas, cone_violation(b));
        cs_i_resid(b, w->a, b->jres);
        b->zone = cs_block_soft(b, b->jres, fs, &l, NULL);
        for (int r = 0; r < b->nrow; r++) stat = fmax(stat, fabs(fs[r] - b->f[r]));
        cs_block_decode(b, b->f, b->force);
    }
    /* Newton's law residual M (a - a0) - J^T f = M (a - a(f)) */
    for (int k = 0; k < nbi; k++) {
        int b = w->isl_bodies[badr + k];
        double d[6], Md[6];
        for (int q = 0; q < 6; q++) d[q] = w->a[6 * b + q] - af[6 * b + q];
        mulM(p->M + 36 * b, d, Md);
        for (int q = 0; q < 6; q++) stat = fmax(stat, fabs(Md[q]));
    }
    st->primal_cost = cs_i_primal(w, p, isl, w->a);
    st->dual_cost = dual;
    st->feasibility = feas;
    st->stationarity = stat;
    st->complementarity = comp;
    st->nbody = nbi;
    st->nblock = nci;
}

static int find(int *par, int x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

/* Union-find over bodies joined by contacts; islands listed in order of first appearance
 * so a single-island problem keeps the caller's block order (MuJoCo's sweep order). */
static void make_islands(cs_solver_ws *w, const cs_problem *p)
{
    int nb = p->nbody;
    for (int i = 0; i < nb; i++) {
        w->parent[i] = i;
        w->body_island[i] = -1;
    }
    for (int k = 0; k < p->nblock; k++) {
        const cs_block *b = &p->blocks[k];
        if (b->body[0] >= 0 && b->body[1] >= 0) {
            int r0 = find(w->parent, b->body[0]), r1 = find(w->parent, b->body[1]);
            if (r0 != r1) w->parent[r1 > r0 ? r1 : r0] = r1 > r0 ? r0 : r1;
        }
    }
    int nis = 0;
    /* island id per root, by first block that touches it */
    for (int k = 0; k < p->nblock; k++) {
        cs_block *b = &p->blocks[k];
        int bb = b->body[0] >= 0 ? b->body[0] : b->body[1];
        if (bb < 0) {
            b->island = -1;
            continue;
        }
        int root = find(w->parent, bb);
        if (w->body_island[root] < 0) w->body_island[root] = nis++;
        b->island = w->body_island[root];
    }
    for (int i = 0; i < nb; i++) {
        int root = find(w->parent, i);
        w->body_island[i] = w->body_island[root];
    }
    w->nisland = nis;
    for (int i = 0; i <= nis; i++) w->isl_body_num[i] = w->isl_block_num[i] = 0;
    for (int i = 0; i < nb; i++)
        if (w->body_island[i] >= 0) w->isl_body_num[w->body_island[i]]++;
    for (int k = 0; k < p->nblock; k++)
        if (p->blocks[k].island >= 0) w->isl_block_num[p->blocks[k].island]++;
    int ab = 0, ac = 0;
    for (int i = 0; i < nis; i++) {
        w->isl_body_adr[i] = ab;
        w->isl_block_adr[i] = ac;
        ab += w->isl_body_num[i];
        ac += w->isl_block_num[i];
        w->isl_body_num[i] = w->isl_block_num[i] = 0;
    }
    for (int i = 0; i < nb; i++) {
        int is = w->body_island[i];
        if (is < 0) continue;
        w->body_local[i] = w->isl_body_num[is];
        w->isl_bodies[w->isl_body_adr[is] + w->isl_body_num[is]++] = i;
    }
    for (int k = 0; k < p->nblock; k++) {
        int is = p->blocks[k].island;
        if (is < 0) continue;
        w->isl_blocks[w->isl_block_adr[is] + w->isl_block_num[is]++] = k;
    }
}

int cs_solve(cs_solver_ws *w, const cs_problem *p, const cs_solver_opts *o, const double *a_warm,
             double *a_out, cs_solve_stats *st)
{
    if (p->nbody > w->max_body || p->nblock > w->max_block) return -1;
    int nb = p->nbody;
    double mi = 0;
    for (int b = 0; b < nb; b++) {
        memcpy(w->L + 36 * b, p->M + 36 * b, sizeof(double) * 36);
        if (cs_i_chol(6, w->L + 36 * b)) return -1;
        for (int q = 0; q < 6; q++) mi += p->M[36 * b + 7 * q];
    }
    w->meaninertia = p->meaninertia > 0 ? p->meaninertia : (nb ? mi / (6 * nb) : 1);
    /* per-block W = M^-1 J^T and G = J W + R (contacts between two sides of one body are
     * not supported: the cross terms of G would be missing) */
    for (int k = 0; k < p->nblock; k++) {
        cs_block *b = &p->blocks[k];
        memset(b->W, 0, sizeof b->W);
        memset(b->f, 0, sizeof b->f);
        for (int s = 0; s < 2; s++) {
            int bi = b->body[s];
            if (bi < 0) continue;
            for (int r = 0; r < b->nrow; r++) {
                double x[6];
                memcpy(x, &b->J[r][6 * s], sizeof x);
                cs_i_chol_solve(6, w->L + 36 * bi, x);
                for (int q = 0; q < 6; q++) b->W[6 * s + q][r] = x[q];
            }
        }
        int n = b->nrow;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double v = r == c ? b->R[r] : 0;
                for (int q = 0; q < 12; q++) v += b->J[r][q] * b->W[q][c];
                b->G[r * n + c] = v;
            }
        b->zone = CS_ZONE_TOP;
        memset(b->force, 0, sizeof b->force);
    }
    make_islands(w, p);
    memcpy(w->a, p->a0, sizeof(double) * 6 * nb);
    st->nisland = w->nisland;
    st->iterations = 0;
    st->primal_cost = st->dual_cost = 0;
    st->feasibility = st->stationarity = st->complementarity = 0;
    for (int i = 0; i < w->nisland; i++) {
        memset(&w->ist[i], 0, sizeof w->ist[i]);
        if (o->type == CS_METHOD_NEWTON)
            cs_i_newton(w, p, o, i, a_warm);
        else
            cs_i_pgs(w, p, o, i, a_warm);
        cs_i_island_stats(w, p, i);
        const cs_island_stats *is = &w->ist[i];
        if (is->iterations > st->iterations) st->iterations = is->iterations;
        st->primal_cost += is->primal_cost;
        st->dual_cost += is->dual_cost;
        st->feasibility = fmax(st->feasibility, is->feasibility);
        st->stationarity = fmax(st->stationarity, is->stationarity);
        st->complementarity += is->complementarity;
    }
    memcpy(a_out, w->a, sizeof(double) * 6 * nb);
    return 0;
}
