/// What went wrong with an executor, as a replay reports it: the executor's name, the query
/// (when there was one), the failure and what came back.
public struct ExecutorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The executor's name.
  public var executor: String
  /// The text of the query it failed on; `nil` for the handshake.
  public var query: String?
  /// The failure.
  public var error: WireError
  /// The start of the line that came back, when one did.
  public var received: String?

  /// An error as the fields say.
  public init(executor: String, query: String?, error: WireError, received: String?) {
    self.executor = executor
    self.query = query
    self.error = error
    self.received = received
  }

  /// `executor 'NAME', query 'bj': malformed: … (it sent: {"id":…)`.
  public var description: String {
    var text = "executor '\(executor)'"
    text += query.map { ", query '\($0)'" } ?? ", handshake"
    text += ": \(error)"
    if let received { text += " (it sent: \(received))" }
    return text
  }

  /// The first 200 bytes of `line`, for a message.
  static func quote(_ line: [UInt8]) -> String {
    let shown = String(decoding: line.prefix(200), as: UTF8.self)
    return line.count > 200 ? shown + "… (\(line.count) bytes)" : shown
  }
}
