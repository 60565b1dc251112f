/* conesim viewer library: draws a per-frame scene description with OpenGL 3.3 core.
 *
 * render/ knows nothing of sim/: an adapter fills a cs_render_scene from the model and
 * data between steps (geoms with world poses, contacts with frames and forces, joints
 * with anchors, axes and ranges, HUD numbers) and drives either the windowed loop (cs_viewer_run) with callbacks, or the
 * off-screen path (cs_render_offscreen_png). Camera math, picking and the input mapping
 * are plain C and usable without a window (tests call them directly). */
#ifndef CS_RENDER_H
#define CS_RENDER_H

#include <stddef.h>

#include "collision/geom.h"

/* ---------------------------------------------------------------- scene */

/* A texture (MJCF <texture>): texels 0xRRGGBB, rows top first; cube and skybox textures
 * hold their faces +x -x +y -y +z -z one under the other (height = 6 x width) or one face
 * for all (height = width). The renderer keeps its GL copy by the texel pointer: the
 * array must not change while it is in use (the model's). */
typedef struct {
    int type;           /* CS_TEX_2D, CS_TEX_CUBE, CS_TEX_SKYBOX (MuJoCo's mjtTexture) */
    int width, height;
    const int *texel;
} cs_render_texture;
enum { CS_TEX_2D = 0, CS_TEX_CUBE = 1, CS_TEX_SKYBOX = 2 };

/* A light (MJCF <light>, world pose now). With none in the scene the renderer lights it
 * with its own key light and headlight. */
typedef struct {
    double pos[3], dir[3];  /* world; dir unit */
    int directional;
    float ambient[3], diffuse[3], specular[3];
    double cutoff, exponent; /* spot: degrees, falloff */
} cs_render_light;

typedef struct {
    int type;           /* cs_geom_type */
    double size[3];     /* MuJoCo's geom/@size meanings (see collision/geom.h) */
    cs_pose pose;       /* world pose */
    float rgba[4];      /* alpha < 1 is drawn blended after the opaque geoms */
    int body;           /* body id (MuJoCo's numbering, world = 0): picking reports it;
                         * -1: a shape the caller adds to the picture, never picked */
    /* material (MJCF): texture (NULL: none) multiplied by rgba, repeated texrepeat times
     * (texuniform: per metre), specular and shininess in [0, 1], emission (x rgba) */
    const cs_render_texture *texture;
    float texrepeat[2];
    int texuniform;
    float specular, shininess, emission;
    int material;       /* 1: specular, shininess, emission are the material's (else the
                         * renderer's matte look) */
    /* CS_GEOM_MESH: triangles (3 vertex indices each) over vertices in the geom frame, and
     * the convex hull's faces (polygons over hull vertices) for wireframe mode; NULL for
     * the primitives. The arrays belong to the caller (the model). */
    const double *mesh_vert;
    const int *mesh_face;
    int mesh_nface;
    /* the mesh's texture coordinates (2 each, v from the image's top row) and each
     * triangle's 3 indices into them; NULL without: a 2D texture then maps per face */
    const double *mesh_texcoord;
    const int *mesh_facetexcoord;
    const double *hull_vert;
    const int *hull_faceadr, *hull_facevert;
    int hull_nface;
} cs_render_geom;

typedef struct {
    double pos[3];      /* contact point, world */
    double frame[9];    /* rows n, t1, t2 (MuJoCo's contact frame; n from geom1 to geom2) */
    int dim;            /* condim: 1, 3, 4 or 6 */
    double force[6];    /* in the contact frame: fn, f1..f5 (unused ones 0) */
    double friction[5]; /* the cone's coefficients mu_1..mu_5 in condim order */
    char zone[8];       /* "top", "bottom", "middle", "pyramid", "normal", "none" */
    double slip;        /* tangential slip speed, m/s */
    double dist;        /* signed distance (negative = penetration) */
    int geom1, geom2;   /* indices into the scene's geoms (or -1) */
} cs_render_contact;

/* Joint kinds of cs_render_joint.type (MuJoCo's mjtJoint numbers; free joints are not
 * drawn and not passed). */
enum { CS_RENDER_JNT_BALL = 1, CS_RENDER_JNT_SLIDE = 2, CS_RENDER_JNT_HINGE = 3 };

