#ifndef QUAKES_CSQLITE_H
#define QUAKES_CSQLITE_H

// SQLite for Swift, opened on first use.
//
// libsqlite3 is not linked: csqlite_load() opens libsqlite3.so.0 with dlopen when the first
// connection is opened. Linked, it would be loaded, and its symbols bound, at the start of every
// command, a large part of what a quick command costs, which commands that never open an SQLite
// database (--version, help, every command on PostgreSQL or a GeoJSON file) would pay for nothing.
// The declarations, types and constants come from Debian's libsqlite3-dev.

#include <sqlite3.h>

/// Opens libsqlite3, once; returns NULL on success, or why it could not be done.
const char *csqlite_load(void);

// SQLITE_STATIC and SQLITE_TRANSIENT are casts of 0 and -1 to a function pointer, which Swift cannot
// import as constants. These functions hand them over as values of the destructor type.

/// The bound memory stays valid and unchanged until the parameter is rebound or the statement reset.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// SQLite copies the bound memory before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// The SQLite functions quakes uses, each the sqlite3_ function of the same name, through the table
// csqlite_load() fills. Call them only after csqlite_load() has returned NULL.
int csqlite_open_v2(const char *a0, sqlite3 **a1, int a2, const char *a3);
int csqlite_close(sqlite3 *a0);
int csqlite_close_v2(sqlite3 *a0);
int csqlite_busy_timeout(sqlite3 *a0, int a1);
int csqlite_exec(sqlite3 *a0, const char *a1, int (*a2)(void*,int,char**,char**), void *a3, char **a4);
const char *csqlite_errmsg(sqlite3 *a0);
const char *csqlite_errstr(int a0);
int csqlite_extended_errcode(sqlite3 *a0);
int csqlite_system_errno(sqlite3 *a0);
int csqlite_get_autocommit(sqlite3 *a0);
sqlite3_int64 csqlite_changes64(sqlite3 *a0);
int csqlite_file_control(sqlite3 *a0, const char *a1, int a2, void *a3);
void csqlite_free(void *a0);
int csqlite_prepare_v3(sqlite3 *a0, const char *a1, int a2, unsigned int a3, sqlite3_stmt **a4, const char **a5);
sqlite3 *csqlite_db_handle(sqlite3_stmt *a0);
int csqlite_step(sqlite3_stmt *a0);
int csqlite_reset(sqlite3_stmt *a0);
int csqlite_clear_bindings(sqlite3_stmt *a0);
int csqlite_finalize(sqlite3_stmt *a0);
int csqlite_bind_null(sqlite3_stmt *a0, int a1);
int csqlite_bind_int64(sqlite3_stmt *a0, int a1, sqlite3_int64 a2);
int csqlite_bind_double(sqlite3_stmt *a0, int a1, double a2);
int csqlite_bind_text64(sqlite3_stmt *a0, int a1, const char *a2, sqlite3_uint64 a3, void(*a4)(void*), unsigned char a5);
int csqlite_column_count(sqlite3_stmt *a0);
const char *csqlite_column_name(sqlite3_stmt *a0, int a1);
int csqlite_column_type(sqlite3_stmt *a0, int a1);
sqlite3_int64 csqlite_column_int64(sqlite3_stmt *a0, int a1);
double csqlite_column_double(sqlite3_stmt *a0, int a1);
const unsigned char *csqlite_column_text(sqlite3_stmt *a0, int a1);
int csqlite_column_bytes(sqlite3_stmt *a0, int a1);
int csqlite_create_function_v2(sqlite3 *a0, const char *a1, int a2, int a3, void *a4, void (*a5)(sqlite3_context*,int,sqlite3_value**), void (*a6)(sqlite3_context*,int,sqlite3_value**), void (*a7)(sqlite3_context*), void(*a8)(void*));
int csqlite_create_collation_v2(sqlite3 *a0, const char *a1, int a2, void *a3, int(*a4)(void*,int,const void*,int,const void*), void(*a5)(void*));
void *csqlite_user_data(sqlite3_context *a0);
int csqlite_value_type(sqlite3_value *a0);
sqlite3_int64 csqlite_value_int64(sqlite3_value *a0);
double csqlite_value_double(sqlite3_value *a0);
const unsigned char *csqlite_value_text(sqlite3_value *a0);
int csqlite_value_bytes(sqlite3_value *a0);
void csqlite_result_null(sqlite3_context *a0);
void csqlite_result_int64(sqlite3_context *a0, sqlite3_int64 a1);
void csqlite_result_double(sqlite3_context *a0, double a1);
void csqlite_result_text64(sqlite3_context *a0, const char *a1, sqlite3_uint64 a2, void(*a3)(void*), unsigned char a4);

#endif
