/* sim -> render adapter for `conesim view`, the Renderer and the passive viewer (see view_adapter.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_adapter.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* MuJoCo's viewers show geom groups 0, 1 and 2 by default and hide 3 to 5. */
#define VISIBLE_GROUPS 3

/* MuJoCo's colour of a geom: its material's rgba, unless the geom's own differs from the
 * default (0.5, 0.5, 0.5, 1) or it has no material */
static void geom_color(const cs_model *m, int g, float rgba[4])
{
    const double *c = m->geom_rgba + 4 * g;
    int mat = m->geom_matid ? m->geom_matid[g] : -1;
    int dflt = c[0] == 0.5 && c[1] == 0.5 && c[2] == 0.5 && c[3] == 1;
    const double *src = mat >= 0 && dflt ? m->mat_rgba + 4 * mat : c;
    for (int k = 0; k < 4; k++) rgba[k] = (float)src[k];
}

static int geom_visible(const cs_model *m, int g)
{
    float c[4];
    geom_color(m, g, c);
    return m->geom_group[g] < VISIBLE_GROUPS && c[3] > 0;
}

void cs_view_solver_name(const cs_option *o, char *buf, size_t len)
{
    const char *s = o->solver == CS_SOLVER_PGS      ? "PGS"
                    : o->solver == CS_SOLVER_NEWTON ? "Newton"
                    : o->solver == CS_SOLVER_CG     ? "CG"
                                                    : "?";
    snprintf(buf, len, "%s %s, contact %s", s,
             o->cone == CS_CONE_ELLIPTIC ? "elliptic" : "pyramidal",
             o->contact == CS_CONTACT_COULOMB ? "coulomb" : "soft");
}

int cs_view_own_model(cs_view *v, cs_model *m)
{
    if (!m || m != v->m) return -1;
    v->owned = m;
    return 0;
}

int cs_view_toggle_contact(cs_view *v)
{
    cs_model *m = v->owned;
    if (!m) {
        snprintf(v->message, sizeof v->message, "the contact model cannot be changed here");
        return -1;
    }
    const char *next = m->opt.contact == CS_CONTACT_COULOMB ? "soft" : "coulomb";
    char err[300];
    if (cs_set_text(m, "contact", next, err, sizeof err) != 0) { /* refused with adhesion */
        snprintf(v->message, sizeof v->message, "%.159s", err);
        return -1;
    }
    cs_view_solver_name(&m->opt, v->solver, sizeof v->solver);
    /* The picture's contacts and forces: recomputed with the new model at the next fill
     * (the state is unchanged, so the next step is the one it would be anyway). */
    v->stale = 1;
    return 0;
}

/* Extent and centre as MuJoCo's compiler computes stat.extent and stat.center (the free
 * camera looks at the centre from 1.5 extents): the bounding box of the moving bodies'
 * frames and of the visible geoms' bounding spheres, planes left out (a floor is no part of
 * the subject); the extent is the box's longest side. Fixed once, so a body flying off does
 * not rescale the picture. */
static void fix_extent(cs_view *v)
{
    const cs_model *m = v->m;
    const cs_data *d = v->d;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int n = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_type[g] == CS_GEOM_PLANE || !geom_visible(m, g)) continue;
        const double *p = d->geom_xpose[g].pos;
        double r = m->geom_rbound[g];
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], p[k] - r);
            hi[k] = fmax(hi[k], p[k] + r);
        }
        n++;
    }
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_weldid[b] <= 0) continue; /* welded to the world: not moving */
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], d->xpos[3 * b + k]);
            hi[k] = fmax(hi[k], d->xpos[3 * b + k]);
        }
        n++;
    }
    v->extent = 1;
    memset(v->center, 0, sizeof v->center);
    if (n > 0 && isfinite(lo[0] + lo[1] + lo[2] + hi[0] + hi[1] + hi[2])) {
        double e = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
        if (e > 1e-6) v->extent = e;
        for (int k = 0; k < 3; k++) v->center[k] = 0.5 * (lo[k] + hi[k]);
    }
    /* what the scene says (<statistic>, <visual><global>) overrides what was measured */
    if (m->stat_extent > 0) v->extent = m->stat_extent;
    if (!isnan(m->stat_center[0])) memcpy(v->center, m->stat_center, sizeof v->center);
    v->azimuth = m->vis_azimuth;
    v->elevation = m->vis_elevation;
    v->fovy = m->vis_fovy > 0 ? m->vis_fovy : 45;
    v->ortho = m->vis_orthographic;
    /* Arrows scaled per frame from the forces on screen (render/'s automatic scale). */
    v->force_scale = 0;
}

void cs_view_camera(const cs_view *v, cs_camera *c)
{
    cs_camera_default(c, v->extent, v->center);
    c->azimuth = v->azimuth;
    c->elevation = v->elevation;
    c->fovy = v->fovy;
    c->ortho = v->ortho;
}

