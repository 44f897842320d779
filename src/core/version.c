/* version.c: the version of the library linked at run time (version.h). */
#include "tak/version.h"

const char *tak_version(void) { return TAK_VERSION; }
