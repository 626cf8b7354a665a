import Foundation
import Locking
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1, for the tests and benchmarks of downloads, so that nothing
/// touches the network.
///
/// Each connection gets one response and is closed. Routes say what each path answers; every
/// request is recorded with its headers.
public final class LocalHTTPServer: Sendable {
    public enum Route: Sendable {
        /// A status, extra header lines and a body.
        case respond(status: Int, headers: [String] = [], body: [UInt8])
        /// A gzip body, sent as `Content-Encoding: gzip` to clients that accept it and refused otherwise.
        case gzip([UInt8])
        /// `302 Found` to `location`.
        case redirect(String)
        /// Reads the request and never answers.
        case silence
        /// Sends headers, then body bytes until the client goes away.
        case endless
        /// 200 with an `ETag` and `Last-Modified`, or 304 when the request's validators match.
        case conditional(body: [UInt8], etag: String?, lastModified: String?)
        /// Each request gets the next route; the last one repeats.
        indirect case sequence([Route])
        /// Announces the whole body's length, sends `sent` bytes of it, and closes the connection.
        case truncated(body: [UInt8], sent: Int)
        /// Sends the body in `pieces` parts, `pause` seconds apart.
        case slow(body: [UInt8], pieces: Int, pause: Double)
        /// Announces the whole body's length, sends `sent` bytes of it, and then holds the
        /// connection open until `release(_:)` is called for the path (when it sends the rest) or
        /// the client goes away: a download that is certain to be unfinished until the test says so.
        case stalled(body: [UInt8], sent: Int)
        /// The answer computed from the request, for services whose answers depend on the query
        /// string (the FDSN emulator); it runs on the connection's thread.
        case handler(@Sendable (Request) -> Response)
    }

    /// What a `handler` route answers.
    public struct Response: Sendable {
        public var status: Int
        /// Extra header lines, as `Name: value`.
        public var headers: [String]
        public var body: [UInt8]

