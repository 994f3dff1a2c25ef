/// The first exchange with an executor: what the replay asks for, and what the implementation
/// says of itself.
public enum WireHandshake {
  /// What the replay sends first.
  public struct Request: Codable, Sendable, Hashable {
    /// ``WireProtocol/version``.
    public var version: Int
    /// The corpus file (a TSV of the tier, or the user's file) the implementation loads.
    public var corpusPath: String
    /// The corpus's format (`tsv`, `json`, `plist`).
    public var corpusFormat: String
    /// The match mode (`MatchMode.rawValue`).
    public var mode: String
    /// The hits per answer.
    public var limit: Int
    /// The fuzzy rules every query is to be read with (`FuzzyRules`' text, `zh-z,n-l`, MatchSpec
    /// §3.5); absent for none, so that an implementation that knows no rules can ignore it.
    public var fuzzy: String?

    /// A request for `mode` and `limit` over the corpus at `corpusPath`, queries read with the
    /// fuzzy rules `fuzzy` (none unless given).
    public init(
      version: Int = WireProtocol.version, corpusPath: String, corpusFormat: String, mode: String, limit: Int,
      fuzzy: String? = nil
    ) {
      self.version = version
      self.corpusPath = corpusPath
      self.corpusFormat = corpusFormat
      self.mode = mode
      self.limit = limit
      self.fuzzy = fuzzy
    }
  }

  /// What the executor answers, once it is ready to take queries.
  public struct Reply: Codable, Sendable, Hashable {
    /// ``WireProtocol/version`` as the executor speaks it.
    public var version: Int
    /// The implementation's name.
    public var name: String
    /// Its version.
    public var implementationVersion: String
    /// Its build time, as it measured it.
    public var buildNanoseconds: UInt64
    /// The memory it kept for its index, as it measured it (0 when unknown).
    public var memoryBytes: Int
    /// What it offers.
    public var capabilities: ExecutorCapabilities

    /// A reply as the fields say.
    public init(
      version: Int = WireProtocol.version, name: String, implementationVersion: String, buildNanoseconds: UInt64,
      memoryBytes: Int, capabilities: ExecutorCapabilities
    ) {
      self.version = version
      self.name = name
      self.implementationVersion = implementationVersion
      self.buildNanoseconds = buildNanoseconds
      self.memoryBytes = memoryBytes
      self.capabilities = capabilities
    }
  }
}
