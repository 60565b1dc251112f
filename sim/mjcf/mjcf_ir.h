/* The loader's intermediate form: what the MJCF said, resolved against defaults, before
 * it is compiled into a cs_model (mjcf_load.c reads through the mjcf_*.c element readers, mjcf_compile.c compiles). */
#ifndef CS_MJCF_IR_H
#define CS_MJCF_IR_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include "conesim.h"
#include "lengthrange.h"

typedef struct {
    int type;
    double size[3];
    double pos[3], quat[4];
    int has_fromto;
    double fromto[6];
    int contype, conaffinity, condim, priority, group;
    double friction[3], solmix, solref[2], solimp[5], margin, gap, rgba[4];
    double mass; /* < 0: not given */
    double density;
    double fitscale;      /* a primitive fitted to its mesh is scaled by this */
    int shell;            /* shellinertia: the mass on the surface */
    int fluidshape;       /* 1: MuJoCo's ellipsoid fluid model */
    double fluidcoef[5];  /* its blunt, slender, angular drag, Kutta and Magnus coefficients */
    double surfacevel[6]; /* the surface's velocity field in the geom frame (linear, angular) */
    double adhesion;      /* attraction of its contacts (N) */
    char *mesh;  /* mesh asset name (type mesh) */
    char *hfield; /* height field asset name (type hfield) */
    char *material; /* visual: material asset name (mjcf_visual.c) */
} cs_gspec;

typedef struct {
    int condim;
    double friction[5], solref[2], solreffriction[2], solimp[5], margin, gap;
    double adhesion;
} cs_pspec;

/* limited="false|true|auto" */
enum { CS_LIMITED_FALSE = 0, CS_LIMITED_TRUE = 1, CS_LIMITED_AUTO = 2 };

typedef struct {
    int type;             /* cs_joint_type */
    double pos[3], axis[3];
    double ref, springref; /* as written (degrees for hinges under angle="degree") */
    int limited;          /* CS_LIMITED_* */
    double range[2];      /* as written */
    double margin, armature, frictionloss;
    double stiffness[3], damping[3]; /* MuJoCo's polynomial: linear, then two higher orders */
    double solreflimit[2], solimplimit[5], solreffriction[2], solimpfriction[5];
    int actfrclimited;    /* CS_LIMITED_*: the actuators' total force on the joint clamped */
    double actfrcrange[2];
    int actgravcomp;      /* 1: gravity compensation reaches the joint as actuator force */
    double springdamper[2]; /* timeconst, dampratio (both > 0: stiffness and damping from them) */
} cs_jspec;

/* an actuator's force outputs: an orientation servo's (so3 gain) three, others one */
#define cs_mjcf_act_outputs(s) ((s)->gaintype == CS_GAIN_SO3 ? 3 : 1)
enum { CS_NDYN = 10, CS_NGAIN = 10, CS_NBIAS = 10 };

/* An actuator as the MJCF says it, MuJoCo's mjsActuator fields (a default class holds one
 * that every actuator element of the class starts from, whatever its shortcut) */
typedef struct {
    int dyntype, gaintype, biastype;
    double gear[6];
    double dynprm[CS_NDYN], gainprm[CS_NGAIN], biasprm[CS_NBIAS];
    int ctrllimited, forcelimited, actlimited; /* CS_LIMITED_* */
    double ctrlrange[2], forcerange[2], actrange[2];
    double inheritrange;
    int actearly;
    int group;            /* <option actuatorgroupdisable> disables groups 0..30 */
    int actdim;           /* -1: not given */
    double cranklength;   /* a slider-crank's rod length (0: not given) */
    char *slidersite;     /* a slider-crank's slider site (NULL: not given) */
    double lengthrange[2]; /* the length range a muscle's force is scaled by (0 0: computed) */
    int nsample, interp;  /* its ctrl's history buffer: samples (0: none), 0 zoh 1 linear 2 cubic */
    double delay;         /* > 0: the force reads the ctrl of delay seconds before */
    double damping[3];    /* MuJoCo 3.12: damping and its polynomial (p0, p1) added to the
                             target joint's or tendon's, times gear[0]^2 */
    double armature;      /* the same for armature */
    int ctrlspec;         /* input signature (CS_INPUT_* bits), 0: not given (the type's
                             default) */
    double velrange[2], ffrange[2]; /* a pid's vel and ff input ranges (limited if lo < hi) */
    int chart;            /* 1: ctrlspec is an orientation chart keyword's (CS_CHART_*) */
} cs_aspec;

