import QuakesData

/// The data files quakes ships (country outlines, populated places), looked for where each way of
/// running it puts them, so that a development build, an installed binary and a package all work
/// without a setting.
///
/// Only the commands that need a file look for it: others never touch the disk for them.
package struct SharedData: Sendable {
    /// The variable that names the folder outright, for tests and packagers.
    package static let variable = "QUAKES_DATA_DIR"
    /// The folder SwiftPM copies the data files into, beside the products it builds (the resources
    /// of the QuakesData target).
    static let buildFolder = String(cString: quakes_data_build_folder())
    /// The folder `make install` puts the files in, relative to the installed binary's folder.
    static let installedFolder = "../share/quakes"

    /// The folders looked in, in order.
    package let folders: [String]

    /// `QUAKES_DATA_DIR` alone when it is set, since whoever sets it means that folder and no
    /// other; else SwiftPM's resource folder beside `executable`, then the installed layout.
    package init(variables: EnvironmentVariables, executable: String? = SharedData.executablePath()) {
        if let folder = variables[Self.variable], !folder.isEmpty {
            folders = [folder]
        } else if let executable {
            let directory = FilePaths.parent(of: executable)
            folders = [Self.buildFolder, Self.installedFolder].map {
                FilePaths.standardized(FilePaths.appending($0, to: directory))
            }
        } else {
            folders = []
        }
    }

    /// The data files of the process `environment` describes.
    package init(_ environment: Environment) {
        self.init(variables: environment.variables)
    }

    /// The bytes of the data file `name`, from the first folder that has it.
    package func contents(of name: String) throws(SharedDataError) -> [UInt8] {
        for folder in folders {
            let path = FilePaths.appending(name, to: folder)
            if let bytes = FileBytes.ofRegularFile(path, atMost: .max) { return bytes }
        }
        throw SharedDataError(file: name, problem: .missing(searched: folders))
    }

    /// The path of the running executable, from `/proc/self/exe`, symbolic links resolved (an
    /// installed `quakes` may be a link into its package's folder).
    package static func executablePath() -> String? {
        FilePaths.linkTarget(of: "/proc/self/exe")
    }
}
