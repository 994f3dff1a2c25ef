/// One keystroke sent to an executor.
public struct WireQuery: Codable, Sendable, Hashable {
  /// A number the answer repeats, so that an answer is matched to its query.
  public var id: Int
  /// The text the box holds after the keystroke.
  public var text: String
  /// Starts a new typing session before answering (the first keystroke of a session).
  public var newSession: Bool
  /// Answered in a session of its own, for an implementation timed on a sample.
  public var alone: Bool

  /// A query numbered `id` for the box's `text`.
  public init(id: Int, text: String, newSession: Bool = false, alone: Bool = false) {
    self.id = id
    self.text = text
    self.newSession = newSession
    self.alone = alone
  }
}
