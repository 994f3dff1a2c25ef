import CitySearch
import CitySearchBench
import Foundation

/// `citybench bench`: the per-keystroke latency benchmark.
enum BenchCommand: Command {
  static let name = "bench"
  static let summary = "the per-keystroke latency benchmark and its reports"

  static let synopsis = "citybench bench [options]"

  static let discussion = """
    Replays typing sessions keystroke by keystroke through every selected backend. For each
    keystroke the backends answer in a freshly shuffled order (paired samples), each answer is
    checked against the reference's, and the time of each is taken with a monotonic clock.
    Reports per backend: latency p50/p90/p99/p99.9/max with bootstrap 95% intervals, overall,
    by query length and by input style; the paired ratio to the reference; time to final
    results per session; build time; memory; conformance. Exit status 0, or 1 when a backend's
    answer differed from the reference's (the reports are written either way). The reports in
    --out change as one set: an interrupted or failed run leaves the earlier set whole.

    With --corpus A,B,… (for example cities,towns,villages) it benchmarks each corpus in turn
    with its own workload and writes each one's reports as A.results.json, A.report.html and
    so on, plus the cost growth across them: growth.json, and report.md and report.html with
    every backend's p50, p99, build time and heap against the corpus size on log–log axes and
    the growth exponent fitted to each.
    """

