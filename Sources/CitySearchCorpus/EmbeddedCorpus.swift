import CCitySearchCorpusData
import CitySearch
import Foundation

/// The default `cities` tier and the character tables, compiled into the binary: an app (or
/// `citybench`) gets a working corpus with no files beside it.
///
/// The bytes are those of `Corpus/cities.tsv`, `Corpus/polyphones.tsv`, `Corpus/traditional.tsv`,
/// `Corpus/prominence.tsv` and `Corpus/aliases.tsv` at build time, compiled into the binary by the
/// `CCitySearchCorpusData` target (C arrays filled with `#embed`).
///
/// ```swift
/// let corpus = try EmbeddedCorpus.cities()
/// let backend = LinearScanBackend(corpus: corpus)
/// ```
public enum EmbeddedCorpus {
  /// The name embedded corpora report as their source.
  public static let sourceName = "cities (embedded)"

  /// The polyphone and Traditional → Simplified tables and the place facts.
  public static func tables() throws -> ReadingTables {
    try ReadingTables(
      polyphones: bytes(citysearch_polyphones_tsv), polyphonesName: "polyphones.tsv (embedded)",
      traditional: bytes(citysearch_traditional_tsv), traditionalName: "traditional.tsv (embedded)",
      prominence: (bytes(citysearch_prominence_tsv), "prominence.tsv (embedded)"),
      aliases: (bytes(citysearch_aliases_tsv), "aliases.tsv (embedded)"))
  }

  /// The `cities` tier: provinces, prefectures and county-level units.
  public static func cities(tables: ReadingTables? = nil) throws -> Corpus {
    try CorpusLoader.load(
      data: bytes(citysearch_cities_tsv), name: sourceName, format: .tsv, tables: tables ?? self.tables())
  }

  /// The keyboards of MatchSpec §2.10: the double-pinyin layouts (`Corpus/double-pinyin.tsv`:
  /// Xiaohe, Ziranma, Microsoft, Zhineng ABC, Pinyin++, Sogou, Ziguang and Guobiao), then the
  /// Zhuyin layout (`Corpus/zhuyin-keyboards.tsv`: Daqian).
  public static func keyboards() throws -> [Keyboard] {
    try Keyboard.layouts(bytes(citysearch_double_pinyin_tsv), name: "double-pinyin.tsv (embedded)")
      + Keyboard.zhuyinLayouts(bytes(citysearch_zhuyin_keyboards_tsv), name: "zhuyin-keyboards.tsv (embedded)")
  }

  /// The keyboard named `name`, or `nil` when there is none.
  public static func keyboard(named name: String) throws -> Keyboard? {
    try keyboards().first { $0.name == name }
  }

  /// The embedded bytes an accessor of `CCitySearchCorpusData` returns, as `Data` that refers to
  /// them without copying (they live as long as the program).
  private static func bytes(_ accessor: (UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>?) -> Data {
    var count = 0
    guard let start = accessor(&count) else { return Data() }
    return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: count, deallocator: .none)
  }
}
