/// What the suite knows of a backend besides its code: the options it reads, the variants a
/// conformance run adds, and how costly its queries are.
///
/// Each backend declares its own (``SearchBackend/descriptor``; the default says: no options,
/// no variants, every query answered); the catalog lists the backends, and the command line
/// and the harness read their descriptors, so that neither names a backend.
///
/// ```swift
/// public static let descriptor = BackendDescriptor(
///   options: ["icu-raw"],
///   variants: [.init(suffix: "raw", options: BackendOptions(icuRaw: true), summary: "plain ICU")],
///   conformanceSample: [.cities: 300, .towns: 30, .villages: 4])
/// ```
public struct BackendDescriptor: Sendable {
  /// The names of the ``BackendOptions`` the backend reads (as ``BackendOptions/names`` spells
  /// them); the others it ignores.
  public var options: [String]
  /// Other configurations of the backend that a conformance run checks on request, each
  /// expected to diverge from the reference where its expected failures say.
  public var variants: [Variant]
  /// How many queries per tier a conformance run asks a backend too slow to answer every one:
  /// an even sample; a tier not listed, or an empty table, means every query.
  public var conformanceSample: [CorpusTier: Int]
  /// Loads what every instance in a process shares, once (ICU's data and its `Han-Latin`
  /// rules): the harness calls it before it measures a build, so that a build's time and heap
  /// are its own whichever backend was built first. `nil` when instances share nothing.
  public var sharedSetup: (@Sendable () throws -> Void)?

  /// A descriptor; the defaults describe a backend with no options or variants that answers
  /// every query and shares nothing between instances.
  public init(
    options: [String] = [], variants: [Variant] = [], conformanceSample: [CorpusTier: Int] = [:],
    sharedSetup: (@Sendable () throws -> Void)? = nil
  ) {
    self.options = options
    self.variants = variants
    self.conformanceSample = conformanceSample
    self.sharedSetup = sharedSetup
  }

  /// A named configuration of a backend that departs from the contract on purpose (to measure
  /// what a plain library gets wrong), checked against the expected failures.
  public struct Variant: Sendable, Hashable {
    /// Appended to the backend's name with a hyphen to label the variant (`icu-raw`).
    public var suffix: String
    /// The options that make it.
    public var options: BackendOptions
    /// What it is, for a listing.
    public var summary: String

    /// A variant labelled `NAME-suffix`, built with `options`.
    public init(suffix: String, options: BackendOptions, summary: String) {
      self.suffix = suffix
      self.options = options
      self.summary = summary
    }

    /// The variant's label for a backend named `name`.
    public func label(of name: String) -> String { name + "-" + suffix }
  }
}
