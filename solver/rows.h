/* Soft constraint rows (docs/contact-math.md §8, §10): contacts (Jacobian in the contact
 * frame over generalised coordinates, impedance, K/B, a_ref, R, regularised mu) and joint
 * rows (limits, dry joint friction). No I/O. */
#ifndef CS_ROWS_H
#define CS_ROWS_H

#include "cone.h"
#include "cone_type.h"

/* Row layout of a block. */
typedef enum {
    CS_BLOCK_FRICTIONLESS = 0, /* condim 1: one row f_n >= 0 */
    CS_BLOCK_ELLIPTIC = 1,     /* dim rows (n, t1, t2, spin, roll1, roll2), f in the cone */
    CS_BLOCK_PYRAMIDAL = 2,    /* 2(dim-1) edge rows J_n +- mu_j J_j, each edge force >= 0 */
    CS_BLOCK_LIMIT = 3,        /* one row, one-sided: f >= 0 (joint limit; MuJoCo
                                  mjCNSTR_LIMIT_JOINT) */
    CS_BLOCK_FRICTIONLOSS = 4, /* one row, box: -frictionloss <= f <= frictionloss (dry joint
                                  or tendon friction; mjCNSTR_FRICTION_DOF, _TENDON) */
    CS_BLOCK_EQUALITY = 5      /* 1..6 rows, bilateral: f free (an equality constraint;
                                  mjCNSTR_EQUALITY); in the soft model every row is in its
                                  quadratic zone, f = -(J a - a_ref) / R */
} cs_block_kind;

#define CS_MAXROWS 10 /* pyramidal condim 6 */

/* cs_efc_add_joint_row's answer for a joint row with an unknown kind, no tree or dofs, or
 * a friction bound not positive and finite: left out. (What MuJoCo replaces silently is
 * replaced here too: a mixed-sign solref by 0.02 1, a mixed-sign solreffriction by 0 0, a
 * condim not 1, 3, 4, 6 -- which the loader rejects -- by a frictionless contact.) */
#define CS_ROWS_BAD_JOINT 8

/* One contact as collision/sim deliver it. */
typedef struct {
    double pos[3];      /* contact point, world */
    double frame[9];    /* rows n, t1, t2 (n points from geom1 to geom2) */
    double dist;        /* signed distance, < 0 in penetration */
    int dim;            /* condim 1, 3, 4, 6 */
    double friction[5]; /* t1, t2, spin, roll1, roll2 (physical coefficients) */
    double solref[2], solreffriction[2], solimp[5];
    double margin, gap; /* include-margin m_c = margin - gap */
    double surfvel[6];  /* the surfaces' own velocity in the contact frame, geom2's minus
                           geom1's (t1, t2, spin; the rest 0): added to the rows' velocities,
                           so friction drives the bodies toward the surfaces' motion */
    double adhesion;    /* the contact's constant attraction (N), applied outside the solver
                           as a passive force; its rows' a_ref is raised by R adhesion so that
                           the cone is the translated one (docs/contact-math.md §12) */
} cs_contact_in;

/* One side of a contact (geom1's, then geom2's): the dofs of the kinematic tree that moves
 * the geom -- contiguous, dofadr .. dofadr + ndof - 1, the whole tree, because the
 * solver's M^-1 J^T fills the tree -- and the Jacobians of the contact point over them. */
typedef struct {
    int tree;             /* kinematic tree, -1 for static geometry (then ndof = 0) */
    int dofadr, ndof;
    const double *jacp;   /* 3 x ndof, row-major: velocity of the point moving with the side */
    const double *jacr;   /* 3 x ndof: angular velocity of the side */
    double invweight[2];  /* (trans, rot) of the geom's own body (R's diagonal approximation) */
    int nzcol;            /* when in 1 .. ndof - 1: jacp and jacr are zero in the columns from
                             nzcol on (the dofs after the geom's body's last on its chain),
                             which are not read (need not be written); 0: not known */
    int offchain;         /* 1: some columns before nzcol are off the chain to the geom's body
                             (zero): the rows then list their nonzero columns; 0: none, or not
                             known (the rows' products take the columns up to the last
                             nonzero whole) */
} cs_contact_side;

