/* libconesim_render: pictures and videos of a model and its data without a window, and a
 * viewer window the caller drives (cs_passive_*).
 *
 *   cs_offscreen *o = cs_offscreen_new(m, 640, 480, err, sizeof err);
 *   cs_offscreen_update(o, d);                  // the scene of d's current state
 *   cs_offscreen_render(o, rgb, err, sizeof err);  // 640 * 480 * 3 bytes, top row first
 *   cs_offscreen_free(o);
 *
 * The context is EGL with no X server (Mesa's surfaceless platform, else the device
 * platform), else a hidden GLFW window on the current display; the environment variable
 * CONESIM_GL=egl or =glfw allows only that one. A separate library from libconesim so that
 * the simulator itself needs no OpenGL: link both (pkg-config conesim-render). */
#ifndef CONESIM_RENDER_H
#define CONESIM_RENDER_H

#include <stddef.h>

#include "conesim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cs_offscreen cs_offscreen;

/* A renderer for model m (which must outlive it) making width x height images (1 to the
 * driver's largest renderbuffer, 8192 or more on Mesa). NULL with a message when no GL 3.3
 * core context can be had (neither EGL nor a display) or memory runs out. */
cs_offscreen *cs_offscreen_new(const cs_model *m, int width, int height, char *err,
                               size_t errlen);
void cs_offscreen_free(cs_offscreen *o);
/* "egl" or "glfw": how the context was made. */
const char *cs_offscreen_backend(const cs_offscreen *o);
/* The GL renderer's name, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". */
const char *cs_offscreen_gl_name(const cs_offscreen *o);

/* The free camera: azimuth, elevation (degrees), distance (m), look-at x y z (MuJoCo's
 * mjvCamera). cam_default: MuJoCo's default free camera for the model (azimuth 90,
 * elevation -45, distance 1.5 x the extent of the visible geoms at qpos0, at their centre).
 * set_camera: distance must be > 0 and all six finite (returns -1 otherwise). */
void cs_offscreen_camera_default(const cs_offscreen *o, double cam[6]);
void cs_offscreen_camera_get(const cs_offscreen *o, double cam[6]);
int cs_offscreen_set_camera(cs_offscreen *o, const double cam[6]);
/* The model's camera id (MJCF <camera>, 0 .. ncam-1; cs_name2id(m, "camera", name)) posed
 * as MuJoCo poses it for each update's state, or -1: the free camera above. -1 for an id out
 * of range. */
int cs_offscreen_set_model_camera(cs_offscreen *o, int id);
/* on = 1: the free camera follows the moving bodies (videos' default): it looks at their
 * centre of mass, smoothed over 0.3 s of simulated time, from an elevation of at most -20
 * degrees; each update moves it (cs_offscreen_camera_get reads it). Turning it on starts
 * the follow afresh at the next update. */
void cs_offscreen_set_tracking(cs_offscreen *o, int on);
/* Overlays as `conesim view --overlay`: a comma list of contacts, forces, cones, frames,
 * joints, wireframe, hud, or none (default: none). Returns -1 with the bad word in err. */
int cs_offscreen_set_overlay(cs_offscreen *o, const char *list, char *err, size_t errlen);
/* Multisampling (default 4; 0 is about 3x faster on llvmpipe). */
void cs_offscreen_set_samples(cs_offscreen *o, int samples);

/* Takes the scene from d's current state: geom poses, contacts and their forces, joints,
 * the time. Recomputes d's kinematics, contacts and forces first (cs_forward: pure
 * recomputation, the state itself is unchanged), as cs_step leaves those of the state before
 * its integration. d must belong to the renderer's model (a NULL o or d: nothing done). */
void cs_offscreen_update(cs_offscreen *o, cs_data *d);
/* Draws the scene last taken into rgb (width * height * 3 bytes, rows top to bottom).
 * Returns 0, or -1 with a message (also for a NULL o or rgb). */
int cs_offscreen_render(cs_offscreen *o, unsigned char *rgb, char *err, size_t errlen);
/* Depth of the scene last taken: per pixel the distance in metres along the camera's view
 * axis to the nearest visible geom (the far clipping plane where there is none; overlays
 * are not in it), width * height floats, rows top to bottom. The depth buffer of the
 * projection the colour picture uses, linearised with its near and far planes. */
int cs_offscreen_render_depth(cs_offscreen *o, float *depth, char *err, size_t errlen);
/* Segmentation of the scene last taken: per pixel two ints, the geom's id and
 * CS_OBJ_GEOM (MuJoCo's mjOBJ_GEOM, 5), or -1 -1 where no geom is (width * height * 2
 * ints, rows top to bottom). Hidden geoms (alpha 0, groups 3 and up) are not drawn;
 * translucent ones count as solid. */
int cs_offscreen_render_segmentation(cs_offscreen *o, int *seg, char *err, size_t errlen);

/* ---- a viewer window the caller drives (MuJoCo's launch_passive; needs a display):
 *
 *   cs_passive *v = cs_passive_open(m, 1280, 720, "conesim", err, sizeof err);
 *   while (cs_passive_running(v)) { cs_step(m, d); cs_passive_sync(v, d); }
 *   cs_passive_close(v);
 *
 * The window of `conesim view` (its keys and mouse: camera, overlays, selection, the control
 * panel, Backspace resets d, Ctrl+drag pulls a body through its row of d->xfrc_applied while
 * the drag lasts, Esc closes), but the caller steps: Space, the arrows and M do nothing. */
typedef struct cs_passive cs_passive;
/* A window of width x height for model m (which must outlive it). NULL with a message when
 * no window can be had (no display) or memory runs out. */
