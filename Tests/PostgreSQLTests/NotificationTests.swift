import PostgreSQL
import Testing

@Suite struct NotificationTests {
    @Test func anotherConnectionsNotifyWakesTheWaiter() async throws {
        try await TestDatabase.with { database in
            let uri = database.uri
            let (listening, announce) = AsyncStream<Void>.makeStream()
            // Long, because a loaded machine (the sanitizer runs) can take many seconds to connect
            // the notifier; a wait that ends before it can only have been ended by the notification.
            let timeout = Duration.seconds(300)
            // The waiter blocks its thread, so it gets one of its own, as the documentation asks.
            async let received = onThread { () throws -> ([PostgresNotification]?, Duration) in
                let connection = try PostgresConnection(uri: uri)
                try connection.listen("Quakes Changed")
                announce.yield()
                let clock = ContinuousClock()
                let start = clock.now
                let notifications = try connection.waitForNotification(timeout: timeout)
                return (notifications, clock.now - start)
            }
            for await _ in listening { break }
            let notifier = try database.connect()
            try notifier.notify("Quakes Changed", payload: "us7000abcd\tupdated")
            let (result, waited) = try await received
            let notifications = try #require(result)
            #expect(notifications.count == 1)
            #expect(notifications.first?.channel == "Quakes Changed")
            #expect(notifications.first?.payload == "us7000abcd\tupdated")
            let pid = try notifier.execute("SELECT pg_backend_pid()").int(row: 0, column: 0)
            #expect(notifications.first.map { Int($0.processID) } == pid)
            #expect(waited < timeout, "woken by the notification, not by the timeout")
        }
    }

    @Test func aQuietChannelTimesOutWithNil() async throws {
        try await TestDatabase.with { database in
            let uri = database.uri
            let (result, waited) = try await onThread { () throws -> ([PostgresNotification]?, Duration) in
                let connection = try PostgresConnection(uri: uri)
                try connection.listen("quiet")
                let clock = ContinuousClock()
                let start = clock.now
                let result = try connection.waitForNotification(timeout: .milliseconds(250))
                return (result, clock.now - start)
            }
            #expect(result == nil)
            #expect(waited >= .milliseconds(250))
        }
    }

    @Test func notificationsReadDuringOtherStatementsAreReturnedAtOnce() async throws {
        try await TestDatabase.with { database in
            let listener = try database.connect()
            let notifier = try database.connect()
            try listener.listen("changes")
            try notifier.execute("BEGIN")
            try notifier.notify("changes", payload: "one")
            try notifier.notify("changes", payload: "two")
            try notifier.execute("COMMIT")
            // NOTIFY is delivered when the notifier's transaction commits, before COMMIT returns;
            // the listener's next statement reads it from the socket on the way.
            try listener.execute("SELECT pg_sleep(0.05)")
            let notifications = try listener.waitForNotification(timeout: .zero)
            #expect(notifications?.map(\.payload) == ["one", "two"])
            try listener.unlisten("changes")
            try notifier.notify("changes", payload: "three")
            #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == nil)
        }
    }
}
