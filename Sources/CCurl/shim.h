#ifndef QUAKES_CCURL_SHIM_H
#define QUAKES_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call.
// Each wrapper below fixes the type of the variadic argument for one kind of option, so the
// compiler checks at the call site what libcurl would otherwise take on trust.

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

/// The signature of CURLOPT_XFERINFOFUNCTION callbacks.
typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// libcurl copies string options (since 7.17.0), so the Swift string need not outlive the call.
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The list is not copied: it must stay alive until the transfer ends.
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_write_callback(CURL *handle, CURLoption option, ccurl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_progress_callback(CURL *handle, ccurl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// CURL_WRITEFUNC_PAUSE and CURL_WRITEFUNC_ERROR are macros that Swift does not import.
static inline size_t ccurl_write_error(void) { return CURL_WRITEFUNC_ERROR; }

#endif
