import CitySearch
import CitySearchConformance
import CitySearchExecutor
import Foundation

/// The differential check of `citybench conform` as a library: each candidate backend against
/// the reference on every tier and mode, stateless and through its session, with the
/// input-cost bound on fuzzed queries. The command parses its options into ``Settings``, picks
/// the candidates from the catalog, and writes the files; this runs the check.
///
/// ```swift
/// var settings = ConformanceSuite.Settings()
/// settings.every = 10
/// let outcome = try ConformanceSuite.run(
///   settings, candidates: [.init(type: TrieBackend.self)], hooks: .init(loadTier: { try directory.load($0) }))
/// print(ConformanceSummary.verdict(outcome.result))
/// ```
public enum ConformanceSuite {
  /// What one run checks, typed.
  public struct Settings: Sendable {
    /// The tiers, in order (list them in nesting order for the expected-failures file).
    public var tiers: [CorpusTier] = [.cities]
    /// The match modes.
    public var modes: [MatchMode] = MatchMode.allCases
    /// Distinct queries per sampled tier (towns, villages).
    public var sampleSize = 20_000
    /// The seed of the sample (and of the fuzzed queries).
    public var seed = 1
    /// On cities, only every N-th place's forms (1: all).
    public var every = 1
    /// Instead of the tier's query set, this many fuzzed queries, and the input-cost bound.
    public var fuzz: Int?
    /// The queries per tier and mode a backend whose descriptor asks for a sample answers;
    /// `nil` for its descriptor's own.
    public var slowSample: Int?
    /// The slice of every query set this run checks.
    public var shard: Shard = .whole
    /// The divergences expected (the raw ICU variants'), and a digest naming the file.
    public var expected = ExpectedFailures()
    /// A digest of the expected-failures file (`none` without one).
    public var expectedDigest = "none"
    /// The golden queries, asked on cities besides the tier's forms.
    public var goldenQueries: [String] = []
    /// The scope every answer is asked for, resolved on each tier (MatchSpec §9.1).
    public var scope = PlaceScope.Request()
    /// The fuzzy rules every query is read with (MatchSpec §3.5).
    public var fuzzy: FuzzyRules = []
    /// Whether every query is also read as a two-level query (MatchSpec §9.2), by the reference
    /// and every backend.
    public var twoLevel = false
    /// The keyboard the places are typed on instead of the tier's forms (MatchSpec §2.10):
    /// every place's pinyin typed on it (on a sampled tier, an even sample of places), each
    /// prefix asked as it reads, stateless and keystroke by keystroke; `nil` for the forms.
    public var keyboard: Keyboard?
    /// The commit the run is made from, as the result records it.
    public var gitCommit = "unknown"

    /// The defaults: cities, both modes, every place's forms.
    public init() {}
  }

  /// A backend to check: its type, its options and the label it is reported under.
  public struct Candidate: Sendable {
    /// The backend type.
    public var type: any SearchBackend.Type
    /// The options it is built with.
    public var options: BackendOptions
    /// The label in the report (`icu-raw` for a variant).
    public var label: String
    /// The variant of its descriptor it is, if any.
    public var variant: BackendDescriptor.Variant?

    /// The backend with its default options, labelled by its name.
    public init(type: any SearchBackend.Type) {
      self.init(type: type, options: BackendOptions(), label: type.name)
    }

    /// A backend with `options`, labelled `label`.
    public init(
      type: any SearchBackend.Type, options: BackendOptions, label: String, variant: BackendDescriptor.Variant? = nil
    ) {
      self.type = type
      self.options = options
      self.label = label
      self.variant = variant
    }

    /// Each variant of the backend's descriptor (`icu-raw`), labelled apart.
    public var variants: [Candidate] {
      type.descriptor.variants.map {
        Candidate(type: type, options: $0.options, label: $0.label(of: type.name), variant: $0)
      }
    }
  }

