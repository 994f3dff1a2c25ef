/// The finding of a run in words, for the top of every report: which backend to choose, how
/// much faster than the reference, what it costs, whether everything conforms, and what to be
/// careful about.
public enum Headline {
  /// The fastest backend that conforms (by p99 per keystroke, then p50), if any other than the
  /// reference was timed.
  public static func fastestConforming(_ results: BenchResults) -> BackendResults? {
    conformingByP99(results).first
  }

  /// The timed, conforming backends other than the reference, fastest first (p99, then p50);
  /// implementations in other processes are compared in their own table, not chosen here.
  static func conformingByP99(_ results: BenchResults) -> [BackendResults] {
    results.backends
      .filter {
        $0.name != results.reference && $0.external == nil && $0.conformance.divergences == 0 && $0.latency != nil
      }
      .sorted { a, b in
        let (x, y) = (a.latency!, b.latency!)
        return x.p99.value != y.p99.value ? x.p99.value < y.p99.value : x.p50.value < y.p50.value
      }
  }

  /// The time one keystroke may take before the list lags a frame: one frame at 60 Hz.
  public static let frameNanoseconds = 1e9 / 60

  /// Whether `next` is tied with `best` at p99: its p99 is within the A/A noise of the run at
  /// p99 (the reference against itself), or the two p99 intervals overlap. A lead smaller than
  /// that is not a finding.
  static func tiedAtP99(_ best: BackendResults, _ next: BackendResults, noise: RatioSummary?) -> Bool {
    guard let a = best.latency?.p99, let b = next.latency?.p99 else { return false }
    return b.value <= a.value * (1 + (noise?.p99.reachFromOne ?? 0)) || b.lower <= a.upper
  }

  /// One sentence each: the choice, the runner-up, conformance, and the caveats.
  ///
  ///     Fastest conforming backend (by p99 per keystroke, the lag a typist notices): trie,
  ///     p50 2.80 µs and p99 77.0 µs, 36× faster than linear at p50; index 1.7 MB (counted),
  ///     heap kept 2.0 MB, built in 0.059 s.
  public static func sentences(_ results: BenchResults) -> [String] {
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    var out: [String] = []
    let ranked = conformingByP99(results)
    if let best = ranked.first, let latency = best.latency {
      let tied = ranked.dropFirst().prefix { tiedAtP99(best, $0, noise: results.noiseFloor) }
      let by = "by p99 per keystroke, the lag a typist notices"
      var sentence =
        tied.isEmpty
        ? "Fastest conforming backend (\(by)): **\(best.name)**, p50 \(ns(latency.p50.value)) and p99 \(ns(latency.p99.value))"
        : "Fastest conforming backends, tied within the run's noise (\(by)): **\(best.name)**, p50 \(ns(latency.p50.value)) and p99 \(ns(latency.p99.value))"
      if let ratio = best.ratioToReference?.p50.value, ratio > 0 {
        sentence += ", \(speedup(ratio)) than \(results.reference) at p50 (paired)"
      }
      sentence += "; \(memory(best)), built in \(Formatting.seconds(best.build.seconds))."
      out.append(sentence)
      for next in tied {
        out.append(
          "Tied with it: **\(next.name)**, p99 \(ns(next.latency!.p99.value)) (\(Formatting.ratio(next.latency!.p99.value / max(latency.p99.value, 1))) \(best.name)'s, inside the A/A noise or the intervals), \(memory(next)), built in \(Formatting.seconds(next.build.seconds)); choose between them by memory and build time."
        )
      }
      if let next = ranked.dropFirst(tied.count + 1).first, let nextLatency = next.latency {
        out.append(
          "Next: \(next.name), p99 \(ns(nextLatency.p99.value)) (\(Formatting.ratio(nextLatency.p99.value / max(latency.p99.value, 1))) \(best.name)'s), \(memory(next)), built in \(Formatting.seconds(next.build.seconds))."
        )
      }
      if let shipped = shippedSentence(results, best: best, tied: Array(tied)) { out.append(shipped) }
      out.append(budgetSentence(results, ranked: ranked))
    } else {
      out.append("No backend other than the reference both conforms and was timed.")
    }
    let diverging = results.backends.filter { $0.conformance.divergences > 0 }
    if diverging.isEmpty {
      let checked = results.backends.filter { $0.name != results.reference }.reduce(0) { $0 + $1.conformance.checked }
      out.append("Conformance: all \(Formatting.count(checked)) timed answers match the reference's.")
    } else {
      out.append(
        "**Divergences:** "
          + diverging.map {
            "\($0.name) differs on \(Formatting.count($0.conformance.divergences)) of \(Formatting.count($0.conformance.checked)) answers"
          }.joined(separator: "; ") + " (see Conformance); a diverging backend is not a candidate.")
    }
    let sampled = results.backends.filter { $0.sampling.stride > 1 }
    if !sampled.isEmpty {
      out.append(
        "Sampled (too slow for every keystroke within the budget): "
          + sampled.map { "\($0.name), 1 keystroke in \($0.sampling.stride)" }.joined(separator: ", ") + ".")
    }
    if let noise = results.noiseFloor {
      out.append(
        "Noise: the reference timed against itself differs by \(Formatting.ratio(noise.p50.value)) at p50 and \(Formatting.ratio(noise.p99.value)) at p99; smaller differences between backends are not findings."
      )
    }
    if results.metadata.buildConfiguration != "release" {
      out.append(
        "**Debug build**: these numbers say little about an app; run `swift run -c release citybench bench`.")
    }
    if let slowdowns = results.metadata.slowdownSummary {
      out.append("**Injected slowdown** per answer (\(slowdowns)): not a real measurement.")
    }
    return out
  }

