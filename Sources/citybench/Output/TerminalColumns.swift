extension String {
  /// The columns a terminal gives the text: two for an East Asian wide or fullwidth character
  /// (Hanzi, kana, Hangul, fullwidth forms), none for a combining mark, one otherwise.
  var terminalColumns: Int {
    unicodeScalars.reduce(0) { $0 + Self.columns($1) }
  }

  private static func columns(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// The text followed by spaces up to `width` terminal columns.
  func padded(toColumns width: Int) -> String { self + String(repeating: " ", count: max(0, width - terminalColumns)) }

  /// The text after spaces up to `width` terminal columns.
  func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - terminalColumns)) + self }
}

/// A table for the terminal: the first column left-aligned, the others right-aligned, each as
/// wide as its widest cell in terminal columns; one line per row, the header first.
func terminalTable(_ rows: [[String]]) -> String {
  guard let first = rows.first else { return "" }
  let widths = first.indices.map { c in rows.map { $0[c].terminalColumns }.max() ?? 0 }
  return rows.map { row in
    row.enumerated().map { c, cell in c == 0 ? cell.padded(toColumns: widths[c]) : cell.leftPadded(widths[c]) }
      .joined(separator: "  ")
  }.joined(separator: "\n")
}