/* an actuator's activations: a DC motor's its states (actdim), a pid's its controller
 * states (actdim, resolved when compiled; one until then), an integrating orientation
 * servo's its three setpoint components, others one with dynamics */
static inline int cs_mjcf_act_states(const cs_aspec *s)
{
    if (s->dyntype == CS_DYN_PID) return s->actdim < 0 ? 1 : s->actdim;
    if (s->dyntype == CS_DYN_DCMOTOR) return s->actdim;
    if (s->gaintype == CS_GAIN_SO3 && s->dyntype == CS_DYN_INTEGRATOR) return 3;
    return s->dyntype != CS_DYN_NONE;
}
/* an actuator's controls for its resolved input signature: an orientation servo's chart's
 * (3, or 4 for a quaternion), else one per CS_INPUT_* input present, none for
 * CS_INPUT_NONE; a signature of 0 is the plain single control */
static inline int cs_mjcf_act_ctrlnum(const cs_aspec *s)
{
    int spec = s->ctrlspec;
    if (s->gaintype == CS_GAIN_SO3) return spec == CS_CHART_QUAT ? 4 : 3;
    if (spec == 0) return 1;
    if (spec & CS_INPUT_NONE) return 0;
    return !!(spec & CS_INPUT_POS) + !!(spec & CS_INPUT_VEL) + !!(spec & CS_INPUT_FF) +
           !!(spec & CS_INPUT_VOLTAGE);
}

/* a tendon's attributes (MuJoCo's mjsTendon fields conesim reads) */
typedef struct {
    int limited;          /* CS_LIMITED_* */
    double range[2], margin, frictionloss, armature;
    double stiffness[3], damping[3]; /* as a joint's */
    double springlength[2]; /* -1 -1: the length at qpos_spring */
    double solreflimit[2], solimplimit[5], solreffriction[2], solimpfriction[5];
    int actfrclimited;    /* CS_LIMITED_*: actuatorfrcrange bounds its actuators' summed force */
    double actfrcrange[2];
} cs_tspec;

/* an equality constraint's shared attributes */
typedef struct {
    int active;
    double solref[2], solimp[5];
} cs_espec;

typedef struct {
    char *name;
    int parent;
    cs_tspec tendon;
    cs_espec eq;
    cs_gspec geom;
    cs_pspec pair;
    cs_jspec joint;
    cs_aspec act;
    double meshscale[3];
    int site_type;        /* a site's type: whether fromto applies, and the zone touch, contact
                             and insidesite sensors test */
    double site_size[3];  /* a site's size (the sensors' zone) */
    double site_pos[3], site_quat[4]; /* a site's pose when it gives none */
    int site_alt;         /* the class (or a parent) gave an alternative form (euler, ...),
                             site_altquat: as in MuJoCo it wins over any quat */
    double site_altquat[4];
    struct _xmlNode *camera, *light; /* the class's <camera>, <light> defaults (NULL: none) */
} cs_dclass;

/* mesh inertia modes (MuJoCo's asset/mesh/inertia) */
enum { CS_MESH_LEGACY = 0, CS_MESH_CONVEX = 1, CS_MESH_EXACT = 2, CS_MESH_SHELL = 3 };

