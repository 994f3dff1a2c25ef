import CitySearch
import CitySearchCorpus

/// `--keyboard NAME` of `search` and `try`: the double-pinyin keyboard a query is typed on
/// (MatchSpec §2.10), from the embedded table.
enum KeyboardArgument {
  /// The option.
  static let options: [CommandOption] = [
    .value(
      "--keyboard", "NAME",
      "read the query as typed on a double-pinyin keyboard: xiaohe, ziranma, microsoft, zhineng-abc, pinyinpp (default: quanpin, full pinyin); 'bwjk' on xiaohe is bei'jing"
    )
  ]

  /// The double-pinyin keyboard `--keyboard` names; `nil` for full pinyin (`quanpin`).
  static func keyboard(_ name: String?) throws -> Keyboard? {
    guard let name, name != "quanpin" else { return nil }
    let keyboards = try EmbeddedCorpus.keyboards()
    guard let keyboard = keyboards.first(where: { $0.name == name }) else {
      let names = ["quanpin"] + keyboards.map(\.name)
      throw UsageError(
        message: Suggestion.message(
          "unknown keyboard '\(name)' (\(names.joined(separator: ", ")))", for: name, among: names))
    }
    return keyboard
  }

}
