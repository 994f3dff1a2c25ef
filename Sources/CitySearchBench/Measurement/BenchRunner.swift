import CitySearch
import CitySearchConformance
import CitySearchExecutor

/// How a benchmark run replays its workload.
public struct BenchConfiguration: Sendable {
  /// The match mode of every search.
  public var mode: MatchMode = .syllable
  /// The fuzzy rules every keystroke is read with (MatchSpec §3.5); none by default.
  public var fuzzy: FuzzyRules = []
  /// Whether every keystroke is also read as a two-level query (MatchSpec §9.2), the suite's
  /// backends adding those matches inside the timed region; not by default.
  public var twoLevel = false
  /// Answers shown per keystroke.
  public var limit = 20
  /// Measured passes over the whole workload.
  public var rounds = 3
  /// Keystrokes replayed, unmeasured, before the rounds (whole sessions from the start).
  public var warmUpKeystrokes = 1_500
  /// The most a backend may spend on warm-up.
  public var warmUpSeconds = 2.0
  /// The most a backend other than the reference may spend on the measured rounds. A backend
  /// whose warm-up says it would need more is timed on an even sample of keystrokes.
  public var budgetSeconds = 20.0
  /// The time one keystroke may take, for the reports' verdict (not for sampling): one 60 Hz
  /// frame unless a product states another (`--budget-ms`).
  public var keystrokeBudgetNanoseconds = Headline.frameNanoseconds
  /// The backend a library ships as its choice (`SwiftBackends.Fastest`), which the headline
  /// sets beside this run's finding; `nil` when the run's host has none.
  public var shippedBackend: String?
  /// Seeds the order in which backends answer each keystroke.
  public var seed: UInt64 = 1
  /// Busy work added to each answer of the named backends, in nanoseconds.
  public var slowdowns: [String: UInt64] = [:]
  /// Sampling strides imposed by backend name instead of decided by the warm-up: a gate run
  /// times each backend on the keystrokes its baseline was timed on.
  public var strides: [String: Int] = [:]

  /// The default settings of `citybench bench`.
  public init() {}
}

/// The name under which the reference is timed a second time, for the A/A noise floor.
public let noiseFloorName = "linear (A/A)"

/// The raw outcome of replaying a workload: every sample of every backend, and every answer
/// that differed from the reference's.
public struct RawMeasurements: Sendable {
  /// Everything one backend measured.
  public struct Series: Sendable {
    /// The backend's name in the reports.
    public let name: String
    /// Every `stride`-th keystroke is timed (1: all of them).
    public let stride: Int
    /// Whether the sampled keystrokes were answered each in a fresh session.
    public var answeredAlone: Bool { stride > 1 }
    /// `samples[round * keystrokes + k]`, nanoseconds; `nil` for keystrokes not timed.
    public var samples: [UInt64?]
    /// Warm-up's estimate of one answer's cost, nanoseconds.
    public let warmUpMean: Double
    /// Answers compared with the reference's.
    public var checked = 0
    /// Answers that differed from the reference's.
    public var divergences = 0
    /// The first of them, when there was one.
    public var firstDivergence: Divergence?
    /// For an implementation in another process, the round trip of each timed answer, as
    /// ``samples`` holds its own time; `nil` in process.
    public var roundTrips: [UInt64?]?
    /// Queries the implementation answered with an error, or with an answer that could not be
    /// read as one; they are not timed and not compared.
    public var failedQueries = 0
    /// Why the implementation stopped answering, when it failed for good (a crash, a hang, a
    /// malformed line): its keystrokes from then on are not timed.
    public var failure: String?
    /// The first query that failed, when one did.
    public var firstFailedQuery: String?
    /// The backend alone and warm (``BenchRunner/alonePasses`` passes after the rounds, no other
    /// player between its keystrokes): `alone[pass * keystrokes + k]`, nanoseconds; `nil` for
    /// the reference, its A/A twin, implementations in other processes and backends timed on a
    /// sample.
    public var alone: [UInt64?]?
  }

  /// The first answer of a backend that differed from the reference's.
  public struct Divergence: Sendable {
    /// The round it happened in, from 0.
    public let round: Int
    /// The keystroke's index in the workload.
    public let keystroke: Int
    /// The texts typed before it in its session, oldest first.
    public let typedBefore: [String]
    /// The search box's text when the answers differed.
    public let text: String
    /// How the answers differed.
    public let difference: ResultDifference
  }

  /// Index 0 is the reference, index 1 its A/A twin, then the other backends in the order given.
  public var series: [Series]
  /// Measured passes over the workload.
  public let rounds: Int
  /// The workload's keystrokes, in one pass.
  public let keystrokes: Int
  /// The floor (``FloorReplay``): `floor[round * keystrokes + k]`, nanoseconds, `nil` in the
  /// first round (which fills its table); `nil` altogether for a run of one round.
  public var floor: [UInt64?]? = nil
}

