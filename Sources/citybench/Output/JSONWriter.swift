/// A minimal JSON object writer that keeps keys in the order written: the `--format json`
/// output is a stable interface, so its key order is part of the contract.
///
/// ```swift
/// JSONObject.make { o in o.string("query", "bj"); o.int("total", 9) }  // {"query":"bj","total":9}
/// ```
struct JSONObject {
  private var parts: [String] = []

  static func make(_ body: (inout JSONObject) -> Void) -> String {
    var object = JSONObject()
    body(&object)
    return "{" + object.parts.joined(separator: ",") + "}"
  }

  /// Adds `json`, already encoded, under `key`.
  mutating func raw(_ key: String, _ json: String) { parts.append("\(Self.quote(key)):\(json)") }
  mutating func string(_ key: String, _ value: String) { raw(key, Self.quote(value)) }
  mutating func int(_ key: String, _ value: some BinaryInteger) { raw(key, String(value)) }
  /// Adds an array of already-encoded elements.
  mutating func array(_ key: String, _ elements: [String]) { raw(key, "[" + elements.joined(separator: ",") + "]") }

  /// `s` as a JSON string literal; non-ASCII characters are written as they are (UTF-8).
  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
