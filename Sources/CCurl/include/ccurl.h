#ifndef QUAKES_CCURL_H
#define QUAKES_CCURL_H

// libcurl for Swift, opened on first use.
//
// libcurl is not linked: ccurl_load() opens libcurl.so.4 with dlopen the first time a download
// needs it. Linking it would load its whole dependency chain (GnuTLS, OpenSSL, Kerberos, LDAP,
// SSH...) at the start of every command, several times what a read command costs without it. The
// declarations come from Debian's libcurl4-openssl-dev headers.
//
// curl_easy_setopt and curl_easy_getinfo are C variadic functions, which Swift cannot call. Each
// wrapper below fixes the type of the variadic argument for one kind of option, so the compiler
// checks at the call site what libcurl would otherwise take on trust.

#include <curl/curl.h>
#include <stddef.h>

/// Opens libcurl and initialises it, once; returns NULL on success, or why it could not be done.
const char *ccurl_load(void);

/// The signature of CURLOPT_WRITEFUNCTION callbacks.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

/// The signature of CURLOPT_XFERINFOFUNCTION callbacks.
typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

// The libcurl functions quakes uses, through the table ccurl_load() fills. Call them only after
// ccurl_load() has returned NULL.
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text);
void ccurl_slist_free_all(struct curl_slist *list);
CURLHcode ccurl_easy_header(CURL *handle, const char *name, size_t index, unsigned int origin, int request,
                            struct curl_header **header);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
/// libcurl copies string options (since 7.17.0), so the Swift string need not outlive the call.
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// The list is not copied: it must stay alive until the transfer ends.
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_write_callback(CURL *handle, CURLoption option, ccurl_write_callback value);
CURLcode ccurl_setopt_progress_callback(CURL *handle, ccurl_progress_callback value);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// CURL_WRITEFUNC_ERROR is a macro that Swift does not import.
size_t ccurl_write_error(void);

#endif
