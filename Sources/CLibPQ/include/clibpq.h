#ifndef QUAKES_CLIBPQ_H
#define QUAKES_CLIBPQ_H

// libpq for Swift, opened on first use.
//
// libpq is not linked: cpq_load() opens libpq.so.5 with dlopen the first time a PostgreSQL
// connection is made. Linking it would load libpq and its own dependencies (OpenSSL, Kerberos,
// LDAP...) at the start of every command, and the commands that work on SQLite, which is most of
// them, would pay for a library they never call. The declarations come from Debian's libpq-dev
// headers, which live in /usr/include/postgresql: including them as <postgresql/libpq-fe.h> finds
// them on the default include path, and libpq-fe.h's own "postgres_ext.h" is then found beside it.

#include <postgresql/libpq-fe.h>

/// Opens libpq, once; returns NULL on success, or why it could not be done.
const char *cpq_load(void);

// The libpq functions quakes uses, through the table cpq_load() fills. Call them only after
// cpq_load() has returned NULL.
PGconn *cpq_PQconnectdb(const char *conninfo);
void cpq_PQfinish(PGconn *conn);
ConnStatusType cpq_PQstatus(const PGconn *conn);
char *cpq_PQerrorMessage(const PGconn *conn);
int cpq_PQserverVersion(const PGconn *conn);
int cpq_PQsocket(const PGconn *conn);
int cpq_PQconnectionNeedsPassword(const PGconn *conn);
/// The returned processor is the one replaced; the notice processor runs on the calling thread.
PQnoticeProcessor cpq_PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg);

PGresult *cpq_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                           const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                           int resultFormat);
PGresult *cpq_PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
PGresult *cpq_PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                             const int *paramLengths, const int *paramFormats, int resultFormat);
ExecStatusType cpq_PQresultStatus(const PGresult *res);
char *cpq_PQresultErrorMessage(const PGresult *res);
char *cpq_PQresultErrorField(const PGresult *res, int fieldcode);
int cpq_PQntuples(const PGresult *res);
int cpq_PQnfields(const PGresult *res);
char *cpq_PQfname(const PGresult *res, int field_num);
char *cpq_PQgetvalue(const PGresult *res, int tup_num, int field_num);
int cpq_PQgetisnull(const PGresult *res, int tup_num, int field_num);
int cpq_PQgetlength(const PGresult *res, int tup_num, int field_num);
char *cpq_PQcmdTuples(PGresult *res);
char *cpq_PQcmdStatus(PGresult *res);
void cpq_PQclear(PGresult *res);

int cpq_PQputCopyData(PGconn *conn, const char *buffer, int nbytes);
/// errormsg NULL ends the COPY normally; any other text makes the server fail it with that message.
int cpq_PQputCopyEnd(PGconn *conn, const char *errormsg);
PGresult *cpq_PQgetResult(PGconn *conn);

int cpq_PQconsumeInput(PGconn *conn);
PGnotify *cpq_PQnotifies(PGconn *conn);
void cpq_PQfreemem(void *ptr);

#endif
