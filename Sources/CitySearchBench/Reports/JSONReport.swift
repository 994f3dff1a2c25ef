import CitySearch
import Foundation

/// The harness's JSON files (`results.json`, `verdict.json`): pretty-printed with sorted keys
/// and a final newline, so two runs diff line by line.
func reportJSON(_ value: some Encodable) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  var data = try encoder.encode(value)
  data.append(0x0A)
  return data
}

extension BenchResults {
  /// `results.json`.
  public func jsonData() throws -> Data { try reportJSON(self) }

  /// The query-length groups that hold at least one keystroke of some backend, in order.
  var measuredLengthGroups: [String] {
    BenchAnalysis.lengthGroups.map(\.label).filter { label in
      backends.contains { $0.byLength.contains { $0.group == label } }
    }
  }

  /// The largest results file read (a `cities` run's is about 60 KB).
  public static let maximumFileBytes = 64 << 20

  /// Reads a `results.json`; refuses a schema version this build does not know, and a file
  /// that measures nothing.
  public init(contentsOf path: String) throws {
    let data: Data
    do {
      data = try CorpusLoader.readFile(path, limit: Self.maximumFileBytes)
    } catch let error as CorpusError {
      throw ResultsFileError(path: path, message: error.reason)
    }
    struct Version: Decodable { var schemaVersion: Int? }
    guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
      throw ResultsFileError(path: path, message: "not a JSON object")
    }
    guard version.schemaVersion == BenchResults.currentSchemaVersion else {
      throw ResultsFileError(
        path: path,
        message:
          "schema version \(version.schemaVersion.map(String.init) ?? "missing"); this build reads version \(BenchResults.currentSchemaVersion)"
      )
    }
    do {
      self = try JSONDecoder().decode(BenchResults.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      let at = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
      throw ResultsFileError(path: path, message: "missing '\(at)'")
    } catch let DecodingError.typeMismatch(_, context) {
      throw ResultsFileError(
        path: path, message: "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
    } catch {
      throw ResultsFileError(path: path, message: "not a results file: \(error)")
    }
    // An empty measurement is not a result to gate or report.
    guard backend(named: reference) != nil else {
      throw ResultsFileError(
        path: path,
        message: backends.isEmpty
          ? "it measures no backend ('backends' is empty)" : "the reference '\(reference)' is not among its backends")
    }
  }
}

/// A results or baseline file that cannot be used.
public struct ResultsFileError: Error, CustomStringConvertible {
  /// The file.
  public let path: String
  /// What is wrong with it.
  public let message: String
  public var description: String { "\(path): \(message)" }
}
