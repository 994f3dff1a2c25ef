import CitySearchBench
import Foundation

/// `citybench compare`: any two runs side by side, as Markdown.
enum CompareCommand: Command {
  static let name = "compare"
  static let summary = "compare any two runs (a pull request against main, today against yesterday)"

  static let usage = """
    Usage: citybench compare [options] A.json B.json

    Puts two bench runs (their results.json) side by side: for every backend in both, the
    latency quantiles, the paired ratios to the reference, and the instruction, allocation and
    index-byte counts, each with B ÷ A and whether the change lies beyond the intervals. Unlike
    'citybench gate', it refuses no difference of settings: they are listed above the figures.
    Prints Markdown, for a pull-request comment or a job summary. Exit status 0, 1 on a file
    that is not a results.json.

    Options:
      --out FILE            also write the Markdown to FILE
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(valued: ["--out"], maximumPositionals: 2)

  static func run(_ args: ParsedArguments) throws -> Int32 {
    guard args.positionals.count == 2 else { throw UsageError(message: "give two results.json files, A and B") }
    let (aPath, bPath) = (args.positionals[0], args.positionals[1])
    let comparison = RunComparison(
      a: try BenchResults(contentsOf: aPath), b: try BenchResults(contentsOf: bPath), aPath: aPath, bPath: bPath)
    if let out = args["--out"] { try AtomicFile.write(Data(comparison.markdown.utf8), to: out) }
    print(comparison.markdown, terminator: "")
    return 0
  }
}
