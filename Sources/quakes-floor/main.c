// quakes-floor: what SQLite alone allows on this machine, the floors `make bench` sets beside the
// cases they bound, so that every ratio is measured in one run.
//
//   quakes-floor ingest SOURCE NEW       copies every row of SOURCE into a new database NEW
//   quakes-floor bulk SOURCE NEW         the same, as a bulk load: multi-row INSERTs, the
//                                         secondary indexes built after the rows, a larger cache
//   quakes-floor streamed SOURCE NEW     the bulk load with every table's rows in the order a
//                                         fetch writes them
//   quakes-floor read DATABASE SQL [PARAMETER...]
//                                         steps through every row of SQL, reading every column
//
// Each prints "SECONDS ROWS" on standard output; errors go to standard error as "Error: …", with
// a nonzero exit.
//
// The ingest floor. NEW gets SOURCE's schema replayed from SOURCE's own `sqlite_schema` (so the
// schema stays written once, in Sources/SQLiteEngine/Schema.swift), its application id and schema
// version, and the store's settings (DatabaseFile.openForWriting: WAL kept on close, journal_mode
// WAL, journal_size_limit 0, synchronous NORMAL). Every row of every table is read into memory
// first, untimed; the time is that of writing them: one transaction, one prepared INSERT per
// table, each value bound in place (SQLITE_STATIC), then the close, whose WAL checkpoint a fetch
// pays too. Rows go in the order SOURCE returns them: a fetch's order for rowid tables, key order
// for WITHOUT ROWID ones, the cheapest order for their B-trees, which keeps this a floor.
//
// The bulk floor is the ingest floor with what a bulk load into an empty database can do besides:
// INSERTs of many rows each (as many as fit in 1,000 parameters, up to 64), the secondary indexes
// (`CREATE INDEX`, not those of constraints) made after the rows are in, inside the same
// transaction, and a 32 MB page cache for the load.
//
// The streamed floor is the bulk floor with the rows of every table keyed by event id (`identity`,
// `history_change`) in the order the fetch wrote their events (`quake`'s rowids), rather than in
// key order: the order a fetch that streams its feed writes them in, since sorting a million
// features first would hold them all in memory (a fetch's target peak is under 64 MB). Into
// a B-tree keyed by id, that order is random, and costs what the bulk floor does not pay.
//
// The read floor. SQL is the export's own statement, which quakes-bench takes from the reader
// (SQLiteReader.listingSQL); each PARAMETER is `int:N`, `real:X`, `text:S` or `null`, bound in
// order. It runs on a read-only connection inside one deferred transaction, as the reader does,
// and reads each column by its type; every byte of text is summed, into `sink`, so that the
// compiler can drop none of the reads.
//
// In C, and small, for the same reason as quakes-measure: its peak memory is its own.

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void fail(const char *what, sqlite3 *db) {
    fprintf(stderr, "Error: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

static sqlite3 *open_database(const char *path, int flags) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, NULL) != SQLITE_OK) {
        fprintf(stderr, "Error: %s: %s\n", path, db ? sqlite3_errmsg(db) : "cannot open");
        exit(1);
    }
    return db;
}

static void run(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) fail(sql, db);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) fail(sql, db);
    return statement;
}

static int64_t single_integer(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = prepare(db, sql);
    int64_t value = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
    sqlite3_finalize(statement);
    return value;
}

// The rows of all tables, held as one growing buffer of values: a type byte, then 8 bytes for an
// integer or a real, or a 4-byte length and the bytes for text and blobs. Far smaller than a copy
// of each sqlite3_value, which matters at a million rows.
static unsigned char *arena;
static size_t arena_used, arena_capacity;

static void *reserve(size_t count) {
    if (arena_used + count > arena_capacity) {
        arena_capacity = (arena_used + count) * 2;
        arena = realloc(arena, arena_capacity);
        if (!arena) fail("holding the rows", NULL);
    }
    void *start = arena + arena_used;
    arena_used += count;
    return start;
}

static void hold(sqlite3_stmt *row, int column) {
    int type = sqlite3_column_type(row, column);
    *(unsigned char *)reserve(1) = (unsigned char)type;
    if (type == SQLITE_INTEGER) {
        int64_t value = sqlite3_column_int64(row, column);
        memcpy(reserve(8), &value, 8);
    } else if (type == SQLITE_FLOAT) {
        double value = sqlite3_column_double(row, column);
        memcpy(reserve(8), &value, 8);
    } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void *bytes = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(row, column)
                                                : sqlite3_column_blob(row, column);
        uint32_t count = (uint32_t)sqlite3_column_bytes(row, column);
        memcpy(reserve(4), &count, 4);
        if (count) memcpy(reserve(count), bytes, count);
    }
}