/* <mesh> asset: as written, then what mjcf_mesh.c computes from it */
typedef struct {
    char *name, *file;    /* file as written (NULL: inline vertex) */
    int line;
    double scale[3], refpos[3], refquat[4];
    double *vertex;       /* inline vertex attribute, 3 per vertex */
    int nvertex;
    int *face;            /* inline face attribute, 3 per face */
    int nface;
    double *texcoord_attr; /* inline texcoord attribute, 2 per vertex */
    int ntexcoord_attr;
    int maxhullvert;      /* -1: unlimited */
    int inertia;          /* CS_MESH_* */
    int used;             /* referenced by a mesh geom */
    int format;           /* 0: by the file's extension, 1: STL, 2: OBJ */
    /* compiled: vertices in the mesh frame (centred at the centre of mass, principal
     * axes), triangles, hull (collision/hull.h layout), the frame's offset from the
     * vertex data, volume (area for shell) and principal moments per unit density */
    double *vert;
    int nvert;
    int *tri;
    int ntri;
    double *texcoord;     /* 2 per coordinate (NULL: none) */
    int ntexcoord;
    int *facetex;         /* 3 texcoord indices per triangle (with texcoord) */
    int *graph;
    int ngraph;
    double *hull;
    int nhull;
    double pos[3], quat[4];
    double volume, inertia_u[3];
    double aamm[6];       /* vertex bounding box in the mesh frame (lo, hi) */
    double rbound;        /* MuJoCo's bounding radius: the corner of the box about the origin */
} cs_meshir;

/* <hfield> asset: as written, then its elevations (mjcf_hfield.c) */
typedef struct {
    char *name, *file, *content_type;
    int line;
    double size[4];       /* radius x, radius y, elevation z, base z */
    int nrow, ncol;       /* as written (a file sets them) */
    double *elevation;    /* as written, top row first */
    int nelevation;
    float *data;          /* compiled: nrow x ncol, bottom row first, in [0, 1] */
} cs_hfieldir;

typedef struct {
    cs_jspec s;
    char *name;
    int body, line;
    double unit;          /* an attached model's angle unit for ref, springref and range (0:
                             the model's <compiler angle>) */
    int align;            /* a free joint: its body frame is moved onto the inertial frame
                             (align="true", or "auto" under <compiler alignfree="true">) */
} cs_jointir;

typedef struct {
    char *name;
    int parent, line;
    double pos[3], quat[4];
    int jnt0, njnt;       /* its joints in cs_mjcf.jnt, document order */
    int has_inertial;
    double imass, ipos[3], iquat[4], iinertia[3];
    int geom0, ngeom;
    double gravcomp;      /* share of the body's weight cancelled (MuJoCo's gravcomp) */
    int mocap;            /* 1: posed by data (mocap_pos, mocap_quat), not by joints */
    int sleep;            /* cs_sleep_policy from <body sleep> (auto when not given) */
    int nosimple;         /* 1: <body simple="false">, MuJoCo's opt-out of the simple body's
                             diagonal mass matrix block */
} cs_bspec;

typedef struct {
    cs_gspec s;
    char *name;
    int body, line;
    double fpos[3], fquat[4]; /* enclosing <frame>s, applied after fromto (as MuJoCo) */
    int meshid;               /* type mesh: index into cs_mjcf.mesh */
    int hfieldid;             /* type hfield: index into cs_mjcf.hfield */
} cs_geomir;

typedef struct {
    cs_pspec s;
    char *name, *geom1, *geom2;
    int line;
} cs_pairir;

typedef struct {
    char *body1, *body2;
    int line;
} cs_exclir;

/* an actuator element: its spec, its transmission target (a joint, a tendon when tendon
 * is set, a slider-crank when cranksite is: its slider site in the spec) and its tag */
typedef struct {
    cs_aspec s;
    char *name, *joint, *tendon, *cranksite, *site, *refsite;
    char *body;           /* a body transmission's body (adhesion) */
    const char *tag;      /* motor, position, velocity, intvelocity, general, damper, adhesion */
    int line;
    int jip;              /* the joint came as jointinparent (a ball's or free joint's gear in
                             the parent frame) */
    int slider;           /* resolved: a slider-crank's slider site, a site transmission's
                             reference site (-1: none) */
} cs_actir;

