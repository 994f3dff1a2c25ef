import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchConformance
import CitySearchCorpus
import CitySearchEngine
import CitySearchExecutor
import Foundation

/// `citybench index`: writes a backend's whole index (or a corpus's precomputed answers) to a
/// file an app ships, and opens one back, timing each way of getting a backend ready.
enum IndexCommand: Command {
  static let name = "index"
  static let summary = "write a backend's index or a corpus's precomputed answers to a file; open one and time it"

  static let synopsis = """
    citybench index build [options] --backend NAME --out FILE
    citybench index open FILE [--query TEXT] [--check]
    citybench index [options] --out FILE
    citybench index [options] --load FILE [--check]
    """

  static let discussion = """
    build writes the whole index of one backend that can be saved (\(archivableNames.joined(separator: ", ")))
    with its corpus to FILE: the corpus's tables, the backend's structures and its precomputed
    answers, with the match contract and a checksum. open reads such a file back, checking every
    table, and prints how long the read, the open and the first answer take (a cold process:
    time the whole command); --check compares the opened backend's answers with the reference's
    over the file's own corpus. An app ships the file and opens it (IndexFile.open) instead of
    loading a corpus and building.

    With --out and no action, computes only the precomputed answers (most of a villages build)
    and writes them to FILE; an app hands them to the backend
    (ShortQueryAnswers(fileData:corpus:), TrieBackend(corpus:options:shortAnswers:)). With
    --load, reads such a file back, refusing one of another corpus, contract or format, and
    prints how long each backend takes to be ready with it against a build that computes them.
    """

