import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// Reading what callgrind writes, and splitting it into keystrokes (without Valgrind: the
/// replay itself is tested end to end in the CLI tests).
@Suite(.timed) struct InstructionCounterTests {
  /// A callgrind output with `--combine-dumps=yes`: a header, then one part per dump.
  func callgrindOutput(_ totals: [Int]) -> Data {
    var text = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\ncmd: citybench\n\n"
    for (i, total) in totals.enumerated() {
      text += "part: \(i + 1)\ndesc: Timerange: Basic block 0 - 1\nevents: Ir\nfl=(1) a.swift\nfn=(1) f\n0 \(total)\n"
      text += "summary: \(total)\ntotals: \(total)\n\n"
    }
    return Data(text.utf8)
  }

  @Test func totalsAreReadInOrder() throws {
    #expect(
      try InstructionCounter.totals(callgrindOutput: callgrindOutput([22, 0, 1_234_567_890])) == [22, 0, 1_234_567_890])
    #expect(try InstructionCounter.totals(callgrindOutput: Data()) == [])
    let broken = Data("part: 1\ntotals: many\n".utf8)
    let error = #expect(throws: CallgrindOutputError.self) { try InstructionCounter.totals(callgrindOutput: broken) }
    #expect(error?.message == "line 2: a 'totals:' line without a count")
  }

  @Test func strideKeepsAThousandKeystrokesAtMost() {
    #expect(InstructionCounter.stride(keystrokes: 1) == 1)
    #expect(InstructionCounter.stride(keystrokes: 1_000) == 1)
    #expect(InstructionCounter.stride(keystrokes: 1_001) == 2)
    #expect(InstructionCounter.stride(keystrokes: 15_446) == 16)
    let layout = InstructionCounter.Layout(keystrokes: 15_446, backends: 2)
    #expect(layout.sampled == 966)
    #expect(layout.sampled * layout.stride >= 15_446 && (layout.sampled - 1) * layout.stride < 15_446)
  }

  /// The dumps of a replay of 5 keystrokes through 2 backends, every second keystroke alone.
  @Test func readingSplitsCalibrationSamplesAndGroups() throws {
    let layout = InstructionCounter.Layout(keystrokes: 2_500, backends: 2)
    #expect(layout.stride == 3)
    // Calibration: single calls cost 16 (one 17), a group of 64 empty keystrokes 64 × 10,
    // the work 100 at 0 iterations and 100 + 4.5 × 4,096 at 4,096.
    var dumps = [17] + Array(repeating: 16, count: InstructionCounter.emptyCalls - 1)
    dumps += [64 * 10, 100, 100 + 18_432]
    var expectedTotals: [Int] = []
    var expectedSampled: [[Int]] = []
    for b in 0..<2 {
      var sampled: [Int] = []
      var total = 0
      for k in 0..<layout.keystrokes where k % layout.stride == 0 {
        // The group before keystroke k: keystrokes k-2 and k-1 (none before the first).
        let group = k == 0 ? 0 : 2 * (1_000 + b) + 2 * 10
        let alone = 500 + k + b
        dumps += [group, alone + 16]
        sampled.append(alone)
        total += alone + (k == 0 ? 0 : 2 * (1_000 + b))
      }
      // After the last sampled keystroke (2,499): no keystroke is left for the last group.
      dumps.append(0)
      expectedTotals.append(total)
      expectedSampled.append(sampled)
    }
    dumps.append(0)  // the dump callgrind writes at exit
    let reading = try InstructionCounter.reading(totals: dumps, layout: layout)
    #expect(reading.overhead == 16)
    #expect(reading.groupOverhead == 10)
    #expect(reading.instructionsPerIteration == 4.5)
    #expect(reading.injectionCallCost == 100 - 16)  // the call at 0 iterations, less the cost of measuring
    #expect(reading.sampled == expectedSampled)
    #expect(reading.totals == expectedTotals)

    let short = #expect(throws: CallgrindOutputError.self) {
      try InstructionCounter.reading(totals: Array(dumps.prefix(100)), layout: layout)
    }
    #expect(
      short?.message
        == "callgrind wrote 100 dumps; a replay of 2500 keystrokes through 2 backends writes \(layout.dumps)")
  }

  @Test func summaryQuantilesAreOfTheSampleAndTheMeanOfEveryKeystroke() {
    let s = InstructionSummary(tool: "callgrind", keystrokes: 400, total: 40_000, sampled: Array(1...100), stride: 4)
    #expect(s.p50 == 50)
    #expect(s.p90 == 90)
    #expect(s.p99 == 99)
    #expect(s.max == 100)
    #expect(s.mean == 100)
    #expect(s.sampled == 100)
    #expect(s["total"] == 40_000)
  }
}
