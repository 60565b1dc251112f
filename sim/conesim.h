/* conesim's public API: what the CLI, the viewer and the tests use. */
#ifndef CONESIM_H
#define CONESIM_H

const char *cs_version(void);

#endif
