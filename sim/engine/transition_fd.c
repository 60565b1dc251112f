/* Finite-difference derivatives of one step (MuJoCo's mjd_transitionFD) and the position
 * difference they are taken in (mj_differentiatePos): the state is (dq, qvel, act), dq in
 * the tangent space of qpos (nv: a quaternion's change as a rotation vector). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "conesim.h"
#include "stages.h"

void cs_differentiate_pos(const cs_model *m, double *qvel, double h, const double *qpos1,
                          const double *qpos2)
{
    for (int j = 0; j < m->njnt; j++) {
        const double *a = qpos1 + m->jnt_qposadr[j], *b = qpos2 + m->jnt_qposadr[j];
        double *v = qvel + m->jnt_dofadr[j];
        switch ((cs_joint_type)m->jnt_type[j]) {
        case CS_JNT_FREE:
            for (int k = 0; k < 3; k++) v[k] = (b[k] - a[k]) / h;
            cs_subquat(v + 3, b + 3, a + 3);
            for (int k = 3; k < 6; k++) v[k] /= h;
            break;
        case CS_JNT_BALL:
            cs_subquat(v, b, a);
            for (int k = 0; k < 3; k++) v[k] /= h;
            break;
        case CS_JNT_SLIDE:
        case CS_JNT_HINGE: v[0] = (b[0] - a[0]) / h; break;
        }
    }
}

typedef struct {
    const cs_model *m;
    cs_data *d;
    const double *s0;   /* the state every step starts from (CS_STATE_INTEGRATION) */
    int spec;
    double *y0;         /* the unperturbed step's qpos, qvel, act */
    double *y, *yp;     /* a perturbed step's; centred, the + side's */
    double *dq;         /* nv: a position perturbation */
} fd_ctx;

static void restore(fd_ctx *c)
{
    cs_set_state(c->m, c->d, c->s0, c->spec);
}

/* step from the data as it is; its qpos, qvel, act into y */
static void step_into(fd_ctx *c, double *y)
{
    const cs_model *m = c->m;
    cs_step(m, c->d);
    memcpy(y, c->d->qpos, (size_t)m->nq * sizeof *y);
    memcpy(y + m->nq, c->d->qvel, (size_t)m->nv * sizeof *y);
    memcpy(y + m->nq + m->nv, c->d->act, (size_t)m->na * sizeof *y);
}

/* (y - y0) / eps in the state's coordinates (tangent positions) */
static void difference(const fd_ctx *c, const double *y, const double *y0, double eps,
                       double *out)
{
    const cs_model *m = c->m;
    int nq = m->nq, nv = m->nv;
    cs_differentiate_pos(m, out, eps, y0, y);
    for (int i = 0; i < nv + m->na; i++) out[nv + i] = (y[nq + i] - y0[nq + i]) / eps;
}

/* column of the derivative into A (rows ndx, stride ncol) at column k */
static void put_column(double *A, int ndx, int ncol, int k, const double *col)
{
    for (int r = 0; r < ndx; r++) A[(size_t)r * (size_t)ncol + (size_t)k] = col[r];
}

/* input k perturbed by +-eps through perturb(c, k, sign * eps); centred or forward; a
 * side refused by perturb (a control at its limit) leaves the other side alone */
typedef int (*perturb_fn)(fd_ctx *c, int k, double delta);

static void column(fd_ctx *c, perturb_fn perturb, int k, double eps, int centered,
                   double *out)
{
    int ndx = 2 * c->m->nv + c->m->na;
    restore(c);
    int fwd = perturb(c, k, eps) == 0;
    if (fwd) step_into(c, c->y);
    if (fwd && !centered) {
        difference(c, c->y, c->y0, eps, out);
        return;
    }
    restore(c);
    int back = perturb(c, k, -eps) == 0;
    if (fwd && back) { /* centred: (y+ - y-) / 2 eps */
        memcpy(c->yp, c->y, (size_t)(c->m->nq + c->m->nv + c->m->na) * sizeof *c->yp);
        step_into(c, c->y);
        difference(c, c->yp, c->y, 2 * eps, out);
    } else if (back) {
        step_into(c, c->y);
        difference(c, c->y0, c->y, eps, out);
    } else if (fwd) {
        difference(c, c->y, c->y0, eps, out);
    } else {
        memset(out, 0, (size_t)ndx * sizeof *out);
    }
}

static int perturb_pos(fd_ctx *c, int k, double delta)
{
    const cs_model *m = c->m;
    memset(c->dq, 0, (size_t)m->nv * sizeof *c->dq);
    c->dq[k] = 1;
    cs_integrate_pos(m, c->d->qpos, c->dq, delta);
    return 0;
}

static int perturb_vel(fd_ctx *c, int k, double delta)
{
    c->d->qvel[k] += delta;
    return 0;
}

static int perturb_act(fd_ctx *c, int k, double delta)
{
    c->d->act[k] += delta;
    return 0;
}

/* a limited control stays in its range: the side that would leave it is not taken */
static int perturb_ctrl(fd_ctx *c, int k, double delta)
{
    const cs_model *m = c->m;
    double u = c->d->ctrl[k] + delta;
    if (m->actuator_ctrllimited[k] &&
        (u < m->actuator_ctrlrange[2 * k] || u > m->actuator_ctrlrange[2 * k + 1]))
        return -1;
    c->d->ctrl[k] = u;
    return 0;
}

int cs_transition_fd(const cs_model *m, cs_data *d, double eps, int centered, double *A,
                     double *B)
{
    /* MuJoCo's refuses history buffers: a step's samples would move them */
    if (!m || !d || !(eps > 0) || !isfinite(eps) || m->nhistory) return -1;
    int nq = m->nq, nv = m->nv, na = m->na, nu = m->nu, ndx = 2 * nv + na;
    int spec = CS_STATE_INTEGRATION, ns = cs_state_size(m, spec);
    size_t ny = (size_t)(nq + nv + na);
    double *buf = cs_malloc(((size_t)ns + 4 * ny + (size_t)nv + (size_t)ndx + 1) * sizeof *buf);
    int warn[CS_NWARN];
    if (!buf) return -1;
    memcpy(warn, d->warning, sizeof warn);
    fd_ctx c = {m, d, buf, spec, buf + ns, buf + ns + ny, buf + ns + 2 * ny, buf + ns + 3 * ny};
    double *out = buf + ns + 3 * ny + nv; /* a column of the derivative */
    cs_get_state(m, d, buf, spec);
    restore(&c);
    step_into(&c, c.y0);
    if (A) {
        for (int k = 0; k < nv; k++) {
            column(&c, perturb_pos, k, eps, centered, out);
            put_column(A, ndx, ndx, k, out);
        }
        for (int k = 0; k < nv; k++) {
            column(&c, perturb_vel, k, eps, centered, out);
            put_column(A, ndx, ndx, nv + k, out);
        }
        for (int k = 0; k < na; k++) {
            column(&c, perturb_act, k, eps, centered, out);
            put_column(A, ndx, ndx, 2 * nv + k, out);
        }
    }
    if (B)
        for (int k = 0; k < nu; k++) {
            column(&c, perturb_ctrl, k, eps, centered, out);
            put_column(B, ndx, nu, k, out);
        }
    /* the data as it was: its state, the quantities of that state, its warning counts */
    restore(&c);
    cs_forward(m, d);
    memcpy(d->warning, warn, sizeof warn);
    cs_free(buf);
    return 0;
}
