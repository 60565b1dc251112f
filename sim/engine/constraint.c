/* The constraint stage: rows in MuJoCo's order (equality constraints, dry friction per dof
 * and per tendon with frictionloss, joint and tendon limits within their margin, then one
 * soft-contact block per contact
 * that enters the solver, dist < margin; all in generalised coordinates), the solve
 * (solver/: PGS, CG or Newton, elliptic or pyramidal), and the store stage that puts
 * forces, velocities and zones back onto the contacts. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "rowtrees.h"
#include "sleep.h"
#include "solver/coulomb.h"
#include "solver/solver.h"
#include "spatial.h"
#include "stages.h"

static int zone_of(const cs_model *m, const cs_efc *e, int k)
{
    if (m->opt.contact == CS_CONTACT_COULOMB) /* the Coulomb model's zones (coulomb.c) */
        return e->blk_zone[k] == CS_ZONE_TOP ? CS_CZONE_SEPARATE
               : e->blk_zone[k] == CS_ZONE_BOTTOM ? CS_CZONE_STICK : CS_CZONE_SLIDE;
    switch ((cs_block_kind)e->blk_kind[k]) {
    case CS_BLOCK_FRICTIONLESS: return CS_CZONE_NORMAL;
    case CS_BLOCK_PYRAMIDAL: return CS_CZONE_PYRAMID;
    case CS_BLOCK_ELLIPTIC: break; /* by its zone, below */
    case CS_BLOCK_LIMIT:
    case CS_BLOCK_FRICTIONLOSS:
    case CS_BLOCK_EQUALITY: return CS_CZONE_NONE; /* not a contact's */
    }
    switch (e->blk_zone[k]) {
    case CS_ZONE_TOP: return CS_CZONE_TOP;
    case CS_ZONE_BOTTOM: return CS_CZONE_BOTTOM;
    case CS_ZONE_MIDDLE: return CS_CZONE_MIDDLE;
    }
    return CS_CZONE_NONE;
}

/* column c of jacp/jacr (3 x n each at jp, jr) for dof i at point p */
static inline void side_column(const cs_data *d, int i, int rot, const double p[3], double *jp,
                               double *jr, int n, int c)
{
    const double *ax = d->dof_xaxis + 3 * i, *an = d->dof_xanchor + 3 * i;
    if (rot) {
        double r[3] = {p[0] - an[0], p[1] - an[1], p[2] - an[2]};
        jp[c] = ax[1] * r[2] - ax[2] * r[1];
        jp[n + c] = ax[2] * r[0] - ax[0] * r[2];
        jp[2 * n + c] = ax[0] * r[1] - ax[1] * r[0];
        jr[c] = ax[0];
        jr[n + c] = ax[1];
        jr[2 * n + c] = ax[2];
    } else {
        jp[c] = ax[0];
        jp[n + c] = ax[1];
        jp[2 * n + c] = ax[2];
        jr[c] = jr[n + c] = jr[2 * n + c] = 0;
    }
}

/* One side of a contact: the tree that moves geom's body, and the Jacobians of the world
 * point p moving with it over the tree's dofs (jac: 6 x ndof scratch, jacp then jacr). The
 * chain's columns are written, zeros between them (offchain when there are any); the
 * columns after the chain's last dof are zero and left unwritten (nzcol). */
static void contact_side(const cs_model *m, const cs_data *d, int geom, const double p[3],
                         double *jac, cs_contact_side *s)
{
    const cs_rowtrees *rt = d->scratch->rowtrees;
    int b = m->geom_body[geom], t = m->body_treeid[b];
    s->invweight[0] = m->body_invweight0[2 * b];
    s->invweight[1] = m->body_invweight0[2 * b + 1];
    s->tree = t < 0 ? -1 : rt->of_tree[t];
    s->nzcol = s->offchain = 0;
    if (t < 0) {
        s->dofadr = s->ndof = 0;
        s->jacp = s->jacr = jac;
        return;
    }
    t = s->tree;
    int adr = rt->dofadr[t], n = rt->dofnum[t], i = m->body_lastdof[b];
    double *jp = jac, *jr = jac + 3 * n;
    s->dofadr = adr;
    s->ndof = n;
    s->jacp = jp;
    s->jacr = jr;
    if (n == 6 && i == adr + 5 && m->jnt_type[m->dof_jntid[i]] == CS_JNT_FREE) {
        /* a lone free body (the common case): its six columns */
        for (int k = 0; k < 6; k++) side_column(d, i - k, k < 3, p, jp, jac + 3 * 6, 6, 5 - k);
        return;
    }
    int prev = n, gap = 0; /* the lowest column written so far; any column skipped */
    if (i >= 0) s->nzcol = prev = i - adr + 1;
    while (i >= 0) {
        int c = i - adr, j = m->dof_jntid[i];
        for (int g = c + 1; g < prev; g++) { /* a dof between two of the chain's: not on it */
            gap = 1;
            for (int k = 0; k < 6; k++) jac[k * n + g] = 0;
        }
        if (m->jnt_type[j] == CS_JNT_FREE && i == m->jnt_dofadr[j] + 5) {
            /* a free joint's six dofs at once: three rotations, three translations */
            for (int k = 0; k < 6; k++) side_column(d, i - k, k < 3, p, jp, jr, n, c - k);
            prev = c - 5;
            i = m->dof_parent[i - 5];
            continue;
        }
        side_column(d, i, cs_dof_rotates(m, i), p, jp, jr, n, c);
        prev = c;
        i = m->dof_parent[i];
    }
    s->offchain = gap || prev > 0;
    for (int g = 0; g < prev; g++)
        for (int k = 0; k < 6; k++) jac[k * n + g] = 0;
}

