import CitySearch
import CitySearchCatalog
import Foundation

/// `citybench overview`: loads the default corpus and shows what each backend answers for a
/// few typical queries.
enum OverviewCommand: Command {
  static let name = "overview"
  static let summary = "what each backend answers for a few typical queries"

  static let synopsis = "citybench overview"

  static let discussion = """
    Loads the default corpus and shows what each backend answers for a few typical queries.
    """

  static let examples: [(query: String, mode: MatchMode, what: String)] = [
    ("bj", .syllable, "initials"),
    ("beij", .syllable, "partial last syllable"),
    ("changsha", .syllable, "polyphone 长 read chang"),
    ("xi'an", .syllable, "boundary mark"),
    ("zhongqing", .syllable, "alternate reading of 重"),
    ("長沙", .syllable, "traditional characters"),
    ("eijing", .seed, "seed-mode substring"),
  ]

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = CorpusOptions(corpus: CorpusTier.cities.rawValue, directory: nil)
    let clock = ContinuousClock()
    var loaded: Corpus?
    let loadTime = try clock.measure { loaded = try options.load() }
    guard let corpus = loaded else { return 1 }
    print(
      "CitySearchBench — corpus '\(CorpusTier.cities.rawValue)': \(corpus.count) places, loaded in \(milliseconds(loadTime)) ms"
    )
    print("")
    for type in BackendCatalog.all {
      let backend = try type.init(corpus: corpus, options: BackendOptions())
      try show(backend, corpus: corpus)
    }
    print("")
    print("Try: citybench search QUERY · citybench browse 黑龙江省 · citybench help")
    return 0
  }

  private static func show(_ backend: some SearchBackend, corpus: Corpus) throws {
    print("\(type(of: backend).name): \(type(of: backend).summary)")
    let width = examples.map(\.query.terminalColumns).max()! + 2
    for example in examples {
      let result = backend.search(example.query, mode: example.mode, limit: 3)
      let top = result.hits.map { corpus.name(at: $0.index) }.joined(separator: " ")
      let count = "\(String(result.total).leftPadded(5)) \(result.total == 1 ? "result " : "results")"
      print(
        "  \(example.query.padded(toColumns: width))\(example.mode.rawValue.padded(toColumns: 9))\(count)  \(top)   (\(example.what))"
      )
    }
  }

  static func milliseconds(_ d: Duration) -> String {
    String(format: "%.0f", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
  }
}
