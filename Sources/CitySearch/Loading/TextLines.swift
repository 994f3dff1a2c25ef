/// The lines of a text file, the one way every reader of the project's text formats splits
/// them: LF or CRLF line ends (a file may mix them), a line ending in CR alone refused by name,
/// and a bounded line length.
///
///     let lines = try TextLines.split("a\tb\r\nc\n")   // ["a\tb", "c"]
///
/// Swift's `String.split(separator: "\n")` would not do: it splits by `Character`, and CRLF is
/// one `Character`, so a CRLF file would read as one line.
public enum TextLines {
  /// Why a text could not be split, with the 1-based line at fault.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line at fault.
    public let line: Int
    /// What is wrong with it.
    public let message: String

    /// The problem `message` at `line`.
    public init(line: Int, message: String) {
      self.line = line
      self.message = message
    }

    public var description: String { "line \(line): \(message)" }
  }

  /// The longest line (in bytes, without its line end) any text format of the project accepts:
  /// far above any real line (a corpus line is under 300 bytes), and low enough that a message
  /// about a line stays short.
  public static let maximumLineBytes = 65_536

  /// What a line that ends in a CR alone is told.
  public static let crAloneMessage = "the line ends in a CR alone (classic Mac OS line ends); use LF or CRLF line ends"

  /// Splits `text` into lines without their line ends. A final line end adds no empty line.
  ///
  /// - Throws: ``Problem`` for a CR that ends a line alone, or a line longer than `maximumBytes`.
  /// - Complexity: O(n) in the text's UTF-8 length.
  public static func split(_ text: String, maximumBytes: Int = maximumLineBytes) throws -> [Substring] {
    var lines: [Substring] = []
    let utf8 = text.utf8
    var start = utf8.startIndex
    var index = start
    var number = 1
    func check(_ end: String.Index) throws {
      let length = utf8.distance(from: start, to: end)
      guard length <= maximumBytes else {
        throw Problem(
          line: number, message: "the line is over \(maximumBytes) bytes long, the limit")
      }
    }
    while index != utf8.endIndex {
      let byte = utf8[index]
      if byte == 0x0A || byte == 0x0D {
        let next = utf8.index(after: index)
        if byte == 0x0D && (next == utf8.endIndex || utf8[next] != 0x0A) {
          throw Problem(line: number, message: crAloneMessage)
        }
        try check(index)
        lines.append(text[start..<index])
        start = byte == 0x0D ? utf8.index(after: next) : next
        index = start
        number += 1
        continue
      }
      index = utf8.index(after: index)
      // A line far over the limit is refused without scanning the rest of it.
      if utf8.distance(from: start, to: index) > maximumBytes { try check(index) }
    }
    if start != utf8.endIndex { lines.append(text[start..<utf8.endIndex]) }
    return lines
  }
}

extension TextLines {
  /// ``split(_:maximumBytes:)`` for a file of a corpus's format, its problem as a ``CorpusError``.
  public static func lines(of text: String, file: String) throws -> [Substring] {
    do {
      return try split(text)
    } catch let problem as Problem {
      throw CorpusError.badText(RecordLocation(file: file, line: problem.line), reason: problem.message)
    }
  }
}
