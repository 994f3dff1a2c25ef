import Foundation

/// `samples.csv`: one row per timed answer, RFC 4180 quoting.
public enum SamplesCSV {
  /// The file's header line.
  public static let header = "backend,round,keystroke,session,position,style,typo,length,text,nanoseconds"

  /// The whole `samples.csv` for the samples of `raw`, each row with its keystroke in `workload`.
  public static func text(raw: RawMeasurements, workload: Workload) -> String {
    var rows: [(session: String, position: Int, style: String, typo: Int, text: String)] = []
    rows.reserveCapacity(raw.keystrokes)
    for session in workload.sessions {
      for (position, text) in session.keystrokes.enumerated() {
        rows.append((session.label, position + 1, session.style, session.hasTypo ? 1 : 0, text))
      }
    }
    var out = header + "\n"
    for series in raw.series {
      let name = quote(series.name)
      for round in 0..<raw.rounds {
        for k in 0..<raw.keystrokes {
          guard let sample = series.samples[round * raw.keystrokes + k] else { continue }
          let row = rows[k]
          out +=
            "\(name),\(round + 1),\(k + 1),\(quote(row.session)),\(row.position),\(quote(row.style)),\(row.typo),\(row.text.count),\(quote(row.text)),\(sample)\n"
        }
      }
    }
    return out
  }

  /// A CSV field, quoted when it holds a comma, a quote or a line break.
  public static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
