/* Sleeping trees, MuJoCo 3.12's rules (engine_sleep.c). tree_asleep is the state: an awake
 * tree holds -1 - CS_MINAWAKE after it moved and counts up by one per step at rest to -1
 * (ready); a sleeping tree holds the next tree of its island, so that the trees that fell
 * asleep together form a cycle and wake together. The other arrays follow from it
 * (cs_sleep_update). */
#include <math.h>
#include <string.h>

#include "conesim.h"
#include "data_scratch.h"
#include "rowtrees.h"
#include "sleep.h"
#include "solver/rows.h"


static int enabled(const cs_model *m) { return (m->opt.enableflags & CS_ENBL_SLEEP) != 0; }

void cs_sleep_update(const cs_model *m, cs_data *d)
{
    int nt = 0, nb = 0, nv = 0;
    for (int t = 0; t < m->ntree; t++) nt += d->tree_awake[t] = d->tree_asleep[t] < 0;
    for (int b = 0; b < m->nbody; b++) {
        int t = m->body_treeid[b], s;
        if (t >= 0) s = d->tree_awake[t] ? CS_S_AWAKE : CS_S_ASLEEP;
        else s = m->body_mocapid[m->body_rootid[b]] >= 0 ? CS_S_AWAKE : CS_S_STATIC;
        d->body_awake[b] = s;
        nb += s != CS_S_ASLEEP;
    }
    for (int i = 0; i < m->nv; i++) nv += d->tree_awake[m->dof_treeid[i]];
    for (int g = 0; g < m->ngeom; g++) { /* the collision filter's code */
        int s = d->body_awake[m->geom_body[g]];
        d->scratch->geom_asleep[g] = s == CS_S_ASLEEP ? 1 : s == CS_S_STATIC ? 2 : 0;
    }
    d->ntree_awake = nt;
    d->nbody_awake = nb;
    d->nv_awake = nv;
}

void cs_sleep_wake_all(const cs_model *m, cs_data *d)
{
    for (int t = 0; t < m->ntree; t++) d->tree_asleep[t] = CS_TREE_AWAKE;
    cs_sleep_update(m, d);
}

static int all_zero(const double *v, int n) /* bitwise, as MuJoCo's: -0 is a change */
{
    static const double zero = 0;
    for (int i = 0; i < n; i++)
        if (memcmp(v + i, &zero, sizeof zero) != 0) return 0;
    return 1;
}

/* MuJoCo's treeCanSleep: the policy allows it, no applied force, and the velocities below
 * tol after weighting by dof_length (tol 0: exactly zero) */
static int can_sleep(const cs_model *m, const cs_data *d, int t, double tol)
{
    int p = m->tree_sleep_policy[t];
    if (p == CS_SLEEP_NEVER || p == CS_SLEEP_AUTO_NEVER) return 0;
    if (!all_zero(d->xfrc_applied + 6 * m->tree_bodyadr[t], 6 * m->tree_bodynum[t])) return 0;
    int a = m->tree_dofadr[t], n = m->tree_dofnum[t];
    if (!all_zero(d->qfrc_applied + a, n)) return 0;
    if (tol == 0) return all_zero(d->qvel + a, n);
    for (int i = a; i < a + n; i++)
        if (!(m->dof_length[i] * fabs(d->qvel[i]) < tol)) return 0;
    return 1;
}

/* wake tree t and the trees of its cycle to val; an awake tree only takes a smaller val
 * (MuJoCo's mj_wakeIsland). Returns the trees woken. */
static int wake_island(cs_data *d, int ntree, int t, int val)
{
    int *s = d->tree_asleep;
    if (s[t] < 0) {
        if (val < s[t]) s[t] = val;
        return 0;
    }
    int n = 0, cur = t;
    do {
        int next = s[cur];
        s[cur] = val;
        n++;
        cur = next;
    } while (cur != t && cur >= 0 && n < ntree);
    return n;
}

/* the tree's bodies are where the step's last kinematics before it fell asleep put them
 * (MuJoCo compares each sleeping body's new xpos and xquat with the stored ones: after RK4
 * those are the last stage's, so a tree put to sleep there wakes at the next step) */
static int pose_kept(const cs_model *m, const cs_data *d, int t)
{
    int b0 = m->tree_bodyadr[t], b1 = b0 + m->tree_bodynum[t];
    for (int b = b0; b < b1; b++) {
        if (!m->body_jntnum[b]) continue;
        const double *x = d->xpos + 3 * b, *q = d->xquat + 4 * b, *k = d->scratch->xpose_asleep + 7 * b;
        if (x[0] != k[0] || x[1] != k[1] || x[2] != k[2] || q[0] != k[3] || q[1] != k[4] ||
            q[2] != k[5] || q[3] != k[6])
            return 0;
    }
    return 1;
}

