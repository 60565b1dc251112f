/* Key and mouse events to viewer actions: pure, so tests drive it without a window. */
#include <math.h>
#include <string.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "render.h"

#define DOUBLE_CLICK_S 0.3  /* GLFW reports no double clicks; the usual desktop delay */
#define DOUBLE_CLICK_PX 5.0

void cs_input_init(cs_input *in)
{
    memset(in, 0, sizeof *in);
    in->last_press_time = -1e300;
    in->last_press_button = -1;
}

static cs_action act(cs_action_kind k)
{
    cs_action a;
    memset(&a, 0, sizeof a);
    a.kind = k;
    return a;
}

static cs_action map_key(const cs_input_event *ev)
{
    if (ev->action == GLFW_RELEASE)
        return act(CS_ACT_NONE);
    int repeat = ev->action == GLFW_REPEAT;
    /* Stepping and slow motion repeat when held; toggles do not. */
    switch (ev->key) {
    case GLFW_KEY_RIGHT:
        return act(CS_ACT_STEP);
    case GLFW_KEY_LEFT:
        return act(CS_ACT_STEP_BACK);
    case GLFW_KEY_EQUAL: /* '+' is shift+'=' on most layouts; accept '=' too */
    case GLFW_KEY_KP_ADD:
        return act(CS_ACT_FASTER);
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        return act(CS_ACT_SLOWER);
    default:
        break;
    }
    if (repeat || (ev->mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)))
        return act(CS_ACT_NONE);
    switch (ev->key) {
    case GLFW_KEY_SPACE:
        return act(CS_ACT_PAUSE);
    case GLFW_KEY_BACKSPACE:
        return act(CS_ACT_RESET);
    case GLFW_KEY_C:
        return act(CS_ACT_TOGGLE_CONTACTS);
    case GLFW_KEY_F:
        return act(CS_ACT_TOGGLE_FORCES);
    case GLFW_KEY_K:
        return act(CS_ACT_TOGGLE_CONES);
    case GLFW_KEY_R:
        return act(CS_ACT_TOGGLE_FRAMES);
    case GLFW_KEY_W:
        return act(CS_ACT_TOGGLE_WIREFRAME);
    case GLFW_KEY_H:
        return act(CS_ACT_TOGGLE_HUD);
    case GLFW_KEY_J:
        return act(CS_ACT_TOGGLE_JOINTS);
    case GLFW_KEY_M:
        return act(CS_ACT_TOGGLE_CONTACT_MODEL);
    case GLFW_KEY_RIGHT_BRACKET: /* with Shift ('}'): the model's cameras */
        return act(ev->mods & GLFW_MOD_SHIFT ? CS_ACT_NEXT_CAMERA : CS_ACT_NEXT_CONTACT);
    case GLFW_KEY_LEFT_BRACKET:
        return act(ev->mods & GLFW_MOD_SHIFT ? CS_ACT_PREV_CAMERA : CS_ACT_PREV_CONTACT);
    case GLFW_KEY_TAB: /* MuJoCo's simulate: Tab and Shift+Tab toggle its side panels */
        return act(CS_ACT_TOGGLE_CONTROLS);
    case GLFW_KEY_0:
    case GLFW_KEY_KP_0:
        return act(CS_ACT_CLEAR_CONTROLS);
    case GLFW_KEY_ESCAPE:
        return act(CS_ACT_QUIT);
    default:
        return act(CS_ACT_NONE);
    }
}

static cs_action map_button(cs_input *in, const cs_input_event *ev)
{
    int down = ev->action == GLFW_PRESS;
    cs_action a = act(CS_ACT_NONE);
    a.x = ev->x;
    a.y = ev->y;
    in->x = ev->x;
    in->y = ev->y;
    in->have_xy = 1;
    if (ev->action == GLFW_REPEAT)
        return a;
    switch (ev->button) {
    case GLFW_MOUSE_BUTTON_LEFT:
        in->left = down;
        break;
    case GLFW_MOUSE_BUTTON_RIGHT:
        in->right = down;
        break;
    case GLFW_MOUSE_BUTTON_MIDDLE:
        in->middle = down;
        break;
    default:
        return a;
    }
    if (!down) {
        if (ev->button == GLFW_MOUSE_BUTTON_LEFT && in->perturbing) {
            in->perturbing = 0;
            a.kind = CS_ACT_PERTURB_END;
        }
        return a;
    }
    in->shift = (ev->mods & GLFW_MOD_SHIFT) != 0;
    if (ev->button == GLFW_MOUSE_BUTTON_LEFT && (ev->mods & GLFW_MOD_CONTROL)) {
        in->perturbing = 1;
        in->last_press_button = -1;
        a.kind = CS_ACT_PERTURB_BEGIN;
        return a;
    }
    int dbl = ev->button == in->last_press_button &&
              ev->time - in->last_press_time <= DOUBLE_CLICK_S &&
              fabs(ev->x - in->last_press_x) <= DOUBLE_CLICK_PX &&
              fabs(ev->y - in->last_press_y) <= DOUBLE_CLICK_PX;
    if (dbl) {
        in->last_press_button = -1; /* a third click starts a new pair */
        if (ev->button == GLFW_MOUSE_BUTTON_LEFT)
            a.kind = CS_ACT_SELECT;
        else if (ev->button == GLFW_MOUSE_BUTTON_RIGHT)
            a.kind = CS_ACT_UNSELECT;
        return a;
    }
    in->last_press_button = ev->button;
    in->last_press_time = ev->time;
    in->last_press_x = ev->x;
    in->last_press_y = ev->y;
    return a;
}

static cs_action map_move(cs_input *in, const cs_input_event *ev)
{
    cs_action a = act(CS_ACT_NONE);
    a.x = ev->x;
    a.y = ev->y;
    double h = ev->height > 0 ? ev->height : 1;
    if (in->have_xy) {
        a.dx = (ev->x - in->x) / h;
        a.dy = (ev->y - in->y) / h;
    }
    in->x = ev->x;
    in->y = ev->y;
    int had = in->have_xy;
    in->have_xy = 1;
    if (in->perturbing)
        a.kind = CS_ACT_PERTURB_MOVE;
    else if (!had)
        a.kind = CS_ACT_NONE;
    else if (in->right || in->middle || (in->left && in->shift))
        a.kind = CS_ACT_PAN;
    else if (in->left)
        a.kind = CS_ACT_ORBIT;
    return a;
}

cs_action cs_input_map(cs_input *in, const cs_input_event *ev)
{
    switch (ev->kind) {
    case CS_EV_KEY:
        return map_key(ev);
    case CS_EV_BUTTON:
        return map_button(in, ev);
    case CS_EV_MOVE:
        return map_move(in, ev);
    case CS_EV_SCROLL: {
        cs_action a = act(CS_ACT_ZOOM);
        a.dy = ev->scroll;
        a.x = ev->x;
        a.y = ev->y;
        return a;
    }
    }
    return act(CS_ACT_NONE);
}