  /// What the run needs from its host: the tiers' corpora, a place for its lines and its
  /// progress.
  public struct Hooks {
    /// The corpus of a tier.
    public var loadTier: (CorpusTier) throws -> Corpus
    /// A line of the report, as it is found.
    public var emit: (String) -> Void
    /// A progress reporter for a step with this label: the update (done, total) and the end.
    public var progress: (String) -> (update: @Sendable (Int, Int) -> Void, finish: () -> Void)

    /// Hooks that load tiers with `loadTier`, print lines to standard output and report no
    /// progress, unless given.
    public init(
      loadTier: @escaping (CorpusTier) throws -> Corpus, emit: @escaping (String) -> Void = { print($0) },
      progress: @escaping (String) -> (update: @Sendable (Int, Int) -> Void, finish: () -> Void) = { _ in
        ({ _, _ in }, {})
      }
    ) {
      self.loadTier = loadTier
      self.emit = emit
      self.progress = progress
    }
  }

  /// What a run found: the result (its file's content), the places in the divergences of each
  /// variant suffix, and the corpus of the last tier checked.
  public struct Outcome {
    /// The result, as `--result` writes it.
    public var result: ConformanceResult
    /// The places that took part in the divergences of each variant suffix (`raw`).
    public var variantCulprits: [String: Set<PlaceID>]
    /// The corpus of the last tier, which names the culprits.
    public var lastCorpus: Corpus?
  }