  static var options: [CommandOption] {
    BenchOptions.options
      + BenchOptions.executorOptions
      + BenchOptions.indexOptions
      + BackendOptionArguments.options
      + [
        .note("(every backend that declares an option is built with it; the results record them)"),
        .value("--out", "DIR", "where the reports go (default: citybench-report)"),
        .value("--format", "LIST", "which reports: json,md,csv,html (default: all)"),
      ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = try BenchOptions(args)
    let formats = try reportFormats(args["--format"])
    let corpora = try corpusList(args)
    if corpora.count > 1 {
      guard args["--workload"] == nil else {
        throw UsageError(message: "--workload names one workload; with several corpora each replays its own")
      }
      guard options.shard.isWhole else { throw UsageError(message: "--shard takes one corpus, not \(corpora.count)") }
    }
    // The output is checked before the run, which may take minutes.
    let out = args["--out"] ?? "citybench-report"
    let reports = try ReportDirectory(out, family: ReportFormat.family(in: out, tiers: corpora.map(\.name)))
    if corpora.count > 1 { return try runTiers(corpora, options: options, formats: formats, reports: reports) }
    let (results, raw, workload) = try options.run()
    try ReportFormat.stage(formats, results: results, raw: raw, workload: workload, in: reports)
    let written = try Interruption.shared.commit(reports)
    print(summary(results))
    print("")
    print("reports: \(written.joined(separator: ", "))")
    return results.conforms ? 0 : 1
  }

  /// `--corpus A,B,…`: the corpora of a multi-tier run, each once; one corpus (the default,
  /// or a file whose name holds a comma) is a list of one.
  static func corpusList(_ args: ParsedArguments) throws -> [CorpusOptions] {
    let given = CorpusOptions(args)
    let value = given.corpus
    guard value.contains(","), !FileManager.default.fileExists(atPath: value) else { return [given] }
    let names = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    if let empty = names.firstIndex(of: "") {
      throw UsageError(message: "--corpus '\(value)' has an empty name at position \(empty + 1)")
    }
    let corpora = names.map { CorpusOptions(corpus: $0, directory: given.explicitDirectory) }
    var seen: Set<String> = []
    for corpus in corpora where !seen.insert(corpus.name).inserted {
      throw UsageError(message: "--corpus names '\(corpus.name)' twice (each tier's reports are named after it)")
    }
    return corpora
  }

  /// A multi-tier run: one bench per corpus, smallest given first, then the cost-growth table
  /// and each tier's reports written as one set.
  static func runTiers(
    _ corpora: [CorpusOptions], options: BenchOptions, formats: [ReportFormat], reports: ReportDirectory
  ) throws -> Int32 {
    var runs: [(results: BenchResults, raw: RawMeasurements, workload: Workload)] = []
    for (i, corpus) in corpora.enumerated() {
      standardError("[\(i + 1)/\(corpora.count)] \(corpus.name)")
      var tier = options
      tier.corpus = corpus
      runs.append(try tier.run())
    }
    let growth: CostGrowth
    do {
      growth = try CostGrowth(runs: runs.map(\.results))
    } catch let mismatch as CostGrowth.Mismatch {
      throw CommandError(message: mismatch.description)
    }
    for run in runs {
      try ReportFormat.stage(
        formats, results: run.results, raw: run.raw, workload: run.workload, tier: run.results.metadata.corpus.name,
        in: reports)
    }
    try ReportFormat.stage(formats, growth: growth, runs: runs.map(\.results), in: reports)
    let written = try Interruption.shared.commit(reports)
    for run in runs {
      print(summary(run.results))
      print("")
    }
    for sentence in GrowthReport.sentences(growth, runs: runs.map(\.results)) {
      print(sentence.replacingOccurrences(of: "**", with: ""))
    }
    print("")
    print("reports: \(written.joined(separator: ", "))")
    return runs.allSatisfy { $0.results.conforms } ? 0 : 1
  }

  static func reportFormats(_ list: String?) throws -> [ReportFormat] {
    guard let list else { return ReportFormat.allCases }
    return try list.split(separator: ",").map { name in
      guard let format = ReportFormat(rawValue: String(name)) else {
        throw UsageError(message: "unknown report format '\(name)' (json, md, csv, html)")
      }
      return format
    }
  }

  /// The terminal summary: one row per backend.
  static func summary(_ results: BenchResults) -> String {
    let m = results.metadata
    var rows: [[String]] = [
      ["backend", "p50", "p99", "max", "× \(results.reference) (p50)", "build", "heap", "answers"]
    ]
    for b in results.backends {
      let l = b.latency
      let ns = { (e: Estimate?) in e.map { Formatting.duration(nanoseconds: $0.value) } ?? "–" }
      let status: String
      if b.name == results.reference {
        status = "reference"
      } else if let failure = b.external?.failure {
        status = b.latency == nil ? "did not start" : "failed: \(failure.prefix(60))"
      } else if b.conformance.divergences == 0 {
        status = "\(Formatting.count(b.conformance.checked)) match"
      } else {
        status = "\(Formatting.count(b.conformance.divergences)) DIFFER"
      }
      rows.append([
        b.name + (b.external != nil ? " (ext)" : "") + (b.sampling.stride > 1 ? " *" : ""), ns(l?.p50), ns(l?.p99),
        ns(l?.max),
        b.ratioToReference.map { Formatting.ratio($0.p50.value) } ?? (b.name == results.reference ? "1×" : "–"),
        Formatting.seconds(b.build.seconds),
        b.build.heapBytes.map(megabytes) ?? "n/a", status,
      ])
    }
    var out =
      "\(m.corpus.name), \(m.mode) mode: \(Formatting.count(m.workload.keystrokes)) keystrokes × \(m.rounds) rounds, \(m.buildConfiguration) build\n"
    out += terminalTable(rows) + "\n"
    if let noise = results.noiseFloor {
      out +=
        "noise floor (\(results.reference) A/A): p50 \(Formatting.ratio(noise.p50.value)), p99 \(Formatting.ratio(noise.p99.value))\n"
    }
    if let floor = results.floor, floor.p50.value > 0, floor.p99.value > 0 {
      let multiples = results.backends.filter { $0.name != results.reference }.compactMap { b in
        b.latency.map {
          "\(b.name) \(Formatting.ratio($0.p50.value / floor.p50.value)) / \(Formatting.ratio($0.p99.value / floor.p99.value))"
        }
      }
      out +=
        "floor (each answer known in advance, looked up and copied): p50 \(Formatting.duration(nanoseconds: floor.p50.value)), p99 \(Formatting.duration(nanoseconds: floor.p99.value))"
        + (multiples.isEmpty ? "" : "; p50 / p99 as multiples of it: " + multiples.joined(separator: ", ")) + "\n"
    }
    let alone = results.backends.compactMap { b in
      b.aloneLatency.map {
        "\(b.name) \(Formatting.duration(nanoseconds: $0.p50.value)) / \(Formatting.duration(nanoseconds: $0.p99.value))"
      }
    }
    if !alone.isEmpty {
      out +=
        "alone and warm (each backend replaying the workload by itself after the rounds), p50 / p99: "
        + alone.joined(separator: ", ") + "; the table above is in the bench, among the others\n"
    }
    for note in MarkdownReport.samplingNotes(results) { out += "* " + note + "\n" }
    if results.backends.contains(where: { $0.external != nil }) {
      out +=
        "(ext): an implementation in another process; its own time is shown, the round trip in report.md (External implementations)\n"
    }
    if let headline = Headline.sentences(results).first {
      out += headline.replacingOccurrences(of: "**", with: "") + "\n"
    }
    out +=
      results.conforms ? "conformance: every answer matches the reference" : "conformance: DIVERGENCES (see report.md)"
    return out
  }
}