/* one joint row on dof(s) of tree t: J is zero but for the given entries */
static void joint_row(const cs_model *m, cs_data *d, int kind, int id, int dof, int n,
                      const double *jval, double pos, double margin, const double *solref,
                      const double *solimp, double floss, const cs_row_opts *ro)
{
    const cs_rowtrees *rt = d->scratch->rowtrees;
    int t = rt->of_dof[dof], adr = rt->dofadr[t], nd = rt->dofnum[t];
    double *J = d->scratch->jac;
    memset(J, 0, (size_t)nd * sizeof *J);
    for (int k = 0; k < n; k++) J[dof - adr + k] = jval[k];
    cs_joint_row_in r = {kind, t, adr, nd, J, pos, margin, {solref[0], solref[1]},
                         {solimp[0], solimp[1], solimp[2], solimp[3], solimp[4]},
                         m->dof_invweight0[dof], floss};
    if (cs_efc_add_joint_row(d->efc, &r, id, d->qvel, ro) < 0) d->warning[CS_WARN_NOMEM]++;
}

/* nrow rows given densely (nrow x nv at Jd) as one block over the solver trees their
 * nonzero columns touch (at most two: rowtrees.h joins the trees of rows that move more);
 * rows without a nonzero are left out, as MuJoCo leaves out empty rows */
static void dense_rows(const cs_model *m, cs_data *d, int kind, int id, int nrow,
                       const double *Jd, const double *pos, double margin, const double *solref,
                       const double *solimp, const double *invw, double floss,
                       const cs_row_opts *ro)
{
    const cs_rowtrees *rt = d->scratch->rowtrees;
    int nv = m->nv, tr[2] = {-1, -1};
    for (int i = 0; i < nv; i++) {
        int nz = 0;
        for (int r = 0; r < nrow; r++) nz |= Jd[(size_t)r * nv + i] != 0;
        if (!nz) continue;
        int t = rt->of_dof[i];
        if (t == tr[0] || t == tr[1]) continue;
        if (tr[0] < 0) tr[0] = t;
        else if (tr[1] < 0) tr[1] = t;
        else return;
    }
    if (tr[0] < 0) return;
    cs_rows_in in = {kind, nrow, {tr[0], tr[1]}, {rt->dofadr[tr[0]], 0},
                     {rt->dofnum[tr[0]], 0}, NULL, pos, margin, {solref[0], solref[1]},
                     {solimp[0], solimp[1], solimp[2], solimp[3], solimp[4]}, invw, floss};
    if (tr[1] >= 0) {
        in.dofadr[1] = rt->dofadr[tr[1]];
        in.ndof[1] = rt->dofnum[tr[1]];
    }
    int n = in.ndof[0] + in.ndof[1];
    double *Jp = d->scratch->eq_scratch + 6 * (size_t)nv;
    for (int r = 0; r < nrow; r++)
        for (int q = 0; q < n; q++) {
            int dof = q < in.ndof[0] ? in.dofadr[0] + q : in.dofadr[1] + q - in.ndof[0];
            Jp[(size_t)r * n + q] = Jd[(size_t)r * nv + dof];
        }
    in.J = Jp;
    if (cs_efc_add_rows(d->efc, &in, id, d->qvel, ro) < 0) d->warning[CS_WARN_NOMEM]++;
}


/* the rate of orientation q turning with world angular velocity w: 0.5 (0, w) q */
static void quat_rate(const double q[4], const double w[3], double qd[4])
{
    double pw[4] = {0, w[0], w[1], w[2]};
    cs_mulquat(qd, pw, q);
    for (int k = 0; k < 4; k++) qd[k] *= 0.5;
}

