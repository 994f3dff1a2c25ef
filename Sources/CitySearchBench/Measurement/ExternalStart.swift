import CitySearch
import CitySearchExecutor

/// An implementation in another process as a run starts it: its executor once the handshake
/// succeeded, or why it did not start.
public struct ExternalStart {
  /// The name and command it was given.
  public let spec: ExecutorSpec
  /// The running executor; `nil` when it did not start.
  public let executor: ProcessExecutor?
  /// Why it did not start (the handshake's error), when it did not.
  public let failure: String?

  /// Starts `spec` over `corpus`, loaded from the file at `path` in `format`, for answers in
  /// `mode` of `limit` hits, queries read with the fuzzy rules `fuzzy`. A failure to start is
  /// kept, not thrown, so that the run goes on with the other implementations and reports it.
  public static func start(
    _ spec: ExecutorSpec, corpus: Corpus, path: String, format: String, mode: MatchMode, limit: Int,
    fuzzy: FuzzyRules = []
  ) -> ExternalStart {
    do {
      let executor = try ProcessExecutor(
        name: spec.name, command: spec.command, corpus: corpus, corpusPath: path, corpusFormat: format, mode: mode,
        limit: limit, fuzzy: fuzzy)
      return ExternalStart(spec: spec, executor: executor, failure: nil)
    } catch {
      return ExternalStart(spec: spec, executor: nil, failure: "\(error)")
    }
  }

  /// One line for the run's log: what it reported of its build, or why it did not start.
  public var summary: String {
    guard let reply = executor?.reply else { return "did not start: \(failure ?? "")" }
    var parts = [
      "\(reply.name) \(reply.implementationVersion), external",
      String(format: "built in %.3f s (its own figure)", Double(reply.buildNanoseconds) / 1e9),
    ]
    if reply.memoryBytes > 0 { parts.append("memory \(megabytes(reply.memoryBytes)) (its own figure)") }
    let c = reply.capabilities
    let offers = [
      (c.ranked, "ranked"), (c.matchRanges, "ranges"), (c.exactTotals, "exact totals"), (c.sessions, "sessions"),
    ]
    parts.append("offers " + (offers.filter(\.0).map(\.1).joined(separator: ", ").nonEmpty ?? "a set of ids"))
    return parts.joined(separator: ", ")
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
