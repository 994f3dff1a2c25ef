/// One `citybench` command: its name, a one-line summary for the general help, and its usage
/// declared in parts — the synopsis, the discussion, the options, the epilogue — from which
/// both its `--help` text and its parser's spec are generated. ``main(_:)`` parses the
/// arguments, answers `--help` and runs it, so no command writes that prologue itself.
protocol Command {
  /// The word that selects it (`citybench bench`).
  static var name: String { get }
  /// One line for the list of commands.
  static var summary: String { get }
  /// The usage lines, each starting `citybench NAME` (default: `citybench NAME [options]`).
  static var synopsis: String { get }
  /// What the command does, between the synopsis and the options (default: the summary).
  static var discussion: String { get }
  /// Its options, shared groups included; `--help` and `-h` are added.
  static var options: [CommandOption] { get }
  /// Text after the options (environment variables, notes; default: none).
  static var epilogue: String { get }
  /// How many positional arguments it takes (default: none).
  static var maximumPositionals: Int { get }
  static func run(_ arguments: ParsedArguments) throws -> Int32
}

extension Command {
  static var synopsis: String { "citybench \(name) [options]" }
  static var discussion: String { summary }
  static var options: [CommandOption] { [] }
  static var epilogue: String { "" }
  static var maximumPositionals: Int { 0 }

  /// The whole `--help` text, generated from the parts.
  static var usage: String {
    var text = "Usage: " + synopsis.split(separator: "\n").joined(separator: "\n       ")
    text += "\n\n" + discussion
    if options.contains(where: { $0.kind != .note && !$0.hidden }) {
      text += "\n\nOptions:\n" + options.usageText
    }
    if !epilogue.isEmpty { text += "\n\n" + epilogue }
    return text
  }

  /// The parser's spec, generated from ``options``.
  static var spec: ParsedArguments.Spec {
    ParsedArguments.Spec(options: options, maximumPositionals: maximumPositionals)
  }

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