/* One joint row: one scalar row on one kinematic tree (docs/contact-math.md §10). */
typedef struct {
    int kind;            /* CS_BLOCK_LIMIT or CS_BLOCK_FRICTIONLOSS */
    int tree;            /* the tree (>= 0) */
    int dofadr, ndof;    /* the row's columns: the whole tree's dofs (as contact sides) */
    const double *J;     /* ndof values over those columns (mostly zeros: +-1 on a hinge/slide
                            dof, a unit axis over a ball joint's 3 dofs) */
    double pos, margin;  /* limit: distance from the limit (< 0 violated) and the joint's
                            margin; friction: 0 and 0 (a friction row has no position: both
                            are taken as 0 whatever is given) */
    double solref[2], solimp[5];  /* limit: solreflimit/solimplimit; friction:
                                     solreffriction/solimpfriction */
    double invweight;    /* R's diagonal approximation: dof_invweight0 of the joint's first
                            dof */
    double frictionloss; /* friction: the bound (> 0); limit: unused */
} cs_joint_row_in;

/* Rows over up to two kinematic trees that are not contacts: a joint or tendon limit, dry
 * friction of a dof or tendon (one row each), an equality constraint (1..6 rows). Side 1
 * may be absent (tree -1, ndof 0); a side with tree -1 must be side 1. */
typedef struct {
    int kind;            /* CS_BLOCK_LIMIT, CS_BLOCK_FRICTIONLOSS or CS_BLOCK_EQUALITY */
    int nrow;            /* 1; an equality 1..6 */
    int tree[2];         /* side 0's tree (>= 0), side 1's (-1: none; never equal to side 0's) */
    int dofadr[2], ndof[2]; /* each side's columns: the whole tree's dofs */
    const double *J;     /* nrow x (ndof[0] + ndof[1]), row-major: side 0's columns first */
    const double *pos;   /* nrow: limit distance (< 0 violated), equality residual; NULL for
                            friction (0) */
    double margin;       /* limit: the margin (equality, friction: 0) */
    double solref[2], solimp[5];
    const double *invweight; /* nrow: R's diagonal approximation (MuJoCo's efc_diagApprox) */
    double frictionloss; /* friction: the bound (> 0) */
} cs_rows_in;

typedef struct {
    double timestep;
    double impratio;    /* MuJoCo default 1 */
    cs_cone_type cone;
    int refsafe;        /* 1 = clamp timeconst >= 2 timestep (MuJoCo default on) */
} cs_row_opts;

/* The constraint rows of one step, MuJoCo's efc_ layout: per-row arrays, J sparse by rows
 * (row pointers, dof indices, values). Rows come in blocks, one per contact (dim rows
 * elliptic, 2 (dim - 1) pyramidal, 1 frictionless) or joint row (1 row); per-block arrays
 * hold what the rows of a block share (a joint block: kind, trees {tree, -1}, dofs, imp,
 * blk_cvel[0] = J qvel, blk_force[0] = the row's force, zone; friction, mu, kappa 0). Storage grows when a step needs more and is reused after: no allocation
 * in a step once the largest has been seen. */
