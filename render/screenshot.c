/* Off-screen frames (framebuffer objects) and PNG files (libpng). */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"

static int make_fbos(cs_renderer *r, int w, int h, char *err, size_t errlen)
{
    if (r->fbo && r->fbo_w == w && r->fbo_h == h && r->samples == r->want_samples)
        return 0;
    if (r->fbo) {
        glDeleteFramebuffers(1, &r->fbo);
        glDeleteFramebuffers(1, &r->fbo_ms);
        GLuint rbs[3] = {r->rb_color, r->rb_ms_color, r->rb_ms_depth};
        glDeleteRenderbuffers(3, rbs);
        r->fbo = 0;
    }
    GLint maxs = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &maxs);
    r->samples = r->want_samples < maxs ? r->want_samples : maxs;
    /* Multisampled target for drawing, resolved into a plain one for reading. */
    glGenFramebuffers(1, &r->fbo_ms);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
    glGenRenderbuffers(1, &r->rb_ms_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rb_ms_color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              r->rb_ms_color);
    glGenRenderbuffers(1, &r->rb_ms_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rb_ms_depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_DEPTH24_STENCIL8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                              r->rb_ms_depth);
    GLenum st1 = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glGenFramebuffers(1, &r->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glGenRenderbuffers(1, &r->rb_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rb_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              r->rb_color);
    GLenum st2 = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    r->fbo_w = w;
    r->fbo_h = h;
    if (st1 != GL_FRAMEBUFFER_COMPLETE || st2 != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, errlen, "framebuffer of %dx%d incomplete (0x%x, 0x%x)", w, h, st1, st2);
        return -1;
    }
    return 0;
}

void cs_renderer_set_samples(cs_renderer *r, int samples)
{
    r->want_samples = samples > 0 ? samples : 0;
}

int cs_render_offscreen(cs_renderer *r, const cs_render_scene *s, const cs_camera *c, int w,
                        int h, unsigned char *rgb, char *err, size_t errlen)
{
    GLint maxrb = 0;
    cs_gl_make_current(r);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxrb);
    if (w <= 0 || h <= 0 || w > maxrb || h > maxrb) {
        snprintf(err, errlen, "image size %dx%d not supported (1 to %d)", w, h, maxrb);
        return -1;
    }
    if (make_fbos(r, w, h, err, errlen) != 0)
        return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
    cs_render_frame(r, s, c, w, h);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
    glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    unsigned char *tmp = malloc((size_t)w * h * 3);
    if (!tmp) {
        snprintf(err, errlen, "out of memory for a %dx%d image", w, h);
        return -1;
    }
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, tmp);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* GL's rows run bottom to top. */
    for (int y = 0; y < h; y++)
        memcpy(rgb + (size_t)y * w * 3, tmp + (size_t)(h - 1 - y) * w * 3, (size_t)w * 3);
    free(tmp);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "OpenGL error 0x%x while rendering", e);
        return -1;
    }
    return 0;
}

int cs_png_write(const char *path, int w, int h, const unsigned char *rgb, char *err,
                 size_t errlen)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&img, path, 0, rgb, w * 3, NULL)) {
        snprintf(err, errlen, "%s: cannot write PNG: %s", path, img.message);
        return -1;
    }
    return 0;
}

int cs_png_read(const char *path, int *w, int *h, unsigned char **rgb, char *err,
                size_t errlen)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        snprintf(err, errlen, "%s: cannot read PNG: %s", path, img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGB;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        snprintf(err, errlen, "%s: cannot read PNG: %s", path, buf ? img.message : "no memory");
        free(buf);
        png_image_free(&img);
        return -1;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    *rgb = buf;
    return 0;
}

int cs_render_screenshot(const cs_render_scene *s, const cs_camera *c, int w, int h,
                         const char *path, char *err, size_t errlen)
{
    unsigned char *rgb = malloc((size_t)(w > 0 ? w : 1) * (h > 0 ? h : 1) * 3);
    if (!rgb) {
        snprintf(err, errlen, "out of memory for a %dx%d image", w, h);
        return -1;
    }
    cs_renderer *r = cs_renderer_create(w, h, "conesim", 1, err, errlen);
    int rc = -1;
    if (r) {
        rc = cs_render_offscreen(r, s, c, w, h, rgb, err, errlen);
        cs_renderer_destroy(r);
        if (rc == 0)
            rc = cs_png_write(path, w, h, rgb, err, errlen);
    }
    free(rgb);
    return rc;
}