/* a site: its body and frame there (enclosing <frame>s applied) */
typedef struct {
    char *name;
    int body, line;
    double pos[3], quat[4];
    int type;             /* cs_geom_type */
    double size[3];
} cs_siteir;

/* a fixed tendon: its joints (names, then indices once resolved) and coefficients; a
 * spatial one: its path in order (in joint/jid: sites, geoms with their sidesite in side,
 * pulleys with their divisor in coef and no name) */
typedef struct {
    cs_tspec s;
    char *name;
    int line, spatial;
    int njoint;
    char **joint;
    double *coef;
    int *jline;           /* each <joint>'s line */
    int *jid;             /* resolved: index into cs_mjcf.jnt (site, geom; pulleys -1) */
    int *kind;            /* CS_WRAP_* (a geom: CS_WRAP_SPHERE until resolved) */
    char **side;          /* a geom's sidesite name (NULL: none) */
    int *sideid;          /* resolved: the sidesite's index, -1 */
} cs_tendonir;

/* an equality constraint as written (obj: body, joint or tendon names) */
typedef struct {
    cs_espec s;
    int type;             /* cs_eq_type */
    char *name, *obj1, *obj2;
    const char *tag;      /* connect, weld, joint, tendon */
    int line;
    int has_anchor, has_relpose;
    int site;             /* connect, weld: between two sites (MuJoCo's site semantic) */
    double anchor[3], relpose[7], torquescale, polycoef[5];
    int id1, id2;         /* resolved (-1: none; bodies: 0 = the world) */
} cs_eqir;

typedef struct {
    char *name;
    int line;
    double time;
    double *qpos, *qvel, *ctrl, *act, *mpos, *mquat; /* NULL: not given */
    int nqpos, nqvel, nctrl, nact, nmpos, nmquat;
    struct cs_keymap *map; /* a key of an attached model: its vectors are in that model's
                              layout (mjcf_attach.c maps them); NULL: this model's */
} cs_keyir;

/* A file of the model: the main file (0) or one brought in by <include>. Its elements'
 * lines are numbered base + line in one sequence (cs_mjcf_fail maps them back). */
typedef struct {
    char *path;           /* as opened: the including file's directory joined to the name */
    char *dir;            /* its directory, with a trailing '/' ("" for the working one) */
    char *real;           /* its canonical path (NULL when it has none: a string) */
    int base, nlines;
    int parent, line;     /* the including file and the <include>'s line there; -1 for 0 */
    int model;            /* 1: a model asset's file (<asset><model>), a document of its own */
} cs_srcfile;

