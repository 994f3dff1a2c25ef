import CitySearch
import CitySearchConformance
import Testing

@testable import CitySearchBench

/// `BenchSuite`: what a bench run measures beside the latencies, and which backends each measure
/// is asked of. The counts come from doubles here; the child processes that count them for real
/// are the command's (`AllocationsCommandTests`, the CI gate's instruction run).
@Suite(.timed) struct BenchSuiteTests {
  private func settings(fuzzy: FuzzyRules = []) -> BenchSuite.Settings {
    var configuration = BenchConfiguration()
    configuration.rounds = 1
    configuration.warmUpKeystrokes = 10
    configuration.fuzzy = fuzzy
    return BenchSuite.Settings(
      candidates: [BenchCandidate(type: LinearScanBackend.self), BenchFixtures.trie], configuration: configuration)
  }

  /// Instructions and allocations are asked of the timed backends named, once each, and land
  /// in those backends' results only; the work injected into a count is recorded.
  @Test func countsAreAskedOfTheTimedBackendsNamed() throws {
    var settings = settings()
    settings.relevance = false
    settings.instructionBackends = ["trie", "inverted-index"]  // inverted-index is not timed
    settings.allocationBackends = ["trie"]
    let instructions = InstructionSummary(
      tool: "test", keystrokes: 3, total: 600, sampled: [100, 200, 300], stride: 1)
    let allocations = AllocationSummary(counts: [0, 1, 2])
    var asked: [(String, [String], Int)] = []
    let hooks = BenchSuite.Hooks(
      countInstructions: { backends, workload in
        asked.append(("instructions", backends, workload.keystrokeCount))
        return (Dictionary(uniqueKeysWithValues: backends.map { ($0, instructions) }), ["trie": 7])
      },
      countAllocations: { backends, workload in
        asked.append(("allocations", backends, workload.keystrokeCount))
        return Dictionary(uniqueKeysWithValues: backends.map { ($0, allocations) })
      })
    let workload = BenchFixtures.smallWorkload
    let (results, _) = try BenchSuite.run(
      corpus: BenchFixtures.cities, corpusName: "cities", workload: workload, workloadName: "small",
      settings: settings, hooks: hooks)
    #expect(asked.map(\.0) == ["instructions", "allocations"])
    #expect(asked.allSatisfy { $0.1 == ["trie"] && $0.2 == workload.keystrokeCount })
    #expect(results.backend(named: "trie")?.instructions == instructions)
    #expect(results.backend(named: "trie")?.allocations == allocations)
    #expect(results.backend(named: "linear")?.instructions == nil)
    #expect(results.backend(named: "linear")?.allocations == nil)
    #expect(results.metadata.injectedInstructionIterations == ["trie": 7])
    #expect(results.relevance == nil)
  }

  /// Relevance measures the contract's ranking of typing without rules: a fuzzy run does not
  /// report it even when asked; a shard records its slice and the whole run's backends.
  @Test func fuzzyRunsHaveNoRelevanceAndShardsRecordTheirSlice() throws {
    var settings = settings(fuzzy: [.zhZ])
    settings.relevance = true
    settings.shard = try Shard(parsing: "1/2")
    settings.shardBackends = ["linear", "trie", "inverted-index"]
    var counted = false
    let hooks = BenchSuite.Hooks(countInstructions: { _, _ in
      counted = true
      return ([:], [:])
    })
    let (results, _) = try BenchSuite.run(
      corpus: BenchFixtures.cities, corpusName: "cities", workload: BenchFixtures.smallWorkload,
      workloadName: "small", settings: settings, hooks: hooks)
    #expect(results.relevance == nil)
    #expect(results.metadata.fuzzy == "zh-z")
    #expect(results.metadata.shard?.index == 1 && results.metadata.shard?.count == 2)
    #expect(results.metadata.shard?.backends == ["linear", "trie", "inverted-index"])
    #expect(!counted, "no backend was named for instructions")
  }
}
