/* Friction-cone math of the chapter (docs/contact-math.md §2-§7).
 * Plain double arrays in and out, no allocation, no I/O.
 * Conventions: r = condim - 1 friction components phi[0..r-1] in condim order
 * (t1, t2, spin, roll1, roll2); mu[0..r-1] their scales (D = diag(mu)). */
#ifndef CS_CONE_H
#define CS_CONE_H

#define CS_MAXFRIC 5 /* condim 6 */
#define CS_MAXDIM 6

/* Where a force lies relative to the cone. */
typedef enum { CS_CONE_INSIDE = 0, CS_CONE_BOUNDARY = 1, CS_CONE_OUTSIDE = 2 } cs_cone_where;

/* Zone of the soft-cone residual cost (§7), and of a joint row's (§10). A contact block is
 * top (no force), bottom (quadratic: f = -R^-1 j) or middle (on the cone). A limit row is top
 * (j >= 0, no force) or bottom (j < 0, f = -j/R). A friction-loss row (bound F, MuJoCo's
 * mjCNSTRSTATE_ names) is bottom when quadratic (|j| < R F, f = -j/R) or in a linear zone:
 * linearneg (j <= -R F, f = +F) or linearpos (j >= R F, f = -F); its cost has no curvature
 * there. */
typedef enum {
    CS_ZONE_TOP = 0,
    CS_ZONE_BOTTOM = 1,
    CS_ZONE_MIDDLE = 2,
    CS_ZONE_LINEARNEG = 3,
    CS_ZONE_LINEARPOS = 4
} cs_zone;

/* ||D^-1 phi|| over the components with mu_j > 0, plus +inf-free handling:
 * components with mu_j == 0 and phi_j != 0 make the force infeasible. */
typedef struct {
    double scaled_norm;   /* ||D^-1 phi|| over mu_j > 0 */
    double radius;        /* scaled_norm / fn; meaningful only if radius_defined */
    int radius_defined;   /* 0 when fn <= 0 or zero_mu_violated (the radius is infinite) */
    double signed_dist;   /* scaled_norm - fn: < 0 inside, 0 on, > 0 outside (units of fn);
                             ignores zero-scale components: see zero_mu_violated */
    int zero_mu_violated; /* some mu_j == 0 with phi_j != 0 */
    cs_cone_where where;
} cs_cone_check;

/* Classify (fn, phi) against the cone; boundary when |radius - 1| <= tol
 * (fn == 0: boundary iff phi == 0, else outside). fn < 0 is outside, and so is any
 * force along a zero scale. With all mu_j == 0 (the normal ray) phi == 0 is inside. */
void cs_cone_classify(int r, const double *mu, double fn, const double *phi, double tol,
                      cs_cone_check *out);

/* Capacity along tangent direction alpha (radians) for the 2-D elliptic section:
 * fn / sqrt(cos^2/mu1^2 + sin^2/mu2^2); with a zero scale the section is a segment: the
 * capacity is 0 off its axis (|cos| or |sin| <= 1e-15 counts as on it), never NaN. */
double cs_cone_capacity(double fn, double mu1, double mu2, double alpha);
/* Capacity along an arbitrary direction dir (r components, need not be unit):
 * the largest l with l dir/||dir|| in the section at fn. Returns -1 if dir == 0. */
double cs_cone_capacity_dir(int r, const double *mu, double fn, const double *dir);

/* Maximum-dissipation friction for fixed fn and sliding velocity v (r components):
 * f = -fn D^2 v / ||D v||, power = f.v = -fn ||D v||. Returns 0 if D v == 0 (no unique
 * direction: f set to 0, power 0), 1 otherwise. */
int cs_cone_slide(int r, const double *mu, double fn, const double *v, double *f, double *power);

/* Pyramid (§5): 2r edge coefficients alpha[2j] = alpha_{j+}, alpha[2j+1] = alpha_{j-}. */
void cs_pyramid_decode(int r, const double *mu, const double *alpha, double *fn, double *phi);
/* Full-domain encoding; returns 0 if (fn, phi) is outside the pyramid (alpha still written,
 * possibly negative), 1 if representable. A slack s = fn - sum|phi_j|/mu_j down to
 * -1e-14 (fn + sum|phi_j|/mu_j) counts as 0 (rounding on the pyramid's faces). mu_j == 0
 * with phi_j != 0 is not representable. */
int cs_pyramid_encode_full(int r, const double *mu, double fn, const double *phi, double *alpha);
/* MuJoCo-compatible encoding (mju_encodePyramid), clipping included. r >= 1.
 * mu_j == 0 (MuJoCo floors scales at 1e-5, so never there) takes b_j = 0. */
void cs_pyramid_encode_mujoco(int r, const double *mu, double fn, const double *phi, double *alpha);

/* Fixed-normal QCQP (§6): minimise 1/2 x^T H x + b^T x s.t. sum_j (x_j/mu_j)^2 <= fn^2.
 * H is n x n row-major symmetric positive definite, n in 1..5. */
