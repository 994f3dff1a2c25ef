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

  /// A checker of `backend` against `reference`, comparing `limit` hits of the places in `scope`.
  public init(_ backend: Backend, reference: LinearScanBackend, limit: Int = 20, scope: PlaceScope = .everything) {
    self.backend = backend
    self.reference = reference
    self.limit = limit
    self.scope = scope
  }

  /// Checks one query in one mode, stateless. Returns whether it conformed.
  @discardableResult
  public func check(_ query: String, mode: MatchMode, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool
  {
    let expected = reference.search(query, mode: mode, limit: limit, scope: scope)
    let actual = backend.search(query, mode: mode, limit: limit, scope: scope)
    guard let difference = ResultDifference(expected: expected, actual: actual) else { return true }
    Issue.record("\(Backend.name) \(mode) '\(query)' (\(scope)): \(difference)", sourceLocation: sourceLocation)
    return false
  }

  /// Types `query` one character at a time, backspaces two characters and retypes them,
  /// comparing every keystroke's answer with the reference's stateless answer.
  @discardableResult
  public func checkTyping(_ query: String, mode: MatchMode, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> Bool
  {
    var session = backend.makeSession(mode: mode, limit: limit, scope: scope)
    for text in ConformanceQueries.keystrokes(typing: query) {
      let expected = reference.search(text, mode: mode, limit: limit, scope: scope)
      if let difference = ResultDifference(expected: expected, actual: session.update(text)) {
        Issue.record(
          "\(Backend.name) session \(mode) at '\(text)' of '\(query)' (\(scope)): \(difference)",
          sourceLocation: sourceLocation)
        return false
      }
    }
    return true
  }
}
