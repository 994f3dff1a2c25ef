import CitySearchBench
import Foundation

/// `citybench figures`: Markdown tables of several runs side by side, one column per run, for a
/// README or a design document; `--update` writes them between a file's markers and `--check`
/// fails when a file's tables differ from its runs.
enum FiguresCommand: Command {
  static let name = "figures"
  static let summary = "Markdown tables of several runs side by side (the README's measured figures)"

  static let synopsis = "citybench figures [options] RUN.json…"

  static let discussion = """
    Prints, from the results.json of several runs (one per corpus, say the A.results.json files
    of 'citybench bench --corpus cities,towns,villages'), two Markdown tables with a column per
    run: each backend's p50 / p99 per keystroke with its paired ratio to the reference, and its
    build time, index bytes (counted) and heap kept. The files are named in the caption as
    given on the command line.
    """

  static var options: [CommandOption] {
    [
      .value(
        "--update", "FILE",
        "write the tables into FILE between its two marker lines (\(FigureTables.beginMarker) and \(FigureTables.endMarker)), atomically"
      ),
      .value("--check", "FILE", "instead, exit 1 when FILE's tables differ from what the runs give"),
    ]
  }

  static let maximumPositionals = 100

  static func run(_ args: ParsedArguments) throws -> Int32 {
    guard !args.positionals.isEmpty else { throw UsageError(message: "give at least one results.json") }
    if args["--update"] != nil && args["--check"] != nil {
      throw UsageError(message: "give --update or --check, not both")
    }
    let runs = try args.positionals.map { try BenchResults(contentsOf: $0) }
    let tables = FigureTables.markdown(runs, sources: args.positionals)
    guard let path = args["--update"] ?? args["--check"] else {
      print(tables, terminator: "")
      return 0
    }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    if args["--check"] != nil {
      guard let block = FigureTables.block(in: text) else {
        throw CommandError(message: "\(path): \(FigureTables.MissingMarkers())")
      }
      if block == tables {
        print("\(path): the figures are those of the runs")
        return 0
      }
      print(
        "\(path): the figures differ from the runs; run 'citybench figures --update \(path) \(args.positionals.joined(separator: " "))'"
      )
      return 1
    }
    do {
      try AtomicFile.write(Data(try FigureTables.replacingBlock(in: text, with: tables).utf8), to: path)
    } catch let error as FigureTables.MissingMarkers {
      throw CommandError(message: "\(path): \(error)")
    }
    print("wrote the figures of \(runs.count) runs into \(path)")
    return 0
  }
}