typedef struct {
    int type;           /* CS_RENDER_JNT_* */
    int body;           /* the body the joint moves (MuJoCo's numbering) */
    char name[32];      /* for the HUD ("joint<i>" when unnamed) */
    double anchor[3];   /* world: hinge and ball the pivot; slide the anchor where it is now */
    double axis[3];     /* world unit axis (hinge, slide) */
    double ref[3];      /* hinge: world unit vector perpendicular to axis pointing where the
                         * child would point at angle 0 (so angle a points at ref rotated by a
                         * about axis, right-handed); the current angle points at rot(pos) ref */
    double pos;         /* hinge: angle (rad); slide: displacement (m), both in qpos units
                         * (range's); ball: rotation angle from the reference pose (rad) */
    int limited;        /* range applies */
    double range[2];    /* hinge (rad), slide (m); ball: [0, largest rotation angle] */
} cs_render_joint;

/* A control of the control panel (MuJoCo's simulate: one slider per control, named as
 * cs_ctrl_label: the actuator's name, "/INPUT" added when it has several). */
typedef struct {
    char name[32];      /* "actuator<i>" when unnamed (a longer name is cut) */
    double ctrl;        /* the control now (d->ctrl) */
    int limited;        /* ctrlrange clamps the control (the slider spans a range given,
                           min < max, limited or not; else -1 .. 1) */
    double range[2];
    int driven;         /* 1: a control schedule (--ctrl) sets it every step: shown, not set */
    double neutral;     /* the value "clear" sets: 0, a quaternion target's w 1 (MuJoCo's
                           mj_resetCtrl) */
} cs_render_actuator;

/* Overlay flags (cs_render_scene.overlay). */
enum {
    CS_OVERLAY_CONTACTS = 1 << 0,   /* contact points */
    CS_OVERLAY_FORCES = 1 << 1,     /* normal and friction force arrows, with a legend */
    CS_OVERLAY_CONES = 1 << 2,      /* friction-cone cross-section of the selected contact */
    CS_OVERLAY_FRAMES = 1 << 3,     /* contact frames (n red, t1 green, t2 blue) */
    CS_OVERLAY_WIREFRAME = 1 << 4,  /* geoms as wireframe */
    CS_OVERLAY_HUD = 1 << 5,        /* text panel */
    CS_OVERLAY_JOINTS = 1 << 6,     /* joint axes, anchors, ranges and current positions */
    CS_OVERLAY_CONTROLS = 1 << 7,   /* the actuators' control panel (sliders; Tab) */
    CS_OVERLAY_DEFAULT = CS_OVERLAY_CONTACTS | CS_OVERLAY_FORCES | CS_OVERLAY_HUD
};

/* Parses a comma list "contacts,forces,cones,frames,wireframe,hud,joints,controls" (or "none") into
 * flags. Returns 0, or -1 with the offending word copied into bad (if bad != NULL). */
int cs_overlay_parse(const char *list, unsigned *flags, char *bad, size_t badlen);

typedef struct {
    double time;            /* simulated time, s */
    double rtf;             /* real-time factor actually achieved (0 = not shown) */
    double slowmo;          /* requested slow-motion factor (1 = real time) */
    int paused;
    int ncon;               /* contacts (may exceed the contacts handed over) */
    int iterations;         /* solver iterations of the last step */
    double residual;        /* solver residual/improvement of the last step */
    const char *solver;     /* e.g. "PGS elliptic, contact soft" (NULL = not shown) */
    const char *body_name;  /* the selected body's name (NULL = none selected) */
    double body_pos[3];     /* its position and linear velocity, world */
    double body_vel[3];
    const char *message;    /* one extra line, e.g. a warning (NULL = none) */
    const char *camera;     /* the model camera looked through (NULL = the free camera) */
} cs_render_hud;

