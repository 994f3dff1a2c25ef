/// One `citybench` command: its name, a one-line summary for the general help, its usage text
/// and options. ``main(_:)`` parses the arguments, answers `--help` and runs it, so no command
/// writes that prologue itself.
protocol Command {
  /// The word that selects it (`citybench bench`).
  static var name: String { get }
  /// One line for the list of commands.
  static var summary: String { get }
  /// The whole `--help` text.
  static var usage: String { get }
  /// Its options; `--help` and `-h` are added by ``ParsedArguments/Spec``.
  static var spec: ParsedArguments.Spec { get }
  static func run(_ arguments: ParsedArguments) throws -> Int32
}

extension Command {
  /// Parses `arguments` against ``spec``, prints ``usage`` for `--help`, else runs.
  static func main(_ arguments: [String]) throws -> Int32 {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("--help") {
      print(usage)
      return 0
    }
    return try run(parsed)
  }
}

/// The exit statuses every command shares (README, "Exit status"). The gate adds its verdicts:
/// 2 regression, 3 inconclusive.
enum ExitStatus {
  static let success: Int32 = 0
  /// A run that failed: bad input, a divergence, a failed check.
  static let failure: Int32 = 1
  /// A command line that cannot be run (EX_USAGE of sysexits.h).
  static let usage: Int32 = 64
  /// Stopped by Ctrl-C (128 + SIGINT).
  static let interrupted: Int32 = 130
}
