/// What went wrong with an executor or one of its answers, as it travels on the wire and as the
/// replay reports it.
public struct WireError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public enum Kind: String, Codable, Sendable {
    /// The implementation could not answer the query (its own error).
    case failed
    /// A line that is not the JSON expected, or fields that do not fit together.
    case malformed
    /// An id that names no place of the corpus.
    case unknownPlace
    /// No answer within the deadline.
    case timeout
    /// The executor ended.
    case exited
    /// A handshake of another protocol version, mode or corpus.
    case incompatible
  }

  /// The kind of failure.
  public var kind: Kind
  /// What happened, in words.
  public var message: String

  /// An error of `kind` saying `message`.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// `KIND: MESSAGE`.
  public var description: String { "\(kind.rawValue): \(message)" }
}