typedef struct {
    const cs_render_geom *geoms;
    int ngeom;
    const cs_render_contact *contacts;
    int ncontact;
    const cs_render_joint *joints;  /* the non-free joints (CS_OVERLAY_JOINTS draws them) */
    int njoint;
    cs_render_hud hud;
    unsigned overlay;       /* CS_OVERLAY_* */
    int selected_body;      /* -1 = none; its geoms are highlighted */
    int selected_contact;   /* index into contacts, -1 = the one with the largest fn */
    double extent;          /* the model's size scale, m (0 = from the geoms) */
    double force_scale;     /* arrow metres per newton (0 = from the forces on screen:
                             * cs_render_force_scale) */
    int no_shadows;         /* 1: no planar shadows on planes */
    const cs_render_actuator *actuators;    /* CS_OVERLAY_CONTROLS lists them */
    int nactuator;
    const char *ctrl_source;    /* non-NULL: the schedule driving controls (e.g. "--ctrl
                                 * lift.csv"), named on the panel */
    const cs_render_light *lights;  /* the model's active lights (at most 8 are used) */
    int nlight;
    const cs_render_texture *skybox; /* NULL: the renderer's own sky gradient */
    int offscreen;              /* 1: a picture, not the window (the HUD leaves out the keys) */
    const struct cs_camera *cameras; /* the model's cameras posed for this state (fixed) */
    const char *const *camera_names;
    int ncamera;
} cs_render_scene;

/* Colours the overlays use (unlit, so a pixel shows exactly these). */
extern const float cs_color_normal_force[3];
extern const float cs_color_friction_force[3];
extern const float cs_color_contact_point[3];
extern const float cs_color_cone[3];
extern const float cs_color_cone_inside[3];   /* friction dot strictly inside the cone */
extern const float cs_color_cone_boundary[3]; /* friction dot on the boundary (sliding) */
extern const float cs_color_joint[3];         /* joint axes, hinge arcs, slide ranges */
extern const float cs_color_joint_inside[3];  /* current position inside the range (or none) */
extern const float cs_color_joint_limit[3];   /* current position at or beyond a limit */

/* Arrows of automatic scale: the largest contact force, rounded up to 1, 2 or 5 x 10^k N
 * (cs_render_force_ref), is drawn this fraction of the extent long. */
#define CS_FORCE_ARROW_FRACTION 0.3
/* The round force of the automatic scale: the largest |fn| or |(f1, f2)| over the contacts
 * rounded up to 1, 2 or 5 x 10^k newtons; 0 without contact force. */
double cs_render_force_ref(const cs_render_scene *s);
/* Arrow metres per newton: s->force_scale when > 0, else CS_FORCE_ARROW_FRACTION x extent /
 * cs_render_force_ref (0 without contact force). */
double cs_render_force_scale(const cs_render_scene *s);
/* A contact point's marker radius: 1.5% of the extent, at most 12% of the bounding radius of
 * either (non-plane) geom in contact. */
double cs_render_marker_radius(const cs_render_scene *s, const cs_render_contact *c);

/* Zero counts, default overlays, nothing selected. */
void cs_render_scene_init(cs_render_scene *s);

/* The contact the cone overlay draws (selected_contact, or the one with the largest fn,
 * -1 when there are none). */
int cs_render_scene_cone_contact(const cs_render_scene *s);

/* Where the friction force of contact c lies in its cone at the current fn:
 * r = sqrt(sum (f_i/mu_i)^2) / fn over the friction components with mu_i > 0, or for
 * zone "pyramid" r = sum |f_i|/mu_i / fn (the pyramid's edges n +- mu_i e_i);
 * 1 = on the boundary. Returns 0 when fn <= 0. */
double cs_contact_cone_ratio(const cs_render_contact *c);

/* Where a limited joint is against its range: -1 at or below the lower limit, +1 at or above
 * the upper one (within 1e-3 of the range's width, at least 1e-6), 0 inside it or when the
 * joint is not limited. A ball joint's angle is >= 0: only +1 is possible. */
int cs_joint_at_limit(const cs_render_joint *j);

/* ---------------------------------------------------------------- camera */

/* MuJoCo's free camera: looks at `lookat` from `distance`, azimuth about world z from +x,
 * elevation from the horizontal (negative = looking down), degrees. */
typedef struct cs_camera {
    double azimuth, elevation, distance;
    double lookat[3];
    double fovy;            /* vertical field of view, degrees (MuJoCo's default 45);
                               orthographic: the view's height, length units */
    int ortho;              /* 1: an orthographic projection (parallel rays along -z) */
    /* fixed = 1: a model camera at pos with frame mat (row-major; columns x right, y up,
     * z backwards: it looks along -z, MuJoCo's cam_xmat); the mouse does not move it,
     * distance only sets the clipping planes */
    int fixed;
    double pos[3], mat[9];
} cs_camera;

/* MuJoCo's default free camera for a model of the given extent and centre:
 * azimuth 90, elevation -45, distance 1.5 extent. */
