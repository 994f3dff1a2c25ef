import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchConformance
import Foundation

/// `citybench conform`: the differential check of every backend against the reference.
enum ConformCommand: Command {
  static let name = "conform"
  static let summary = "check every backend against the reference (the differential check)"

  static let usage = """
    Usage: citybench conform [options]

    Compares every backend with the reference (linear) on the golden queries, exhaustively
    on cities (every prefix of every place's pinyin, initials, mixed forms, alternate
    readings and Hanzi, with and without boundary marks, plus every name substring), and on
    a seeded sample of towns and villages; stateless and keystroke by keystroke through each
    backend's session, with backspaces. Prints a minimal reproduction of the first divergence
    of each backend and mode. Exit status 0 when everything conforms (expected failures
    allowed), 1 otherwise.

    Options:
      --corpus cities|towns|villages|all
                            which tiers to check, or a comma-separated list (default: cities,
                            as for every command; all checks the three tiers)
      --corpus-dir DIR      where the tiers live (default: as for 'citybench search')
      --backends A,B        the backends to check (default: every backend but the reference)
      --mode syllable|seed|both
                            (default: both)
      --sample N            distinct queries per sampled tier (default: 20000)
      --seed N              the sample's seed (default: 1)
      --every N             on cities, only every N-th place's forms (default: 1, all)
      --icu-sample N        the slow 'icu' backend answers an even sample of N queries per
                            tier and mode (default: 300 on cities, 30 on towns, 4 on villages)
      --fuzz N              instead of the tier's query set, N seeded fuzzed queries (--seed):
                            place forms, mixtures, Hanzi, letter runs, emoji, combining
                            marks, control characters, full-width text, and one in 50 of
                            1,000-20,000 characters; some typed keystroke by keystroke. Each
                            backend is also timed on every query against the reference: no
                            query may take more than 10× the reference's time (10× the
                            backend's median ratio for one slower than the reference)
      --icu-raw             also check icu and icu-cached built without override rules
                            ('icu-raw', 'icu-cached-raw'); their divergences must be listed
                            in the expected-failures file
      --expected FILE       expected failures (default: Conformance/expected-failures.tsv)
      --write-expected FILE write the places in divergences of the raw ICU variants to FILE
                            (names from the last tier checked; list the tiers in nesting order)
      --junit FILE          also write the verdicts as JUnit XML: a test case per backend,
                            tier and mode (and per input-cost check with --fuzz)
      --result FILE         also write what was found as JSON, the input of 'citybench merge'
      --shard K/N           check only the K-th of N deterministic slices of every query set
                            (for a CI matrix); write each shard's --result and join them with
                            'citybench merge', which gives the unsharded run's verdict
      --executor NAME=CMD   instead of the backends, profile an implementation of your own (a
                            command speaking docs/Executors.md; repeatable) against the
                            reference: the shares of its answers with the reference's total,
                            set, first place and top 10, and its differences grouped by cause.
                            Takes --corpus (default: cities), --corpus-dir, --mode, --seed and
                            --sample (distinct queries, default: 2000)
      --profiles FILE       the committed profiles a profile is compared with; a change exits 1
                            (default: Conformance/expected-profiles.tsv)
      --write-profiles FILE write the measured profiles into FILE (rows of others are kept)
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(
    valued: [
      "--corpus", "--corpus-dir", "--backends", "--mode", "--sample", "--seed", "--every", "--icu-sample", "--expected",
      "--write-expected", "--fuzz", "--junit", "--shard", "--result", "--profiles", "--write-profiles",
    ], repeated: ["--executor"],
    flags: ["--icu-raw"], maximumPositionals: 0)

  /// A backend to check: the type, its options, and the label it is reported under.
  struct Candidate {
    let type: any SearchBackend.Type
    let options: BackendOptions
    let label: String
    /// The variant of the backend's descriptor it is, if any.
    var variant: BackendDescriptor.Variant?
  }

  /// What one conformance run checks and where it writes, typed: the command line parses into
  /// it, and `suite` builds one directly.
  struct Settings {
    var tiers: [CorpusTier] = [.cities]
    var modes: [MatchMode] = MatchMode.allCases
    /// `--backends`: the names to check, or `nil` for every backend but the reference.
    var backends: String?
    var sampleSize = 20_000
    var seed = 1
    var every = 1
    var fuzz: Int?
    var icuSample: Int?
    var shard: Shard = .whole
    var icuRaw = false
    var corpusDirectory: String?
    var expectedPath: String?
    var writeExpected: String?
    var junit: String?
    var result: String?
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    if !args.all("--executor").isEmpty { return try profileExecutors(args) }
    return try run(try settings(args))
  }

  /// The settings of a command line.
  static func settings(_ args: ParsedArguments) throws -> Settings {
    var settings = Settings()
    let tierArgument = args["--corpus"] ?? CorpusTier.cities.rawValue
    if tierArgument != "all" {
      settings.tiers = try tierArgument.split(separator: ",").map { name in
        guard let tier = CorpusTier(rawValue: String(name)) else {
          throw UsageError(
            message: Suggestion.message(
              "unknown tier '\(name)' (cities, towns, villages, a comma-separated list, or all)", for: String(name),
              among: CorpusTier.allCases.map(\.rawValue)))
        }
        return tier
      }
    }
    switch args["--mode"] ?? "both" {
    case "both": break
    case let name:
      guard let mode = MatchMode(rawValue: name) else {
        throw UsageError(message: "unknown mode '\(name)' (syllable, seed or both)")
      }
      settings.modes = [mode]
    }
    settings.backends = args["--backends"]
    settings.sampleSize = try args.integer("--sample", default: settings.sampleSize, range: 1...10_000_000)
    settings.seed = try args.integer("--seed", default: settings.seed, range: 0...Int.max)
    settings.every = try args.integer("--every", default: settings.every, range: 1...1_000_000)
    settings.fuzz = args["--fuzz"] == nil ? nil : try args.integer("--fuzz", default: 0, range: 1...100_000_000)
    settings.icuSample =
      args["--icu-sample"] == nil ? nil : try args.integer("--icu-sample", default: 0, range: 1...10_000_000)
    settings.shard = try args.shard()
    if !settings.shard.isWhole {
      if settings.fuzz != nil {
        throw UsageError(message: "--fuzz cannot be sharded: its input-cost bound is a median over every query")
      }
      if args["--write-expected"] != nil {
        throw UsageError(message: "--write-expected needs the whole run, not a shard")
      }
    }
    settings.icuRaw = args.has("--icu-raw")
    settings.corpusDirectory = args["--corpus-dir"]
    settings.expectedPath = args["--expected"]
    settings.writeExpected = args["--write-expected"]
    settings.junit = args["--junit"]
    settings.result = args["--result"]
    return settings
  }

  /// Runs the check; the exit status (0 when everything conforms, else 1).
  static func run(_ settings: Settings) throws -> Int32 {
    let (tiers, modes, sampleSize, seed, every, fuzz, icuSample, shard) = (
      settings.tiers, settings.modes, settings.sampleSize, settings.seed, settings.every, settings.fuzz,
      settings.icuSample, settings.shard
    )
    var candidates = try selectedBackends(settings.backends)
    if settings.icuRaw {
      for type in candidates.map(\.type) {
        for variant in type.descriptor.variants {
          candidates.append(
            Candidate(type: type, options: variant.options, label: variant.label(of: type.name), variant: variant))
        }
      }
    }
    let directory = CorpusOptions(directory: settings.corpusDirectory)
    let expectedPath = settings.expectedPath ?? directory.packageFile("Conformance/expected-failures.tsv")
    let expected = try expectedPath.map { try ExpectedFailures(contentsOf: $0) } ?? ExpectedFailures()
    let goldenQueries = directory.packageFile("Conformance/golden.tsv").flatMap(Self.goldenQueries)

    var result = ConformanceResult(
      settings: .init(
        tiers: [], modes: modes.map(\.rawValue), backends: candidates.map(\.label), sample: sampleSize, seed: seed,
        every: every, icuSample: icuSample, expectedFailures: try expectedPath.map(Self.digest) ?? "none",
        gitCommit: RunEnvironment.gitCommit(in: directory.packageDirectory),
        buildConfiguration: RunEnvironment.buildConfiguration),
      shard: shard.isWhole ? nil : shard)
    var rawCulprits: [String: Set<PlaceID>] = [:]
    var lastCorpus: Corpus?
    for (tierNumber, tier) in tiers.enumerated() {
      let corpus = try CorpusOptions(corpus: tier.rawValue, directory: settings.corpusDirectory).load()
      lastCorpus = corpus
      result.settings.tiers.append(.init(name: tier.rawValue, places: corpus.count, checksum: corpus.checksum))
      let (targets, texts, description) =
        fuzz.map { fuzzSet(corpus: corpus, count: $0, seed: UInt64(seed) &+ UInt64(tierNumber)) }
        ?? querySet(
          tier: tier, corpus: corpus, golden: tier == .cities ? goldenQueries ?? [] : [], sample: sampleSize,
          every: every,
          seed: UInt64(seed) &+ UInt64(tierNumber))
      emit("\n== \(tier.rawValue): \(corpus.count) places; \(description)\(shard.isWhole ? "" : "; shard \(shard)")")
      let run = DifferentialRun(reference: LinearScanBackend(corpus: corpus))
      // The reference answers what this shard checks: its slice of the texts and every
      // keystroke of its slice of the targets.
      let needed =
        shard.isWhole
        ? texts : shard.slice(texts) + shard.slice(targets).flatMap { ConformanceQueries.keystrokes(typing: $0) }
      for mode in modes {
        let progress = Progress(label: "\(tier.rawValue) \(mode) reference")
        run.prepare(needed, mode: mode, progress: progress.update)
        progress.finish()
      }
      // For the input-cost bound: the reference's time on every fuzzed query, one at a time.
      let referenceTimes =
        fuzz == nil
        ? [:]
        : Dictionary(
          uniqueKeysWithValues: modes.map { mode in
            (mode, InputCost.referenceTimes(run.reference, queries: texts, mode: mode, limit: run.limit))
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
          emit(failure[0].line())
          result.checks += failure
          continue
        }
        emit("\(candidate.label): \(build.summary)")
        for mode in modes {
          let sample = icuSampleSize(candidate, tier: tier, icuSample)
          let progress = Progress(label: "\(tier.rawValue) \(mode) \(candidate.label)")
          let started = Date()
          let outcome = check(
            build.backend, run: run, label: candidate.label, mode: mode, texts: texts, targets: targets,
            sample: sample, shard: shard, expected: expected, progress: progress)
          progress.finish()
          if let variant = candidate.variant {
            rawCulprits[variant.suffix, default: []].formUnion(outcome.culprits)
          }
          var checked = ConformanceResult.Check(
            tier: tier.rawValue, outcome: outcome, seconds: Date().timeIntervalSince(started)
          ) { reproduction($0, tier: tier, corpus: corpus, candidate: candidate) }
          emit(checked.line(shard: result.shard))
          if let first = checked.divergences.first { emit(first.reproduction) }
          if let times = referenceTimes[mode] {
            let cost = inputCost(build.backend, run: run, texts: texts, times: times, mode: mode, sample: sample)
            checked.inputCost = .init(summary: costLine(cost), withinBound: cost.withinBound)
            emit(checked.inputCost!.summary)
          }
          result.checks.append(checked)
        }
        // The listed places must each take part in a divergence, where the run exercised them all.
        if candidate.variant != nil && tier == .cities && every == 1
          && icuSampleSize(candidate, tier: tier, icuSample) == nil
        {
          let listed = (expected.entries[candidate.label] ?? [:]).keys.filter { corpus.index(of: $0) != nil }
          result.listedPlaces.append(.init(tier: tier.rawValue, backend: candidate.label, places: listed.sorted()))
        }
      }
    }
    for passes in result.unexpectedPasses {
      emit(ConformanceSummary.unexpectedPassesLine(passes))
    }
    if let path = settings.writeExpected, let corpus = lastCorpus {
      // The variants of one suffix read every name the same way (the raw ICU ones share one
      // transliterator): each variant of the catalog gets the union of its suffix's culprits,
      // whichever of them was run.
      let entries = Dictionary(
        uniqueKeysWithValues: BackendCatalog.all.flatMap { type in
          type.descriptor.variants.compactMap { variant in
            rawCulprits[variant.suffix].map { (variant.label(of: type.name), $0) }
          }
        })
      let text = ExpectedFailures.file(entries, corpus: corpus) { _, index in
        "plain ICU reads it differently from '\(corpus.pinyin(at: index).joined(separator: " "))'"
      }
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      emit("wrote \(rawCulprits.values.reduce(0) { $0 + $1.count }) expected failures to \(path)")
    }
    if let path = settings.junit { try AtomicFile.write(Data(JUnitReport(conformance: result).xml.utf8), to: path) }
    if let path = settings.result { try AtomicFile.write(try result.jsonData(), to: path) }
    if !shard.isWhole && !result.listedPlaces.isEmpty {
      emit("\nshard \(shard): unexpected passes of listed places are checked when the shards are merged")
    }
    emit("\n" + ConformanceSummary.verdict(result))
    return result.failed ? 1 : 0
  }

  /// A digest of a file's bytes, naming the expected failures a run used.
  private static func digest(_ path: String) throws -> String {
    var hash = FNV1a64()
    hash.add(bytes: try CorpusLoader.readFile(path, limit: CorpusLoader.maximumFileBytes))
    return hash.hex
  }

  /// A backend whose descriptor asks for a sample on this tier (the uncached ICU one, about
  /// 30 µs per name per keystroke) answers an even sample, of `--icu-sample` queries when
  /// given; everything else answers every query.
  private static func icuSampleSize(_ candidate: Candidate, tier: CorpusTier, _ icuSample: Int?) -> Int? {
    guard let sample = candidate.type.descriptor.conformanceSample[tier] else { return nil }
    return icuSample ?? sample
  }

  private static func check(
    _ backend: any SearchBackend, run: DifferentialRun, label: String, mode: MatchMode, texts: [String],
    targets: [String], sample: Int?, shard: Shard, expected: ExpectedFailures, progress: Progress
  ) -> BackendOutcome {
    func open<B: SearchBackend>(_ backend: B) -> BackendOutcome {
      run.check(
        backend, label: label, mode: mode, texts: texts, targets: targets, sample: sample, shard: shard,
        isExpected: expected.isExpected, progress: progress.update)
    }
    return open(backend)
  }

  private static func selectedBackends(_ list: String?) throws -> [Candidate] {
    let types = try list.map(BackendSelection.select) ?? BackendCatalog.all.filter { $0 != LinearScanBackend.self }
    return types.map { Candidate(type: $0, options: BackendOptions(), label: $0.name) }
  }

  /// The fuzzed set of one tier: every query stateless, and the short ones (at most 5,000)
  /// also typed keystroke by keystroke.
  static func fuzzSet(corpus: Corpus, count: Int, seed: UInt64) -> (
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
  private static func inputCost(
    _ backend: any SearchBackend, run: DifferentialRun, texts: [String], times: [UInt64], mode: MatchMode,
    sample: Int?
  ) -> InputCost {
    // The same even sample the conformance check answered.
    let chosen = sample.map { evenSample(Array(texts.indices), $0) }
    let queries = chosen.map { $0.map { texts[$0] } } ?? texts
    let referenceTimes = chosen.map { $0.map { times[$0] } } ?? times
    func open<B: SearchBackend>(_ backend: B) -> InputCost {
      InputCost.measure(
        backend, reference: run.reference, queries: queries, referenceTimes: referenceTimes, mode: mode,
        limit: run.limit)
    }
    return open(backend)
  }

  static func costLine(_ cost: InputCost) -> String {
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
  static func querySet(tier: CorpusTier, corpus: Corpus, golden: [String], sample: Int, every: Int, seed: UInt64)
    -> (targets: [String], texts: [String], description: String)
  {
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

  static func goldenQueries(_ path: String) -> [String]? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return fields.count > 3 && fields[1] == "cities" ? String(fields[3]) : nil
    }
  }

  static func reproduction(_ d: Divergence, tier: CorpusTier, corpus: Corpus, candidate: Candidate) -> String {
    let raw = candidate.options.icuRaw ? " --icu-raw" : ""
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
