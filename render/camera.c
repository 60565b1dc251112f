/* MuJoCo's free camera: frame, matrices, mouse motions, projection and rays. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "vec.h"

#define DEG (CS_PI / 180.0)

void cs_camera_default(cs_camera *c, double extent, const double center[3])
{
    if (!(extent > 0))
        extent = 1;
    c->azimuth = 90;
    c->elevation = -45;
    c->distance = 1.5 * extent;
    for (int i = 0; i < 3; i++)
        c->lookat[i] = center ? center[i] : 0;
    c->fovy = 45;
    c->fixed = 0;
    c->ortho = 0;
}

int cs_camera_parse(const char *s, cs_camera *c)
{
    double v[6];
    int n = 0;
    const char *p = s;
    while (n < 6) {
        char *end;
        v[n] = strtod(p, &end);
        if (end == p || !isfinite(v[n]))
            return -1;
        n++;
        p = end;
        if (*p == '\0')
            break;
        if (*p != ',')
            return -1;
        p++;
    }
    if (*p != '\0' || (n != 3 && n != 6) || !(v[2] > 0))
        return -1;
    c->azimuth = v[0];
    c->elevation = v[1];
    c->distance = v[2];
    if (n == 6)
        memcpy(c->lookat, v + 3, sizeof c->lookat);
    return 0;
}

void cs_camera_frame(const cs_camera *c, double eye[3], double fwd[3], double up[3],
                     double right[3])
{
    if (c->fixed) {
        const double *m = c->mat;
        for (int i = 0; i < 3; i++) {
            if (eye)
                eye[i] = c->pos[i];
            if (fwd)
                fwd[i] = -m[3 * i + 2];
            if (up)
                up[i] = m[3 * i + 1];
            if (right)
                right[i] = m[3 * i];
        }
        return;
    }
    double ca = cos(c->azimuth * DEG), sa = sin(c->azimuth * DEG);
    double ce = cos(c->elevation * DEG), se = sin(c->elevation * DEG);
    double f[3] = {ce * ca, ce * sa, se};
    double u[3] = {-se * ca, -se * sa, ce};
    double r[3];
    cs_v3cross(f, u, r);
    for (int i = 0; i < 3; i++) {
        if (eye)
            eye[i] = c->lookat[i] - c->distance * f[i];
        if (fwd)
            fwd[i] = f[i];
        if (up)
            up[i] = u[i];
        if (right)
            right[i] = r[i];
    }
}

void cs_camera_clip(const cs_camera *c, double extent, double *znear, double *zfar)
{
    if (!(extent > 0))
        extent = 1;
    /* MuJoCo's 0.01 and 50 extents, kept usable when zoomed in very close or far out. */
    double n = 0.01 * extent;
    if (n > 0.2 * c->distance)
        n = 0.2 * c->distance;
    *znear = n > 1e-5 ? n : 1e-5;
    *zfar = 50 * extent + 2 * c->distance;
}

void cs_camera_view_matrix(const cs_camera *c, float m[16])
{
    double eye[3], f[3], u[3], r[3];
    cs_camera_frame(c, eye, f, u, r);
    /* Rows right, up, -forward; column-major storage. */
    m[0] = (float)r[0]; m[4] = (float)r[1]; m[8] = (float)r[2];
    m[1] = (float)u[0]; m[5] = (float)u[1]; m[9] = (float)u[2];
    m[2] = (float)-f[0]; m[6] = (float)-f[1]; m[10] = (float)-f[2];
    m[12] = (float)-cs_v3dot(r, eye);
    m[13] = (float)-cs_v3dot(u, eye);
    m[14] = (float)cs_v3dot(f, eye);
    m[3] = m[7] = m[11] = 0;
    m[15] = 1;
}

void cs_camera_proj_matrix(const cs_camera *c, double aspect, double znear, double zfar,
                           float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    if (c->ortho) { /* the view's height fovy, its width fovy aspect */
        m[0] = (float)(2 / (c->fovy * aspect));
        m[5] = (float)(2 / c->fovy);
        m[10] = (float)(2 / (znear - zfar));
        m[14] = (float)((zfar + znear) / (znear - zfar));
        m[15] = 1;
        return;
    }
    double f = 1.0 / tan(0.5 * c->fovy * DEG);
    m[0] = (float)(f / aspect);
    m[5] = (float)f;
    m[10] = (float)((zfar + znear) / (znear - zfar));
    m[11] = -1;
    m[14] = (float)(2 * zfar * znear / (znear - zfar));
}

void cs_camera_orbit(cs_camera *c, double dx, double dy)
{
    if (c->fixed)
        return;
    c->azimuth -= dx * 180;
    c->elevation -= dy * 180;
    c->azimuth = fmod(c->azimuth, 360);
    if (c->elevation > 89)
        c->elevation = 89;
    if (c->elevation < -89)
        c->elevation = -89;
}

void cs_camera_pan(cs_camera *c, double dx, double dy)
{
    if (c->fixed)
        return;
    double u[3], r[3];
    cs_camera_frame(c, NULL, NULL, u, r);
    /* World size of one window height at the lookat depth. */
    double k = c->ortho ? c->fovy : 2 * c->distance * tan(0.5 * c->fovy * DEG);
    for (int i = 0; i < 3; i++)
        c->lookat[i] += k * (-dx * r[i] + dy * u[i]);
}

void cs_camera_zoom(cs_camera *c, double dy)
{
    if (c->fixed)
        return;
    c->distance *= exp(-0.15 * dy);
    if (c->distance < 1e-4)
        c->distance = 1e-4;
    if (c->distance > 1e6)
        c->distance = 1e6;
}

int cs_camera_project(const cs_camera *c, int w, int h, const double p[3], double px[2])
{
    double eye[3], f[3], u[3], r[3];
    cs_camera_frame(c, eye, f, u, r);
    double q[3] = {p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]};
    double z = cs_v3dot(q, f);
    if (!(z > 0))
        return -1;
    double fl = 1.0 / tan(0.5 * c->fovy * DEG), aspect = (double)w / h;
    double nx = fl / aspect * cs_v3dot(q, r) / z, ny = fl * cs_v3dot(q, u) / z;
    if (c->ortho) {
        nx = 2 * cs_v3dot(q, r) / (c->fovy * aspect);
        ny = 2 * cs_v3dot(q, u) / c->fovy;
    }
    px[0] = 0.5 * (nx + 1) * w;
    px[1] = 0.5 * (1 - ny) * h;
    return 0;
}

void cs_camera_ray(const cs_camera *c, int w, int h, double x, double y, double origin[3],
                   double dir[3])
{
    double f[3], u[3], r[3];
    cs_camera_frame(c, origin, f, u, r);
    double fl = 1.0 / tan(0.5 * c->fovy * DEG), aspect = (double)w / h;
    double nx = 2 * x / w - 1, ny = 1 - 2 * y / h;
    if (c->ortho) { /* parallel rays from the points of the view's rectangle */
        for (int i = 0; i < 3; i++) {
            origin[i] += 0.5 * c->fovy * (nx * aspect * r[i] + ny * u[i]);
            dir[i] = f[i];
        }
        return;
    }
    for (int i = 0; i < 3; i++)
        dir[i] = f[i] + nx * aspect / fl * r[i] + ny / fl * u[i];
    cs_v3normalize(dir);
}
