/* The loader's part of sleeping: the bodies' <body sleep> policies into the model's
 * constants (sim/mjcf/sleep_const.c), with MuJoCo 3.12's compile-time errors at their lines, and
 * the check that every tree marked sleep="init" can start asleep. */
#include "alloc.h"
#include "conesim.h"
#include "mjcf_ir.h"
#include "sleep.h"

void cs_mjcf_sleep_build(cs_mjcf *c, cs_model *m)
{
    /* not cs_mjcf_alloc: its failure would leave the model unfreed */
    int *pol = cs_malloc(((size_t)m->nbody + 1) * sizeof *pol);
    int bad_body = -1, bad_tendon = -1, rc = -1;
    if (pol) {
        for (int b = 0; b < m->nbody; b++) pol[b] = c->body[b].sleep;
        rc = cs_model_sleep_const(m, pol, &bad_body, &bad_tendon);
        cs_free(pol);
    }
    if (rc < 0) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    if (rc > 0 && bad_body >= 0) {
        cs_free_model(m);
        cs_mjcf_fail(c, c->body[bad_body].line, "body", "sleep",
                     "a sleep policy is allowed only on the first body of a moving tree (a "
                     "child of the world with joints)");
    }
    if (rc > 0) {
        const cs_tendonir *T = &c->ten[bad_tendon];
        int line = T->line, spatial = T->spatial;
        cs_free_model(m);
        cs_mjcf_fail(c, line, spatial ? "spatial" : "fixed", NULL,
                     "this tendon has stiffness or damping across trees (or spans more than "
                     "two), so the trees it moves cannot sleep: their sleep=\"allowed\" or "
                     "\"init\" is refused (MuJoCo's rule)");
    }
    if (!(m->opt.enableflags & CS_ENBL_SLEEP)) return;
    int init = 0;
    for (int t = 0; t < m->ntree; t++) init |= m->tree_sleep_policy[t] == CS_SLEEP_INIT;
    if (!init) return;
    /* the trees marked init must be able to start asleep: an island of them alone */
    cs_data *d = cs_make_data(m);
    if (!d) {
        cs_free_model(m);
        cs_mjcf_nomem(c);
    }
    int root = -1;
    for (int t = 0; t < m->ntree && root < 0; t++)
        if (m->tree_sleep_policy[t] == CS_SLEEP_INIT && d->tree_asleep[t] < 0)
            root = m->tree_bodyadr[t];
    cs_free_data(d);
    if (root >= 0) {
        cs_free_model(m);
        cs_mjcf_fail(c, c->body[root].line, "body", "sleep",
                     "this tree is marked sleep=\"init\" but cannot start asleep: it touches "
                     "or is constrained to a tree that is not marked init");
    }
}
