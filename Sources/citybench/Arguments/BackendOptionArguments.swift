import CitySearch
import CitySearchCatalog

/// The backend options of a command line, generated from what the catalog's backends declare
/// (`BackendDescriptor.options`): `--options KEY=VALUE,…` for any of them, and a flag
/// `--NAME` for each `true|false` option whose default is `false` (`--icu-raw`). No command
/// names an option or a backend.
enum BackendOptionArguments {
  /// The declared options that a flag sets: `true|false`, `false` by default.
  static var flagOptions: [BackendOptionDeclaration] {
    BackendCatalog.options.filter { $0.syntax == Bool.syntax && $0.defaultText == false.description }
  }

  /// `--NAME` for each of ``flagOptions``.
  static var flags: Set<String> { Set(flagOptions.map { "--" + $0.name }) }

  /// The valued option `--options`.
  static let valued: Set<String> = ["--options"]

  /// Usage lines for `--options` and the flags, from the declarations.
  static var help: String {
    var lines = ["  --options K=V,…       backend options, comma-separated:"]
    for option in BackendCatalog.options {
      lines.append("                          \(option.name)=\(option.syntax) (default \(option.defaultText)):")
      lines.append("                            \(option.summary)")
    }
    for option in flagOptions {
      let flag = "--\(option.name)".padding(toLength: 20, withPad: " ", startingAt: 0)
      lines.append("  \(flag)  the same as --options \(option.name)=true")
    }
    return lines.joined(separator: "\n")
  }

  /// Usage lines for the flags as `conform` reads them: each adds the variants built with it.
  static var variantFlagsHelp: String {
    flagOptions.map { option in
      let flag = "--\(option.name)".padding(toLength: 20, withPad: " ", startingAt: 0)
      return "  \(flag)  also check the variants built with \(option.name)=true"
    }.joined(separator: "\n")
  }

  /// The options a command line gives: `--options`, then each flag given.
  static func parse(_ args: ParsedArguments) throws -> BackendOptions {
    var pairs = args["--options"].map { [$0] } ?? []
    pairs += flagOptions.filter { args.has("--" + $0.name) }.map { "\($0.name)=true" }
    do {
      return try BackendOptions(parsing: pairs.joined(separator: ","), declared: BackendCatalog.options)
    } catch let error as BackendOptions.ParseError {
      throw UsageError(message: "--options: \(error.message)")
    }
  }
}
