import Foundation

/// Checks a JSON value against the subset of JSON Schema that `docs/results.schema.json`
/// uses: `type`, `required`, `properties`, `additionalProperties`, `items`, `enum`,
/// `minimum` and local `$ref`s (the results have no booleans, so numbers are never read as
/// such). Returns every violation, each with its JSON path.
struct JSONSchemaValidator {
  let root: [String: Any]

  init(schemaAt url: URL) throws {
    root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  func validate(_ data: Data) throws -> [String] {
    let value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    var problems: [String] = []
    check(value, against: root, at: "$", problems: &problems)
    return problems
  }

  private func resolve(_ schema: [String: Any]) -> [String: Any] {
    guard let ref = schema["$ref"] as? String, ref.hasPrefix("#/") else { return schema }
    var node: Any = root
    for part in ref.dropFirst(2).split(separator: "/") { node = (node as! [String: Any])[String(part)]! }
    return node as! [String: Any]
  }

  private func typeName(_ value: Any) -> String {
    if value is NSNull { return "null" }
    if let n = value as? NSNumber {
      return n.doubleValue.rounded() == n.doubleValue && !"\(n)".contains(".") ? "integer" : "number"
    }
    if value is String { return "string" }
    if value is [Any] { return "array" }
    if value is [String: Any] { return "object" }
    return "unknown"
  }

  private func check(_ value: Any, against raw: [String: Any], at path: String, problems: inout [String]) {
    let schema = resolve(raw)
    if let type = schema["type"] as? String {
      let actual = typeName(value)
      let ok = actual == type || (type == "number" && actual == "integer")
      if !ok {
        problems.append("\(path): expected \(type), found \(actual)")
        return
      }
    }
    if let choices = schema["enum"] as? [Any] {
      let matches = choices.contains { ($0 as? NSObject)?.isEqual(value) ?? false }
      if !matches { problems.append("\(path): \(value) is not one of \(choices)") }
    }
    if let minimum = schema["minimum"] as? Double, let n = value as? NSNumber, n.doubleValue < minimum {
      problems.append("\(path): \(n) is below \(minimum)")
    }
    if let object = value as? [String: Any] {
      for key in schema["required"] as? [String] ?? [] where object[key] == nil {
        problems.append("\(path): missing required '\(key)'")
      }
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for (key, member) in object {
        if let property = properties[key] as? [String: Any] {
          check(member, against: property, at: "\(path).\(key)", problems: &problems)
        } else if let additional = schema["additionalProperties"] {
          if let allowed = additional as? Bool, !allowed {
            problems.append("\(path): unexpected '\(key)'")
          } else if let sub = additional as? [String: Any] {
            check(member, against: sub, at: "\(path).\(key)", problems: &problems)
          }
        }
      }
    }
    if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
      for (i, element) in array.enumerated() {
        check(element, against: items, at: "\(path)[\(i)]", problems: &problems)
      }
    }
  }
}