/* The body poses the scene's geoms show (the frame of a perturbation's anchor). */
static void remember_poses(cs_view *v)
{
    const cs_data *d = v->d;
    for (int b = 0; b < v->m->nbody; b++) {
        memcpy(v->fill_pose + 12 * b, d->xpos + 3 * b, 3 * sizeof *d->xpos);
        memcpy(v->fill_pose + 12 * b + 3, d->xmat + 9 * b, 9 * sizeof *d->xmat);
    }
}

/* hfield h as a closed surface of outward-wound triangles: the top grid's vertices
 * (row-major), the same grid on the base, the base's centre; the cells' two triangles, the
 * four sides, the base as a fan about its centre */
static void hfield_mesh(const cs_model *m, int h, double *vert, int *face)
{
    int nr = m->hfield_nrow[h], nc = m->hfield_ncol[h], nf = 0;
    const double *s = m->hfield_size + 4 * h, *z = m->hfield_data + m->hfield_adr[h];
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < nc; c++) {
            double *t = vert + 3 * (r * nc + c), *b = t + 3 * nr * nc;
            t[0] = b[0] = -s[0] + 2 * s[0] * c / (nc - 1);
            t[1] = b[1] = -s[1] + 2 * s[1] * r / (nr - 1);
            t[2] = z[r * nc + c] * s[2];
            b[2] = -s[3];
        }
    int base = nr * nc;
#define TRI(a, b, c) (face[3 * nf] = (a), face[3 * nf + 1] = (b), face[3 * nf + 2] = (c), nf++)
    for (int r = 0; r + 1 < nr; r++)
        for (int c = 0; c + 1 < nc; c++) { /* the cell's two triangles, as the grid's prisms */
            int v00 = r * nc + c, v01 = v00 + 1, v10 = v00 + nc, v11 = v10 + 1;
            TRI(v00, v01, v11);
            TRI(v00, v11, v10);
        }
    for (int c = 0; c + 1 < nc; c++) { /* the sides along x (rows 0 and nr - 1) */
        int a = c, b = (nr - 1) * nc + c;
        TRI(a, a + base, a + 1);
        TRI(a + 1, a + base, a + 1 + base);
        TRI(b, b + 1, b + base);
        TRI(b + 1, b + 1 + base, b + base);
    }
    for (int r = 0; r + 1 < nr; r++) { /* along y (columns 0 and nc - 1) */
        int a = r * nc, b = r * nc + nc - 1;
        TRI(a, a + nc, a + base);
        TRI(a + nc, a + nc + base, a + base);
        TRI(b, b + base, b + nc);
        TRI(b + nc, b + base, b + nc + base);
    }
    int ctr = 2 * nr * nc, prev = -1, first = -1; /* the base: its rim anticlockwise */
    double *cv = vert + 3 * ctr;
    cv[0] = cv[1] = 0;
    cv[2] = -s[3];
    for (int k = 0; k < 2 * (nr - 1 + nc - 1); k++) {
        int v;
        if (k < nc - 1) v = k;                                          /* row 0, x rising */
        else if (k < nc - 1 + nr - 1) v = (k - (nc - 1)) * nc + nc - 1; /* last column */
        else if (k < 2 * (nc - 1) + nr - 1)
            v = (nr - 1) * nc + (nc - 1) - (k - (nc - 1) - (nr - 1));   /* last row back */
        else v = (nr - 1 - (k - 2 * (nc - 1) - (nr - 1))) * nc;         /* column 0 down */
        if (prev >= 0) TRI(ctr, v + base, prev + base);
        else first = v;
        prev = v;
    }
    TRI(ctr, first + base, prev + base);
#undef TRI
}

/* 0, or -1 out of memory */
static int hfield_meshes(cs_view *v)
{
    const cs_model *m = v->m;
    int nh = m->nhfield;
    size_t nv = 0, nf = 0;
    v->hfield_vadr = calloc((size_t)nh + 1, sizeof *v->hfield_vadr);
    v->hfield_fadr = calloc((size_t)nh + 1, sizeof *v->hfield_fadr);
    if (!v->hfield_vadr || !v->hfield_fadr) return -1;
    for (int h = 0; h < nh; h++) {
        int nr = m->hfield_nrow[h], nc = m->hfield_ncol[h];
        v->hfield_vadr[h] = (int)nv;
        v->hfield_fadr[h] = (int)nf;
        nv += 2 * (size_t)nr * nc + 1;
        nf += 2 * (size_t)(nr - 1) * (nc - 1) + 6 * (size_t)(nr - 1 + nc - 1);
    }
    v->hfield_vadr[nh] = (int)nv;
    v->hfield_fadr[nh] = (int)nf;
    v->hfield_vert = calloc(3 * nv + 1, sizeof *v->hfield_vert);
    v->hfield_face = calloc(3 * nf + 1, sizeof *v->hfield_face);
    if (!v->hfield_vert || !v->hfield_face) return -1;
    for (int h = 0; h < nh; h++)
        hfield_mesh(m, h, v->hfield_vert + 3 * (size_t)v->hfield_vadr[h],
                    v->hfield_face + 3 * (size_t)v->hfield_fadr[h]);
    return 0;
}

