import CitySearch
import CitySearchBackends
import CitySearchBench
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

/// An executor in another process: what a well-behaved one answers arrives unchanged, and each
/// way of misbehaving (a malformed line, a wrong id, a hang, a crash, a huge line, a wrong
/// place, another protocol) gets an error naming the executor, the query and what came back,
/// within its deadline.
@Suite(.timed) struct ProcessExecutorTests {
  let corpus = BenchFixtures.cities

  /// A handshake reply of a set-only implementation that answers both modes.
  static let reply =
    #"{"version":1,"name":"fake","implementationVersion":"0.1","buildNanoseconds":5,"memoryBytes":7,"#
    + #""capabilities":{"ranked":false,"matchRanges":false,"exactTotals":true,"sessions":false,"modes":["syllable","seed"]}}"#

  /// A shell command that answers the handshake, then runs `then` for the queries.
  static func fake(_ then: String) -> String { "read h; echo '\(reply)'; \(then)" }

  func start(_ command: String, answerTimeout: Double = 10) throws -> ProcessExecutor {
    try ProcessExecutor(
      name: "fake", command: command, corpus: corpus, corpusPath: "/dev/null", corpusFormat: "tsv", mode: .syllable,
      limit: 20, startTimeout: 10, answerTimeout: answerTimeout)
  }

  func failure(of executor: ProcessExecutor, answering text: String = "bj") -> ExecutorError? {
    do {
      _ = try executor.answer(text)
      return nil
    } catch {
      return error as? ExecutorError
    }
  }

