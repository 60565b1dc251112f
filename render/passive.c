/* The passive window: a viewer window its caller drives frame by frame (MuJoCo's
 * launch_passive). Each sync handles the input that arrived since the last one (camera,
 * overlays, selection, control panel, Backspace, Ctrl+drag), fills the scene and draws it; the caller
 * steps the simulation in between. Events, state and drawing are the windowed loop's
 * (window.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_gl.h"

struct cs_window {
    cs_window_loop L;
    cs_viewer_callbacks cb;
    int closed;         /* Esc or the window's close button: no more frames */
    int drawn;          /* a sync has filled and drawn the scene */
};

cs_window *cs_window_open(const cs_viewer_options *o, const cs_viewer_callbacks *cb, char *err,
                          size_t errlen)
{
    if (!o || !cb || !cb->fill) {
        snprintf(err, errlen, "passive window: options and a fill callback are needed");
        return NULL;
    }
    cs_window *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->cb = *cb;
    if (cs_window_loop_open(&w->L, o, &w->cb, err, errlen) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

int cs_window_running(const cs_window *w)
{
    return w && !w->closed;
}

int cs_window_sync(cs_window *w)
{
    if (!w || w->closed)
        return 0;
    cs_window_loop *L = &w->L;
    glfwPollEvents();
    if (L->v.quit || glfwWindowShouldClose(L->r->window)) {
        w->closed = 1;
        glfwHideWindow(L->r->window); /* gone from the screen now, freed at close */
        return 0;
    }
    if (L->v.reset_request) {
        L->v.reset_request = 0;
        if (w->cb.reset)
            w->cb.reset(w->cb.user);
    }
    if (w->cb.perturb) {
        cs_perturb p;
        cs_viewer_perturb(&L->v, &L->scene, &p);
        w->cb.perturb(w->cb.user, &p);
    }
    /* the caller steps: the loop's pause, single steps and contact model are not ours */
    L->v.step_requests = L->v.step_back_requests = L->v.contact_model_requests = 0;
    cs_window_loop_fill(L, 0);
    cs_window_loop_draw(L, 1);
    w->drawn = 1;
    return 1;
}

int cs_window_next_key(cs_window *w)
{
    if (!w || w->L.nkey == 0)
        return -1;
    int k = w->L.keys[0];
    memmove(w->L.keys, w->L.keys + 1, (size_t)(w->L.nkey - 1) * sizeof w->L.keys[0]);
    w->L.nkey--;
    return k;
}

void cs_window_size(const cs_window *w, int *width, int *height)
{
    *width = *height = 0;
    if (w)
        glfwGetFramebufferSize(w->L.r->window, width, height);
}

int cs_window_read_rgb(cs_window *w, unsigned char *rgb, int width, int height, char *err,
                       size_t errlen)
{
    int fw, fh;
    cs_window_size(w, &fw, &fh);
    if (!w || !rgb || w->closed || width != fw || height != fh || fw <= 0) {
        snprintf(err, errlen, "no open window of %dx%d to read (it is %dx%d)", width, height,
                 fw, fh);
        return -1;
    }
    unsigned char *tmp = malloc((size_t)fw * fh * 3);
    if (!tmp) {
        snprintf(err, errlen, "out of memory for a %dx%d image", fw, fh);
        return -1;
    }
    /* The last sync's scene drawn again into the back buffer, not shown: what a swap puts
     * on screen cannot be read back everywhere (Xvfb's front buffer reads black). */
    if (!w->drawn || cs_window_loop_draw(&w->L, 0) != 0) {
        free(tmp);
        snprintf(err, errlen, "nothing drawn yet (sync first)");
        return -1;
    }
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fw, fh, GL_RGB, GL_UNSIGNED_BYTE, tmp);
    for (int y = 0; y < fh; y++)
        memcpy(rgb + (size_t)y * fw * 3, tmp + (size_t)(fh - 1 - y) * fw * 3, (size_t)fw * 3);
    free(tmp);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "OpenGL error 0x%x while reading the window", e);
        return -1;
    }
    return 0;
}

cs_viewer_state *cs_window_state(cs_window *w)
{
    return w ? &w->L.v : NULL;
}

void cs_window_close(cs_window *w)
{
    if (!w)
        return;
    cs_renderer_destroy(w->L.r);
    free(w);
}
