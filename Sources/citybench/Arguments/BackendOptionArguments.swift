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

  /// `--options` and a flag for each of ``flagOptions``, with usage from the declarations.
  static var options: [CommandOption] {
    let list = BackendCatalog.options.map { option in
      "  \(option.name)=\(option.syntax) (default \(option.defaultText)):\n    \(option.summary)"
    }
    return [.value("--options", "K=V,…", (["backend options, comma-separated:"] + list).joined(separator: "\n"))]
      + flagOptions.map { .flag("--" + $0.name, "the same as --options \($0.name)=true") }
  }

  /// The flags as `conform` reads them: each adds the variants built with it.
  static var variantOptions: [CommandOption] {
    flagOptions.map { .flag("--" + $0.name, "also check the variants built with \($0.name)=true") }
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
