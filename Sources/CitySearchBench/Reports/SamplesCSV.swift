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

  /// Each backend's keystrokes with the median of their timed rounds, in nanoseconds, read back
  /// from a `samples.csv`: what a comparison of two runs resamples.
  ///
  /// - Throws: ``ReadError`` naming the line of a row that is not one of this file's.
  public static func keystrokeMedians(_ text: String) throws -> [String: [Int: Double]] {
    var times: [String: [Int: [Double]]] = [:]
    for (number, row) in try rows(text).enumerated() where number > 0 {
      guard row.count == 10, let keystroke = Int(row[2]), let nanoseconds = Double(row[9]), nanoseconds >= 0
      else { throw ReadError(line: number + 1, message: "expected 10 fields with a keystroke and nanoseconds") }
      times[row[0], default: [:]][keystroke, default: []].append(nanoseconds)
    }
    return times.mapValues { keystrokes in
      keystrokes.mapValues { rounds in Quantiles.quantile(0.5, sorted: rounds.sorted()) }
    }
  }

  /// A `samples.csv` that cannot be read.
  public struct ReadError: Error, CustomStringConvertible {
    /// The 1-based line (of rows; a quoted line break does not count).
    public var line: Int
    /// What is wrong.
    public var message: String
    public var description: String { "row \(line): \(message)" }
  }

  /// The rows of an RFC 4180 text, each a list of fields, the header first.
  static func rows(_ text: String) throws -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var iterator = text.makeIterator()
    var pending: Character? = nil
    while let c = pending ?? iterator.next() {
      pending = nil
      if quoted {
        if c == "\"" {
          let next = iterator.next()
          if next == "\"" {
            field.append("\"")
          } else {
            quoted = false
            pending = next
          }
        } else {
          field.append(c)
        }
        continue
      }
      switch c {
      case "\"" where field.isEmpty: quoted = true
      case ",":
        row.append(field)
        field = ""
      case "\n", "\r\n":
        row.append(field)
        rows.append(row)
        (row, field) = ([], "")
      default: field.append(c)
      }
    }
    if quoted { throw ReadError(line: rows.count + 1, message: "a quoted field is not closed") }
    if !field.isEmpty || !row.isEmpty {
      row.append(field)
      rows.append(row)
    }
    return rows
  }

  /// A CSV field, quoted when it holds a comma, a quote or a line break.
  public static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
