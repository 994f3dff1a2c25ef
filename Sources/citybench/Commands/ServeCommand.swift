import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchExecutor
import Foundation

/// `citybench serve`: one of the suite's backends as an executor in a process of its own,
/// speaking the wire protocol on standard input and output (docs/Executors.md).
enum ServeCommand: Command {
  static let name = "serve"
  static let summary = "answer the executor protocol on stdin/stdout with one backend"

  static let synopsis = "citybench serve --backends NAME [options]"

  static let discussion = """
    Speaks the executor protocol (docs/Executors.md) on standard input and output: reads the
    handshake (the corpus file, the mode, the limit), builds the backend over that corpus,
    replies with its build time and heap, then answers one query line with one answer line
    until its input ends. Each answer carries the nanoseconds of the backend's own search, so
    'citybench bench --executor trie-served="citybench serve --backends trie"' shows what
    crossing a process costs beside the same backend in process.
    """

  static var options: [CommandOption] {
    [
      .value(
        "--backends", "NAME", "the backend (see 'citybench backends'); --backend NAME is the same",
        aliases: ["--backend"])
    ]
      + BackendOptionArguments.options
      + [
        .value(
          "--replay", "sessions|stateless",
          "type into the backend's session (default), or answer every query afresh from the index")
      ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    guard let name = args["--backends"] else { throw UsageError(message: "missing --backends NAME") }
    let backendType = try BackendSelection.one(name)
    let backendName = backendType.name
    let replay = try args.choice("--replay", default: Replay.sessions)
    let options = try BackendOptionArguments.parse(args)
    do {
      try WireServer.serve { request in
        guard let mode = MatchMode(rawValue: request.mode) else {
          throw CommandError(message: "unknown mode '\(request.mode)' in the handshake")
        }
        let fuzzy: FuzzyRules
        do {
          fuzzy = try FuzzyRules(parsing: request.fuzzy ?? "none")
        } catch {
          throw CommandError(message: "\(error) in the handshake")
        }
        let corpus = try CorpusOptions.loading(path: request.corpusPath).load()
        let build = try MeasuredBuild.build(
          backendType, corpus: corpus, options: options)
        let executor = build.backend.executor(
          name: backendName, mode: mode, limit: request.limit, replay: replay, fuzzy: fuzzy)
        var capabilities = executor.capabilities
        capabilities.modes = MatchMode.allCases.map(\.rawValue)
        let reply = WireHandshake.Reply(
          name: backendName, implementationVersion: CityBench.packageVersion,
          buildNanoseconds: UInt64(build.seconds * 1e9), memoryBytes: build.heapBytes ?? 0, capabilities: capabilities)
        return (
          reply,
          { query in
            let answer: ExecutorAnswer
            if query.alone {
              answer = try executor.answerAlone(query.text)
            } else {
              if query.newSession { try executor.startSession() }
              answer = try executor.answer(query.text)
            }
            return WireAnswer(id: query.id, answer: answer)
          }
        )
      }
    } catch let error as WireError {
      throw CommandError(message: error.message)
    }
    return ExitStatus.success
  }
}
