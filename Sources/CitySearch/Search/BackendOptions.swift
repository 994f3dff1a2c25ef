/// How a backend builds its index: a value for each ``BackendOption`` that is set, the
/// option's default for the others. Each backend reads the options its module declares (its
/// ``BackendDescriptor/options``) and ignores the rest, so one set of options can build every
/// backend of a run.
///
/// ```swift
/// let serial = BackendOptions().setting(.concurrentBuild, to: false)
/// let parsed = try BackendOptions(parsing: "concurrent-build=false", declared: BackendOptionDeclaration.common)
/// ```
public struct BackendOptions: Sendable, Hashable, CustomStringConvertible {
  /// The canonical text of each option set to something other than its default, by name.
  private var values: [String: String] = [:]

  /// The defaults: what an app wants.
  public init() {}

  /// The value of `option`: the one set, or the option's default.
  public subscript<Value>(option: BackendOption<Value>) -> Value {
    get { values[option.name].flatMap(Value.init) ?? option.defaultValue }
    set { values[option.name] = newValue == option.defaultValue ? nil : newValue.description }
  }

  /// These options with `option` set to `value`.
  public func setting<Value>(_ option: BackendOption<Value>, to value: Value) -> BackendOptions {
    var options = self
    options[option] = value
    return options
  }

  /// Parses comma-separated `KEY=VALUE` pairs (`short-answers=false,icu-raw=true`), starting
  /// from the defaults, against the `declared` options. A key not declared, or a value the
  /// option does not take, is an error that names it and what is accepted.
  public init(parsing pairs: String, declared: [BackendOptionDeclaration]) throws {
    for pair in pairs.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw ParseError(message: "expected KEY=VALUE, not '\(pair)'") }
      guard let declaration = declared.first(where: { $0.name == parts[0] }) else {
        let known = Set(declared.map(\.name)).sorted().joined(separator: ", ")
        throw ParseError(message: "unknown backend option '\(parts[0])' (the options are \(known))")
      }
      guard let value = declaration.canonical(parts[1]) else {
        throw ParseError(message: "\(parts[0]) is \(declaration.syntax), not '\(parts[1])'")
      }
      values[declaration.name] = value == declaration.defaultText ? nil : value
    }
  }

  /// Whether the option `declaration` describes is set to something other than its default
  /// (how the command line finds the variants that a flag such as `--icu-raw` asks for).
  public func isSet(_ declaration: BackendOptionDeclaration) -> Bool { values[declaration.name] != nil }

  /// An option string that ``init(parsing:declared:)`` does not accept.
  public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the option string.
    public var message: String
    /// The error `message`.
    public init(message: String) { self.message = message }
    public var description: String { message }
  }

  /// The options that differ from the defaults, sorted by name, as
  /// ``init(parsing:declared:)`` reads them; empty for the defaults.
  public var description: String {
    values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
  }
}
