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

  /// Answers a normalized query with the places in `scope` (MatchSpec §9), its Latin pieces
  /// read with the query's fuzzy rules (``NormalizedQuery/fuzzy``, §3.5). An empty query has
  /// zero results. `scope` is ``PlaceScope/everything`` or was resolved for ``corpus``.
  func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult

  /// Starts a typing session: the same query typed one keystroke at a time, read with the fuzzy
  /// rules `fuzzy` and answered with the places in `scope`.
  func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope, fuzzy: FuzzyRules) -> Session
}

extension SearchBackend {
  /// No statistics: an index of no counted bytes.
  public var statistics: IndexStatistics { IndexStatistics(countedBytes: 0) }

  /// No options, no variants, every query answered.
  public static var descriptor: BackendDescriptor { BackendDescriptor() }

  /// Answers a normalized query with every place in scope.
  @inlinable
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult {
    search(query, mode: mode, limit: limit, scope: .everything)
  }

  /// Normalizes `text` (MatchSpec §2) and answers it with the places in `scope`, read with the
  /// fuzzy rules `fuzzy` (§3.5).
  public func search(
    _ text: String, mode: MatchMode = .syllable, limit: Int = 20, scope: PlaceScope = .everything,
    fuzzy: FuzzyRules = []
  ) -> SearchResult {
    search(QueryNormalizer(tables: corpus.tables, fuzzy: fuzzy).normalize(text), mode: mode, limit: limit, scope: scope)
  }

  /// Starts a typing session over every place, with no fuzzy rule.
  @inlinable
  public func makeSession(mode: MatchMode, limit: Int) -> Session {
    makeSession(mode: mode, limit: limit, scope: .everything, fuzzy: [])
  }

  /// Starts a typing session over the places in `scope`, with no fuzzy rule.
  @inlinable
  public func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope) -> Session {
    makeSession(mode: mode, limit: limit, scope: scope, fuzzy: [])
  }
}

extension SearchBackend where Session == RepeatingSession<Self> {
  /// A session that answers every keystroke with ``search(_:mode:limit:scope:)``.
  public func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope, fuzzy: FuzzyRules) -> RepeatingSession<Self> {
    RepeatingSession(backend: self, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
  }
}