void cs_eq_anchors(const cs_model *m, const cs_data *d, int e, double p1[3], double p2[3])
{
    int o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e];
    if (m->eq_objtype[e] == CS_OBJ_SITE) {
        memcpy(p1, d->site_xpos + 3 * o1, 3 * sizeof *p1);
        memcpy(p2, d->site_xpos + 3 * o2, 3 * sizeof *p2);
        return;
    }
    int weld = m->eq_type[e] == CS_EQ_WELD;
    const double *dt = m->eq_data + CS_NEQDATA * e;
    const double *a1 = weld ? dt + 3 : dt, *a2 = weld ? dt : dt + 3;
    sp_mulmv3(d->xmat + 9 * o1, a1, p1);
    sp_mulmv3(d->xmat + 9 * o2, a2, p2);
    for (int k = 0; k < 3; k++) {
        p1[k] += d->xpos[3 * o1 + k];
        p2[k] += d->xpos[3 * o2 + k];
    }
}

/* MuJoCo 3.12's a_ref term of connect and weld rows (mj_Jdotv): a_ref -= Jdot qvel, where
 * the residual's second derivative is J qacc + Jdot qvel. Translation: the anchors' bias
 * accelerations, body1's minus body2's; orientation: the rate of 0.5 q2^-1 (w1 - w2) q1
 * relpose by the product rule, scaled by torquescale. dst: the rows' a_ref (3 or 6). */
static void eq_jdotv(const cs_model *m, const cs_data *d, int e, const double p1[3],
                     const double p2[3], double *dst)
{
    int o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e], site = m->eq_objtype[e] == CS_OBJ_SITE;
    const double *dt = m->eq_data + CS_NEQDATA * e;
    /* the frames' offsets from the bodies: relpose on body1, or each site's own */
    const double *r1 = site ? m->site_quat + 4 * o1 : dt + 6;
    const double *r2 = site ? m->site_quat + 4 * o2 : NULL;
    if (site) o1 = m->site_bodyid[o1], o2 = m->site_bodyid[o2];
    double a1[3], a2[3], al1[3], al2[3];
    cs_point_bias_acc(m, d, o1, p1, a1, al1);
    cs_point_bias_acc(m, d, o2, p2, a2, al2);
    for (int k = 0; k < 3; k++) dst[k] -= a1[k] - a2[k];
    if (m->eq_type[e] != CS_EQ_WELD) return;
    const double *x1 = d->xquat + 4 * o1, *x2 = d->xquat + 4 * o2;
    const double *w1 = d->cvel + 6 * o1, *w2 = d->cvel + 6 * o2;
    double x2s[4], qd2s[4];
    if (r2) {
        cs_mulquat(x2s, x2, r2);
        x2 = x2s;
    }
    double q[4], n2[4] = {x2[0], -x2[1], -x2[2], -x2[3]}, qd1[4], qd1r[4], qd2[4], nd2[4];
    double dw[4] = {0, w1[0] - w2[0], w1[1] - w2[1], w1[2] - w2[2]};
    double da[4] = {0, al1[0] - al2[0], al1[1] - al2[1], al1[2] - al2[2]};
    cs_mulquat(q, x1, r1);
    quat_rate(x1, w1, qd1);
    cs_mulquat(qd1r, qd1, r1);
    quat_rate(d->xquat + 4 * o2, w2, qd2);
    if (r2) {
        cs_mulquat(qd2s, qd2, r2);
        memcpy(qd2, qd2s, sizeof qd2);
    }
    nd2[0] = qd2[0];
    nd2[1] = -qd2[1];
    nd2[2] = -qd2[2];
    nd2[3] = -qd2[3];
    double t[4], t1[4], t2[4], t3[4];
    cs_mulquat(t, nd2, dw);
    cs_mulquat(t1, t, q);
    cs_mulquat(t, n2, da);
    cs_mulquat(t2, t, q);
    cs_mulquat(t, n2, dw);
    cs_mulquat(t3, t, qd1r);
    for (int k = 0; k < 3; k++) dst[3 + k] -= 0.5 * dt[10] * (t1[1 + k] + t2[1 + k] + t3[1 + k]);
}

/* one equality constraint's rows: MuJoCo's mj_instantiateEquality residuals and Jacobians,
 * mj_diagApprox's weights */
