/// A query typed one keystroke at a time. Each call gives the whole current text (after a
/// keystroke or a backspace); a session may reuse the previous keystroke's work, since under
/// both modes extending a query can only shrink its set of matches.
public protocol SearchSession {
  /// Answers the current text of the search box.
  mutating func update(_ text: String) -> SearchResult
}

/// The session that reuses nothing: every keystroke is a fresh
/// ``SearchBackend/search(_:mode:limit:scope:)``.
public struct RepeatingSession<Backend: SearchBackend>: SearchSession {
  /// The backend that answers.
  public let backend: Backend
  /// The contract every keystroke is answered under.
  public let mode: MatchMode
  /// The most hits per answer.
  public let limit: Int
  /// The places every keystroke is answered with.
  public let scope: PlaceScope
  private let normalizer: QueryNormalizer

  /// A session of `backend` over the places in `scope`, each keystroke read with the fuzzy
  /// rules `fuzzy`.
  public init(backend: Backend, mode: MatchMode, limit: Int, scope: PlaceScope = .everything, fuzzy: FuzzyRules = []) {
    self.backend = backend
    self.mode = mode
    self.limit = limit
    self.scope = scope
    self.normalizer = QueryNormalizer(tables: backend.corpus.tables, fuzzy: fuzzy)
  }

  public mutating func update(_ text: String) -> SearchResult {
    backend.search(normalizer.normalize(text), mode: mode, limit: limit, scope: scope)
  }
}
