import Foundation

@testable import QuakesCore

/// A real browser for the tests of the HTML and SVG pictures: Debian's Chromium, headless, taking a
/// screenshot of a file at a window size, which the tests read back with `CairoImage`.
enum HeadlessBrowser {
    static let executable = "/usr/bin/chromium"

    /// A PNG of the page at `path` as a browser draws it in a window of `width` by `height` pixels.
    static func screenshot(of path: String, width: Int, height: Int, into folder: TemporaryDirectory) async throws
        -> CairoImage
    {
        let picture = folder.file("screenshot-\(UUID().uuidString).png")
        // Root may not use Chromium's sandbox; a profile of its own keeps runs apart.
        let outcome = try await ChildProcess.run(
            executable,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=" + folder.file("chromium-\(UUID().uuidString)"),
                "--window-size=\(width),\(height)", "--screenshot=" + picture, "file://" + path,
            ], environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], timeLimit: 120)
        guard outcome.status == 0, FileManager.default.fileExists(atPath: picture) else {
            throw BrowserError(outcome: "status \(outcome.status): \(outcome.errors.suffix(2000))")
        }
        return try CairoImage(contentsOfFile: picture)
    }

    /// The page's document after its scripts ran, as Chromium serialises it.
    static func document(of path: String, into folder: TemporaryDirectory) async throws -> String {
        let outcome = try await ChildProcess.run(
            executable,
            [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + folder.file("chromium-\(UUID().uuidString)"), "--dump-dom", "file://" + path,
            ], environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], timeLimit: 120)
        guard outcome.status == 0 else {
            throw BrowserError(outcome: "status \(outcome.status): \(outcome.errors.suffix(2000))")
        }
        return outcome.output
    }

    struct BrowserError: Error, CustomStringConvertible {
        var outcome: String
        var description: String { "Chromium took no screenshot: \(outcome)" }
    }
}

extension CairoImage {
    /// How many pixels differ from `other`'s by more than `tolerance` in a component: how far two
    /// renderings of one picture are apart.
    func differingPixels(from other: CairoImage, tolerance: Int = 24) -> Int {
        guard width == other.width, height == other.height else { return width * height }
        var count = 0
        for y in 0..<height {
            for x in 0..<width {
                let (a, b) = (pixel(x: x, y: y), other.pixel(x: x, y: y))
                if abs(a.red - b.red) > tolerance || abs(a.green - b.green) > tolerance
                    || abs(a.blue - b.blue) > tolerance
                {
                    count += 1
                }
            }
        }
        return count
    }
}
