import CitySearch
import CitySearchCatalog
import CitySearchCorpus
import Foundation

/// `--corpus cities|towns|villages|PATH` and `--corpus-dir DIR`, shared by the commands.
struct CorpusOptions {
  /// The options, declared once for every command that loads a corpus.
  static let options: [CommandOption] = [
    .value(
      "--corpus", "cities|towns|villages|PATH",
      "the tier to load (default: cities, compiled into the binary), or a corpus file of your own: TSV in the shipped format, a JSON array, or a city-picker .plist"
    ),
    .value(
      "--corpus-dir", "DIR",
      "where the tiers live (default: $CITYBENCH_CORPUS_DIR, else the package's Corpus/ found from the executable or working directory); when given, cities is read from it too"
    ),
  ]
  static var valued: Set<String> { options.valued }

  let corpus: String
  /// `--corpus-dir`, else `$CITYBENCH_CORPUS_DIR`.
  let explicitDirectory: String?

  init(_ arguments: ParsedArguments) {
    self.init(corpus: arguments["--corpus"] ?? CorpusTier.cities.rawValue, directory: arguments["--corpus-dir"])
  }

  /// `corpus` (a tier or a path) from `directory`, else `$CITYBENCH_CORPUS_DIR`.
  init(corpus: String = CorpusTier.cities.rawValue, directory: String?) {
    self.corpus = corpus
    let environment = ProcessInfo.processInfo.environment[CorpusDirectory.environmentVariable]
    explicitDirectory = directory ?? (environment?.isEmpty == false ? environment : nil)
  }

  /// The tier's name, or the corpus file's name, for reports.
  var name: String { CorpusTier(rawValue: corpus)?.rawValue ?? URL(fileURLWithPath: corpus).lastPathComponent }

  /// The package checkout the binary belongs to (the one holding the corpus directory), for
  /// the git commit.
  var packageDirectory: String? {
    packageFile("Package.swift").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
  }

  /// A file of the package that holds the corpus directory (`Conformance/…`), if it exists.
  func packageFile(_ relativePath: String) -> String? {
    guard let dir = CorpusDirectory.locate(explicit: explicitDirectory) else { return nil }
    let path = URL(fileURLWithPath: dir.path).deletingLastPathComponent().appendingPathComponent(relativePath).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// Loads the selected corpus: `cities` from the binary unless a directory was named, the
  /// other tiers from the corpus directory, a user's file with the embedded tables. A user's
  /// file gets missing pinyin from the reviewed cities tier, then the towns tier (when the
  /// directory is found), then ICU, and its places the facts of the cities they are named like
  /// (``Corpus/joiningFacts(from:)``).
  ///
  /// Without `facts`, places get no prominence and no aliases (the ranking of contract 1.x, for
  /// `citybench relevance --without-facts`).
  func load(facts: Bool = true) throws -> Corpus { try loadJoining(facts: facts).corpus }

  /// ``load(facts:)``, and for a file of the user's how its places were joined to the tiers'
  /// facts (`nil` for a tier, which has its own).
  func loadJoining(facts: Bool = true) throws -> (corpus: Corpus, join: String?) {
    if let tier = CorpusTier(rawValue: corpus) {
      if !facts {
        let tables =
          try explicitDirectory == nil && tier == .cities ? EmbeddedCorpus.tables() : directory().loadTables()
        let plain = ReadingTables(polyphones: tables.polyphones, simplified: tables.simplified)
        if tier == .cities && explicitDirectory == nil { return (try EmbeddedCorpus.cities(tables: plain), nil) }
        return (try CorpusLoader.load(path: directory().file(tier.fileName), tables: plain), nil)
      }
      if tier == .cities && explicitDirectory == nil { return (try EmbeddedCorpus.cities(), nil) }
      return (try directory().load(tier), nil)
    }
    guard FileManager.default.fileExists(atPath: corpus) else {
      let list = corpus.contains(",") ? "; only bench takes a comma-separated list" : ""
      throw CommandError(message: "no corpus tier or file named '\(corpus)' (tiers: cities, towns, villages)\(list)")
    }
    let tables = try explicitDirectory.map { try CorpusDirectory(path: $0).loadTables() } ?? EmbeddedCorpus.tables()
    // The cities tier holds every place with facts and most names a picker lists; the towns
    // tier and ICU are loaded only for a name it cannot read.
    let located = CorpusDirectory.locate(explicit: explicitDirectory)
    let reviewed =
      try explicitDirectory.map { try CorpusDirectory(path: $0).load(.cities) }
      ?? EmbeddedCorpus.cities(tables: tables)
    var sources: [any PinyinSource] = [KnownNamesPinyin(corpus: reviewed)]
    if let located, FileManager.default.fileExists(atPath: located.file(CorpusTier.towns.fileName)) {
      sources.append(LazyPinyinSource { KnownNamesPinyin(corpus: try located.load(.towns)) })
    }
    sources.append(LazyPinyinSource { try BackendCatalog.fallbackPinyinSource() })
    let pinyin = ChainedPinyinSource(sources)
    let loaded = try CorpusLoader.load(path: corpus, tables: tables, pinyinSource: pinyin)
    // The places named like the tiers' take their prominence and aliases (without facts: none).
    guard facts else { return (loaded, nil) }
    let (joined, join) = loaded.joiningFacts(from: reviewed)
    return (joined, join.summary(imported: joined, known: reviewed))
  }

  /// The corpus as a file an executor in another process loads: the tier's TSV in the corpus
  /// directory, or the user's file, with its format (`tsv`, `json`, `plist`).
  func file() throws -> (path: String, format: String) {
    let path = try CorpusTier(rawValue: corpus).map { try directory().file($0.fileName) } ?? corpus
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandError(message: "no corpus file at \(path) for an executor to load")
    }
    let suffix = URL(fileURLWithPath: path).pathExtension.lowercased()
    return (path, ["json", "plist"].contains(suffix) ? suffix : "tsv")
  }

  /// The options that load the corpus file at `path` as ``load(facts:)`` loads it: a tier's
  /// TSV in a corpus directory as that tier (with its facts), any other file as a user's.
  static func loading(path: String) -> CorpusOptions {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    if let tier = CorpusTier.allCases.first(where: { $0.fileName == url.lastPathComponent }),
      FileManager.default.fileExists(atPath: CorpusDirectory(path: directory).file(ReadingTables.polyphonesFile))
    {
      return CorpusOptions(corpus: tier.rawValue, directory: directory)
    }
    return CorpusOptions(corpus: path, directory: nil)
  }

  private func directory() throws -> CorpusDirectory {
    guard let dir = CorpusDirectory.locate(explicit: explicitDirectory) else {
      throw CommandError(
        message:
          "cannot find the Corpus/ directory for the '\(corpus)' tier; pass --corpus-dir DIR or set \(CorpusDirectory.environmentVariable)"
      )
    }
    return dir
  }
}

/// A failure to report on stderr with exit status 1.
struct CommandError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
