/* sim-internal: the kinematic trees as the constraint rows and the solver see them. A row
 * block has at most two sides, each one contiguous dof range. A limited tendon, a tendon
 * with dry friction or a tendon equality that moves more than two trees makes rows over all
 * of them: those trees, and the trees between them in dof order, are joined into one
 * solver tree (a forest under one dof range; M stays block-diagonal inside it). Without
 * such rows every solver tree is a model tree. */
#ifndef CS_ROWTREES_H
#define CS_ROWTREES_H

#include "conesim.h"

typedef struct cs_rowtrees {
    int n;        /* solver trees */
    int *of_tree; /* ntree: each model tree's solver tree */
    int *dofadr, *dofnum; /* n: their dof ranges */
    int *treeadr;  /* n: each one's first model tree (its model trees are consecutive) */
    int *of_dof;  /* nv: each dof's solver tree */
} cs_rowtrees;

/* the tree a tendon's wrap object moves with, -1 for none (a pulley, a static body) */
int cs_wrap_tree(const cs_model *m, int w);

/* Fills rt (arrays allocated here, freed by cs_rowtrees_free); 0, or -1 out of memory. */
int cs_rowtrees_make(const cs_model *m, cs_rowtrees *rt);
void cs_rowtrees_free(cs_rowtrees *rt);

#endif
