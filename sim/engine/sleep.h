/* sim-internal: sleeping trees (MuJoCo 3.12's engine_sleep.c meaning; sim/engine/sleep.c). With
 * <flag sleep="enable">, a tree whose weighted velocities stay below opt.sleep_tolerance for
 * CS_MINAWAKE steps is ready; an island (trees joined by constraint rows) whose trees are
 * all ready falls asleep: its velocities and accelerations become 0 and the step no longer
 * moves it, collides it with the world or with other sleeping trees, or makes its rows.
 * Contact with an awake body, an equality or a limited tendon to one, and a user change of
 * its qpos or qvel or a force applied to it (qfrc_applied, xfrc_applied) wake it. */
#ifndef CS_SLEEP_H
#define CS_SLEEP_H

#include "conesim.h"

/* sleep_const.c: tree_bodyadr, tree_bodynum, tendon_treenum, tendon_treeid, dof_length and
 * tree_sleep_policy from the bodies' <body sleep> (cs_sleep_policy per body, NULL: all
 * auto). Returns 0; -1 out of memory; 1 with *bad_body (a policy on a body that is not
 * the first of a moving tree) or *bad_tendon (a tendon with stiffness or damping across
 * trees, or across more than two, on a tree whose policy lets it sleep). */
int cs_model_sleep_const(cs_model *m, const int *body_sleep, int *bad_body, int *bad_tendon);

/* 1 when the step filters sleeping trees (the flag is on and some tree sleeps) */
static inline int cs_sleep_filter(const cs_model *m, const cs_data *d)
{
    return (m->opt.enableflags & CS_ENBL_SLEEP) && d->ntree_awake < m->ntree;
}

/* tree_awake, body_awake, geom_asleep and the counts from tree_asleep */
void cs_sleep_update(const cs_model *m, cs_data *d);
/* tree_asleep of a tree that has just moved (awake, MINAWAKE steps from being ready) */
#define CS_TREE_AWAKE (-(1 + CS_MINAWAKE))
/* every tree awake, the arrays that follow tree_asleep updated */
void cs_sleep_wake_all(const cs_model *m, cs_data *d);
/* (reset.c puts the trees with policy init to sleep at reset, after a forward pass) */
/* the wake rules of a forward pass, each returning the trees it woke (the sleep arrays are
 * updated when it woke any): a user change (qpos moved, qvel, qfrc_applied or xfrc_applied
 * not zero; the flag turned off), a limited tendon at its limit between an awake and a
 * sleeping tree, a contact with an awake body, an active equality to an awake body */
int cs_wake_user(const cs_model *m, cs_data *d);
int cs_wake_tendon(const cs_model *m, cs_data *d);
int cs_wake_contact(const cs_model *m, cs_data *d);
int cs_wake_equality(const cs_model *m, cs_data *d);
/* count the steps at rest and put the islands that are ready to sleep (velocities and
 * accelerations 0); returns the trees put to sleep. The sleep arrays are not updated. */
int cs_sleep_trees(const cs_model *m, cs_data *d);
/* a sleeping tree's qacc kept through the constraint stage: restore 0 saves it into
 * qacc_asleep, 1 puts it back */
void cs_sleep_qacc(const cs_model *m, cs_data *d, int restore);
/* a row set's state: 1 when the rows of dof i / joint j / tendon t / equality e are left
 * out because what they act on sleeps */
int cs_tendon_asleep(const cs_model *m, const cs_data *d, int t);
int cs_equality_asleep(const cs_model *m, const cs_data *d, int e);
/* 1 when sensor i is left as it is because what it reads sleeps (MuJoCo's sensor state:
 * user, rangefinder and site-volume contact sensors never sleep) */
int cs_sensor_asleep(const cs_model *m, const cs_data *d, int i);

#endif
