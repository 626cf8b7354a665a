#ifndef QUAKES_CLOADER_H
#define QUAKES_CLOADER_H

// The loader the C shims share (CCurl, CZlib, CSQLite, CLibPQ, CCairo).
//
// quakes links none of those libraries: a linked library is loaded, with its own dependencies, and
// its symbols bound, at the start of every command, and most commands need few of them (a count
// of an SQLite database needs neither libcurl, nor libpq, nor cairo). Each shim instead opens its
// library with dlopen the first time a command needs it, once for the process, and looks up the
// functions it wraps:
//
//     static cloader_library zlib = {
//         .file = "libz.so.1",
//         .cannot_open = "cannot load zlib (install zlib1g): %s",
//         .missing = "zlib has no %s",
//         .once = PTHREAD_ONCE_INIT,
//     };
//     static void load(void) {
//         if (!cloader_open(&zlib)) return;
//         *(void **)&api.inflate = cloader_find(&zlib, "inflate");
//     }
//     const char *czlib_load(void) { return cloader_load(&zlib, load); }

#include <pthread.h>

/// A library a shim opens on first use: what to open and what to say when that fails, then what
/// came of it. A shim keeps one, static, for the life of the process.
typedef struct {
    /// The file dlopen opens, by its soname (`libz.so.1`).
    const char *file;
    /// The message when dlopen fails, with `%s` where dlerror()'s reason goes (the one mark read).
    const char *cannot_open;
    /// The message when a function is missing, with `%s` where its name goes.
    const char *missing;
    /// The handle dlopen gave, for a shim's own optional look-ups; NULL until opened.
    void *handle;
    /// NULL, or why the library cannot be used: `message`, or a constant a shim sets.
    const char *error;
    /// The text `error` points at when the loader wrote it.
    char message[512];
    /// Makes the shim's load function run once: PTHREAD_ONCE_INIT.
    pthread_once_t once;
} cloader_library;

/// Runs `load` once for the process (pthread_once), however many threads call; returns
/// `library->error`: NULL when the library and every function looked up were found.
const char *cloader_load(cloader_library *library, void (*load)(void));

/// Opens `library->file` (RTLD_NOW | RTLD_LOCAL: every symbol bound now, none visible to other
/// libraries); returns 0, with `error` set from `cannot_open`, when that fails. For `load` only.
int cloader_open(cloader_library *library);

/// The function `name` of the opened library (dlsym), or NULL, in which case `error` is set from
/// `missing` if it was not set already, so that the first missing function is the one named.
/// For `load` only.
void *cloader_find(cloader_library *library, const char *name);

#endif