void cs_camera_default(cs_camera *c, double extent, const double center[3]);
/* Parses "AZ,EL,DIST[,X,Y,Z]" (the --camera option). Returns 0, or -1 leaving c unchanged. */
int cs_camera_parse(const char *s, cs_camera *c);

/* Camera frame: eye position and unit forward, up, right vectors (world). */
void cs_camera_frame(const cs_camera *c, double eye[3], double fwd[3], double up[3],
                     double right[3]);
/* Near and far planes used for drawing, from the distance and the scene extent. */
void cs_camera_clip(const cs_camera *c, double extent, double *znear, double *zfar);
/* Column-major 4x4 matrices for GL. */
void cs_camera_view_matrix(const cs_camera *c, float m[16]);
void cs_camera_proj_matrix(const cs_camera *c, double aspect, double znear, double zfar,
                           float m[16]);

/* Mouse motion: dx, dy are the cursor's motion divided by the window height (MuJoCo's
 * reldx, reldy), y growing downwards. Orbit turns 180 degrees per window height;
 * pan moves lookat so that the point under the cursor in the lookat plane follows it;
 * zoom: dy > 0 (scroll up) moves closer, exponentially. */
void cs_camera_orbit(cs_camera *c, double dx, double dy);
void cs_camera_pan(cs_camera *c, double dx, double dy);
void cs_camera_zoom(cs_camera *c, double dy);

/* Projects world point p into pixel coordinates (x right, y down, origin top-left,
 * pixel centres at +0.5) of a w x h viewport. Returns 0 if p is in front of the camera. */
int cs_camera_project(const cs_camera *c, int w, int h, const double p[3], double px[2]);
/* The ray through pixel (x, y): origin at the eye, unit direction. */
void cs_camera_ray(const cs_camera *c, int w, int h, double x, double y, double origin[3],
                   double dir[3]);

/* ---------------------------------------------------------------- picking */

/* First geom hit by the ray (origin, unit dir), or -1. *t and hit (either may be NULL)
 * receive the distance along the ray and the world hit point. Planes are hit too;
 * callers that select bodies ignore body 0. */
int cs_render_pick(const cs_render_scene *s, const double origin[3], const double dir[3],
                   double *t, double hit[3]);
/* Ray against one geom: distance along the ray, or -1 for a miss. */
double cs_ray_geom(const cs_render_geom *g, const double origin[3], const double dir[3]);
/* The contact whose projected point is nearest pixel (x, y) within radius pixels, or -1. */
int cs_render_pick_contact(const cs_render_scene *s, const cs_camera *c, int w, int h,
                           double x, double y, double radius);

/* ---------------------------------------------------------------- input */

/* Input events in GLFW's codes (GLFW_KEY_*, GLFW_PRESS/RELEASE/REPEAT, GLFW_MOD_*,
 * GLFW_MOUSE_BUTTON_*), so the window glue passes them through unchanged and tests
 * build them from <GLFW/glfw3.h> constants without a window. */
typedef enum { CS_EV_KEY, CS_EV_BUTTON, CS_EV_MOVE, CS_EV_SCROLL } cs_event_kind;

typedef struct {
    cs_event_kind kind;
    int key;            /* CS_EV_KEY */
    int button;         /* CS_EV_BUTTON */
    int action;         /* CS_EV_KEY, CS_EV_BUTTON: GLFW_PRESS, GLFW_RELEASE, GLFW_REPEAT */
    int mods;           /* GLFW_MOD_* */
    double x, y;        /* cursor, pixels (all kinds) */
    double scroll;      /* CS_EV_SCROLL: y offset, > 0 away from the user */
    double time;        /* seconds, any monotonic origin: double-click detection */
    int height;         /* window height in pixels: drags are normalised by it */
} cs_input_event;

