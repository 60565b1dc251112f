#include "conesim.h"

const char *cs_version(void) { return CS_VERSION; }
