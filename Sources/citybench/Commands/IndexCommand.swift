import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchConformance
import CitySearchEngine
import CitySearchExecutor
import Foundation

/// `citybench index`: writes the precomputed answers of a corpus to a file an app ships, and
/// loads one back, timing both ways of getting a backend ready.
enum IndexCommand: Command {
  static let name = "index"
  static let summary = "write a corpus's precomputed answers to a file, or load one and time it"

  static let synopsis = """
    citybench index [options] --out FILE
    citybench index [options] --load FILE [--check]
    """

  static let discussion = """
    The indexed backends (trie, inverted-index) precompute the answers of the broadest queries
    at build: most of a villages build. With --out, computes them once and writes them to FILE
    (with the match contract and the corpus's fingerprint); an app ships the file and hands it to
    the backend (ShortQueryAnswers(fileData:corpus:), TrieBackend(corpus:options:shortAnswers:)).
    With --load, reads FILE back, refusing one of another corpus, contract or format, and prints
    how long each backend takes to be ready with it against a build that computes the answers.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value(
          "--backends", "A,B",
          "the backends to time (default: those that take answers: \(defaultNames.joined(separator: ",")))"),
        .value("--out", "FILE", "compute the answers and write them to FILE"),
        .value("--load", "FILE", "read the answers from FILE and time each backend's build with them"),
        .flag(
          "--check",
          "with --load, also compare each backend's answers to every one- and two-character query in both modes with the reference's"
        ),
      ]
  }

  /// The backends of the catalog that take precomputed answers.
  static var defaultNames: [String] {
    BackendCatalog.all.filter { $0 is any ShortAnswersBackend.Type }.map { $0.name }
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
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
        let characters = "abcdefghijklmnopqrstuvwxyz0123456789".map(String.init)
        let queries = characters + characters.flatMap { a in characters.map { a + $0 } }
        for mode in MatchMode.allCases {
          for query in queries {
            let expected = reference.search(query, mode: mode, limit: 20)
            let actual = loaded.search(query, mode: mode, limit: 20)
            if let difference = ResultDifference(expected: expected, actual: actual) {
              print("  \(mode) '\(query)': \(difference)")
              failed = true
              return
            }
          }
        }
        print("  \(queries.count) one- and two-character queries in both modes: as the reference answers")
      }
      try time(type)
    }
    return failed ? ExitStatus.failure : ExitStatus.success
  }

  static func milliseconds(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.2f s", seconds)
  }
}
