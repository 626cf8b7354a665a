#ifndef QUAKES_DATA_H
#define QUAKES_DATA_H

// The data files quakes ships (country outlines, populated places) are this target's resources.
// They are not QuakesCore's: SwiftPM gives a Swift target with resources an accessor that imports
// Foundation's whole module, which every module importing QuakesCore would then link, where a C
// target's resources are only copied, into the folder below, beside the built products.

/// The folder, beside the built products, that SwiftPM copies the data files into.
const char *quakes_data_build_folder(void);

#endif
