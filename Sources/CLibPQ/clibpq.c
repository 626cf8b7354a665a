#include "clibpq.h"

#include <cloader.h>

// The functions of the libpq that cpq_load() opened.
static struct {
    PGconn *(*PQconnectdb)(const char *conninfo);
    void (*PQfinish)(PGconn *conn);
    ConnStatusType (*PQstatus)(const PGconn *conn);
    char *(*PQerrorMessage)(const PGconn *conn);
    int (*PQserverVersion)(const PGconn *conn);
    int (*PQsocket)(const PGconn *conn);
    int (*PQconnectionNeedsPassword)(const PGconn *conn);
    PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    PGresult *(*PQexecParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                              const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                              int resultFormat);
    PGresult *(*PQprepare)(PGconn *conn, const char *stmtName, const char *query, int nParams,
                           const Oid *paramTypes);
    PGresult *(*PQexecPrepared)(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                                const int *paramLengths, const int *paramFormats, int resultFormat);
    ExecStatusType (*PQresultStatus)(const PGresult *res);
    char *(*PQresultErrorMessage)(const PGresult *res);
    char *(*PQresultErrorField)(const PGresult *res, int fieldcode);
    int (*PQntuples)(const PGresult *res);
    int (*PQnfields)(const PGresult *res);
    char *(*PQfname)(const PGresult *res, int field_num);
    char *(*PQgetvalue)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetisnull)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetlength)(const PGresult *res, int tup_num, int field_num);
    char *(*PQcmdTuples)(PGresult *res);
    char *(*PQcmdStatus)(PGresult *res);
    void (*PQclear)(PGresult *res);
    int (*PQputCopyData)(PGconn *conn, const char *buffer, int nbytes);
    int (*PQputCopyEnd)(PGconn *conn, const char *errormsg);
    PGresult *(*PQgetResult)(PGconn *conn);
    int (*PQconsumeInput)(PGconn *conn);
    PGnotify *(*PQnotifies)(PGconn *conn);
    void (*PQfreemem)(void *ptr);
} api;

static cloader_library libpq = {
    .file = "libpq.so.5",
    .cannot_open = "cannot load libpq (install libpq5): %s",
    .missing = "libpq has no %s (quakes needs libpq 10 or later)",
    .once = PTHREAD_ONCE_INIT,
};

// POSIX lets a function pointer be converted from dlsym's void pointer this way.
#define FIND(field) (*(void **)&api.field = cloader_find(&libpq, #field))

static void load(void) {
    if (!cloader_open(&libpq)) return;
    FIND(PQconnectdb);
    FIND(PQfinish);
    FIND(PQstatus);
    FIND(PQerrorMessage);
    FIND(PQserverVersion);
    FIND(PQsocket);
    FIND(PQconnectionNeedsPassword);
    FIND(PQsetNoticeProcessor);
    FIND(PQexecParams);
    FIND(PQprepare);
    FIND(PQexecPrepared);
    FIND(PQresultStatus);
    FIND(PQresultErrorMessage);
    FIND(PQresultErrorField);
    FIND(PQntuples);
    FIND(PQnfields);
    FIND(PQfname);
    FIND(PQgetvalue);
    FIND(PQgetisnull);
    FIND(PQgetlength);
    FIND(PQcmdTuples);
    FIND(PQcmdStatus);
    FIND(PQclear);
    FIND(PQputCopyData);
    FIND(PQputCopyEnd);
    FIND(PQgetResult);
    FIND(PQconsumeInput);
    FIND(PQnotifies);
    FIND(PQfreemem);
}

const char *cpq_load(void) { return cloader_load(&libpq, load); }

PGconn *cpq_PQconnectdb(const char *conninfo) { return api.PQconnectdb(conninfo); }
void cpq_PQfinish(PGconn *conn) { api.PQfinish(conn); }
ConnStatusType cpq_PQstatus(const PGconn *conn) { return api.PQstatus(conn); }
char *cpq_PQerrorMessage(const PGconn *conn) { return api.PQerrorMessage(conn); }
int cpq_PQserverVersion(const PGconn *conn) { return api.PQserverVersion(conn); }
int cpq_PQsocket(const PGconn *conn) { return api.PQsocket(conn); }
int cpq_PQconnectionNeedsPassword(const PGconn *conn) { return api.PQconnectionNeedsPassword(conn); }

PQnoticeProcessor cpq_PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return api.PQsetNoticeProcessor(conn, proc, arg);
}

PGresult *cpq_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                           const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                           int resultFormat) {
    return api.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                            resultFormat);
}

PGresult *cpq_PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) {
    return api.PQprepare(conn, stmtName, query, nParams, paramTypes);
}

PGresult *cpq_PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                             const int *paramLengths, const int *paramFormats, int resultFormat) {
    return api.PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat);
}

ExecStatusType cpq_PQresultStatus(const PGresult *res) { return api.PQresultStatus(res); }
char *cpq_PQresultErrorMessage(const PGresult *res) { return api.PQresultErrorMessage(res); }
char *cpq_PQresultErrorField(const PGresult *res, int fieldcode) { return api.PQresultErrorField(res, fieldcode); }
int cpq_PQntuples(const PGresult *res) { return api.PQntuples(res); }
int cpq_PQnfields(const PGresult *res) { return api.PQnfields(res); }
char *cpq_PQfname(const PGresult *res, int field_num) { return api.PQfname(res, field_num); }

char *cpq_PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return api.PQgetvalue(res, tup_num, field_num);
}

int cpq_PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return api.PQgetisnull(res, tup_num, field_num);
}

int cpq_PQgetlength(const PGresult *res, int tup_num, int field_num) {
    return api.PQgetlength(res, tup_num, field_num);
}

char *cpq_PQcmdTuples(PGresult *res) { return api.PQcmdTuples(res); }
char *cpq_PQcmdStatus(PGresult *res) { return api.PQcmdStatus(res); }
void cpq_PQclear(PGresult *res) { api.PQclear(res); }

int cpq_PQputCopyData(PGconn *conn, const char *buffer, int nbytes) {
    return api.PQputCopyData(conn, buffer, nbytes);
}

int cpq_PQputCopyEnd(PGconn *conn, const char *errormsg) { return api.PQputCopyEnd(conn, errormsg); }
PGresult *cpq_PQgetResult(PGconn *conn) { return api.PQgetResult(conn); }
int cpq_PQconsumeInput(PGconn *conn) { return api.PQconsumeInput(conn); }
PGnotify *cpq_PQnotifies(PGconn *conn) { return api.PQnotifies(conn); }
void cpq_PQfreemem(void *ptr) { api.PQfreemem(ptr); }