int cs_view_init(cs_view *v, const cs_model *m, cs_data *d, int key)
{
    memset(v, 0, sizeof *v);
    v->m = m;
    v->d = d;
    v->key = key;
    v->diverged = -1;
    for (int g = 0; g < 6; g++) v->geomgroup[g] = g < VISIBLE_GROUPS;
    v->show_textures = 1;
    v->geoms = calloc(m->ngeom > 0 ? (size_t)m->ngeom : 1, sizeof *v->geoms);
    v->ncontact_cap = d->ncon_cap > 0 ? d->ncon_cap : 1;
    v->contacts = calloc((size_t)v->ncontact_cap, sizeof *v->contacts);
    v->fill_pose = calloc(12 * (size_t)m->nbody, sizeof *v->fill_pose);
    v->joints = calloc(m->njnt > 0 ? (size_t)m->njnt : 1, sizeof *v->joints);
    v->actuators = calloc(m->nu > 0 ? (size_t)m->nu : 1, sizeof *v->actuators);
    v->textures = calloc(m->ntex > 0 ? (size_t)m->ntex : 1, sizeof *v->textures);
    v->lights = calloc(m->nlight > 0 ? (size_t)m->nlight : 1, sizeof *v->lights);
    v->cameras = calloc(m->ncam > 0 ? (size_t)m->ncam : 1, sizeof *v->cameras);
    v->camera_names = calloc(m->ncam > 0 ? (size_t)m->ncam : 1, sizeof *v->camera_names);
    if (!v->geoms || !v->contacts || !v->fill_pose || !v->joints || !v->actuators ||
        !v->textures || !v->lights || !v->cameras || !v->camera_names ||
        hfield_meshes(v) != 0) {
        cs_view_free(v);
        return -1;
    }
    for (int t = 0; t < m->ntex; t++)
        v->textures[t] = (cs_render_texture){m->tex_type[t], m->tex_width[t], m->tex_height[t],
                                             m->tex_data + m->tex_adr[t]};
    cs_view_solver_name(&m->opt, v->solver, sizeof v->solver);
    fix_extent(v);
    remember_poses(v);
    return 0;
}

void cs_view_free(cs_view *v)
{
    free(v->hfield_vert);
    free(v->hfield_face);
    free(v->hfield_vadr);
    free(v->hfield_fadr);
    v->hfield_vert = NULL;
    v->hfield_face = NULL;
    v->hfield_vadr = v->hfield_fadr = NULL;
    free(v->geoms);
    free(v->contacts);
    free(v->replay_free);
    free(v->fill_pose);
    free(v->joints);
    free(v->actuators);
    free(v->textures);
    free(v->lights);
    free(v->cameras);
    free(v->camera_names);
    v->cameras = NULL;
    v->camera_names = NULL;
    v->textures = NULL;
    v->lights = NULL;
    v->actuators = NULL;
    v->fill_pose = NULL;
    v->joints = NULL;
    v->geoms = NULL;
    v->contacts = NULL;
    v->replay_free = NULL;
}

