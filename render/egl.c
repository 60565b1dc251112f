/* Headless GL through EGL (libepoxy's EGL dispatch): no X server, no window. Mesa's
 * surfaceless platform first (llvmpipe when there is no GPU), then the device platform.
 * The context renders into framebuffer objects only (screenshot.c), so it needs no surface. */
#include <epoxy/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

/* Set once an EGL context was made: before then nothing of EGL is loaded or current, and a
 * GLFW-only program (conesim view) never loads libEGL. */
static int egl_used;

void cs_egl_release(void)
{
    if (egl_used && eglGetCurrentContext() != EGL_NO_CONTEXT)
        eglMakeCurrent(eglGetCurrentDisplay(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

struct cs_egl {
    EGLDisplay dpy;
    EGLContext ctx;
};

static const char *egl_error_name(EGLint e)
{
    switch (e) {
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "EGL error";
    }
}

/* The display of one platform, initialised, or EGL_NO_DISPLAY. */
static EGLDisplay open_display(EGLenum platform, void *native)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(platform, native, NULL);
    if (dpy == EGL_NO_DISPLAY)
        return EGL_NO_DISPLAY;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor))
        return EGL_NO_DISPLAY;
    return dpy;
}

/* A GL 3.3 core context on dpy, current without a surface, or EGL_NO_CONTEXT. */
static EGLContext make_context(EGLDisplay dpy)
{
    if (!epoxy_has_egl_extension(dpy, "EGL_KHR_surfaceless_context"))
        return EGL_NO_CONTEXT;
    if (!eglBindAPI(EGL_OPENGL_API))
        return EGL_NO_CONTEXT;
    static const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                      EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    EGLint ncfg = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &ncfg) || ncfg < 1)
        return EGL_NO_CONTEXT;
    static const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT)
        return EGL_NO_CONTEXT;
    egl_used = 1;
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        return EGL_NO_CONTEXT;
    }
    return ctx;
}

struct cs_egl *cs_egl_create(char *err, size_t errlen)
{
    if (!epoxy_has_egl()) {
        snprintf(err, errlen, "no EGL library (libEGL.so.1)");
        return NULL;
    }
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client) {
        snprintf(err, errlen, "EGL without client extensions");
        return NULL;
    }
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    if (strstr(client, "EGL_MESA_platform_surfaceless")) {
        dpy = open_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
        if (dpy != EGL_NO_DISPLAY && (ctx = make_context(dpy)) == EGL_NO_CONTEXT) {
            eglTerminate(dpy);
            dpy = EGL_NO_DISPLAY;
        }
    }
    if (ctx == EGL_NO_CONTEXT && strstr(client, "EGL_EXT_platform_device")) {
        EGLDeviceEXT dev[8];
        EGLint ndev = 0;
        if (eglQueryDevicesEXT(8, dev, &ndev))
            for (EGLint i = 0; i < ndev && ctx == EGL_NO_CONTEXT; i++) {
                dpy = open_display(EGL_PLATFORM_DEVICE_EXT, dev[i]);
                if (dpy != EGL_NO_DISPLAY && (ctx = make_context(dpy)) == EGL_NO_CONTEXT) {
                    eglTerminate(dpy);
                    dpy = EGL_NO_DISPLAY;
                }
            }
    }
    if (ctx == EGL_NO_CONTEXT) {
        snprintf(err, errlen, "no headless EGL display with an OpenGL 3.3 core context (%s)",
                 egl_error_name(eglGetError()));
        return NULL;
    }
    struct cs_egl *e = calloc(1, sizeof *e);
    if (!e) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->dpy = dpy;
    e->ctx = ctx;
    return e;
}

void cs_egl_make_current(struct cs_egl *e)
{
    eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx);
}

/* The display stays initialised: eglTerminate would unload Mesa's driver, whose held blocks
 * LeakSanitizer then reports from an unknown module (as with glfwTerminate, context.c). */
void cs_egl_destroy(struct cs_egl *e)
{
    eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(e->dpy, e->ctx);
    free(e);
}