  /// Checks every candidate against the reference.
  ///
  /// - Complexity: per tier and mode, the reference answers every query once; each candidate
  ///   answers them again, stateless and keystroke by keystroke.
  public static func run(_ settings: Settings, candidates: [Candidate], hooks: Hooks) throws -> Outcome {
    let (modes, shard) = (settings.modes, settings.shard)
    var result = ConformanceResult(
      settings: .init(
        tiers: [], modes: modes.map(\.rawValue), backends: candidates.map(\.label), sample: settings.sampleSize,
        seed: settings.seed, every: settings.every, slowSample: settings.slowSample,
        expectedFailures: settings.expectedDigest, gitCommit: settings.gitCommit,
        buildConfiguration: RunEnvironment.buildConfiguration),
      shard: shard.isWhole ? nil : shard)
    if !settings.scope.isEverything { result.settings.scope = settings.scope.description }
    if !settings.fuzzy.isEmpty { result.settings.fuzzy = settings.fuzzy.description }
    result.settings.keyboard = settings.keyboard?.name
    if settings.twoLevel { result.settings.twoLevel = true }
    var culprits: [String: Set<PlaceID>] = [:]
    var lastCorpus: Corpus?
    for (tierNumber, tier) in settings.tiers.enumerated() {
      let corpus = try hooks.loadTier(tier)
      let scope = try settings.scope.resolve(in: corpus)
      lastCorpus = corpus
      result.settings.tiers.append(.init(name: tier.rawValue, places: corpus.count, checksum: corpus.checksum))
      let seed = UInt64(settings.seed) &+ UInt64(tierNumber)
      let (targets, texts, description) =
        settings.fuzz.map { fuzzSet(corpus: corpus, count: $0, seed: seed) }
        ?? settings.keyboard.map {
          keyboardSet(tier: tier, corpus: corpus, keyboard: $0, sample: settings.sampleSize, every: settings.every)
        }
        ?? querySet(
          tier: tier, corpus: corpus, golden: tier == .cities ? settings.goldenQueries : [],
          sample: settings.sampleSize, every: settings.every, seed: seed)
      let scoped =
        (scope.isEverything ? "" : "; scope \(scope) (\(scope.placeCount) places)")
        + (settings.fuzzy.isEmpty ? "" : "; fuzzy \(settings.fuzzy)") + (settings.twoLevel ? "; two-level" : "")
      hooks.emit(
        "\n== \(tier.rawValue): \(corpus.count) places; \(description)\(scoped)\(shard.isWhole ? "" : "; shard \(shard)")"
      )
      let run = DifferentialRun(
        reference: LinearScanBackend(corpus: corpus), scope: scope, fuzzy: settings.fuzzy, keyboard: settings.keyboard,
        twoLevel: settings.twoLevel)
      // The reference answers what this shard checks: its slice of the texts and every
      // keystroke of its slice of the targets.
      let needed =
        shard.isWhole
        ? texts : shard.slice(texts) + shard.slice(targets).flatMap { run.keystrokes(typing: $0) }
      for mode in modes {
        let progress = hooks.progress("\(tier.rawValue) \(mode) reference")
        run.prepare(needed, mode: mode, progress: progress.update)
        progress.finish()
      }
      // For the input-cost bound: the reference's time on every fuzzed query, one at a time.
      let referenceTimes =
        settings.fuzz == nil
        ? [:]
        : Dictionary(
          uniqueKeysWithValues: try modes.map { mode in
            (mode, try InputCost.referenceTimes(executor(run.reference, run: run, mode: mode), queries: texts))
          })
      for candidate in candidates {
        let build: MeasuredBuild
        do {
          build = try MeasuredBuild.build(candidate.type, corpus: corpus, options: candidate.options)
        } catch {
          let failure = modes.map {
            ConformanceResult.Check(
              tier: tier.rawValue, backend: candidate.label, mode: $0.rawValue, buildError: "\(error)")
          }
          hooks.emit(failure[0].line())
          result.checks += failure
          continue
        }
        hooks.emit("\(candidate.label): \(build.summary)")
        let sample = sampleSize(candidate, tier: tier, settings.slowSample)
        for mode in modes {
          let progress = hooks.progress("\(tier.rawValue) \(mode) \(candidate.label)")
          let started = Date()
          let outcome = run.check(
            build.backend.executors(name: candidate.label), mode: mode, texts: texts, targets: targets,
            sample: sample, shard: shard, isExpected: settings.expected.isExpected, progress: progress.update)
          progress.finish()
          if let variant = candidate.variant {
            culprits[variant.suffix, default: []].formUnion(outcome.culprits)
          }
          var checked = ConformanceResult.Check(
            tier: tier.rawValue, outcome: outcome, seconds: Date().timeIntervalSince(started)
          ) {
            reproduction(
              $0, tier: tier, corpus: corpus, candidate: candidate, scope: settings.scope, fuzzy: settings.fuzzy,
              twoLevel: settings.twoLevel)
          }
          hooks.emit(checked.line(shard: result.shard))
          if let first = checked.divergences.first { hooks.emit(first.reproduction) }
          if let times = referenceTimes[mode] {
            let cost = try inputCost(
              executor(build.backend, run: run, mode: mode), run: run, texts: texts, times: times, mode: mode,
              sample: sample)
            checked.inputCost = .init(summary: costLine(cost), withinBound: cost.withinBound)
            hooks.emit(checked.inputCost!.summary)
          }
          result.checks.append(checked)
        }
        // The listed places must each take part in a divergence, where the run exercised them all.
        if candidate.variant != nil && tier == .cities && settings.every == 1 && sample == nil {
          let listed = (settings.expected.entries[candidate.label] ?? [:]).keys.filter { corpus.index(of: $0) != nil }
          result.listedPlaces.append(.init(tier: tier.rawValue, backend: candidate.label, places: listed.sorted()))
        }
      }
    }
    return Outcome(result: result, variantCulprits: culprits, lastCorpus: lastCorpus)
  }

  /// A backend whose descriptor asks for a sample on this tier (one too slow to answer every
  /// query) answers an even sample, of `slowSample` queries when given;
  /// everything else answers every query.
  static func sampleSize(_ candidate: Candidate, tier: CorpusTier, _ slowSample: Int?) -> Int? {
    guard let sample = candidate.type.descriptor.conformanceSample[tier] else { return nil }
    return slowSample ?? sample
  }