static void fill_geoms(cs_view *v)
{
    const cs_model *m = v->m;
    for (int g = 0; g < m->ngeom; g++) {
        cs_render_geom *o = &v->geoms[g];
        o->type = m->geom_type[g];
        memcpy(o->size, m->geom_size + 3 * g, sizeof o->size);
        o->pose = v->d->geom_xpose[g];
        geom_color(m, g, o->rgba);
        int group = m->geom_group[g] < 0 ? 0 : m->geom_group[g] > 5 ? 5 : m->geom_group[g];
        if (!v->geomgroup[group]) o->rgba[3] = 0;
        if (v->transparent && m->body_weldid[m->geom_body[g]] > 0) o->rgba[3] *= 0.3f;
        int mat = m->geom_matid[g];
        o->material = mat >= 0;
        o->texture = NULL;
        if (mat >= 0) {
            int t = m->mat_texid[mat];
            o->texture = t >= 0 && v->show_textures ? &v->textures[t] : NULL;
            o->texrepeat[0] = (float)m->mat_texrepeat[2 * mat];
            o->texrepeat[1] = (float)m->mat_texrepeat[2 * mat + 1];
            o->texuniform = m->mat_texuniform[mat];
            o->specular = (float)m->mat_specular[mat];
            o->shininess = (float)m->mat_shininess[mat];
            o->emission = (float)m->mat_emission[mat];
        }
        o->body = m->geom_body[g];
        int id = m->geom_dataid ? m->geom_dataid[g] : -1;
        if (o->type == CS_GEOM_MESH && id >= 0) {
            cs_mesh_hull h;
            cs_mesh_hull_get(m, id, &h);
            o->mesh_vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
            o->mesh_face = m->mesh_face + 3 * m->mesh_faceadr[id];
            o->mesh_nface = m->mesh_facenum[id];
            int ta = m->mesh_texcoordadr[id];
            o->mesh_texcoord = ta >= 0 ? m->mesh_texcoord + 2 * (size_t)ta : NULL;
            o->mesh_facetexcoord = ta >= 0 ? m->mesh_facetexcoord + 3 * (size_t)m->mesh_faceadr[id]
                                           : NULL;
            o->hull_vert = h.vert;
            o->hull_nface = h.nface;
            o->hull_faceadr = h.faceadr;
            o->hull_facevert = h.facevert;
        }
        if (o->type == CS_GEOM_HFIELD && id >= 0) {
            /* drawn and picked as its mesh, within the box from its base to its top */
            const double *hs = m->hfield_size + 4 * id;
            o->type = CS_GEOM_MESH;
            o->size[2] = fmax(hs[2], hs[3]);
            o->mesh_vert = v->hfield_vert + 3 * (size_t)v->hfield_vadr[id];
            o->mesh_face = v->hfield_face + 3 * (size_t)v->hfield_fadr[id];
            o->mesh_nface = v->hfield_fadr[id + 1] - v->hfield_fadr[id];
            o->mesh_texcoord = NULL;
            o->mesh_facetexcoord = NULL;
            o->hull_vert = NULL;
            o->hull_nface = 0;
        }
    }
}

/* a camera's (cam 1) or light's (cam 0) pose in the current state, as the forward pass left
 * it (cam_xpos / cam_xmat, light_xpos / light_xdir: MuJoCo's mj_camlight): world pos, and for
 * a camera its frame R (row-major columns x, y, z), for a light its direction */
static void camlight(const cs_view *v, int cam, int i, double pos[3], double R[9])
{
    const cs_data *d = v->d;
    memcpy(pos, (cam ? d->cam_xpos : d->light_xpos) + 3 * i, 3 * sizeof *pos);
    if (cam) memcpy(R, d->cam_xmat + 9 * i, 9 * sizeof *R);
    else memcpy(R, d->light_xdir + 3 * i, 3 * sizeof *R);
}

static void fill_lights(cs_view *v)
{
    const cs_model *m = v->m;
    v->nlight = 0;
    for (int i = 0; i < m->nlight; i++) {
        if (!m->light_active[i]) continue;
        cs_render_light *L = &v->lights[v->nlight++];
        double dir[9];
        camlight(v, 0, i, L->pos, dir);
        double n = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        for (int k = 0; k < 3; k++) {
            L->dir[k] = n > 0 ? dir[k] / n : (k == 2 ? -1 : 0);
            L->ambient[k] = (float)m->light_ambient[3 * i + k];
            L->diffuse[k] = (float)m->light_diffuse[3 * i + k];
            L->specular[k] = (float)m->light_specular[3 * i + k];
        }
        L->directional = m->light_directional[i];
        L->cutoff = m->light_cutoff[i];
        L->exponent = m->light_exponent[i];
    }
}

static void pose_camera(cs_view *v, int id, cs_camera *c)
{
    cs_camera_default(c, v->extent, v->center);
    camlight(v, 1, id, c->pos, c->mat);
    c->fixed = 1;
    c->fovy = v->m->cam_fovy[id];
    c->ortho = v->m->cam_projection[id] == CS_PROJ_ORTHOGRAPHIC;
    c->distance = v->extent; /* the clipping planes' scale */
    memcpy(c->lookat, c->pos, sizeof c->lookat);
}

int cs_view_model_camera(cs_view *v, int id, cs_camera *c)
{
    if (id < 0 || id >= v->m->ncam) return -1;
    if (v->stale) { /* the poses of the state now (cs_view_fill's recomputation) */
        cs_forward(v->m, v->d);
        v->stale = 0;
    }
    pose_camera(v, id, c);
    return 0;
}

/* the centre of mass of the bodies that move (not welded to the world); the centre of the
 * scene when none does */
static void moving_com(cs_view *v, double out[3])
{
    const cs_model *m = v->m;
    double mass = 0;
    memset(out, 0, 3 * sizeof *out);
    for (int b = 1; b < m->nbody; b++) {
        if (m->body_weldid[b] <= 0) continue;
        for (int k = 0; k < 3; k++) out[k] += m->body_mass[b] * v->d->xipos[3 * b + k];
        mass += m->body_mass[b];
    }
    if (mass > 0 && isfinite(out[0] + out[1] + out[2]))
        for (int k = 0; k < 3; k++) out[k] /= mass;
    else
        memcpy(out, v->center, 3 * sizeof *out);
}

/* A tilted plane's downhill heading (degrees from +x), or NaN when every plane is level
 * (within 5 degrees): what slides on it moves that way. */
