// The search an iOS engineer reaches for first, as an executor (docs/Executors.md): every
// place name transliterated by Foundation's `StringTransform.mandarinToLatin` (ICU's
// Han-Latin rules, one reading per character, no polyphone table), its diacritics stripped,
// joined without spaces and cut to its initials; a keystroke is a substring test against the
// name, the joined reading and the initials, matches at the start first, then shorter names.
//
//     citybench bench --executor transliteration=.build/release/citybench-transliteration
import CitySearchExecutor
import Foundation

/// One place as this executor keeps it.
struct Entry {
  let id: Int64
  let name: String
  let joined: String
  let initials: String
}

/// The reading of `name`: lower-case Latin syllables, diacritics stripped.
func syllables(of name: String) -> [String] {
  let latin = name.applyingTransform(.mandarinToLatin, reverse: false) ?? name
  let plain = latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin
  return plain.lowercased().split(separator: " ").map(String.init)
}

/// Reads the TSV tier format (`id parent level name …`): the id and the name of every row.
func readCorpus(_ path: String, format: String) throws -> [Entry] {
  guard format == "tsv" else { throw WireError(kind: .incompatible, message: "reads TSV corpora only, not \(format)") }
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var entries: [Entry] = []
  for line in text.split(separator: "\n").dropFirst() where !line.hasPrefix("#") {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count > 3, let id = Int64(fields[0]) else { continue }
    let name = String(fields[3])
    let reading = syllables(of: name)
    entries.append(
      Entry(id: id, name: name, joined: reading.joined(), initials: String(reading.compactMap(\.first))))
  }
  return entries
}

/// The places whose name, joined reading or initials hold `query`: matches at the start
/// first, then shorter names; at most `limit` of them, and the total.
func search(_ entries: [Entry], _ query: String, limit: Int) -> (ids: [Int64], total: Int) {
  let needle = query.lowercased().filter { $0 != " " && $0 != "'" && $0 != "-" }
  guard !needle.isEmpty else { return ([], 0) }
  var hits: [(notAtStart: Bool, length: Int, id: Int64)] = []
  for entry in entries {
    let fields = [entry.name, entry.joined, entry.initials]
    guard fields.contains(where: { $0.contains(needle) }) else { continue }
    hits.append((!fields.contains { $0.hasPrefix(needle) }, entry.name.count, entry.id))
  }
  hits.sort { ($0.notAtStart ? 1 : 0, $0.length, $0.id) < ($1.notAtStart ? 1 : 0, $1.length, $1.id) }
  return (hits.prefix(limit).map(\.id), hits.count)
}

do {
  try WireServer.serve { request in
    let started = MonotonicClock.now()
    let entries = try readCorpus(request.corpusPath, format: request.corpusFormat)
    let reply = WireHandshake.Reply(
      name: "transliteration", implementationVersion: "Foundation StringTransform.mandarinToLatin",
      buildNanoseconds: MonotonicClock.now() - started, memoryBytes: 0,
      capabilities: ExecutorCapabilities(ranked: true, matchRanges: false, exactTotals: true, sessions: false))
    return (
      reply,
      { query in
        let start = MonotonicClock.now()
        let (ids, total) = search(entries, query.text, limit: request.limit)
        let elapsed = MonotonicClock.now() - start
        return WireAnswer(id: query.id, ids: ids, total: total, matches: nil, nanoseconds: elapsed)
      }
    )
  }
} catch {
  FileHandle.standardError.write(Data("citybench-transliteration: \(error)\n".utf8))
  exit(1)
}
