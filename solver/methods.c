/* The method table: per cs_solve_method, the method that runs and the one that finishes
 * from its point when it asks (the driver composes them; no method calls another). A new
 * method is one file with its cs_method, one value in cs_solve_method and one row here. */
#include "solver_internal.h"

#include <stddef.h>

const cs_plan cs_plans[CS_METHOD_COUNT] = {
    [CS_METHOD_PGS] = {&cs_method_pgs, &cs_method_newton, NULL},
    [CS_METHOD_NEWTON] = {&cs_method_newton, NULL, NULL},
    [CS_METHOD_COULOMB] = {&cs_method_coulomb_newton, &cs_method_coulomb, &cs_method_newton},
    [CS_METHOD_CG] = {&cs_method_cg, NULL, NULL},
};
