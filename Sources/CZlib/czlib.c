#include "czlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions of the zlib that czlib_load() opened.
static struct {
    const char *(*version)(void);
    int (*inflate_init2)(z_stream *stream, int window_bits, const char *version, int stream_size);
    int (*inflate)(z_stream *stream, int flush);
    int (*inflate_reset)(z_stream *stream);
    int (*inflate_end)(z_stream *stream);
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static const char *load_error;
static char message[512];

static void *find(void *library, const char *name) {
    void *function = dlsym(library, name);
    if (function == NULL && load_error == NULL) {
        snprintf(message, sizeof message, "zlib has no %s", name);
        load_error = message;
    }
    return function;
}

static void load(void) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(message, sizeof message, "cannot load zlib (install zlib1g): %s", dlerror());
        load_error = message;
        return;
    }
    // POSIX lets a function pointer be converted from dlsym's void pointer this way.
    *(void **)&api.version = find(library, "zlibVersion");
    *(void **)&api.inflate_init2 = find(library, "inflateInit2_");
    *(void **)&api.inflate = find(library, "inflate");
    *(void **)&api.inflate_reset = find(library, "inflateReset");
    *(void **)&api.inflate_end = find(library, "inflateEnd");
}

const char *czlib_load(void) {
    pthread_once(&loaded, load);
    return load_error;
}

int czlib_inflate_init(z_stream *stream) {
    // What the inflateInit2 macro expands to, with the library's own version string.
    return api.inflate_init2(stream, 16 + MAX_WBITS, ZLIB_VERSION, (int)sizeof(z_stream));
}

int czlib_inflate(z_stream *stream, int flush) { return api.inflate(stream, flush); }

int czlib_inflate_reset(z_stream *stream) { return api.inflate_reset(stream); }

int czlib_inflate_end(z_stream *stream) { return api.inflate_end(stream); }