static double downhill(const cs_view *v)
{
    const cs_model *m = v->m;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom_type[g] != CS_GEOM_PLANE || !geom_visible(m, g)) continue;
        const double *R = v->d->geom_xpose[g].mat;
        double nx = R[2], ny = R[5], nz = R[8];
        if (nz > cos(5 * M_PI / 180) || nz <= 0) continue;
        return atan2(ny, nx) * 180 / M_PI;
    }
    return NAN;
}

void cs_view_track_camera(cs_view *v, cs_camera *c)
{
    double com[3], t = v->d->time;
    moving_com(v, com);
    if (!v->track_started) {
        /* across a tilted floor (the slope then shows in profile, what slides moves left to
         * right), else the scene's own azimuth */
        double a = downhill(v);
        v->track_azimuth = isnan(a) ? v->azimuth : a + 90;
        v->track_elevation = fmin(v->elevation, isnan(a) ? -20 : -15);
        if (v->elevation > -15) v->track_elevation = v->elevation;
        /* the scene's centre while nothing has moved; afterwards the centre of mass's
         * displacement carries it along */
        memcpy(v->track_lookat, v->center, sizeof v->track_lookat);
        for (int k = 0; k < 3; k++) v->track_com0[k] = com[k];
        v->track_time = t;
        v->track_started = 1;
    }
    double dt = t - v->track_time, a = dt > 0 ? 1 - exp(-dt / CS_TRACK_LAG) : 0;
    for (int k = 0; k < 3; k++) {
        double target = v->center[k] + com[k] - v->track_com0[k];
        v->track_lookat[k] += a * (target - v->track_lookat[k]);
    }
    v->track_time = t;
    cs_view_camera(v, c);
    c->azimuth = v->track_azimuth;
    c->elevation = v->track_elevation;
    c->distance = CS_TRACK_DISTANCE * v->extent;
    memcpy(c->lookat, v->track_lookat, sizeof c->lookat);
}

static int fill_contacts(cs_view *v)
{
    const cs_data *d = v->d;
    if (d->ncon > v->ncontact_cap) { /* the data's room grew: follow it (a frame, not a step) */
        cs_render_contact *c = realloc(v->contacts, (size_t)d->ncon_cap * sizeof *c);
        if (c) {
            v->contacts = c;
            v->ncontact_cap = d->ncon_cap;
        }
    }
    int n = d->ncon < v->ncontact_cap ? d->ncon : v->ncontact_cap; /* out of memory: what fits */
    for (int i = 0; i < n; i++) {
        const cs_contact *c = &d->contact[i];
        cs_render_contact *o = &v->contacts[i];
        memcpy(o->pos, c->pos, sizeof o->pos);
        memcpy(o->frame, c->frame, sizeof o->frame);
        o->dim = c->dim;
        memcpy(o->friction, c->friction, sizeof o->friction);
        /* In the gap beyond the margin, kept out of the solver: zone none and zero force, as the CSV. */
        int zone = c->exclude ? CS_CZONE_NONE : c->zone;
        if (zone == CS_CZONE_NONE)
            memset(o->force, 0, sizeof o->force);
        else
            memcpy(o->force, c->force, sizeof o->force);
        snprintf(o->zone, sizeof o->zone, "%s", cs_contact_zone_name(zone));
        o->slip = c->dim >= 3 ? hypot(c->vel[1], c->vel[2]) : 0;
        o->dist = c->dist;
        o->geom1 = c->geom1;
        o->geom2 = c->geom2;
    }
    return n;
}

/* A unit vector perpendicular to the unit axis a that turns with body b: towards b's centre
 * of mass from the anchor, or where that lies on the axis, the body axis most perpendicular
 * to it. */
static void hinge_pointer(const cs_data *d, int b, const double anchor[3], const double a[3],
                          double clear, double out[3])
{
    double r[3], best = -1;
    for (int k = 0; k < 3; k++) r[k] = d->xipos[3 * b + k] - anchor[k];
    for (int c = -1; c < 3; c++) {
        double v[3];
        for (int k = 0; k < 3; k++) v[k] = c < 0 ? r[k] : d->xmat[9 * b + 3 * k + c];
        double t = v[0] * a[0] + v[1] * a[1] + v[2] * a[2];
        for (int k = 0; k < 3; k++) v[k] -= t * a[k];
        double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        /* the COM direction when it is clear of the axis, else the best body axis */
        if (c < 0 ? n > clear : n > best) {
            for (int k = 0; k < 3; k++) out[k] = v[k] / n;
            if (c < 0) return;
            best = n;
        }
    }
}

