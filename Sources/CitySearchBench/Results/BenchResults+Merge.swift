/// A set of bench shards that cannot be merged: the reason, naming the file.
public struct MergeError: Error, CustomStringConvertible {
  public let description: String

  /// An error that says `description`.
  public init(_ description: String) { self.description = description }
}

extension BenchResults {
  /// Joins the shards of one bench run (`bench --shard K/N`, each timing the reference and its
  /// slice of the backends) into one run: every backend in the order of the whole selection,
  /// each with the results of the shard that timed it, so its paired ratios are to the
  /// reference timed beside it. The reference, its A/A noise floor and the relevance come from
  /// shard 1; the duration is the sum of the shards'.
  ///
  /// Refuses, naming the file: a whole run among the parts; parts of different runs (another
  /// commit, corpus, workload, mode, limit, rounds, warm-up, budget, build configuration,
  /// reference or selection); a shard missing or given twice.
  public static func merged(_ parts: [(name: String, results: BenchResults)]) throws -> BenchResults {
    guard let (firstName, first) = parts.first else { throw MergeError("no parts to merge") }
    guard let shard = first.metadata.shard else {
      throw MergeError("\(firstName) is a whole run, not a shard (written without --shard)")
    }
    var byIndex: [Int: String] = [:]
    for (name, part) in parts {
      guard let info = part.metadata.shard else {
        throw MergeError("\(name) is a whole run, not a shard (written without --shard)")
      }
      var mismatches = Gate.runSettingMismatches(baseline: first, current: part)
      if part.metadata.gitCommit != first.metadata.gitCommit {
        mismatches.append("commit \(part.metadata.gitCommit) vs \(first.metadata.gitCommit)")
      }
      if info.count != shard.count { mismatches.append("shard count \(info.count) vs \(shard.count)") }
      if info.backends != shard.backends {
        mismatches.append(
          "selection \(info.backends.joined(separator: ",")) vs \(shard.backends.joined(separator: ","))")
      }
      guard mismatches.isEmpty else {
        throw MergeError(
          "\(name) is not a shard of the same run as \(firstName): "
            + mismatches.joined(separator: "; ").replacingOccurrences(of: "vs baseline", with: "vs"))
      }
      if let other = byIndex[info.index] {
        throw MergeError("\(name) and \(other) are both shard \(info.index)/\(info.count)")
      }
      byIndex[info.index] = name
    }
    let missing = (1...shard.count).filter { byIndex[$0] == nil }
    guard missing.isEmpty else {
      throw MergeError(
        "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(shard.count)" }.joined(separator: ", ")) missing"
      )
    }
    var whole = first
    whole.metadata.shard = nil
    whole.metadata.mergedShards = shard.count
    whole.metadata.durationSeconds = parts.reduce(0) { $0 + $1.results.metadata.durationSeconds }
    whole.backends = try shard.backends.map { name in
      if name == first.reference { return first.backends[0] }
      let timed = parts.compactMap { part in part.results.backend(named: name).map { (part.name, $0) } }
      guard let (_, found) = timed.first, timed.count == 1 else {
        throw MergeError(
          timed.isEmpty
            ? "no shard timed \(name)"
            : "\(name) was timed by more than one shard (\(timed.map(\.0).joined(separator: ", ")))")
      }
      return found
    }
    return whole
  }
}
