import CitySearch
import CitySearchExecutor
import Foundation

/// One divergence from the reference: where it happened and how.
public struct Divergence: Sendable {
  /// The backend's label.
  public let backend: String
  /// The match mode of the query.
  public let mode: MatchMode
  /// The text of the search box when the answers differed.
  public let query: String
  /// For a session divergence, the texts typed before it (oldest first); empty when stateless.
  public let typed: [String]
  /// How the answers differed.
  public let difference: ResultDifference
  /// The places whose presence or match differs between the full (unlimited) answers: the
  /// divergence's signature, matched against the expected failures.
  public let culprits: [PlaceID]
  /// Where the check met it, the same in a shard as in the whole run: a stateless query's
  /// position among the check's distinct queries, or for a session, that count plus the typed
  /// target's position. Divergences are reported in this order.
  public let position: Int

  /// A divergence from its parts.
  public init(
    backend: String, mode: MatchMode, query: String, typed: [String], difference: ResultDifference, culprits: [PlaceID],
    position: Int = 0
  ) {
    self.backend = backend
    self.mode = mode
    self.query = query
    self.typed = typed
    self.difference = difference
    self.culprits = culprits
    self.position = position
  }
}

/// What one backend did on one query set in one mode.
public struct BackendOutcome: Sendable {
  /// The backend's label.
  public let backend: String
  /// The match mode.
  public let mode: MatchMode
  /// Distinct queries answered stateless.
  public var statelessChecked = 0
  /// Distinct queries of the whole query set (more than ``statelessChecked`` in a shard or a sample).
  public var statelessTotal = 0
  /// Keystrokes replayed through the backend's typing session.
  public var keystrokesChecked = 0
  /// Why sessions were not replayed, when they were not.
  public var sessionNote: String?
  /// Divergences accepted by the expected failures.
  public var expectedCount = 0
  /// Divergences not accepted.
  public var unexpectedCount = 0
  /// The first unexpected divergences, in query order (at most ``keptDivergences``).
  public var unexpected: [Divergence] = []
  /// Every place that took part in a divergence (expected or not).
  public var culprits: Set<PlaceID> = []
  /// The first error the implementation's executor threw; the check fails with it, and the
  /// queries after it in its worker's part were not compared.
  public var executorError: String?

  /// How many unexpected divergences an outcome keeps to report.
  public static let keptDivergences = 20

  /// Whether every answer was the reference's.
  public var conforms: Bool { expectedCount == 0 && unexpectedCount == 0 && executorError == nil }
}

/// The differential check: answers every query with the reference (once per text, cached) and
/// compares each backend's answer with it, stateless and keystroke by keystroke through the
/// backend's session. Work is spread over the machine's cores.
public final class DifferentialRun: @unchecked Sendable {
  /// The backend whose answers are right by definition (docs/MatchSpec.md).
  public let reference: LinearScanBackend
  /// How many ranked places each compared answer lists.
  public let limit: Int
  /// The places every answer, the reference's and the backends', is asked for (MatchSpec §9.1).
  public let scope: PlaceScope
  /// The fuzzy rules every query is read with, by the reference and the backends (MatchSpec §3.5).
  public let fuzzy: FuzzyRules
  /// The keyboard the targets are typed on (MatchSpec §2.10): each keystroke asks what it reads
  /// of the keys so far; `nil` for full pinyin.
  public let keyboard: Keyboard?
  /// What answers two-level queries by the reference (MatchSpec §9.2), when the run reads them:
  /// every executor is then asked for them too.
  public let twoLevel: TwoLevelSearch<LinearScanBackend>?
  private var answers: [MatchMode: [String: SearchResult]] = [:]
  private let lock = NSLock()

  /// A check against `reference`, comparing answers of `limit` places in `scope`, every query
  /// read with the fuzzy rules `fuzzy` (and as a two-level query when `twoLevel`), the targets
  /// typed on `keyboard`.
  public init(
    reference: LinearScanBackend, limit: Int = 20, scope: PlaceScope = .everything, fuzzy: FuzzyRules = [],
    keyboard: Keyboard? = nil, twoLevel: Bool = false
  ) {
    self.reference = reference
    self.limit = limit
    self.scope = scope
    self.fuzzy = fuzzy
    self.keyboard = keyboard
    self.twoLevel = twoLevel ? TwoLevelSearch(backend: reference) : nil
  }

  /// The reference's answer to `text` with `limit` hits, as the run asks every executor.
  private func referenceAnswer(_ text: String, mode: MatchMode, limit: Int) -> SearchResult {
    guard let twoLevel else { return reference.search(text, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy) }
    return twoLevel.search(text, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)
  }

