import CitySearch
import Foundation

/// An implementation in another process, driven over its standard input and output in the
/// wire protocol (docs/Executors.md): a ``WireHandshake`` first, then one ``WireQuery`` line
/// answered by one ``WireAnswer`` line.
///
/// Every read has a deadline and every line a size bound. A line that is not an answer, an
/// answer to another query, a timeout or the end of the process make the executor *failed*:
/// the error says so with the query and what came back, the process is ended, and every later
/// call throws the same error at once, so a replay can go on with the other implementations.
/// An answer that is an error object, or that names a place the corpus does not hold, fails
/// that query only.
public final class ProcessExecutor: Executor {
  /// The name reports show.
  public let name: String
  /// The command, run by `/bin/sh -c`.
  public let command: String
  /// What the implementation said of itself.
  public let reply: WireHandshake.Reply
  /// The corpus the answers' ids name places of.
  public let corpus: Corpus
  /// The mode of every answer.
  public let mode: MatchMode
  /// The fuzzy rules every query is read with (MatchSpec §3.5).
  public let fuzzy: FuzzyRules
  /// The longest wait for one answer, in seconds.
  public var answerTimeout: Double
  /// The longest line accepted from the implementation.
  public static let maxLineBytes = 4 << 20
  /// Set once the executor has failed; every later call throws it.
  public private(set) var failure: ExecutorError?

  private let child: ChildProcess
  private let normalizer: QueryNormalizer
  private var nextID = 0
  private var sessionPending = true
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  /// Starts `command`, sends the handshake for `mode`, `limit` and the fuzzy rules `fuzzy` over
  /// the corpus file at `corpusPath` (the file `corpus` was loaded from), and waits up to
  /// `startTimeout` seconds for the implementation to say it is ready.
  ///
  /// - Throws: ``ExecutorError`` when the command does not start, does not answer the
  ///   handshake in time, answers something else, speaks another protocol version, does not
  ///   offer `mode` or does not read one of the rules.
  public init(
    name: String, command: String, corpus: Corpus, corpusPath: String, corpusFormat: String, mode: MatchMode,
    limit: Int, fuzzy: FuzzyRules = [], startTimeout: Double = 600, answerTimeout: Double = 30
  ) throws {
    self.name = name
    self.command = command
    self.corpus = corpus
    self.mode = mode
    self.fuzzy = fuzzy
    self.answerTimeout = answerTimeout
    normalizer = QueryNormalizer(tables: corpus.tables, fuzzy: fuzzy)
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let fail = { (error: WireError, received: [UInt8]?) in
      ExecutorError(executor: name, query: nil, error: error, received: received.map(ExecutorError.quote))
    }
    do {
      child = try ChildProcess(command: command)
    } catch let error as WireError {
      throw fail(error, nil)
    }
    let request = WireHandshake.Request(
      corpusPath: corpusPath, corpusFormat: corpusFormat, mode: mode.rawValue, limit: limit,
      fuzzy: fuzzy.isEmpty ? nil : fuzzy.description)
    var line: [UInt8] = []
    do {
      try child.write(line: Array(try encoder.encode(request)))
      line = try child.readLine(seconds: startTimeout, maxBytes: Self.maxLineBytes)
      let reply: WireHandshake.Reply
      do {
        reply = try decoder.decode(WireHandshake.Reply.self, from: Data(line))
      } catch {
        throw WireError(kind: .malformed, message: "the handshake reply is not one: \(Self.reason(error))")
      }
      guard reply.version == WireProtocol.version else {
        throw WireError(
          kind: .incompatible, message: "speaks protocol \(reply.version); this build speaks \(WireProtocol.version)")
      }
      guard reply.capabilities.modes.contains(mode.rawValue) else {
        throw WireError(
          kind: .incompatible,
          message:
            "does not answer mode \(mode.rawValue) (it answers \(reply.capabilities.modes.joined(separator: ", ")))")
      }
      let missing = reply.capabilities.missingRules(fuzzy)
      guard missing.isEmpty else {
        throw WireError(
          kind: .incompatible, message: "does not read the fuzzy rules \(missing.joined(separator: ", "))")
      }
      self.reply = reply
    } catch let error as WireError {
      child.stop()
      throw fail(error, line.isEmpty ? nil : line)
    }
  }

  /// What the implementation said of itself.
  public var handshake: WireHandshake.Reply? { reply }

  /// The capabilities of its handshake.
  public var capabilities: ExecutorCapabilities { reply.capabilities }

  /// The next query starts a new session (sent as ``WireQuery/newSession``).
  public func startSession() throws {
    if let failure { throw failure }
    sessionPending = true
  }

