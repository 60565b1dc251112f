/* Soft contact constraint rows (cone-math.md §8): Jacobian in the contact frame over the
 * two bodies' 12 free-joint dofs, impedance, K/B, a_ref, R, regularised mu.
 * Plain arrays in, one fixed-size cs_block per contact out; no allocation, no I/O.
 *
 * Free-joint dof convention (MuJoCo's): per body 6 dofs = world linear velocity of the
 * body-frame origin, then angular velocity in the body's LOCAL frame. */
#ifndef CS_ROWS_H
#define CS_ROWS_H

#include "cone.h"

/* MuJoCo's mjtCone order. */
typedef enum { CS_CONE_PYRAMIDAL = 0, CS_CONE_ELLIPTIC = 1 } cs_cone_type;

/* Row layout of a block. */
typedef enum {
    CS_BLOCK_FRICTIONLESS = 0, /* condim 1: one row f_n >= 0 */
    CS_BLOCK_ELLIPTIC = 1,     /* dim rows (n, t1, t2, spin, roll1, roll2), f in the cone */
    CS_BLOCK_PYRAMIDAL = 2     /* 2(dim-1) edge rows J_n +- mu_j J_j, each edge force >= 0 */
} cs_block_kind;

#define CS_MAXROWS 10 /* pyramidal condim 6 */

/* Warnings raised while making rows (bit mask), MuJoCo's behaviour in brackets. */
#define CS_ROWS_WARN_SOLREF 1         /* mixed-sign solref [replaced by 0.02 1] */
#define CS_ROWS_WARN_SOLREFFRICTION 2 /* mixed-sign solreffriction [replaced by 0 0] */
#define CS_ROWS_BAD_DIM 4             /* condim not 1, 3, 4, 6: made frictionless (sim's
                                         loader should have rejected it) */

/* One contact as collision/sim deliver it. */
typedef struct {
    double pos[3];      /* contact point, world */
    double frame[9];    /* rows n, t1, t2 (n points from geom1 to geom2) */
    double dist;        /* signed distance, < 0 in penetration */
    int dim;            /* condim 1, 3, 4, 6 */
    double friction[5]; /* t1, t2, spin, roll1, roll2 (physical coefficients) */
    double solref[2], solreffriction[2], solimp[5];
    double margin, gap; /* include-margin m_c = margin - gap */
    int body[2];        /* dynamic body of geom1 / geom2, -1 for static geometry or world */
} cs_contact_in;

/* Per-body state the rows need (arrays indexed by body). */
typedef struct {
    const double *xpos;       /* 3 per body: world position of the body-frame origin */
    const double *xmat;       /* 9 per body: rotation body->world, row-major */
    const double *invweight0; /* 2 per body: (trans, rot) at the reference pose */
    const double *qvel;       /* 6 per body: current velocity (for vel = J qvel) */
} cs_bodies_in;

typedef struct {
    double timestep;
    double impratio;    /* MuJoCo default 1 */
    cs_cone_type cone;  /* default elliptic here; MuJoCo's default is pyramidal */
    int refsafe;        /* 1 = clamp timeconst >= 2 timestep (MuJoCo default on) */
} cs_row_opts;

/* One contact's constraint block plus the solver's per-block state. */
typedef struct {
    cs_block_kind kind;
    int dim;            /* contact condim */
    int nrow;           /* 1, dim, or 2(dim-1) */
    int body[2];
    int contact;        /* index of the contact it came from */
    double friction[5]; /* physical, floored at 1e-5 (MuJoCo) */
    double mu;          /* regularised cone coefficient friction_1 / sqrt(impratio) */
    double kappa;       /* elliptic: R_j friction_j^2 (same for all j) */
    double imp, impP;   /* impedance of the block (from the normal row's pos) and d imp/d pos */
    double margin_c;    /* margin - gap */
    double dA[CS_MAXROWS];
    double J[CS_MAXROWS][12]; /* columns: body[0]'s 6 dofs, then body[1]'s (zero if static) */
    double pos[CS_MAXROWS], margin[CS_MAXROWS];
    double K[CS_MAXROWS], B[CS_MAXROWS];
    double vel[CS_MAXROWS];   /* J qvel per row (pyramidal: edge velocities) */
    double cvel[CS_MAXDIM];   /* contact-frame velocity (v_n, v_t1, v_t2, w_spin, w_roll..) */
    double aref[CS_MAXROWS];
    double R[CS_MAXROWS];
    /* solver state / outputs */
    double f[CS_MAXROWS];     /* row forces: elliptic/frictionless components, pyramid edges */
    double force[CS_MAXDIM];  /* decoded contact-frame force (f_n, friction ...) */
    cs_zone zone;             /* zone of the residual J a - a_ref in the soft cone */
    int island;               /* -1 if no dynamic body */
    /* scratch owned by the solver */
    double W[12][CS_MAXROWS]; /* M^-1 J^T */
    double G[CS_MAXROWS * CS_MAXROWS]; /* J M^-1 J^T + R, row-major nrow x nrow */
    double jres[CS_MAXROWS], Jd[CS_MAXROWS];
    double Hl[CS_MAXROWS * CS_MAXROWS]; /* Newton: Hessian of the block's soft-cone cost */
} cs_block;

/* solimp clamped as MuJoCo does (d0, dwidth, midpoint to [1e-4, 0.9999], width >= 0,
 * power >= 1). */
void cs_solimp_clamp(const double in[5], double out[5]);
/* Impedance at pos for include-margin m (solimp already clamped); *impP = d imp/d pos. */
double cs_impedance(const double solimp[5], double pos, double m, double *impP);
/* K and B from solref (timeconst/dampratio or direct negative form) and dwidth = solimp[1];
 * solref must already be validated/refsafe-clamped (see cs_solref_fix). */
void cs_solref_kb(const double solref[2], double dwidth, double *K, double *B);
/* Validate solref (mixed signs -> 0.02 1, returns 1) and apply refsafe. */
int cs_solref_fix(const double in[2], double timestep, int refsafe, double out[2]);

/* Jacobian of the contact frame rows (dim rows: n, t1, t2, then rotation rows about
 * n, t1, t2) of the velocity of geom2 relative to geom1, 12 columns. */
void cs_contact_jacobian(const cs_contact_in *c, const cs_bodies_in *b, double J[6][12]);

/* Make one block; returns a CS_ROWS_WARN_* mask. The solver state of `out` is zeroed. */
int cs_rows_make(const cs_contact_in *c, int contact_index, const cs_bodies_in *b,
                 const cs_row_opts *o, cs_block *out);
/* The same with the diagonal approximation's weights given per side: invweight = (trans,
 * rot) of geom1's body, then geom2's (0 for static geometry). MuJoCo takes them from the
 * geoms' own bodies, which differ from the free body's for jointless child bodies. */
int cs_rows_make_iw(const cs_contact_in *c, int contact_index, const cs_bodies_in *b,
                    const cs_row_opts *o, const double invweight[4], cs_block *out);

#endif
