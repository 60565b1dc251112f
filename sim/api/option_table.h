/* sim-internal: every member of cs_option described once. cs_option_set (text),
 * cs_set / cs_get (numbers, `--set option.NAME`), cs_option_field (the bindings' table) and
 * the tests that walk it are all made from CS_OPTION_FIELDS; a new member of cs_option is a
 * new line here (docs/style.md), and the build checks the line's type and count against
 * the struct. */
#ifndef CS_OPTION_TABLE_H
#define CS_OPTION_TABLE_H

#include <stddef.h>

#include "conesim.h"

/* how values are checked (as the loader checks the MJCF attribute) */
typedef enum {
    CS_OPT_ANY = 0,      /* any finite number */
    CS_OPT_POSITIVE = 1, /* > 0 */
    CS_OPT_NONNEG = 2,   /* >= 0 */
    CS_OPT_COUNT = 3,    /* an integer >= 0 */
    CS_OPT_BOOL = 4,     /* 0 or 1 */
    CS_OPT_KEYWORD = 5,  /* a word of the list (any case), or its position in it (MuJoCo's
                            numbering) */
    CS_OPT_BITS = 6      /* flag bits: an integer in [0, 2^31) */
} cs_option_check;

/* where a member comes from: an attribute of MJCF's <option> of the same name, or conesim's
 * own (no attribute: --set, cs_set, <custom> text, <flag> for the flag words) */
enum { CS_OPT_OWN = 0, CS_OPT_MJCF = 1 };

/* X(member, C type, values, check, keywords, origin): keywords "a|b|c" for CS_OPT_KEYWORD
 * ("!a": a code that is refused), else NULL. The order is cs_option_field's. */
#define CS_OPTION_FIELDS(X) \
    X(timestep, double, 1, CS_OPT_POSITIVE, NULL, CS_OPT_MJCF) \
    X(gravity, double, 3, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(cone, int, 1, CS_OPT_KEYWORD, "pyramidal|elliptic", CS_OPT_MJCF) \
    X(solver, int, 1, CS_OPT_KEYWORD, "PGS|CG|Newton", CS_OPT_MJCF) \
    X(iterations, int, 1, CS_OPT_COUNT, NULL, CS_OPT_MJCF) \
    X(tolerance, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(ls_iterations, int, 1, CS_OPT_COUNT, NULL, CS_OPT_MJCF) \
    X(ls_tolerance, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(noslip_iterations, int, 1, CS_OPT_COUNT, NULL, CS_OPT_MJCF) \
    X(noslip_tolerance, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(impratio, double, 1, CS_OPT_POSITIVE, NULL, CS_OPT_MJCF) \
    X(o_margin, double, 1, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(o_solref, double, 2, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(o_solimp, double, 5, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(o_friction, double, 5, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(pgs_blocks, int, 1, CS_OPT_KEYWORD, "contact|pair", CS_OPT_OWN) \
    X(pgs_finish, int, 1, CS_OPT_COUNT, NULL, CS_OPT_OWN) \
    X(eq_jdotv, int, 1, CS_OPT_BOOL, NULL, CS_OPT_OWN) \
    X(newton_early, int, 1, CS_OPT_BOOL, NULL, CS_OPT_OWN) \
    X(threads, int, 1, CS_OPT_COUNT, NULL, CS_OPT_OWN) \
    X(contact, int, 1, CS_OPT_KEYWORD, "soft|coulomb", CS_OPT_OWN) \
    X(coulomb_solver, int, 1, CS_OPT_KEYWORD, "auto|nsgs|newton", CS_OPT_OWN) \
    X(disableflags, int, 1, CS_OPT_BITS, NULL, CS_OPT_OWN) \
    X(enableflags, int, 1, CS_OPT_BITS, NULL, CS_OPT_OWN) \
    X(integrator, int, 1, CS_OPT_KEYWORD, "Euler|RK4|implicit|implicitfast", CS_OPT_MJCF) \
    X(viscosity, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(wind, double, 3, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(density, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(magnetic, double, 3, CS_OPT_ANY, NULL, CS_OPT_MJCF) \
    X(disableactuator, int, 1, CS_OPT_BITS, NULL, CS_OPT_OWN) \
    X(ccd_iterations, int, 1, CS_OPT_COUNT, NULL, CS_OPT_MJCF) \
    X(ccd_tolerance, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(sleep_tolerance, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_MJCF) \
    X(meaninertia, double, 1, CS_OPT_NONNEG, NULL, CS_OPT_OWN)

#define CS_OPTION_MAXN 5 /* the most values of one member */

typedef struct {
    const char *name;
    int type;            /* cs_field_type */
    int n;               /* values */
    int check;           /* cs_option_check */
    const char *words;   /* CS_OPT_KEYWORD's "a|b|c" */
    int mjcf;            /* CS_OPT_MJCF: an <option> attribute */
    size_t off;          /* in cs_option */
} cs_option_def;

extern const cs_option_def cs_option_defs[];
extern const int cs_option_ndefs;

/* the member named key (an older name too: pgs_polish), or NULL */
const cs_option_def *cs_option_find(const char *key);
/* its values as doubles (e->n of them) */
void cs_option_get(const cs_option *o, const cs_option_def *e, double *v);
/* all e->n values, checked before any is written: 0, or -1 with why ("must be positive")
 * and the options unchanged */
int cs_option_put(cs_option *o, const cs_option_def *e, const double *v, char *why,
                  size_t whysz);

#endif
