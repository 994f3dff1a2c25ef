import CitySearch
import CitySearchConformance
import Testing

/// The differential checker every backend's tests call: a backend must return exactly what the
/// reference returns — total, ordered ids, ranges and classes — stateless and through its
/// session API, keystroke by keystroke (with backspaces). Differences are described by
/// ``ResultDifference``, the same comparison `citybench conform` uses.
public struct ConformanceChecker<Backend: SearchBackend> {
  /// The backend checked.
  public let backend: Backend
  /// The reference it is checked against.
  public let reference: LinearScanBackend
  /// The hits compared per answer.
  public let limit: Int
  /// The places both are asked to answer with.
  public let scope: PlaceScope
  /// The fuzzy rules both read every query with (MatchSpec §3.5).
  public let fuzzy: FuzzyRules

  /// A checker of `backend` against `reference`, comparing `limit` hits of the places in
  /// `scope`, queries read with the fuzzy rules `fuzzy`.
  public init(
    _ backend: Backend, reference: LinearScanBackend, limit: Int = 20, scope: PlaceScope = .everything,
    fuzzy: FuzzyRules = []
  ) {
    self.backend = backend
    self.reference = reference
    self.limit = limit
    self.scope = scope
    self.fuzzy = fuzzy
  }

  /// Where a difference was found: the scope, and the fuzzy rules when there are any.
  private var setting: String { fuzzy.isEmpty ? "\(scope)" : "\(scope), fuzzy \(fuzzy)" }

  /// Checks one query in one mode, stateless. Returns whether it conformed.
  @discardableResult
  public func check(_ query: String, mode: MatchMode, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool
  {
    let expected = reference.search(query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    let actual = backend.search(query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    guard let difference = ResultDifference(expected: expected, actual: actual) else { return true }
    Issue.record("\(Backend.name) \(mode) '\(query)' (\(setting)): \(difference)", sourceLocation: sourceLocation)
    return false
  }

  /// Types `query` one character at a time, backspaces two characters and retypes them,
  /// comparing every keystroke's answer with the reference's stateless answer.
  @discardableResult
  public func checkTyping(_ query: String, mode: MatchMode, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> Bool
  {
    var session = backend.makeSession(mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    return replay(query, into: &session, named: "session \(mode)", sourceLocation: sourceLocation) {
      reference.search($0, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    }
  }

  /// Types `query` keystroke by keystroke (with backspaces) into `session`, comparing each
  /// answer with `expected`'s for the same text; records the first difference as `named`.
  private func replay<Session: SearchSession>(
    _ query: String, into session: inout Session, named label: String, sourceLocation: Testing.SourceLocation,
    expected: (String) -> SearchResult
  ) -> Bool {
    for text in ConformanceQueries.keystrokes(typing: query) {
      if let difference = ResultDifference(expected: expected(text), actual: session.update(text)) {
        Issue.record(
          "\(Backend.name) \(label) at '\(text)' of '\(query)' (\(setting)): \(difference)",
          sourceLocation: sourceLocation)
        return false
      }
    }
    return true
  }

  /// Checks one query in one mode with two-level queries read (MatchSpec §9.2): the backend's
  /// ``TwoLevelSearch`` against the reference's, stateless, both with `heads` (built once for
  /// the corpus). Returns whether it conformed.
  @discardableResult
  public func checkTwoLevel(
    _ query: String, mode: MatchMode, heads: PlaceHeads, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> Bool {
    let expected = TwoLevelSearch(backend: reference, heads: heads).search(
      query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    let actual = TwoLevelSearch(backend: backend, heads: heads).search(
      query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    guard let difference = ResultDifference(expected: expected, actual: actual) else { return true }
    Issue.record(
      "\(Backend.name) two-level \(mode) '\(query)' (\(setting)): \(difference)", sourceLocation: sourceLocation)
    return false
  }

  /// Types `query` keystroke by keystroke (with backspaces) through the backend's
  /// ``TwoLevelSession``, comparing each answer with the reference's stateless two-level answer.
  @discardableResult
  public func checkTwoLevelTyping(
    _ query: String, mode: MatchMode, heads: PlaceHeads, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) -> Bool {
    let expected = TwoLevelSearch(backend: reference, heads: heads)
    var session = TwoLevelSearch(backend: backend, heads: heads).makeSession(
      mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    return replay(query, into: &session, named: "two-level session \(mode)", sourceLocation: sourceLocation) {
      expected.search($0, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    }
  }
}
