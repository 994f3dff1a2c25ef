import CitySearch
import CitySearchBench
import CitySearchExecutor
import Foundation

/// `citybench` with no command (or `citybench suite`): the whole suite on the embedded
/// `cities` corpus with every backend, conformance then latency, in about a minute.
enum SuiteCommand: Command {
  static let name = "suite"
  static let summary = "the whole suite (the default)"

  static let synopsis = "citybench [suite] [--out DIR]"

  static let discussion = """
    Runs the whole suite on the default corpus (cities) with every backend:
      1. the differential check on every tenth place's query forms and the golden queries
         (as 'citybench conform --corpus cities --every 10 --icu-sample 30');
      2. the latency benchmark on the committed cities workload, whose answers are checked
         against the reference too (as 'citybench bench --budget 10').
    Prints a summary and writes the benchmark's reports (results.json, report.md,
    samples.csv, report.html) to --out. Exit status 0 when every backend conforms, else 1.
    """

  static var options: [CommandOption] {
    [
      .value("--out", "DIR", "where the reports go (default: citybench-report)")
    ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let out = args["--out"] ?? "citybench-report"
    let reports = try ReportDirectory(out, family: ReportFormat.family(in: out))
    let started = MonotonicClock.now()
    emit("CitySearchBench: the whole suite on cities (conformance, then latency)")
    emit("\n## 1. Conformance: every backend against the reference")
    let conform = try ConformCommand.run(ConformCommand.Settings(tiers: [.cities], every: 10, slowSample: 30))

    emit("\n## 2. Latency: the cities workload, keystroke by keystroke\n")
    var configuration = BenchConfiguration()
    configuration.budgetSeconds = 10
    let options = BenchOptions(corpus: CorpusOptions(directory: nil), configuration: configuration)
    let (results, raw, workload) = try options.run()
    try ReportFormat.stage(ReportFormat.allCases, results: results, raw: raw, workload: workload, in: reports)
    let written = try Interruption.shared.commit(reports)
    emit(BenchCommand.summary(results))

    let seconds = Double(MonotonicClock.now() - started) / 1e9
    let conforms = conform == 0 && results.conforms
    emit("")
    emit("suite: \(conforms ? "every backend conforms" : "DIVERGENCES found") (\(String(format: "%.0f", seconds)) s)")
    emit("reports: \(written.joined(separator: ", "))")
    emit("more: citybench help · citybench overview (example queries) · citybench gate (regression check)")
    return conforms ? 0 : 1
  }
}