typedef enum {
    CS_ACT_NONE = 0,
    CS_ACT_PAUSE,           /* Space: pause/run */
    CS_ACT_STEP,            /* Right arrow: one step (pauses) */
    CS_ACT_STEP_BACK,       /* Left arrow: one step back (replay scrubbing) */
    CS_ACT_RESET,           /* Backspace */
    CS_ACT_FASTER,          /* + (= or keypad +): slow-motion factor x2 up to 1 */
    CS_ACT_SLOWER,          /* - : slow-motion factor /2 */
    CS_ACT_TOGGLE_CONTACTS, /* C */
    CS_ACT_TOGGLE_FORCES,   /* F */
    CS_ACT_TOGGLE_CONES,    /* K */
    CS_ACT_TOGGLE_FRAMES,   /* R (contact frames) */
    CS_ACT_TOGGLE_WIREFRAME,/* W */
    CS_ACT_TOGGLE_HUD,      /* H */
    CS_ACT_TOGGLE_JOINTS,   /* J (MuJoCo's simulate: joints) */
    CS_ACT_TOGGLE_CONTACT_MODEL, /* M: contact model soft <-> coulomb, between steps */
    CS_ACT_NEXT_CONTACT,    /* ] : select the next contact for the cone overlay */
    CS_ACT_PREV_CONTACT,    /* [ */
    CS_ACT_QUIT,            /* Esc */
    CS_ACT_ORBIT,           /* left drag: dx, dy */
    CS_ACT_PAN,             /* right (or shift+left, or middle) drag: dx, dy */
    CS_ACT_ZOOM,            /* scroll: dy (> 0 closer) */
    CS_ACT_SELECT,          /* double-click (left): x, y; track the body / select contact */
    CS_ACT_UNSELECT,        /* double-click (right): stop tracking, clear selection */
    CS_ACT_PERTURB_BEGIN,   /* Ctrl+left press: x, y */
    CS_ACT_PERTURB_MOVE,    /* Ctrl+left drag: x, y */
    CS_ACT_PERTURB_END,     /* release */
    CS_ACT_TOGGLE_CONTROLS, /* Tab: the control panel */
    CS_ACT_CLEAR_CONTROLS,  /* 0 (or keypad 0): every control to 0 */
    CS_ACT_NEXT_CAMERA,     /* } (Shift+]): the next of the model's cameras, then the free one */
    CS_ACT_PREV_CAMERA      /* { (Shift+[) */
} cs_action_kind;

typedef struct {
    cs_action_kind kind;
    double dx, dy;      /* ORBIT, PAN: motion / height; ZOOM: dy */
    double x, y;        /* SELECT, PERTURB_*: cursor pixels */
} cs_action;

/* Mouse state between events. Zero-initialise (or cs_input_init). */
typedef struct {
    int left, right, middle;    /* buttons held */
    int perturbing;             /* a Ctrl+left drag is in progress */
    int shift;
    double x, y;                /* last cursor position */
    int have_xy;
    double last_press_time;     /* for double clicks */
    int last_press_button;
    double last_press_x, last_press_y;
} cs_input;

void cs_input_init(cs_input *in);
/* Maps one event to one action, updating the mouse state. */
cs_action cs_input_map(cs_input *in, const cs_input_event *ev);

/* ---------------------------------------------------------------- control panel */

/* The panel sits at the window's top right (MuJoCo's simulate keeps its controls on the
 * right): a title row with a "clear" button, a line saying what drives the controls, then
 * per actuator a label row (name, value, range) over its slider track. Sizes follow the
 * HUD's text scale (2 when the window is at least 600 pixels high, else 1). */
enum { CS_PANEL_OUTSIDE = -3, CS_PANEL_CLEAR = -2, CS_PANEL_BACKGROUND = -1 };

/* Rectangles in window pixels (x, y from the top-left, width, height): part
 * CS_PANEL_BACKGROUND = the whole panel, CS_PANEL_CLEAR = the clear button, i >= 0 = slider
 * i's track. Returns 0, or -1 when the part is not shown (no actuators, i out of range, or
 * slider i below the window's bottom edge). */
int cs_ctrl_panel_rect(int w, int h, int nact, int part, double rect[4]);
/* What pixel (x, y) is on: a slider index (its label row or track), CS_PANEL_CLEAR,
 * CS_PANEL_BACKGROUND (elsewhere on the panel) or CS_PANEL_OUTSIDE. */
int cs_ctrl_panel_hit(int w, int h, int nact, double x, double y);
/* The slider's span: ctrlrange when it is a range (min < max), even when not limited, else
 * -1 .. 1 (MuJoCo 3.12's simulate). */
void cs_ctrl_slider_range(const cs_render_actuator *a, double *lo, double *hi);
/* Control for cursor x on slider i's track (clamped to its ends), and the track position
 * (pixels) of a value (clamped). */
double cs_ctrl_slider_value(const cs_render_actuator *a, const double track[4], double x);
double cs_ctrl_slider_x(const cs_render_actuator *a, const double track[4], double value);