static void equality_rows(const cs_model *m, cs_data *d, int e, const cs_row_opts *ro)
{
    int nv = m->nv, o1 = m->eq_obj1id[e], o2 = m->eq_obj2id[e], nrow = 1;
    const double *dt = m->eq_data + CS_NEQDATA * e;
    double *Jd = d->scratch->eq_scratch, *jp1 = Jd + 12 * (size_t)nv, *jr1 = jp1 + 3 * (size_t)nv;
    double *jp2 = jr1 + 3 * (size_t)nv, *jr2 = jp2 + 3 * (size_t)nv;
    double pos[6], iw[6], p1[3], p2[3];
    memset(Jd, 0, 6 * (size_t)nv * sizeof *Jd);
    switch (m->eq_type[e]) {
    case CS_EQ_CONNECT:
    case CS_EQ_WELD: {
        int weld = m->eq_type[e] == CS_EQ_WELD;
        cs_eq_anchors(m, d, e, p1, p2);
        int s1 = o1, s2 = o2; /* the sites, when the anchors are sites */
        if (m->eq_objtype[e] == CS_OBJ_SITE) o1 = m->site_bodyid[s1], o2 = m->site_bodyid[s2];
        for (int k = 0; k < 3; k++) pos[k] = p1[k] - p2[k];
        cs_jac(m, d, o1, p1, jp1, jr1);
        cs_jac(m, d, o2, p2, jp2, jr2);
        for (size_t i = 0; i < 3 * (size_t)nv; i++) Jd[i] = jp1[i] - jp2[i];
        double tw = m->body_invweight0[2 * o1] + m->body_invweight0[2 * o2];
        iw[0] = iw[1] = iw[2] = tw;
        nrow = 3;
        if (!weld) break;
        /* orientation: the axis part of q2^-1 q1 relpose, its Jacobian
         * 0.5 (q2^-1 (w1 - w2) q1 relpose), both scaled by torquescale */
        double q[4], n2[4], e2[4], ts = dt[10], x2s[4];
        const double *x2 = d->xquat + 4 * o2;
        if (m->eq_objtype[e] == CS_OBJ_SITE) { /* the sites' frames, MuJoCo's site semantic */
            cs_mulquat(q, d->xquat + 4 * o1, m->site_quat + 4 * s1);
            cs_mulquat(x2s, x2, m->site_quat + 4 * s2);
            x2 = x2s;
        } else {
            cs_mulquat(q, d->xquat + 4 * o1, dt + 6);
        }
        n2[0] = x2[0];
        n2[1] = -x2[1];
        n2[2] = -x2[2];
        n2[3] = -x2[3];
        cs_mulquat(e2, n2, q);
        for (int k = 0; k < 3; k++) pos[3 + k] = ts * e2[1 + k];
        for (int j = 0; j < nv; j++) {
            double w[4] = {0, jr1[j] - jr2[j], jr1[nv + j] - jr2[nv + j],
                           jr1[2 * nv + j] - jr2[2 * nv + j]}, a[4], b[4];
            cs_mulquat(a, n2, w);
            cs_mulquat(b, a, q);
            for (int k = 0; k < 3; k++) Jd[(size_t)(3 + k) * nv + j] = 0.5 * ts * b[1 + k];
        }
        double rw = m->body_invweight0[2 * o1 + 1] + m->body_invweight0[2 * o2 + 1];
        iw[3] = iw[4] = iw[5] = rw;
        nrow = 6;
        break;
    }
    case CS_EQ_JOINT:
    case CS_EQ_TENDON: {
        int jt = m->eq_type[e] == CS_EQ_JOINT;
        double v1 = jt ? d->qpos[m->jnt_qposadr[o1]] - m->qpos0[m->jnt_qposadr[o1]]
                       : d->ten_length[o1] - m->tendon_length0[o1];
        if (jt) Jd[m->jnt_dofadr[o1]] = 1;
        else memcpy(Jd, d->ten_J + (size_t)o1 * nv, (size_t)nv * sizeof *Jd);
        iw[0] = jt ? m->dof_invweight0[m->jnt_dofadr[o1]] : m->tendon_invweight0[o1];
        pos[0] = v1 - dt[0];
        if (o2 >= 0) { /* obj1 = polynomial of obj2, both from their reference values */
            double x = jt ? d->qpos[m->jnt_qposadr[o2]] - m->qpos0[m->jnt_qposadr[o2]]
                          : d->ten_length[o2] - m->tendon_length0[o2];
            pos[0] -= x * (dt[1] + x * (dt[2] + x * (dt[3] + x * dt[4])));
            double der = dt[1] + x * (2 * dt[2] + x * (3 * dt[3] + x * 4 * dt[4]));
            if (jt) Jd[m->jnt_dofadr[o2]] -= der;
            else
                for (int i = 0; i < nv; i++) Jd[i] -= der * d->ten_J[(size_t)o2 * nv + i];
            iw[0] += jt ? m->dof_invweight0[m->jnt_dofadr[o2]] : m->tendon_invweight0[o2];
        }
        break;
    }
    default: return;
    }
    int r0 = d->efc->nefc;
    dense_rows(m, d, CS_BLOCK_EQUALITY, e, nrow, Jd, pos, 0, m->eq_solref + 2 * e,
               m->eq_solimp + 5 * e, iw, 0, ro);
    if (m->opt.eq_jdotv && m->eq_type[e] <= CS_EQ_WELD && d->efc->nefc == r0 + nrow)
        eq_jdotv(m, d, e, p1, p2, d->efc->aref + r0);
}

