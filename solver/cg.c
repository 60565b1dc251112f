/* MuJoCo's CG (engine_solver.c, mj_solCG): primal nonlinear conjugate gradients on
 * 1/2 (a - a0)^T M (a - a0) + sum_k l_k(J_k a - a_ref_k) (docs/contact-math.md §7), the
 * cost Newton minimises, per island. Preconditioned by M^-1 (the smooth stage's factor,
 * per tree): the search starts along -M^-1 g and the directions are Polak-Ribiere's with
 * restarts, beta = max(0, g^T M^-1 (g - g_old) / g_old^T M^-1 g_old). Each step is the
 * exact line search Newton uses (primal.c), from the Newton step of the cost along the
 * direction. No Hessian is formed or factored: an iteration costs a pass over the rows
 * and a solve with M's factor, where Newton's also assembles and factors H.
 *
 * Stopping as MuJoCo's: before the first step when the gap 1/2 g^T M^-1 g (which bounds the
 * cost above its minimum, the cost being strongly convex in the M norm) is below the
 * tolerance (scaled), after a step when the scaled improvement is positive and below it or
 * the scaled gradient norm is. */
#include "solver_internal.h"
#include "alloc.h"

#include <math.h>
#include <string.h>

/* MuJoCo's mjMINVAL: the floor of beta's denominator (a zero old gradient restarts) */
#define MINVAL 1e-15

typedef struct {
    int nv;
    double *g, *Mg, *gold, *Mgold, *s, *Ms, *d; /* per dof */
    int cap_efc;
    double *jres, *Jd;                          /* per row: J a - a_ref, J s */
} cg_ws;

static cs_iter_status cg_iterate(void *ws, cs_solver_ws *w, int thread, int isl, int max_iter,
                                 int handoff, int *iters)
{
    (void)thread;
    (void)handoff;
    cg_ws *cw = ws;
    const cs_problem *p = w->p;
    const cs_solver_opts *o = w->o;
    const cs_efc *e = p->efc;
    cs_island_stats *st = &w->ist[isl];
    int badr = w->isl_block_adr[isl], nbk = w->isl_block_num[isl];
    double *a = w->a, *g = cw->g, *Mg = cw->Mg, *s = cw->s, *Ms = cw->Ms;
    double scale = cs_i_scale(w, p, isl);
    double cost = cs_i_primal_eval(w, isl, a, g, cw->jres, NULL, cw->d);
    double gMg = 0;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) Mg[q] = g[q];
    cs_i_mass_solve(w, p, isl, Mg);
    CS_FOR_ISLAND_DOFS(w, p, isl, q) gMg += g[q] * Mg[q];
    *iters = 0;
    if (fmax(0, 0.5 * scale * gMg) < o->tolerance) return CS_ITER_CONVERGED;
    CS_FOR_ISLAND_DOFS(w, p, isl, q) s[q] = -Mg[q];
    int iter = 0;
    cs_iter_status status = CS_ITER_LIMIT;
    while (iter < max_iter) {
        cs_i_mass_mul(w, p, isl, Ms, s);
        double dMr = 0, dMd = 0, d0 = 0;
        CS_FOR_ISLAND_DOFS(w, p, isl, q) {
            dMr += Ms[q] * (a[q] - p->a0[q]);
            dMd += Ms[q] * s[q];
            d0 += g[q] * s[q];
        }
        for (int b = 0; b < nbk; b++) {
            int k = w->isl_blocks[badr + b];
            cs_i_block_mul(e, k, s, cw->Jd + e->blk_row[k]);
        }
        /* from the Newton step of the cost along s (CG's s has no natural length) */
        double alpha = cs_i_line_search(w, isl, cw->jres, cw->Jd, dMr, dMd, d0, 0,
                                        cs_i_line_gtol(w, isl, s, scale), o->ls_iterations);
        if (alpha == 0) {
            status = CS_ITER_STALLED;
            break;
        }
        CS_FOR_ISLAND_DOFS(w, p, isl, q) {
            a[q] += alpha * s[q];
            cw->gold[q] = g[q];
            cw->Mgold[q] = Mg[q];
        }
        double c = cs_i_primal_eval(w, isl, a, g, cw->jres, NULL, cw->d);
        CS_FOR_ISLAND_DOFS(w, p, isl, q) Mg[q] = g[q];
        cs_i_mass_solve(w, p, isl, Mg);
        double gn = 0;
        CS_FOR_ISLAND_DOFS(w, p, isl, q) gn += g[q] * g[q];
        st->improvement = scale * (cost - c);
        cost = c;
        iter++;
        if ((st->improvement > 0 && st->improvement < o->tolerance) ||
            scale * sqrt(gn) < o->tolerance) {
            status = CS_ITER_CONVERGED;
            break;
        }
        /* Polak-Ribiere, restarted (beta = 0) where it turns negative */
        double num = 0, den = 0;
        CS_FOR_ISLAND_DOFS(w, p, isl, q) {
            num += g[q] * (Mg[q] - cw->Mgold[q]);
            den += cw->gold[q] * cw->Mgold[q];
        }
        double beta = fmax(0, num / fmax(MINVAL, den));
        CS_FOR_ISLAND_DOFS(w, p, isl, q) s[q] = -Mg[q] + beta * s[q];
    }
    *iters = iter;
    return status;
}

static void cg_warm_start(void *ws, cs_solver_ws *w, int thread, int isl)
{
    (void)ws;
    (void)thread;
    cs_i_primal_warm_start(w, isl);
}

static void cg_destroy(void *ws)
{
    cg_ws *cw = ws;
    if (!cw) return;
    void *arr[] = {cw->g, cw->Mg, cw->gold, cw->Mgold, cw->s, cw->Ms, cw->d, cw->jres, cw->Jd};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) cs_free(arr[i]);
    cs_free(cw);
}

static void *cg_create(const cs_solver_ws *w)
{
    cg_ws *cw = cs_calloc(1, sizeof *cw);
    if (!cw) return NULL;
    size_t n = sizeof(double) * (size_t)(w->nv > 0 ? w->nv : 1);
    cw->nv = w->nv;
    if (!(cw->g = cs_malloc(n)) || !(cw->Mg = cs_malloc(n)) || !(cw->gold = cs_malloc(n)) ||
        !(cw->Mgold = cs_malloc(n)) || !(cw->s = cs_malloc(n)) || !(cw->Ms = cs_malloc(n)) ||
        !(cw->d = cs_malloc(n))) {
        cg_destroy(cw);
        return NULL;
    }
    return cw;
}

static int cg_reserve(void *ws, const cs_solver_ws *w)
{
    cg_ws *cw = ws;
    int nefc = w->p->efc->nefc;
    if (nefc <= cw->cap_efc) return 0;
    int c = nefc + nefc / 2 + 16;
    double *j = cs_realloc(cw->jres, sizeof(double) * (size_t)c);
    if (!j) return -1;
    cw->jres = j;
    double *d = cs_realloc(cw->Jd, sizeof(double) * (size_t)c);
    if (!d) return -1;
    cw->Jd = d;
    cw->cap_efc = c;
    return 0;
}

const cs_method cs_method_cg = {
    .name = "CG",
    .slot = CS_METHOD_CG,
    .needs = 0, /* works from J and M's factor */
    .create = cg_create,
    .destroy = cg_destroy,
    .reserve = cg_reserve,
    .warm_start = cg_warm_start,
    .iterate = cg_iterate,
};