  /// The texts asked while `target` is typed (``ConformanceQueries/keystrokes(typing:backspaces:)``),
  /// each as the keyboard reads it when there is one.
  public func keystrokes(typing target: String) -> [String] {
    let typed = ConformanceQueries.keystrokes(typing: target)
    return keyboard.map { keyboard in typed.map(keyboard.read) } ?? typed
  }

  /// Computes the reference's answers for `texts` that are not known yet.
  public func prepare(
    _ texts: [String], mode: MatchMode, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) {
    let known = answers[mode] ?? [:]
    let missing = Array(Set(texts).filter { known[$0] == nil })
    let limit = self.limit
    let results = parallelMap(missing, progress: progress) { [self] in referenceAnswer($0, mode: mode, limit: limit) }
    var updated = known
    for (text, result) in zip(missing, results) { updated[text] = result }
    answers[mode] = updated
  }

  /// The reference's answer (computed on demand if `prepare` did not see the text).
  public func expected(_ text: String, mode: MatchMode) -> SearchResult {
    lock.lock()
    let known = answers[mode]?[text]
    lock.unlock()
    return known ?? referenceAnswer(text, mode: mode, limit: limit)
  }

  /// Checks `backend` on `texts` (stateless; an even sample of at most `sample` of them when
  /// given) and on `targets` typed keystroke by keystroke through its session, in the executor
  /// seat (``check(_:mode:texts:targets:sample:shard:isExpected:progress:)``).
  public func check<B: SearchBackend>(
    _ backend: B, label: String, mode: MatchMode, texts: [String], targets: [String], sample: Int? = nil,
    shard: Shard = .whole, isExpected: @escaping @Sendable (Divergence) -> Bool = { _ in false },
    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) -> BackendOutcome {
    check(
      backend.executors(name: label), mode: mode, texts: texts, targets: targets, sample: sample, shard: shard,
      isExpected: isExpected, progress: progress)
  }

  /// Checks the implementation behind `executors` on `texts` (each answered alone; an even
  /// sample of at most `sample` of them when given) and on `targets` typed keystroke by
  /// keystroke into its sessions. Divergences for which `isExpected` holds are counted as
  /// expected failures. The work is spread over the cores, with executors of their own on each
  /// worker; a divergence's culprits come from an executor answering every match.
  ///
  /// With a `shard`, only that slice of the distinct texts (after sampling) and of the targets
  /// is checked; the outcomes of every shard merge into the whole check's
  /// (``ConformanceResult/merged(_:)``). An executor that throws ends its part of the check:
  /// the outcome names the error (``BackendOutcome/executorError``) and fails.
  public func check(
    _ executors: ExecutorFactory, mode: MatchMode, texts: [String], targets: [String], sample: Int? = nil,
    shard: Shard = .whole, isExpected: @escaping @Sendable (Divergence) -> Bool = { _ in false },
    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) -> BackendOutcome {
    let label = executors.name
    var outcome = BackendOutcome(backend: label, mode: mode)
    let distinct = Array(Set(texts)).sorted()
    let positions = Array(distinct.indices)
    let chosen = (sample.map { evenSample(positions, $0) } ?? positions).filter(shard.contains)
    outcome.statelessTotal = distinct.count
    outcome.statelessChecked = chosen.count
    let request = ExecutorRequest(
      mode: mode, limit: limit, replay: .stateless, scope: scope, fuzzy: fuzzy, twoLevel: twoLevel != nil)
    let stateless = parallelMap(
      chosen, progress: progress, worker: { Worker(executors, request) },
      transform: { [self] worker, position -> Result<Divergence?, ExecutorFailure> in
        let text = distinct[position]
        return Result {
          let actual = try worker.executor.answerAlone(text).result
          return try divergence(worker, mode: mode, text: text, typed: [], actual: actual, position: position)
        }.mapError(ExecutorFailure.init)
      })
    record(stateless, isExpected: isExpected, into: &outcome)

    let sessionsRequest = ExecutorRequest(
      mode: mode, limit: limit, replay: .sessions, scope: scope, fuzzy: fuzzy, twoLevel: twoLevel != nil)
    if !executors.executor(sessionsRequest).capabilities.sessions {
      outcome.sessionNote = "its session answers each keystroke statelessly, checked above"
    } else if sample != nil {
      outcome.sessionNote = "sampled backend: sessions not replayed"
    } else if outcome.executorError == nil {
      let typed = shard.slice(Array(targets.indices))
      let sessions = parallelMap(
        typed, worker: { Worker(executors, sessionsRequest) },
        transform: { [self] worker, position -> (Int, Result<Divergence?, ExecutorFailure>) in
          let keystrokes = keystrokes(typing: targets[position])
          var answered = 0
          let found = Result { () throws -> Divergence? in
            try worker.executor.startSession()
            for (i, text) in keystrokes.enumerated() {
              let actual = try worker.executor.answer(text).result
              answered = i + 1
              if let found = try divergence(
                worker, mode: mode, text: text, typed: Array(keystrokes[..<i]), actual: actual,
                position: distinct.count + position)
              {
                return found
              }
            }
            return nil
          }.mapError(ExecutorFailure.init)
          return (answered, found)
        })
      outcome.keystrokesChecked = sessions.reduce(0) { $0 + $1.0 }
      record(sessions.map(\.1), isExpected: isExpected, into: &outcome)
    }
    return outcome
  }

