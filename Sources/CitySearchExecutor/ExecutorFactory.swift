import CitySearch

/// What a replay asks of the executors it makes: the mode and the number of places of every
/// answer, sessions or stateless, the scope and the fuzzy rules.
public struct ExecutorRequest: Sendable, Equatable {
  /// The mode every answer is in.
  public var mode: MatchMode
  /// The hits per answer; `Int.max` for every match (the conformance check's full answers).
  public var limit: Int
  /// Typing into sessions, or every keystroke afresh.
  public var replay: Replay
  /// The places every answer is asked for (MatchSpec §9.1).
  public var scope: PlaceScope
  /// The fuzzy rules every keystroke is read with (MatchSpec §3.5).
  public var fuzzy: FuzzyRules
  /// Whether two-level queries are read (MatchSpec §9.2); the suite's own backends only.
  public var twoLevel: Bool

  /// A request; every place, no fuzzy rules and no two-level queries unless given.
  public init(
    mode: MatchMode, limit: Int, replay: Replay, scope: PlaceScope = .everything, fuzzy: FuzzyRules = [],
    twoLevel: Bool = false
  ) {
    self.mode = mode
    self.limit = limit
    self.replay = replay
    self.scope = scope
    self.fuzzy = fuzzy
    self.twoLevel = twoLevel
  }
}

/// Makes executors of one implementation, as many as a replay needs: an executor holds one
/// session at a time, so a replay spread over the cores makes one per worker, and a check that
/// needs every match as well as the first few makes one of each.
public struct ExecutorFactory: Sendable {
  /// The name reports give the implementation.
  public let name: String
  private let make: @Sendable (ExecutorRequest) -> any Executor

  /// A factory of executors named `name`, each made by `make`.
  public init(name: String, make: @escaping @Sendable (ExecutorRequest) -> any Executor) {
    self.name = name
    self.make = make
  }

  /// A new executor answering as `request` says.
  public func executor(_ request: ExecutorRequest) -> any Executor { make(request) }
}

extension SearchBackend {
  /// Executors of this backend (``InProcessExecutor``), all sharing it: the index is built
  /// once, each executor owns its session.
  public func executors(name: String) -> ExecutorFactory {
    ExecutorFactory(name: name) { request in
      InProcessExecutor(
        backend: self, name: name, mode: request.mode, limit: request.limit, replay: request.replay,
        scope: request.scope, fuzzy: request.fuzzy, twoLevel: request.twoLevel)
    }
  }
}
