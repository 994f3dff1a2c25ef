import CitySearch
import CitySearchICU
import Foundation

/// `--corpus cities|towns|villages|PATH` and `--corpus-dir DIR`, shared by the commands.
struct CorpusOptions {
  static let valued: Set<String> = ["--corpus", "--corpus-dir"]
  static let help = """
      --corpus cities|towns|villages|PATH
                            the tier to load (default: cities), or a corpus file of your own:
                            TSV in the shipped format, a JSON array, or a city-picker .plist
      --corpus-dir DIR      where the shipped tiers live (default: $CITYBENCH_CORPUS_DIR, else
                            the package's Corpus/ found from the executable or working directory)
    """

  let corpus: String
  let directory: String?

  init(_ arguments: ParsedArguments) {
    corpus = arguments["--corpus"] ?? CorpusTier.cities.rawValue
    directory = arguments["--corpus-dir"]
  }

  /// Loads the selected corpus. A user's file gets its missing pinyin from the reviewed
  /// towns tier first, then from ICU.
  func load() throws -> Corpus {
    guard let dir = CorpusDirectory.locate(explicit: directory) else {
      throw CommandError(
        message:
          "cannot find the Corpus/ directory; pass --corpus-dir DIR or set \(CorpusDirectory.environmentVariable)")
    }
    if let tier = CorpusTier(rawValue: corpus) {
      return try dir.load(tier)
    }
    guard FileManager.default.fileExists(atPath: corpus) else {
      throw CommandError(message: "no corpus tier or file named '\(corpus)' (tiers: cities, towns, villages)")
    }
    let tables = try dir.loadTables()
    var sources: [any PinyinSource] = []
    if FileManager.default.fileExists(atPath: dir.file(CorpusTier.towns.fileName)) {
      sources.append(KnownNamesPinyin(corpus: try dir.load(.towns)))
    }
    sources.append(try ICUPinyinSource())
    return try CorpusLoader.load(path: corpus, tables: tables, pinyinSource: ChainedPinyinSource(sources))
  }
}

/// A failure to report on stderr with exit status 1.
struct CommandError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
