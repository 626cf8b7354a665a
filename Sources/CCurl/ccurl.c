#include "ccurl.h"

#include <cloader.h>

// The functions of the libcurl that ccurl_load() opened.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLHcode (*easy_header)(CURL *handle, const char *name, size_t index, unsigned int origin, int request,
                             struct curl_header **header);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
} api;

static cloader_library curl = {
    .file = "libcurl.so.4",
    .cannot_open = "cannot load libcurl (install libcurl4): %s",
    .missing = "libcurl has no %s (curl_easy_header needs libcurl 7.84 or later)",
    .once = PTHREAD_ONCE_INIT,
};

// POSIX lets a function pointer be converted from dlsym's void pointer this way.
#define FIND(field) (*(void **)&api.field = cloader_find(&curl, "curl_" #field))

static void load(void) {
    if (!cloader_open(&curl)) return;
    FIND(global_init);
    FIND(easy_init);
    FIND(easy_cleanup);
    FIND(easy_perform);
    FIND(easy_strerror);
    FIND(slist_append);
    FIND(slist_free_all);
    FIND(easy_header);
    FIND(easy_setopt);
    FIND(easy_getinfo);
    if (curl.error == NULL && api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        curl.error = "libcurl could not initialise";
    }
}

const char *ccurl_load(void) { return cloader_load(&curl, load); }

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text) {
    return api.slist_append(list, text);
}

void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLHcode ccurl_easy_header(CURL *handle, const char *name, size_t index, unsigned int origin, int request,
                            struct curl_header **header) {
    return api.easy_header(handle, name, index, origin, request, header);
}

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_write_callback(CURL *handle, CURLoption option, ccurl_write_callback value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_progress_callback(CURL *handle, ccurl_progress_callback value) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return api.easy_getinfo(handle, info, value);
}

size_t ccurl_write_error(void) { return CURL_WRITEFUNC_ERROR; }