  /// The fuzzed set of one tier: every query stateless, and the short ones (at most 5,000)
  /// also typed keystroke by keystroke.
  public static func fuzzSet(corpus: Corpus, count: Int, seed: UInt64) -> (
    targets: [String], texts: [String], description: String
  ) {
    let queries = FuzzQueries.generate(corpus, count: count, seed: seed)
    let texts = Array(Set(queries.map(\.text))).sorted()
    let targets = Array(queries.lazy.filter { $0.kind != .long }.map(\.text).prefix(5_000))
    let description =
      "fuzzed (seed \(seed)): \(count) queries of \(FuzzQueries.Kind.allCases.count) kinds, \(texts.count) distinct; \(targets.count) typed"
    return (targets, texts, description)
  }

  /// The input-cost bound for one backend and mode (an even sample for a sampled backend).
  /// `backend` in the executor seat as the input-cost bound times it: each query alone,
  /// stateless, with the run's limit, scope and rules.
  private static func executor(_ backend: any SearchBackend, run: DifferentialRun, mode: MatchMode) -> any Executor {
    backend.executors(name: type(of: backend).name).executor(
      ExecutorRequest(
        mode: mode, limit: run.limit, replay: .stateless, scope: run.scope, fuzzy: run.fuzzy,
        twoLevel: run.twoLevel != nil))
  }

  private static func inputCost(
    _ checked: any Executor, run: DifferentialRun, texts: [String], times: [UInt64], mode: MatchMode, sample: Int?
  ) throws -> InputCost {
    // The same even sample the conformance check answered.
    let chosen = sample.map { evenSample(Array(texts.indices), $0) }
    let queries = chosen.map { $0.map { texts[$0] } } ?? texts
    let referenceTimes = chosen.map { $0.map { times[$0] } } ?? times
    return try InputCost.measure(
      checked, reference: executor(run.reference, run: run, mode: mode), queries: queries,
      referenceTimes: referenceTimes)
  }

  /// The line that reports the input-cost bound: the median ratio and the slowest query.
  public static func costLine(_ cost: InputCost) -> String {
    let shown = String(String(cost.worstQuery.debugDescription.dropFirst().dropLast()).prefix(24))
    let query = cost.worstQuery.count > 24 ? "'\(shown)…' (\(cost.worstQuery.count) characters)" : "'\(shown)'"
    let ratio = { (value: Double) in String(format: value < 10 ? "%.2g×" : "%.0f×", value) }
    return
      "  input cost over \(cost.queries) queries: median \(ratio(cost.medianRatio)) the reference; slowest \(query) "
      + "\(Formatting.duration(nanoseconds: Double(cost.backendNanoseconds))) against the reference's "
      + "\(Formatting.duration(nanoseconds: Double(cost.referenceNanoseconds))), \(ratio(cost.worstRatio)) (bound \(ratio(cost.bound)))"
      + (cost.withinBound ? "" : ": OVER THE BOUND")
  }

  /// The typing targets and the stateless texts of one tier.
  public static func querySet(
    tier: CorpusTier, corpus: Corpus, golden: [String], sample: Int, every: Int, seed: UInt64
  ) -> (targets: [String], texts: [String], description: String) {
    let targets: [String]
    var singles = golden
    var description: String
    if tier == .cities {
      let exhaustive = ConformanceQueries.exhaustive(corpus, every: every)
      targets = exhaustive.targets
      singles += exhaustive.singles
      description =
        "exhaustive\(every > 1 ? " over one place in \(every)" : ""): \(targets.count) typed forms, \(exhaustive.singles.count) name substrings, \(golden.count) golden queries"
    } else {
      targets = ConformanceQueries.sample(corpus, queries: sample, seed: seed)
      description = "seeded sample (seed \(seed)): \(targets.count) typed targets"
    }
    var texts = Set(singles)
    for target in targets { for k in 1...max(target.count, 1) { texts.insert(String(target.prefix(k))) } }
    description += "; \(texts.count) distinct queries per mode"
    return (targets, texts.sorted(), description)
  }

