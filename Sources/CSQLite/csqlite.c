#include "csqlite.h"

#include <cloader.h>

// The functions of the libsqlite3 that csqlite_load() opened, typed as sqlite3.h declares them.
static struct {
    __typeof__(&sqlite3_open_v2) open_v2;
    __typeof__(&sqlite3_close) close;
    __typeof__(&sqlite3_close_v2) close_v2;
    __typeof__(&sqlite3_busy_timeout) busy_timeout;
    __typeof__(&sqlite3_exec) exec;
    __typeof__(&sqlite3_errmsg) errmsg;
    __typeof__(&sqlite3_errstr) errstr;
    __typeof__(&sqlite3_extended_errcode) extended_errcode;
    __typeof__(&sqlite3_system_errno) system_errno;
    __typeof__(&sqlite3_get_autocommit) get_autocommit;
    __typeof__(&sqlite3_changes64) changes64;
    __typeof__(&sqlite3_file_control) file_control;
    __typeof__(&sqlite3_free) free;
    __typeof__(&sqlite3_prepare_v3) prepare_v3;
    __typeof__(&sqlite3_db_handle) db_handle;
    __typeof__(&sqlite3_step) step;
    __typeof__(&sqlite3_reset) reset;
    __typeof__(&sqlite3_clear_bindings) clear_bindings;
    __typeof__(&sqlite3_finalize) finalize;
    __typeof__(&sqlite3_bind_null) bind_null;
    __typeof__(&sqlite3_bind_int64) bind_int64;
    __typeof__(&sqlite3_bind_double) bind_double;
    __typeof__(&sqlite3_bind_text64) bind_text64;
    __typeof__(&sqlite3_column_count) column_count;
    __typeof__(&sqlite3_column_name) column_name;
    __typeof__(&sqlite3_column_type) column_type;
    __typeof__(&sqlite3_column_int64) column_int64;
    __typeof__(&sqlite3_column_double) column_double;
    __typeof__(&sqlite3_column_text) column_text;
    __typeof__(&sqlite3_column_bytes) column_bytes;
    __typeof__(&sqlite3_create_function_v2) create_function_v2;
    __typeof__(&sqlite3_create_collation_v2) create_collation_v2;
    __typeof__(&sqlite3_user_data) user_data;
    __typeof__(&sqlite3_value_type) value_type;
    __typeof__(&sqlite3_value_int64) value_int64;
    __typeof__(&sqlite3_value_double) value_double;
    __typeof__(&sqlite3_value_text) value_text;
    __typeof__(&sqlite3_value_bytes) value_bytes;
    __typeof__(&sqlite3_result_null) result_null;
    __typeof__(&sqlite3_result_int64) result_int64;
    __typeof__(&sqlite3_result_double) result_double;
    __typeof__(&sqlite3_result_text64) result_text64;
    __typeof__(&sqlite3_config) config;
} api;

static cloader_library sqlite = {
    .file = "libsqlite3.so.0",
    .cannot_open = "cannot load SQLite (install libsqlite3-0): %s",
    .missing = "libsqlite3 has no %s (quakes needs SQLite 3.37 or later)",
    .once = PTHREAD_ONCE_INIT,
};

// POSIX lets a function pointer be converted from dlsym's void pointer this way.
#define FIND(field) (*(void **)&api.field = cloader_find(&sqlite, "sqlite3_" #field))

static void load(void) {
    if (!cloader_open(&sqlite)) return;
    FIND(open_v2);
    FIND(close);
    FIND(close_v2);
    FIND(busy_timeout);
    FIND(exec);
    FIND(errmsg);
    FIND(errstr);
    FIND(extended_errcode);
    FIND(system_errno);
    FIND(get_autocommit);
    FIND(changes64);
    FIND(file_control);
    FIND(free);
    FIND(prepare_v3);
    FIND(db_handle);
    FIND(step);
    FIND(reset);
    FIND(clear_bindings);
    FIND(finalize);
    FIND(bind_null);
    FIND(bind_int64);
    FIND(bind_double);
    FIND(bind_text64);
    FIND(column_count);
    FIND(column_name);
    FIND(column_type);
    FIND(column_int64);
    FIND(column_double);
    FIND(column_text);
    FIND(column_bytes);
    FIND(create_function_v2);
    FIND(create_collation_v2);
    FIND(user_data);
    FIND(value_type);
    FIND(value_int64);
    FIND(value_double);
    FIND(value_text);
    FIND(value_bytes);
    FIND(result_null);
    FIND(result_int64);
    FIND(result_double);
    FIND(result_text64);
    FIND(config);
    // No memory statistics: quakes never reads them, and keeping them takes a process-wide mutex
    // around every allocation SQLite makes, even on a connection opened SQLITE_OPEN_NOMUTEX. Only
    // possible before SQLite initialises: should another library of the process have initialised
    // it already, the call fails harmlessly.
    if (api.config) api.config(SQLITE_CONFIG_MEMSTATUS, 0);
}

const char *csqlite_load(void) { return cloader_load(&sqlite, load); }