  /// The implementation's answer to the session's next keystroke.
  ///
  /// - Throws: ``ExecutorError``.
  public func answer(_ text: String) throws -> ExecutorAnswer {
    let query = WireQuery(id: nextID, text: text, newSession: sessionPending)
    sessionPending = false
    return try exchange(query)
  }

  /// The implementation's answer to `text` in a session of its own.
  ///
  /// - Throws: ``ExecutorError``.
  public func answerAlone(_ text: String) throws -> ExecutorAnswer {
    try exchange(WireQuery(id: nextID, text: text, newSession: true, alone: true))
  }

  /// The answers of `texts`, each in a session of its own, sent in batches: a batch's queries
  /// are written together and its answers read in order, so that the pipe's round trip is paid
  /// once a batch, not once a query (for a profile, which needs no round trip per answer:
  /// these answers carry none). A batch stays well inside the pipes' buffers, so neither side
  /// waits on the other. Once the executor has failed, every later text gets that failure.
  ///
  /// - Complexity: one answer of the implementation per text.
  public func answersAlone(_ texts: [String]) -> [Result<ExecutorAnswer, any Error>] {
    let batch = Self.batchSize
    var results: [Result<ExecutorAnswer, any Error>] = []
    results.reserveCapacity(texts.count)
    var start = 0
    while start < texts.count {
      let chunk = texts[start..<min(start + batch, texts.count)]
      start += chunk.count
      if let failure {
        results += chunk.map { _ in .failure(failure) }
        continue
      }
      var queries: [WireQuery] = []
      do {
        for text in chunk {
          let query = WireQuery(id: nextID, text: text, newSession: true, alone: true)
          nextID += 1
          try send(query)
          queries.append(query)
        }
      } catch let error as WireError {
        fail(error, query: chunk[chunk.startIndex + queries.count], line: [])
      } catch {
        fail(WireError(kind: .malformed, message: "\(error)"), query: chunk.first!, line: [])
      }
      for query in queries {
        if let failure {
          results.append(.failure(failure))
          continue
        }
        results.append(Result { try receive(query, sentAt: nil) })
      }
      results += chunk.dropFirst(queries.count).map { _ in .failure(failure!) }
    }
    return results
  }

  /// The queries a batch of ``answersAlone(_:)`` holds: about 5 KB of queries and at most
  /// 25 KB of answers of 20 hits, inside a pipe's 64 KB.
  public static let batchSize = 64

  /// Ends the implementation's process (closing its input first, so that it may end itself).
  public func stop() { child.stop() }

  private func exchange(_ query: WireQuery) throws -> ExecutorAnswer {
    if let failure { throw failure }
    nextID += 1
    let start = MonotonicClock.now()
    do {
      try send(query)
    } catch let error as WireError {
      throw fail(error, query: query.text, line: [])
    }
    return try receive(query, sentAt: start)
  }

  private func send(_ query: WireQuery) throws {
    try child.write(line: Array(try encoder.encode(query)))
  }

  /// Reads the answer of `query`; its round trip from `sentAt` when given.
  private func receive(_ query: WireQuery, sentAt: UInt64?) throws -> ExecutorAnswer {
    var line: [UInt8] = []
    do {
      line = try child.readLine(seconds: answerTimeout, maxBytes: Self.maxLineBytes)
      let roundTrip = sentAt.map { MonotonicClock.now() &- $0 }
      let answer: WireAnswer
      do {
        answer = try decoder.decode(WireAnswer.self, from: Data(line))
      } catch {
        throw WireError(kind: .malformed, message: "not an answer: \(Self.reason(error))")
      }
      guard answer.id == query.id else {
        throw WireError(kind: .malformed, message: "the answer of query \(answer.id), expected \(query.id)")
      }
      do {
        let result = try answer.result(query: normalizer.normalize(query.text), mode: mode, corpus: corpus)
        return ExecutorAnswer(result: result, nanoseconds: answer.nanoseconds, roundTripNanoseconds: roundTrip)
      } catch let error as WireError {
        // The implementation answered, wrongly: this query fails, the executor goes on.
        throw ExecutorError(executor: name, query: query.text, error: error, received: ExecutorError.quote(line))
      }
    } catch let error as WireError {
      throw fail(error, query: query.text, line: line)
    }
  }

  /// Marks the executor failed for good with `error` on `query`, ends its process, and
  /// returns the failure to throw.
  @discardableResult
  private func fail(_ error: WireError, query: String, line: [UInt8]) -> ExecutorError {
    let failed = ExecutorError(
      executor: name, query: query, error: error, received: line.isEmpty ? nil : ExecutorError.quote(line))
    failure = failed
    child.stop()
    return failed
  }

  private static func reason(_ error: Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context): context.debugDescription
    case DecodingError.keyNotFound(let key, _): "no field '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
    default: "\(error)"
    }
  }
}
