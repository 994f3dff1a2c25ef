/// How a replay's keystrokes reach an implementation.
public enum Replay: String, Sendable, Codable, CaseIterable {
  /// Typed into a session that may keep what it learned from the keystrokes before
  /// (`SearchBackend.makeSession(mode:limit:)` in process).
  case sessions
  /// Each keystroke answered afresh from the index, with nothing kept from the one before
  /// (`SearchBackend.search(_:mode:limit:)` in process).
  case stateless
}
