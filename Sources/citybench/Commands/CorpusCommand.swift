import CitySearch
import Foundation

/// `citybench corpus`: what a corpus holds and how long it took to load.
enum CorpusCommand {
  static let usage = """
    Usage: citybench corpus [options]

    Loads a corpus and prints its size by level, its reading tokens, how many places have
    alternate readings, and the load time (wall clock, this process).

    Options:
    \(CorpusOptions.help)
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(
    valued: CorpusOptions.valued, flags: ["--help"], aliases: ["-h": "--help"], maximumPositionals: 0)

  static func run(_ arguments: [String]) throws -> Int32 {
    let args = try ParsedArguments(arguments, spec: spec)
    if args.has("--help") {
      print(usage)
      return 0
    }
    let clock = ContinuousClock()
    var corpus: Corpus?
    let elapsed = try clock.measure { corpus = try CorpusOptions(args).load() }
    guard let corpus else { return 1 }
    var byLevel = [Int](repeating: 0, count: 6)
    var hot = 0
    var withAlternates = 0
    for i in 0..<corpus.count {
      byLevel[Int(corpus.level(at: i).rawValue)] += 1
      if corpus.isHot(at: i) { hot += 1 }
      if corpus.alternateCount(at: i) > 0 { withAlternates += 1 }
    }
    print("source\t\(corpus.source)")
    print("places\t\(corpus.count)")
    for level in PlaceLevel.allCases { print("level \(level.rawValue) (\(level))\t\(byLevel[Int(level.rawValue)])") }
    print("hot\t\(hot)")
    print("with alternate readings\t\(withAlternates)")
    print("reading tokens\t\(corpus.syllabary.count)")
    print("load time\t\(OverviewCommand.milliseconds(elapsed)) ms")
    return 0
  }
}