        public init(status: Int = 200, headers: [String] = [], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    public struct Request: Sendable {
        public var path: String
        public var headers: [String: String]
        /// When the request came, on the monotonic clock.
        public var time = ContinuousClock.now
    }

    public let port: UInt16
    private let listener: Int32
    private let routes = Locked<[String: Route]>([:])
    private let served = Locked<[String: Int]>([:])
    private let requests = Locked<[Request]>([])
    private let stopped = Atomic<Bool>(false)
    private let released = Locked<Set<String>>([])

    public init() throws {
        (listener, port) = try Self.listen()
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// A socket listening on an ephemeral port of 127.0.0.1, and the port.
    private static func listen() throws -> (Int32, UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    deinit {
        stop()
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    public func route(_ path: String, _ route: Route) {
        routes.withLock { $0[path] = route }
    }

    /// Every request so far.
    public var received: [Request] {
        requests.withLock { $0 }
    }

    /// Lets the `stalled` responses of `path` send the rest of their body.
    public func release(_ path: String) {
        released.withLock { _ = $0.insert(path) }
    }

    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    // MARK: - Private

    private func acceptConnections() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        requests.withLock { $0.append(request) }
        let (key, found) = routes.withLock { routes in
            Self.lookUp(request.path, in: routes)
        }
        var route = found
        if case let .sequence(steps)? = route {
            let count = served.withLock { served in
                defer { served[key, default: 0] += 1 }
                return served[key, default: 0]
            }
            route = steps[min(count, steps.count - 1)]
        }
        switch route {
        case .sequence?:
            send(connection, status: 500, headers: [], body: Array("nested sequence\n".utf8))
        case let .conditional(body, etag, lastModified)?:
            let matches =
                (etag != nil && request.headers["if-none-match"] == etag)
                || (etag == nil && lastModified != nil && request.headers["if-modified-since"] == lastModified)
            let validators =
                (etag.map { ["ETag: \($0)"] } ?? []) + (lastModified.map { ["Last-Modified: \($0)"] } ?? [])
            if matches {
                write(
                    connection,
                    Array(
                        "HTTP/1.1 304 Not Modified\r\n\(validators.map { $0 + "\r\n" }.joined())Connection: close\r\n\r\n"
                            .utf8))
            } else {
                send(connection, status: 200, headers: validators, body: body)
            }
        case let .truncated(body, sent)?:
            write(connection, okHead(length: body.count) + body.prefix(sent))
        case let .stalled(body, sent)?:
            guard write(connection, okHead(length: body.count) + body.prefix(sent)) else { return }
            waitForTheClientToLeave(connection) { [self] in released.withLock { $0.contains(request.path) } }
            write(connection, Array(body.dropFirst(sent)))
        case let .slow(body, pieces, pause)?:
            write(connection, okHead(length: body.count))
            let size = (body.count + pieces - 1) / max(1, pieces)
            for start in stride(from: 0, to: body.count, by: max(1, size)) {
                Thread.sleep(forTimeInterval: pause)
                guard write(connection, Array(body[start..<min(body.count, start + size)])) else { return }
            }
        case nil:
            send(connection, status: 404, headers: [], body: Array("no route for \(request.path)\n".utf8))
        case let .respond(status, headers, body):
            send(connection, status: status, headers: headers, body: body)
        case let .handler(answer)?:
            let response = answer(request)
            send(connection, status: response.status, headers: response.headers, body: response.body)
        case let .gzip(body):
            if request.headers["accept-encoding"]?.contains("gzip") == true {
                send(connection, status: 200, headers: ["Content-Encoding: gzip"], body: body)
            } else {
                send(connection, status: 406, headers: [], body: Array("gzip only\n".utf8))
            }
        case let .redirect(location):
            send(connection, status: 302, headers: ["Location: \(location)"], body: Array("moved\n".utf8))
        case .silence:
            waitForTheClientToLeave(connection)
        case .endless:
            write(
                connection, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8)
            )
            let block =
                Array(#"{"type":"FeatureCollection","features":["#.utf8)
                + Array(repeating: UInt8(ascii: " "), count: 65_536)
            guard write(connection, block) else { return }
            let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 65_536)
            while !stopped.load(ordering: .relaxed), write(connection, spaces) {}
        }
    }

    /// The route of `path` and the key it was found under: the exact path first, then the path
    /// without its query string, so that one route can answer every query of a service.
    private static func lookUp(_ path: String, in routes: [String: Route]) -> (String, Route?) {
        if let route = routes[path] { return (path, route) }
        guard let question = path.firstIndex(of: "?") else { return (path, nil) }
        let bare = String(path[..<question])
        return (bare, routes[bare])
    }

    /// Reads and drops what the client sends until it closes the connection, the server stops or
    /// `enough` says so, checking it five times a second.
    private func waitForTheClientToLeave(_ connection: Int32, until enough: () -> Bool = { false }) {
        var byte: UInt8 = 0
        while !stopped.load(ordering: .relaxed), !enough() {
            let result = recv(connection, &byte, 1, 0)
            if result == 0 { return }  // The client gave up.
            if result < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return }
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count > 0 {
                data += buffer[..<count]
                if let end = String(decoding: data, as: UTF8.self).range(of: "\r\n\r\n") {
                    let head = String(String(decoding: data, as: UTF8.self)[..<end.lowerBound])
                    var lines = head.components(separatedBy: "\r\n")
                    let requestLine = lines.removeFirst().split(separator: " ")
                    guard requestLine.count >= 2 else { return nil }
                    var headers: [String: String] = [:]
                    for line in lines {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                            .trimmingCharacters(in: .whitespaces)
                    }
                    return Request(path: String(requestLine[1]), headers: headers)
                }
            } else if count == 0 {
                return nil
            }
        }
        return nil
    }

    /// The head of a `200 OK` that announces `length` bytes of body, for routes that send the body
    /// in their own way.
    private func okHead(length: Int) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
    }

    private func send(_ connection: Int32, status: Int, headers: [String], body: [UInt8]) {
        var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "\r\n"
        // MSG_MORE holds the head back to leave with the body, without copying a body of megabytes.
        guard write(connection, Array(head.utf8), more: !body.isEmpty) else { return }
        write(connection, body)
    }

    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8], more: Bool = false) -> Bool {
        let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, flags)
            }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }
}
