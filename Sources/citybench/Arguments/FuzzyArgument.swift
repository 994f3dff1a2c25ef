import CitySearch

/// `--fuzzy RULES` of `search`, `conform` and `try`: the fuzzy pinyin rules a query is read with
/// (MatchSpec §3.5).
enum FuzzyArgument {
  /// The option.
  static let options: [CommandOption] = [
    .value(
      "--fuzzy", "RULES",
      "read Latin pieces with fuzzy pinyin rules: all, or any of zh-z,ch-c,sh-s,an-ang,en-eng,in-ing,ian-iang,uan-uang,n-l,r-l,f-h,u-v (default: none); 'lanzou' with zh-z is 兰州"
    )
  ]

  /// The rules `--fuzzy` names; none when it is not given.
  static func rules(_ args: ParsedArguments) throws -> FuzzyRules {
    guard let text = args["--fuzzy"] else { return [] }
    return try parse(text, option: "--fuzzy")
  }

  /// `text` read as fuzzy rules, a usage error naming `option` when it is not.
  static func parse(_ text: String, option: String) throws -> FuzzyRules {
    do {
      return try FuzzyRules(parsing: text)
    } catch {
      throw UsageError(message: "\(option): \(error)")
    }
  }
}