typedef struct cs_efc {
    int nefc, nblock, nnz;
    int cap_efc, cap_block, cap_nnz;
    /* rows (nefc) */
    int *type;            /* cs_block_kind of the row's block */
    int *id;              /* the contact (joint row: the caller's id) the row belongs to */
    int *block;           /* its block */
    int *J_rownnz, *J_rowadr, *J_colind;
    double *J;            /* nnz */
    int *J_nzcol;         /* nnz room; at a block's first row's J_rowadr: the positions in a
                             row of the block's columns with a nonzero in any of its rows,
                             ascending (side 0's, then side 1's; blk_nnzcol of each), unless
                             blk_nzall */
    double *pos, *margin, *dA, *K, *B;
    double *vel;          /* J qvel (pyramidal: edge velocities) */
    double *aref, *R;
    double *force;        /* row-space force: elliptic components, pyramid edges */
    double *frictionloss; /* friction-loss rows: the bound (0 on every other row) */
    /* blocks (nblock) */
    int *blk_kind, *blk_dim, *blk_nrow, *blk_row, *blk_id;
    int *blk_tree;        /* 2: trees of geom1's and geom2's side (-1 static); equal trees
                             are merged into side 0 */
    int *blk_dofadr, *blk_ndof; /* 2: the sides' dof ranges; columns of every row of the
                                   block are side 0's then side 1's */
    int *blk_nzlo;        /* 2: per side, its first column with a nonzero in any of the
                             block's rows (the columns before it are zero in every row: a
                             joint's row has its own dofs only); 0 for a contact */
    int *blk_nzdof;       /* 2: per side, the columns up to its last nonzero in any of the
                             block's rows (<= blk_ndof; the side's later columns are zero in
                             every row: a contact on a chain's link moves the dofs up to the
                             link's only) */
    int *blk_nnzcol;      /* 2: per side, how many of the block's columns in J_nzcol (those
                             of a contact: its bodies' chains; of a joint row: its dofs) */
    int *blk_nzall;       /* 1: the block's columns are taken as every column of its nonzero
                             ranges (blk_nzlo .. blk_nzdof), J_nzcol not written: ranges of
                             at most 12 columns in all (a contact of two free bodies), a
                             contact whose sides are not known to leave the chains to its
                             bodies, or no zero column */
    double *blk_friction; /* 5: physical, floored at 1e-5 (MuJoCo) */
    double *blk_mu;       /* regularised cone coefficient friction_1 sqrt(R_1 / R_0) */
    double *blk_kappa;    /* elliptic: R_j friction_j^2 (same for all j) */
    double *blk_imp, *blk_margin_c;
    double *blk_cvel;     /* 6: contact-frame velocity (v_n, v_t1, v_t2, w_spin, w_roll..) */
    double *blk_force;    /* 6: contact-frame force (f_n, friction ...), decoded */
    int *blk_zone;        /* cs_zone of the block's residual J a - a_ref (cone.h: contacts
                             top/bottom/middle; a limit top (no force) or bottom (active);
                             a friction-loss row bottom (quadratic) or linearneg/linearpos) */
} cs_efc;

void cs_efc_init(cs_efc *e);
void cs_efc_free(cs_efc *e);
void cs_efc_clear(cs_efc *e); /* no rows; storage kept */
/* Room for this many more blocks, rows and nonzeros; 0, or -1 out of memory. */
int cs_efc_reserve(cs_efc *e, int nblock, int nrow, int nnz);
/* Append one contact's block (grows storage when needed). qvel: the model's velocity (the
 * sides index it by dof). Returns 0, or -1 when out of memory. */
int cs_efc_add_contact(cs_efc *e, const cs_contact_in *c, int id, const cs_contact_side side[2],
                       const double *qvel, const cs_row_opts *o);
/* Append one joint row as its own block (blk_tree = {tree, -1}); id is the caller's (joint
 * index for a limit, dof index for friction), stored in blk_id and id. Numbers as MuJoCo's
 * mj_instantiateLimit / mj_instantiateFriction and mj_makeImpedance: imp from solimp at
 * (pos, margin) (friction: 0, 0), R = max(1e-15, (1 - imp) invweight / imp), solref as
 * cs_solref_fix, K and B from cs_solref_kb, a_ref = -B vel - K imp (pos - margin) for a
 * limit and -B vel for friction (K = 0), no impratio. Returns 0, CS_ROWS_BAD_JOINT
 * (nothing appended) or -1 out of memory. */
int cs_efc_add_joint_row(cs_efc *e, const cs_joint_row_in *r, int id, const double *qvel,
                         const cs_row_opts *o);
/* Append rows that are not a contact's as one block (cs_rows_in). Numbers as MuJoCo's
 * mj_instantiateEquality/Friction/Limit with mj_makeImpedance: the impedance from solimp at
 * (pos, margin), for an equality block at the norm of its residuals (all its rows share
 * it), R_i = max(1e-15, (1 - imp) invweight_i / imp), K and B from solref (friction K = 0),
 * a_ref_i = -B vel_i - K imp (pos_i - margin). Returns 0, CS_ROWS_BAD_JOINT (nothing
 * appended) or -1 out of memory. */
int cs_efc_add_rows(cs_efc *e, const cs_rows_in *r, int id, const double *qvel,
                    const cs_row_opts *o);
/* Value of row r at dof q (0 where the row has no entry). */
double cs_efc_J(const cs_efc *e, int r, int q);

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

#endif
