import CitySearch
import CitySearchBench
import CitySearchExecutor
import Foundation

/// `citybench relevance`: how many keystrokes the reference's ranking costs a person to reach
/// the place they mean, and the hand-checked cases (docs/Relevance.md).
enum RelevanceCommand: Command {
  static let name = "relevance"
  static let summary = "keystrokes the ranking costs to reach the intended place; the hand-checked cases"

  static let usage = """
    Usage: citybench relevance [options]

    Replays every place of the corpus, weighted by its prominence (a population), typed in
    every style (full pinyin, initials, mixed, Hanzi) and as each alias, one keystroke at a
    time, and reports how many keystrokes the reference needs to put it first and among the
    first three, the share first after two initials, the mean reciprocal rank per keystroke
    and the worst cases; then checks the hand-checked relevance cases.

    Options:
    \(CorpusOptions.help)
      --cases FILE          the hand-checked cases (default: Benchmarks/relevance-cases.tsv)
      --worst N             how many worst cases to list (default: 15)
      --without-facts       rank without prominence and aliases (the ranking of contract 1.x)
      --out DIR             also write the report as Markdown to DIR/relevance.md
      -h, --help            show this help

    Exit status: 0 when every case's first answer is acceptable except the ones marked as known
    failures (which must fail), 1 otherwise.
    """

  static let spec = ParsedArguments.Spec(
    valued: CorpusOptions.valued.union(["--cases", "--worst", "--out"]), flags: ["--without-facts"],
    maximumPositionals: 0)

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = CorpusOptions(args)
    let worst = try args.integer("--worst", default: 15, range: 0...10_000)
    let withoutFacts = args.has("--without-facts")
    // The output is checked before the evaluation (about 10 s on cities).
    let reports = try args["--out"].map { try ReportDirectory($0, family: ["relevance.md"]) }
    let corpus = try options.load(facts: !withoutFacts)
    // The targets are weighed by prominence (and typed as their aliases) either way.
    let facts = withoutFacts ? try options.load() : corpus
    guard let casesPath = args["--cases"] ?? options.packageFile("Benchmarks/relevance-cases.tsv") else {
      throw CommandError(message: "cannot find Benchmarks/relevance-cases.tsv; pass --cases FILE")
    }
    let cases = try RelevanceCase.load(casesPath, corpus: corpus)
    let started = MonotonicClock.now()
    let report = RelevanceEvaluation(corpus: corpus, facts: facts).run()
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    let reference = LinearScanBackend(corpus: corpus)
    let failures = cases.filter { !$0.passes(with: reference) }.map { ($0, $0.firstAnswer(of: reference)) }
    let unexpected = cases.filter { $0.passes(with: reference) == ($0.knownFailure != nil) }
    let ranking = withoutFacts ? "without prominence and aliases (contract 1.x ranking)" : "contract 2.1"
    let text = RelevanceReport.markdown(
      report, corpus: corpus, ranking: ranking, worst: worst, cases: cases, failures: failures, seconds: seconds)
    print(text, terminator: "")
    for c in unexpected {
      let outcome = c.knownFailure == nil ? "fails, not marked known" : "passes, marked known"
      emit("line \(c.line) '\(c.query)': \(outcome)")
    }
    if let reports {
      try reports.write(text, named: "relevance.md")
      try reports.commit()
    }
    return unexpected.isEmpty ? 0 : 1
  }
}
