/* Collision detection: geoms (shapes + world poses) in, contacts out.
 *
 * collision/ knows nothing of the model: the caller describes the geoms once (static
 * data: shape, body/weld info for MuJoCo's filters, contact parameters), the explicit
 * pairs and the excluded body pairs, and hands the world poses to every detect call.
 * A context is created once with capacities; cs_collision_detect allocates nothing
 * (its pair buffer only grows if a step ever has more candidates than any step before).
 *
 * Conventions are MuJoCo 3.12's (docs/contact-math.md §8):
 * - pair order: the geom with the lower type code is geom1 (equal types: the lower index,
 *   or for an explicit pair its geom1 as written);
 * - normal = frame row 0 points from geom1 to geom2; dist < 0 is penetration;
 * - margin of a pair = sum of the geoms' margins, gap = sum of their gaps (explicit pair:
 *   its own); contacts are reported for dist <= margin + gap (MuJoCo's routines test
 *   dist > margin + gap), and the solver uses a contact when dist < margin;
 * - pos is midway between the two surfaces;
 * - planes are infinite, act on the +z side of their frame, never collide with planes. */
#ifndef CS_COLLISION_H
#define CS_COLLISION_H

#include <stddef.h>

#include "geom.h"
#include "hull.h"

#define CS_MAXCONPAIR 50   /* most contacts one geom pair yields (MuJoCo's mjMAXCONPAIR:
                            * a height field's prisms; box-box gives 8) */
#define CS_MINMU 1e-5      /* friction floor, as MuJoCo's mjMINMU */

/* A height field (MuJoCo's): nrow x ncol elevations data (row-major, in [0, 1], row r at
 * y = -size[1] + 2 size[1] r / (nrow - 1), column c at x likewise) of the surface
 * z = data size[2] over a base at z = -size[3], in the geom's frame. It collides as the two
 * triangular prisms of each grid cell under the other geom's box. */
typedef struct {
    int nrow, ncol;       /* each at least 2 */
    double size[4];       /* radius x, radius y, elevation z, base z; all positive */
    const double *data;   /* owned by the caller, alive as long as the context */
} cs_hfield;

/* Static description of one geom (filled once from the model). contype = conaffinity = 0
 * takes the geom out of the broad phase (it can still be in an explicit pair). */
typedef struct {
    int type;            /* cs_geom_type */
    double size[3];      /* MuJoCo's geom size meaning */
    int body;            /* body id (0 = world); used by excludes */
    int weldbody;        /* MuJoCo's body_weldid[body]: the body it is rigidly welded to, a body
                          * with joints or a mocap body (0 = world) */
    int weldparent;      /* body_weldid[body_parentid[weldbody]] (0 for world) */
    int dofless;         /* 1: weldbody has no dofs (the world, a mocap body): two such geoms
                          * never touch (no force could act) */
    int contype, conaffinity;
    int condim;          /* 1, 3, 4 or 6 */
    int priority;
    double solmix;
    double friction[3];  /* slide, spin, roll */
    double solref[2];
    double solimp[5];
    double margin, gap;
    double adhesion;     /* attraction of its contacts (N), summed with the other geom's */
    cs_hull hull;        /* CS_GEOM_MESH: its convex hull (arrays owned by the caller, who
                          * keeps them alive as long as the context); zeros otherwise, and
                          * for a mesh geom that neither contype, conaffinity nor a pair
                          * lets collide */
    cs_hfield hfield;    /* CS_GEOM_HFIELD: its grid; zeros otherwise */
} cs_collision_geom;

/* An explicit <pair>: bypasses all filters; its values are final (the loader resolves
 * unspecified attributes), and it replaces the automatic contact of the same two geoms. */
typedef struct {
    int geom1, geom2;
    int condim;
    double friction[5];      /* t1, t2, spin, roll1, roll2 */
    double solref[2];
    double solreffriction[2];/* (0, 0) = unset: the solver then uses solref */
    double solimp[5];
    double margin, gap;
    double adhesion;
} cs_collision_pair;

