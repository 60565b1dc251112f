/* Friction-cone math of the chapter (../shared/spec/cone-math.md §2-§7).
 * Plain double arrays in and out, no allocation, no I/O.
 * Conventions: r = condim - 1 friction components phi[0..r-1] in condim order
 * (t1, t2, spin, roll1, roll2); mu[0..r-1] their scales (D = diag(mu)). */
#ifndef CS_CONE_H
#define CS_CONE_H

#define CS_MAXFRIC 5 /* condim 6 */
#define CS_MAXDIM 6

/* Where a force lies relative to the cone. */
typedef enum { CS_CONE_INSIDE = 0, CS_CONE_BOUNDARY = 1, CS_CONE_OUTSIDE = 2 } cs_cone_where;

/* Zone of the soft-cone residual cost (§7). */
typedef enum { CS_ZONE_TOP = 0, CS_ZONE_BOTTOM = 1, CS_ZONE_MIDDLE = 2 } cs_zone;

/* ||D^-1 phi|| over the components with mu_j > 0, plus +inf-free handling:
 * components with mu_j == 0 and phi_j != 0 make the force infeasible. */
typedef struct {
    double scaled_norm;   /* ||D^-1 phi|| over mu_j > 0 */
    double radius;        /* scaled_norm / fn; meaningful only if radius_defined */
    int radius_defined;   /* 0 when fn == 0 */
    double signed_dist;   /* scaled_norm - fn: < 0 inside, 0 on, > 0 outside (scaled units of N) */
    int zero_mu_violated; /* some mu_j == 0 with phi_j != 0 */
    cs_cone_where where;
} cs_cone_check;

/* Classify (fn, phi) against the cone; boundary when |radius - 1| <= tol
 * (fn == 0: boundary iff phi == 0, else outside). fn < 0 is outside. */
void cs_cone_classify(int r, const double *mu, double fn, const double *phi, double tol,
                      cs_cone_check *out);

/* Capacity along tangent direction alpha (radians) for the 2-D elliptic section. */
double cs_cone_capacity(double fn, double mu1, double mu2, double alpha);

/* Maximum-dissipation friction for fixed fn and sliding velocity v (r components):
 * f = -fn D^2 v / ||D v||, power = f.v = -fn ||D v||. Returns 0 if D v == 0 (no unique
 * direction: f set to 0, power 0), 1 otherwise. */
int cs_cone_slide(int r, const double *mu, double fn, const double *v, double *f, double *power);

/* Pyramid (§5): 2r edge coefficients alpha[2j] = alpha_{j+}, alpha[2j+1] = alpha_{j-}. */
void cs_pyramid_decode(int r, const double *mu, const double *alpha, double *fn, double *phi);
/* Full-domain encoding; returns 0 if (fn, phi) is outside the pyramid (alpha still written,
 * possibly negative), 1 if representable. */
int cs_pyramid_encode_full(int r, const double *mu, double fn, const double *phi, double *alpha);
/* MuJoCo-compatible encoding (mju_encodePyramid), clipping included. */
void cs_pyramid_encode_mujoco(int r, const double *mu, double fn, const double *phi, double *alpha);

/* Fixed-normal QCQP (§6): minimise 1/2 x^T H x + b^T x s.t. sum_j (x_j/mu_j)^2 <= fn^2.
 * H is n x n row-major symmetric positive definite, n in 1..5. */
typedef struct {
    double lambda;          /* multiplier, >= 0 */
    int active;             /* bound active */
    int iterations;         /* Newton iterations on lambda */
    double feasibility;     /* max(0, ||D^-1 x|| - fn) */
    double stationarity;    /* ||H x + b + lambda D^-2 x|| (over mu_j > 0) */
    double complementarity; /* lambda * (||D^-1 x||^2 - fn^2) */
} cs_qcqp_info;
/* Returns 0 on success, -1 if H is not positive definite (x untouched). */
int cs_qcqp_solve(int n, const double *H, const double *b, const double *mu, double fn,
                  double *x, cs_qcqp_info *info);

/* Soft-cone block response (§7) from residual j (r+1 entries: j_n, j_t...), normal
 * regulariser Rn > 0, friction scales mu (r, physical friction) and kappa > 0
 * (= Rn mu_1^2 / impratio). Writes force f (r+1), cost, and if hess != NULL the
 * (r+1)x(r+1) Hessian of the cost w.r.t. j (row-major). Friction regularisers are
 * R_j = kappa / mu_j^2; components with mu_j == 0 are fixed at 0. */
cs_zone cs_soft_cone(int r, const double *j, double Rn, const double *mu, double kappa, double *f,
                     double *cost, double *hess);

const char *cs_zone_name(cs_zone z);

#endif
