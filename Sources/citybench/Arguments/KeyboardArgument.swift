import CitySearch
import CitySearchCorpus

/// `--keyboard NAME` of `search` and `try`: the double-pinyin or Zhuyin keyboard a query is
/// typed on (MatchSpec §2.10), from the embedded tables.
enum KeyboardArgument {
  /// The option, naming every embedded keyboard.
  static let options: [CommandOption] = [
    .value(
      "--keyboard", "NAME",
      "read the query as typed on a double-pinyin or Zhuyin keyboard: \(names.dropFirst().joined(separator: ", ")) (default: quanpin, full pinyin); 'bwjk' on xiaohe is bei'jing, '1o3ru/' on daqian is ㄅㄟˇㄐㄧㄥ"
    )
  ]

  /// `quanpin` and every embedded keyboard's name, in the tables' order.
  static var names: [String] { ["quanpin"] + ((try? EmbeddedCorpus.keyboards()) ?? []).map(\.name) }

  /// The keyboard `--keyboard` names; `nil` for full pinyin (`quanpin`).
  static func keyboard(_ name: String?) throws -> Keyboard? {
    guard let name, name != "quanpin" else { return nil }
    let keyboards = try EmbeddedCorpus.keyboards()
    guard let keyboard = keyboards.first(where: { $0.name == name }) else {
      throw UsageError(
        message: Suggestion.message(
          "unknown keyboard '\(name)' (\(Self.names.joined(separator: ", ")))", for: name, among: Self.names))
    }
    return keyboard
  }

}
