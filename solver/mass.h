/* The mass matrix of a kinematic forest as an operator: stored, factored, solved and
 * multiplied in MuJoCo's sparse tree layout (mj_factorM's L^T D L).
 *
 * Dofs are numbered so that a dof's parent comes before it and every tree's dofs are
 * contiguous. Row i of the lower triangle holds M(i,i), then M(i,p(i)), M(i,p(p(i))), ...
 * up the tree (p = dof_parent, -1 at a root), starting at dof_Madr[i]. A free joint is a
 * chain of 6 dofs, so its row 5 holds 6 numbers; hinge, slide and ball joints add dofs to
 * the chains without changing anything here. */
#ifndef CS_MASS_H
#define CS_MASS_H

typedef struct cs_mass {
    int nv, nM;               /* dofs, stored entries */
    int ntree;
    const int *dof_parent;    /* nv: parent dof, -1 at a tree's root */
    const int *dof_Madr;      /* nv: row start (the diagonal entry) */
    const int *dof_treeid;    /* nv */
    const int *tree_dofadr;   /* ntree: first dof */
    const int *tree_dofnum;   /* ntree */
    double *qM;               /* nM: M, filled by the caller */
    double *qLD;              /* nM: factor: D on the diagonal entries, L below */
    double *qLDiagInv;        /* nv: 1 / D */
} cs_mass;

/* L^T D L in place of a symmetric matrix stored on a forest's rows (as M above: row k at
 * adr[k] holds the diagonal, then k's entries with its ancestors upwards; par[k] < k, -1 at
 * a root; the rows one after another, row n - 1 ending at nq): D on the diagonal entries,
 * L below, dinv[k] = 1 / D_k. Eliminating from the last
 * row up touches only ancestors: no fill. Returns 0, or -1 when a pivot is not positive. */
int cs_forest_factor(int n, double *q, const int *par, const int *adr, int nq, double *dinv);
/* x <- A^-1 x on the rows [lo, hi) (whole trees) with cs_forest_factor's factor. */
void cs_forest_solve(const double *q, const int *par, const int *adr, const double *dinv,
                     double *x, int lo, int hi);
/* Factor qM into qLD, qLDiagInv. Returns 0, or -1 when a pivot is not positive. */
int cs_mass_factor(cs_mass *M);
/* x <- M^-1 x on the dofs [lo, hi), which must be whole trees (islands are). */
void cs_mass_solve(const cs_mass *M, double *x, int lo, int hi);
/* cs_mass_solve on n <= CS_MAXROWS vectors at once, interleaved: x[k * n + r] is dof k of
 * vector r (the same results; the ancestor walks shared). */
void cs_mass_solve_rows(const cs_mass *M, double *x, int n, int lo, int hi);
/* The first half of cs_mass_solve_rows: x <- L^-T x (M = L^T D L) on n interleaved
 * vectors over the dofs [lo, hi) of one tree; the entries of x at dofs hi and after are not
 * read (an ancestor comes before its descendants, so [lo, hi) is closed under the walk). */
void cs_mass_half_solve_rows(const cs_mass *M, double *x, int n, int lo, int hi);
/* cs_mass_half_solve_rows restricted to the dofs off + col[i], i < m (col ascending): where
 * they hold each one's parent and x is zero on their tree's other dofs, the same results on
 * them (x elsewhere is neither read nor written). */
void cs_mass_half_solve_cols(const cs_mass *M, double *x, int n, const int *col, int m, int off);
/* The last pass of cs_mass_solve: x <- L^-1 x on the dofs [lo, hi) (whole trees). */
void cs_mass_lower_solve(const cs_mass *M, double *x, int lo, int hi);
/* y = M x on the dofs [lo, hi) (whole trees); y and x must differ. */
void cs_mass_mul(const cs_mass *M, double *y, const double *x, int lo, int hi);
/* M(i, j) for j = i or j an ancestor of i (0 otherwise). */
double cs_mass_get(const cs_mass *M, int i, int j);
/* Row i of M over the columns lo .. i (lo an ancestor-or-earlier dof of i's tree):
 * row[j - lo] = M_ij, as cs_mass_get, in one walk up i's ancestors. */
void cs_mass_row(const cs_mass *M, int i, int lo, double *row);

#endif