int cs_wake_user(const cs_model *m, cs_data *d)
{
    int nt = m->ntree, n = 0;
    if (d->ntree_awake == nt) return 0;
    if (!enabled(m)) { /* the flag turned off with trees asleep: all wake */
        for (int t = 0; t < nt; t++) d->tree_asleep[t] = CS_TREE_AWAKE;
        n = nt - d->ntree_awake;
    } else {
        for (int t = 0; t < nt; t++)
            if (d->tree_asleep[t] >= 0 && (!pose_kept(m, d, t) || !can_sleep(m, d, t, 0)))
                n += wake_island(d, nt, t, CS_TREE_AWAKE);
    }
    if (n) cs_sleep_update(m, d);
    return n;
}

/* MuJoCo's tendonLimit: a limited tendon within its margin of either end */
static int tendon_at_limit(const cs_model *m, const cs_data *d, int t)
{
    if (!m->tendon_limited[t]) return 0;
    double len = d->ten_length[t], mg = m->tendon_margin[t];
    return m->tendon_range[2 * t] - len > -mg || len - m->tendon_range[2 * t + 1] > -mg;
}

int cs_wake_tendon(const cs_model *m, cs_data *d)
{
    if (!enabled(m) || d->ntree_awake == m->ntree) return 0;
    int n = 0;
    for (int k = 0; k < m->ntendon; k++) {
        if (m->tendon_treenum[k] != 2 || !tendon_at_limit(m, d, k)) continue;
        int t1 = m->tendon_treeid[2 * k], t2 = m->tendon_treeid[2 * k + 1];
        int a1 = d->tree_awake[t1], a2 = d->tree_awake[t2];
        if (a1 != a2)
            n += wake_island(d, m->ntree, a1 ? t2 : t1, d->tree_asleep[a1 ? t1 : t2]);
    }
    if (n) cs_sleep_update(m, d);
    return n;
}

int cs_wake_contact(const cs_model *m, cs_data *d)
{
    if (!enabled(m) || d->ntree_awake == m->ntree) return 0;
    int n = 0;
    for (int i = 0; i < d->ncon; i++) {
        int b1 = m->geom_body[d->contact[i].geom1], b2 = m->geom_body[d->contact[i].geom2];
        int t1 = m->body_treeid[b1], t2 = m->body_treeid[b2];
        if (t1 < 0 || t2 < 0) { /* a body without dofs wakes only when awake (mocap) */
            int t = t1 < 0 ? t2 : t1, b = t1 < 0 ? b1 : b2;
            if (t >= 0 && !d->tree_awake[t] && d->body_awake[b] == CS_S_AWAKE)
                n += wake_island(d, m->ntree, t, CS_TREE_AWAKE);
            continue;
        }
        int a1 = d->tree_awake[t1], a2 = d->tree_awake[t2];
        if (a1 == a2) continue; /* both awake; both asleep is filtered out by collision */
        n += wake_island(d, m->ntree, a1 ? t2 : t1, d->tree_asleep[a1 ? t1 : t2]);
    }
    if (n) cs_sleep_update(m, d);
    return n;
}

/* the state of an equality's side: its body's */
static int side_state(const cs_model *m, const cs_data *d, int e, int side, int *tree)
{
    int id = side ? m->eq_obj2id[e] : m->eq_obj1id[e], b = -1;
    switch (m->eq_type[e]) {
    case CS_EQ_CONNECT:
    case CS_EQ_WELD: b = m->eq_objtype[e] == CS_OBJ_SITE ? m->site_bodyid[id] : id; break;
    case CS_EQ_JOINT: b = id >= 0 ? m->jnt_bodyid[id] : -1; break;
    default: break;
    }
    *tree = b >= 0 ? m->body_treeid[b] : -1;
    return b >= 0 ? d->body_awake[b] : CS_S_STATIC;
}

/* the first tree of t's cycle (MuJoCo's mj_sleepCycle: its smallest index) */
static int cycle_of(const cs_data *d, int ntree, int t)
{
    int small = t, cur = t, k = 0;
    do {
        cur = d->tree_asleep[cur];
        if (cur < 0 || ++k > ntree) return -1;
        if (cur < small) small = cur;
    } while (cur != t);
    return small;
}