/* a tendon's row: friction (sign 0) or a limit side (+1 lower: J = ten_J, -1 upper) */
static void tendon_row(const cs_model *m, cs_data *d, int t, int sign, double dist,
                       const cs_row_opts *ro)
{
    int nv = m->nv;
    double *Jd = d->scratch->eq_scratch, iw = m->tendon_invweight0[t];
    const double *J = d->ten_J + (size_t)t * nv;
    for (int i = 0; i < nv; i++) Jd[i] = sign < 0 ? -J[i] : J[i];
    if (sign == 0)
        dense_rows(m, d, CS_BLOCK_FRICTIONLOSS, nv + t, 1, Jd, &dist, 0,
                   m->tendon_solref_fri + 2 * t, m->tendon_solimp_fri + 5 * t, &iw,
                   m->tendon_frictionloss[t], ro);
    else
        dense_rows(m, d, CS_BLOCK_LIMIT, m->njnt + 2 * t + (sign < 0), 1, Jd, &dist,
                   m->tendon_margin[t],
                   m->tendon_solref_lim + 2 * t, m->tendon_solimp_lim + 5 * t, &iw, 0, ro);
}

/* MuJoCo's order: the equality constraints, dry friction on every dof and then every
 * tendon with frictionloss, the joint limits, then the tendon limits. Block ids: the
 * constraint; a dof (friction) or joint (limit); nv + tendon (friction), njnt + 2 tendon
 * (lower limit), + 1 (upper). */
static void make_joint_rows(const cs_model *m, cs_data *d, const cs_row_opts *ro)
{
    int dis = m->opt.disableflags;
    /* what a sleeping tree alone holds makes no rows (MuJoCo's sleep filter) */
    int sf = cs_sleep_filter(m, d);
    const int *awake = d->tree_awake;
    if (!(dis & CS_DSBL_EQUALITY))
        for (int e = 0; e < m->neq; e++)
            if (d->eq_active[e] && !(sf && cs_equality_asleep(m, d, e)))
                equality_rows(m, d, e, ro);
    if (!(dis & CS_DSBL_FRICTIONLOSS)) {
        for (int i = 0; i < m->nv; i++) {
            double one = 1;
            if (m->dof_frictionloss[i] > 0 && !(sf && !awake[m->dof_treeid[i]]))
                joint_row(m, d, CS_BLOCK_FRICTIONLOSS, i, i, 1, &one, 0, 0, m->dof_solref + 2 * i,
                          m->dof_solimp + 5 * i, m->dof_frictionloss[i], ro);
        }
        for (int t = 0; t < m->ntendon; t++)
            if (m->tendon_frictionloss[t] > 0 && !(sf && cs_tendon_asleep(m, d, t)))
                tendon_row(m, d, t, 0, 0, ro);
    }
    if (dis & CS_DSBL_LIMIT) return;
    for (int j = 0; j < m->njnt; j++) {
        if (!m->jnt_limited[j]) continue;
        if (sf && !awake[m->dof_treeid[m->jnt_dofadr[j]]]) continue;
        const double *q = d->qpos + m->jnt_qposadr[j], *r = m->jnt_range + 2 * j;
        const double *sr = m->jnt_solref + 2 * j, *si = m->jnt_solimp + 5 * j;
        double margin = m->jnt_margin[j];
        int a = m->jnt_dofadr[j];
        if (m->jnt_type[j] == CS_JNT_HINGE || m->jnt_type[j] == CS_JNT_SLIDE) {
            /* lower: dist = q - lo, J = +1; upper: dist = hi - q, J = -1 */
            double lo = q[0] - r[0], hi = r[1] - q[0], plus = 1, minus = -1;
            if (lo < margin) joint_row(m, d, CS_BLOCK_LIMIT, j, a, 1, &plus, lo, margin, sr, si, 0, ro);
            if (hi < margin) joint_row(m, d, CS_BLOCK_LIMIT, j, a, 1, &minus, hi, margin, sr, si, 0, ro);
        } else if (m->jnt_type[j] == CS_JNT_BALL) {
            /* the rotation angle against the largest range value, along minus its axis */
            double qn[4] = {q[0], q[1], q[2], q[3]}, v[3];
            cs_normquat(qn);
            cs_quat2vel(v, qn);
            double angle = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            double dist = fmax(r[0], r[1]) - angle;
            if (dist < margin) {
                double jv[3] = {-1, 0, 0};
                if (angle >= 1e-15)
                    for (int k = 0; k < 3; k++) jv[k] = -v[k] / angle;
                joint_row(m, d, CS_BLOCK_LIMIT, j, a, 3, jv, dist, margin, sr, si, 0, ro);
            }
        }
    }
    for (int t = 0; t < m->ntendon; t++) {
        if (!m->tendon_limited[t] || (sf && cs_tendon_asleep(m, d, t))) continue;
        double len = d->ten_length[t], mg = m->tendon_margin[t], *r = m->tendon_range + 2 * t;
        if (len - r[0] < mg) tendon_row(m, d, t, 1, len - r[0], ro);
        if (r[1] - len < mg) tendon_row(m, d, t, -1, r[1] - len, ro);
    }
}

