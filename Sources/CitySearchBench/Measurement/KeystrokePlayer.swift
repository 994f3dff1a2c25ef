import CitySearch

/// One backend's side of the replay: it types into its own session and times each answer.
///
/// The replay loop holds players of different backend types; the concrete backend and
/// session types live in the generic ``SessionPlayer``, so the timed call is specialized and
/// the dynamic dispatch happens outside the timed region.
class KeystrokePlayer {
  let name: String
  /// Nanoseconds of busy work added to every timed answer (the gate's self-test).
  let slowdown: UInt64

  init(name: String, slowdown: UInt64) {
    self.name = name
    self.slowdown = slowdown
  }

  /// Starts a new typing session (not timed).
  func startSession() { fatalError("abstract") }
  /// Answers the next keystroke of the current session; returns the answer and its time.
  func answer(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) { fatalError("abstract") }
  /// Answers `text` in a session of its own, for backends timed on a sample of keystrokes.
  func answerAlone(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) { fatalError("abstract") }
}

final class SessionPlayer<Backend: SearchBackend>: KeystrokePlayer {
  let backend: Backend
  let mode: MatchMode
  let limit: Int
  private var session: Backend.Session

  init(backend: Backend, name: String, mode: MatchMode, limit: Int, slowdown: UInt64) {
    self.backend = backend
    self.mode = mode
    self.limit = limit
    self.session = backend.makeSession(mode: mode, limit: limit)
    super.init(name: name, slowdown: slowdown)
  }

  override func startSession() { session = backend.makeSession(mode: mode, limit: limit) }

  override func answer(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) {
    let start = MonotonicClock.now()
    let result = session.update(text)
    MonotonicClock.spin(nanoseconds: slowdown)
    let end = MonotonicClock.now()
    return (result, end &- start)
  }

  override func answerAlone(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) {
    var alone = backend.makeSession(mode: mode, limit: limit)
    let start = MonotonicClock.now()
    let result = alone.update(text)
    MonotonicClock.spin(nanoseconds: slowdown)
    let end = MonotonicClock.now()
    return (result, end &- start)
  }
}

/// The stateless replay: every keystroke is normalized and answered afresh from the backend's
/// index (``SearchBackend/search(_:mode:limit:)``), with nothing kept from the one before, so
/// the time is the index's own and not a session's.
final class StatelessPlayer<Backend: SearchBackend>: KeystrokePlayer {
  let backend: Backend
  let mode: MatchMode
  let limit: Int
  private let normalizer: QueryNormalizer

  init(backend: Backend, name: String, mode: MatchMode, limit: Int, slowdown: UInt64) {
    self.backend = backend
    self.mode = mode
    self.limit = limit
    self.normalizer = QueryNormalizer(tables: backend.corpus.tables)
    super.init(name: name, slowdown: slowdown)
  }

  override func startSession() {}

  override func answer(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) {
    let start = MonotonicClock.now()
    let result = backend.search(normalizer.normalize(text), mode: mode, limit: limit)
    MonotonicClock.spin(nanoseconds: slowdown)
    let end = MonotonicClock.now()
    return (result, end &- start)
  }

  override func answerAlone(_ text: String) -> (result: SearchResult, nanoseconds: UInt64) { answer(text) }
}

/// A player for `backend`, its concrete type opened from the existential: typing into a session,
/// or `stateless`.
func makePlayer(
  _ backend: some SearchBackend, name: String, mode: MatchMode, limit: Int, slowdown: UInt64, stateless: Bool
) -> KeystrokePlayer {
  stateless
    ? StatelessPlayer(backend: backend, name: name, mode: mode, limit: limit, slowdown: slowdown)
    : SessionPlayer(backend: backend, name: name, mode: mode, limit: limit, slowdown: slowdown)
}
