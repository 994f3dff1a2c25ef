import CitySearch

extension RelevanceEvaluation {
  /// Replays every target typed on `keyboard` (its pinyin's keys, each prefix read by the
  /// layout; style: the layout's name) or, without one, typed by a person who confuses what
  /// `fuzzy` pairs (style `fuzzy`: each syllable spelled as its first fuzzy spelling under the
  /// rules, ``WorkloadGenerator/confused(_:rules:)``, only the targets whose spelling changes), searched with
  /// `fuzzy` (MatchSpec §2.10, §3.5): how many keystrokes those typists need.
  ///
  /// - Complexity: one reference search per keystroke of every trace.
  public func run(on keyboard: Keyboard?, fuzzy: FuzzyRules) -> Report {
    var traces: [Trace] = []
    for place in 0..<corpus.count {
      let weight = Double(facts.prominence(at: place))
      guard weight > 0, targetScope.contains(place) else { continue }
      let syllables = corpus.pinyin(at: place)
      let style: String
      let text: String
      let read: (String) -> String
      if let keyboard {
        guard let keys = keyboard.type(syllables) else { continue }
        (style, text, read) = (keyboard.name, keys, keyboard.read)
      } else {
        let typed = WorkloadGenerator.confused(syllables, rules: fuzzy)
        guard typed != syllables else { continue }
        (style, text, read) = ("fuzzy", typed.joined(), { $0 })
      }
      traces.append(
        trace(place: place, style: style, weight: weight, text: text, start: {}) {
          reference.search(read($0), mode: .syllable, limit: Self.deepestRank, scope: scope, fuzzy: fuzzy)
        })
    }
    return Self.report(corpus: corpus.source, traces: traces, prominent: prominent)
  }
}