  /// Whether this run agrees with the library's choice (``RunMetadata/shippedBackend``), and
  /// why the library keeps it when it does not: the choice weighs every tier together, which one
  /// run of one tier does not overturn. `nil` when the run recorded no choice.
  static func shippedSentence(_ results: BenchResults, best: BackendResults, tied: [BackendResults]) -> String? {
    guard let shipped = results.metadata.shippedBackend else { return nil }
    let library = "The library's `SwiftBackends.fastest` ships **\(shipped)**"
    if shipped == best.name { return library + ", this run's choice too." }
    let why =
      "it was chosen on every tier together (the least heap kept on each, the fastest p99 on the largest), which one run of one tier does not overturn"
    if tied.contains(where: { $0.name == shipped }) {
      return library + ", tied with \(best.name) in this run; \(why)."
    }
    guard let theirs = results.backend(named: shipped), let p99 = theirs.latency?.p99.value,
      let bestP99 = best.latency?.p99.value
    else {
      return library + ", not timed in this run."
    }
    if theirs.conformance.divergences > 0 {
      return library + ", which diverged from the reference in this run: a defect to fix before shipping it."
    }
    return library
      + ": p99 \(Formatting.duration(nanoseconds: p99)) here, \(Formatting.ratio(p99 / max(bestP99, 1))) \(best.name)'s; \(why)."
  }

  /// The verdict against the keystroke budget (``RunMetadata/keystrokeBudgetNanoseconds``, one
  /// 60 Hz frame by default): how many times the fastest backend's p99 fits in it, and which
  /// timed backends' p99 fit and which do not, the reference included.
  static func budgetSentence(_ results: BenchResults, ranked: [BackendResults]) -> String {
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    let budget = results.metadata.keystrokeBudgetNanoseconds ?? frameNanoseconds
    let named = budget == frameNanoseconds ? "one 60 Hz frame" : "--budget-ms"
    var sentence = "Budget per keystroke \(ns(budget)) (\(named))"
    if let best = ranked.first, let p99 = best.latency?.p99.value {
      sentence += ": \(best.name)'s p99 fits \(Formatting.count(Int(budget / max(p99, 1)))) times"
    }
    let timed = results.backends.filter { $0.external == nil && $0.latency != nil }
    let over = timed.filter { $0.latency!.p99.value > budget }
    if over.isEmpty {
      sentence += "; every timed backend's p99 is within it, the reference's included"
    } else {
      sentence +=
        "; over it at p99: "
        + over.map { "\($0.name) (\(ns($0.latency!.p99.value)))" }.joined(separator: ", ")
    }
    return sentence + "."
  }

  /// `36× faster` or `2.5× slower`, from a paired ratio (backend time over reference time).
  static func speedup(_ ratio: Double) -> String {
    let factor = ratio < 1 ? 1 / ratio : ratio
    let number = factor < 10 ? String(format: "%.1f×", factor) : String(format: "%.0f×", factor)
    return ratio < 1 ? "\(number) faster" : "\(number) slower"
  }

  /// The two memory figures under the names the build table gives them: the index's own
  /// count of its bytes, and the heap the build kept (the allocator's in-use bytes after the
  /// build less before).
  static func memory(_ b: BackendResults) -> String {
    var parts: [String] = []
    if b.build.countedBytes > 0 { parts.append("index \(megabytes(b.build.countedBytes)) (counted)") }
    if let heap = b.build.heapBytes { parts.append("heap kept \(megabytes(heap))") }
    return parts.isEmpty ? "memory not measured" : parts.joined(separator: ", ")
  }
}
