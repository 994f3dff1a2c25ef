import CitySearch
import Foundation

/// A workload file that cannot be read, with the line at fault.
public struct WorkloadError: Error, CustomStringConvertible, Equatable {
  /// The file.
  public let path: String
  /// 1-based; 0 when the problem is the file as a whole.
  public let line: Int
  /// What is wrong.
  public let message: String

  public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}

extension Workload {
  /// The first line of every workload file.
  public static let magic = "# citybench workload 1"
  /// The column header line.
  public static let columns = ["session", "place", "style", "typo", "text"]

  /// The largest workload file read (`villages.workload.tsv` is about 3 MB).
  public static let maximumFileBytes = 256 << 20

  /// Reads a workload file (docs/Workloads.md).
  public init(contentsOf path: String) throws {
    let data: Data
    do {
      data = try CorpusLoader.readFile(path, limit: Self.maximumFileBytes)
    } catch let error as CorpusError {
      throw WorkloadError(path: path, line: 0, message: error.reason)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw WorkloadError(path: path, line: 0, message: "not UTF-8 text")
    }
    try self.init(parsing: text, path: path)
  }

  /// Parses the text of a workload file; `path` names it in errors.
  public init(parsing text: String, path: String = "<workload>") throws {
    let lines: [Substring]
    do {
      lines = try TextLines.split(text)
    } catch let problem as TextLines.Problem {
      throw WorkloadError(path: path, line: problem.line, message: problem.message)
    }
    guard lines.first.map(String.init) == Self.magic else {
      throw WorkloadError(path: path, line: 1, message: "the first line must be '\(Self.magic)'")
    }
    var properties: [(key: String, value: String)] = []
    var sessions: [Session] = []
    var labels = Set<String>()
    var sawHeader = false
    for (offset, raw) in lines.enumerated().dropFirst() {
      let number = offset + 1
      func fail(_ message: String) -> WorkloadError { WorkloadError(path: path, line: number, message: message) }
      if raw.hasPrefix("#") {
        let body = raw.dropFirst().drop { $0 == " " }
        if let colon = body.firstIndex(of: ":") {
          let key = body[..<colon].trimmingCharacters(in: .whitespaces)
          let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          if !key.isEmpty && !key.contains(" ") { properties.append((key, value)) }
        }
        continue
      }
      if raw.isEmpty { continue }
      let fields = raw.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if !sawHeader {
        guard fields == Self.columns else {
          throw fail("expected the column header '\(Self.columns.joined(separator: "\\t"))'")
        }
        sawHeader = true
        continue
      }
      guard fields.count == Self.columns.count else {
        throw fail("expected \(Self.columns.count) tab-separated fields, found \(fields.count)")
      }
      let (label, place, style, typo, keystroke) = (fields[0], fields[1], fields[2], fields[3], fields[4])
      guard !label.isEmpty else { throw fail("empty session label") }
      guard !style.isEmpty else { throw fail("empty style") }
      guard typo == "0" || typo == "1" else { throw fail("typo must be 0 or 1, found \(CorpusError.quoted(typo))") }
      if let last = sessions.last, last.label == label {
        guard last.place == place, last.style == style, last.hasTypo == (typo == "1") else {
          throw fail("session \(CorpusError.quoted(label)) changes its place, style or typo column")
        }
        sessions[sessions.count - 1].keystrokes.append(keystroke)
      } else {
        guard labels.insert(label).inserted else {
          throw fail(
            "session \(CorpusError.quoted(label)) appears again after other sessions; a session's lines must be consecutive"
          )
        }
        sessions.append(
          Session(label: label, place: place, style: style, hasTypo: typo == "1", keystrokes: [keystroke]))
      }
    }
    guard sawHeader else { throw WorkloadError(path: path, line: 0, message: "no column header line") }
    guard !sessions.isEmpty else { throw WorkloadError(path: path, line: 0, message: "no sessions") }
    self.init(properties: properties, sessions: sessions)
  }

  /// The file text: the magic line, the properties as comments, the column header, then one
  /// line per keystroke.
  public var fileText: String {
    var out = Self.magic + "\n"
    for (key, value) in properties { out += "# \(key): \(value)\n" }
    out += Self.columns.joined(separator: "\t") + "\n"
    for session in sessions {
      let prefix = "\(session.label)\t\(session.place)\t\(session.style)\t\(session.hasTypo ? 1 : 0)\t"
      for text in session.keystrokes { out += prefix + text + "\n" }
    }
    return out
  }
}
