import Foundation
import Testing

@testable import CitySearchTestSupport

/// The per-test duration trait that every suite carries (`CITYBENCH_TEST_DURATIONS`).
@Suite(.timed) struct TestDurationTests {
  @Test func aTestIsNamedByModuleSuiteAndFunction() throws {
    let test = try #require(Test.current)
    #expect(TestDuration.name(test.id) == "CitySearchTests.TestDurationTests/aTestIsNamedByModuleSuiteAndFunction()")
  }

  /// A suite without the trait would leave its tests out of CI's list of the slowest.
  @Test func everySuiteIsTimed() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
    var suites = 0
    for file in files where file.hasSuffix(".swift") && !file.hasPrefix("TestSupport/") {
      let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite") {
        suites += 1
        #expect(line.contains("@Suite(.timed"), "\(file): \(line)")
      }
    }
    #expect(suites > 40)
  }

  /// Lines written at once by many tests stay whole.
  @Test func linesWrittenAtOnceStayWhole() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("durations-\(UUID()).tsv").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let line = String(format: "%.3f\t", 1.25) + String(repeating: "x", count: 200) + "\n"
    DispatchQueue.concurrentPerform(iterations: 200) { _ in TestDuration.append(line, to: path) }
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 201 && lines.last == "")
    #expect(lines.dropLast().allSatisfy { $0 + "\n" == line })
  }
}
