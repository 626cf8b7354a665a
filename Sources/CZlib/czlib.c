#include "czlib.h"

#include <cloader.h>

// The functions of the zlib that czlib_load() opened.
static struct {
    const char *(*version)(void);
    int (*inflate_init2)(z_stream *stream, int window_bits, const char *version, int stream_size);
    int (*inflate)(z_stream *stream, int flush);
    int (*inflate_reset)(z_stream *stream);
    int (*inflate_end)(z_stream *stream);
} api;

static cloader_library zlib = {
    .file = "libz.so.1",
    .cannot_open = "cannot load zlib (install zlib1g): %s",
    .missing = "zlib has no %s",
    .once = PTHREAD_ONCE_INIT,
};

static void load(void) {
    if (!cloader_open(&zlib)) return;
    // POSIX lets a function pointer be converted from dlsym's void pointer this way.
    *(void **)&api.version = cloader_find(&zlib, "zlibVersion");
    *(void **)&api.inflate_init2 = cloader_find(&zlib, "inflateInit2_");
    *(void **)&api.inflate = cloader_find(&zlib, "inflate");
    *(void **)&api.inflate_reset = cloader_find(&zlib, "inflateReset");
    *(void **)&api.inflate_end = cloader_find(&zlib, "inflateEnd");
}

const char *czlib_load(void) { return cloader_load(&zlib, load); }

int czlib_inflate_init(z_stream *stream) {
    // What the inflateInit2 macro expands to, with the library's own version string.
    return api.inflate_init2(stream, 16 + MAX_WBITS, ZLIB_VERSION, (int)sizeof(z_stream));
}

int czlib_inflate(z_stream *stream, int flush) { return api.inflate(stream, flush); }

int czlib_inflate_reset(z_stream *stream) { return api.inflate_reset(stream); }

int czlib_inflate_end(z_stream *stream) { return api.inflate_end(stream); }
