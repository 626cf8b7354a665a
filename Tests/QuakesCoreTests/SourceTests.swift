import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// Sources beyond plain files and URLs: gzip recognised by its bytes, standard input, and https
/// servers signed by a certificate authority of the user's own.
@Suite struct SourceTests {
    @Test func aGzippedLocalFileIsReadAsItsDocument() async throws {
        let folder = try TemporaryDirectory()
        let plain = folder.file("plain.sqlite")
        let zipped = folder.file("zipped.sqlite")
        let expected = try ReferenceDecoder.decode(Data(try await Fixtures.gunzipped(Fixtures.escapedGzip))).quakes
        let run = await QuakesRun.fetch([Fixtures.path(Fixtures.escapedGzip)], database: zipped)
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardError.contains("\(expected.count) features, \(expected.count) new"))
        // The same bytes, uncompressed, give the same rows; so does a file whose name says nothing.
        let unzipped = try folder.write("feed.json", try await Fixtures.gunzipped(Fixtures.escapedGzip))
        _ = await QuakesRun.fetch([unzipped], database: plain)
        #expect(try SQLiteReader(path: zipped).allQuakes() == (try SQLiteReader(path: plain).allQuakes()))
        let renamed = try folder.write("feed.data", try Fixtures.bytes(Fixtures.escapedGzip))
        let other = folder.file("renamed.sqlite")
        _ = await QuakesRun.fetch([renamed], database: other)
        #expect(try SQLiteReader(path: other).count() == expected.count)
    }

    @Test func damagedOrTruncatedGzipIsRefusedWhole() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let before = try DatabaseContent(path: database)
        let bytes = try Fixtures.bytes(Fixtures.escapedGzip)
        var damaged = bytes
        for index in stride(from: 100, to: 400, by: 7) { damaged[index] ^= 0x5A }
        for (name, body) in [("cut", Array(bytes.prefix(bytes.count / 2))), ("damaged", damaged)] {
            let path = try folder.write("\(name).geojson.gz", body)
            let run = await QuakesRun.fetch([path], database: database)
            #expect(run.status == .dataError, "\(name): \(run.standardError)")
            #expect(run.standardError.contains("gzip data"), "\(name): \(run.standardError)")
            #expect(try DatabaseContent(path: database) == before, "\(name)")
        }
        // A gzip bomb stops at --max-bytes, counted after decompression.
        let bomb = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.escapedGzip)], database: database, ["--max-bytes", "1M"])
        #expect(bomb.status == .dataError)
        #expect(bomb.standardError.contains("larger than 1048576 bytes"), "\(bomb.standardError)")
    }

    /// `list --format geojson | fetch -`, the way docs/postgresql.md moves a catalogue, between any two
    /// engines: the same events arrive, and both list them byte for byte alike.
    @Test(arguments: [(TestEngine.sqlite, TestEngine.sqlite), (.sqlite, .postgresql), (.postgresql, .sqlite)])
    func aListingPipedIntoAFetchCopiesTheDatabase(from: TestEngine, to: TestEngine) async throws {
        let original = try from.newDatabase()
        let copy = try to.newDatabase()
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: original.location)
        let quakes = BinaryTests.executable.path
        let outcome = try await ChildProcess.shell(
            "'\(quakes)' list --format geojson --db '\(original.location)' | '\(quakes)' fetch --db '\(copy.location)' -"
        )
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(
            outcome.errors.hasPrefix("-: 4438 features, 4438 new, 0 updated, 0 unchanged, 0 skipped ("),
            "\(outcome.errors)")
        #expect(try await original.read { try $0.allQuakes() } == (try await copy.read { try $0.allQuakes() }))
        let listings = [
            await QuakesRun.run(["list", "--format", "ndjson", "--db", original.location]),
            await QuakesRun.run(["list", "--format", "ndjson", "--db", copy.location]),
        ]
        #expect(listings[0].standardOutput.split(separator: "\n").count == 4438)
        #expect(listings[0].standardOutput == listings[1].standardOutput)
        // Standard input is no source to follow: nothing of it is kept for conditional requests.
        let state = try DatabaseContent(path: copy.location, tables: ["feed_state", "history_transaction"])
        #expect(state.tables["feed_state"]?.isEmpty == true)
        #expect(state.tables["history_transaction"]?.first?[3] == "-")
        // Gzipped standard input too.
        let zipped = try to.newDatabase()
        let gz = try await ChildProcess.shell(
            "'\(quakes)' fetch --quiet --db '\(zipped.location)' - < '\(Fixtures.path(Fixtures.escapedGzip))'")
        #expect(gz.status == 0, "\(gz.errors)")
        #expect(try await zipped.read { try $0.count() } == 4119)
    }

    // MARK: - TLS

    /// An https server on 127.0.0.1 with a self-signed certificate (`openssl s_server -WWW`, serving
    /// the files of its folder), and the certificate.
    final class TLSServer: Sendable {
        let folder: TemporaryDirectory
        let port: String
        let process: ChildProcess

        init() async throws {
            folder = try TemporaryDirectory()
            let made = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/openssl"),
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.file("key.pem"), "-out",
                    folder.file("cert.pem"),
                ])
            guard made.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            try FileManager.default.copyItem(
                atPath: Fixtures.path(Fixtures.alerts), toPath: folder.file("feed.geojson"))
            process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/openssl"),
                [
                    "s_server", "-accept", "127.0.0.1:0", "-WWW", "-cert", folder.file("cert.pem"), "-key",
                    folder.file("key.pem"),
                ], captureErrors: false, directory: folder.path)
            // It prints `ACCEPT 127.0.0.1:PORT` once it listens.
            let output = process.outputHandle!
            port = try await Blocking.run {
                var text = ""
                while !text.contains("\n") || !text.contains("ACCEPT") {
                    let piece = output.availableData
                    guard !piece.isEmpty else { break }
                    text += String(decoding: piece, as: UTF8.self)
                }
                return text.split(separator: ":").last.map { String($0.prefix { $0.isNumber }) } ?? ""
            }
        }

        var url: String { "https://127.0.0.1:\(port)/feed.geojson" }
        var certificate: String { folder.file("cert.pem") }

        func stop() {
            kill(process.identifier, SIGTERM)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
    func aPrivateCertificateAuthorityIsTrustedWhenTheUserSaysSo() async throws {
        let server = try await TLSServer()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        // Verified, always: a self-signed server is refused by default.
        let refused = await QuakesRun.fetch([server.url], database: folder.file("refused.sqlite"), ["--retries", "0"])
        #expect(refused.status == .unavailable, "\(refused.standardError)")
        #expect(refused.standardError.contains("certificate"), "\(refused.standardError)")
        // Trusted by --cacert, or by the variables the curl tool reads.
        for (options, variables) in [
            (["--cacert", server.certificate], [String: String]()), ([], ["SSL_CERT_FILE": server.certificate]),
            ([], ["CURL_CA_BUNDLE": server.certificate]),
        ] {
            let database = folder.file(UUID().uuidString + ".sqlite")
            let run = await QuakesRun.run(["fetch", "--db", database, server.url] + options, variables: variables)
            #expect(run.status == .success, "\(options) \(variables): \(run.standardError)")
            #expect(try SQLiteReader(path: database).count() == 18)
        }
        // CURL_CA_BUNDLE wins over SSL_CERT_FILE, and --cacert over both, as with curl.
        // The system's authorities, which never signed the test's certificate.
        let wrong = "/etc/ssl/certs/ca-certificates.crt"
        let bundle = await QuakesRun.run(
            ["fetch", "--db", folder.file("bundle.sqlite"), server.url, "--retries", "0"],
            variables: ["CURL_CA_BUNDLE": wrong, "SSL_CERT_FILE": server.certificate])
        #expect(bundle.status == .unavailable)
        let option = await QuakesRun.run(
            ["fetch", "--db", folder.file("option.sqlite"), server.url, "--cacert", server.certificate],
            variables: ["CURL_CA_BUNDLE": wrong])
        #expect(option.status == .success, "\(option.standardError)")
    }
}
