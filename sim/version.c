#include "conesim.h"

const char *cs_version(void) { return "0.1.0"; }
