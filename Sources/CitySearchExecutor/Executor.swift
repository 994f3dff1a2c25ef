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
  /// What an implementation in another process said of itself (``ProcessExecutor``); `nil`
  /// for one in this process.
  var handshake: WireHandshake.Reply? { get }
  /// The answers of `texts`, each in a session of its own, for a replay that needs neither
  /// order with other implementations nor a round trip per answer (a conformance profile); an
  /// executor in another process sends them in batches.
  func answersAlone(_ texts: [String]) -> [Result<ExecutorAnswer, any Error>]
  /// Set once the executor has failed for good (its process crashed, hung or sent what is not
  /// an answer): every later call throws it. `nil` while it answers.
  var failure: ExecutorError? { get }
}

extension Executor {
  /// In this process: no handshake.
  public var handshake: WireHandshake.Reply? { nil }
  /// In this process: never failed.
  public var failure: ExecutorError? { nil }
  /// Each text answered alone, one after the other.
  public func answersAlone(_ texts: [String]) -> [Result<ExecutorAnswer, any Error>] {
    texts.map { text in Result { try answerAlone(text) } }
  }
  /// Whether the implementation runs in another process.
  public var isExternal: Bool { handshake != nil }
}

/// One answer of an ``Executor``: the result and the nanoseconds the executor measured around
/// its own search call.
public struct ExecutorAnswer: Sendable {
  /// What the implementation answered.
  public var result: SearchResult
  /// The time of the answer, measured inside the executor.
  public var nanoseconds: UInt64
  /// For an implementation in another process, the time from writing the query to reading the
  /// whole answer, measured by the host: what crossing the process costs on top of
  /// ``nanoseconds``.
  public var roundTripNanoseconds: UInt64?

  /// An answer of `result` that took `nanoseconds` (and `roundTripNanoseconds` from the host).
  public init(result: SearchResult, nanoseconds: UInt64, roundTripNanoseconds: UInt64? = nil) {
    self.result = result
    self.nanoseconds = nanoseconds
    self.roundTripNanoseconds = roundTripNanoseconds
  }
}
