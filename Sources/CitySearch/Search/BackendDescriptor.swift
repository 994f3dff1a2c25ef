/// What the suite knows of a backend besides its code: the options it reads, the variants a
/// conformance run adds, and how costly its queries are.
///
/// Each backend declares its own (``SearchBackend/descriptor``; the default says: no options,
/// no variants, every query answered); the catalog lists the backends, and the command line
/// and the harness read their descriptors, so that neither names a backend.
///
/// ```swift
/// public static let descriptor = BackendDescriptor(
///   options: [BackendOption.icuRaw.declaration],
///   variants: [.init(suffix: "raw", options: BackendOptions().setting(.icuRaw, to: true), summary: "plain ICU")],
///   conformanceSample: [.cities: 300, .towns: 30, .villages: 4])
/// ```
public struct BackendDescriptor: Sendable {
  /// The options the backend reads besides the common ones
  /// (``BackendOptionDeclaration/common``); it ignores the others.
  public var options: [BackendOptionDeclaration]
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
  /// The relative growth of each latency ratio quantile the regression gate allows this
  /// backend when the thresholds file sets none for it: for a backend whose latency swings
  /// with the heap more than the others' (ICU allocates at every keystroke). `nil`: the file's
  /// common allowance.
  public var gateRatioAllowance: Double?

  /// A descriptor; the defaults describe a backend with no options or variants that answers
  /// every query, shares nothing between instances and is gated like the others.
  public init(
    options: [BackendOptionDeclaration] = [], variants: [Variant] = [], conformanceSample: [CorpusTier: Int] = [:],
    sharedSetup: (@Sendable () throws -> Void)? = nil, gateRatioAllowance: Double? = nil
  ) {
    self.options = options
    self.variants = variants
    self.conformanceSample = conformanceSample
    self.sharedSetup = sharedSetup
    self.gateRatioAllowance = gateRatioAllowance
  }

  /// The options the backend accepts: the common ones and its own.
  public var acceptedOptions: [BackendOptionDeclaration] { BackendOptionDeclaration.common + options }

  /// A named configuration of a backend, checked against the expected failures: one that
  /// departs from the contract on purpose (to measure what a plain library gets wrong), or
  /// another structure of the same backend that must conform as it does (`trie-fuzzy-answers`).
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
