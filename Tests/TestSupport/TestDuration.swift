import Foundation
import Testing

/// Measures each test's own running time: the wall time of its body alone, from the moment the
/// body starts to the moment it returns.
///
/// Swift Testing's "passed after N seconds" counts from when a test was scheduled, and with
/// every test scheduled at once on this 2-core machine most tests report the same figure, the
/// time the slowest of their neighbours took. Apply the trait to a suite (it applies to every
/// test in it) and set `CITYBENCH_TEST_DURATIONS` to a file: each test appends one line,
/// `seconds<TAB>Module.Suite/test()`, so the slowest tests can be read off with `sort -rn`.
///
///     @Suite(.timed) struct CorpusTests { … }
///
/// Without the variable the trait only runs the body. A parameterized test writes one line per
/// argument.
public struct TestDuration: SuiteTrait, TestTrait, TestScoping {
  /// The environment variable naming the file the durations are appended to.
  public static let variable = "CITYBENCH_TEST_DURATIONS"

  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> TestDuration? {
    test.isSuite || testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard let path = ProcessInfo.processInfo.environment[Self.variable], !path.isEmpty else {
      return try await function()
    }
    let start = ContinuousClock.now
    defer {
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      Self.append(String(format: "%.3f\t", seconds) + Self.name(test.id) + "\n", to: path)
    }
    try await function()
  }

  /// `Module.Suite/test()`: the test's identifier without its source location.
  static func name(_ id: Test.ID) -> String {
    var parts = "\(id)".split(separator: "/", omittingEmptySubsequences: false)
    if parts.count > 1, parts.last?.contains(".swift:") == true { parts.removeLast() }
    return parts.joined(separator: "/")
  }

  /// One line, appended with `O_APPEND` in a single write, so tests ending at once do not mix.
  static func append(_ line: String, to path: String) {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
  }
}

extension Trait where Self == TestDuration {
  /// Each test's own running time, written where `CITYBENCH_TEST_DURATIONS` says (``TestDuration``).
  public static var timed: Self { TestDuration() }
}