/* An <exclude>: no automatic contacts between geoms of these two bodies. */
typedef struct {
    int body1, body2;
} cs_collision_exclude;

/* One contact point. */
typedef struct cs_geom_contact {
    double pos[3];           /* midway between the surfaces */
    double frame[9];         /* rows: normal (geom1 -> geom2), t1, t2; right-handed */
    double dist;             /* signed distance, negative = penetration */
    int geom1, geom2;
    int pair;                /* explicit pair index, -1 if automatic */
    int dim;                 /* condim */
    double friction[5];      /* floored at CS_MINMU */
    double solref[2];
    double solreffriction[2];
    double solimp[5];
    double margin, gap;      /* detected within margin + gap, in the solver when dist < margin */
    double adhesion;         /* constant attraction along the normal (N); 0 for none */
} cs_geom_contact;

/* Whether the solver uses the contact (MuJoCo 3.12: not excluded by the gap). An adhesive
 * contact in the gap stays: it pulls at a distance (a magnet). */
static inline int cs_contact_active(const cs_geom_contact *c)
{
    return c->dist < c->margin || c->adhesion != 0;
}

/* Options: fill with cs_collision_options_default, then change what you need. */
typedef struct {
    int filterparent;        /* 1 (MuJoCo's default): skip parent-child body pairs */
    int multiccd;            /* 1: several points for convex pairs that can rest flat */
    int ccd_iterations;      /* GJK's and EPA's (or MPR's) iteration cap */
    double ccd_tolerance;    /* their tolerance */
    int ccd_mpr;             /* 1: convex pairs by libccd's MPR (MuJoCo's nativeccd
                              * disabled); 0: GJK and EPA as MuJoCo 3.12's native collider */
} cs_collision_options;

void cs_collision_options_default(cs_collision_options *opt);

typedef struct cs_collision cs_collision;

/* Validate and copy the descriptions, allocate all buffers. NULL on error with a
 * message in err (if errlen > 0). opt may be NULL (defaults). */
cs_collision *cs_collision_create(const cs_collision_geom *geoms, int ngeom,
                                  const cs_collision_pair *pairs, int npair,
                                  const cs_collision_exclude *excludes, int nexclude,
                                  const cs_collision_options *opt,
                                  char *err, size_t errlen);
void cs_collision_free(cs_collision *c);

/* Detect all contacts at the given world poses (poses[ngeom], e.g. MuJoCo's geom_xpos and
 * geom_xmat). Writes at most maxcon contacts to con and returns their number; *dropped
 * (may be NULL) receives how many more were found but did not fit (-1: out of memory
 * growing the candidate buffer). Order: by geom pair (lower index, higher index), explicit
 * pairs merged in at their geom pair; within a pair, the routine's point order.
 * Deterministic: the same poses give the same contacts, bit for bit.
 * A context holds scratch buffers: use one per thread / per cs_data. */
int cs_collision_detect(cs_collision *c, const cs_pose *poses, cs_geom_contact *con, int maxcon,
                        int *dropped);

/* Sleeping bodies (MuJoCo 3.12's sleep filter): geom_sleep[ngeom] 0 awake, 1 on a sleeping
 * body, 2 static (no dofs, not on a mocap body); NULL (the default): all awake. The array is
 * read by each cs_collision_detect, not copied. */
void cs_collision_set_sleep(cs_collision *c, const int *geom_sleep);

/* --- lower-level pieces (used by detect; exposed for tests and tools) ------------- */

/* World AABB of a geom, margin included: lo[3], hi[3]. Planes get +-HUGE_VAL. Meshes:
 * the box of size[] about the origin (cs_geom_aabb_hull is tighter). */
void cs_geom_aabb(int type, const double size[3], const cs_pose *pose, double margin,
                  double lo[3], double hi[3]);