struct _xmlNode;
struct cs_xf;
typedef struct cs_mjcf {
    const char *file;
    jmp_buf jb;
    int nomem;            /* the failure was memory exhaustion (errno ENOMEM for the caller) */
    int editfail;         /* an edit (cs_load_xml_edit) named no element (errno ESRCH) */
    unsigned flags;       /* CS_LOAD_* */
    void *xmlpending;     /* a libxml2 string being copied: freed if the copy fails */
    void *incdoc, *incpx; /* an included file's libxml2 document and parser while it is */
    char *incbuf;         /* read and copied in: freed if that fails */
    char *err;
    size_t errsz;
    void **allocs;
    int nalloc, capalloc;

    /* compiler */
    int degree;
    int fitaabb;          /* <compiler fitaabb>: fit primitives to a mesh's box, not its inertia box */
    int autolimits;       /* limited="auto" follows range (MuJoCo's default: true) */
    int alignfree;        /* a free joint's align="auto" aligns (MuJoCo's default: false) */
    int fusestatic;       /* bodies without joints merged into their parents (mjcf_fuse.c;
                             MuJoCo's default for MJCF: false) */
    char eulerseq[4];
    int inertiafromgeom; /* 0 false, 1 true, 2 auto */
    double boundmass, boundinertia, settotalmass;
    int balanceinertia;
    int igroup[2];

    char *modelname;
    cs_option opt;
    int nconmax;                        /* <size nconmax>: 0 when not given (a hard cap) */
    int njmax, nstack;                  /* <size njmax nstack>: -1 when not given */
    int nuser_sensor;                   /* <size nuser_sensor>: -1 when not given */
    double memory;                      /* <size memory> in bytes: -1 when not given */
    int size_nkey, size_line;           /* <size nkey>: at least this many keys */
    double stat_extent, stat_center[3]; /* <statistic>: extent 0, center NaN when not given */
    double vis_azimuth, vis_elevation;   /* <visual><global> */
    double vis_fovy;
    int vis_orthographic;

    cs_dclass *cls;
    int ncls, capcls;
    int rootcls;          /* the class elements without one take: 0, or an attached model's
                             main class while its elements are read (mjcf_attach.c) */
    int conflict;         /* <compiler conflict>: 0 warning, 1 merge, 2 error */
    cs_lropt lropt;       /* <compiler><lengthrange> */
    struct cs_mjcf_attach *att; /* model assets and attachments (mjcf_attach.c) */
    cs_bspec *body;
    int nbody, capbody;
    cs_geomir *geom;
    int ngeom, capgeom;
    cs_jointir *jnt;
    int njnt, capjnt;
    cs_pairir *pair;
    int npair, cappair;
    cs_exclir *excl;
    int nexcl, capexcl;
    cs_keyir *key;
    int nkey, capkey;
    cs_actir *act;
    int nact, capact;
    cs_tendonir *ten;
    int nten, capten;
    cs_siteir *site;
    int nsite, capsite;
    cs_eqir *eq;
    int neq, capeq;
    struct cs_sensorir *sensor;
    int nsensor, capsensor;

    /* the model's files (main first, then each <include>d one) */
    cs_srcfile *src;
    int nsrc, capsrc;

    char **ignored;
    int nignored, capignored;
    char **bodyref;       /* bodies named by elements otherwise ignored (tuples, skins'
                             bones): fusestatic keeps them */
    int nbodyref, capbodyref;

    /* assets */
    char *meshdir, *assetdir;
    cs_meshir *mesh;
    int nmesh, capmesh;
    cs_hfieldir *hfield;
    int nhfield, caphfield;
    char *texturedir;
    struct cs_mjcf_visual *vis;   /* textures, materials, lights, cameras (mjcf_visual.c) */
    /* the readers an attached model's elements are read with (mjcf_load.c sets them): <attach>
     * is where reading re-enters itself, so it reaches them through the context rather than
     * calling up into the files that call it */
    struct {
        void (*section)(struct cs_mjcf *c, struct _xmlNode *n);
        void (*items)(struct cs_mjcf *c, struct _xmlNode *n, int me, int cls,
                      const struct cs_xf *F, int in_frame);
        void (*children)(struct cs_mjcf *c, struct _xmlNode *n, int me, int cls,
                         const struct cs_xf *F);
        void (*body)(struct cs_mjcf *c, struct _xmlNode *n, int parent, int cls,
                     const struct cs_xf *F);
    } reread;
} cs_mjcf;

/* memory owned by the loader context (freed together on success and on error) */
void *cs_mjcf_alloc(cs_mjcf *c, size_t n);
char *cs_mjcf_strdup(cs_mjcf *c, const char *s);
/* grow *arr (element size es) so that index n fits */
void cs_mjcf_grow(cs_mjcf *c, void **arr, int *cap, int n, size_t es);
/* error at a line (a line of cs_mjcf's numbering over all the files):
 * "FILE:LINE: element <x>[ attribute 'y']: msg[ (included from FILE:LINE ...)]"; never
 * returns */
void cs_mjcf_fail(cs_mjcf *c, int line, const char *elem, const char *attr, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 5, 6)));

/* a body, joint, geom or site by name (-1: none) */
int cs_mjcf_find_body(const cs_mjcf *c, const char *name);
int cs_mjcf_find_joint(const cs_mjcf *c, const char *name);
int cs_mjcf_find_geom(const cs_mjcf *c, const char *name);
int cs_mjcf_find_site(const cs_mjcf *c, const char *name);

