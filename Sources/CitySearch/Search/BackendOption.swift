/// A value a backend option holds: written on the command line as its `description` and read
/// back with `init(_:)`.
public protocol BackendOptionValue: LosslessStringConvertible, Sendable, Hashable {
  /// The values it takes, for a listing and an error (`true|false`).
  static var syntax: String { get }
}

extension Bool: BackendOptionValue {
  /// `true|false`.
  public static var syntax: String { "true|false" }
}

extension Int: BackendOptionValue {
  /// A whole number.
  public static var syntax: String { "a whole number" }
}

/// One option a backend reads, declared by the module that reads it: its name on the command
/// line (`KEY=VALUE` in `--options`), its default and what it does. ``BackendOptions`` holds
/// the values, typed by the option.
///
/// ```swift
/// extension BackendOption where Value == Bool {
///   /// Plain ICU, without the override rules.
///   public static var icuRaw: BackendOption<Bool> {
///     BackendOption("icu-raw", default: false, summary: "plain ICU, without the override rules")
///   }
/// }
/// let plain = BackendOptions().setting(.icuRaw, to: true)
/// ```
public struct BackendOption<Value: BackendOptionValue>: Sendable, Hashable {
  /// The name on the command line (`icu-raw`).
  public let name: String
  /// The value when none is given: what an app wants.
  public let defaultValue: Value
  /// What the option does, in one line.
  public let summary: String

  /// An option named `name`, `defaultValue` unless set.
  public init(_ name: String, default defaultValue: Value, summary: String) {
    self.name = name
    self.defaultValue = defaultValue
    self.summary = summary
  }

  /// The option as a descriptor lists it.
  public var declaration: BackendOptionDeclaration {
    BackendOptionDeclaration(
      name: name, syntax: Value.syntax, defaultText: defaultValue.description, summary: summary,
      canonical: { Value($0)?.description })
  }
}

extension BackendOption where Value == Bool {
  /// Build on every core where a backend can; off, on the calling thread alone. The index is
  /// the same either way; the instruction count replays build on one thread, so that their
  /// heap, and with it every keystroke's count, is the same each run. Every backend accepts it.
  public static var concurrentBuild: BackendOption<Bool> {
    BackendOption(
      "concurrent-build", default: true, summary: "build on every core the backend can use (false: on one thread)")
  }
}

/// A ``BackendOption`` without its type, as a ``BackendDescriptor`` lists it and the command
/// line parses it: the name, the values it takes, the default and the check a value passes.
public struct BackendOptionDeclaration: Sendable {
  /// The name on the command line.
  public let name: String
  /// The values it takes (`true|false`).
  public let syntax: String
  /// The default, as text.
  public let defaultText: String
  /// What the option does.
  public let summary: String
  /// The value's canonical text, or `nil` when `text` is not a value of the option.
  public let canonical: @Sendable (_ text: String) -> String?

  /// The options every backend accepts (``BackendOption/concurrentBuild``), besides those its
  /// descriptor declares.
  public static var common: [BackendOptionDeclaration] { [BackendOption.concurrentBuild.declaration] }

  /// `name=syntax (default D): summary`, for a listing.
  public var listing: String { "\(name)=\(syntax) (default \(defaultText)): \(summary)" }
}
