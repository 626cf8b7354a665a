#ifndef QUAKES_CZLIB_H
#define QUAKES_CZLIB_H

// zlib's gzip decoder for Swift, opened on first use.
//
// Only a gzipped local file or standard input needs it (libcurl decodes the Content-Encoding of a
// download itself), so zlib is not linked: czlib_load() opens libz.so.1 with dlopen the first time,
// and the read commands never pay for it. The declarations come from Debian's zlib1g-dev headers.

#include <zlib.h>

/// Opens zlib, once; returns NULL on success, or why it could not be done.
const char *czlib_load(void);

/// Starts decoding gzip (not zlib or raw deflate) into `stream`: inflateInit2 with 16 + MAX_WBITS.
int czlib_inflate_init(z_stream *stream);
/// inflate(): decodes what `stream` holds.
int czlib_inflate(z_stream *stream, int flush);
/// inflateReset(): ready for the next member of a file made of several gzip members.
int czlib_inflate_reset(z_stream *stream);
/// inflateEnd(): frees the decoder's memory.
int czlib_inflate_end(z_stream *stream);

#endif
