/// "Did you mean …": the known name closest to a mistyped one.
enum Suggestion {
  /// The name of `names` nearest `input` by edit distance, when it is near enough to be what
  /// was meant (at most a third of its length, and at most 3 edits) or begins with `input`.
  static func closest(to input: String, among names: some Sequence<String>) -> String? {
    let typed = Array(input.lowercased())
    var best: (name: String, distance: Int)?
    for name in names {
      if typed.count >= 2 && name.lowercased().hasPrefix(input.lowercased()) && name != input { return name }
      let distance = editDistance(typed, Array(name.lowercased()))
      if distance < (best?.distance ?? Int.max) { best = (name, distance) }
    }
    guard let best, best.distance > 0, best.distance <= min(3, max(1, best.name.count / 3)) else { return nil }
    return best.name
  }

  /// `message` followed by `; did you mean 'NAME'?` when a name of `names` is close to `input`.
  static func message(_ message: String, for input: String, among names: some Sequence<String>) -> String {
    closest(to: input, among: names).map { "\(message); did you mean '\($0)'?" } ?? message
  }

  /// The Levenshtein distance between two strings of characters.
  ///
  /// - Complexity: O(*a* × *b*) time, O(*b*) space.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...max(a.count, 1) where !a.isEmpty {
      current[0] = i
      for j in 1...max(b.count, 1) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
