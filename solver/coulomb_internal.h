/* What the Coulomb model's two methods share (coulomb.c: block Gauss-Seidel; coulomb_newton.c:
 * proximal Newton): one workspace (the previous step's forces, matched to this step's
 * blocks), and each block's residuals of the Coulomb conditions. Not part of the API. */
#ifndef CS_COULOMB_INTERNAL_H
#define CS_COULOMB_INTERNAL_H

#include "coulomb.h"
#include "solver_internal.h"

/* The previous step's forces, the warm start. A block is matched with a kept one of the
 * same kind, trees and rows whose normal row is nearly the same: two random projections of
 * the row's Jacobian (the contact point's lever arms) agree to 1e-3. Contact sets of
 * manifolds change order and size from step to step, so the block index alone is no key. */
typedef struct {
    int kind, t0, t1, nrow;
    double sig[2];
    double f[CS_MAXDIM];
} cs_coulomb_keep;

struct cs_coulomb_ws {
    int n, cap;           /* kept blocks */
    cs_coulomb_keep *k;
    long long *ord;       /* kept blocks sorted by (trees, index): key * 2^24 + index */
    int cap_blk;
    int *pat;             /* per block: the pyramid's last active pattern */
    int *match;           /* per block: the kept block it continues, -1 none */
    cs_bqp *bqp;          /* per elliptic block: G's factors */
    int *bqp_ok;          /* 1 where bqp was prepared */
    int cap_row;
    double *aref0;        /* per row: the Coulomb rows' a_ref, kept while the proximal
                             method rewrites a_ref and R */
    double *aa;           /* per block, AA_SLOTS: the proximal method's shift and its
                             fixed point's history (coulomb_newton.c) */
};

/* the proximal method's fixed-point acceleration: depth, and doubles a block keeps */
#define AA_DEPTH 4
#define AA_SLOTS (1 + 2 * (AA_DEPTH + 1))

/* The shared workspace's hooks (both methods' create, reserve, end, destroy). */
void *cs_i_coulomb_create(const cs_solver_ws *w);
int cs_i_coulomb_reserve(void *ws, const cs_solver_ws *w);
void cs_i_coulomb_end(void *ws, cs_solver_ws *w);
void cs_i_coulomb_destroy(void *ws);
/* The island's statistics (cs_island_stats: the Coulomb model's meaning of the five). */
void cs_i_coulomb_stats(void *ws, cs_solver_ws *w, int isl);

/* The island's Coulomb residual at (w->a, e->force), Coulomb rows in place, as a velocity
 * (m/s): the largest of each block's three residuals times h g, g the normal row's entry
 * of G (with_G; prepared) or its diagonal approximation dA: the velocity the force error
 * would make; pyramid: the friction set the pyramid (else the ellipse). What both methods report (cs_island_stats.improvement) and the proximal
 * method stops on. */
double cs_i_coulomb_residual(const cs_solver_ws *w, int isl, int with_G, int pyramid);

/* Block k's kept forces (its nrow row forces), NULL when it continues none. */
static inline const double *cs_i_coulomb_kept(const struct cs_coulomb_ws *cw, int k)
{
    return cw->match[k] >= 0 ? cw->k[cw->match[k]].f : NULL;
}

/* Block k's residuals of the Coulomb conditions (docs/contact-math.md §11) at row forces f
 * and residuals j = J a - a_ref (acceleration units, a_ref the Coulomb rows'), in newtons,
 * velocities turned into forces with rho = 1 / (h gnn), gnn the normal row's entry of
 * J M^-1 J^T (or an approximation): r[0] the cone (or friction bound) violation, r[1]
 * Signorini (an equality: its rows' velocity), r[2] maximum dissipation. */
void cs_i_coulomb_resid(const cs_efc *e, int k, const double *f, const double *j, double gnn,
                        double h, int pyramid, double r[3]);

#endif
