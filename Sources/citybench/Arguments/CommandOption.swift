/// One option of a command line, declared once. A command lists its options (and the groups it
/// shares with other commands, such as ``CorpusOptions/options``); the parser's
/// ``ParsedArguments/Spec`` and the `Options:` lines of its `--help` are both generated from that
/// list, so an option cannot be parsed without being documented or documented without being
/// parsed.
struct CommandOption: Sendable {
  /// How the option is given.
  enum Kind: Sendable {
    /// `--name`, no value.
    case flag
    /// `--name VALUE` or `--name=VALUE`; the last one given counts.
    case value
    /// `--name VALUE`, any number of times (``ParsedArguments/all(_:)``).
    case repeatable
    /// Not an option: a line of help under the options before it.
    case note
  }

  let kind: Kind
  /// `--corpus`; empty for a note.
  let name: String
  /// What the usage shows after the name: `N`, `FILE`, `cities|towns|villages|PATH`.
  let value: String
  /// One paragraph, wrapped to the help column; a line break in it starts a new line.
  let help: String
  /// Other spellings parsed as this option (`--icu-sample` for `--slow-sample`).
  var aliases: [String] = []
  /// Parsed but not shown: an option the command passes to itself in a child process.
  var hidden = false

  /// A flag.
  static func flag(_ name: String, _ help: String, hidden: Bool = false) -> CommandOption {
    CommandOption(kind: .flag, name: name, value: "", help: help, hidden: hidden)
  }

  /// An option with a value; `value` is what the usage shows after the name.
  static func value(_ name: String, _ value: String, _ help: String, aliases: [String] = []) -> CommandOption {
    CommandOption(kind: .value, name: name, value: value, help: help, aliases: aliases)
  }

  /// An option with a value that may be given more than once.
  static func repeatable(_ name: String, _ value: String, _ help: String) -> CommandOption {
    CommandOption(kind: .repeatable, name: name, value: value, help: help)
  }

  /// A line of help under the options before it (what a command says of a shared group).
  static func note(_ text: String) -> CommandOption {
    CommandOption(kind: .note, name: "", value: "", help: text)
  }

  /// The column where help starts, and the width it is wrapped to.
  static let helpColumn = 24
  static let width = 96

  /// The option's lines in a usage text: the name and value from column 2, the help from
  /// ``helpColumn`` (on a line of its own when the name is too long), wrapped at ``width``.
  var usageLines: [String] {
    guard !hidden else { return [] }
    let indent = String(repeating: " ", count: Self.helpColumn)
    var lines = Self.wrap(help, width: Self.width - Self.helpColumn).map { indent + $0 }
    guard kind != .note else { return lines }
    let left = "  " + name + (value.isEmpty ? "" : " " + value)
    if left.count <= Self.helpColumn - 2, let first = lines.first {
      lines[0] = left.padding(toLength: Self.helpColumn, withPad: " ", startingAt: 0) + first.dropFirst(Self.helpColumn)
    } else {
      lines.insert(left, at: 0)
    }
    return lines
  }

  /// `text` in lines of at most `width` characters, broken between words (a word longer than
  /// that has a line of its own); a line break in `text` is kept, and so is the indentation of
  /// the line after it, on each line it wraps to.
  static func wrap(_ text: String, width: Int) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
      let indent = String(paragraph.prefix { $0 == " " })
      var lines: [String] = []
      var line = ""
      for word in paragraph.split(separator: " ") {
        if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
          lines.append(indent + line)
          line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
      }
      return lines + [indent + line]
    }
  }
}

extension [CommandOption] {
  /// The names of the options that take a value (repeatable ones included).
  var valued: Set<String> { Set(filter { $0.kind == .value || $0.kind == .repeatable }.map(\.name)) }
  /// The names of the flags.
  var flags: Set<String> { Set(filter { $0.kind == .flag }.map(\.name)) }

  /// The `Options:` block of a usage text, `-h, --help` last.
  var usageText: String {
    (flatMap(\.usageLines) + CommandOption.flag("-h, --help", "show this help").usageLines)
      .joined(separator: "\n")
  }
}

extension ParsedArguments.Spec {
  /// The spec of `options`, with at most `maximumPositionals` positionals.
  init(options: [CommandOption], maximumPositionals: Int = 0) {
    var aliases: [String: String] = [:]
    for option in options { for alias in option.aliases { aliases[alias] = option.name } }
    self.init(
      valued: options.valued, repeated: Set(options.filter { $0.kind == .repeatable }.map(\.name)),
      flags: options.flags, aliases: aliases, maximumPositionals: maximumPositionals)
  }
}
