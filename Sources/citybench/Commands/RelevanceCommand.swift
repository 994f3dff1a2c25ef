import CitySearch
import CitySearchBench
import CitySearchCorpus
import CitySearchExecutor
import Foundation

/// `citybench relevance`: how many keystrokes the reference's ranking costs a person to reach
/// the place they mean, and the hand-checked cases (docs/Relevance.md).
enum RelevanceCommand: Command {
  static let name = "relevance"
  static let summary = "keystrokes the ranking costs to reach the intended place; the hand-checked cases"

  static let synopsis = "citybench relevance [options]"

  static let discussion = """
    Replays every place of the corpus, weighted by its prominence (a population), typed in
    every style (full pinyin, initials, mixed, Hanzi) and as each alias, one keystroke at a
    time, and reports how many keystrokes the reference needs to put it first and among the
    first three, the share first after two initials, how often the place drops out of first
    as it is typed on, the mean reciprocal rank per keystroke and the worst cases; then the
    same for a second set of targets typed by another rule (each short name as pinyin,
    initials, and first syllable before initials), and checks the hand-checked cases.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value("--cases", "FILE", "the hand-checked cases (default: Benchmarks/relevance-cases.tsv)"),
        .value("--worst", "N", "how many worst cases to list (default: 15)"),
        .flag("--without-facts", "rank without prominence and aliases (the ranking of contract 1.x)"),
        .value(
          "--weights", "W",
          "rank with other class steps (RankingWeights): strict, zero, or spelling,start,later,suffix,reading in doublings of prominence (contract: 8,4,5,21,4); measured without searching again, as --sweep does"
        ),
        .repeatable(
          "--executor", "NAME=CMD",
          "also type every target through an implementation of your own, run as CMD over the wire protocol (executors/README.md), and compare its ranking with the contract's; repeatable"
        ),
        .flag(
          "--sweep",
          "measure many rankings (RankingWeights) on both target sets and list the best --worst N by mean keystrokes until first; with --out, DIR/sweep.md and every weighting in DIR/sweep.tsv"
        ),
      ]
      + ScopeArguments.options
      + [
        .note(
          "(the targets are the places in scope, each searched for in it: a city picker measured on its own list; not with --sweep or --weights; the hand-checked cases, written for every place, are not checked)"
        ),
        .repeatable(
          "--keyboard", "NAME",
          "also type every target on this double-pinyin or Zhuyin keyboard and report its typists' keystrokes ('all' for every layout; repeatable): \(KeyboardArgument.names.dropFirst().joined(separator: ", "))"
        ),
      ]
      + FuzzyArgument.options
      + [
        .note(
          "(with --fuzzy, also a typist who confuses what the rules pair (zou for zhou under zh-z), and every --keyboard typist is searched with the rules)"
        )
      ]
      + TwoLevelArgument.options
      + [
        .note(
          "(also type every target with a parent as the parent's short name and then its own, 北京朝阳, bjcy, and report how often it is first against its own name alone)"
        ),
        .value("--out", "DIR", "also write the report as Markdown to DIR/relevance.md"),
      ]
  }

  static let epilogue = """
    Exit status: 0 when every case's first answer is acceptable except the ones marked as known
    failures (which must fail) and every --executor answered, 1 otherwise.
    """

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = CorpusOptions(args)
    let specs = try args.executorSpecs()
    if !specs.isEmpty && (args.has("--sweep") || args["--weights"] != nil) {
      throw UsageError(
        message: "--executor measures an implementation's own ranking; --sweep and --weights the reference's")
    }
    let scopeRequest = try ScopeArguments.request(args)
    if !scopeRequest.isEverything && (args.has("--sweep") || args["--weights"] != nil) {
      throw UsageError(message: "--sweep and --weights measure every place: drop --cities, --level and --under")
    }
    let worst = try args.integer("--worst", default: 15, range: 0...10_000)
    let withoutFacts = args.has("--without-facts")
    // The output is checked before the evaluation (about 10 s on cities).
    let sweeping = args.has("--sweep")
    let reports = try args["--out"].map {
      try ReportDirectory($0, family: sweeping ? ["sweep.md", "sweep.tsv"] : ["relevance.md"])
    }
    let corpus = try options.load(facts: !withoutFacts)
    // The targets are weighed by prominence (and typed as their aliases) either way.
    let facts = withoutFacts ? try options.load() : corpus
    guard let casesPath = args["--cases"] ?? options.packageFile("Benchmarks/relevance-cases.tsv") else {
      throw CommandError(message: "cannot find Benchmarks/relevance-cases.tsv; pass --cases FILE")
    }
    let scope = try ScopeArguments.scope(scopeRequest, in: corpus)
    // The cases' answers are of every place: a scoped run does not check them.
    let cases = scope.isEverything ? try RelevanceCase.load(casesPath, corpus: corpus) : []
    let sets = RelevanceEvaluation.Targets.allCases
    func sweep() -> RankingSweep {
      RankingSweep(evaluation: RelevanceEvaluation(corpus: corpus, facts: facts), sets: sets, cases: cases)
    }
    if sweeping {
      let started = MonotonicClock.now()
      let sweep = sweep()
      let rows = sweep.rows(RankingSweep.grid, sets: sets)
      let seconds = Double(MonotonicClock.now() - started) / 1e9
      let text = RankingSweep.markdown(rows, corpus: corpus.source, cases: cases.count, best: worst, seconds: seconds)
      print(text, terminator: "")
      if let reports {
        try reports.write(text, named: "sweep.md")
        try reports.write(RankingSweep.tsv(rows), named: "sweep.tsv")
        try reports.commit()
      }
      return ExitStatus.success
    }
    if let text = args["--weights"] {
      let weights = try parseWeights(text)
      let sweep = sweep()
      for set in sets {
        print(
          RelevanceReport.markdown(
            sweep.report(weights, targets: set), corpus: corpus, ranking: "\(weights), \(set.rawValue)", worst: worst))
      }
      let failures = sweep.failures(weights)
      print(
        RelevanceReport.casesMarkdown(cases: cases, failures: failures, corpus: corpus), terminator: "")
      return ExitStatus.success
    }
    let started = MonotonicClock.now()
    let evaluation = RelevanceEvaluation(corpus: corpus, facts: facts, scope: scope)
    let report = evaluation.run(targets: .fullNames)
    let shortNames = evaluation.run(targets: .shortNames)
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    let reference = LinearScanBackend(corpus: corpus)
    let answered = cases.map { c in (c, c.firstAnswer(of: reference)) }
    let failures = answered.filter { c, first in first.map(c.expected.contains) != true }
    // A case is unexpected when it passes exactly when it is marked a known failure.
    let unexpected = answered.filter { c, first in (first.map(c.expected.contains) == true) == (c.knownFailure != nil) }
      .map(\.0)
    let ranking =
      (withoutFacts ? "without prominence and aliases (contract 1.x ranking)" : "contract \(MatchContract.version)")
      + (scope.isEverything ? "" : ", scope \(scope) (\(scope.placeCount) places)")
    var text =
      RelevanceReport.markdown(
        report, corpus: corpus, ranking: ranking, worst: worst, cases: cases, failures: failures, seconds: seconds)
      + "\n" + RelevanceReport.markdown(shortNames, corpus: corpus, ranking: ranking + ", short names", worst: worst)
    print(text, terminator: "")
    var failed = false
    let fuzzy = try FuzzyArgument.rules(args)
    var layouts: [Keyboard] = []
    for name in args.all("--keyboard") {
      if name == "all" {
        layouts += try EmbeddedCorpus.keyboards()
      } else if let layout = try KeyboardArgument.keyboard(name) {
        layouts.append(layout)
      }
    }
    if !layouts.isEmpty || !fuzzy.isEmpty {
      let typed =
        (fuzzy.isEmpty ? [] : [evaluation.run(on: nil, fuzzy: fuzzy)])
        + layouts.map { evaluation.run(on: $0, fuzzy: fuzzy) }
      let table = RelevanceReport.typedMarkdown(typed, fullNames: report, fuzzy: fuzzy)
      print("\n" + table, terminator: "")
      text += "\n" + table
    }
    if args.has("--two-level") {
      let table = RelevanceReport.addressesMarkdown(evaluation.runAddresses())
      print("\n" + table, terminator: "")
      text += "\n" + table
    }
    if !scope.isEverything {
      // What the scope buys: the same targets, every place searched.
      let unscoped = RelevanceEvaluation(corpus: corpus, facts: facts, scope: scope, searchScope: .everything)
      let rows = [
        RelevanceReport.Row(name: "in scope", fullNames: report, shortNames: shortNames, casesPassing: 0),
        RelevanceReport.Row(
          name: "every place searched", fullNames: unscoped.run(targets: .fullNames),
          shortNames: unscoped.run(targets: .shortNames), casesPassing: 0),
      ]
      let comparison = RelevanceReport.comparisonMarkdown(
        rows, cases: 0, title: "What the scope buys: the same targets, every place searched")
      print("\n" + comparison, terminator: "")
      text += "\n" + comparison
    }
    if !specs.isEmpty {
      var rows = [
        RelevanceReport.Row(
          name: "\(LinearScanBackend.name) (\(ranking))", fullNames: report, shortNames: shortNames,
          casesPassing: cases.count - failures.count)
      ]
      let file = try options.file()
      for spec in specs {
        let start = ExternalStart.start(
          spec, corpus: corpus, path: file.path, format: file.format, mode: .syllable,
          limit: RelevanceEvaluation.deepestRank)
        emit("\(spec.name): \(start.summary)")
        guard let executor = start.executor else {
          failed = true
          continue
        }
        defer { executor.stop() }
        guard executor.capabilities.ranked else {
          emit("  \(spec.name) does not rank its answers: there is no first place to measure")
          continue
        }
        do {
          let progress = Progress(label: "relevance \(spec.name)")
          let full = try evaluation.run(targets: .fullNames, through: executor)
          progress.update(1, 3)
          let short = try evaluation.run(targets: .shortNames, through: executor)
          progress.update(2, 3)
          let right = try cases.filter { try $0.firstAnswer(through: executor).map($0.expected.contains) == true }
          progress.finish()
          rows.append(
            RelevanceReport.Row(name: spec.name, fullNames: full, shortNames: short, casesPassing: right.count))
        } catch {
          emit("  \(spec.name) FAILED: \(error)")
          failed = true
        }
      }
      let comparison = RelevanceReport.comparisonMarkdown(rows, cases: cases.count)
      print("\n" + comparison, terminator: "")
      text += "\n" + comparison
    }
    for c in unexpected {
      let outcome = c.knownFailure == nil ? "fails, not marked known" : "passes, marked known"
      emit("line \(c.line) '\(c.query)': \(outcome)")
    }
    if let reports {
      try reports.write(text, named: "relevance.md")
      try reports.commit()
    }
    return unexpected.isEmpty && !failed ? 0 : 1
  }

  /// `strict`, `zero`, `contract` or five numbers of doublings.
  static func parseWeights(_ text: String) throws -> RankingWeights {
    switch text {
    case "strict": return .strict
    case "zero": return .zero
    case "contract": return .contract
    default:
      let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
        Double($0.trimmingCharacters(in: .whitespaces))
      }
      guard numbers.count == 5, let numbers = numbers as? [Double], numbers.allSatisfy({ $0 >= 0 && $0 <= 1_000 })
      else {
        throw UsageError(
          message:
            "--weights takes strict, zero, contract or five numbers 0…1000 (spelling,start,later,suffix,reading), not '\(text)'"
        )
      }
      return RankingWeights(
        spelling: numbers[0], matchStart: numbers[1], matchLater: numbers[2], matchSuffix: numbers[3],
        reading: numbers[4])
    }
  }
}