  /// One worker's executors: the one being checked, and one answering every match for a
  /// divergence's culprits, made when the first divergence needs it.
  private final class Worker {
    let executor: any Executor
    private let executors: ExecutorFactory
    private let request: ExecutorRequest
    private var everyMatch: (any Executor)?

    init(_ executors: ExecutorFactory, _ request: ExecutorRequest) {
      self.executors = executors
      self.request = request
      executor = executors.executor(request)
    }

    /// The answer to `text` with every match, alone.
    func fullAnswer(_ text: String) throws -> SearchResult {
      if everyMatch == nil {
        everyMatch = executors.executor(
          ExecutorRequest(
            mode: request.mode, limit: .max, replay: .stateless, scope: request.scope, fuzzy: request.fuzzy,
            twoLevel: request.twoLevel))
      }
      return try everyMatch!.answerAlone(text).result
    }
  }

  /// An executor's error, kept as its description.
  private struct ExecutorFailure: Error {
    let message: String
    init(_ error: any Error) { message = "\(error)" }
  }

  private func record(
    _ found: [Result<Divergence?, ExecutorFailure>], isExpected: (Divergence) -> Bool,
    into outcome: inout BackendOutcome
  ) {
    for result in found {
      switch result {
      case .failure(let failure):
        if outcome.executorError == nil { outcome.executorError = failure.message }
      case .success(nil):
        continue
      case .success(let divergence?):
        outcome.culprits.formUnion(divergence.culprits)
        if isExpected(divergence) {
          outcome.expectedCount += 1
        } else {
          outcome.unexpectedCount += 1
          if outcome.unexpected.count < BackendOutcome.keptDivergences { outcome.unexpected.append(divergence) }
        }
      }
    }
  }

  private func divergence(
    _ worker: Worker, mode: MatchMode, text: String, typed: [String], actual: SearchResult, position: Int
  ) throws -> Divergence? {
    let expected = expected(text, mode: mode)
    guard let difference = ResultDifference(expected: expected, actual: actual) else { return nil }
    // The signature: compare the full answers.
    let full = Set(referenceAnswer(text, mode: mode, limit: .max).hits)
    let fullActual = Set(try worker.fullAnswer(text).hits)
    let culprits = Set(full.symmetricDifference(fullActual).map(\.id)).sorted()
    return Divergence(
      backend: worker.executor.name, mode: mode, query: text, typed: typed, difference: difference,
      culprits: culprits, position: position)
  }
}

/// At most `count` elements spread evenly over `items`.
public func evenSample<T>(_ items: [T], _ count: Int) -> [T] {
  guard items.count > count, count > 0 else { return items }
  return (0..<count).map { items[$0 * items.count / count] }
}

/// `transform` applied to every element on all cores, results in order.
func parallelMap<T: Sendable, R: Sendable>(
  _ items: [T], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
  _ transform: @escaping @Sendable (T) -> R
) -> [R] {
  parallelMap(items, progress: progress, worker: {}, transform: { _, item in transform(item) })
}

/// `transform` applied to every element on all cores, results in order; each chunk of
/// elements is transformed with a worker of its own, made by `worker` (state that one thread
/// may use at a time, such as an executor's session).
func parallelMap<T: Sendable, W, R: Sendable>(
  _ items: [T], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
  worker: @escaping @Sendable () -> W, transform: @escaping @Sendable (W, T) -> R
) -> [R] {
  let results = ParallelResults<R>(count: items.count)
  let chunk = max(1, min(256, items.count / 64))
  let chunks = (items.count + chunk - 1) / chunk
  DispatchQueue.concurrentPerform(iterations: chunks) { c in
    let range = (c * chunk)..<min((c + 1) * chunk, items.count)
    let state = worker()
    let values = range.map { transform(state, items[$0]) }
    results.lock.lock()
    for (i, value) in zip(range, values) { results.values[i] = value }
    results.done += range.count
    let done = results.done
    results.lock.unlock()
    progress(done, items.count)
  }
  return results.values.map { $0! }
}

/// The shared output of ``parallelMap(_:progress:_:)``, written under its lock.
private final class ParallelResults<R>: @unchecked Sendable {
  var values: [R?]
  var done = 0
  let lock = NSLock()
  init(count: Int) { values = [R?](repeating: nil, count: count) }
}
