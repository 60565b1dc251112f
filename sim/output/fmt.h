/* Numbers for the summary CSVs (`run --summary`, `sweep`): the shortest decimal text that
 * reads back as the same double (0.3, not 0.29999999999999999). The recordings (trajectory,
 * joints, contacts, ...) keep %.17g. */
#ifndef CS_FMT_H
#define CS_FMT_H

#include <stddef.h>

/* %.15g, else %.16g, else %.17g: the first that strtod reads back exactly (not finite: as
 * %.17g prints it). Returns buf. */
char *cs_fmt_shortest(char *buf, size_t len, double v);

#endif
