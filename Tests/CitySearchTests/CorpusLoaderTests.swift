import CitySearch
import CitySearchICU
import CitySearchTestSupport
import Foundation
import Testing

/// The corpus formats and every malformed-corpus error (the message names file, line, problem).
@Suite(.timed) struct CorpusLoaderTests {
  static let header = "id\tparent\tlevel\tname\tpinyin\tshort\thot\n"

  func loadError(_ body: String, file: String = "bad.tsv") -> CorpusError? {
    do {
      _ = try Fixtures.corpus(tsv: Self.header + body, name: file)
      return nil
    } catch let error as CorpusError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  @Test func tsvRoundTrip() throws {
    let corpus = try Fixtures.corpus(
      tsv: Self.header + "1\t0\t1\t北京市\tbei jing shi\t北京\t1\n2\t1\t3\t朝阳区\tchao yang qu\t\t0\n")
    #expect(corpus.count == 2)
    #expect(
      corpus.place(at: 1)
        == Place(
          id: 2, parentID: 1, level: .county, name: "朝阳区", pinyin: ["chao", "yang", "qu"], shortName: "朝阳", isHot: false
        ))
    #expect(corpus.isHot(at: 0))
  }

  @Test func tsvAcceptsAByteOrderMark() throws {
    let corpus = try Fixtures.corpus(tsv: "\u{FEFF}" + Self.header + "1\t0\t1\t北京市\tbei jing shi\t\t\n")
    #expect(corpus.count == 1)
  }

  @Test func tsvAcceptsCRLFAndBlankLines() throws {
    let corpus = try Fixtures.corpus(
      tsv: "id\tparent\tlevel\tname\tpinyin\tshort\thot\r\n1\t0\t1\t北京市\tbei jing shi\t\t\r\n\r\n")
    #expect(corpus.count == 1)
  }

