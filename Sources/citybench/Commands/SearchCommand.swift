import CitySearch
import CitySearchCatalog
import CitySearchCorpus
import Foundation

/// `citybench search`: answers queries from a corpus with one backend.
enum SearchCommand: Command {
  static let name = "search"
  static let summary = "answer queries from a corpus with one backend"

  static let synopsis = """
    citybench search [options] QUERY
    citybench search [options] --queries FILE|-
    """

  static let discussion = """
    Searches a corpus as a city picker would and prints the ranked places with their
    administrative path, the match range and the total count.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value(
          "--backends", "NAME",
          "the search backend (default: linear; see 'citybench backends'); --backend NAME is the same",
          aliases: ["--backend"])
      ]
      + BackendOptionArguments.options
      + [
        .value("--mode", "syllable|seed", "the match contract (default: syllable; see docs/MatchSpec.md)")
      ]
      + KeyboardArgument.options
      + FuzzyArgument.options
      + ScopeArguments.options
      + TwoLevelArgument.options
      + [
        .value("--limit", "N", "how many results to print (default: 20)"),
        .value("--format", "text|tsv|json", "output format (default: text)"),
        .value(
          "--queries", "FILE|-",
          "answer one query per line of FILE (or standard input), printing one JSON object per line, in order"),
        .flag(
          "--timing",
          "with --queries, add each search's time (\"nanoseconds\", monotonic clock; one run per query, not a benchmark)"
        ),
      ]
  }

  static let maximumPositionals = 1

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let mode = try args.choice("--mode", default: MatchMode.syllable)
    let limit = try args.integer("--limit", default: 20, range: 0...1_000_000)
    let format = try args.choice("--format", default: OutputFormat.text)
    let backendType = try BackendSelection.one(args["--backends"] ?? LinearScanBackend.name)
    let keyboard = try KeyboardArgument.keyboard(args["--keyboard"])
    let fuzzy = try FuzzyArgument.rules(args)
    let options = try BackendOptionArguments.parse(args)
    let scopeRequest = try ScopeArguments.request(args)
    let backendName = backendType.name
    let queriesFile = args["--queries"]
    if queriesFile == nil && args.positionals.isEmpty { throw UsageError(message: "missing QUERY") }
    if queriesFile != nil && !args.positionals.isEmpty {
      throw UsageError(message: "give either QUERY or --queries, not both")
    }
    if queriesFile != nil && format != .json && args["--format"] != nil {
      throw UsageError(message: "--queries prints JSON lines; drop --format or give --format json")
    }

    let corpus = try CorpusOptions(args).load()
    let scope = try ScopeArguments.scope(scopeRequest, in: corpus)
    let backend = try backendType.init(corpus: corpus, options: options)
    let formatter = ResultFormatter(corpus: corpus, backendName: backendName)
    let answer = TwoLevelArgument.searcher(backend, args, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy)

    let timing = args.has("--timing")
    if timing && queriesFile == nil { throw UsageError(message: "--timing applies to --queries") }
    if let queriesFile {
      let output = FileHandle.standardOutput
      try forEachLine(of: queriesFile) { query in
        let start = DispatchTime.now().uptimeNanoseconds
        let result = answer(keyboard?.read(query) ?? query)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        output.write(Data((try formatter.json(result, query: query, nanoseconds: timing ? elapsed : nil) + "\n").utf8))
      }
      return 0
    }
    let query = args.positionals[0]
    let result = answer(keyboard?.read(query) ?? query)
    print(try formatter.render(result, query: query, format: format))
    return 0
  }

  /// Calls `body` with each line of `path` (`-` for standard input), without its line ending.
  static func forEachLine(of path: String, _ body: (String) throws -> Void) throws {
    let handle: FileHandle
    if path == "-" {
      handle = FileHandle.standardInput
    } else {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        throw CommandError(message: "'\(path)' is a directory, not a queries file")
      }
      guard let h = FileHandle(forReadingAtPath: path) else {
        throw CommandError(message: "cannot read queries file '\(path)'")
      }
      handle = h
    }
    var pending = Data()
    var lineNumber = 0
    func emit(_ bytes: Data) throws {
      lineNumber += 1
      var line = bytes
      if line.last == 0x0D { line.removeLast() }
      guard let text = String(data: line, encoding: .utf8) else {
        throw CommandError(message: "\(path == "-" ? "standard input" : path):\(lineNumber): invalid UTF-8")
      }
      try body(text)
    }
    while true {
      // The throwing read: `readData(ofLength:)` traps on a read error.
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: 1 << 16) ?? Data()
      } catch {
        throw CommandError(message: "cannot read queries file '\(path)': \(error.localizedDescription)")
      }
      if chunk.isEmpty { break }
      pending.append(chunk)
      while let newline = pending.firstIndex(of: 0x0A) {
        try emit(pending[pending.startIndex..<newline])
        pending.removeSubrange(pending.startIndex...newline)
      }
    }
    if !pending.isEmpty { try emit(pending) }
  }
}
