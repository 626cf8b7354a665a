import SQLite

/// The database schema, as an append-only list of migrations.
///
/// `quake` holds one row per event with a typed column for every USGS summary property, named as in
/// the feed, so the file reads naturally in `sqlite3`. `quake_alias` maps every other id an event
/// has had (from its `ids` property) to the id it is stored under, which is how a re-identified event
/// is found again. Never edit a released migration: add one at the end.
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
    ])
}
