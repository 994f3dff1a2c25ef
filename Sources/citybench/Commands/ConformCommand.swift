import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchConformance
import CitySearchCorpus
import Foundation

/// `citybench conform`: the differential check of every backend against the reference.
enum ConformCommand: Command {
  static let name = "conform"
  static let summary = "check every backend against the reference (the differential check)"

  static let synopsis = "citybench conform [options]"

  static let discussion = """
    Compares every backend with the reference (linear) on the golden queries, exhaustively
    on cities (every prefix of every place's pinyin, initials, mixed forms, alternate
    readings and Hanzi, with and without boundary marks, plus every name substring), and on
    a seeded sample of towns and villages; stateless and keystroke by keystroke through each
    backend's session, with backspaces. Prints a minimal reproduction of the first divergence
    of each backend and mode. Exit status 0 when everything conforms (expected failures
    allowed), 1 otherwise.
    """

  static var options: [CommandOption] {
    [
      .value(
        "--corpus", "cities|towns|villages|all",
        "which tiers to check, or a comma-separated list (default: cities, as for every command; all checks the three tiers)"
      ),
      .value("--corpus-dir", "DIR", "where the tiers live (default: as for 'citybench search')"),
      .value("--backends", "A,B", "the backends to check (default: every backend but the reference)"),
      .value("--mode", "syllable|seed|both", "(default: both)"),
      .value("--sample", "N", "distinct queries per sampled tier (default: 20000)"),
      .value("--seed", "N", "the sample's seed (default: 1)"),
      .value("--every", "N", "on cities, only every N-th place's forms (default: 1, all)"),
      .value(
        "--slow-sample", "N",
        "a backend too slow to answer every query (its descriptor sets a sample: 'citybench backends --details') answers an even sample of N queries per tier and mode (default: the descriptor's); also --icu-sample N",
        aliases: ["--icu-sample"]),
      .value(
        "--fuzz", "N",
        "instead of the tier's query set, N seeded fuzzed queries (--seed): place forms, mixtures, Hanzi, letter runs, emoji, combining marks, control characters, full-width text, and one in 50 of 1,000-20,000 characters; some typed keystroke by keystroke. Each backend is also timed on every query against the reference: no query may take more than 10× the reference's time (10× the backend's median ratio for one slower than the reference)"
      ),
      .flag(
        "--variants",
        "also check every backend's variants ('citybench backends --details'), such as 'icu-raw' and 'icu-cached-raw', built without ICU's override rules; their divergences must be listed in the expected-failures file"
      ),
    ]
      + BackendOptionArguments.variantOptions
      + ScopeArguments.options
      + [
        .note("(every answer, the reference's and each backend's, in that scope; not with --fuzz or --executor)")
      ]
      + TwoLevelArgument.options
      + [
        .note(
          "(every query read as a two-level query too, by the reference and each backend, each keystroke of a session too; not with --executor)"
        )
      ]
      + FuzzyArgument.options
      + [
        .note(
          "(every query, the reference's and each backend's or executor's, read with them; a profile's mode names them; 'each': one run per rule alone, then one with all of them)"
        ),
        .value(
          "--keyboard", "NAME",
          "instead of the tier's forms, type every place's pinyin on this double-pinyin or Zhuyin keyboard (on towns and villages, an even sample of places) and ask each text it reads, stateless and keystroke by keystroke, backspaces included ('all': every layout in turn): \(KeyboardArgument.names.dropFirst().joined(separator: ", "))"
        ),
        .value("--expected", "FILE", "expected failures (default: Conformance/expected-failures.tsv)"),
        .value(
          "--write-expected", "FILE",
          "write the places in divergences of the variants to FILE (names from the last tier checked; list the tiers in nesting order)"
        ),
        .value(
          "--junit", "FILE",
          "also write the verdicts as JUnit XML: a test case per backend, tier and mode (and per input-cost check with --fuzz)"
        ),
        .value("--result", "FILE", "also write what was found as JSON, the input of 'citybench merge'"),
        .value(
          "--shard", "K/N",
          "check only the K-th of N deterministic slices of every query set (for a CI matrix); write each shard's --result and join them with 'citybench merge', which gives the unsharded run's verdict"
        ),
        .repeatable(
          "--executor", "NAME=CMD",
          "instead of the backends, profile an implementation of your own (a command speaking docs/Executors.md; repeatable) against the reference: the shares of its answers with the reference's total, set, first place and top 10, and its differences grouped by cause. Takes --corpus (default: cities), --corpus-dir, --mode, --seed and --sample (distinct queries, default: 2000)"
        ),
        .value(
          "--profiles", "FILE",
          "the committed profiles a profile is compared with; a change exits 1 (default: Conformance/expected-profiles.tsv)"
        ),
        .value("--write-profiles", "FILE", "write the measured profiles into FILE (rows of others are kept)"),
      ]
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
    var slowSample: Int?
    var shard: Shard = .whole
    /// `--variants`: every variant; else those whose options set one of these (`--icu-raw`:
    /// the variants built with `icu-raw=true`).
    var allVariants = false
    var variantOptions: Set<String> = []
    var corpusDirectory: String?
    var expectedPath: String?
    var writeExpected: String?
    var junit: String?
    var result: String?
    /// `--cities`, `--level`, `--under`.
    var scope = PlaceScope.Request()
    /// `--fuzzy`.
    var fuzzy: FuzzyRules = []
    /// `--fuzzy each`: one run per rule alone, then one with all of them.
    var fuzzyEach = false
    /// `--keyboard`: the layouts the places are typed on, one run each; empty for the forms.
    var keyboards: [Keyboard] = []
    /// `--two-level`.
    var twoLevel = false
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let scoped = !(try ScopeArguments.request(args)).isEverything
    if !args.all("--executor").isEmpty {
      if scoped { throw UsageError(message: "--executor profiles every place: drop --cities, --level and --under") }
      if args.has("--two-level") {
        throw UsageError(message: "--executor profiles queries as the wire protocol asks them: drop --two-level")
      }
      return try profileExecutors(args)
    }
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
    settings.slowSample =
      args["--slow-sample"] == nil ? nil : try args.integer("--slow-sample", default: 0, range: 1...10_000_000)
    settings.shard = try args.shard()
    settings.scope = try ScopeArguments.request(args)
    settings.twoLevel = args.has("--two-level")
    if args["--fuzzy"] == "each" {
      settings.fuzzyEach = true
    } else {
      settings.fuzzy = try FuzzyArgument.rules(args)
    }
    if let name = args["--keyboard"] {
      settings.keyboards =
        name == "all" ? try EmbeddedCorpus.keyboards() : [try KeyboardArgument.keyboard(name)].compactMap { $0 }
      if !settings.keyboards.isEmpty && settings.fuzz != nil {
        throw UsageError(message: "--fuzz and --keyboard each make their own queries; give one")
      }
    }
    if !settings.scope.isEverything && settings.fuzz != nil {
      throw UsageError(message: "--fuzz times every place against the reference: drop --cities, --level and --under")
    }
    if !settings.shard.isWhole {
      if settings.fuzz != nil {
        throw UsageError(message: "--fuzz cannot be sharded: its input-cost bound is a median over every query")
      }
      if args["--write-expected"] != nil {
        throw UsageError(message: "--write-expected needs the whole run, not a shard")
      }
    }
    settings.allVariants = args.has("--variants")
    settings.variantOptions = Set(BackendOptionArguments.flagOptions.map(\.name).filter { args.has("--" + $0) })
    settings.corpusDirectory = args["--corpus-dir"]
    settings.expectedPath = args["--expected"]
    settings.writeExpected = args["--write-expected"]
    settings.junit = args["--junit"]
    settings.result = args["--result"]
    return settings
  }

