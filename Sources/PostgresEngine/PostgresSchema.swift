import PostgreSQL
import QuakesCore

/// The PostgreSQL schema, as an append-only list of migrations, all that a database lacks run in one
/// transaction.
///
/// The tables and columns are SQLite's (see `Schema`), so SQL written for one reads the other:
/// `time` and `updated` stay `bigint` milliseconds, beside generated `timestamptz` columns
/// (`time_utc`, `updated_utc`) that dashboards use directly; `extra` is kept as the exact text
/// received, so output is byte for byte SQLite's, beside a generated `jsonb` column (`extra_json`,
/// NULL for text that is not JSON PostgreSQL takes). `place_folded` is written by quakes, folded in
/// Swift. `history_state` holds the last history token, taken in the writing transaction, so that
/// tokens increase in commit order and a reader never sees a token before its transaction.
///
/// `quakes_schema` marks the database as quakes' own: a database that has tables but not it is
/// another program's, and is refused before anything touches it.
enum PostgresSchema {
    /// The migrations; never edit a released one: add one at the end.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE quakes_schema (version integer NOT NULL)",
            "INSERT INTO quakes_schema (version) VALUES (0)",
            """
            CREATE FUNCTION quakes_jsonb(text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT AS $$
            BEGIN
                RETURN $1::jsonb;
            EXCEPTION WHEN others THEN
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TABLE quake (
                "id"         text COLLATE "C" NOT NULL PRIMARY KEY,
                "time"       bigint NOT NULL,
                "updated"    bigint,
                "mag"        double precision,
                "magType"    text COLLATE "C",
                "place"      text COLLATE "C",
                "longitude"  double precision NOT NULL,
                "latitude"   double precision NOT NULL,
                "depth"      double precision,
                "type"       text COLLATE "C",
                "status"     text COLLATE "C",
                "alert"      text COLLATE "C",
                "tsunami"    bigint,
                "sig"        bigint,
                "felt"       bigint,
                "cdi"        double precision,
                "mmi"        double precision,
                "net"        text COLLATE "C",
                "code"       text COLLATE "C",
                "ids"        text COLLATE "C",
                "sources"    text COLLATE "C",
                "types"      text COLLATE "C",
                "nst"        bigint,
                "dmin"       double precision,
                "rms"        double precision,
                "gap"        double precision,
                "url"        text COLLATE "C",
                "detail"     text COLLATE "C",
                "title"      text COLLATE "C",
                "tz"         bigint,
                "extra"      text COLLATE "C",
                "generated"  bigint,
                place_folded text COLLATE "C",
                time_utc timestamptz GENERATED ALWAYS AS (\(timestamp("time"))) STORED,
                updated_utc timestamptz GENERATED ALWAYS AS (\(timestamp("updated"))) STORED,
                extra_json jsonb GENERATED ALWAYS AS (quakes_jsonb(extra)) STORED
            )
            """,
            "CREATE INDEX quake_time ON quake (time)",
            "CREATE INDEX quake_mag ON quake (mag DESC NULLS LAST, time DESC, id)",
            """
            CREATE TABLE identity (
                id        text COLLATE "C" NOT NULL PRIMARY KEY,
                event     text COLLATE "C" NOT NULL,
                updated   bigint,
                generated bigint,
                digest    bigint NOT NULL,
                deleted   integer NOT NULL,
                time      bigint NOT NULL
            )
            """,
            "CREATE INDEX identity_time ON identity (time)",
            """
            CREATE VIEW quake_alias (alias, id) AS
                SELECT alias.id, alias.event FROM identity AS alias
                JOIN identity AS event ON event.id = alias.event AND event.event = alias.event
                WHERE alias.id <> alias.event AND event.deleted = 0 AND alias.digest = event.digest
                    AND alias.updated IS NOT DISTINCT FROM event.updated
                    AND alias.generated IS NOT DISTINCT FROM event.generated
            """,
            "CREATE TABLE history_state (last_token bigint NOT NULL)",
            "INSERT INTO history_state (last_token) VALUES (0)",
            """
            CREATE TABLE history_transaction (
                token     bigint NOT NULL PRIMARY KEY,
                timestamp bigint NOT NULL,
                author    text COLLATE "C" NOT NULL,
                source    text COLLATE "C",
                inserted  integer NOT NULL DEFAULT 0,
                updated   integer NOT NULL DEFAULT 0,
                deleted   integer NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX history_transaction_timestamp ON history_transaction (timestamp)",
            """
            CREATE TABLE history_change (
                token       bigint NOT NULL,
                id          text COLLATE "C" NOT NULL,
                change      text COLLATE "C",
                existed     integer NOT NULL,
                remains     integer NOT NULL,
                merged_into text COLLATE "C",
                PRIMARY KEY (token, id)
            )
            """,
            """
            CREATE TABLE feed_state (
                url           text COLLATE "C" NOT NULL PRIMARY KEY,
                etag          text,
                last_modified text,
                fetched       bigint NOT NULL,
                checked       bigint,
                outcome       text
            )
            """,
        ],
        // 2: where a backfill or a sync stands, with the events of each of its requests.
        ["ALTER TABLE feed_state ADD COLUMN progress text"],
        // 3: the listing's default order, newest first with ties by id, read from the index.
        ["DROP INDEX quake_time", "CREATE INDEX quake_time ON quake (time DESC, id)"],
        // 4: the fingerprint of the feature each owning version was decoded from (see SQLite's 6).
        ["ALTER TABLE identity ADD COLUMN fingerprint bigint"],
        // 5: what each change changed, as JSON text (see SQLite's 7).
        ["ALTER TABLE history_change ADD COLUMN fields text"],
    ]

    static var latestVersion: Int32 { Int32(migrations.count) }

    /// The `timestamptz` of a column of milliseconds, or NULL where PostgreSQL's timestamps end (4713
    /// BC, 294276 AD) and a feed's number does not: a feed may say any time, and SQLite stores it.
    /// A second inside each end, so that the division's rounding cannot step over it.
    private static func timestamp(_ column: String) -> String {
        "CASE WHEN \(column) >= -210866803199000 AND \(column) < 9224318015000000 "
            + "THEN to_timestamp(\(column)::double precision / 1000) END"
    }

    /// The channel every commit that changed the store is announced on, with its history token.
    static let channel = "quakes_changes"

    /// The key of the advisory lock writers hold (`Quak` and `Lock`): one writer per database.
    static let writerLockKey: Int64 = 0x5175_616B_4C6F_636B

    /// What the connected database is: quakes' own, at a version, or nothing yet; another
    /// program's is refused with `StoreError.foreign`.
    static func version(on connection: PostgresConnection, name: String) throws -> Int32? {
        // One statement, so one snapshot: asked in two, a first writer's migration could commit in
        // between, and its tables would look like another program's.
        // Another program's tables, views, sequences or functions make it not empty; an extension's
        // (PostGIS's spatial_ref_sys, say) do not.
        let found = try connection.execute(
            """
            SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class
                    WHERE relnamespace = current_schema()::regnamespace AND relname = 'quakes_schema'
                    AND relkind IN ('r', 'p')),
                (SELECT count(*) FROM pg_catalog.pg_class c
                    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
                    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                        WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'))
                + (SELECT count(*) FROM pg_catalog.pg_proc p
                    WHERE p.pronamespace = current_schema()::regnamespace
                    AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                        WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'))
            """)
        if found.bool(row: 0, column: 0) == true {
            let version = try connection.execute("SELECT max(version) FROM quakes_schema")
            return Int32(version.int64(row: 0, column: 0) ?? 0)
        }
        guard (found.int64(row: 0, column: 1) ?? 0) == 0 else {
            throw StoreError(path: name, .foreign("it holds objects of its own and no quakes_schema table"))
        }
        return nil
    }

    /// The error of a database whose schema is newer than this version of quakes understands.
    static func newerSchema(_ version: Int32, name: String) -> StoreError {
        StoreError(
            path: name,
            "the database has schema version \(version), newer than this version of quakes understands "
                + "(\(latestVersion)); upgrade quakes to use it")
    }

    /// Brings the database up to the latest schema, every missing migration in one transaction
    /// with the new version, under a transaction-scoped lock: two hosts migrating at once do it
    /// once, and a reader on another host sees the database at its old version or at the latest,
    /// never between (where it would refuse it as older than it uses).
    static func migrate(_ connection: PostgresConnection, name: String) throws {
        let current = try version(on: connection, name: name) ?? 0
        guard current < latestVersion else {
            if current > latestVersion { throw newerSchema(current, name: name) }
            return
        }
        try connection.execute("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(\(writerLockKey - 1))")
            // Read again inside the lock: another host may have migrated meanwhile.
            let found = try version(on: connection, name: name) ?? 0
            if found > latestVersion { throw newerSchema(found, name: name) }
            if found < latestVersion {
                for migration in migrations[Int(found)...] {
                    for statement in migration { try connection.execute(statement) }
                }
                try connection.execute("UPDATE quakes_schema SET version = \(latestVersion)")
            }
            try connection.commit()
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