/* rows of the joints, then of every contact that enters the solver */
/* the Coulomb model's method in the solver's terms */
static cs_coulomb_method coulomb_method(const cs_model *m)
{
    return m->opt.coulomb_solver == CS_COULOMB_SOLVER_NSGS     ? CS_COULOMB_NSGS
           : m->opt.coulomb_solver == CS_COULOMB_SOLVER_NEWTON ? CS_COULOMB_NEWTON
                                                               : CS_COULOMB_AUTO;
}

/* MuJoCo 3.12's surface velocity of a contact: each geom's field v + w x (p - origin), from
 * the geom frame to the world, geom2's minus geom1's, in the contact frame; the normal and
 * rolling parts are dropped (a moving surface neither pushes nor rolls) */
static void surface_velocity(const cs_model *m, const cs_data *d, const cs_contact *c,
                             double out[6])
{
    double lin[3] = {0, 0, 0}, ang[3] = {0, 0, 0};
    memset(out, 0, 6 * sizeof *out);
    int any = 0;
    for (int s = 0; s < 2; s++) {
        int g = s ? c->geom2 : c->geom1;
        const double *sv = m->geom_surfacevel + 6 * g;
        if (!sv[0] && !sv[1] && !sv[2] && !sv[3] && !sv[4] && !sv[5]) continue;
        any = 1;
        const cs_pose *X = &d->geom_xpose[g];
        double v[3], w[3], r[3], wr[3];
        sp_mulmv3(X->mat, sv, v);
        sp_mulmv3(X->mat, sv + 3, w);
        for (int k = 0; k < 3; k++) r[k] = c->pos[k] - X->pos[k];
        sp_cross(w, r, wr);
        double sg = s ? 1 : -1;
        for (int k = 0; k < 3; k++) {
            lin[k] += sg * (v[k] + wr[k]);
            ang[k] += sg * w[k];
        }
    }
    if (!any) return;
    const double *F = c->frame;
    for (int i = 1; i < 3; i++) out[i] = F[3 * i] * lin[0] + F[3 * i + 1] * lin[1] + F[3 * i + 2] * lin[2];
    out[3] = F[0] * ang[0] + F[1] * ang[1] + F[2] * ang[2];
}

int cs_contact_has_rows(const cs_model *m, const cs_contact *c)
{
    if (c->exclude) return 0;
    int b1 = m->geom_body[c->geom1], b2 = m->geom_body[c->geom2];
    int t1 = m->body_treeid[b1], t2 = m->body_treeid[b2];
    /* static-static contacts carry no dofs (the filters normally drop them); two geoms
     * of one free body cannot collide either */
    if (t1 < 0 && t2 < 0) return 0;
    return !(t1 == t2 && m->body_weldid[b1] == m->body_weldid[b2]);
}

static void make_rows(const cs_model *m, cs_data *d)
{
    /* the Coulomb model has the frame rows, its block solves taking the cone as the friction
     * set, but pyramidal rows for the pyramid under proximal Newton (docs/contact-math.md
     * §11) */
    int coulomb = m->opt.contact == CS_CONTACT_COULOMB;
    int pyr = coulomb ? cs_coulomb_pyramid_rows(m->opt.cone, coulomb_method(m))
                      : m->opt.cone == CS_CONE_PYRAMIDAL;
    cs_row_opts ro = {m->opt.timestep, m->opt.impratio,
                      pyr ? CS_CONE_PYRAMIDAL : CS_CONE_ELLIPTIC,
                      !(m->opt.disableflags & CS_DSBL_REFSAFE)};
    make_joint_rows(m, d, &ro);
    for (int i = 0; i < d->ncon; i++) {
        cs_contact *c = &d->contact[i];
        if (!cs_contact_has_rows(m, c)) continue;
        cs_contact_in ci;
        memcpy(ci.pos, c->pos, sizeof ci.pos);
        memcpy(ci.frame, c->frame, sizeof ci.frame);
        ci.dist = c->dist;
        ci.dim = c->dim;
        memcpy(ci.friction, c->friction, sizeof ci.friction);
        memcpy(ci.solref, c->solref, sizeof ci.solref);
        memcpy(ci.solreffriction, c->solreffriction, sizeof ci.solreffriction);
        memcpy(ci.solimp, c->solimp, sizeof ci.solimp);
        /* MuJoCo 3.12: the force acts within the margin (includemargin = margin); the gap only
         * widens detection, so the rows see none of it */
        ci.margin = c->margin;
        ci.gap = 0;
        surface_velocity(m, d, c, ci.surfvel);
        ci.adhesion = c->adhesion;
        cs_contact_side sd[2];
        contact_side(m, d, c->geom1, c->pos, d->scratch->jac, &sd[0]);
        /* d->scratch->jac holds two sides of the largest tree: side 1 goes after side 0's 6 x ndof */
        contact_side(m, d, c->geom2, c->pos, d->scratch->jac + 6 * (size_t)sd[0].ndof, &sd[1]);
        c->efc_address = d->efc->nefc;
        if (cs_efc_add_contact(d->efc, &ci, i, sd, d->qvel, &ro) < 0) {
            c->efc_address = -1;
            d->warning[CS_WARN_NOMEM]++; /* the contact is left out */
        }
    }
    d->nefc = d->efc->nefc;
    if (coulomb) cs_coulomb_rows(d->efc, m->opt.timestep); /* hard rows, velocity targets */
}