/* ---------------------------------------------------------------- viewer state */

/* What the viewer itself keeps between frames; cs_viewer_apply changes it from actions.
 * Actions that need the simulation (step, reset, perturbation) are reported back. */
typedef struct {
    cs_camera camera;
    unsigned overlay;
    int paused;
    double slowmo;          /* 1, 1/2, 1/4, ... down to 1/64 */
    int quit;
    int track_body;         /* -1 = free camera; else lookat follows this body's geoms */
    int selected_body;      /* -1 = none */
    int selected_contact;   /* -1 = automatic */
    int step_requests;      /* single steps asked for (Right arrow) not yet taken */
    int step_back_requests;
    int reset_request;
    int contact_model_requests; /* M presses not yet handed to the toggle_contact callback */
    /* Perturbation (Ctrl+left drag): body, anchor in the picked geom's local frame,
     * target in world, depth plane through the first hit point. */
    int perturb_active;
    int perturb_body;
    int perturb_geom;
    double perturb_local[3];
    double perturb_target[3];
    double perturb_depth;   /* distance of the target plane along the camera's forward */
    /* Control panel: the slider being dragged (-1 = none), the control it asks for (not
     * yet handed to the set_ctrl callback: ctrl_pending -1 = nothing), clear-all asked. */
    int ctrl_drag;
    int ctrl_pending;
    double ctrl_pending_value;
    int ctrl_clear_request;
    int model_camera;       /* -1: the free camera; else the scene's camera looked through */
} cs_viewer_state;

void cs_viewer_state_init(cs_viewer_state *v, const cs_camera *cam, unsigned overlay);
/* Applies an action. scene (may be NULL) and the viewport size are needed for picking
 * (SELECT, PERTURB_*). Returns 1 when the action changed something, 0 otherwise. */
int cs_viewer_apply(cs_viewer_state *v, const cs_action *a, const cs_render_scene *scene,
                    int w, int h);
/* Mouse events on the control panel (shown: CS_OVERLAY_CONTROLS and actuators in scene):
 * a left press on a slider starts dragging it and asks for the control under the cursor, a
 * move while dragging asks again, the release ends it; a press on the clear button asks to
 * clear all; any press on the panel is kept from the camera. Driven actuators are not
 * dragged. Returns 1 when the event was the panel's (the caller does not map it further). */
int cs_viewer_panel_event(cs_viewer_state *v, const cs_render_scene *scene,
                          const cs_input_event *ev, int w, int h);
/* Per-frame update: move lookat to the tracked body's geoms. */
void cs_viewer_track(cs_viewer_state *v, const cs_render_scene *scene);

/* The perturbation to apply this frame, in world coordinates. */
typedef struct {
    int active;             /* 0: no perturbation (clear any applied force) */
    int body;
    double anchor[3];       /* the grabbed point on the body, now */
    double target[3];       /* where the cursor holds it */
} cs_perturb;

void cs_viewer_perturb(const cs_viewer_state *v, const cs_render_scene *scene, cs_perturb *p);
/* A spring-damper force for a perturbation: F = m (w^2 (target - anchor) - 2 w v_anchor),
 * critically damped at w = 2 pi 2 Hz; m is the body's mass, v_anchor the anchor's world
 * velocity (may be NULL). Apply F at the anchor (it also makes a torque about the com). */
void cs_perturb_force(const cs_perturb *p, double mass, const double v_anchor[3],
                      double force[3]);

/* ---------------------------------------------------------------- drawing */

typedef struct cs_renderer cs_renderer;

/* Creates a GL context: a visible window of w x h titled `title`, or with hidden != 0 a
 * hidden 1x1 window whose context renders into framebuffer objects (the off-screen
 * path; never swaps, never waits for vsync). Returns NULL with a message in err when
 * no display or no GL 3.3 core context can be had. */
cs_renderer *cs_renderer_create(int w, int h, const char *title, int hidden, char *err,
                                size_t errlen);
void cs_renderer_destroy(cs_renderer *r);
/* Multisampling of the off-screen framebuffer (default 4; 0 = none, about 3x faster on
 * llvmpipe). Clamped to what the driver offers. */
void cs_renderer_set_samples(cs_renderer *r, int samples);
/* GL_RENDERER string of the context (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"). */
const char *cs_renderer_gl_name(const cs_renderer *r);