/* mjcf_mesh.c: read every used mesh's file, build its hull, mass properties and frame
 * (errors through cs_mjcf_fail, naming the <mesh> line and, for OBJ, the file's line) */
void cs_mjcf_meshes(cs_mjcf *c);
int cs_mjcf_find_mesh(const cs_mjcf *c, const char *name);
/* a mesh or height field file's path, MuJoCo's rule (meshdir, else assetdir) */
char *cs_mjcf_asset_path(cs_mjcf *c, const char *file);

/* mjcf_hfield.c: <hfield> read (asset: returns 1 when it was one); resolve: every height
 * field's elevations (files read, normalised as MuJoCo does) and every hfield geom checked,
 * sized from its asset (before the geoms are compiled; errors through cs_mjcf_fail); sizes:
 * nhfield, nhfielddata; build: the model's arrays (0, or -1 when a name could not be
 * copied) */
struct _xmlNode;
int cs_mjcf_hfield_asset(cs_mjcf *c, struct _xmlNode *n);
void cs_mjcf_hfield_resolve(cs_mjcf *c);
int cs_mjcf_find_hfield(const cs_mjcf *c, const char *name);
double cs_mjcf_hfield_rbound(const cs_hfieldir *h);
void cs_mjcf_hfield_sizes(const cs_mjcf *c, cs_model *m);
int cs_mjcf_hfield_build(const cs_mjcf *c, cs_model *m);

/* a composed frame's quaternion normalized only when its length is off 1 by more than 1e-14,
 * as MuJoCo's compiler does (a product of unit quaternions keeps its bits; mjcf_context.c) */
void cs_mjcf_quat_renorm(double q[4]);

/* out of memory: "FILE: out of memory"; never returns */
void cs_mjcf_nomem(cs_mjcf *c) __attribute__((noreturn));

/* <replicate> elements of the document's <worldbody> expanded in place into frames of
 * renamed copies, with the elements that refer to them (errors through cs_mjcf_fail). The
 * compiler settings (angle, eulerseq) must have been read. root: the <mujoco> element, a
 * libxml2 xmlNode. */
void cs_mjcf_replicate(cs_mjcf *c, void *root);
/* What replication leaves on each copy of an <attach> (attribute names no file can hold: XML
 * names have no spaces): the suffix its attached names take, the innermost replicate's
 * first; and "1" on every copy but the first of every replicate (MuJoCo attaches once and
 * copies the result, so the attached model's keys come with the first copy only). */
#define CS_MJCF_REPLICA_SUFFIX "replica suffix"
#define CS_MJCF_REPLICA_LATER "replica later"
/* on a copied <attach> without model whose body or frame is inside the replicate too */
#define CS_MJCF_REPLICA_INSIDE "replica inside"

/* mjcf_edit.c: attribute edits applied to the parsed file before it is read
 * (cs_load_xml_edit); errors through the context's jump */
typedef struct {
    int n;
    const char *const *name, *const *value;
} cs_mjcf_edits;
struct _xmlNode;
void cs_mjcf_edit(cs_mjcf *c, struct _xmlNode *root, const cs_mjcf_edits *e);

/* mjcf_tendon.c: tendons and equality constraints. resolve: names to indices and every
 * check (before the model is built; errors through cs_mjcf_fail). */
void cs_mjcf_resolve_tendons(cs_mjcf *c);
/* sizes: ntendon, nwrap, neq, nsite (before the model's arrays are allocated); build: fills
 * them (0, or -1 when a name could not be copied) */
void cs_mjcf_tendon_sizes(const cs_mjcf *c, cs_model *m);
int cs_mjcf_build_tendons(const cs_mjcf *c, cs_model *m);
int cs_mjcf_find_tendon(const cs_mjcf *c, const char *name);
void cs_mjcf_default_tspec(cs_tspec *t);
void cs_mjcf_default_espec(cs_espec *e);

/* mjcf_context.c's attribute readers (more in mjcf_read.h): the element's line,
 * the attribute check (every attribute in used, else an error), an attribute's text (NULL
 * when absent), between lo and hi numbers (their count, 0 when absent) */
