/* The adapter between sim/ and render/ for `conesim view`: fills a cs_render_scene from
 * a model and its data, and implements the viewer loop's callbacks (step, reset,
 * perturbation, replay) on them. No GL here: tests call it directly. */
#ifndef CS_VIEW_ADAPTER_H
#define CS_VIEW_ADAPTER_H

#include "conesim.h"
#include "render.h"

typedef struct {
    const cs_model *m;
    cs_data *d;
    cs_model *owned;          /* the same model, writable: set by cs_view_own_model when the
                               * caller loaded it and lets the viewer change its contact
                               * model between steps (M); NULL = it stays as it is */
    int key;                  /* keyframe reset returns to, -1 = the reference pose */

    cs_render_geom *geoms;    /* m->ngeom */
    /* what the geoms show (MuJoCo's mjvOption): geomgroup[g] = 1 draws group g (groups
     * past 5 count as 5, as MuJoCo clamps them; MuJoCo's default 1 1 1 0 0 0), show_textures
     * = 0 draws none, transparent = 1 draws the moving bodies' geoms at MuJoCo's
     * visual/map alpha (0.3) */
    unsigned char geomgroup[6];
    int show_textures, transparent;
    /* height fields drawn as triangle meshes in their geom frames (the grid's surface, its
     * four sides down to the base, the base), built once: hfield h's vertices from
     * hfield_vert + 3 hfield_vadr[h], its triangles from hfield_face + 3 hfield_fadr[h] */
    double *hfield_vert;
    int *hfield_face, *hfield_vadr, *hfield_fadr;
    cs_render_contact *contacts; /* ncontact_cap: grown with the data's contact room */
    int ncontact_cap;
    cs_render_joint *joints;  /* the non-free joints, model order (at most m->njnt) */
    int njoint;
    cs_render_actuator *actuators; /* m->nu (one per control), for the control panel */
    /* A control schedule (`view --ctrl`): called before every step with the time and the
     * controls to set; columns[i] = 1 where it sets control i (the panel then shows the
     * slider as driven and does not set it). NULL = none. */
    void (*ctrl_hook)(void *user, double t, double *ctrl);
    void *ctrl_user;
    const unsigned char *ctrl_columns;
    const char *ctrl_source;  /* the panel's words for it, e.g. "--ctrl lift.csv" */
    double extent;            /* fixed at cs_view_init: MuJoCo's stat.extent rule (see .c) */
    double center[3];         /* centre of their bounding box (the default look-at) */
    double azimuth, elevation; /* the default camera's (<visual><global>), degrees */
    double fovy;               /* its field of view (orthographic: the view's height) */
    int ortho;
    double force_scale;       /* 0: render/ scales arrows from the forces on screen */
    char solver[48];          /* "PGS elliptic, contact soft", ... */
    char body_label[64];      /* the selected body's name for the HUD */
    char message[160];        /* HUD line (divergence, replay position) */
    long nstep;               /* steps taken since the last reset */
    int diverged;             /* body of the first joint that went non-finite, -1 = none */
    int nomem;                /* a step ran out of memory (its contacts are missing) */
    int stale;                /* stepped since the last forward (see cs_view_fill) */
    double *fill_pose;        /* 12 per body: xpos, xmat at the last fill (the state the
                               * viewer's perturbation anchor refers to) */

    /* the model's visual elements: textures (m->ntex), its lights at the last fill (world
     * poses), the subtree centres of mass the tracking modes follow (3 per body, then
     * their masses) */
    cs_render_texture *textures;
    cs_render_light *lights;
    int nlight;
    cs_camera *cameras;       /* the model's cameras (m->ncam) posed at the last fill */
    const char **camera_names;
    /* the tracking free camera (cs_view_track_camera): where it looks, smoothed */
    double track_lookat[3], track_com0[3], track_time, track_azimuth, track_elevation;
    int track_started;

    /* --replay: recorded frames drive the free bodies' poses. */
    const cs_replay *replay;
    int *replay_free;         /* per replay body: the model's free index */
    int frame;                /* the replay frame shown */
    const char *replay_path;
} cs_view;

/* Sets up the adapter for a model and data already in their initial state (after the
 * keyframe, if any): allocates the arrays, fixes extent, centre and force scale.
 * `key` is what cs_view_reset returns to (-1 = reference pose). Returns 0 or -1. */
int cs_view_init(cs_view *v, const cs_model *m, cs_data *d, int key);
/* MuJoCo's free camera for the scene: from the centre, 1.5 extents away, at its azimuth and
 * elevation */
