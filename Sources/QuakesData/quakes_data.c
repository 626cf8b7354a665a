#include "quakes_data.h"

// SwiftPM names a target's resource folder PACKAGE_TARGET.resources.
const char *quakes_data_build_folder(void) { return "quakes_QuakesData.resources"; }