int cs_wake_equality(const cs_model *m, cs_data *d)
{
    if (!enabled(m) || d->ntree_awake == m->ntree) return 0;
    int n = 0;
    for (int e = 0; e < m->neq; e++) {
        if (!d->eq_active[e] || m->eq_type[e] == CS_EQ_TENDON) continue; /* refused by the loader */
        int t1, t2;
        int s1 = side_state(m, d, e, 0, &t1), s2 = side_state(m, d, e, 1, &t2);
        if (s1 != CS_S_ASLEEP && s2 != CS_S_ASLEEP) continue;
        if (s1 == CS_S_STATIC || s2 == CS_S_STATIC || t1 == t2) continue;
        if (s1 == CS_S_ASLEEP && s2 == CS_S_ASLEEP) { /* two sleeping islands: both wake */
            if (cycle_of(d, m->ntree, t1) != cycle_of(d, m->ntree, t2)) {
                n += wake_island(d, m->ntree, t1, CS_TREE_AWAKE);
                n += wake_island(d, m->ntree, t2, CS_TREE_AWAKE);
            }
            continue;
        }
        n += wake_island(d, m->ntree, s1 == CS_S_ASLEEP ? t1 : t2, CS_TREE_AWAKE);
    }
    if (n) cs_sleep_update(m, d);
    return n;
}

void cs_sleep_qacc(const cs_model *m, cs_data *d, int restore)
{
    for (int t = 0; t < m->ntree; t++) {
        if (d->tree_awake[t]) continue;
        int a = m->tree_dofadr[t];
        size_t n = (size_t)m->tree_dofnum[t] * sizeof *d->qacc;
        memcpy(restore ? d->qacc + a : d->scratch->qacc_asleep + a, restore ? d->scratch->qacc_asleep + a : d->qacc + a, n);
    }
}

int cs_tendon_asleep(const cs_model *m, const cs_data *d, int t)
{
    int n = m->tendon_treenum[t];
    if (n == 0 || n > 2) return 0;
    int a = d->tree_awake[m->tendon_treeid[2 * t]];
    if (n == 2) a |= d->tree_awake[m->tendon_treeid[2 * t + 1]];
    return !a;
}

int cs_equality_asleep(const cs_model *m, const cs_data *d, int e)
{
    int t1, t2;
    if (m->eq_type[e] == CS_EQ_TENDON) {
        int k1 = m->eq_obj1id[e], k2 = m->eq_obj2id[e];
        int a = k1 >= 0 && !cs_tendon_asleep(m, d, k1) && m->tendon_treenum[k1] > 0;
        a |= k2 >= 0 && !cs_tendon_asleep(m, d, k2) && m->tendon_treenum[k2] > 0;
        return !a;
    }
    int s1 = side_state(m, d, e, 0, &t1), s2 = side_state(m, d, e, 1, &t2);
    return s1 != CS_S_AWAKE && s2 != CS_S_AWAKE;
}

/* ---- sensors: MuJoCo's mj_sleepState of an object, and of a sensor ---------------------- */

static int tendon_state(const cs_model *m, const cs_data *d, int t)
{
    int n = m->tendon_treenum[t];
    if (n == 0) return CS_S_STATIC;
    if (n > 2) return CS_S_AWAKE;
    return cs_tendon_asleep(m, d, t) ? CS_S_ASLEEP : CS_S_AWAKE;
}

static int either(int s1, int s2) { return s1 == CS_S_AWAKE || s2 == CS_S_AWAKE ? CS_S_AWAKE : CS_S_ASLEEP; }

static int obj_state(const cs_model *m, const cs_data *d, int type, int id)
{
    if (id < 0) return CS_S_AWAKE;
    switch (type) {
    case CS_OBJ_BODY:
    case CS_OBJ_XBODY: return d->body_awake[id];
    case CS_OBJ_JOINT: return d->body_awake[m->jnt_bodyid[id]];
    case CS_OBJ_GEOM: return d->body_awake[m->geom_body[id]];
    case CS_OBJ_SITE: return d->body_awake[m->site_bodyid[id]];
    case CS_OBJ_CAMERA: return d->body_awake[m->cam_bodyid[id]];
    case CS_OBJ_TENDON: return tendon_state(m, d, id);
    case CS_OBJ_ACTUATOR: {
        const int *trn = m->actuator_trnid + 2 * id;
        switch (m->actuator_trntype[id]) {
        case CS_TRN_JOINT:
        case CS_TRN_JOINTINPARENT: return obj_state(m, d, CS_OBJ_JOINT, trn[0]);
        case CS_TRN_TENDON: return tendon_state(m, d, trn[0]);
        case CS_TRN_SITE: return obj_state(m, d, CS_OBJ_SITE, trn[0]);
        case CS_TRN_BODY: return obj_state(m, d, CS_OBJ_BODY, trn[0]);
        case CS_TRN_SLIDERCRANK:
            return either(obj_state(m, d, CS_OBJ_SITE, trn[0]), obj_state(m, d, CS_OBJ_SITE, trn[1]));
        case CS_TRN_SO3: /* a ball joint, or a site and its reference site */
            if (trn[1] < 0) return obj_state(m, d, CS_OBJ_JOINT, trn[0]);
            return either(obj_state(m, d, CS_OBJ_SITE, trn[0]), obj_state(m, d, CS_OBJ_SITE, trn[1]));
        default: return CS_S_AWAKE;
        }
    }
    default: return CS_S_AWAKE;
    }
}