/* Draws one frame into the currently bound framebuffer of w x h pixels. */
void cs_render_frame(cs_renderer *r, const cs_render_scene *s, const cs_camera *c, int w,
                     int h);
/* Off-screen: draws one frame into a w x h framebuffer object (4x multisampled, then
 * resolved) and reads it back as rgb, 3 bytes a pixel, rows top to bottom.
 * Returns 0, or -1 with a message. */
int cs_render_offscreen(cs_renderer *r, const cs_render_scene *s, const cs_camera *c, int w,
                        int h, unsigned char *rgb, char *err, size_t errlen);

/* Off-screen depth: the distance along the view axis, in metres, of the nearest visible
 * geom at each pixel (overlays are not in it; the far plane where there is none), w x h
 * floats, rows top to bottom. Returns 0, or -1 with a message. */
int cs_render_offscreen_depth(cs_renderer *r, const cs_render_scene *s, const cs_camera *c,
                              int w, int h, float *depth, char *err, size_t errlen);
/* Off-screen segmentation: the index into s->geoms of the visible geom at each pixel (-1
 * where there is none), w x h ints, rows top to bottom. Returns 0, or -1 with a message. */
int cs_render_offscreen_segment(cs_renderer *r, const cs_render_scene *s, const cs_camera *c,
                                int w, int h, int *geom, char *err, size_t errlen);

/* PNG (8-bit RGB, rows top to bottom). Returns 0, or -1 with a message naming the file. */
int cs_png_write(const char *path, int w, int h, const unsigned char *rgb, char *err,
                 size_t errlen);
/* Reads an 8-bit RGB or RGBA PNG into a malloc'd rgb buffer (alpha dropped). */
int cs_png_read(const char *path, int *w, int *h, unsigned char **rgb, char *err,
                size_t errlen);

/* One call for `view --screenshot`: hidden context, one frame, PNG. */
int cs_render_screenshot(const cs_render_scene *s, const cs_camera *c, int w, int h,
                         const char *path, char *err, size_t errlen);

/* ---------------------------------------------------------------- the windowed loop */

typedef struct {
    void *user;
    /* Advances the simulation by one timestep. Non-zero stops the loop (e.g. divergence),
     * and cs_viewer_run returns that value. */
    int (*step)(void *user);
    /* Optional: one step back (replay scrubbing). */
    void (*step_back)(void *user);
    /* Back to the initial state. */
    void (*reset)(void *user);
    /* Fills the scene for the current state: geoms, contacts, hud numbers, extent,
     * force_scale. The loop then overwrites overlay, selected_*, hud.paused, hud.slowmo and
     * hud.rtf from its own state. The arrays must stay valid until the next fill (input
     * handling picks against them between frames), and geom i must be the same geom in
     * every fill (a perturbation holds its index). */
    void (*fill)(void *user, cs_render_scene *scene);
    /* Optional: called before every step with the perturbation to apply (active = 0 when
     * none): write the force into the data's applied forces, nowhere else. */
    void (*perturb)(void *user, const cs_perturb *p);
    /* Optional: switch the contact model (M), called between steps, never inside one;
     * the next fill shows the model now in use. */
    void (*toggle_contact)(void *user);
    /* Optional: the control panel sets actuator i's control (between steps): clamp it to
     * ctrlrange when limited; the next fill shows it. */
    void (*set_ctrl)(void *user, int i, double value);
} cs_viewer_callbacks;

typedef struct {
    int width, height;      /* window size (default 1280 x 720) */
    const char *title;
    double timestep;        /* simulated seconds per step (> 0) */
    cs_camera camera;       /* initial camera */
    unsigned overlay;       /* initial overlays */
    int start_paused;
    int vsync;              /* 1: swap interval 1 on a desktop; 0: never wait */
    int max_frames;         /* > 0: stop after that many frames (tests, scripted runs) */
    double max_step_time;   /* wall seconds of stepping a frame may spend (default 1/30) */
    int samples;            /* window multisampling; -1 (default) = 4, or 0 on software GL
                             * (llvmpipe), where it would cost ~3x the frame time */
    int model_camera;       /* -1 (default): the free camera; else a scene camera's index */
} cs_viewer_options;

void cs_viewer_options_init(cs_viewer_options *o);
/* Opens the window and runs until Esc, window close, max_frames, or a step failure.
 * Returns 0, the step callback's non-zero value, or -1 when no window could be opened
 * (with a message in err). */
