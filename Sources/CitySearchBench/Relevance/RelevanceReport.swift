import CitySearch
import Foundation

/// The relevance section of the reports, as Markdown (`citybench relevance`, `report.md`).
public enum RelevanceReport {
  /// The measures, the worst cases and, where given, the hand-checked cases that failed
  /// (each with the reference's first answer, or `nil` when it had none).
  public static func markdown(
    _ report: RelevanceEvaluation.Report, corpus: Corpus, ranking: String, worst: Int,
    cases: [RelevanceCase] = [], failures: [(RelevanceCase, PlaceID?)] = [], seconds: Double? = nil
  ) -> String {
    func name(_ index: Int?) -> String { index.map { corpus.name(at: $0) } ?? "—" }
    func f(_ x: Double) -> String { String(format: "%.2f", x) }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    var lines = [
      "## Relevance: keystrokes to the intended place", "",
      "Corpus \(report.corpus), ranking \(ranking): \(Formatting.count(report.traces.count)) typed targets, "
        + "weighted by prominence" + (seconds.map { " (\(Formatting.seconds($0)))" } ?? "") + ".", "",
      "| measure | value |", "|---|---|",
      "| mean keystrokes until first | \(f(report.meanKeystrokesToFirst)) |",
      "| mean keystrokes until in the top 3 | \(f(report.meanKeystrokesToTop3)) |",
      "| first after 2 keystrokes of initials | \(percent(report.firstAfterTwoInitials)) |",
      "| never first, even fully typed | \(percent(report.neverFirst)) |",
      "| traces whose place drops out of first as it is typed on | \(percent(report.droppingOut)) |",
      "| drop-outs of the \(RelevanceEvaluation.prominentPlaces) most prominent places | \(report.prominentDropOuts) |",
      "| mean reciprocal rank after keystroke 1, 2, 3, 4, 5, 6 | "
        + report.reciprocalRankByKeystroke.prefix(6).map(f).joined(separator: ", ") + " |",
      "", "| style | traces | keystrokes until first | until top 3 |", "|---|---|---|---|",
    ]
    for row in report.byStyle {
      lines.append("| \(row.style) | \(Formatting.count(row.traces)) | \(f(row.toFirst)) | \(f(row.toTop3)) |")
    }
    if worst > 0 {
      lines += [
        "",
        "Worst cases (weight × keystrokes beyond the first): the last text typed before the place came first, "
          + "where it ranked there, and what came first.", "",
        "| typed | intended | rank | first instead | style |", "|---|---|---|---|---|",
      ]
      for trace in report.worst(worst) {
        let k = (trace.keystrokes(toRank: 1) ?? trace.keystrokes.count + 1) - 2
        let at = max(0, min(k, trace.keystrokes.count - 1))
        let rank = trace.ranks[at].map(String.init) ?? ">\(RelevanceEvaluation.deepestRank)"
        lines.append(
          "| `\(trace.keystrokes[at])` | \(name(trace.place)) | \(rank) | \(name(trace.firsts[at])) | \(trace.style) |")
      }
    }
    if !cases.isEmpty {
      lines += ["", casesMarkdown(cases: cases, failures: failures, corpus: corpus)]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The hand-checked cases' line and the table of those that failed.
  public static func casesMarkdown(cases: [RelevanceCase], failures: [(RelevanceCase, PlaceID?)], corpus: Corpus)
    -> String
  {
    var lines = [
      "Hand-checked cases: \(cases.count - failures.count) of \(cases.count) have an acceptable first answer."
    ]
    if !failures.isEmpty {
      lines += ["", "| line | query | expected | first instead | known failure |", "|---|---|---|---|---|"]
      for (c, first) in failures {
        let expected = c.expected.compactMap(corpus.index(of:)).map(corpus.name(at:)).joined(separator: " or ")
        let got = first.flatMap(corpus.index(of:)).map(corpus.name(at:)) ?? "nothing"
        lines.append("| \(c.line) | `\(c.query)` | \(expected) | \(got) | \(c.knownFailure ?? "no") |")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One implementation's measures on both target sets and the hand-checked cases, for
  /// ``comparisonMarkdown(_:cases:title:)``.
  public struct Row: Sendable {
    /// The implementation's name.
    public var name: String
    /// Its report on the full names.
    public var fullNames: RelevanceEvaluation.Report
    /// Its report on the short names.
    public var shortNames: RelevanceEvaluation.Report
    /// The hand-checked cases its first answer gets right.
    public var casesPassing: Int

    /// A row of the comparison.
    public init(
      name: String, fullNames: RelevanceEvaluation.Report, shortNames: RelevanceEvaluation.Report, casesPassing: Int
    ) {
      self.name = name
      self.fullNames = fullNames
      self.shortNames = shortNames
      self.casesPassing = casesPassing
    }
  }

  /// Implementations (or searches) side by side on the same targets: per target set, mean
  /// keystrokes until first · until top 3 · first after two initials · traces dropping out of
  /// first; then the hand-checked cases right, when there are cases.
  public static func comparisonMarkdown(
    _ rows: [Row], cases: Int, title: String = "The same targets through other implementations"
  ) -> String {
    func f(_ x: Double) -> String { String(format: "%.2f", x) }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    func cells(_ r: RelevanceEvaluation.Report) -> String {
      "\(f(r.meanKeystrokesToFirst)) · \(f(r.meanKeystrokesToTop3)) · \(percent(r.firstAfterTwoInitials)) · "
        + percent(r.droppingOut)
    }
    var lines = [
      "## \(title)", "",
      "Per target set: mean keystrokes until first · until top 3 · first after 2 initials · "
        + "traces whose place drops out of first. Each target is typed in a session of its own.", "",
      cases > 0
        ? "| implementation | full names | short names | cases right |" : "| search | full names | short names |",
      cases > 0 ? "|---|---|---|---|" : "|---|---|---|",
    ]
    for row in rows {
      let tail = cases > 0 ? " \(row.casesPassing) of \(cases) |" : ""
      lines.append("| \(row.name) | \(cells(row.fullNames)) | \(cells(row.shortNames)) |" + tail)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The styles of other typists (a keyboard's, `fuzzy`), each a row of `typed`, beside the
  /// full-pinyin typists of `fullNames`: the traces, the mean keystrokes until first and until
  /// top 3, and the share never first.
  public static func typedMarkdown(
    _ typed: [RelevanceEvaluation.Report], fullNames: RelevanceEvaluation.Report, fuzzy: FuzzyRules
  ) -> String {
    func f(_ x: Double) -> String { String(format: "%.2f", x) }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    let rules = fuzzy.isEmpty ? "without fuzzy rules" : "searched with the fuzzy rules \(fuzzy)"
    var lines = [
      "## Other typists", "",
      "Each target typed in a session of its own, \(rules); keystrokes are keys typed (a double-pinyin "
        + "pair is two). `fuzzy`: each syllable spelled as a typist who confuses what the rules pair spells it.",
      "",
      "| style | traces | keystrokes until first | until top 3 | never first |",
      "|---|---|---|---|---|",
    ]
    if let pinyin = fullNames.byStyle.first(where: { $0.style == InputStyle.pinyin.rawValue }) {
      lines.append(
        "| pinyin (full, for comparison) | \(pinyin.traces) | \(f(pinyin.toFirst)) | \(f(pinyin.toTop3)) | |")
    }
    for report in typed {
      for style in report.byStyle {
        lines.append(
          "| \(style.style) | \(style.traces) | \(f(style.toFirst)) | \(f(style.toTop3)) | \(percent(report.neverFirst)) |"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The address table (``RelevanceEvaluation/runAddresses()``): per style, the targets, the
  /// share first by their own name alone and by the address, and the keystrokes after the
  /// parent's name until first.
  public static func addressesMarkdown(_ rows: [RelevanceEvaluation.AddressRow]) -> String {
    var lines = [
      "## Addresses: the parent's name, then the place's (two-level queries, MatchSpec §9.2)", "",
      "Every target with a parent typed as the parent's short name and then its own (`北京朝阳`, `beijingchaoyang`, `bjcy`), searched with two-level queries; beside it, the same place typed by its own short name alone. Shares weighted by prominence, then the places counted once.",
      "",
      "| style | targets | first by its own name | first by the address | keystrokes after the parent's name until first |",
      "|---|---|---|---|---|",
    ]
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    for row in rows {
      lines.append(
        "| \(row.style) | \(row.targets) | \(percent(row.firstByName)) (\(row.placesFirstByName)) | \(percent(row.firstByAddress)) (\(row.placesFirstByAddress)) | \(String(format: "%.2f", row.keystrokesAfterHead)) |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