int cs_mjcf_line(struct _xmlNode *n);
void cs_mjcf_check_attrs(cs_mjcf *c, struct _xmlNode *n, const char *const *used);
char *cs_mjcf_attr(cs_mjcf *c, struct _xmlNode *n, const char *name);
int cs_mjcf_nums(cs_mjcf *c, struct _xmlNode *n, const char *name, double *out, int lo, int hi);
/* the same for integers (each within +-1e9, else an error) */
int cs_mjcf_ints(cs_mjcf *c, struct _xmlNode *n, const char *name, int *out, int lo, int hi);

/* mjcf_sensor.c: the <sensor> section read (parse), checked against the elements (resolve:
 * after joints and tendons are resolved, before the model exists; errors through
 * cs_mjcf_fail), sized (sizes, before the model's arrays are allocated: nsensor,
 * nsensordata, nuser_sensor), and the model's sensor arrays filled once the rest of the model
 * is (build: 0, or -1 when a name could not be copied) */
void cs_mjcf_parse_sensors(cs_mjcf *c, struct _xmlNode *section);
void cs_mjcf_resolve_sensors(cs_mjcf *c);
void cs_mjcf_sensor_sizes(const cs_mjcf *c, cs_model *m);
int cs_mjcf_build_sensors(const cs_mjcf *c, cs_model *m);

/* The loader's audit, for tests: every name an element's attribute check accepts as used
 * (CS_AUDIT_ACCEPTED), then, after a successful load, every attribute of the file: read by the
 * loader (CS_AUDIT_READ), noted as ignored (CS_AUDIT_IGNORED) or accepted and never read
 * (CS_AUDIT_UNREAD: silently without effect, a loader bug). fn NULL: off. Process-wide. */
enum { CS_AUDIT_ACCEPTED, CS_AUDIT_READ, CS_AUDIT_IGNORED, CS_AUDIT_UNREAD };
typedef void (*cs_mjcf_audit_fn)(void *ctx, const char *elem, const char *attr, int what);
void cs_mjcf_set_audit(cs_mjcf_audit_fn fn, void *ctx);

/* more of mjcf_context.c's readers (errors through cs_mjcf_fail): the attribute
 * check with visual-only names, a keyword's index, a pose */
void cs_mjcf_check(cs_mjcf *c, struct _xmlNode *n, const char *const *used,
                   const char *const *visual);
int cs_mjcf_keyword(cs_mjcf *c, struct _xmlNode *n, const char *name, const char *const *words);
int cs_mjcf_frame(cs_mjcf *c, struct _xmlNode *n, double pos[3], double quat[4]);
void cs_mjcf_note_ignored(cs_mjcf *c, const char *what);

/* mjcf_visual.c: <texture>, <material> (asset: returns 1 when it was one), <light> and
 * <camera> in a body (fpos, fquat: the enclosing frames; returns 1 when it was one);
 * resolve: every check, textures made or read (before the model is made); sizes: the
 * model's counts; build: fills the visual arrays and geom_matid (0, or -1 out of memory) */
int cs_mjcf_visual_asset(cs_mjcf *c, struct _xmlNode *n);
/* a <camera> or <light> in a default class (its attributes, the parent class's it lacks
 * merged in), which cs_mjcf_visual_item gives to the elements of that class */
void cs_mjcf_visual_default(cs_mjcf *c, struct _xmlNode *n, int cls);
/* camera id's image size in pixels (width x height) */
int cs_mjcf_camera_pixels(const cs_mjcf *c, int id);
int cs_mjcf_visual_item(cs_mjcf *c, struct _xmlNode *n, int body, int cls, const double fpos[3],
                        const double fquat[4]);
void cs_mjcf_visual_resolve(cs_mjcf *c);
void cs_mjcf_visual_sizes(const cs_mjcf *c, cs_model *m);
int cs_mjcf_visual_build(cs_mjcf *c, cs_model *m);
/* a body's lights and cameras re-expressed through the frame (fp, fq) of its new body frame
 * (free-joint alignment) */
