#include "cloader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// Makes `message`, with `text` where its `%s` is, the library's error. Not a printf format, so that
// nothing but that one mark is read from it.
static void fail(cloader_library *library, const char *message, const char *text) {
    const char *mark = strstr(message, "%s");
    if (mark == NULL) {
        snprintf(library->message, sizeof library->message, "%s", message);
    } else {
        snprintf(library->message, sizeof library->message, "%.*s%s%s", (int)(mark - message), message, text,
                 mark + 2);
    }
    library->error = library->message;
}

const char *cloader_load(cloader_library *library, void (*load)(void)) {
    pthread_once(&library->once, load);
    return library->error;
}

int cloader_open(cloader_library *library) {
    library->handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) {
        fail(library, library->cannot_open, dlerror());
        return 0;
    }
    return 1;
}

void *cloader_find(cloader_library *library, const char *name) {
    void *function = dlsym(library->handle, name);
    if (function == NULL && library->error == NULL) fail(library, library->missing, name);
    return function;
}
