#!/usr/bin/env python3
"""The baseline quakes is measured against: what a plain Python script does with the standard
library. It reads the whole feed with json.load, then upserts every feature into a typed table with
time and magnitude indexes, in one transaction, in WAL mode.

    python3 baseline.py FEED.geojson DATABASE.sqlite
"""
import json
import sqlite3
import sys

PROPERTIES = ["mag", "place", "time", "updated", "tz", "url", "detail", "felt", "cdi", "mmi", "alert",
              "status", "tsunami", "sig", "net", "code", "ids", "sources", "types", "nst", "dmin", "rms",
              "gap", "magType", "type", "title"]
TYPES = {"mag": "REAL", "time": "INTEGER", "updated": "INTEGER", "tz": "INTEGER", "felt": "INTEGER",
         "cdi": "REAL", "mmi": "REAL", "tsunami": "INTEGER", "sig": "INTEGER", "nst": "INTEGER",
         "dmin": "REAL", "rms": "REAL", "gap": "REAL"}
COLUMNS = ["id"] + PROPERTIES + ["longitude", "latitude", "depth"]


def main(feed, database):
    with open(feed, "rb") as file:
        document = json.load(file)
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    definitions = ", ".join(f'"{name}" {TYPES.get(name, "TEXT")}' for name in PROPERTIES)
    connection.execute(f"CREATE TABLE IF NOT EXISTS quake (id TEXT PRIMARY KEY, {definitions}, "
                       "longitude REAL, latitude REAL, depth REAL)")
    connection.execute("CREATE INDEX IF NOT EXISTS quake_time ON quake (time)")
    connection.execute("CREATE INDEX IF NOT EXISTS quake_mag ON quake (mag)")
    rows = []
    for feature in document["features"]:
        properties = feature["properties"]
        coordinates = feature["geometry"]["coordinates"] + [None]
        rows.append([feature["id"]] + [properties.get(name) for name in PROPERTIES] + coordinates[:3])
    quoted = ", ".join(f'"{name}"' for name in COLUMNS)
    updates = ", ".join(f'"{name}" = excluded."{name}"' for name in COLUMNS[1:])
    with connection:
        connection.executemany(
            f"INSERT INTO quake ({quoted}) VALUES ({', '.join('?' * len(COLUMNS))}) "
            f"ON CONFLICT (id) DO UPDATE SET {updates} WHERE excluded.updated > quake.updated", rows)
    connection.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