cs_passive *cs_passive_open(const cs_model *m, int width, int height, const char *title,
                            char *err, size_t errlen);
/* Handles the input since the last sync (which may set d's controls, or reset d), then draws
 * d's current state (recomputing its kinematics, contacts and forces: cs_forward). Returns 1,
 * 0 once the window was closed (Esc or its close button), -1 for a NULL p or d. d must
 * belong to the viewer's model. */
int cs_passive_sync(cs_passive *p, cs_data *d);
/* 1 while the window is open. */
int cs_passive_running(const cs_passive *p);
/* The oldest key pressed (GLFW key code) not yet taken, or -1. */
int cs_passive_next_key(cs_passive *p);
/* The window's size in pixels (framebuffer), 0 0 for NULL. */
void cs_passive_size(const cs_passive *p, int *width, int *height);
/* The frame the last sync showed, rows top to bottom, width and height cs_passive_size's.
 * Returns 0, or -1 with a message (also once closed). */
int cs_passive_read_pixels(cs_passive *p, unsigned char *rgb, int width, int height, char *err,
                           size_t errlen);
void cs_passive_close(cs_passive *p);

/* The window's camera, MuJoCo's mjvCamera: type 0 free (lookat, distance, azimuth and
 * elevation in degrees), 1 tracking (the free camera whose lookat follows body trackbodyid's
 * geoms), 2 fixed (the model's camera fixedcamid, posed for each state). get: as the last
 * sync left it (the mouse moves it, a double-click tracks a body, { and } step through the
 * model's cameras); set: taken at the next sync. set returns -1 with a message, changing
 * nothing, for type 3 (MuJoCo's user camera: none here) or another outside 0-2, an id out of
 * range for its type, a distance not > 0 or a number not finite. */
typedef struct {
    int type, fixedcamid, trackbodyid;
    double lookat[3], distance, azimuth, elevation;
} cs_passive_camera;
void cs_passive_get_camera(const cs_passive *p, cs_passive_camera *c);
int cs_passive_set_camera(cs_passive *p, const cs_passive_camera *c, char *err, size_t errlen);

/* What the window draws, MuJoCo's mjvOption where conesim has the concept: overlay bits (1
 * contact points, 2 contact forces, 4 the friction cone, 8 contact frames, 16 wireframe, 32
 * the HUD, 64 joints, 128 the control panel: cs_offscreen_set_overlay's words), geomgroup
 * (1: the geom group is drawn; groups past 5 count as 5; MuJoCo's default 1 1 1 0 0 0),
 * textures (0: none drawn), transparent (1: the geoms of bodies that move drawn at alpha
 * 0.3, MuJoCo's mjVIS_TRANSPARENT). get: as the last sync left it (keys toggle overlays);
 * set: taken at the next sync; -1 with a message for overlay bits past 128 or flags other
 * than 0 and 1. */
typedef struct {
    unsigned overlay;
    unsigned char geomgroup[6];
    int textures, transparent;
} cs_passive_option;
void cs_passive_get_option(const cs_passive *p, cs_passive_option *o);
int cs_passive_set_option(cs_passive *p, const cs_passive_option *o, char *err, size_t errlen);

/* The selection and the mouse's pull, MuJoCo's mjvPerturb: select the selected body (a
 * double-click; 0: none), active 1 while a Ctrl+drag pulls it (MuJoCo's mjPERT_TRANSLATE),
 * localpos the grabbed point in the body's frame, refselpos where the drag pulls that
 * point (world), refpos where it pulls the body's origin (world), as the last sync saw
 * them. cs_passive_select selects body b (0 or less: none) from the next sync on, without
 * moving the camera; -1 with a message for b >= nbody. */
typedef struct {
    int select, active;
    double localpos[3], refselpos[3], refpos[3];
} cs_passive_perturb;
void cs_passive_get_perturb(const cs_passive *p, cs_passive_perturb *out);
int cs_passive_select(cs_passive *p, int body, char *err, size_t errlen);

/* Shapes the caller adds to the picture (MuJoCo's user_scn): type (plane 0, sphere 2,
 * capsule 3, ellipsoid 4, cylinder 5, box 6: MuJoCo's mjtGeom), size in MuJoCo's meanings,
 * world pos and orientation mat (row-major), rgba; drawn lit among the model's geoms, never
 * selected, from the next sync on until replaced (n = 0: none). Returns -1 with a message,
 * keeping the previous ones, for another type, a size, pos or mat not finite, a negative
 * size or an rgba outside [0, 1]. */
typedef struct {
    int type;
    double size[3], pos[3], mat[9];
    float rgba[4];
} cs_passive_geom;
int cs_passive_set_user_geoms(cs_passive *p, const cs_passive_geom *g, int n, char *err,
                              size_t errlen);

/* ---- videos: H.264 through FFmpeg's libraries (libx264), MP4 unless the name says another
 * container (e.g. .mkv). Frames go to a temporary file next to path, renamed at close. */
typedef struct cs_video cs_video;
/* 1 when this build can write videos. */
int cs_video_available(void);
/* w x h frames (an odd last column or row is dropped: yuv420p), fps 1 to 1000. */
cs_video *cs_video_open(const char *path, int w, int h, int fps, char *err, size_t errlen);
int cs_video_write(cs_video *v, const unsigned char *rgb, char *err, size_t errlen);
/* Finishes the file and frees v; -1 with a message leaves nothing at path. */
int cs_video_close(cs_video *v, char *err, size_t errlen);
/* Frees v and removes the unfinished file. */
void cs_video_discard(cs_video *v);
long cs_video_frames(const cs_video *v);

#ifdef __cplusplus
}
#endif

#endif