/* World AABB of a hull's local bounding box. */
void cs_geom_aabb_hull(const cs_hull *h, const cs_pose *pose, double margin, double lo[3],
                       double hi[3]);

/* Candidate automatic pairs after the broad phase and filters of the last
 * cs_collision_detect (or cs_collision_broadphase) call: pairs[2*k], pairs[2*k+1], ordered
 * as contacts are (geom1, geom2). Explicit pairs are not included. */
int cs_collision_broadphase(cs_collision *c, const cs_pose *poses);
const int *cs_collision_candidates(const cs_collision *c, int *n);

/* Geom g's hull as the context holds it (CS_GEOM_MESH with a hull), else NULL. */
const cs_hull *cs_collision_hull(const cs_collision *c, int g);

/* The filter rules alone (contype/conaffinity, weld, parent, exclude, explicit pair
 * replacement) for geoms i and j: 1 = may collide automatically. */
int cs_collision_filter(const cs_collision *c, int i, int j);

/* Narrow phase for one geom pair given in MuJoCo order (type1 <= type2). Fills up to
 * CS_MAXCONPAIR raw contacts: pos, frame (normal row; tangent rows complete), dist.
 * Returns the number of points with dist <= margin. Uses the context's settings (c may be
 * NULL: defaults). */
int cs_collide_pair(const cs_collision *c, int type1, const double size1[3], const cs_pose *p1,
                    int type2, const double size2[3], const cs_pose *p2, double margin,
                    cs_geom_contact *out);
/* The same with hulls for CS_GEOM_MESH geoms (NULL for the other types); a height field
 * (which needs its grid) gives no contacts here: see cs_collide_pair_hfield. */
int cs_collide_pair_hull(const cs_collision *c, int type1, const double size1[3],
                         const cs_hull *hull1, const cs_pose *p1, int type2,
                         const double size2[3], const cs_hull *hull2, const cs_pose *p2,
                         double margin, cs_geom_contact *out);

/* A height field (geom1) against a convex geom (type2 above CS_GEOM_HFIELD; hull2 for a
 * mesh), MuJoCo 3.12's mjc_ConvexHField: the grid's triangular prisms under geom2's box,
 * each a single contact of the prism (its top raised by the margin) and geom2 (grown by
 * half the margin) where they overlap, at most CS_MAXCONPAIR in out. */
int cs_collide_pair_hfield(const cs_collision *c, const cs_hfield *hf, const cs_pose *p1,
                           int type2, const double size2[3], const cs_hull *hull2,
                           const cs_pose *p2, double margin, cs_geom_contact *out);

/* The same for a distance: distmax as the margin, box pairs by the general convex path
 * (the box-box clipper finds touching faces, not distances); MuJoCo's mj_geomDistance. */
int cs_collide_pair_distance(const cs_collision *c, int type1, const double size1[3],
                             const cs_hull *hull1, const cs_pose *p1, int type2,
                             const double size2[3], const cs_hull *hull2, const cs_pose *p2,
                             double distmax, cs_geom_contact *out);

/* Complete a contact frame the MuJoCo way: frame[0..2] the normal (normalised here);
 * frame[3..5] a tangent hint or zeros. Default tangent: world y made orthogonal to the
 * normal (world z when |n_y| >= 0.5); t2 = n x t1. */
void cs_make_frame(double frame[9]);

/* Swap geom1 and geom2 of a contact (e.g. to report an explicit pair as written when
 * MuJoCo's type order reversed it): the normal and t2 change sign, t1 stays, so the
 * frame stays right-handed. */
void cs_contact_flip(cs_geom_contact *con);

/* Mix the parameters of two geoms by MuJoCo's rules into con (dim, friction, solref,
 * solreffriction = 0, solimp); friction floored at CS_MINMU. */
void cs_mix_params(const cs_collision_geom *g1, const cs_collision_geom *g2, cs_geom_contact *con);

#endif
