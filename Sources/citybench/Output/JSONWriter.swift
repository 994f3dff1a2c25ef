/// A minimal JSON writer that keeps keys in the order written: the `--format json` output is
/// a stable interface, so its key order is part of the contract.
struct JSONWriter {
  private(set) var text = ""

  mutating func object(_ body: (inout JSONObject) -> Void) {
    var object = JSONObject()
    body(&object)
    text += object.finish()
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out +=
            "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

struct JSONObject {
  private var parts: [String] = []

  mutating func raw(_ key: String, _ json: String) { parts.append("\(JSONWriter.quote(key)):\(json)") }
  mutating func string(_ key: String, _ value: String) { raw(key, JSONWriter.quote(value)) }
  mutating func int(_ key: String, _ value: some BinaryInteger) { raw(key, String(value)) }
  mutating func array(_ key: String, _ elements: [String]) { raw(key, "[" + elements.joined(separator: ",") + "]") }
  mutating func object(_ key: String, _ body: (inout JSONObject) -> Void) {
    var inner = JSONObject()
    body(&inner)
    raw(key, inner.finish())
  }

  func finish() -> String { "{" + parts.joined(separator: ",") + "}" }

  static func make(_ body: (inout JSONObject) -> Void) -> String {
    var o = JSONObject()
    body(&o)
    return o.finish()
  }
}
