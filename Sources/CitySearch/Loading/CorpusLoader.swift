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
}

/// Loads corpora from files: the shipped TSV tiers, or a user's TSV, JSON or property list.
public enum CorpusLoader {
  /// Loads the file at `path`, choosing the format by extension (`.tsv`, `.json`, `.plist`)
  /// or, failing that, by its first byte.
  ///
  /// - Throws: ``CorpusError`` naming the file, the line and the problem.
  public static func load(
    path: String, tables: ReadingTables, pinyinSource: (any PinyinSource)? = nil
  ) throws -> Corpus {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CorpusError.unreadable(file: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else { throw CorpusError.unreadable(file: path, reason: "it is a directory") }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw CorpusError.unreadable(file: path, reason: (error as NSError).localizedDescription)
    }
    return try load(data: data, name: path, tables: tables, pinyinSource: pinyinSource)
  }

  /// Loads a corpus from bytes already in memory; `name` is used in errors and as its source.
  public static func load(
    data: Data, name: String, tables: ReadingTables, pinyinSource: (any PinyinSource)? = nil
  ) throws -> Corpus {
    var builder = CorpusBuilder(source: name, tables: tables, pinyinSource: pinyinSource)
    let ext = (name as NSString).pathExtension.lowercased()
    let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
    switch ext {
    case "json": try JSONCorpusLoader.load(data, file: name, into: &builder)
    case "plist", "xml": try PropertyListCorpusLoader.load(data, file: name, into: &builder)
    case "tsv", "txt": try TSVCorpusLoader.load([UInt8](data), file: name, into: &builder)
    default:
      switch first {
      case UInt8(ascii: "["): try JSONCorpusLoader.load(data, file: name, into: &builder)
      case UInt8(ascii: "<"), UInt8(ascii: "b"): try PropertyListCorpusLoader.load(data, file: name, into: &builder)
      case nil: throw CorpusError.empty(file: name)
      default: try TSVCorpusLoader.load([UInt8](data), file: name, into: &builder)
      }
    }
    return try builder.build()
  }
}

/// The directory that holds the shipped tiers and character tables (`Corpus/`).
public struct CorpusDirectory: Sendable {
  public let path: String

  /// The environment variable that points at a corpus directory.
  public static let environmentVariable = "CITYBENCH_CORPUS_DIR"

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

  public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

  /// Loads `polyphones.tsv` and `traditional.tsv`.
  public func loadTables() throws -> ReadingTables {
    var polyphones: [Unicode.Scalar: [String]] = [:]
    try Self.rows(file("polyphones.tsv"), header: "character\treadings\texample") { fields, at in
      let scalars = Array(fields[0].unicodeScalars)
      let readings = fields[1].split(separator: " ").map(String.init)
      guard scalars.count == 1, Hanzi.isHanzi(scalars[0].value) else {
        throw CorpusError.badValue(at, column: "character", value: fields[0], reason: "expected one Hanzi")
      }
      guard readings.count >= 2, readings.allSatisfy({ Syllabary.isSyllable($0[...]) }) else {
        throw CorpusError.badValue(at, column: "readings", value: fields[1], reason: "expected two or more syllables")
      }
      polyphones[scalars[0]] = readings
    }
    var simplified: [UInt32: UInt32] = [:]
    try Self.rows(file("traditional.tsv"), header: "traditional\tsimplified") { fields, at in
      let t = Array(fields[0].unicodeScalars)
      let s = Array(fields[1].unicodeScalars)
      guard t.count == 1, s.count == 1 else {
        throw CorpusError.badValue(
          at, column: "traditional", value: fields.joined(separator: " "), reason: "expected one character each")
      }
      simplified[t[0].value] = s[0].value
    }
    return ReadingTables(polyphones: polyphones, simplified: simplified)
  }

  /// Loads a shipped tier with the directory's tables.
  public func load(_ tier: CorpusTier, pinyinSource: (any PinyinSource)? = nil) throws -> Corpus {
    try CorpusLoader.load(path: file(tier.fileName), tables: loadTables(), pinyinSource: pinyinSource)
  }

  private static func rows(
    _ path: String, header: String, _ body: ([String], RecordLocation) throws -> Void
  ) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CorpusError.unreadable(file: path, reason: "no such file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CorpusError.invalidUTF8(RecordLocation(file: path, line: 0))
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first.map(String.init) == header else {
      throw CorpusError.badHeader(file: path, expected: header, found: lines.first.map(String.init) ?? "")
    }
    let width = header.split(separator: "\t").count
    for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let at = RecordLocation(file: path, line: offset + 1)
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= width - 1 else { throw CorpusError.missingColumn(at, column: "column \(fields.count + 1)") }
      try body(fields, at)
    }
  }
}