int csqlite_open_v2(const char *a0, sqlite3 **a1, int a2, const char *a3) { return api.open_v2(a0, a1, a2, a3); }
int csqlite_close(sqlite3 *a0) { return api.close(a0); }
int csqlite_close_v2(sqlite3 *a0) { return api.close_v2(a0); }
int csqlite_busy_timeout(sqlite3 *a0, int a1) { return api.busy_timeout(a0, a1); }
int csqlite_exec(sqlite3 *a0, const char *a1, int (*a2)(void*,int,char**,char**), void *a3, char **a4) { return api.exec(a0, a1, a2, a3, a4); }
const char *csqlite_errmsg(sqlite3 *a0) { return api.errmsg(a0); }
const char *csqlite_errstr(int a0) { return api.errstr(a0); }
int csqlite_extended_errcode(sqlite3 *a0) { return api.extended_errcode(a0); }
int csqlite_system_errno(sqlite3 *a0) { return api.system_errno(a0); }
int csqlite_get_autocommit(sqlite3 *a0) { return api.get_autocommit(a0); }
sqlite3_int64 csqlite_changes64(sqlite3 *a0) { return api.changes64(a0); }
int csqlite_file_control(sqlite3 *a0, const char *a1, int a2, void *a3) { return api.file_control(a0, a1, a2, a3); }
void csqlite_free(void *a0) { api.free(a0); }
int csqlite_prepare_v3(sqlite3 *a0, const char *a1, int a2, unsigned int a3, sqlite3_stmt **a4, const char **a5) { return api.prepare_v3(a0, a1, a2, a3, a4, a5); }
sqlite3 *csqlite_db_handle(sqlite3_stmt *a0) { return api.db_handle(a0); }
int csqlite_step(sqlite3_stmt *a0) { return api.step(a0); }
int csqlite_reset(sqlite3_stmt *a0) { return api.reset(a0); }
int csqlite_clear_bindings(sqlite3_stmt *a0) { return api.clear_bindings(a0); }
int csqlite_finalize(sqlite3_stmt *a0) { return api.finalize(a0); }
int csqlite_bind_null(sqlite3_stmt *a0, int a1) { return api.bind_null(a0, a1); }
int csqlite_bind_int64(sqlite3_stmt *a0, int a1, sqlite3_int64 a2) { return api.bind_int64(a0, a1, a2); }
int csqlite_bind_double(sqlite3_stmt *a0, int a1, double a2) { return api.bind_double(a0, a1, a2); }
int csqlite_bind_text64(sqlite3_stmt *a0, int a1, const char *a2, sqlite3_uint64 a3, void(*a4)(void*), unsigned char a5) { return api.bind_text64(a0, a1, a2, a3, a4, a5); }
int csqlite_column_count(sqlite3_stmt *a0) { return api.column_count(a0); }
const char *csqlite_column_name(sqlite3_stmt *a0, int a1) { return api.column_name(a0, a1); }
int csqlite_column_type(sqlite3_stmt *a0, int a1) { return api.column_type(a0, a1); }
sqlite3_int64 csqlite_column_int64(sqlite3_stmt *a0, int a1) { return api.column_int64(a0, a1); }
double csqlite_column_double(sqlite3_stmt *a0, int a1) { return api.column_double(a0, a1); }
const unsigned char *csqlite_column_text(sqlite3_stmt *a0, int a1) { return api.column_text(a0, a1); }
int csqlite_column_bytes(sqlite3_stmt *a0, int a1) { return api.column_bytes(a0, a1); }
int csqlite_create_function_v2(sqlite3 *a0, const char *a1, int a2, int a3, void *a4, void (*a5)(sqlite3_context*,int,sqlite3_value**), void (*a6)(sqlite3_context*,int,sqlite3_value**), void (*a7)(sqlite3_context*), void(*a8)(void*)) { return api.create_function_v2(a0, a1, a2, a3, a4, a5, a6, a7, a8); }
int csqlite_create_collation_v2(sqlite3 *a0, const char *a1, int a2, void *a3, int(*a4)(void*,int,const void*,int,const void*), void(*a5)(void*)) { return api.create_collation_v2(a0, a1, a2, a3, a4, a5); }
void *csqlite_user_data(sqlite3_context *a0) { return api.user_data(a0); }
int csqlite_value_type(sqlite3_value *a0) { return api.value_type(a0); }
sqlite3_int64 csqlite_value_int64(sqlite3_value *a0) { return api.value_int64(a0); }
double csqlite_value_double(sqlite3_value *a0) { return api.value_double(a0); }
const unsigned char *csqlite_value_text(sqlite3_value *a0) { return api.value_text(a0); }
int csqlite_value_bytes(sqlite3_value *a0) { return api.value_bytes(a0); }
void csqlite_result_null(sqlite3_context *a0) { api.result_null(a0); }
void csqlite_result_int64(sqlite3_context *a0, sqlite3_int64 a1) { api.result_int64(a0, a1); }
void csqlite_result_double(sqlite3_context *a0, double a1) { api.result_double(a0, a1); }
void csqlite_result_text64(sqlite3_context *a0, const char *a1, sqlite3_uint64 a2, void(*a3)(void*), unsigned char a4) { api.result_text64(a0, a1, a2, a3, a4); }
