import QuakesCore

/// The options of the commands that draw (`chart`, `map`): a file to write the picture to and its
/// size, or, without a file, text fitted to the terminal, plain with `--ascii`.
struct PictureOptions: Sendable, Equatable {
    static func options(defaultSize: (width: Int, height: Int)) -> [CommandHelp.Option] {
        [
            .init(
                .output, short: "o", value: "file",
                help:
                    "Write the picture to FILE, as its extension says: .svg, .png, .pdf or .html (one self-contained page).",
                takesPath: true),
            .init(
                .size, value: "WxH", help: "The picture's size, in pixels for PNG and points for the others.",
                default: "\(defaultSize.width)x\(defaultSize.height)"),
            .init(.ascii, help: "In the terminal, draw with plain ASCII characters."),
            CommonOptions.color,
        ]
    }

    /// The file, as given, and its format; nil to draw in the terminal.
    var output: PictureFile?
    var width: Int
    var height: Int
    var ascii: Bool
    var color: CommonOptions.ColorChoice

    init(_ arguments: ParsedArguments, defaultSize: (width: Int, height: Int)) throws(UsageError) {
        let formats = PictureFormat.allCases.map { "." + $0.rawValue }.joined(separator: ", ")
        output = try arguments.value(.output, expected: "a file name ending in \(formats)") { path in
            PictureFormat(path: path).map { PictureFile(path: path, format: $0) }
        }
        let size = try arguments.value(
            .size, expected: "WIDTHxHEIGHT, from 300x200 to 10000x10000, such as 1200x750"
        ) {
            text -> (Int, Int)? in
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                (300...10_000).contains(width), (200...10_000).contains(height)
            else { return nil }
            return (width, height)
        }
        (width, height) = size ?? defaultSize
        if size != nil, output == nil { throw UsageError("'--size <WxH>' needs '--output <file>'") }
        ascii = arguments.flag(.ascii)
        color = try CommonOptions.ColorChoice(arguments)
    }

    /// The output file, its name found from the current directory.
    func file(in environment: Environment) -> PictureFile? {
        guard var output else { return nil }
        output.directory = environment.currentDirectory
        return output
    }

    /// True when text is drawn with `#` and `o` rather than blocks and Braille: `--ascii`, or a dumb terminal.
    func plainText(in environment: Environment) -> Bool {
        ascii || environment.variables["TERM"] == "dumb"
    }
}
