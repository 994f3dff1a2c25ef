import CitySearch
import CitySearchBench
import CitySearchConformance
import Foundation

/// `citybench merge`: joins the shards of one `conform` or `bench` run.
enum MergeCommand: Command {
  static let name = "merge"
  static let summary = "join the shards of one conform or bench run (--shard K/N) into one verdict"

  static let synopsis = "citybench merge [options] PART..."

  static let discussion = """
    Joins the parts of one sharded run, as a CI matrix writes them, into one:

      conformance results (conform --shard K/N --result FILE): the counts add up, the first
      divergences are the whole run's, and the listed places' unexpected passes are checked;
      prints the verdict as 'citybench conform' does. Exit status 0 when everything
      conforms, 1 otherwise.

      bench results (bench --shard K/N, each shard's results.json): every backend with the
      results of the shard that timed it, the reference from shard 1; writes the reports to
      --out. Gate the merged results.json with 'citybench gate --current'.

    Refuses, naming the file and the difference: parts of different runs (another commit,
    corpus, workload or setting), a whole run among them, and a shard missing or given twice.
    """

  static var options: [CommandOption] {
    [
      .value(
        "--result", "FILE",
        "conformance: write the merged result (equal to the unsharded run's but for the seconds spent)"),
      .value("--out", "DIR", "bench: where the merged reports go (default: citybench-report)"),
      .value("--format", "LIST", "bench: which reports: json,md,html (default: all three)"),
      .value("--junit", "FILE", "conformance: also write the verdict as JUnit XML"),
    ]
  }

  static let maximumPositionals = 100_000

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let paths = args.positionals
    guard !paths.isEmpty else { throw UsageError(message: "name the parts to merge") }
    let parts = try paths.map { path in
      (path, try CorpusLoader.readFile(path, limit: BenchResults.maximumFileBytes))
    }
    struct Kind: Decodable { var kind: String? }
    let kinds = parts.map { (try? JSONDecoder().decode(Kind.self, from: $0.1))?.kind }
    if kinds.allSatisfy({ $0 == ConformanceResult.fileKind }) {
      if args["--out"] != nil || args["--format"] != nil {
        throw UsageError(message: "--out and --format are for bench shards; conformance parts take --result")
      }
      return try mergeConformance(parts, args)
    }
    if let mixed = zip(paths, kinds).first(where: { $0.1 == ConformanceResult.fileKind }) {
      throw UsageError(message: "\(mixed.0) is a conformance result, the other parts are not: merge one kind at a time")
    }
    if args["--result"] != nil || args["--junit"] != nil {
      throw UsageError(message: "--result and --junit are for conformance shards; bench parts take --out")
    }
    return try mergeBench(paths, args)
  }

  private static func mergeConformance(_ parts: [(String, Data)], _ args: ParsedArguments) throws -> Int32 {
    let results = try parts.map { path, data in (path, try ConformanceResult(jsonData: data, name: path)) }
    let whole = try ConformanceResult.merged(results)
    emit(ConformanceSummary.text(whole))
    if let path = args["--junit"] { try AtomicFile.write(Data(JUnitReport(conformance: whole).xml.utf8), to: path) }
    if let path = args["--result"] { try AtomicFile.write(try whole.jsonData(), to: path) }
    return whole.failed ? 1 : 0
  }

  private static func mergeBench(_ paths: [String], _ args: ParsedArguments) throws -> Int32 {
    let formats = try BenchCommand.reportFormats(args["--format"] ?? "json,md,html").filter { $0 != .csv }
    let out = args["--out"] ?? "citybench-report"
    let reports = try ReportDirectory(out, family: ReportFormat.family(in: out))
    let parts = try paths.map { ($0, try BenchResults(contentsOf: $0)) }
    let whole = try BenchResults.merged(parts)
    let machines = Set(parts.map(\.1.metadata.machine.fingerprint))
    if machines.count > 1 {
      standardError(
        "citybench merge: the shards ran on \(machines.count) kinds of machine (\(machines.sorted().joined(separator: ", "))): each ratio is to the reference timed beside it, but absolute times compare across machines"
      )
    }
    try ReportFormat.stage(formats, results: whole, raw: nil, workload: nil, in: reports)
    let written = try Interruption.shared.commit(reports)
    print(BenchCommand.summary(whole))
    print("")
    print("merged \(parts.count) shards; reports: \(written.joined(separator: ", "))")
    return whole.conforms ? 0 : 1
  }
}
