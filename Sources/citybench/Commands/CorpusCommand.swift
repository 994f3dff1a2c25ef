import CitySearch
import Foundation

/// `citybench corpus`: what a corpus holds and how long it took to load.
enum CorpusCommand: Command {
  static let name = "corpus"
  static let summary = "load a corpus and print its size and load time"

  static let synopsis = "citybench corpus [options]"

  static let discussion = """
    Loads a corpus and prints its size by level, its reading tokens, how many places have
    alternate readings, for a file of your own how many of its places took the prominence and
    aliases of the tiers' places they are named like, and the load time (wall clock, this
    process).
    """

  static var options: [CommandOption] {
    CorpusOptions.options
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let clock = ContinuousClock()
    var loaded: (corpus: Corpus, join: String?)?
    let elapsed = try clock.measure { loaded = try CorpusOptions(args).loadJoining() }
    guard let (corpus, join) = loaded else { return 1 }
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
    if let join { print("facts\t\(join)") }
    print("load time\t\(OverviewCommand.milliseconds(elapsed)) ms")
    return 0
  }
}