/* The joints as render/ draws them, from the last kinematics (xanchor, xaxis, xipos). */
static int fill_joints(cs_view *v)
{
    const cs_model *m = v->m;
    const cs_data *d = v->d;
    int n = 0;
    for (int j = 0; j < m->njnt; j++) {
        int type = m->jnt_type[j], b = m->jnt_bodyid[j], qa = m->jnt_qposadr[j];
        if (type == CS_JNT_FREE) continue;
        cs_render_joint *o = &v->joints[n++];
        memset(o, 0, sizeof *o);
        o->type = type == CS_JNT_BALL ? CS_RENDER_JNT_BALL
                  : type == CS_JNT_SLIDE ? CS_RENDER_JNT_SLIDE : CS_RENDER_JNT_HINGE;
        o->body = b;
        char buf[32];
        snprintf(o->name, sizeof o->name, "%s", cs_joint_label(m, j, buf, sizeof buf));
        memcpy(o->anchor, d->xanchor + 3 * j, sizeof o->anchor);
        memcpy(o->axis, d->xaxis + 3 * j, sizeof o->axis);
        o->limited = m->jnt_limited[j];
        o->range[0] = m->jnt_range[2 * j];
        o->range[1] = m->jnt_range[2 * j + 1];
        const double *q = d->qpos + qa;
        switch (type) {
        case CS_JNT_BALL: {
            /* the rotation angle of the joint's quaternion (relative to the reference) */
            double vn = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            o->pos = 2 * atan2(vn, fabs(q[0]));
            break;
        }
        case CS_JNT_SLIDE:
            /* xanchor is where the anchor sits at the reference displacement: carry it to
             * the current one, so the dot rides with the body */
            o->pos = q[0];
            for (int k = 0; k < 3; k++) o->anchor[k] += (q[0] - m->qpos0[qa]) * o->axis[k];
            break;
        default:
            o->pos = q[0];
            /* the pointer turns with the body: angle 0 is it turned back by the angle */
            double cur[3] = {0, 0, 0}, c = cos(q[0]), sn = sin(q[0]), *a = o->axis, kxv[3];
            hinge_pointer(d, b, o->anchor, a, 1e-3 * v->extent, cur);
            kxv[0] = a[1] * cur[2] - a[2] * cur[1];
            kxv[1] = a[2] * cur[0] - a[0] * cur[2];
            kxv[2] = a[0] * cur[1] - a[1] * cur[0];
            /* cur is perpendicular to a: rotating by -q is cur cos q - (a x cur) sin q */
            for (int k = 0; k < 3; k++) o->ref[k] = cur[k] * c - kxv[k] * sn;
        }
    }
    return n;
}

static void fill_actuators(cs_view *v)
{
    const cs_model *m = v->m;
    for (int i = 0; i < m->nu; i++) {
        cs_render_actuator *a = &v->actuators[i];
        char buf[256];
        snprintf(a->name, sizeof a->name, "%s", cs_ctrl_label(m, i, buf, sizeof buf));
        a->ctrl = v->d->ctrl[i];
        a->limited = m->actuator_ctrllimited[i];
        a->range[0] = m->actuator_ctrlrange[2 * i];
        a->range[1] = m->actuator_ctrlrange[2 * i + 1];
        a->driven = v->ctrl_hook && v->ctrl_columns && v->ctrl_columns[i];
        int act = cs_ctrl_actuator(m, i);
        a->neutral = m->actuator_trntype[act] == CS_TRN_SO3 &&
                     m->actuator_ctrlspec[act] == CS_CHART_QUAT && i == m->actuator_ctrladr[act];
    }
}

void cs_view_set_ctrl(cs_view *v, int i, double value)
{
    const cs_model *m = v->m;
    if (i < 0 || i >= m->nu || !isfinite(value) || v->replay) return;
    if (v->ctrl_hook && v->ctrl_columns && v->ctrl_columns[i]) return;
    if (m->actuator_ctrllimited[i]) {
        double lo = m->actuator_ctrlrange[2 * i], hi = m->actuator_ctrlrange[2 * i + 1];
        value = value < lo ? lo : value > hi ? hi : value;
    }
    v->d->ctrl[i] = value;
}

/* World velocity of body b's frame origin (0 for static bodies). */
static void body_velocity(const cs_view *v, int b, double vel[3])
{
    double pos[3], quat[4], w[3];
    memset(vel, 0, 3 * sizeof *vel);
    if (v->m->body_treeid[b] < 0) return;
    cs_body_state(v->m, v->d, b, pos, quat, vel, w);
}

