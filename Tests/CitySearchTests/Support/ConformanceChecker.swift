import CitySearch
import CitySearchBackends
import Testing

/// The differential checker every backend's tests call: a backend must return exactly what the
/// reference returns — total, ordered ids, ranges and classes — stateless and through its
/// session API, keystroke by keystroke (with backspaces).
struct ConformanceChecker<Backend: SearchBackend> {
  let backend: Backend
  let reference: LinearScanBackend
  let limit: Int

  init(_ backend: Backend, reference: LinearScanBackend, limit: Int = 20) {
    self.backend = backend
    self.reference = reference
    self.limit = limit
  }

  /// A readable description of the first difference between two results, or `nil`.
  static func difference(expected: SearchResult, actual: SearchResult) -> String? {
    if expected.total != actual.total { return "total \(actual.total), expected \(expected.total)" }
    for (position, (e, a)) in zip(expected.hits, actual.hits).enumerated() where e != a {
      return "position \(position + 1): got \(a.id) \(a.match), expected \(e.id) \(e.match)"
    }
    if expected.hits.count != actual.hits.count {
      return "\(actual.hits.count) hits, expected \(expected.hits.count)"
    }
    return nil
  }

  /// Checks one query in one mode, stateless.
  func check(_ query: String, mode: MatchMode, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let expected = reference.search(query, mode: mode, limit: limit)
    let actual = backend.search(query, mode: mode, limit: limit)
    if let diff = Self.difference(expected: expected, actual: actual) {
      Issue.record("\(Backend.name) \(mode) '\(query)': \(diff)", sourceLocation: sourceLocation)
    }
  }

  /// Types `query` one character at a time, backspaces `backspaces` characters and retypes
  /// them, comparing every keystroke's answer with the reference's stateless answer.
  func checkTyping(
    _ query: String, mode: MatchMode, backspaces: Int = 2, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    var session = backend.makeSession(mode: mode, limit: limit)
    let characters = Array(query)
    var keystrokes: [String] = (1...max(characters.count, 1)).map { String(characters.prefix($0)) }
    let cut = max(characters.count - backspaces, 0)
    keystrokes += (cut..<characters.count).reversed().map { String(characters.prefix($0)) }
    keystrokes += (cut..<characters.count).map { String(characters.prefix($0 + 1)) }
    for text in keystrokes {
      let expected = reference.search(text, mode: mode, limit: limit)
      if let diff = Self.difference(expected: expected, actual: session.update(text)) {
        Issue.record(
          "\(Backend.name) session \(mode) at '\(text)' of '\(query)': \(diff)", sourceLocation: sourceLocation)
        return
      }
    }
  }
}
