/* Solver trees: model trees joined where one row moves more than two of them (rowtrees.h). */
#include "rowtrees.h"

#include "alloc.h"

int cs_wrap_tree(const cs_model *m, int w)
{
    int id = m->wrap_objid[w], b = -1;
    switch (m->wrap_type[w]) {
    case CS_WRAP_JOINT: b = m->jnt_bodyid[id]; break;
    case CS_WRAP_SITE: b = m->site_bodyid[id]; break;
    case CS_WRAP_SPHERE:
    case CS_WRAP_CYLINDER: b = m->geom_body[id]; break;
    default: return -1;
    }
    return m->body_treeid[b];
}

/* the i-th wrap object of tendons k1 then k2 (k2 -1: none) */
static int wrap_at(const cs_model *m, int k1, int k2, int i)
{
    return i < m->tendon_num[k1] ? m->tendon_adr[k1] + i
                                 : m->tendon_adr[k2] + i - m->tendon_num[k1];
}

/* how many trees tendons k1 and k2 (-1: none) move together, the lowest and the highest */
static int tendon_span(const cs_model *m, int k1, int k2, int *lo, int *hi)
{
    int n = 0, nw = m->tendon_num[k1] + (k2 >= 0 ? m->tendon_num[k2] : 0);
    *lo = m->ntree;
    *hi = -1;
    for (int i = 0; i < nw; i++) {
        int t = cs_wrap_tree(m, wrap_at(m, k1, k2, i)), seen = t < 0;
        for (int j = 0; j < i && !seen; j++) seen = cs_wrap_tree(m, wrap_at(m, k1, k2, j)) == t;
        if (seen) continue;
        n++;
        if (t < *lo) *lo = t;
        if (t > *hi) *hi = t;
    }
    return n;
}

/* joined[t] = 1: tree t and tree t + 1 are one solver tree (trees are numbered in dof order,
 * so a run of joined trees is one dof range) */
static void join_span(int *joined, int lo, int hi)
{
    for (int t = lo; t < hi; t++) joined[t] = 1;
}

int cs_rowtrees_make(const cs_model *m, cs_rowtrees *rt)
{
    int nt = m->ntree, nv = m->nv;
    size_t ntn = (size_t)(nt > 0 ? nt : 1);
    rt->of_tree = cs_calloc(ntn, sizeof(int));
    rt->dofadr = cs_calloc(ntn, sizeof(int));
    rt->dofnum = cs_calloc(ntn, sizeof(int));
    rt->treeadr = cs_calloc(ntn, sizeof(int));
    rt->of_dof = cs_calloc((size_t)(nv > 0 ? nv : 1), sizeof(int));
    int *joined = cs_calloc(ntn, sizeof(int));
    if (!rt->of_tree || !rt->dofadr || !rt->dofnum || !rt->treeadr || !rt->of_dof || !joined) {
        cs_free(joined);
        cs_rowtrees_free(rt);
        return -1;
    }
    int lo, hi;
    for (int k = 0; k < m->ntendon; k++)
        if ((m->tendon_limited[k] || m->tendon_frictionloss[k] > 0) &&
            tendon_span(m, k, -1, &lo, &hi) > 2)
            join_span(joined, lo, hi);
    for (int e = 0; e < m->neq; e++)
        if (m->eq_type[e] == CS_EQ_TENDON &&
            tendon_span(m, m->eq_obj1id[e], m->eq_obj2id[e], &lo, &hi) > 2)
            join_span(joined, lo, hi);
    rt->n = 0;
    for (int t = 0; t < nt; t++) {
        if (t == 0 || !joined[t - 1]) { /* a new solver tree starts here */
            rt->dofadr[rt->n] = m->tree_dofadr[t];
            rt->treeadr[rt->n] = t;
            rt->n++;
        }
        rt->of_tree[t] = rt->n - 1;
        rt->dofnum[rt->n - 1] += m->tree_dofnum[t];
    }
    for (int i = 0; i < nv; i++) rt->of_dof[i] = rt->of_tree[m->dof_treeid[i]];
    cs_free(joined);
    return 0;
}

void cs_rowtrees_free(cs_rowtrees *rt)
{
    cs_free(rt->of_tree);
    cs_free(rt->dofadr);
    cs_free(rt->dofnum);
    cs_free(rt->treeadr);
    cs_free(rt->of_dof);
    rt->of_tree = rt->dofadr = rt->dofnum = rt->treeadr = rt->of_dof = NULL;
    rt->n = 0;
}