// Binds one held value at `*at` to parameter `index` and moves past it.
static int bind_held(sqlite3_stmt *insert, int index, size_t *at) {
    int type = arena[(*at)++];
    int64_t integer;
    double real;
    uint32_t count;
    switch (type) {
    case SQLITE_INTEGER:
        memcpy(&integer, arena + *at, 8);
        *at += 8;
        return sqlite3_bind_int64(insert, index, integer);
    case SQLITE_FLOAT:
        memcpy(&real, arena + *at, 8);
        *at += 8;
        return sqlite3_bind_double(insert, index, real);
    case SQLITE_TEXT:
    case SQLITE_BLOB:
        memcpy(&count, arena + *at, 4);
        *at += 4;
        const void *bytes = arena + *at;
        *at += count;
        return type == SQLITE_TEXT ? sqlite3_bind_text(insert, index, bytes, (int)count, SQLITE_STATIC)
                                   : sqlite3_bind_blob(insert, index, bytes, (int)count, SQLITE_STATIC);
    default:
        return sqlite3_bind_null(insert, index);
    }
}

struct table {
    char *name;
    int columns;
    size_t rows, start;  // start: where its first held value is in the arena
};

// An INSERT of `rows` rows into `table`.
static sqlite3_stmt *insert_statement(sqlite3 *db, const struct table *table, int rows) {
    char *sql = sqlite3_mprintf("INSERT INTO \"%w\" VALUES ", table->name);
    for (int r = 0; r < rows; r++) {
        sql = sqlite3_mprintf("%z%s(?", sql, r ? ", " : "");
        for (int c = 1; c < table->columns; c++) sql = sqlite3_mprintf("%z, ?", sql);
        sql = sqlite3_mprintf("%z)", sql);
    }
    if (!sql) fail("preparing an INSERT", NULL);
    sqlite3_stmt *statement = prepare(db, sql);
    sqlite3_free(sql);
    return statement;
}

