import SQLite

/// The database schema, as an append-only list of migrations.
///
/// `quake` holds one row per event with a typed column for every USGS summary property, named as in
/// the feed, so the file reads naturally in `sqlite3`. `quake_alias` maps every other id an event
/// has had (from its `ids` property) to the id it is stored under, which is how a re-identified event
/// is found again. `history_transaction` and `history_change` are the persistent history: one row per
/// write that changed the store, and its net change per event id (`existed` before it, `remains`
/// after it). `AUTOINCREMENT` keeps tokens from ever being reused, even after history is pruned.
/// `feed_state` keeps each URL's ETag and Last-Modified for conditional requests. Never edit a
/// released migration: add one at the end.
enum Schema {
    static let migrator = Migrator(migrations: [
        // 1: events and their aliases.
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
        """,
        // 2: persistent history, and the validators of conditional requests.
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
        """,
    ])
}
