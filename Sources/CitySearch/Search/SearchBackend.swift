/// How a backend builds its index. Each option is read by the backends it names and ignored
/// by the others; the defaults are what the command line and the reports use.
///
/// ```swift
/// let plain = try ICUCachedBackend(corpus: corpus, options: BackendOptions(icuRaw: true))
/// let options = try BackendOptions(parsing: "short-answers=false")  // the command line's form
/// ```
public struct BackendOptions: Sendable, Hashable, CustomStringConvertible {
  /// `icu`, `icu-cached`: transliterate with plain ICU `Han-Latin`, without the override rules
  /// that correct place-name readings (to measure what ICU alone gets wrong).
  public var icuRaw: Bool
  /// `trie`, `inverted-index`: precompute the answers to the one- and two-letter queries that
  /// match most of the corpus (docs/backends/trie.md); off, they are searched like any other.
  public var shortAnswers: Bool
  /// Builds on every core where a backend can (the short answers); off, on the calling thread
  /// alone. The index is the same either way; the instruction count replays build on one
  /// thread, so that their heap, and with it every keystroke's count, is the same each run.
  public var concurrentBuild: Bool

  /// Options; the defaults are what an app wants.
  public init(icuRaw: Bool = false, shortAnswers: Bool = true, concurrentBuild: Bool = true) {
    self.icuRaw = icuRaw
    self.shortAnswers = shortAnswers
    self.concurrentBuild = concurrentBuild
  }

  /// The options' names on the command line, each with its values.
  public static let names = [
    "icu-raw": "true|false", "short-answers": "true|false", "concurrent-build": "true|false",
  ]

  /// Parses comma-separated `KEY=VALUE` pairs (`icu-raw=true,short-answers=false`), starting
  /// from the defaults. An unknown key or a value that is not `true` or `false` is an error
  /// that names it.
  public init(parsing pairs: String) throws {
    self.init()
    for pair in pairs.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw ParseError(message: "expected KEY=VALUE, not '\(pair)'") }
      guard Self.names[parts[0]] != nil else {
        let known = Self.names.keys.sorted().joined(separator: ", ")
        throw ParseError(message: "unknown backend option '\(parts[0])' (the options are \(known))")
      }
      guard let value = Bool(parts[1]) else {
        throw ParseError(message: "\(parts[0]) is true or false, not '\(parts[1])'")
      }
      switch parts[0] {
      case "icu-raw": icuRaw = value
      case "short-answers": shortAnswers = value
      default: concurrentBuild = value
      }
    }
  }

  /// An option string that ``init(parsing:)`` does not accept.
  public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the option string.
    public var message: String
    /// The error `message`.
    public init(message: String) { self.message = message }
    public var description: String { message }
  }

  /// The options that differ from the defaults, as ``init(parsing:)`` reads them; empty for
  /// the defaults.
  public var description: String {
    var pairs: [String] = []
    if icuRaw { pairs.append("icu-raw=true") }
    if !shortAnswers { pairs.append("short-answers=false") }
    if !concurrentBuild { pairs.append("concurrent-build=false") }
    return pairs.joined(separator: ",")
  }
}

/// What a backend reports about its index once built, for reports and `citybench backends`.
public struct IndexStatistics: Sendable, Hashable {
  /// The bytes of the backend's own structures, counted from their element counts (or, for
  /// SQLite, SQLite's own allocation counter). The corpus, shared by every backend, is not
  /// included; the harness also measures the allocator around the build.
  public var countedBytes: Int
  /// Facts worth a line in a report, such as `["override rules": "131"]`.
  public var notes: [String: String]

  /// Statistics of an index of `countedBytes` bytes, with notes.
  public init(countedBytes: Int, notes: [String: String] = [:]) {
    self.countedBytes = countedBytes
    self.notes = notes
  }
}

/// A city search strategy. Every backend builds from a ``Corpus`` and must return exactly what
/// the reference (`LinearScanBackend` in `CitySearchBackends`) returns: the same total, the
/// same ordered hits, the same match ranges and classes, in both modes.
///
/// Backends are immutable after `init` and safe to query from many threads.
///
/// ```swift
/// let backend = LinearScanBackend(corpus: corpus)
/// let result = backend.search("bj", mode: .syllable, limit: 20)
/// print(result.total, result.hits.map(\.id))
/// ```
public protocol SearchBackend: Sendable {
  /// The backend's typing session; by default one that answers every keystroke afresh.
  associatedtype Session: SearchSession = RepeatingSession<Self>

  /// The name used on the command line (`--backends NAME`).
  static var name: String { get }
  /// A one-line description.
  static var summary: String { get }
  /// The options it reads, its variants and its cost (``BackendDescriptor``).
  static var descriptor: BackendDescriptor { get }

  /// Builds the backend's index over `corpus`.
  init(corpus: Corpus, options: BackendOptions) throws

  /// The corpus the index was built from.
  var corpus: Corpus { get }

  /// The size of the index and notes about it.
  var statistics: IndexStatistics { get }

  /// Answers a normalized query. An empty query has zero results.
  func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult

  /// Starts a typing session: the same query typed one keystroke at a time.
  func makeSession(mode: MatchMode, limit: Int) -> Session
}

extension SearchBackend {
  /// No statistics: an index of no counted bytes.
  public var statistics: IndexStatistics { IndexStatistics(countedBytes: 0) }

  /// No options, no variants, every query answered.
  public static var descriptor: BackendDescriptor { BackendDescriptor() }

  /// Normalizes `text` (MatchSpec §2) and answers it.
  public func search(_ text: String, mode: MatchMode = .syllable, limit: Int = 20) -> SearchResult {
    search(QueryNormalizer(tables: corpus.tables).normalize(text), mode: mode, limit: limit)
  }
}

extension SearchBackend where Session == RepeatingSession<Self> {
  /// A session that answers every keystroke with ``search(_:mode:limit:)``.
  public func makeSession(mode: MatchMode, limit: Int) -> RepeatingSession<Self> {
    RepeatingSession(backend: self, mode: mode, limit: limit)
  }
}