  @Test func malformedRowsNameFileLineAndProblem() {
    #expect(loadError("1\t0\t1\t北京市\tbei jing shi\n")?.description == "bad.tsv:2: missing column 'short'")
    #expect(
      loadError("x1\t0\t1\t北京市\tbei jing shi\t\t\n")?.description
        == "bad.tsv:2: bad id 'x1': expected a non-negative integer")
    #expect(
      loadError("0\t0\t1\t北京市\tbei jing shi\t\t\n")?.description == "bad.tsv:2: bad id '0': ids are positive integers")
    #expect(loadError("1\t0\t9\t北京市\tbei jing shi\t\t\n")?.description == "bad.tsv:2: bad level '9': levels are 1 to 5")
    #expect(
      loadError("1\t0\t1\t北京市\tbei jing shi\t\t\n1\t0\t1\t天津市\ttian jin shi\t\t\n")?.description
        == "bad.tsv:3: duplicate id 1 (first at bad.tsv:2)")
    #expect(loadError("1\t7\t1\t北京市\tbei jing shi\t\t\n")?.description == "bad.tsv:2: place 1 has unknown parent 7")
    #expect(
      loadError("1\t2\t1\t北京市\tbei jing shi\t\t\n2\t1\t2\t天津市\ttian jin shi\t\t\n")?.description
        == "bad.tsv:2: parent links form a cycle: 1 → 2 → 1")
    #expect(
      loadError("1\t0\t1\t北京市\tbei jing\t\t\n")?.description
        == "bad.tsv:2: bad pinyin 'bei jing': 2 syllables for the 3 characters of '北京市'")
    #expect(loadError("1\t0\t1\t北京市\tbei jing SHI\t\t\n")?.description.hasPrefix("bad.tsv:2: bad pinyin 'SHI'") == true)
    #expect(
      loadError("1\t0\t1\t北京市\tbei jing shi\t\t2\n")?.description == "bad.tsv:2: bad hot '2': expected 0, 1 or empty")
    #expect(loadError("1\t0\t1\t北京市\tbei jing shi\t南京\t\n")?.description.hasPrefix("bad.tsv:2: bad short '南京'") == true)
    #expect(
      loadError("1\t0\t1\t北京市\t\t\t\n")?.description == "bad.tsv:2: no pinyin for '北京市' and no pinyin source knows it")
    #expect(loadError("1\t0\t1\t\t\t\t\n")?.description.hasPrefix("bad.tsv:2: bad name ''") == true)
    #expect(loadError("")?.description == "bad.tsv: the corpus has no places")
  }

  @Test func invalidUTF8IsReportedWithItsLine() {
    var bytes = Array((Self.header + "1\t0\t1\t").utf8)
    bytes += [0xE5, 0x8C]  // a truncated character
    bytes += Array("\tbei\t\t\n".utf8)
    #expect(throws: CorpusError.invalidUTF8(RecordLocation(file: "bytes.tsv", line: 2))) {
      _ = try CorpusLoader.load(data: Data(bytes), name: "bytes.tsv", tables: Fixtures.tables)
    }
  }

  @Test func badHeaderIsReported() {
    #expect(throws: CorpusError.self) {
      _ = try CorpusLoader.load(data: Data("id,name\n1,x\n".utf8), name: "x.tsv", tables: Fixtures.tables)
    }
  }

  @Test func unreadableFile() {
    #expect(throws: CorpusError.unreadable(file: "/no/such/file.tsv", reason: "no such file")) {
      _ = try CorpusLoader.load(path: "/no/such/file.tsv", tables: Fixtures.tables)
    }
    #expect(throws: CorpusError.unreadable(file: "/tmp", reason: "it is a directory")) {
      _ = try CorpusLoader.load(path: "/tmp", tables: Fixtures.tables)
    }
  }

  @Test func jsonArray() throws {
    let corpus = try CorpusLoader.load(
      path: Fixtures.fixturePath("places.json"), tables: Fixtures.tables, pinyinSource: Self.pinyin)
    #expect(corpus.count == 3)
    #expect(corpus.place(at: 0).shortName == "湖南")
    #expect(corpus.place(at: 1).pinyin == ["chang", "sha", "shi"])
    #expect(corpus.isHot(at: 1))
    #expect(corpus.place(at: 2).pinyin == ["yue", "lu", "qu"])  // from the reviewed tier
    #expect(corpus.pathNames(to: 2) == ["湖南省", "长沙市", "岳麓区"])
  }

  @Test func jsonErrorsNameTheElement() {
    let json =
      #"[{"id": 1, "level": 1, "name": "北京市", "pinyin": "bei jing shi"}, {"id": 1, "level": 1, "name": "天津市", "pinyin": "tian jin shi"}]"#
    do {
      _ = try CorpusLoader.load(data: Data(json.utf8), name: "d.json", tables: Fixtures.tables)
      Issue.record("a duplicate id was accepted")
    } catch {
      #expect("\(error)" == "d.json: element 2: duplicate id 1 (first at d.json: element 1)")
    }
  }

  @Test func jsonErrors() {
    #expect(throws: CorpusError.missingColumn(RecordLocation(file: "j.json", line: 1, unit: .element), column: "id")) {
      _ = try CorpusLoader.load(
        data: Data(#"[{"name": "北京", "level": 1}]"#.utf8), name: "j.json", tables: Fixtures.tables)
    }
    #expect(throws: CorpusError.self) {
      _ = try CorpusLoader.load(data: Data("[{".utf8), name: "j.json", tables: Fixtures.tables)
    }
  }

  static let pinyin: any PinyinSource = ChainedPinyinSource([
    KnownNamesPinyin(corpus: Fixtures.towns), try! ICUPinyinSource(),
  ])

  @Test func sectionedCitiesPlist() throws {
    let corpus = try CorpusLoader.load(
      path: Fixtures.fixturePath("Cities.plist"), tables: Fixtures.tables, pinyinSource: Self.pinyin)
    #expect((0..<corpus.count).map(corpus.name(at:)) == ["北京", "朝阳区", "海淀区", "长沙", "岳麓区", "重庆"])
    #expect(corpus.level(at: 0) == .prefecture && corpus.level(at: 1) == .county)
    #expect(corpus.isHot(at: 0) && corpus.isHot(at: 5) && !corpus.isHot(at: 3))
    #expect(corpus.place(at: 3).pinyin == ["chang", "sha"])  // short name of 长沙市, reviewed
    #expect(corpus.place(at: 5).pinyin == ["chong", "qing"])
  }

  @Test func provincesArrayPlist() throws {
    let corpus = try CorpusLoader.load(
      path: Fixtures.fixturePath("cities.plist"), tables: Fixtures.tables, pinyinSource: Self.pinyin)
    #expect((0..<corpus.count).map(corpus.name(at:)) == ["湖南省", "长沙市", "株洲市", "福建省", "厦门市"])
    #expect(corpus.pathNames(to: 4) == ["福建省", "厦门市"])
    #expect(corpus.place(at: 4).pinyin == ["xia", "men", "shi"])
  }

  @Test func provincesDictionaryPlistFallsBackToICU() throws {
    let corpus = try CorpusLoader.load(
      path: Fixtures.fixturePath("provinces_cities.plist"), tables: Fixtures.tables, pinyinSource: Self.pinyin)
    let names = (0..<corpus.count).map(corpus.name(at:))
    #expect(names == ["安徽省", "六安市", "蚌埠市", "虚构省", "喆喆市", "重庆市", "重庆市"])
    #expect(corpus.place(at: 1).pinyin == ["lu", "an", "shi"])
    #expect(corpus.place(at: 4).pinyin == ["zhe", "zhe", "shi"])  // no reviewed entry: ICU
  }

  @Test func icuPinyinIsPlainICU() throws {
    let icu = try ICUPinyinSource()
    #expect(icu.pinyin(for: "长沙") == ["zhang", "sha"])  // why ICU comes last
    #expect(icu.pinyin(for: "绿A") == ["lv", "a"])
    #expect(ICUPinyinSource.toneless("lǜ") == "lv")
  }

  @Test func icuErrorsAreSwiftErrors() {
    #expect(throws: ICUError.self) { _ = try Transliterator(id: "No-Such-Transform") }
    #expect(throws: ICUError.self) { _ = try Transliterator(id: "broken", rules: "a > ;;; [") }
  }
}