static int is_contact(int kind)
{
    return kind == CS_BLOCK_FRICTIONLESS || kind == CS_BLOCK_ELLIPTIC ||
           kind == CS_BLOCK_PYRAMIDAL;
}

/* store: forces, contact-frame velocities and zones onto the contacts; qfrc_constraint =
 * J^T f */
static void store(const cs_model *m, cs_data *d)
{
    const cs_efc *e = d->efc;
    for (int k = 0; k < e->nblock; k++) {
        if (!is_contact(e->blk_kind[k])) continue;
        cs_contact *c = &d->contact[e->blk_id[k]];
        memcpy(c->force, e->blk_force + CS_MAXDIM * k, sizeof c->force);
        c->force[0] -= c->adhesion; /* the net force: the solver's holds the adhesion too */
        memcpy(c->vel, e->blk_cvel + CS_MAXDIM * k, sizeof c->vel);
        c->zone = zone_of(m, e, k);
    }
    memset(d->qfrc_constraint, 0, (size_t)m->nv * sizeof *d->qfrc_constraint);
    for (int r = 0; r < e->nefc; r++) { /* the block's nonzero columns (the rest are 0) */
        const double *J = e->J + e->J_rowadr[r];
        const int *ci = e->J_colind + e->J_rowadr[r];
        int k = e->block[r];
        double f = e->force[r], *qf = d->qfrc_constraint;
        if (e->blk_nzall[k]) { /* each side's columns up to its last nonzero */
            int nd0 = e->blk_ndof[2 * k], z0 = e->blk_nzdof[2 * k];
            int z1 = nd0 + e->blk_nzdof[2 * k + 1];
            for (int q = 0; q < z0; q++) qf[ci[q]] += J[q] * f;
            for (int q = nd0; q < z1; q++) qf[ci[q]] += J[q] * f;
            continue;
        }
        int m = e->blk_nnzcol[2 * k] + e->blk_nnzcol[2 * k + 1];
        const int *col = e->J_nzcol + e->J_rowadr[e->blk_row[k]];
        for (int i = 0; i < m; i++) qf[ci[col[i]]] += J[col[i]] * f;
    }
}

