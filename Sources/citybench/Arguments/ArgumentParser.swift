/// A usage error: printed in one line with a pointer to the command's `--help`, exit status 64
/// (``ExitStatus/usage``).
struct UsageError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// The options and positionals of one command line, parsed against a declared set.
///
/// `--name value`, `--name=value` and `-n value` are accepted for valued options; `--` ends
/// the options.
struct ParsedArguments {
  struct Spec {
    let valued: Set<String>
    /// Valued options that may be given more than once (``ParsedArguments/all(_:)``).
    let repeated: Set<String>
    let flags: Set<String>
    let aliases: [String: String]
    let maximumPositionals: Int

    /// Every spec also takes `--help` and `-h` (see ``Command/main(_:)``).
    init(
      valued: Set<String> = [], repeated: Set<String> = [], flags: Set<String> = [], aliases: [String: String] = [:],
      maximumPositionals: Int = 0
    ) {
      self.valued = valued.union(repeated)
      self.repeated = repeated
      self.flags = flags.union(["--help"])
      self.aliases = aliases.merging(["-h": "--help"]) { own, _ in own }
      self.maximumPositionals = maximumPositionals
    }
  }

  private(set) var values: [String: String] = [:]
  private var repeatedValues: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  init(_ arguments: [String], spec: Spec) throws {
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inline: String?
      if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<eq])
        inline = String(argument[argument.index(after: eq)...])
      }
      name = spec.aliases[name] ?? name
      if spec.flags.contains(name) {
        guard inline == nil else { throw UsageError(message: "option '\(name)' takes no value") }
        flags.insert(name)
      } else if spec.valued.contains(name) {
        let value: String
        if let inline {
          value = inline
        } else {
          guard index < arguments.count else { throw UsageError(message: "option '\(name)' needs a value") }
          value = arguments[index]
          index += 1
        }
        values[name] = value
        if spec.repeated.contains(name) { repeatedValues[name, default: []].append(value) }
      } else {
        let known = spec.valued.union(spec.flags).union(spec.aliases.keys)
        throw UsageError(message: Suggestion.message("unknown option '\(argument)'", for: name, among: known.sorted()))
      }
    }
    guard positionals.count <= spec.maximumPositionals else {
      throw UsageError(message: "unexpected argument '\(positionals[spec.maximumPositionals])'")
    }
  }

  subscript(option: String) -> String? { values[option] }
  /// Every value of a repeatable option, in the order given.
  func all(_ option: String) -> [String] { repeatedValues[option] ?? [] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  func integer(_ option: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text = values[option] else { return value }
    guard let n = Int(text), range.contains(n) else {
      throw UsageError(
        message:
          "option '\(option)' expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
    }
    return n
  }

  func decimal(_ option: String, default value: Double, range: ClosedRange<Double>) throws -> Double {
    guard let text = values[option] else { return value }
    guard let x = Double(text), x.isFinite, range.contains(x) else {
      throw UsageError(
        message:
          "option '\(option)' expects a number from \(range.lowerBound.formatted()) to \(range.upperBound.formatted()), got '\(text)'"
      )
    }
    return x
  }

  func choice<T: RawRepresentable & CaseIterable>(_ option: String, default value: T) throws -> T
  where T.RawValue == String {
    guard let text = values[option] else { return value }
    guard let v = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue)
      throw UsageError(
        message: Suggestion.message(
          "option '\(option)' expects \(names.joined(separator: "|")), got '\(text)'", for: text, among: names))
    }
    return v
  }
}