  /// Every place (one in `every` on cities; on a sampled tier, an even sample of about
  /// `sample` / 8 places) typed on `keyboard`: the keys as targets, and every text read while
  /// they are typed, backspaces included, as the stateless queries.
  static func keyboardSet(
    tier: CorpusTier, corpus: Corpus, keyboard: Keyboard, sample: Int, every: Int
  ) -> (targets: [String], texts: [String], description: String) {
    let step = tier == .cities ? max(every, 1) : max(corpus.count / max(sample / 8, 1), 1)
    let places = stride(from: 0, to: corpus.count, by: step)
    let targets = places.compactMap { keyboard.type(corpus.pinyin(at: $0)) }
    var texts = Set<String>()
    for target in targets {
      for text in ConformanceQueries.keystrokes(typing: target) { texts.insert(keyboard.read(text)) }
    }
    let description =
      "typed on \(keyboard.name): the keys of \(targets.count) places\(step > 1 ? " (one in \(step))" : ""), \(texts.count) distinct texts read per mode"
    return (targets, texts.sorted(), description)
  }

  /// The golden file's queries on cities (`Conformance/golden.tsv`, columns named by its
  /// header), each read through the keyboard its row names when `keyboards` has it, or `nil`
  /// when the file cannot be read.
  public static func goldenQueries(_ path: String, keyboards: [Keyboard] = []) -> [String]? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n")
    let header = lines.first?.split(separator: "\t").map(String.init) ?? []
    guard let corpus = header.firstIndex(of: "corpus"), let query = header.firstIndex(of: "query") else { return nil }
    let keyboardColumn = header.firstIndex(of: "keyboard")
    return lines.dropFirst().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count > max(corpus, query, keyboardColumn ?? 0), fields[corpus] == "cities" else { return nil }
      let typed = String(fields[query])
      guard let column = keyboardColumn, let keyboard = keyboards.first(where: { $0.name == fields[column] }) else {
        return typed
      }
      return keyboard.read(typed)
    }
  }

  /// The lines that reproduce a divergence: the command, the texts typed before it, and the
  /// answers side by side.
  static func reproduction(
    _ d: Divergence, tier: CorpusTier, corpus: Corpus, candidate: Candidate, scope: PlaceScope.Request = .init(),
    fuzzy: FuzzyRules = [], twoLevel: Bool = false
  ) -> String {
    let options = candidate.options.description
    var raw = options.isEmpty ? "" : " --options \(options)"
    if scope.citiesOnly { raw += " --cities" }
    if let levels = scope.levels {
      raw += " --level " + levels.sorted().map { String($0.rawValue) }.joined(separator: ",")
    }
    if let under = scope.under { raw += " --under '\(under)'" }
    if !fuzzy.isEmpty { raw += " --fuzzy \(fuzzy)" }
    if twoLevel { raw += " --two-level" }
    var lines = ["  FIRST DIVERGENCE: backend \(candidate.type.name)\(raw), mode \(d.mode), query '\(d.query)'"]
    if !d.typed.isEmpty {
      lines.append("  through the session, after typing: \(d.typed.map { "'\($0)'" }.joined(separator: " → "))")
    }
    lines.append(
      "  reproduce: citybench search --corpus \(tier.rawValue) --backends \(candidate.type.name)\(raw) --mode \(d.mode) '\(d.query)'"
    )
    lines.append("  \(d.difference)")
    lines.append(
      d.difference.sideBySide(corpus: corpus).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
    if !d.culprits.isEmpty {
      lines.append("  places answered differently: \(d.culprits.prefix(10).map(String.init).joined(separator: ", "))")
    }
    return lines.joined(separator: "\n")
  }
}