  static let maximumPositionals = 2

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value(
          "--backends", "A,B",
          "build: the backend whose index is written (default: \(archivableNames.first ?? "none")); without an action: the backends to time (default: those that take answers: \(defaultNames.joined(separator: ",")))",
          aliases: ["--backend"]),
        .value(
          "--out", "FILE", "build: write the index to FILE; without an action: compute the answers and write them"),
        .value("--query", "TEXT", "open: the first query answered and timed (default: b)"),
        .value("--load", "FILE", "read the answers from FILE and time each backend's build with them"),
        .flag(
          "--check",
          "with open or --load, also compare the answers to every one- and two-character query in both modes with the reference's"
        ),
      ]
  }

  /// The backends of the catalog that take precomputed answers.
  static var defaultNames: [String] {
    BackendCatalog.all.filter { $0 is any ShortAnswersBackend.Type }.map { $0.name }
  }

  /// The backends of the catalog whose index can be saved.
  static var archivableNames: [String] {
    BackendCatalog.all.filter { $0 is any ArchivableBackend.Type }.map { $0.name }
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    switch args.positionals.first {
    case nil: return try runAnswers(args)
    case "build": return try runBuild(args)
    case "open": return try runOpen(args)
    case let action?: throw UsageError(message: "unknown action '\(action)' (index build, index open, or no action)")
    }
  }

  /// `index build`: builds one backend, writes its index with its corpus, and times both.
  static func runBuild(_ args: ParsedArguments) throws -> Int32 {
    guard args.positionals.count == 1 else {
      throw UsageError(message: "index build takes no file argument; give --out FILE")
    }
    guard let out = args["--out"] else { throw UsageError(message: "index build needs --out FILE") }
    if args["--load"] != nil || args.has("--check") || args["--query"] != nil {
      throw UsageError(message: "index build takes --backend, --corpus and --out")
    }
    let selected = try BackendSelection.select(args["--backends"] ?? archivableNames.first!)
    guard selected.count == 1, let type = selected.first else {
      throw UsageError(message: "index build writes one backend's index: name one with --backend")
    }
    guard let archivable = type as? any ArchivableBackend.Type else {
      throw CommandError(
        message: "\(type.name) cannot save its index (those that can: \(archivableNames.joined(separator: ", ")))")
    }
    let corpus = try CorpusOptions(args).load()
    func write<B: ArchivableBackend>(_ type: B.Type) throws {
      var started = MonotonicClock.now()
      let backend = try B(corpus: corpus, options: BackendOptions())
      let built = seconds(since: started)
      started = MonotonicClock.now()
      let data = IndexFile.data(of: backend)
      try AtomicFile.write(data, to: out)
      let saved = seconds(since: started)
      print(
        "wrote \(out): \(data.count.formatted()) bytes, the \(B.name) index of \(corpus.source) "
          + "(\(corpus.count.formatted()) places) under contract \(MatchContract.version); "
          + "built in \(milliseconds(built)), saved in \(milliseconds(saved))")
    }
    try write(archivable)
    return ExitStatus.success
  }

  /// `index open FILE`: opens an index file (mapped) and times the open and a first answer.
  static func runOpen(_ args: ParsedArguments) throws -> Int32 {
    guard args.positionals.count == 2 else { throw UsageError(message: "index open takes the file: index open FILE") }
    if args["--out"] != nil || args["--load"] != nil || args["--backends"] != nil {
      throw UsageError(message: "index open takes the file, --query and --check (the file names its backend)")
    }
    let path = args.positionals[1]
    let tables = try EmbeddedCorpus.tables()
    var started = MonotonicClock.now()
    let backend: any ArchivableBackend
    do {
      backend = try IndexFile.open(contentsOf: path, among: BackendCatalog.all, tables: tables)
    } catch {
      throw CommandError(message: "\(path): \(error)")
    }
    let opened = seconds(since: started)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let query = args["--query"] ?? "b"
    started = MonotonicClock.now()
    let answer = backend.search(query, mode: .syllable, limit: 20)
    let answered = seconds(since: started)
    let corpus = backend.corpus
    print(
      "opened \(path): \(bytes.formatted()) bytes, the \(type(of: backend).name) index of \(corpus.source) "
        + "(\(corpus.count.formatted()) places); mapped and opened in \(milliseconds(opened)), "
        + "first answer \(duration(answered)): '\(query)' \(answer.total.formatted()) matches, first "
        + (answer.hits.first.map { corpus.name(at: $0.index) } ?? "none"))
    guard args.has("--check") else { return ExitStatus.success }
    return checkShortQueries(backend, against: LinearScanBackend(corpus: corpus))
      ? ExitStatus.success : ExitStatus.failure
  }

  /// Compares `backend`'s answers to every one- and two-character query in both modes with
  /// `reference`'s, printing the first difference; whether there was none.
  static func checkShortQueries(_ backend: some SearchBackend, against reference: LinearScanBackend) -> Bool {
    let characters = "abcdefghijklmnopqrstuvwxyz0123456789".map(String.init)
    let queries = characters + characters.flatMap { a in characters.map { a + $0 } }
    for mode in MatchMode.allCases {
      for query in queries {
        let expected = reference.search(query, mode: mode, limit: 20)
        let actual = backend.search(query, mode: mode, limit: 20)
        if let difference = ResultDifference(expected: expected, actual: actual) {
          print("  \(mode) '\(query)': \(difference)")
          return false
        }
      }
    }
    print("  \(queries.count) one- and two-character queries in both modes: as the reference answers")
    return true
  }

  static func seconds(since start: UInt64) -> Double { Double(MonotonicClock.now() - start) / 1e9 }

  /// `index --out` / `index --load`: the precomputed answers alone.
  static func runAnswers(_ args: ParsedArguments) throws -> Int32 {
    let out = args["--out"]
    let load = args["--load"]
    guard (out == nil) != (load == nil) else { throw UsageError(message: "give either --out FILE or --load FILE") }
    if args.has("--check") && load == nil { throw UsageError(message: "--check applies to --load") }
    let types = try BackendSelection.select(args["--backends"] ?? defaultNames.joined(separator: ","))
      .compactMap { type -> (any ShortAnswersBackend.Type)? in
        guard let answering = type as? any ShortAnswersBackend.Type else {
          standardError("citybench: \(type.name) keeps no precomputed answers; skipped")
          return nil
        }
        return answering
      }
    guard let first = types.first else { throw UsageError(message: "--backends names no backend that takes answers") }
    let corpus = try CorpusOptions(args).load()

    if let out {
      let started = MonotonicClock.now()
      let backend = try first.init(corpus: corpus, options: BackendOptions())
      let seconds = Double(MonotonicClock.now() - started) / 1e9
      guard let answers = backend.shortAnswers else { throw CommandError(message: "\(first.name) kept no answers") }
      let data = answers.fileData(for: corpus)
      try AtomicFile.write(data, to: out)
      print(
        "wrote \(out): \(data.count.formatted()) bytes, the answers of \(corpus.source) under contract "
          + "\(MatchContract.version) (computed with \(first.name), built in \(String(format: "%.2f", seconds)) s)")
      return ExitStatus.success
    }

    let path = load!
    let clock = MonotonicClock.now()
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw CommandError(message: "cannot read answers file '\(path)': \(error.localizedDescription)")
    }
    let answers: ShortQueryAnswers
    do {
      answers = try ShortQueryAnswers(fileData: data, corpus: corpus)
    } catch {
      throw CommandError(message: "\(path): \(error)")
    }
    let readSeconds = Double(MonotonicClock.now() - clock) / 1e9
    print(
      "read \(path): \(data.count.formatted()) bytes in \(milliseconds(readSeconds)) (checked against \(corpus.source))"
    )
    let reference = LinearScanBackend(corpus: corpus)
    var failed = false
    for type in types {
      func time<B: ShortAnswersBackend>(_ type: B.Type) throws {
        var started = MonotonicClock.now()
        let loaded = B(corpus: corpus, options: BackendOptions(), shortAnswers: answers)
        let withFile = Double(MonotonicClock.now() - started) / 1e9
        started = MonotonicClock.now()
        _ = try B(corpus: corpus, options: BackendOptions())
        let computing = Double(MonotonicClock.now() - started) / 1e9
        print(
          "\(B.name): ready in \(milliseconds(withFile + readSeconds)) with the file "
            + "(\(milliseconds(withFile)) build + the read), \(milliseconds(computing)) computing the answers")
        guard args.has("--check") else { return }
        if !checkShortQueries(loaded, against: reference) { failed = true }
      }
      try time(type)
    }
    return failed ? ExitStatus.failure : ExitStatus.success
  }

  /// `seconds` in microseconds below a millisecond, else as ``milliseconds(_:)``.
  static func duration(_ seconds: Double) -> String {
    seconds < 1e-3 ? String(format: "%.0f µs", seconds * 1e6) : milliseconds(seconds)
  }

  static func milliseconds(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
  }
}
