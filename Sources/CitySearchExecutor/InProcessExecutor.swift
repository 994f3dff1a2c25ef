import CitySearch

/// The suite's own backends in the executor seat: generic over the backend, so that the timed
/// call is specialized and the seat's dynamic dispatch happens outside the timed region.
///
/// It types into the backend's session (``Replay/sessions``) or answers every keystroke
/// afresh from the index, with nothing kept from the one before (``Replay/stateless``).
public final class InProcessExecutor<Backend: SearchBackend>: Executor {
  /// The backend answering.
  public let backend: Backend
  /// The name reports show.
  public let name: String
  /// The mode every answer is in.
  public let mode: MatchMode
  /// The hits per answer.
  public let limit: Int
  /// Sessions or stateless.
  public let replay: Replay
  /// The places every answer is asked for (MatchSpec §9.1).
  public let scope: PlaceScope
  /// The fuzzy rules every keystroke is read with (MatchSpec §3.5).
  public let fuzzy: FuzzyRules
  /// What adds the two-level matches to each answer (MatchSpec §9.2), inside the timed region;
  /// `nil` when they are not read.
  public let twoLevel: TwoLevelSearch<Backend>?
  /// Nanoseconds of busy work added inside every timed answer (the gate's self-test proves
  /// with it that a slower build fails).
  public let slowdown: UInt64
  /// The current session, behind a pointer the executor owns. A stored property would be
  /// accessed with a dynamic exclusivity check held open for the whole update, inside the timed
  /// region, and every access the backend checks during the update would cost more (each scans
  /// the open ones): about 130 more instructions a keystroke, and 4 % more on a broad one such
  /// as `xian` on cities for `trie`.
  private let session: UnsafeMutablePointer<Backend.Session>
  private let normalizer: QueryNormalizer

  /// An executor of `backend` named `name`, answering with the places in `scope`, every
  /// keystroke read with the fuzzy rules `fuzzy`, and with two-level queries when `twoLevel`.
  public init(
    backend: Backend, name: String, mode: MatchMode, limit: Int, replay: Replay = .sessions, slowdown: UInt64 = 0,
    scope: PlaceScope = .everything, fuzzy: FuzzyRules = [], twoLevel: Bool = false
  ) {
    self.backend = backend
    self.name = name
    self.mode = mode
    self.limit = limit
    self.replay = replay
    self.slowdown = slowdown
    self.scope = scope
    self.fuzzy = fuzzy
    self.twoLevel = twoLevel ? TwoLevelSearch(backend: backend) : nil
    session = .allocate(capacity: 1)
    session.initialize(to: backend.makeSession(mode: mode, limit: limit, scope: scope, fuzzy: fuzzy))
    normalizer = QueryNormalizer(tables: backend.corpus.tables, fuzzy: fuzzy)
  }

  deinit {
    session.deinitialize(count: 1)
    session.deallocate()
  }

  /// The suite's backends rank, report ranges and exact totals; a session keeps state unless
  /// the replay is stateless or the backend's session answers every keystroke afresh anyway
  /// (`RepeatingSession`).
  public var capabilities: ExecutorCapabilities {
    ExecutorCapabilities(sessions: replay == .sessions && Backend.Session.self != RepeatingSession<Backend>.self)
  }

  /// A fresh session of the backend (stateless: nothing to start).
  public func startSession() {
    if replay == .sessions {
      session.pointee = backend.makeSession(mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    }
  }

  /// The session's answer to `text`, or the index's in a stateless replay, timed.
  ///
  /// - Complexity: the backend's session update or search.
  public func answer(_ text: String) -> ExecutorAnswer {
    switch replay {
    case .sessions:
      return timed(text, typedInto: &session.pointee)
    case .stateless:
      return answerStatelessly(text)
    }
  }

  /// The answer to `text` in a session of its own (stateless: the same as ``answer(_:)``),
  /// timed; the session is made before the clock starts.
  public func answerAlone(_ text: String) -> ExecutorAnswer {
    guard replay == .sessions else { return answerStatelessly(text) }
    var alone = backend.makeSession(mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
    return timed(text, typedInto: &alone)
  }

  /// `session`'s answer to `text` (with its two-level matches, when read), timed around the
  /// update alone.
  @inline(__always)
  private func timed(_ text: String, typedInto session: inout Backend.Session) -> ExecutorAnswer {
    let (twoLevel, slowdown, mode, limit, scope) = (self.twoLevel, self.slowdown, self.mode, self.limit, self.scope)
    let start = MonotonicClock.now()
    var result = session.update(text)
    if let twoLevel { result = twoLevel.addingTwoLevelMatches(to: result, mode: mode, limit: limit, scope: scope) }
    MonotonicClock.spin(nanoseconds: slowdown)
    return ExecutorAnswer(result: result, nanoseconds: MonotonicClock.now() &- start)
  }

  private func answerStatelessly(_ text: String) -> ExecutorAnswer {
    let start = MonotonicClock.now()
    var result = backend.search(normalizer.normalize(text), mode: mode, limit: limit, scope: scope)
    if let twoLevel { result = twoLevel.addingTwoLevelMatches(to: result, mode: mode, limit: limit, scope: scope) }
    MonotonicClock.spin(nanoseconds: slowdown)
    return ExecutorAnswer(result: result, nanoseconds: MonotonicClock.now() &- start)
  }
}

extension SearchBackend {
  /// This backend in the executor seat (``InProcessExecutor``), for a replay that holds
  /// backends of many types: the concrete type is opened here, so the timed call stays
  /// specialized.
  public func executor(
    name: String, mode: MatchMode, limit: Int, replay: Replay = .sessions,
    slowdown: UInt64 = 0, scope: PlaceScope = .everything, fuzzy: FuzzyRules = [], twoLevel: Bool = false
  ) -> any Executor {
    InProcessExecutor(
      backend: self, name: name, mode: mode, limit: limit, replay: replay, slowdown: slowdown, scope: scope,
      fuzzy: fuzzy, twoLevel: twoLevel)
  }
}