  @Test func aWellBehavedExecutorsAnswersArriveWithItsOwnTimeAndTheRoundTrip() throws {
    let id = corpus.id(at: 0)
    let executor = try start(
      Self.fake(
        #"while read q; do n=$(echo "$q" | sed 's/.*"id":\([0-9]*\).*/\1/'); "#
          + #"echo "{\"id\":$n,\"ids\":[\#(id)],\"total\":1,\"nanoseconds\":1234}"; done"#))
    #expect(executor.isExternal)
    #expect(executor.handshake?.name == "fake")
    #expect(executor.handshake?.memoryBytes == 7)
    #expect(!executor.capabilities.ranked)
    try executor.startSession()
    for text in ["b", "bj"] {
      let answer = try executor.answer(text)
      #expect(answer.result.hits.map(\.id) == [id])
      #expect(answer.result.total == 1)
      #expect(answer.result.normalized.text == text)
      #expect(answer.nanoseconds == 1234)
      #expect((answer.roundTripNanoseconds ?? 0) > 0)
    }
    #expect(try executor.answerAlone("xa").result.total == 1)
  }

  @Test func aLineThatIsNotJSONFailsTheExecutorForGood() throws {
    let executor = try start(Self.fake("read q; echo 'not json at all'; sleep 5"))
    let error = try #require(failure(of: executor))
    #expect(error.executor == "fake")
    #expect(error.query == "bj")
    #expect(error.error.kind == .malformed)
    #expect(error.received == "not json at all")
    #expect(error.description.hasPrefix("executor 'fake', query 'bj': malformed: not an answer:"))
    // Failed for good: the next call throws the same error at once.
    #expect(failure(of: executor, answering: "b") == error)
  }

  @Test func anAnswerToAnotherQueryIsRefused() throws {
    let executor = try start(Self.fake(#"read q; echo '{"id":99,"ids":[],"total":0,"nanoseconds":1}'"#))
    let error = try #require(failure(of: executor))
    #expect(error.error == WireError(kind: .malformed, message: "the answer of query 99, expected 0"))
  }

  @Test func aHangEndsAtTheDeadline() throws {
    let executor = try start(Self.fake("read q; sleep 60"), answerTimeout: 0.3)
    let started = Date()
    let error = try #require(failure(of: executor))
    #expect(error.error.kind == .timeout)
    #expect(error.error.message == "no answer within 0.3 s")
    #expect(Date().timeIntervalSince(started) < 5, "the hung process is ended, not waited for")
  }

  @Test func aCrashIsReportedWithItsStatusAndItsLastWords() throws {
    let executor = try start(Self.fake("read q; echo 'index corrupt' >&2; exit 3"))
    let error = try #require(failure(of: executor))
    #expect(error.error.kind == .exited)
    #expect(error.error.message.contains("exit status 3"), "\(error)")
    #expect(error.error.message.contains("index corrupt"), "\(error)")
  }

  @Test func aHugeLineIsCutOff() throws {
    let executor = try start(Self.fake("read q; head -c 6000000 /dev/zero | tr '\\0' 'a'; sleep 5"))
    let error = try #require(failure(of: executor))
    #expect(
      error.error == WireError(kind: .malformed, message: "a line longer than \(ProcessExecutor.maxLineBytes) bytes"))
  }

  @Test func aWrongPlaceOrAnErrorObjectFailsThatQueryOnly() throws {
    let id = corpus.id(at: 0)
    let executor = try start(
      Self.fake(
        #"read q; echo '{"id":0,"ids":[-7],"total":1,"nanoseconds":1}'; "#
          + #"read q; echo '{"id":1,"ids":[],"total":0,"nanoseconds":0,"error":{"kind":"failed","message":"no index"}}'; "#
          + #"read q; echo '{"id":2,"ids":[\#(id)],"total":1,"nanoseconds":1}'"#))
    let unknown = try #require(failure(of: executor, answering: "a"))
    #expect(unknown.error == WireError(kind: .unknownPlace, message: "id -7 names no place of \(corpus.source)"))
    #expect(unknown.received == #"{"id":0,"ids":[-7],"total":1,"nanoseconds":1}"#)
    let own = try #require(failure(of: executor, answering: "b"))
    #expect(own.error == WireError(kind: .failed, message: "no index"))
    #expect(try executor.answer("c").result.hits.map(\.id) == [id])
  }

  /// Fuzzy rules go in the handshake; an implementation that does not list them among its
  /// capabilities is refused with the rules it lacks, one that lists some with the rest.
  @Test func fuzzyRulesTheImplementationDoesNotReadAreRefused() throws {
    func start(_ reply: String, rules: FuzzyRules) throws -> ProcessExecutor {
      try ProcessExecutor(
        name: "fake", command: "read h; echo '\(reply)'", corpus: corpus, corpusPath: "/dev/null", corpusFormat: "tsv",
        mode: .syllable, limit: 20, fuzzy: rules, startTimeout: 10)
    }
    #expect {
      try start(Self.reply, rules: [.zhZ, .nL])
    } throws: { error in
      (error as? ExecutorError)?.error
        == WireError(kind: .incompatible, message: "does not read the fuzzy rules zh-z, n-l")
    }
    let some = Self.reply.replacingOccurrences(of: #""modes":"#, with: #""fuzzyRules":["zh-z"],"modes":"#)
    #expect {
      try start(some, rules: .all)
    } throws: { error in
      (error as? ExecutorError)?.error.message.hasPrefix("does not read the fuzzy rules ch-c, sh-s,") == true
    }
    let reading = try start(some, rules: .zhZ)
    #expect(reading.fuzzy == .zhZ && reading.capabilities.missingRules(.zhZ).isEmpty)
    reading.stop()
    #expect(try start(Self.reply, rules: []).capabilities.fuzzyRules == nil)
  }

  @Test func aHandshakeOfAnotherVersionOrWithoutTheModeIsRefused() {
    let other = Self.reply.replacingOccurrences(of: #""version":1"#, with: #""version":9"#)
    #expect {
      try start("read h; echo '\(other)'")
    } throws: { error in
      (error as? ExecutorError)?.error
        == WireError(kind: .incompatible, message: "speaks protocol 9; this build speaks 1")
        && (error as? ExecutorError)?.query == nil
    }
    let seedOnly = Self.reply.replacingOccurrences(of: #"["syllable","seed"]"#, with: #"["seed"]"#)
    #expect {
      try start("read h; echo '\(seedOnly)'")
    } throws: { error in
      (error as? ExecutorError)?.error.message == "does not answer mode syllable (it answers seed)"
    }
  }

  @Test func aCommandThatDoesNotStartSaysWhy() {
    #expect {
      try start("citybench-no-such-command-here")
    } throws: { error in
      guard let error = error as? ExecutorError else { return false }
      return error.error.kind == .exited && error.error.message.contains("exit status 127")
        && error.error.message.contains("not found")
    }
  }

  @Test func executorSpecsParseNameEqualsCommand() throws {
    #expect(
      try ExecutorSpec(parsing: "mine = python3 x.py --fast")
        == ExecutorSpec(name: "mine", command: "python3 x.py --fast"))
    #expect(try ExecutorSpec(parsing: "a=b=c").command == "b=c")
    #expect(throws: WireError(kind: .malformed, message: "'python3 x.py' is not NAME=COMMAND")) {
      try ExecutorSpec(parsing: "python3 x.py")
    }
    #expect(throws: WireError(kind: .malformed, message: "'=cmd' is not NAME=COMMAND: the name is empty")) {
      try ExecutorSpec(parsing: "=cmd")
    }
  }