void cs_view_fill(cs_view *v, cs_render_scene *s)
{
    const cs_model *m = v->m;
    const cs_data *d = v->d;
    /* cs_step leaves the kinematics and contacts of the state before its integration:
     * recompute them (once a frame, not once a step) so the picture, the contacts and
     * the HUD time describe the same state, the contact CSV's row for this step. Pure
     * recomputation: the next step redoes it identically, so the trajectory is the one
     * `run` computes. */
    if (v->stale) {
        cs_forward(m, v->d);
        v->stale = 0;
    }
    fill_geoms(v);
    remember_poses(v);
    s->geoms = v->geoms;
    s->ngeom = m->ngeom;
    s->ncontact = fill_contacts(v); /* first: it may move the array */
    s->contacts = v->contacts;
    v->njoint = fill_joints(v);
    s->joints = v->joints;
    s->njoint = v->njoint;
    s->extent = v->extent;
    s->force_scale = v->force_scale;
    fill_actuators(v);
    s->actuators = v->actuators;
    s->nactuator = m->nu;
    s->ctrl_source = v->ctrl_hook ? v->ctrl_source : NULL;
    fill_lights(v);
    s->lights = v->lights;
    s->nlight = v->nlight;
    for (int i = 0; i < m->ncam; i++) {
        pose_camera(v, i, &v->cameras[i]);
        v->camera_names[i] = m->cam_name[i] ? m->cam_name[i] : "(unnamed)";
    }
    s->cameras = v->cameras;
    s->camera_names = v->camera_names;
    s->ncamera = m->ncam;
    s->skybox = NULL;
    for (int t = 0; t < m->ntex && !s->skybox; t++)
        if (m->tex_type[t] == CS_TEX_SKYBOX) s->skybox = &v->textures[t];
    cs_render_hud *h = &s->hud;
    h->time = d->time;
    h->ncon = d->ncon;
    h->iterations = d->solver.iterations;
    h->residual = d->solver.improvement;
    h->solver = v->solver;
    h->message = v->message[0] ? v->message : NULL;
    h->body_name = NULL;
    int b = s->selected_body;
    if (b > 0 && b < m->nbody) {
        char buf[32];
        snprintf(v->body_label, sizeof v->body_label, "%s", cs_body_label(m, b, buf, sizeof buf));
        h->body_name = v->body_label;
        memcpy(h->body_pos, d->xpos + 3 * b, sizeof h->body_pos);
        body_velocity(v, b, h->body_vel);
    }
}

int cs_view_step(cs_view *v)
{
    if (v->replay) {
        cs_view_replay_show(v, v->frame + 1);
        return 0;
    }
    int nomem0 = v->d->warning[CS_WARN_NOMEM];
    if (v->ctrl_hook) v->ctrl_hook(v->ctrl_user, v->d->time, v->d->ctrl);
    cs_step(v->m, v->d);
    v->nstep++;
    if (v->d->warning[CS_WARN_NOMEM] != nomem0) {
        v->nomem = 1;
        snprintf(v->message, sizeof v->message, "out of memory in step %ld", v->nstep);
        return 1;
    }
    int bad = cs_check_finite(v->m, v->d);
    if (bad >= 0) {
        char buf[32];
        v->diverged = bad;
        snprintf(v->message, sizeof v->message, "simulation diverged at step %ld (body %s)",
                 v->nstep, cs_body_label(v->m, bad, buf, sizeof buf));
        return 1;
    }
    v->stale = 1;
    return 0;
}

