import CitySearch
import CitySearchConformance
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

/// The differential check drives implementations through the executor seat: executors made per
/// worker, one answering every match for a divergence's culprits, an executor's error failing
/// the check instead of passing silently.
@Suite(.timed) struct DifferentialRunExecutorTests {
  /// The requests a factory was asked for, across workers.
  final class Requests: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [ExecutorRequest] = []
    func add(_ request: ExecutorRequest) { lock.withLock { seen.append(request) } }
    var all: [ExecutorRequest] { lock.withLock { seen } }
  }

  /// An executor of the reference that throws on one text.
  final class Failing: Executor {
    let inner: any Executor
    let failOn: String
    struct Refused: Error, CustomStringConvertible { var description: String { "refused 'bj'" } }
    init(_ inner: any Executor, failOn: String) {
      self.inner = inner
      self.failOn = failOn
    }
    var name: String { inner.name }
    var capabilities: ExecutorCapabilities { inner.capabilities }
    func startSession() throws { try inner.startSession() }
    func answer(_ text: String) throws -> ExecutorAnswer {
      if text == failOn { throw Refused() }
      return try inner.answer(text)
    }
    func answerAlone(_ text: String) throws -> ExecutorAnswer {
      if text == failOn { throw Refused() }
      return try inner.answerAlone(text)
    }
  }

  @Test func culpritsComeFromAnExecutorOfEveryMatch() {
    let corpus = TestTiers.cities
    let run = DifferentialRun(reference: LinearScanBackend(corpus: corpus))
    let broken = DropsLastHitBackend(corpus: corpus, fewest: 1)
    let requests = Requests()
    let inner = broken.executors(name: "dropping")
    let factory = ExecutorFactory(name: "dropping") { request in
      requests.add(request)
      return inner.executor(request)
    }
    let outcome = run.check(factory, mode: .syllable, texts: ["bj", "beijing"], targets: ["bj"])
    #expect(outcome.unexpectedCount == 2 && outcome.culprits.count == 2)
    #expect(outcome.unexpected.allSatisfy { $0.backend == "dropping" })
    let made = requests.all
    #expect(made.contains { $0.limit == 20 && $0.replay == .stateless })
    #expect(made.contains { $0.limit == .max && $0.replay == .stateless }, "the culprits' full answers")
    #expect(made.allSatisfy { $0.mode == .syllable })
  }

  @Test func anExecutorsErrorFailsTheCheck() {
    let corpus = TestTiers.cities
    let reference = LinearScanBackend(corpus: corpus)
    let run = DifferentialRun(reference: reference)
    let inner = reference.executors(name: "failing")
    let factory = ExecutorFactory(name: "failing") { Failing(inner.executor($0), failOn: "bj") }
    let outcome = run.check(factory, mode: .syllable, texts: ["bj", "beijing", "sh"], targets: [])
    #expect(outcome.unexpectedCount == 0)
    #expect(outcome.executorError == "refused 'bj'")
    #expect(!outcome.conforms)
    let check = ConformanceResult.Check(tier: "cities", outcome: outcome, seconds: 0) { _ in "" }
    #expect(check.failed)
    #expect(check.line().contains("FAILED: refused 'bj'"), "\(check.line())")
  }

  /// A backend whose session keeps state is typed keystroke by keystroke; one whose session
  /// repeats the stateless search is not typed again.
  @Test func sessionsAreTypedWhenTheyKeepState() throws {
    let corpus = TestTiers.cities
    let run = DifferentialRun(reference: LinearScanBackend(corpus: corpus))
    let trie = BenchFixtures.trie
    let backend = try trie.type.init(corpus: corpus, options: trie.options)
    let typed = run.check(backend, label: "trie", mode: .syllable, texts: ["bj"], targets: ["beijing", "xian"])
    #expect(typed.conforms && typed.sessionNote == nil && typed.keystrokesChecked > 0)
    let repeating = run.check(
      DropsLastHitBackend(corpus: corpus, fewest: 1_000_000), label: "repeating", mode: .syllable, texts: ["bj"],
      targets: ["beijing"])
    #expect(repeating.conforms && repeating.sessionNote != nil && repeating.keystrokesChecked == 0)
  }
}
