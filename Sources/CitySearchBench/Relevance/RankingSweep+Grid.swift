import CitySearch
import Foundation

extension RankingSweep {
  /// One weighting measured on both target sets.
  public struct Row: Sendable {
    /// The weighting.
    public var weights: RankingWeights
    /// The report on each target set.
    public var reports: [RelevanceEvaluation.Targets: RelevanceEvaluation.Report]
    /// The hand-checked cases with an acceptable first answer.
    public var casesPassing: Int

    /// The mean of the sets' keystrokes until first: the sweep's order.
    public var meanKeystrokesToFirst: Double {
      reports.values.reduce(0) { $0 + $1.meanKeystrokesToFirst } / Double(max(reports.count, 1))
    }
  }

  /// The weightings a sweep tries: every combination of a few steps per class, each a number of
  /// doublings of prominence (0 to 16 for a class, up to 32 for the suffix), plus
  /// `RankingWeights.strict`. Combinations that penalize a later run less than a run at the
  /// start, or a run in the suffix less than a later one, are left out.
  public static var grid: [RankingWeights] {
    let spelling: [Double] = [0, 2, 4, 6, 8, 12]
    let start: [Double] = [0, 1, 2, 4, 6]
    let later: [Double] = [0, 1, 2, 4]
    let suffix: [Double] = [0, 8, 16]
    let reading: [Double] = [0, 2, 4, 8, 16]
    var weights = [RankingWeights.strict]
    for s in spelling {
      for m in start {
        for extra in later {
          for beyond in suffix {
            for r in reading {
              weights.append(
                RankingWeights(
                  spelling: s, matchStart: m, matchLater: m + extra, matchSuffix: m + extra + beyond, reading: r))
            }
          }
        }
      }
    }
    return weights
  }

  /// Every weighting of `weights` measured, in their order.
  ///
  /// - Complexity: per weighting, a binary search per class combination for every keystroke.
  public func rows(_ weights: [RankingWeights], sets: [RelevanceEvaluation.Targets]) -> [Row] {
    weights.map { weighting in
      var reports: [RelevanceEvaluation.Targets: RelevanceEvaluation.Report] = [:]
      for set in sets { reports[set] = report(weighting, targets: set) }
      return Row(weights: weighting, reports: reports, casesPassing: casesPassing(weighting))
    }
  }

  /// The best `best` rows by mean keystrokes until first, then the strict, contract and
  /// prominence-only rows where they are not among them, as Markdown.
  public static func markdown(_ rows: [Row], corpus: String, cases: Int, best: Int, seconds: Double) -> String {
    func f(_ x: Double) -> String { String(format: "%.2f", x) }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    let sets = RelevanceEvaluation.Targets.allCases.filter { set in rows.first?.reports[set] != nil }
    var lines = [
      "## Ranking sweep: \(Formatting.count(rows.count)) weightings, \(corpus) (\(Formatting.seconds(seconds)))", "",
      "Each class step is a number of doublings of prominence a better match is worth (docs/Relevance.md). "
        + "Per target set: mean keystrokes until first · until top 3 · first after 2 initials · "
        + "traces dropping out of first · drop-outs of the \(RelevanceEvaluation.prominentPlaces) most prominent places.",
      "", "| weights | " + sets.map(\.rawValue).joined(separator: " | ") + " | cases |",
      "|---|" + sets.map { _ in "---|" }.joined() + "---|",
    ]
    let ranked = rows.indices.sorted { (rows[$0].meanKeystrokesToFirst, $0) < (rows[$1].meanKeystrokesToFirst, $1) }
    let top = Array(ranked.prefix(best))
    func mark(_ weights: RankingWeights) -> String? {
      let names = [(RankingWeights.contract, "contract"), (.strict, "strict"), (.zero, "prominence only")]
      let found = names.filter { $0.0 == weights }.map(\.1)
      return found.isEmpty ? nil : found.joined(separator: ", ")
    }
    let shown = top + ranked.filter { mark(rows[$0].weights) != nil && !top.contains($0) }
    for index in shown {
      let row = rows[index]
      let cells = sets.map { set -> String in
        guard let r = row.reports[set] else { return "—" }
        return "\(f(r.meanKeystrokesToFirst)) · \(f(r.meanKeystrokesToTop3)) · \(percent(r.firstAfterTwoInitials)) · "
          + "\(percent(r.droppingOut)) · \(r.prominentDropOuts)"
      }
      let marks = mark(row.weights).map { " (\($0))" } ?? ""
      lines.append(
        "| \(row.weights)\(marks) | " + cells.joined(separator: " | ") + " | \(row.casesPassing) of \(cases) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Every row, tab-separated with a header: the weights, then per target set its measures,
  /// then the cases passing.
  public static func tsv(_ rows: [Row]) -> String {
    let sets = RelevanceEvaluation.Targets.allCases.filter { set in rows.first?.reports[set] != nil }
    let measures = ["first", "top3", "two_initials", "dropping_out", "prominent_drop_outs"]
    var lines = [
      (["spelling", "start", "later", "suffix", "reading"]
        + sets.flatMap { set in measures.map { "\(set.rawValue).\($0)" } }
        + ["cases"]).joined(separator: "\t")
    ]
    for row in rows {
      let weights = row.weights
      var fields = [weights.spelling, weights.matchStart, weights.matchLater, weights.matchSuffix, weights.reading]
        .map { String($0) }
      for set in sets {
        guard let r = row.reports[set] else { continue }
        fields += [r.meanKeystrokesToFirst, r.meanKeystrokesToTop3, r.firstAfterTwoInitials, r.droppingOut].map {
          String(format: "%.4f", $0)
        }
        fields.append(String(r.prominentDropOuts))
      }
      fields.append(String(row.casesPassing))
      lines.append(fields.joined(separator: "\t"))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