typedef struct {
    double lambda;          /* multiplier, >= 0 */
    int active;             /* bound active */
    int iterations;         /* Newton updates of lambda (0 when inactive); the start at the
                               lower bound ||D b||/fn - trace(B), when used, is not counted */
    double feasibility;     /* max(0, ||D^-1 x|| - fn) */
    double stationarity;    /* ||H x + b + lambda D^-2 x|| (over mu_j > 0) */
    double complementarity; /* lambda * (||D^-1 x||^2 - fn^2) */
    /* diagnostics beyond the checks above: */
    double stationarity_rel;  /* stationarity / (||H||_F ||x|| + ||b|| + lambda ||D^-2 x||)
                                 over the free comps (normwise backward error), 0 if all 0 */
    double unconstrained_norm; /* ||D^-1 x_unc|| of the unconstrained minimiser (free comps) */
    double x_unc[CS_MAXFRIC];  /* unconstrained minimiser -H^-1 b on the free comps, 0 elsewhere */
} cs_qcqp_info;
/* Returns 0 on success, -1 if H is not positive definite (x untouched), -2 on bad
 * arguments (n outside 1..5, fn or a mu negative or not finite; x untouched).
 * Components with mu_j == 0 are fixed at 0 and the rest solved on H's free block
 * (the full H must still be positive definite); fn == 0 returns x = 0 with
 * lambda = 0, active = 1 when b != 0 on the free comps (the apex has no finite
 * multiplier, so stationarity then reports ||b|| over the free comps); an fn so small
 * that ||D b||/fn overflows is treated as the apex.
 * Only H's lower triangle is factored; the residuals use all of H. Allocation-free.
 * info may be NULL (x only, the residuals are not computed).
 * Method: Cholesky of B + lambda I, B = D H D, and Newton on the secular form
 * 1/||y(lambda)|| - 1/fn (same root as psi, uses psi'; nearly linear in lambda, so it
 * converges in a few steps where Newton on psi ~ 1/lambda^2 crawls), guarded by the
 * bracket [0, ||D b||/fn] and started at the lower bound ||D b||/fn - trace(B) when that
 * is positive; an active solution is scaled radially onto the ellipsoid. Typically 2-5
 * factorisations of an n x n matrix per call; ~1 us on this machine for n <= 5. */
int cs_qcqp_solve(int n, const double *H, const double *b, const double *mu, double fn,
                  double *x, cs_qcqp_info *info);

/* The same solve for the PGS inner loop: no residuals; returns 1 when the bound is active,
 * 0 when not, -1 / -2 as cs_qcqp_solve; *lambda receives the multiplier (0 if inactive). */
int cs_qcqp_solve_x(int n, const double *H, const double *b, const double *mu, double fn,
                    double *x, double *lambda);

/* Soft-cone block response (§7) from residual j (r+1 entries: j_n, j_t...), normal
 * regulariser Rn > 0, friction scales mu (r, physical friction) and kappa > 0
 * (= Rn mu_1^2 / impratio). Writes force f (r+1), cost, and if hess != NULL the
 * (r+1)x(r+1) Hessian of the cost w.r.t. j (row-major). Friction regularisers are
 * R_j = kappa / mu_j^2; components with mu_j == 0 are fixed at 0. r == 0 (condim 1)
 * or all mu_j == 0 give the normal alone: f_n = max(0, -j_n/Rn), cost j_n^2/(2 Rn) for
 * j_n < 0 (kappa is then unused). Ties go to top, then bottom. f, cost and hess are
 * all written (hess zero-filled where it vanishes). */
cs_zone cs_soft_cone(int r, const double *j, double Rn, const double *mu, double kappa, double *f,
                     double *cost, double *hess);

/* The same response along a direction dj: f.dj and dj^T hess dj, without forming f or the
 * Hessian (line searches). Same zones as cs_soft_cone. */
cs_zone cs_soft_cone_dir(int r, const double *j, const double *dj, double Rn, const double *mu,
                         double kappa, double *fdj, double *djhdj);

/* MuJoCo's regulariser shape (§7): R[0] = Rn, R_1 = Rn/impratio for the first positive
 * scale mu_1, kappa = R_1 mu_1^2 = Rn mu_1^2 / impratio, R_j = kappa / mu_j^2 for every
 * positive mu_j (0 where mu_j == 0: left out), mubar = sqrt(kappa/Rn) = mu_1/sqrt(impratio).
 * R may be NULL. Returns 0 (kappa = mubar = 0) when no scale is positive, else 1. */
int cs_soft_regularizer(int r, double Rn, const double *mu, double impratio, double *R,
                        double *kappa, double *mubar);

const char *cs_zone_name(cs_zone z);
/* "inside", "boundary", "outside". */
const char *cs_cone_where_name(cs_cone_where w);

#endif