void cs_constraint(const cs_model *m, cs_data *d)
{
    int nv = m->nv;
    d->nefc = 0;
    cs_efc_clear(d->efc);
    memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
    memset(d->qfrc_constraint, 0, (size_t)nv * sizeof *d->qfrc_constraint);
    memset(&d->solver, 0, sizeof d->solver);
    if (m->opt.disableflags & CS_DSBL_CONSTRAINT) return;
    make_rows(m, d);
    if (d->efc->nblock == 0) return;

    /* the scale of the stopping rules: MuJoCo's stat.meaninertia, the mean of diag(M) at qpos0
     * unless <statistic meaninertia> gives it */
    double mi = m->opt.meaninertia;
    if (!(mi > 0) && nv > 0) {
        mi = 0;
        for (int i = 0; i < nv; i++) mi += m->dof_M0[i];
        mi /= nv;
    }
    cs_problem p = {d->scratch->mass, d->qacc_smooth, d->efc, mi};
    cs_solver_opts so;
    cs_solver_opts_default(&so);
    so.type = m->opt.solver == CS_SOLVER_PGS  ? CS_METHOD_PGS
              : m->opt.solver == CS_SOLVER_CG ? CS_METHOD_CG
                                              : CS_METHOD_NEWTON;
    so.max_iter = m->opt.iterations;
    so.tolerance = m->opt.tolerance;
    so.blocking = m->opt.pgs_blocks == CS_PGS_PAIR ? CS_PGS_BLOCK_PAIR : CS_PGS_BLOCK_CONTACT;
    so.stats = d->solver_stats;
    so.finish_after = m->opt.pgs_finish;
    so.newton_early = m->opt.newton_early;
    so.ls_iterations = m->opt.ls_iterations;
    so.ls_tolerance = m->opt.ls_tolerance;
    so.noslip_iterations = m->opt.noslip_iterations;
    so.noslip_tolerance = m->opt.noslip_tolerance;
    so.islands = !(m->opt.disableflags & CS_DSBL_ISLAND);
    if (m->opt.contact == CS_CONTACT_COULOMB) { /* the Coulomb-exact model's method */
        so.type = CS_METHOD_COULOMB;
        so.timestep = m->opt.timestep;
        so.coulomb_cone = (cs_cone_type)m->opt.cone;
        so.coulomb_method = coulomb_method(m);
    }
    const double *warm = (m->opt.disableflags & CS_DSBL_WARMSTART) ? NULL : d->qacc_warmstart;
    cs_solve_stats st;
    int rc = cs_solve(d->scratch->solver_ws, &p, &so, warm, d->qacc, &st);
    if (rc != 0) {
        d->warning[rc == CS_SOLVE_NOMEM ? CS_WARN_NOMEM : CS_WARN_BADQACC]++;
        memcpy(d->qacc, d->qacc_smooth, (size_t)nv * sizeof *d->qacc);
        return;
    }
    store(m, d);
    d->solver.iterations = st.iterations;
    d->solver.at_limit = st.iterations >= so.max_iter;
    d->solver.cost = st.primal_cost;
    d->solver.dual_cost = st.dual_cost;
    d->solver.primal_feas = st.feasibility;
    d->solver.stationarity = st.stationarity;
    d->solver.complementarity = st.complementarity;
    d->solver.nisland = st.nisland;
    d->solver.improvement = st.improvement;
    d->solver.noslip = 0;
    for (int i = 0; i < st.nisland; i++) {
        int ns = cs_solver_island(d->scratch->solver_ws, i)->noslip;
        if (ns > d->solver.noslip) d->solver.noslip = ns;
    }
}

void cs_contact_force(const cs_model *m, const cs_data *d, int i, double f[6])
{
    (void)m;
    memset(f, 0, 6 * sizeof *f);
    if (i < 0 || i >= d->ncon) return;
    memcpy(f, d->contact[i].force, 6 * sizeof *f);
}

/* the rows that are not contacts come first (make_rows makes them before the contacts) */
int cs_jrow_count(const cs_model *m, const cs_data *d)
{
    (void)m;
    const cs_efc *e = d->efc;
    int n = 0;
    while (n < e->nefc && !is_contact(e->type[n])) n++;
    return n;
}

int cs_jrow_get(const cs_model *m, const cs_data *d, int i, cs_jrow *out)
{
    if (i < 0 || i >= cs_jrow_count(m, d)) return -1;
    const cs_efc *e = d->efc;
    int r = i, k = e->block[r], id = e->blk_id[k];
    out->tendon = out->eq = -1;
    if (e->blk_kind[k] == CS_BLOCK_EQUALITY) {
        out->kind = CS_JROW_EQUALITY;
        out->eq = id;
        out->joint = -1;
        out->dof = r - e->blk_row[k];
    } else if (e->blk_kind[k] == CS_BLOCK_FRICTIONLOSS) {
        if (id < m->nv) {
            out->kind = CS_JROW_FRICTION;
            out->dof = id;
            out->joint = m->dof_jntid[id];
        } else {
            out->kind = CS_JROW_TENDON_FRICTION;
            out->tendon = id - m->nv;
            out->joint = out->dof = -1;
        }
    } else if (id >= m->njnt) { /* a tendon limit: njnt + 2 t, + 1 for the upper side */
        out->tendon = (id - m->njnt) / 2;
        out->joint = out->dof = -1;
        out->kind = (id - m->njnt) % 2 ? CS_JROW_TENDON_UPPER : CS_JROW_TENDON_LOWER;
    } else {
        out->joint = id;
        out->dof = m->jnt_dofadr[id];
        if (m->jnt_type[id] == CS_JNT_BALL) out->kind = CS_JROW_ANGLE;
        else /* the lower side's row is +1 on the dof, the upper side's -1 */
            out->kind = cs_efc_J(e, r, out->dof) > 0 ? CS_JROW_LOWER : CS_JROW_UPPER;
    }
    out->pos = e->pos[r];
    out->force = e->force[r];
    return 0;
}

void cs_constraint_rows(const cs_model *m, cs_data *d)
{
    d->nefc = 0;
    cs_efc_clear(d->efc);
    memset(d->qfrc_constraint, 0, (size_t)m->nv * sizeof *d->qfrc_constraint);
    if (!(m->opt.disableflags & CS_DSBL_CONSTRAINT)) make_rows(m, d);
}

void cs_constraint_store(const cs_model *m, cs_data *d)
{
    store(m, d);
}