  @Test func aReplayGoesOnWhenAnExecutorDies() throws {
    let id = corpus.id(at: 0)
    let answerLine =
      #"n=$(echo "$q" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"id\":$n,\"ids\":[\#(id)],\"total\":1,\"nanoseconds\":900}""#
    let steady = try start(Self.fake("while read q; do \(answerLine); done"))
    let dying = try ProcessExecutor(
      name: "dying",
      command: Self.fake("i=0; while read q; do i=$((i+1)); [ $i -gt 30 ] && exit 4; \(answerLine); done"),
      corpus: corpus, corpusPath: "/dev/null", corpusFormat: "tsv", mode: .syllable, limit: 20)
    var configuration = BenchConfiguration()
    configuration.rounds = 1
    configuration.warmUpKeystrokes = 10
    let runner = BenchRunner(workload: BenchFixtures.smallWorkload, configuration: configuration)
    let raw = try runner.run(
      backends: [("linear", LinearScanBackend(corpus: corpus)), ("trie", TrieBackend(corpus: corpus))],
      external: [steady, dying])
    let keystrokes = BenchFixtures.smallWorkload.keystrokeCount
    let byName = Dictionary(uniqueKeysWithValues: raw.series.map { ($0.name, $0) })
    let trie = try #require(byName["trie"])
    #expect(trie.checked == keystrokes && trie.divergences == 0 && trie.failure == nil)
    let fake = try #require(byName["fake"])
    #expect(fake.failure == nil)
    #expect(fake.samples.allSatisfy { $0 == 900 })
    #expect(fake.roundTrips?.allSatisfy { ($0 ?? 0) >= 900 } == true)
    #expect(fake.checked == keystrokes && fake.divergences > 0, "a set of one place differs from most answers")
    let died = try #require(byName["dying"])
    let failure = try #require(died.failure)
    #expect(failure.contains("executor 'dying'") && failure.contains("exit status 4"), "\(failure)")
    // Thirty answers in the warm-up and the round, then nothing: the timed keystrokes are a
    // prefix of the round.
    let timed = died.samples.prefix { $0 != nil }.count
    #expect(timed > 0 && timed < 30)
    #expect(died.samples.dropFirst(timed).allSatisfy { $0 == nil })
  }

  @Test func batchesOfQueriesAreAnsweredInOrderAndAFailureEndsTheRest() throws {
    let id = corpus.id(at: 0)
    let answerLine =
      #"n=$(echo "$q" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"id\":$n,\"ids\":[\#(id)],\"total\":$n,\"nanoseconds\":7}""#
    let texts = (0..<150).map { "q\($0)" }
    let steady = try start(Self.fake("while read q; do \(answerLine); done"))
    let answers = steady.answersAlone(texts)
    #expect(answers.count == 150)
    // Each answer is its own query's: the fake's total is the query's id.
    #expect(answers.enumerated().allSatisfy { i, outcome in (try? outcome.get().result.total) == i })
    #expect(answers.allSatisfy { (try? $0.get().roundTripNanoseconds) == .some(nil) }, "no round trip in a batch")

    let dying = try start(Self.fake("i=0; while read q; do i=$((i+1)); [ $i -gt 70 ] && exit 5; \(answerLine); done"))
    let cut = dying.answersAlone(texts)
    #expect(cut.prefix(70).allSatisfy { (try? $0.get()) != nil })
    #expect(cut.dropFirst(70).allSatisfy { (try? $0.get()) == nil })
    #expect(dying.failure?.error.kind == .exited)
    #expect(dying.failure?.query == "q70")
  }
}
