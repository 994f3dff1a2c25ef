import CitySearch
import CitySearchBench
import CitySearchConformance
import CitySearchExecutor
import Foundation

extension ConformCommand {
  /// `conform --executor NAME=CMD …`: the conformance profile of each implementation on each
  /// tier and mode, compared with the committed profiles. Exit 1 when a committed profile
  /// changed or an executor failed; an implementation that is not in the file is reported as
  /// new.
  static func profileExecutors(_ args: ParsedArguments) throws -> Int32 {
    let specs = try args.executorSpecs()
    for option in ["--backends", "--fuzz", "--shard", "--every", "--icu-sample", "--write-expected", "--result"]
    where args[option] != nil {
      throw UsageError(message: "\(option) checks the backends; --executor profiles implementations of your own")
    }
    let tiers = (args["--corpus"] ?? CorpusTier.cities.rawValue).split(separator: ",").map(String.init)
    let modes: [MatchMode] =
      try args["--mode"].map { name in
        guard name != "both" else { return MatchMode.allCases }
        guard let mode = MatchMode(rawValue: name) else {
          throw UsageError(message: "unknown mode '\(name)' (syllable, seed or both)")
        }
        return [mode]
      } ?? MatchMode.allCases
    let count = try args.integer("--sample", default: 2_000, range: 1...10_000_000)
    let seed = UInt64(try args.integer("--seed", default: 1, range: 0...Int.max))
    let limit = 20
    let fuzzy = try FuzzyArgument.rules(args)

    let packageFiles = CorpusOptions(directory: args["--corpus-dir"])
    let profilesPath = args["--profiles"] ?? packageFiles.packageFile("Conformance/expected-profiles.tsv")
    let committed = try profilesPath.map { try ExpectedProfiles(contentsOf: $0) } ?? ExpectedProfiles()
    var written = try args["--write-profiles"].map { path in
      FileManager.default.fileExists(atPath: path) ? try ExpectedProfiles(contentsOf: path) : ExpectedProfiles()
    }
    var failed = false
    for tier in tiers {
      let options = CorpusOptions(corpus: tier, directory: args["--corpus-dir"])
      let corpus = try options.load()
      let file = try options.file()
      let texts = ExecutorProfiler.queries(corpus, count: count, seed: seed)
      emit("\n== \(options.name): \(corpus.count) places; \(texts.count) distinct queries (seed \(seed))")
      let reference = LinearScanBackend(corpus: corpus)
      for mode in modes {
        let profiler = ExecutorProfiler(
          reference: reference, corpusName: options.name, mode: mode, fuzzy: mode == .syllable ? fuzzy : [],
          limit: limit)
        for spec in specs {
          let start = ExternalStart.start(
            spec, corpus: corpus, path: file.path, format: file.format, mode: mode, limit: limit,
            fuzzy: mode == .syllable ? fuzzy : [])
          guard let executor = start.executor else {
            emit("\(spec.name), \(mode): \(start.summary)")
            failed = true
            continue
          }
          defer { executor.stop() }
          emit("\(spec.name), \(mode): \(start.summary)")
          let progress = Progress(label: "\(options.name) \(mode) \(spec.name)")
          let (profile, failure) = profiler.profile(executor, texts: texts, progress: progress.update)
          progress.finish()
          for line in profile.lines { emit(line) }
          if let failure {
            emit("  FAILED: \(failure)")
            failed = true
            continue
          }
          switch committed.changes(profile) {
          case nil:
            emit("  no committed profile\(profilesPath.map { " in \($0)" } ?? ""); --write-profiles FILE records it")
          case let changes? where changes.isEmpty:
            emit("  profile unchanged")
          case let changes?:
            emit("  PROFILE CHANGED: \(changes.joined(separator: ", "))")
            failed = true
          }
          written?.record(profile)
        }
      }
    }
    if let path = args["--write-profiles"], let written {
      try AtomicFile.write(Data(written.text.utf8), to: path)
      emit("\nprofiles written to \(path)")
    }
    return failed ? ExitStatus.failure : ExitStatus.success
  }
}
