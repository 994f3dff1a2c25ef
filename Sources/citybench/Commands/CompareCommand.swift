import CitySearchBench
import Foundation

/// `citybench compare`: any two runs side by side, as Markdown.
enum CompareCommand: Command {
  static let name = "compare"
  static let summary = "compare any two runs (a pull request against main, today against yesterday)"

  static let synopsis = "citybench compare [options] A.json B.json"

  static let discussion = """
    Puts two bench runs (their results.json) side by side: for every backend in both, the
    latency quantiles, the paired ratios to the reference, and the instruction, allocation and
    index-byte counts, each with B ÷ A and whether the change lies beyond its 95% interval.
    When each run's samples.csv lies beside its results.json (A.samples.csv beside
    A.results.json for a multi-corpus run), a latency's change gets a bootstrap interval of its
    own, paired when both runs timed the same keystrokes; otherwise its interval runs between
    the two runs' intervals' extremes. Unlike 'citybench gate', it refuses no difference of
    settings: they are listed above the figures. Prints Markdown, for a pull-request comment or
    a job summary. Exit status 0, 1 on a file that is not a results.json or samples.csv.
    """

  static var options: [CommandOption] {
    [
      .value("--out", "FILE", "also write the Markdown to FILE"),
      .value(
        "--chart", "FILE",
        "also write the changes as an SVG chart (B ÷ A with its interval per backend and figure, on a log axis around 1)"
      ),
      .flag("--no-samples", "ignore samples.csv files: intervals from the runs' intervals only"),
    ]
  }

  static let maximumPositionals = 2

  static func run(_ args: ParsedArguments) throws -> Int32 {
    guard args.positionals.count == 2 else { throw UsageError(message: "give two results.json files, A and B") }
    let (aPath, bPath) = (args.positionals[0], args.positionals[1])
    let (aSamples, bSamples) =
      args.has("--no-samples") ? (nil, nil) : (try samples(beside: aPath), try samples(beside: bPath))
    let comparison = RunComparison(
      a: try BenchResults(contentsOf: aPath), b: try BenchResults(contentsOf: bPath), aPath: aPath, bPath: bPath,
      aSamples: aSamples, bSamples: bSamples)
    if let out = args["--out"] { try AtomicFile.write(Data(comparison.markdown.utf8), to: out) }
    if let chart = args["--chart"] { try AtomicFile.write(Data(comparison.chart.utf8), to: chart) }
    print(comparison.markdown, terminator: "")
    return 0
  }

  /// The keystroke medians of the samples.csv written beside `resultsPath` by the same run
  /// (`results.json` → `samples.csv`, `A.results.json` → `A.samples.csv`), or `nil` when there
  /// is none.
  static func samples(beside resultsPath: String) throws -> [String: [Int: Double]]? {
    let url = URL(fileURLWithPath: resultsPath)
    let name = url.lastPathComponent
    let csvName =
      name == "results.json"
      ? "samples.csv" : name.hasSuffix(".results.json") ? String(name.dropLast(12)) + "samples.csv" : nil
    guard let csvName else { return nil }
    let csv = url.deletingLastPathComponent().appendingPathComponent(csvName).path
    guard FileManager.default.fileExists(atPath: csv) else { return nil }
    do {
      return try SamplesCSV.keystrokeMedians(String(contentsOfFile: csv, encoding: .utf8))
    } catch let error as SamplesCSV.ReadError {
      throw CommandError(message: "\(csv): \(error)")
    }
  }
}
