import QuakesCore
import SQLite

/// The database schema, as an append-only list of migrations.
///
/// `quake` holds one row per event with a typed column for every USGS summary property, named as in
/// the feed, so the file reads naturally in `sqlite3`. `identity` holds, for every id any version of
/// an event has named (its own id and those in its `ids`), the newest such version: the event that
/// id belongs to and how recent that version is (see `IdentityRules`). A deleted event keeps its
/// identity rows, marked `deleted`: its tombstone, so that an older copy never brings it back.
/// `quake_alias` is a view over it: every other id of a stored event. `history_transaction` and
/// `history_change` are the persistent history: one row per write that changed the store, and its
/// net change per event id (`existed` before it, `remains` after it, `merged_into` the event that
/// absorbed it, `fields` what it changed). `AUTOINCREMENT` keeps tokens from ever being reused, even after history is
/// pruned. `feed_state` keeps each URL's ETag and Last-Modified for conditional requests, and when
/// a fetch of it last succeeded. Never edit a released migration: add one at the end.
///
/// `PRAGMA application_id` marks a file as quakes' own, so that a database of another program is
/// never mistaken for one and touched.
enum Schema {
    /// `Quak`, in the file header: the mark of quakes' databases.
    static let applicationID: Int32 = 0x5175_616B

    static let migrator = Migrator(
        applicationID: applicationID,
        migrations: [
            // 1: events and their aliases.
            .init(
                """
                CREATE TABLE quake (
                    id        TEXT    NOT NULL PRIMARY KEY,
                    time      INTEGER NOT NULL,
                    updated   INTEGER,
                    mag       REAL,
                    magType   TEXT,
                    place     TEXT,
                    longitude REAL    NOT NULL,
                    latitude  REAL    NOT NULL,
                    depth     REAL,
                    type      TEXT,
                    status    TEXT,
                    alert     TEXT,
                    tsunami   INTEGER,
                    sig       INTEGER,
                    felt      INTEGER,
                    cdi       REAL,
                    mmi       REAL,
                    net       TEXT,
                    code      TEXT,
                    ids       TEXT,
                    sources   TEXT,
                    types     TEXT,
                    nst       INTEGER,
                    dmin      REAL,
                    rms       REAL,
                    gap       REAL,
                    url       TEXT,
                    detail    TEXT,
                    title     TEXT,
                    tz        INTEGER,
                    extra     TEXT,
                    generated INTEGER
                ) STRICT;
                CREATE INDEX quake_time ON quake (time);
                CREATE INDEX quake_mag ON quake (mag);
                CREATE TABLE quake_alias (
                    alias TEXT NOT NULL PRIMARY KEY,
                    id    TEXT NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX quake_alias_id ON quake_alias (id);
                """),
            // 2: persistent history, and the validators of conditional requests.
            .init(
                """
                CREATE TABLE history_transaction (
                    token     INTEGER PRIMARY KEY AUTOINCREMENT,
                    timestamp INTEGER NOT NULL,
                    author    TEXT    NOT NULL,
                    source    TEXT,
                    inserted  INTEGER NOT NULL DEFAULT 0,
                    updated   INTEGER NOT NULL DEFAULT 0,
                    deleted   INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE INDEX history_transaction_timestamp ON history_transaction (timestamp);
                CREATE TABLE history_change (
                    token   INTEGER NOT NULL,
                    id      TEXT    NOT NULL,
                    change  TEXT,
                    existed INTEGER NOT NULL,
                    remains INTEGER NOT NULL,
                    PRIMARY KEY (token, id)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE feed_state (
                    url           TEXT NOT NULL PRIMARY KEY,
                    etag          TEXT,
                    last_modified TEXT,
                    fetched       INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                """),
            // 3: the owner of every id, tombstones among them, in place of the alias table; merged ids
            // in the history; when each source was last fetched successfully.
            .init(
                """
                CREATE TABLE identity (
                    id        TEXT    NOT NULL PRIMARY KEY,
                    event     TEXT    NOT NULL,
                    updated   INTEGER,
                    generated INTEGER,
                    digest    INTEGER NOT NULL,
                    deleted   INTEGER NOT NULL,
                    time      INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                INSERT INTO identity (id, event, updated, generated, digest, deleted, time)
                    SELECT id, id, updated, generated, 0, 0, time FROM quake;
                INSERT OR IGNORE INTO identity (id, event, updated, generated, digest, deleted, time)
                    SELECT quake_alias.alias, quake.id, quake.updated, quake.generated, 0, 0, quake.time
                    FROM quake_alias JOIN quake ON quake.id = quake_alias.id;
                DROP TABLE quake_alias;
                CREATE VIEW quake_alias (alias, id) AS
                    SELECT alias.id, alias.event FROM identity AS alias
                    JOIN identity AS event ON event.id = alias.event AND event.event = alias.event
                    WHERE alias.id <> alias.event AND event.deleted = 0 AND alias.digest = event.digest
                        AND alias.updated IS event.updated AND alias.generated IS event.generated;
                ALTER TABLE history_change ADD COLUMN merged_into TEXT;
                ALTER TABLE feed_state ADD COLUMN checked INTEGER;
                ALTER TABLE feed_state ADD COLUMN outcome TEXT;
                """,
                finish: { connection in
                    // The digest of every stored version, which only Swift computes.
                    try connection.execute(
                        "CREATE TEMP TABLE digest (event TEXT PRIMARY KEY, digest INTEGER) WITHOUT ROWID")
                    let rows = try connection.prepare("SELECT \(QuakeColumns.list) FROM quake")
                    let insert = try connection.prepare("INSERT INTO digest (event, digest) VALUES (?1, ?2)")
                    while try rows.step() {
                        let quake = QuakeColumns.quake(from: rows)
                        try insert.bind(quake.id, at: 1)
                        try insert.bind(QuakeDigest.of(quake), at: 2)
                        try insert.run()
                    }
                    try connection.execute(
                        """
                        UPDATE identity SET digest = (SELECT digest FROM temp.digest WHERE digest.event = identity.event);
                        DROP TABLE temp.digest;
                        """)
                }),
            // 4: where a backfill or a sync stands, with the events of each of its requests.
            .init("ALTER TABLE feed_state ADD COLUMN progress TEXT;"),
            // 5: the listing's default order, newest first with ties by id, read straight from an
            // index: on `time` alone, the id tie-break needed a temporary B-tree of every row.
            .init(
                """
                DROP INDEX quake_time;
                CREATE INDEX quake_time ON quake (time DESC, id);
                """),
            // 6: the fingerprint of the feature each owning version was decoded from, so that a
            // re-ingest knows the versions it holds without decoding them. Rows stored before it are
            // left without one, and get it the next time their feature comes.
            .init("ALTER TABLE identity ADD COLUMN fingerprint INTEGER;"),
            // 7: what each change changed, as JSON (`FieldChange.storageText`): an update's fields,
            // old and new, and a deletion's tombstone. Changes recorded before it have none.
            .init("ALTER TABLE history_change ADD COLUMN fields TEXT;"),
        ])

    /// The tables of every released version, to recognise a quakes database that predates the
    /// application id (versions 1 and 2) by its schema alone.
    static let tablesByVersion: [Int32: [String: [String]]] = {
        var tables: [Int32: [String: [String]]] = [:]
        for version in 1...migrator.latestVersion {
            tables[version] = try? migrator.tables(atVersion: version)
        }
        return tables
    }()
}
