#ifndef QUAKES_CSQLITE_SHIM_H
#define QUAKES_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_STATIC and SQLITE_TRANSIENT are casts of 0 and -1 to a function pointer, which Swift cannot
// import as constants. These functions hand them over as values of the destructor type.

/// The bound memory stays valid and unchanged until the parameter is rebound or the statement reset.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// SQLite copies the bound memory before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
