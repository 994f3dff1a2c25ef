import Foundation

/// The three shipped tiers; each contains the one before.
public enum CorpusTier: String, Sendable, CaseIterable {
  /// Provinces, prefectures and county-level units (about 3,200 places): the default.
  case cities
  /// Plus townships and sub-districts (about 42,000).
  case towns
  /// Plus villages and communities (about 640,000).
  case villages

  /// The tier's file name inside the corpus directory.
  public var fileName: String { "\(rawValue).tsv" }

  /// The next larger tier, which holds every place of this one and the level below.
  public var next: CorpusTier? {
    switch self {
    case .cities: .towns
    case .towns: .villages
    case .villages: nil
    }
  }
}

/// The file formats a corpus can come in (Corpus/README.md).
public enum CorpusFormat: String, Sendable, CaseIterable {
  /// Tab-separated values with a header line, as the shipped tiers are.
  case tsv
  /// A JSON array of place objects.
  case json
  /// A city picker's property list: sections of cities with their districts.
  case propertyList

  /// The format a file name's extension implies, if any.
  public init?(fileName: String) {
    switch (fileName as NSString).pathExtension.lowercased() {
    case "tsv", "txt": self = .tsv
    case "json": self = .json
    case "plist", "xml": self = .propertyList
    default: return nil
    }
  }

  /// The format the first significant byte implies: `[` JSON, `<` or `b` (binary) property
  /// list, anything else TSV.
  init?(sniffing data: Data) {
    let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
    switch first {
    case nil: return nil
    case UInt8(ascii: "["): self = .json
    case UInt8(ascii: "<"), UInt8(ascii: "b"): self = .propertyList
    default: self = .tsv
    }
  }
}

/// Loads corpora from files: the shipped TSV tiers, or a user's TSV, JSON or property list.
///
/// Limits (each violation is an error that names it): a file of at most
/// ``maximumFileBytes``; lines of at most ``TextLines/maximumLineBytes``; names of at most
/// ``CorpusBuilder/maximumNameLength`` units; JSON and property lists nested at most
/// ``maximumNesting`` deep; ids and levels of at most 18 digits.
public enum CorpusLoader {
  /// The largest corpus file read: 1 GiB (`villages.tsv` is about 35 MB).
  public static let maximumFileBytes = 1 << 30
  /// The deepest nesting of arrays and objects in a JSON or property-list corpus (a place
  /// with districts in sections is 5 deep).
  public static let maximumNesting = 32

  /// The bytes of a regular file, refusing directories, FIFOs, devices and files over `limit`
  /// by name before reading them.
  public static func readFile(_ path: String, limit: Int) throws -> Data {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
      throw CorpusError.unreadable(file: path, reason: reason)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw CorpusError.unreadable(file: path, reason: "it is a directory")
    case S_IFIFO: throw CorpusError.unreadable(file: path, reason: "it is a FIFO (named pipe), not a regular file")
    case S_IFSOCK: throw CorpusError.unreadable(file: path, reason: "it is a socket, not a regular file")
    default: throw CorpusError.unreadable(file: path, reason: "it is a device, not a regular file")
    }
    if Int(info.st_size) > limit { throw CorpusError.tooLarge(file: path, bytes: Int(info.st_size), limit: limit) }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw CorpusError.unreadable(file: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Loads the file at `path`, choosing the format by extension (`.tsv`, `.json`, `.plist`)
  /// or, failing that, by its first byte.
  ///
  /// - Throws: ``CorpusError`` naming the file, the line and the problem.
  public static func load(
    path: String, tables: ReadingTables, pinyinSource: (any PinyinSource)? = nil
  ) throws -> Corpus {
    let data = try readFile(path, limit: maximumFileBytes)
    return try load(data: data, name: path, tables: tables, pinyinSource: pinyinSource)
  }

  /// Loads a corpus from bytes already in memory; `name` is used in errors and as its source.
  /// Without `format`, the name's extension decides, else the first byte.
  public static func load(
    data: Data, name: String, format: CorpusFormat? = nil, tables: ReadingTables,
    pinyinSource: (any PinyinSource)? = nil
  ) throws -> Corpus {
    guard let format = format ?? CorpusFormat(fileName: name) ?? CorpusFormat(sniffing: data) else {
      throw CorpusError.empty(file: name)
    }
    var builder = CorpusBuilder(source: name, tables: tables, pinyinSource: pinyinSource)
    switch format {
    case .tsv: try TSVCorpusLoader.load([UInt8](data), file: name, into: &builder)
    case .json: try JSONCorpusLoader.load(data, file: name, into: &builder)
    case .propertyList: try PropertyListCorpusLoader.load(data, file: name, into: &builder)
    }
    return try builder.build()
  }
}

/// The directory that holds the shipped tiers and character tables (`Corpus/`).
public struct CorpusDirectory: Sendable {
  /// The directory's path.
  public let path: String

  /// The environment variable that points at a corpus directory.
  public static let environmentVariable = "CITYBENCH_CORPUS_DIR"

  /// The corpus directory at `path` (not checked until a file is read).
  public init(path: String) { self.path = path }

  /// Finds the corpus directory: `explicit` if given, then `$CITYBENCH_CORPUS_DIR`, then a
  /// `Corpus/` folder beside or above the running executable (so that both `swift run` and
  /// `.build/release/citybench` find the package's own), then above the working directory.
  public static func locate(explicit: String? = nil) -> CorpusDirectory? {
    if let explicit { return CorpusDirectory(path: explicit) }
    if let env = ProcessInfo.processInfo.environment[environmentVariable], !env.isEmpty {
      return CorpusDirectory(path: env)
    }
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    let starts = [
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
      executable.deletingLastPathComponent(),
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    ]
    for start in starts {
      var dir = start
      for _ in 0..<8 {
        let candidate = dir.appendingPathComponent("Corpus")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(CorpusTier.cities.fileName).path) {
          return CorpusDirectory(path: candidate.path)
        }
        let parent = dir.deletingLastPathComponent()
        if parent.path == dir.path { break }
        dir = parent
      }
    }
    return nil
  }

  /// The path of the file `name` in the directory.
  public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

  /// Loads `polyphones.tsv` and `traditional.tsv`, and `prominence.tsv` and `aliases.tsv` where
  /// the directory has them.
  public func loadTables() throws -> ReadingTables {
    func read(_ name: String) throws -> Data {
      try CorpusLoader.readFile(file(name), limit: CorpusLoader.maximumFileBytes)
    }
    func optional(_ name: String) throws -> (data: Data, name: String)? {
      FileManager.default.fileExists(atPath: file(name)) ? (try read(name), file(name)) : nil
    }
    return try ReadingTables(
      polyphones: read(ReadingTables.polyphonesFile), polyphonesName: file(ReadingTables.polyphonesFile),
      traditional: read(ReadingTables.traditionalFile), traditionalName: file(ReadingTables.traditionalFile),
      prominence: optional(ReadingTables.prominenceFile), aliases: optional(ReadingTables.aliasesFile))
  }

  /// Loads a shipped tier with the directory's tables.
  public func load(_ tier: CorpusTier, pinyinSource: (any PinyinSource)? = nil) throws -> Corpus {
    try CorpusLoader.load(path: file(tier.fileName), tables: loadTables(), pinyinSource: pinyinSource)
  }
}