void cs_view_camera(const cs_view *v, cs_camera *c);
void cs_view_free(cs_view *v);
/* Model camera id (0 .. ncam-1) in the current state, as MuJoCo's mj_camlight poses it
 * (fixed, track, trackcom, targetbody, targetbodycom): c becomes a fixed camera with the
 * camera's fovy. Returns 0, or -1 for an id out of range. */
int cs_view_model_camera(cs_view *v, int id, cs_camera *c);
/* The camera videos use by default: a free camera CS_TRACK_DISTANCE extents away, looking
 * at the scene's centre displaced as the moving bodies' centre of mass moves, smoothed (an
 * exponential lag of CS_TRACK_LAG s of simulated time). It looks across a tilted floor
 * (perpendicular to its downhill direction, 15 degrees down), else from the scene's azimuth,
 * at most 20 degrees down. Call once per frame with the data's current state; the first call
 * (after track_started = 0) starts the follow. */
#define CS_TRACK_DISTANCE 2.5
#define CS_TRACK_LAG 0.1
void cs_view_track_camera(cs_view *v, cs_camera *c);

/* The HUD's solver words: "PGS elliptic, contact soft", "Newton pyramidal, contact
 * coulomb", ... (the coulomb model ignores the solver, but keeps the cone). */
void cs_view_solver_name(const cs_option *o, char *buf, size_t len);

/* Lets the view change m's contact model (cs_view_toggle_contact): m must be the model
 * cs_view_init was given, owned (loaded) by the caller. Returns 0, or -1 for another one. */
int cs_view_own_model(cs_view *v, cs_model *m);
/* Switches the contact model soft <-> coulomb through cs_option_set(&m->opt, "contact", ..)
 * for the steps to come: call it between steps, never inside one. The HUD's solver words
 * follow, and the next cs_view_fill recomputes the contacts and forces of the current state
 * with the new model. Returns 0, or -1 (with v->message saying why) when the view does not
 * own its model. */
int cs_view_toggle_contact(cs_view *v);

/* Fills the scene from the current data: geoms (model order), contacts (zone words as
 * the contact CSV's, cs_contact_zone_name), the non-free joints (anchor, axis, range, value:
 * see cs_render_joint), HUD numbers,
 * extent and force scale; after steps it first recomputes kinematics, contacts and
 * forces of the current state (cs_forward), so all of them describe the same state. Reads s->selected_body for the HUD's body lines; leaves
 * overlay and the selections alone. Arrays stay valid until cs_view_free. */
void cs_view_fill(cs_view *v, cs_render_scene *s);

/* The control panel's write (loop callback set_ctrl): control i, clamped to its ctrlrange
 * when limited; ignored for a control the schedule drives, or i out of range. */
void cs_view_set_ctrl(cs_view *v, int i, double value);

/* One cs_step (after the schedule, if any, has set its controls); returns 0, or 1 when the state became non-finite (v->diverged names the
 * free joint, v->message says so) or the step ran out of memory (v->nomem, v->message). In replay mode: the next recorded frame instead. */
int cs_view_step(cs_view *v);
/* Back to the initial state (the keyframe, or the reference pose); replay: frame 0. */
void cs_view_reset(cs_view *v);

/* Writes a perturbation into d->xfrc_applied: the spring force F of cs_perturb_force at
 * the anchor, as a world force plus the torque (anchor - com) x F at the perturbed body's
 * COM (MuJoCo's xfrc_applied convention). Inactive: clears all applied forces.
 * p->anchor is where the grabbed point was at the last fill; it is carried with the body
 * to the current state, so several steps in one frame each pull the point where it is. */
void cs_view_perturb(cs_view *v, const cs_perturb *p);

/* Replay: binds a loaded trajectory to the model (every recorded body must be a free
 * body of the model, by name). Returns 0, or -1 with a message naming the file. The
 * replay must outlive v. Shows frame 0. */
int cs_view_replay_bind(cs_view *v, const cs_replay *r, const char *path, char *err,
                        size_t errlen);
/* Shows recorded frame f (clamped): the free bodies take the recorded poses and
 * velocities; kinematics, contacts and the solver are recomputed from that state. */
void cs_view_replay_show(cs_view *v, int f);
/* Loop callback for Left arrow: one recorded frame back. */
void cs_view_step_back(cs_view *v);
/* The simulated seconds between recorded frames (the viewer's timestep in replay mode,
 * so playback runs at the recorded pace). */
double cs_view_replay_dt(const cs_view *v);

/* cs_viewer_callbacks wired to a cs_view (user = the cs_view). */
void cs_view_callbacks(cs_view *v, cs_viewer_callbacks *cb);

#endif