// Whether `table` of `db` has a column named `id`.
static int has_id_column(sqlite3 *db, const char *table) {
    sqlite3_stmt *columns = prepare(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = 'id'");
    sqlite3_bind_text(columns, 1, table, -1, SQLITE_STATIC);
    int found = sqlite3_step(columns) == SQLITE_ROW;
    sqlite3_finalize(columns);
    return found;
}

static int ingest(const char *source_path, const char *target_path, int bulk, int streamed) {
    // A fresh database only: replaying the schema into an existing one would alter it first.
    if (access(target_path, F_OK) == 0) {
        fprintf(stderr, "Error: %s exists; the ingest floor writes a new database\n", target_path);
        return 1;
    }
    sqlite3 *source = open_database(source_path, SQLITE_OPEN_READONLY);
    sqlite3 *target = open_database(target_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);

    // The store's settings, in its order (DatabaseFile.openForWriting).
    int persist = 1;
    sqlite3_file_control(target, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    run(target, "PRAGMA journal_mode = WAL; PRAGMA journal_size_limit = 0; PRAGMA synchronous = NORMAL");
    if (bulk) run(target, "PRAGMA cache_size = -32768");

    // SOURCE's schema, in the order it was made (a view after its tables); SQLite's own objects
    // (sqlite_sequence, the indexes of constraints) come with the statements that make them.
    char header[128];
    run(target, "BEGIN IMMEDIATE");
    sqlite3_stmt *schema = prepare(
        source, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL "
                "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid");
    struct table *tables = NULL;
    int table_count = 0;
    char *deferred = NULL;  // The bulk load's secondary indexes, made after its rows.
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(schema, 0);
        const char *sql = (const char *)sqlite3_column_text(schema, 2);
        if (bulk && strcmp(type, "index") == 0) {
            deferred = sqlite3_mprintf("%z%s;", deferred, sql);
            if (!deferred) fail("holding the indexes", NULL);
            continue;
        }
        run(target, sql);
        if (strcmp(type, "table") != 0) continue;
        tables = realloc(tables, sizeof *tables * (size_t)(table_count + 1));
        if (!tables) fail("holding the tables", NULL);
        tables[table_count++] = (struct table){.name = strdup((const char *)sqlite3_column_text(schema, 1))};
    }
    sqlite3_finalize(schema);
    snprintf(header, sizeof header, "PRAGMA application_id = %lld; PRAGMA user_version = %lld",
             (long long)single_integer(source, "PRAGMA application_id"),
             (long long)single_integer(source, "PRAGMA user_version"));
    run(target, header);
    run(target, "COMMIT");

    // Every row into memory, untimed.
    size_t total = 0;
    for (int t = 0; t < table_count; t++) {
        char *sql = streamed && strcmp(tables[t].name, "quake") != 0 && has_id_column(source, tables[t].name)
                        ? sqlite3_mprintf("SELECT t.* FROM \"%w\" AS t ORDER BY "
                                          "(SELECT rowid FROM quake WHERE quake.id = t.id), t.id",
                                          tables[t].name)
                        : sqlite3_mprintf("SELECT * FROM \"%w\"", tables[t].name);
        sqlite3_stmt *rows = prepare(source, sql);
        sqlite3_free(sql);
        tables[t].columns = sqlite3_column_count(rows);
        tables[t].start = arena_used;
        int status;
        while ((status = sqlite3_step(rows)) == SQLITE_ROW) {
            for (int c = 0; c < tables[t].columns; c++) hold(rows, c);
            tables[t].rows++;
        }
        if (status != SQLITE_DONE) fail(tables[t].name, source);
        sqlite3_finalize(rows);
        total += tables[t].rows;
    }
    sqlite3_close(source);

    // The floor: one transaction, one INSERT per table (of many rows each in bulk), and the close
    // that checkpoints.
    double started = now();
    run(target, "BEGIN IMMEDIATE");
    for (int t = 0; t < table_count; t++) {
        int per_statement = bulk ? 1000 / tables[t].columns : 1;
        if (per_statement > 64) per_statement = 64;
        if (per_statement < 1) per_statement = 1;
        sqlite3_stmt *many = insert_statement(target, &tables[t], per_statement);
        sqlite3_stmt *one = per_statement > 1 ? insert_statement(target, &tables[t], 1) : many;
        size_t at = tables[t].start;
        for (size_t r = 0; r < tables[t].rows;) {
            sqlite3_stmt *insert = tables[t].rows - r >= (size_t)per_statement ? many : one;
            int rows = insert == many ? per_statement : 1;
            for (int c = 0; c < tables[t].columns * rows; c++) {
                if (bind_held(insert, c + 1, &at) != SQLITE_OK) fail(tables[t].name, target);
            }
            if (sqlite3_step(insert) != SQLITE_DONE) fail(tables[t].name, target);
            sqlite3_reset(insert);
            r += (size_t)rows;
        }
        if (one != many) sqlite3_finalize(one);
        sqlite3_finalize(many);
    }
    if (deferred) {
        run(target, deferred);
        sqlite3_free(deferred);
    }
    run(target, "COMMIT");
    if (sqlite3_close(target) != SQLITE_OK) fail(target_path, target);
    printf("%.6f %zu\n", now() - started, total);
    // Freed for LeakSanitizer, which `make test-asan` runs this program under.
    for (int t = 0; t < table_count; t++) free(tables[t].name);
    free(tables);
    return 0;
}

// Where the read floor's sum of what it read goes: a volatile store cannot be optimised away.
static volatile uint64_t sink;

static int read_all(const char *path, const char *sql, int parameter_count, char **parameters) {
    sqlite3 *db = open_database(path, SQLITE_OPEN_READONLY);
    double started = now();
    run(db, "BEGIN DEFERRED");
    sqlite3_stmt *statement = prepare(db, sql);
    for (int p = 0; p < parameter_count; p++) {
        const char *value = parameters[p];
        int result;
        if (strncmp(value, "int:", 4) == 0) {
            result = sqlite3_bind_int64(statement, p + 1, strtoll(value + 4, NULL, 10));
        } else if (strncmp(value, "real:", 5) == 0) {
            result = sqlite3_bind_double(statement, p + 1, strtod(value + 5, NULL));
        } else if (strncmp(value, "text:", 5) == 0) {
            result = sqlite3_bind_text(statement, p + 1, value + 5, -1, SQLITE_STATIC);
        } else if (strcmp(value, "null") == 0) {
            result = sqlite3_bind_null(statement, p + 1);
        } else {
            fprintf(stderr, "Error: a parameter is int:N, real:X, text:S or null, not %s\n", value);
            return 64;
        }
        if (result != SQLITE_OK) fail(value, db);
    }
    int columns = sqlite3_column_count(statement);
    size_t rows = 0;
    uint64_t checksum = 0;
    int status;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
        for (int c = 0; c < columns; c++) {
            switch (sqlite3_column_type(statement, c)) {
            case SQLITE_INTEGER: checksum += (uint64_t)sqlite3_column_int64(statement, c); break;
            case SQLITE_FLOAT: checksum += (uint64_t)(int64_t)sqlite3_column_double(statement, c); break;
            case SQLITE_TEXT: {
                const unsigned char *text = sqlite3_column_text(statement, c);
                int count = sqlite3_column_bytes(statement, c);
                for (int i = 0; i < count; i++) checksum += text[i];
                break;
            }
            default: break;
            }
        }
        rows++;
    }
    if (status != SQLITE_DONE) fail(sql, db);
    sqlite3_finalize(statement);
    run(db, "COMMIT");
    double seconds = now() - started;
    sqlite3_close(db);
    sink = checksum;
    printf("%.6f %zu\n", seconds, rows);
    return 0;
}

int main(int argc, char **argv) {
    // As quakes does (Sources/CSQLite): no memory statistics, and so no process-wide mutex around
    // every allocation.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (argc == 4 && strcmp(argv[1], "ingest") == 0) return ingest(argv[2], argv[3], 0, 0);
    if (argc == 4 && strcmp(argv[1], "bulk") == 0) return ingest(argv[2], argv[3], 1, 0);
    if (argc == 4 && strcmp(argv[1], "streamed") == 0) return ingest(argv[2], argv[3], 1, 1);
    if (argc >= 4 && strcmp(argv[1], "read") == 0) return read_all(argv[2], argv[3], argc - 4, argv + 4);
    fprintf(stderr, "Error: usage: quakes-floor ingest|bulk|streamed SOURCE NEW | quakes-floor read DATABASE SQL [PARAMETER...]\n");
    return 64;
}