/// Malformed input of every class: each refused with a bounded message that names the file,
/// the record, the problem and the limit (Corpus/README.md, "Limits").
@Suite(.timed) struct StrictInputTests {
  func error(json: String, file: String = "s.json") -> String {
    do {
      _ = try CorpusLoader.load(data: Data(json.utf8), name: file, tables: Fixtures.tables)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  func error(tsv: String) -> String {
    do {
      _ = try CorpusLoader.load(data: Data(tsv.utf8), name: "s.tsv", tables: Fixtures.tables)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  static let header = "id\tparent\tlevel\tname\tpinyin\tshort\thot"

  @Test func jsonFieldsOfTheWrongTypeAreRefused() {
    let place = #""level": 1, "name": "北京市", "pinyin": "bei jing shi""#
    #expect(error(json: #"[{"id": true, \#(place)}]"#) == "s.json: element 1: bad id 'true': expected an integer")
    #expect(error(json: #"[{"id": 1, "level": true, "name": "北京市"}]"#).contains("bad level 'true'"))
    #expect(error(json: #"[{"id": 1.5, \#(place)}]"#) == "s.json: element 1: bad id '1.5': expected an integer")
    #expect(
      error(json: #"[{"id": 12345678901234567890, \#(place)}]"#)
        == "s.json: element 1: bad id '12345678901234567890': too large: the largest accepted is 999999999999999999")
    #expect(error(json: #"[{"id": 1, \#(place), "hot": "yes"}]"#).hasSuffix("bad hot 'yes': expected true or false"))
    #expect(error(json: #"[{"id": 1, \#(place), "hot": 1}]"#).hasSuffix("bad hot '1': expected true or false"))
    #expect(error(json: #"[{"id": 1, "level": 1, "name": 7}]"#).hasSuffix("bad name '7': expected a string"))
    #expect(
      error(json: #"[{"id": 1, "level": 1, "name": "北京市", "pinyin": ["bei", 2]}]"#)
        .hasSuffix("bad pinyin 'an array': expected an array of strings or a string"))
    #expect(error(json: #"[{"id": 1, \#(place), "short": false}]"#).hasSuffix("bad short 'false': expected a string"))
    #expect(
      error(json: #"[{"id": 1, \#(place), "nmae": "x"}]"#)
        == "s.json: element 1: bad key 'nmae': not a field of the format (id, parent, level, name, pinyin, short, hot)")
    #expect(error(json: #"[{"id": 1, \#(place), "hot": true, "parent": null}]"#) == "accepted")
  }

  @Test func deepJSONIsRefusedByItsDepth() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(
      error(json: deep)
        == "s.json: unsupported corpus format: arrays and objects nest 33 deep at byte 32; the limit is 32")
  }

  @Test func deepPropertyListsAreRefusedByTheirDepth() {
    let level = "<array><dict><key>name</key><string>北京</string><key>c</key>"
    let plist =
      #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"# + String(repeating: level, count: 600)
      + "<array/>" + String(repeating: "</dict></array>", count: 600) + "</plist>"
    // Each level is an array and a dictionary: the 33rd element opened is level 17's array.
    let at = plist.range(of: String(repeating: level, count: 16))!.upperBound
    #expect(
      error(json: plist, file: "d.plist")
        == "d.plist: unsupported corpus format: arrays and dictionaries nest 33 deep at byte \(plist.utf8.distance(from: plist.startIndex, to: at)); the limit is 32"
    )
  }

  @Test func hugeValuesAreEchoedAsShortExcerpts() {
    let name = String(repeating: "x", count: 1_000_000)
    let message = error(json: #"[{"id": 1, "level": 1, "name": "\#(name)", "pinyin": "x"}]"#)
    #expect(message.utf8.count < 200, "\(message.utf8.count) bytes")
    #expect(message.contains("(1000000 bytes)"))
    let header = error(tsv: String(repeating: "a", count: 20_000))
    #expect(header.hasPrefix("s.tsv:1: bad header: expected 'id\tparent"), "\(header.prefix(100))")
    #expect(header.hasSuffix("…' (20000 bytes)"))
    #expect(header.utf8.count < 200)
    let line = error(tsv: Self.header + "\n" + String(repeating: "b", count: 100_000))
    #expect(line == "s.tsv:2: the line is over 65536 bytes long, the limit")
    // A control character is shown escaped, so a message stays on one line.
    #expect(CorpusError.quoted("a\u{1B}b") == #"'a\u{1B}b'"#)
  }

  @Test func lineEndsAndNumbers() {
    #expect(error(tsv: Self.header + "\r1\t0\t1\t北京市\t\t\t\r").hasPrefix("s.tsv:1: the line ends in a CR alone"))
    #expect(error(tsv: Self.header + "\r\n110000\t0\t1\t北京市\tbei jing shi\t北京\t1\r\n") == "accepted")
    #expect(
      error(tsv: Self.header + "\n1234567890123456789\t0\t1\t北京市\tbei jing shi\t\t\n")
        == "s.tsv:2: bad id '1234567890123456789': too large: the largest accepted is 999999999999999999")
    #expect(
      error(tsv: Self.header + "\n12a\t0\t1\t北京市\tbei jing shi\t\t\n")
        == "s.tsv:2: bad id '12a': expected a non-negative integer")
  }

  @Test func specialFilesAreNamed() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-strict-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("fifo.tsv").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: CorpusError.unreadable(file: fifo, reason: "it is a FIFO (named pipe), not a regular file")) {
      _ = try CorpusLoader.load(path: fifo, tables: Fixtures.tables)
    }
    #expect(throws: CorpusError.unreadable(file: "/dev/null", reason: "it is a device, not a regular file")) {
      _ = try CorpusLoader.readFile("/dev/null", limit: 1)
    }
    let big = directory.appendingPathComponent("big.tsv").path
    try Data(count: 2_000).write(to: URL(fileURLWithPath: big))
    #expect(throws: CorpusError.tooLarge(file: big, bytes: 2_000, limit: 1_000)) {
      _ = try CorpusLoader.readFile(big, limit: 1_000)
    }
  }

  @Test func textLinesSplitsLFAndCRLFAndRefusesCRAlone() throws {
    #expect(try TextLines.split("a\tb\r\nc\nd") == ["a\tb", "c", "d"])
    #expect(try TextLines.split("a\n\nb\n") == ["a", "", "b"])
    #expect(try TextLines.split("") == [])
    #expect(throws: TextLines.Problem(line: 2, message: TextLines.crAloneMessage)) {
      _ = try TextLines.split("a\nb\rc")
    }
    #expect(throws: TextLines.Problem(line: 1, message: "the line is over 4 bytes long, the limit")) {
      _ = try TextLines.split("abcdef", maximumBytes: 4)
    }
  }

  @Test func aPropertyListProvinceWithOneCityKeepsIt() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>\
      <key>广东</key><string>广州</string><key>湖南</key><array><string>长沙</string></array></dict></plist>
      """
    let corpus = try CorpusLoader.load(
      data: Data(plist.utf8), name: "p.plist", tables: Fixtures.tables, pinyinSource: CorpusLoaderTests.pinyin)
    #expect((0..<corpus.count).map { corpus.place(at: $0).name } == ["广东", "广州", "湖南", "长沙"])
  }
}