static int known(int type)
{
    return type == CS_OBJ_BODY || type == CS_OBJ_XBODY || type == CS_OBJ_JOINT ||
           type == CS_OBJ_GEOM || type == CS_OBJ_SITE || type == CS_OBJ_CAMERA ||
           type == CS_OBJ_TENDON || type == CS_OBJ_ACTUATOR;
}

int cs_sensor_asleep(const cs_model *m, const cs_data *d, int i)
{
    int type = m->sensor_type[i], ot = m->sensor_objtype[i], rt = m->sensor_reftype[i];
    if (type == CS_SENS_USER || type == CS_SENS_PLUGIN || type == CS_SENS_RANGEFINDER) return 0;
    if (type == CS_SENS_CONTACT && (ot == CS_OBJ_SITE || rt == CS_OBJ_SITE)) return 0;
    int ko = known(ot), kr = known(rt);
    if (!ko && !kr) return 0;
    int so = ko ? obj_state(m, d, ot, m->sensor_objid[i]) : CS_S_AWAKE;
    int sr = kr ? obj_state(m, d, rt, m->sensor_refid[i]) : CS_S_AWAKE;
    if (!ko) return sr == CS_S_ASLEEP;
    if (!kr) return so == CS_S_ASLEEP;
    return so != CS_S_AWAKE && sr != CS_S_AWAKE;
}

/* ---- falling asleep --------------------------------------------------------------------- */

static int uf_find(int *p, int i)
{
    while (p[i] != i) i = p[i] = p[p[i]];
    return i;
}

/* the trees in a cycle, their velocities and accelerations zero, their pose kept */
static void sleep_trees(const cs_model *m, cs_data *d, const int *tree, int n)
{
    for (int k = 0; k < n; k++) {
        int t = tree[k];
        d->tree_asleep[t] = tree[(k + 1) % n];
        int a = m->tree_dofadr[t], nd = m->tree_dofnum[t];
        memset(d->qvel + a, 0, (size_t)nd * sizeof *d->qvel);
        memset(d->qacc + a, 0, (size_t)nd * sizeof *d->qacc);
        int b0 = m->tree_bodyadr[t], b1 = b0 + m->tree_bodynum[t];
        for (int b = b0; b < b1; b++) {
            memcpy(d->scratch->xpose_asleep + 7 * b, d->xpos + 3 * b, 3 * sizeof *d->xpos);
            memcpy(d->scratch->xpose_asleep + 7 * b + 3, d->xquat + 4 * b, 4 * sizeof *d->xquat);
        }
    }
}

int cs_sleep_trees(const cs_model *m, cs_data *d)
{
    int nt = m->ntree, slept = 0;
    if (!enabled(m)) return 0;
    /* MuJoCo has no islands without its island flag: then a tree with rows cannot sleep */
    if (d->nefc && (m->opt.disableflags & CS_DSBL_ISLAND)) return 0;
    for (int t = 0; t < nt; t++) {
        if (d->tree_asleep[t] >= 0) continue;
        if (can_sleep(m, d, t, m->opt.sleep_tolerance)) d->tree_asleep[t] += d->tree_asleep[t] < -1;
        else d->tree_asleep[t] = CS_TREE_AWAKE;
    }
    /* islands: trees joined by the step's constraint rows (MuJoCo's mj_island) */
    int *p = d->scratch->sleep_uf, *list = d->scratch->sleep_uf + nt;
    for (int t = 0; t < nt; t++) p[t] = t;
    const struct cs_efc *e = d->efc;
    /* blocks name the solver's trees: a joined run (rowtrees.h) counts as its first tree,
     * the others of the run never sleep (a tendon over more than two trees keeps them awake) */
    const cs_rowtrees *rt = d->scratch->rowtrees;
    for (int k = 0; k < e->nblock; k++) {
        int a = e->blk_tree[2 * k], b = e->blk_tree[2 * k + 1];
        a = a >= 0 ? rt->treeadr[a] : -1;
        b = b >= 0 ? rt->treeadr[b] : -1;
        if (a >= 0 && b >= 0 && a != b) {
            int ra = uf_find(p, a), rb = uf_find(p, b);
            if (ra != rb) p[ra < rb ? rb : ra] = ra < rb ? ra : rb;
        }
    }
    /* an island sleeps when all its trees are ready: one pass per root, in tree order */
    for (int r = 0; r < nt; r++) {
        if (uf_find(p, r) != r) continue;
        int n = 0, ready = 1;
        for (int t = r; t < nt && ready; t++) {
            if (uf_find(p, t) != r) continue;
            if (d->tree_asleep[t] != -1) ready = 0;
            else list[n++] = t;
        }
        if (!ready || n == 0) continue;
        sleep_trees(m, d, list, n);
        slept += n;
    }
    return slept;
}
