#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

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

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static const char *load_error;
static char message[512];

// Looks a function up, remembering the first one missing.
static void *find(void *library, const char *name) {
    void *function = dlsym(library, name);
    if (function == NULL && load_error == NULL) {
        snprintf(message, sizeof message, "libcurl has no %s (curl_easy_header needs libcurl 7.84 or later)", name);
        load_error = message;
    }
    return function;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(message, sizeof message, "cannot load libcurl (install libcurl4): %s", dlerror());
        load_error = message;
        return;
    }
    // POSIX lets a function pointer be converted from dlsym's void pointer this way.
    *(void **)&api.global_init = find(library, "curl_global_init");
    *(void **)&api.easy_init = find(library, "curl_easy_init");
    *(void **)&api.easy_cleanup = find(library, "curl_easy_cleanup");
    *(void **)&api.easy_perform = find(library, "curl_easy_perform");
    *(void **)&api.easy_strerror = find(library, "curl_easy_strerror");
    *(void **)&api.slist_append = find(library, "curl_slist_append");
    *(void **)&api.slist_free_all = find(library, "curl_slist_free_all");
    *(void **)&api.easy_header = find(library, "curl_easy_header");
    *(void **)&api.easy_setopt = find(library, "curl_easy_setopt");
    *(void **)&api.easy_getinfo = find(library, "curl_easy_getinfo");
    if (load_error == NULL && api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_error = "libcurl could not initialise";
    }
}

const char *ccurl_load(void) {
    pthread_once(&loaded, load);
    return load_error;
}

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