void cs_view_reset(cs_view *v)
{
    if (v->replay) {
        cs_view_replay_show(v, 0);
        return;
    }
    if (v->key >= 0)
        cs_reset_key(v->m, v->d, v->key);
    else
        cs_reset(v->m, v->d);
    v->nstep = 0;
    v->stale = 0;
    v->diverged = -1;
    v->message[0] = 0;
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

void cs_view_perturb(cs_view *v, const cs_perturb *p)
{
    const cs_model *m = v->m;
    cs_data *d = v->d;
    memset(d->xfrc_applied, 0, 6 * (size_t)m->nbody * sizeof *d->xfrc_applied);
    if (!p || !p->active || v->replay || p->body <= 0 || p->body >= m->nbody) return;
    int b = p->body, w0 = m->body_weldid[b];
    if (w0 <= 0) return; /* static: nothing to push */
    if (v->stale) cs_kinematics(m, d); /* the COM and anchor velocity of the state now */
    /* The anchor in the body frame of the last fill, then in the world now. */
    const double *P = v->fill_pose + 12 * b, *R = P + 3, *x = d->xpos + 3 * b,
                 *Rn = d->xmat + 9 * b;
    double loc[3], anchor[3];
    for (int i = 0; i < 3; i++)
        loc[i] = R[i] * (p->anchor[0] - P[0]) + R[3 + i] * (p->anchor[1] - P[1]) +
                 R[6 + i] * (p->anchor[2] - P[2]);
    for (int i = 0; i < 3; i++)
        anchor[i] = x[i] + Rn[3 * i] * loc[0] + Rn[3 * i + 1] * loc[1] + Rn[3 * i + 2] * loc[2];
    cs_perturb q = *p;
    memcpy(q.anchor, anchor, sizeof anchor);
    double va[3], F[3], r[3], tau[3], pos[3], quat[4], wl[3], w[3], R2[9], wr[3];
    /* the anchor's velocity: the origin's plus w x (anchor - origin) */
    cs_body_state(m, d, b, pos, quat, va, wl);
    cs_quat2mat(R2, quat);
    for (int i = 0; i < 3; i++) w[i] = R2[3 * i] * wl[0] + R2[3 * i + 1] * wl[1] + R2[3 * i + 2] * wl[2];
    for (int i = 0; i < 3; i++) r[i] = anchor[i] - pos[i];
    cross3(w, r, wr);
    for (int i = 0; i < 3; i++) va[i] += wr[i];
    /* The mass of the rigid body it belongs to (everything welded to it). */
    double mass = 0;
    for (int k = 1; k < m->nbody; k++)
        if (m->body_weldid[k] == w0) mass += m->body_mass[k];
    cs_perturb_force(&q, mass, va, F);
    for (int i = 0; i < 3; i++) r[i] = anchor[i] - d->xipos[3 * b + i];
    cross3(r, F, tau);
    memcpy(d->xfrc_applied + 6 * b, F, sizeof F);
    memcpy(d->xfrc_applied + 6 * b + 3, tau, sizeof tau);
}

int cs_view_replay_bind(cs_view *v, const cs_replay *r, const char *path, char *err,
                        size_t errlen)
{
    const cs_model *m = v->m;
    if (r->nframe < 1) {
        snprintf(err, errlen, "%s: no recorded frames", path);
        return -1;
    }
    int *map = calloc(r->nbody > 0 ? (size_t)r->nbody : 1, sizeof *map);
    if (!map) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int i = 0; i < r->nbody; i++) {
        map[i] = -1;
        for (int b = 1; b < m->nbody && map[i] < 0; b++) {
            char buf[32];
            int j = m->body_jntadr[b];
            if (m->body_jntnum[b] == 1 && m->jnt_type[j] == CS_JNT_FREE &&
                strcmp(cs_body_label(m, b, buf, sizeof buf), r->names[i]) == 0)
                map[i] = j;
        }
        if (map[i] < 0) {
            snprintf(err, errlen, "%s: body '%s' is not a free body of %s (a replay moves "
                     "free bodies only)", path, r->names[i], m->path ? m->path : "the scene");
            free(map);
            return -1;
        }
    }
    free(v->replay_free);
    v->replay_free = map;
    v->replay = r;
    v->replay_path = path;
    cs_view_replay_show(v, 0);
    return 0;
}

void cs_view_replay_show(cs_view *v, int f)
{
    const cs_replay *r = v->replay;
    if (!r) return;
    if (f < 0) f = 0;
    if (f >= r->nframe) f = r->nframe - 1;
    v->frame = f;
    cs_data *d = v->d;
    for (int i = 0; i < r->nbody; i++) {
        const double *s = cs_replay_body(r, f, i);
        int j = v->replay_free[i];
        memcpy(d->qpos + v->m->jnt_qposadr[j], s, 7 * sizeof *s);
        memcpy(d->qvel + v->m->jnt_dofadr[j], s + 7, 6 * sizeof *s);
    }
    d->time = r->time[f];
    memset(d->xfrc_applied, 0, 6 * (size_t)v->m->nbody * sizeof *d->xfrc_applied);
    cs_forward(v->m, d);
    v->stale = 0;
    const char *base = strrchr(v->replay_path, '/');
    snprintf(v->message, sizeof v->message, "replay %s: frame %d/%d (step %ld)",
             base ? base + 1 : v->replay_path, f + 1, r->nframe, r->step[f]);
}

void cs_view_step_back(cs_view *v)
{
    if (v->replay) cs_view_replay_show(v, v->frame - 1);
}

double cs_view_replay_dt(const cs_view *v)
{
    const cs_replay *r = v->replay;
    if (r && r->nframe >= 2) {
        double dt = (r->time[r->nframe - 1] - r->time[0]) / (r->nframe - 1);
        if (dt > 0 && isfinite(dt)) return dt;
    }
    return v->m->opt.timestep;
}

/* ---- loop callbacks ---- */
static int cb_step(void *u) { return cs_view_step(u); }
static void cb_step_back(void *u) { cs_view_step_back(u); }
static void cb_reset(void *u) { cs_view_reset(u); }
static void cb_fill(void *u, cs_render_scene *s) { cs_view_fill(u, s); }
static void cb_perturb(void *u, const cs_perturb *p) { cs_view_perturb(u, p); }
static void cb_toggle_contact(void *u) { cs_view_toggle_contact(u); }
static void cb_set_ctrl(void *u, int i, double value) { cs_view_set_ctrl(u, i, value); }

void cs_view_callbacks(cs_view *v, cs_viewer_callbacks *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->user = v;
    cb->step = cb_step;
    cb->step_back = cb_step_back;
    cb->reset = cb_reset;
    cb->fill = cb_fill;
    cb->perturb = cb_perturb;
    cb->toggle_contact = cb_toggle_contact;
    cb->set_ctrl = cb_set_ctrl;
}
