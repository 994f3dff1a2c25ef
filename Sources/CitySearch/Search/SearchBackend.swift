/// Options a backend may read at build time (for example `icu-raw`); unknown keys are ignored.
public struct BackendOptions: Sendable, Hashable {
  public var values: [String: String]
  public init(_ values: [String: String] = [:]) { self.values = values }
  public subscript(key: String) -> String? { values[key] }
}

/// A city search strategy. Every backend builds from a ``Corpus`` and must return exactly what
/// the reference (``LinearScanBackend`` in `CitySearchBackends`) returns: the same total, the
/// same ordered hits, the same match ranges and classes, in both modes.
///
/// Backends are immutable after `init` and safe to query from many threads.
///
/// ```swift
/// let backend = try LinearScanBackend(corpus: corpus)
/// let result = backend.search("bj", mode: .syllable, limit: 20)
/// print(result.total, result.hits.map(\.id))
/// ```
public protocol SearchBackend: Sendable {
  associatedtype Session: SearchSession = RepeatingSession<Self>

  /// The name used on the command line (`--backend NAME`).
  static var name: String { get }
  /// A one-line description.
  static var summary: String { get }

  /// Builds the backend's index over `corpus`.
  init(corpus: Corpus, options: BackendOptions) throws

  var corpus: Corpus { get }

  /// Answers a normalized query. An empty query has zero results.
  func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult

  /// Starts a typing session: the same query typed one keystroke at a time.
  func makeSession(mode: MatchMode, limit: Int) -> Session
}

extension SearchBackend {
  /// Normalizes `text` (MatchSpec §2) and answers it.
  public func search(_ text: String, mode: MatchMode = .syllable, limit: Int = 20) -> SearchResult {
    search(QueryNormalizer(tables: corpus.tables).normalize(text), mode: mode, limit: limit)
  }
}

extension SearchBackend where Session == RepeatingSession<Self> {
  public func makeSession(mode: MatchMode, limit: Int) -> RepeatingSession<Self> {
    RepeatingSession(backend: self, mode: mode, limit: limit)
  }
}
