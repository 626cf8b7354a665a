import PostgreSQL
import Testing

@Suite struct RedactionTests {
    @Test(arguments: [
        ("postgresql://u:secret@h/db", "postgresql://u:***@h/db"),
        ("postgres://u:secret@h1:5432,h2/db?sslmode=require", "postgres://u:***@h1:5432,h2/db?sslmode=require"),
        ("postgresql://u:se%40cr%2Fet@h/db", "postgresql://u:***@h/db"),
        (
            "postgresql://h/db?user=u&password=secret&sslmode=require",
            "postgresql://h/db?user=u&password=***&sslmode=require"
        ),
        ("postgresql://u@h/db", "postgresql://u@h/db"),
        // Unescaped, as generated passwords often are: libpq splits them elsewhere, but they stay hidden.
        ("postgresql://u:pa/ss@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u:pa@ss@h/db?application_name=a@b", "postgresql://u:***@h/db?application_name=a@b"),
        (
            "postgresql:///postgres?host=/tmp/quakes-pg.x&user=postgres",
            "postgresql:///postgres?host=/tmp/quakes-pg.x&user=postgres"
        ),
        ("host=h password=secret dbname=db", "host=h password=*** dbname=db"),
        (#"host=h password = 'se cret\' x' dbname=db"#, "host=h password = *** dbname=db"),
        (#"password=se\ cret user=u"#, "password=*** user=u"),
        ("host=h user=u dbname=db", "host=h user=u dbname=db"),
    ])
    func passwordsAreReplaced(uri: String, expected: String) {
        #expect(PostgresConnection.redacted(uri: uri) == expected)
    }
}
