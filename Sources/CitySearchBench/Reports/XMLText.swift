/// Text for the reports' XML: JUnit files, SVG charts and the XHTML-compatible pages. One
/// definition for all of them.
public enum XMLText {
  /// Text as XML character data or an attribute value: the five markup characters escaped,
  /// and characters XML 1.0 cannot hold (controls other than tab, newline and carriage
  /// return) written as U+FFFD.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
