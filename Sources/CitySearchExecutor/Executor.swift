import CitySearch

/// The seat through which a replay drives an implementation: the suite's own backends in
/// process (``InProcessExecutor``), and any other implementation the same way (a process
/// speaking the wire protocol of ``WireQuery`` and ``WireAnswer``).
///
/// An executor times itself: the nanoseconds of an ``ExecutorAnswer`` are measured inside the
/// executor, around its own search call, so the seat's dispatch and any conversion stay
/// outside the timed region.
///
/// ```swift
/// let executor = InProcessExecutor(backend: trie, name: "trie", mode: .syllable, limit: 20)
/// try executor.startSession()
/// for text in ["b", "be", "bei"] {
///   let answer = try executor.answer(text)
///   print(text, answer.result.total, answer.nanoseconds)
/// }
/// ```
public protocol Executor: AnyObject {
  /// The name reports show.
  var name: String { get }
  /// What the implementation offers (``ExecutorCapabilities``).
  var capabilities: ExecutorCapabilities { get }
  /// Starts a new typing session; not timed.
  func startSession() throws
  /// Answers the next keystroke of the current session: the box now holds `text`.
  func answer(_ text: String) throws -> ExecutorAnswer
  /// Answers `text` in a session of its own, for an implementation timed on a sample of the
  /// keystrokes.
  func answerAlone(_ text: String) throws -> ExecutorAnswer
}

/// One answer of an ``Executor``: the result and the nanoseconds the executor measured around
/// its own search call.
public struct ExecutorAnswer: Sendable {
  /// What the implementation answered.
  public var result: SearchResult
  /// The time of the answer, measured inside the executor.
  public var nanoseconds: UInt64

  /// An answer of `result` that took `nanoseconds`.
  public init(result: SearchResult, nanoseconds: UInt64) {
    self.result = result
    self.nanoseconds = nanoseconds
  }
}
