import Foundation
import Testing

@testable import QuakesCore
@testable import QuakesPictures

/// PNG and PDF through cairo: every kind of item drawn where the drawing puts it, read back pixel
/// by pixel, and files that appear whole or not at all.
@Suite struct CairoRendererTests {
    static let background = Colour(hex: 0xF0F0E0)
    static let red = Colour(hex: 0xD02020)
    static let blue = Colour(hex: 0x2040C0)
    static let green = Colour(hex: 0x20A040)
    static let orange = Colour(hex: 0xF08000)

    typealias Point = Drawing.Point
    typealias Rectangle = Drawing.Rectangle

    /// One of each item, apart from each other on a coloured background.
    static let sample: Drawing = {
        func square(_ x: Double, _ y: Double, _ side: Double) -> [Point] {
            [Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)]
        }
        return Drawing(
            width: 240, height: 120, background: background, title: "Test picture",
            items: [
                .rectangle(Rectangle(x: 10, y: 10, width: 40, height: 30), .filled(red)),
                .circle(
                    centre: Point(x: 80, y: 25), radius: 15, Drawing.Style(fill: blue, stroke: .black, lineWidth: 2),
                    mark: nil),
                // Both rings turn the same way: only the even-odd rule makes the inner one a hole.
                .path([square(110, 10, 60), square(130, 30, 20)], closed: true, .filled(green)),
                .clipped(
                    Rectangle(x: 10, y: 50, width: 30, height: 30),
                    [.rectangle(Rectangle(x: 0, y: 45, width: 100, height: 40), .filled(orange))]),
                .rectangle(Rectangle(x: 180, y: 50, width: 40, height: 20), .filled(Colour(hex: 0x0000FF, alpha: 0.5))),
                .text("Quake", at: Point(x: 10, y: 110), size: 14, anchor: .start, colour: .black, bold: false),
                .text("Mid", at: Point(x: 200, y: 30), size: 12, anchor: .middle, colour: .black, bold: false),
                .text("End", at: Point(x: 230, y: 110), size: 14, anchor: .end, colour: red, bold: true),
            ])
    }()

    @Test func aPNGHasTheDrawingsSizeAndItsItemsWhereTheyAreDrawn() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("picture.png")
        try await CairoRenderer.write(Self.sample, toFile: path, as: .png)
        let image = try CairoImage(contentsOfFile: path)
        #expect(image.width == 240)
        #expect(image.height == 120)
        func expect(_ x: Double, _ y: Double, is colour: Colour, tolerance: Int = 2) {
            let pixel = image.pixel(at: Point(x: x, y: y))
            #expect(pixel.isClose(to: colour, tolerance: tolerance), "(\(x), \(y)) is \(pixel)")
        }
        expect(235, 5, is: Self.background)
        expect(30, 25, is: Self.red)
        expect(5, 5, is: Self.background)
        // The circle: its fill inside, its outline on the edge, nothing beyond.
        expect(80, 25, is: Self.blue)
        expect(80, 10, is: .black, tolerance: 40)
        expect(80, 5, is: Self.background)
        expect(65.5, 40.5, is: Self.background)
        // The ring with a hole.
        expect(120, 20, is: Self.green)
        expect(160, 60, is: Self.green)
        expect(140, 40, is: Self.background)
        // The orange rectangle, only inside its clip.
        expect(25, 65, is: Self.orange)
        expect(5, 65, is: Self.background)
        expect(60, 65, is: Self.background)
        expect(25, 83, is: Self.background)
        // Half-transparent blue over the background.
        expect(200, 60, is: Colour(red: 0.47, green: 0.47, blue: 0.94), tolerance: 3)
    }

    @Test func textIsDrawnOnTheSideItsAnchorSays() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("text.png")
        try CairoRenderer.writeBlocking(Self.sample, toFile: path, as: .png)
        let image = try CairoImage(contentsOfFile: path)
        func inked(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Int {
            image.countOfPixels(in: Rectangle(x: x, y: y, width: width, height: height), differingFrom: Self.background)
        }
        // "Quake" starts at x = 10, above its baseline at 110, and is a few dozen pixels long.
        #expect(inked(10, 96, 70, 14) > 50)
        #expect(inked(0, 96, 9, 24) == 0)
        #expect(inked(10, 111, 60, 4) > 0, "the descender of the Q")
        // "End" ends at x = 230; "Mid" straddles x = 200.
        #expect(inked(190, 96, 40, 14) > 30)
        #expect(inked(231, 90, 9, 30) == 0)
        #expect(inked(180, 18, 20, 12) > 10)
        #expect(inked(200, 18, 20, 12) > 10)
        #expect(inked(175, 0, 50, 17) == 0)
        // Bold red: the colour of the text is its own.
        let reds = (190..<230).flatMap { x in (96..<110).map { image.pixel(x: x, y: $0) } }
        #expect(reds.contains { $0.isClose(to: Self.red, tolerance: 10) })
    }

    @Test func aPDFIsAWholeDocumentWithTheTitle() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("picture.pdf")
        try await CairoRenderer.write(Self.sample, toFile: path, as: .pdf)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
        #expect(bytes.count > 2_000)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("/MediaBox [ 0 0 240 120 ]"))
        #expect(text.contains("(Test picture)"))
        #expect(text.contains("DejaVuSans"))
        #expect(text.hasSuffix("%%EOF\n"))
    }

    @Test func writesLeaveOnlyThePicturesAndReplaceAnOldOne() async throws {
        let folder = try TemporaryDirectory()
        let png = try folder.write("picture.png", "old")
        try await CairoRenderer.write(Self.sample, toFile: png, as: .png)
        try await CairoRenderer.write(Self.sample, toFile: folder.file("picture.pdf"), as: .pdf)
        #expect(try CairoImage(contentsOfFile: png).width == 240)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["picture.pdf", "picture.png"])
    }

    @Test func aFolderThatDoesNotExistFailsClearlyAndLeavesNoFile() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("missing/map.png")
        for format in [CairoRenderer.Format.png, .pdf] {
            let error = await #expect(throws: PictureError.self) {
                try await CairoRenderer.write(Self.sample, toFile: path, as: format)
            }
            #expect(error?.description == "cannot write \(path): No such file or directory")
            #expect(error.map { ExitStatus(for: $0) } == .ioError)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aDrawingCairoCannotMakeLeavesTheOldPictureAlone() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("map.png", "old")
        var empty = Self.sample
        empty.width = 0
        let error = await #expect(throws: PictureError.self) {
            try await CairoRenderer.write(empty, toFile: path, as: .png)
        }
        #expect(error?.description == "cannot draw the picture: a PNG cannot be 0.0 by 120.0 pixels")
        #expect(error.map { ExitStatus(for: $0) } == .software)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["map.png"])
    }

    @Test func aFileThatIsNotAPNGIsNotReadAsOne() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("fake.png", "not a picture")
        let error = #expect(throws: PictureError.self) { try CairoImage(contentsOfFile: path) }
        #expect(error?.description.hasPrefix("cannot read \(path): ") == true)
    }

    @Test func onlyPNGAndPDFAreCairos() {
        #expect(CairoRenderer.Format(.png) == .png)
        #expect(CairoRenderer.Format(.pdf) == .pdf)
        #expect(CairoRenderer.Format(.svg) == nil)
        #expect(CairoRenderer.Format(.html) == nil)
    }
}