/// The run was stopped (Ctrl-C) before it finished.
public struct BenchInterrupted: Error, CustomStringConvertible {
  /// The interruption, reported as ``description``.
  public init() {}
  public var description: String { "interrupted; no report was written (an earlier report set is untouched)" }
}

/// Replays a workload through every backend, keystroke by keystroke.
///
/// For each keystroke, every backend answers in a freshly shuffled order, so the samples of one
/// keystroke are paired and drift of the machine hits all backends alike. Every answer is
/// compared with the reference's answer to the same keystroke in the same round (which also
/// keeps the optimizer from discarding it).
public struct BenchRunner {
  /// The typing sessions replayed.
  public let workload: Workload
  /// How they are replayed.
  public let configuration: BenchConfiguration

  /// A runner that replays `workload` as `configuration` says.
  public init(workload: Workload, configuration: BenchConfiguration) {
    self.workload = workload
    self.configuration = configuration
  }

  /// Passes of the alone-and-warm replay after the rounds (``RawMeasurements/Series/alone``):
  /// a keystroke's time is the median of its passes.
  public static let alonePasses = 2

  /// Replays the workload. `backends[0]` is the reference; it also answers a second time under
  /// ``noiseFloorName``. Each backend answers through the executor seat (`InProcessExecutor`):
  /// the backends named in `stateless` answer every keystroke afresh, the others type into
  /// their sessions. The `external` executors (implementations in other processes) answer
  /// after them in the same shuffled order; one that fails for good is reported and left out of
  /// the rest of the run, and the others go on. From the second round on, the floor
  /// (``FloorReplay``, the reference's first-round answers looked up and copied) answers in the
  /// same shuffled order. Then each in-process backend timed on every keystroke replays the
  /// workload alone, warm (``alonePasses`` passes). `progress` gets (keystrokes done, keystrokes in all rounds);
  /// `shouldStop` is polled between sessions.
  public func run(
    backends: [(name: String, backend: any SearchBackend)],
    stateless: Set<String> = [],
    external: [any Executor] = [],
    progress: (Int, Int) -> Void = { _, _ in },
    shouldStop: () -> Bool = { false }
  ) throws -> RawMeasurements {
    precondition(!backends.isEmpty, "the reference comes first")
    let mode = configuration.mode
    let limit = configuration.limit
    var entries = backends
    entries.insert((noiseFloorName, backends[0].backend), at: 1)
    let players: [any Executor] =
      entries.map { entry in
        entry.backend.executor(
          name: entry.name, mode: mode, limit: limit, replay: stateless.contains(entry.name) ? .stateless : .sessions,
          slowdown: configuration.slowdowns[entry.name] ?? 0, fuzzy: configuration.fuzzy,
          twoLevel: configuration.twoLevel)
      } + external
    let keystrokes = workload.keystrokeCount
    var random = SplitMix64(seed: configuration.seed)
    // An implementation elsewhere answers with what it has; both answers of a pair are
    // compared on that (`ExecutorCapabilities.difference`).
    let capabilities = players.map(\.capabilities)
    var failures = [ExecutorError?](repeating: nil, count: players.count)

    let means = try warmUp(players, failures: &failures, random: &random, shouldStop: shouldStop)
    let rounds = configuration.rounds
    var series = players.enumerated().map { (i, player) in
      let estimate = means[i] * Double(keystrokes * rounds) / 1e9
      let decided =
        i < 2 || estimate <= configuration.budgetSeconds
        ? 1 : Int((estimate / configuration.budgetSeconds).rounded(.up))
      let stride = i < 2 ? 1 : max(configuration.strides[player.name] ?? decided, 1)
      var series = RawMeasurements.Series(
        name: player.name, stride: stride, samples: [UInt64?](repeating: nil, count: keystrokes * rounds),
        warmUpMean: means[i])
      if player.isExternal { series.roundTrips = [UInt64?](repeating: nil, count: keystrokes * rounds) }
      series.failure = failures[i].map(\.description)
      return series
    }

    // The floor answers in the shuffled order too, as one more player (`floorPlayer`), from the
    // second round on: its table is the reference's answers of the first round.
    let floorPlayer = players.count
    var order = Array(players.indices) + [floorPlayer]
    var answers = [SearchResult?](repeating: nil, count: players.count)
    var referenceAnswers: [SearchResult] = []
    referenceAnswers.reserveCapacity(keystrokes)
    let texts = workload.sessions.flatMap(\.keystrokes)
    var floor: FloorReplay?
    var floorSamples = [UInt64?](repeating: nil, count: rounds > 1 ? keystrokes * rounds : 0)
    var done = 0
    for round in 0..<rounds {
      if round == 1 {
        floor = FloorReplay(
          corpus: backends[0].backend.corpus, fuzzy: configuration.fuzzy, limit: limit, texts: texts,
          answers: referenceAnswers)
      }
      var keystroke = 0
      for session in workload.sessions {
        if shouldStop() { throw BenchInterrupted() }
        for (p, player) in players.enumerated() where series[p].failure == nil {
          do {
            try player.startSession()
          } catch {
            series[p].failure = "\(error)"
          }
        }
        for (position, text) in session.keystrokes.enumerated() {
          shuffle(&order, &random)
          for p in order {
            if p == floorPlayer {
              if let floor { floorSamples[round * keystrokes + keystroke] = floor.timedAnswer(text) }
              continue
            }
            let stride = series[p].stride
            answers[p] = nil
            guard series[p].failure == nil, stride == 1 || keystroke % stride == 0 else { continue }
            let measured: ExecutorAnswer
            do {
              measured = try stride == 1 ? players[p].answer(text) : players[p].answerAlone(text)
            } catch let error as ExecutorError where players[p].isExternal {
              if players[p].failure != nil {
                series[p].failure = error.description
              } else {
                series[p].failedQueries += 1
                if series[p].firstFailedQuery == nil { series[p].firstFailedQuery = error.description }
              }
              continue
            }
            answers[p] = measured.result
            series[p].samples[round * keystrokes + keystroke] = measured.nanoseconds
            if let roundTrip = measured.roundTripNanoseconds {
              series[p].roundTrips?[round * keystrokes + keystroke] = roundTrip
            }
          }
          let expected = answers[0]!
          if round == 0 { referenceAnswers.append(expected) }
          for p in 1..<players.count {
            guard let actual = answers[p] else { continue }
            series[p].checked += 1
            if let difference = capabilities[p].difference(expected: expected, actual: actual, limit: limit) {
              series[p].divergences += 1
              if series[p].firstDivergence == nil {
                series[p].firstDivergence = RawMeasurements.Divergence(
                  round: round, keystroke: keystroke, typedBefore: Array(session.keystrokes[..<position]), text: text,
                  difference: difference)
              }
            }
          }
          keystroke += 1
        }
        done += session.keystrokes.count
        progress(done, keystrokes * rounds)
      }
    }
    // Each backend alone and warm: its own sessions replayed again, no other player between
    // its keystrokes, so its caches hold only its own data.
    for p in players.indices where p >= 2 && !players[p].isExternal && series[p].stride == 1 && series[p].failure == nil
    {
      if shouldStop() { throw BenchInterrupted() }
      var alone = [UInt64?](repeating: nil, count: keystrokes * Self.alonePasses)
      do {
        for pass in 0..<Self.alonePasses {
          var keystroke = 0
          for session in workload.sessions {
            try players[p].startSession()
            for text in session.keystrokes {
              alone[pass * keystrokes + keystroke] = try players[p].answer(text).nanoseconds
              keystroke += 1
            }
          }
        }
        series[p].alone = alone
      } catch {
        // An in-process player does not fail; if one did, it has no alone figure.
        series[p].alone = nil
      }
    }
    var raw = RawMeasurements(series: series, rounds: rounds, keystrokes: keystrokes)
    if rounds > 1 { raw.floor = floorSamples }
    return raw
  }