/* the model index of the camera named name, or -1 */
int cs_mjcf_find_camera(const cs_mjcf *c, const char *name);
void cs_mjcf_visual_reframe(cs_mjcf *c, int body, const double fp[3], const double fq[4]);

/* mjcf_sleep.c: the sleep constants of a built model from the bodies' policies, and the
 * check of sleep="init" (errors through cs_mjcf_fail, the model freed first) */
void cs_mjcf_sleep_build(cs_mjcf *c, cs_model *m);

/* mjcf_attach.c: an attached model's keys mapped into this model's layout (at compile, once
 * qpos0 and the addresses are known), its documents freed (success or failure), the audit of
 * its attached parts; the readers of <model> and <attach> are in mjcf_read.h */
void cs_mjcf_attach_keys(cs_mjcf *c, const double *qpos0, const int *jqadr, const int *jdadr,
                         int nq, int nv);
void cs_mjcf_attach_free(cs_mjcf *c);
void cs_mjcf_attach_audit(cs_mjcf *c);

/* a question asked of each name in a list (1: stop there, the answer is yes) */
typedef int (*cs_mjcf_name_fn)(void *ctx, const char *name);
/* mjcf_sensor.c, by name before names are resolved: fn of each body a sensor's object or
 * reference names (1 as soon as fn says 1); whether a force or torque sensor is on a site of
 * body b; whether a distance sensor (distance, normal, fromto) measures geom g, named or
 * through its body (its narrow phase needs the geom's hull) */
int cs_mjcf_sensor_body_names(const cs_mjcf *c, cs_mjcf_name_fn fn, void *ctx);
int cs_mjcf_sensor_force_on_body(const cs_mjcf *c, int b);
int cs_mjcf_sensor_measures_geom(const cs_mjcf *c, int g);

/* mjcf_sensor.c: the sensors from index `from` on whose objects are not (yet) in the model
 * are dropped (an attached model's sensors on parts not attached, as MuJoCo's attach) */
void cs_mjcf_keep_resolved_sensors(cs_mjcf *c, int from);

/* mjcf_fuse.c: <compiler fusestatic>, once geoms and bodies have their mass properties
 * (per body: mass, inertial frame, principal moments; per geom: mass, moments, whether it
 * counts for its body) and before any name is resolved to a body, geom or site number:
 * bodies, geoms and sites renumbered, those arrays with them (errors through cs_mjcf_fail) */
typedef struct {
    double *mass, *ipos, *iquat, *inert;
    double *gmass, *ginertia;
    int *gcounts;
} cs_mjcf_massprops;
void cs_mjcf_fuse_static(cs_mjcf *c, cs_mjcf_massprops *mp);
/* How fusing maps the elements of body b (the old numbering, nbody of them): to body to[b]
 * (the new numbering), through b's pose there (pose: 7 per body, position and quaternion)
 * when moved[b], and in the order of rank[b] (elements of one body keep theirs). */
typedef struct {
    int nbody;
    const int *to, *moved, *rank;
    const double *pose;
} cs_mjcf_fusemap;
/* the new order of n elements whose old bodies are body[]: new i = old perm[i] */
int *cs_mjcf_fuse_order(cs_mjcf *c, const cs_mjcf_fusemap *f, int n, const int *body);
/* mjcf_visual.c: fn of each body a camera or light targets (1 as soon as fn says 1); the
 * lights' (cam 0) or cameras' (cam 1) bodies (their count; *body in loader memory); those
 * moved by a fusing map and put in the order perm (cs_mjcf_fuse_order) */
int cs_mjcf_visual_targets(const cs_mjcf *c, cs_mjcf_name_fn fn, void *ctx);
int cs_mjcf_visual_bodies(cs_mjcf *c, int cam, int **body);
void cs_mjcf_visual_fuse(cs_mjcf *c, const cs_mjcf_fusemap *f, int cam, const int *perm);

/* mjcf_compile.c: IR -> model (errors through cs_mjcf_fail) */
cs_model *cs_mjcf_compile(cs_mjcf *c);

#endif