int cs_viewer_run(const cs_viewer_options *o, const cs_viewer_callbacks *cb, char *err,
                  size_t errlen);

/* The pacing rule alone (testable): given the wall time since the last frame, the
 * slow-motion factor, the timestep and the carried-over debt (simulated seconds still
 * owed), returns the number of steps to take now (at most max_steps) and updates debt.
 * When the budget is exceeded the debt is dropped, so the simulation slows rather than
 * spirals. */
int cs_pacing_steps(double wall_dt, double slowmo, double timestep, int max_steps,
                    double *debt);

/* ---------------------------------------------------------------- the passive window */

/* A viewer window the caller drives (MuJoCo's launch_passive): the caller steps its
 * simulation and calls cs_window_sync to show the state. Options as cs_viewer_run's
 * (timestep, max_frames and start_paused unused); callbacks: fill (needed), reset
 * (Backspace), set_ctrl (the control panel) and perturb (every sync, the Ctrl+drag
 * perturbation or active = 0) optional, called from within cs_window_sync only. */
typedef struct cs_window cs_window;

/* Opens and shows the window. NULL with a message when no window can be had. */
cs_window *cs_window_open(const cs_viewer_options *o, const cs_viewer_callbacks *cb, char *err,
                          size_t errlen);
/* Handles the input since the last sync, fills the scene and draws it. Returns 1, or 0 once
 * the window was closed (Esc or its close button; it is hidden then) or w is NULL. */
int cs_window_sync(cs_window *w);
/* 1 while the window is open (not closed by Esc or its close button). */
int cs_window_running(const cs_window *w);
/* The oldest key pressed (GLFW code) not yet taken, or -1. */
int cs_window_next_key(cs_window *w);
/* The window's framebuffer size in pixels (0 0 for NULL). */
void cs_window_size(const cs_window *w, int *width, int *height);
/* The frame the last sync showed (its scene drawn again, not shown: a swapped frame cannot be
 * read back everywhere), rgb rows top to bottom; width and height must be the window's
 * (cs_window_size). Returns 0, or -1 with a message (also before the first sync). */
int cs_window_read_rgb(cs_window *w, unsigned char *rgb, int width, int height, char *err,
                       size_t errlen);
/* The window's viewer state (camera, overlays, selection, tracking, the model camera looked
 * through): the caller may read it and change it between syncs. NULL for NULL. */
cs_viewer_state *cs_window_state(cs_window *w);
/* Closes the window and frees w (NULL: nothing). */
void cs_window_close(cs_window *w);

/* ---------------------------------------------------------------- replay */

/* A trajectory CSV (README, Output files, `--record`) loaded for `view --replay`: frames are the
 * recorded steps, each with every body's 13 numbers x y z qw qx qy qz vx vy vz wx wy wz.
 * The adapter maps a body's pose to its geoms with the model. */
typedef struct {
    int nframe, nbody;
    char **names;       /* nbody, in the order of the first step's rows */
    long *step;         /* nframe */
    double *time;       /* nframe */
    double *state;      /* nframe * nbody * 13 */
} cs_replay;

#define CS_REPLAY_NUMS 13

/* Reads and checks the whole file: the header, 16 fields a row, numbers, every step
 * listing the same bodies in the same order, steps increasing. Errors are
 * "FILE:LINE: what is wrong". Returns 0 or -1 (errno ENOMEM when memory ran out). */
int cs_replay_load(const char *path, cs_replay *r, char *err, size_t errlen);
void cs_replay_free(cs_replay *r);
/* Body index by name, or -1. */
int cs_replay_find_body(const cs_replay *r, const char *name);
/* The 13 numbers of body b in frame f. */
const double *cs_replay_body(const cs_replay *r, int f, int b);
/* The last frame recorded at or before time t (0 before the first). */
int cs_replay_frame_at(const cs_replay *r, double t);
/* Rotation matrix (row-major, as cs_pose) of a quaternion w x y z (normalised first). */
void cs_quat_to_mat(const double q[4], double mat[9]);
/* A geom's world pose from its body's (position, quaternion w x y z) and the geom's pose
 * in the body frame (lpos, lmat row-major): pos = bpos + R lpos, mat = R lmat. */
void cs_pose_compose(const double bpos[3], const double bquat[4], const double lpos[3],
                     const double lmat[9], cs_pose *out);

#endif
