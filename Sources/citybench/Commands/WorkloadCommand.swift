import CitySearch
import CitySearchBench
import Foundation

/// `citybench workload`: generates a tier's typing sessions (the committed files in Benchmarks/).
enum WorkloadCommand: Command {
  static let name = "workload"
  static let summary = "generate a tier's typing sessions (Benchmarks/*.workload.tsv)"

  static let synopsis = "citybench workload [options]"

  static let discussion = """
    Generates the typing sessions of a corpus from a seed: every province and prefecture
    plus a seeded sample of the other places, each typed in every style (full pinyin,
    initials, mixed, and Hanzi one character at a time) until the place shows among the
    reference's first answers; about one session in ten has a typo and a backspace. The format is
    described in docs/Workloads.md.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value(
          "--places", "N", "target places, each typed in every style (default: 1300 cities, 600 towns, 450 villages)"),
        .value("--seed", "N", "(default: 1)"),
        .value("--visible-rows", "N", "a person stops typing once the place is among the first N answers (default: 3)"),
        .value(
          "--keyboard", "NAME",
          "type each target's pinyin on a double-pinyin or Zhuyin keyboard instead (one session a place; each keystroke's text is what the keyboard reads): \(KeyboardArgument.names.dropFirst().joined(separator: ", "))"
        ),
        .value(
          "--confuse", "RULES",
          "type each target's pinyin as a person who confuses what these fuzzy rules pair (zou for zhou under zh-z; one session a place whose spelling they change; replay with --fuzzy RULES)"
        ),
        .value(
          "--out", "DIR",
          "write DIR/TIER.workload.tsv (default: standard output); '--out Benchmarks' regenerates the committed file"),
        .value("--check", "FILE", "regenerate and compare with FILE; exit 1 when they differ"),
      ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = CorpusOptions(args)
    let tier = CorpusTier(rawValue: options.corpus)
    let places = try args.integer(
      "--places", default: tier.map(WorkloadGenerator.Configuration.defaultPlaces) ?? 1_000, range: 1...10_000_000)
    let seed = try args.integer("--seed", default: 1, range: 0...Int.max)
    let corpus = try options.load()
    var configuration = WorkloadGenerator.Configuration(places: places, seed: UInt64(seed))
    configuration.visibleRows = try args.integer("--visible-rows", default: configuration.visibleRows, range: 1...1_000)
    configuration.keyboard = try KeyboardArgument.keyboard(args["--keyboard"])
    configuration.confusion = try args["--confuse"].map { try FuzzyArgument.parse($0, option: "--confuse") } ?? []
    if configuration.keyboard != nil && !configuration.confusion.isEmpty {
      throw UsageError(message: "--keyboard and --confuse each make their own sessions; give one")
    }
    let generator = WorkloadGenerator(corpus: corpus, configuration: configuration)
    var command = "citybench workload --corpus \(options.corpus)"
    if args["--visible-rows"] != nil { command += " --visible-rows \(configuration.visibleRows)" }
    if args["--places"] != nil { command += " --places \(places)" }
    if seed != 1 { command += " --seed \(seed)" }
    if let keyboard = configuration.keyboard { command += " --keyboard \(keyboard.name)" }
    if !configuration.confusion.isEmpty { command += " --confuse \(configuration.confusion)" }
    let workload = generator.generate(properties: [("generated-by", command), ("corpus", options.name)])
    if let check = args["--check"] {
      let committed = try Workload(contentsOf: check)
      guard committed.checksum == workload.checksum else {
        standardError(
          "\(check) differs from what '\(command)' generates (\(committed.checksum) vs \(workload.checksum))")
        return 1
      }
      print("\(check): matches '\(command)' (\(workload.keystrokeCount) keystrokes, \(workload.checksum))")
      return 0
    }
    if let directory = args["--out"] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let out = URL(fileURLWithPath: directory).appendingPathComponent("\(options.name).workload.tsv").path
      try AtomicFile.write(workload.fileText, to: out)
      standardError(
        "\(out): \(workload.sessions.count) sessions, \(workload.keystrokeCount) keystrokes, \(workload.checksum)")
    } else {
      print(workload.fileText, terminator: "")
    }
    return 0
  }
}