  /// Runs each of `runs` (one sweep of `settings`), the worst exit status; a sweep writes no
  /// files, so the options that name one run's files are refused with `refusal`.
  private static func sweep(_ settings: Settings, refusal: String, runs: [Settings]) throws -> Int32 {
    if settings.result != nil || settings.junit != nil || settings.writeExpected != nil || !settings.shard.isWhole {
      throw UsageError(message: "\(refusal) for --result, --junit, --write-expected or --shard")
    }
    var status: Int32 = 0
    for one in runs { status = max(status, try run(one)) }
    return status
  }

  /// Runs the check (``ConformanceSuite``) and writes its files; the exit status (0 when
  /// everything conforms, else 1).
  static func run(_ settings: Settings) throws -> Int32 {
    if settings.fuzzyEach {
      // `--fuzzy each`: every rule alone, then all of them, each run with its own verdict.
      return try sweep(
        settings, refusal: "--fuzzy each runs once per rule: name the rules",
        runs: (FuzzyRules.named.map(\.rule) + [.all]).map { rules in
          var one = settings
          one.fuzzyEach = false
          one.fuzzy = rules
          return one
        })
    }
    if settings.keyboards.count > 1 {
      // `--keyboard all`: one run per layout, each with its own verdict.
      return try sweep(
        settings, refusal: "--keyboard all runs once per layout: name one layout",
        runs: settings.keyboards.map { keyboard in
          var one = settings
          one.keyboards = [keyboard]
          return one
        })
    }
    let types =
      try settings.backends.map(BackendSelection.select)
      ?? BackendCatalog.all.filter { $0 != LinearScanBackend.self }
    var candidates = types.map(ConformanceSuite.Candidate.init(type:))
    candidates += candidates.flatMap(\.variants).filter { variant in
      settings.allVariants
        || BackendOptionArguments.flagOptions.contains {
          settings.variantOptions.contains($0.name) && variant.options.isSet($0)
        }
    }
    let directory = CorpusOptions(directory: settings.corpusDirectory)
    var suite = ConformanceSuite.Settings()
    suite.tiers = settings.tiers
    suite.modes = settings.modes
    suite.sampleSize = settings.sampleSize
    suite.seed = settings.seed
    suite.every = settings.every
    suite.fuzz = settings.fuzz
    suite.slowSample = settings.slowSample
    suite.shard = settings.shard
    suite.scope = settings.scope
    suite.fuzzy = settings.fuzzy
    suite.twoLevel = settings.twoLevel
    suite.keyboard = settings.keyboards.first
    if let path = settings.expectedPath ?? directory.packageFile("Conformance/expected-failures.tsv") {
      suite.expected = try ExpectedFailures(contentsOf: path)
      suite.expectedDigest = try Self.digest(path)
    }
    suite.goldenQueries =
      directory.packageFile("Conformance/golden.tsv").flatMap {
        ConformanceSuite.goldenQueries($0, keyboards: (try? EmbeddedCorpus.keyboards()) ?? [])
      } ?? []
    suite.gitCommit = RunEnvironment.gitCommit(in: directory.packageDirectory)
    let hooks = ConformanceSuite.Hooks(
      loadTier: { tier in try CorpusOptions(corpus: tier.rawValue, directory: settings.corpusDirectory).load() },
      emit: emit,
      progress: { label in
        let progress = Progress(label: label)
        return (progress.update, progress.finish)
      })
    let outcome = try ConformanceSuite.run(suite, candidates: candidates, hooks: hooks)
    let result = outcome.result
    for passes in result.unexpectedPasses {
      emit(ConformanceSummary.unexpectedPassesLine(passes))
    }
    if let path = settings.writeExpected, let corpus = outcome.lastCorpus {
      // The variants of one suffix read every name the same way (the raw ICU ones share one
      // transliterator): each variant of the catalog gets the union of its suffix's culprits,
      // whichever of them was run.
      let entries = Dictionary(
        uniqueKeysWithValues: BackendCatalog.all.flatMap { type in
          type.descriptor.variants.compactMap { variant in
            outcome.variantCulprits[variant.suffix].map { (variant.label(of: type.name), $0) }
          }
        })
      let text = ExpectedFailures.file(entries, corpus: corpus) { label, index in
        "\(label) reads it differently from '\(corpus.pinyin(at: index).joined(separator: " "))'"
      }
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      emit("wrote \(outcome.variantCulprits.values.reduce(0) { $0 + $1.count }) expected failures to \(path)")
    }
    if let path = settings.junit { try AtomicFile.write(Data(JUnitReport(conformance: result).xml.utf8), to: path) }
    if let path = settings.result { try AtomicFile.write(try result.jsonData(), to: path) }
    if !settings.shard.isWhole && !result.listedPlaces.isEmpty {
      emit("\nshard \(settings.shard): unexpected passes of listed places are checked when the shards are merged")
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
}