  /// Replays the first sessions unmeasured; returns each player's mean answer time, in
  /// nanoseconds. A player stops warming up once it has spent the warm-up time.
  private func warmUp(
    _ players: [any Executor], failures: inout [ExecutorError?], random: inout SplitMix64, shouldStop: () -> Bool
  ) throws -> [Double] {
    var spent = [UInt64](repeating: 0, count: players.count)
    var answered = [Int](repeating: 0, count: players.count)
    let cap = UInt64(configuration.warmUpSeconds * 1e9)
    var order = Array(players.indices)
    var replayed = 0
    for session in workload.sessions where replayed < configuration.warmUpKeystrokes {
      if shouldStop() { throw BenchInterrupted() }
      for (p, player) in players.enumerated() where failures[p] == nil {
        do { try player.startSession() } catch let error as ExecutorError { failures[p] = error }
      }
      for text in session.keystrokes {
        shuffle(&order, &random)
        for p in order where failures[p] == nil && (spent[p] < cap || answered[p] == 0) {
          do {
            spent[p] += try players[p].answer(text).nanoseconds
            answered[p] += 1
          } catch let error as ExecutorError where players[p].isExternal {
            // A failed query of a living executor is counted in the measured rounds.
            if players[p].failure != nil { failures[p] = error }
          }
        }
      }
      replayed += session.keystrokes.count
    }
    return players.indices.map { answered[$0] == 0 ? 0 : Double(spent[$0]) / Double(answered[$0]) }
  }
}

/// Fisher–Yates with the harness's seeded generator.
@inline(__always)
func shuffle(_ order: inout [Int], _ random: inout SplitMix64) {
  var i = order.count - 1
  while i > 0 {
    let j = Int(random.next() % UInt64(i + 1))
    order.swapAt(i, j)
    i -= 1
  }
}
