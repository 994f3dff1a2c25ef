import CitySearch
import CitySearchTestSupport
import Testing

/// The canonical pinyin of polyphonic county-level-and-above names, checked by hand
/// (Corpus/README.md, "Canonical pinyin").
@Suite(.timed) struct ReviewedReadingsTests {
  static let readings: [(String, String)] = [
    ("长沙市", "chang sha shi"), ("长春市", "chang chun shi"), ("长治市", "chang zhi shi"), ("长子县", "zhang zi xian"),
    ("长安区", "chang an qu"), ("长宁区", "chang ning qu"), ("延长县", "yan chang xian"),
    ("长白朝鲜族自治县", "chang bai chao xian zu zi zhi xian"),
    ("厦门市", "xia men shi"), ("重庆市", "chong qing shi"), ("六安市", "lu an shi"), ("六合区", "lu he qu"),
    ("六盘水市", "liu pan shui shi"), ("六枝特区", "liu zhi te qu"), ("蚌埠市", "beng bu shi"), ("蚌山区", "beng shan qu"),
    ("漯河市", "luo he shi"), ("朝阳区", "chao yang qu"), ("朝阳市", "chao yang shi"), ("单县", "shan xian"),
    ("乐清市", "yue qing shi"), ("乐亭县", "lao ting xian"), ("乐山市", "le shan shi"), ("乐都区", "le du qu"),
    ("南乐县", "nan le xian"), ("民乐县", "min le xian"), ("成都市", "cheng du shi"), ("都江堰市", "du jiang yan shi"),
    ("丰都县", "feng du xian"), ("三都水族自治县", "san du shui zu zi zhi xian"), ("闵行区", "min hang qu"),
    ("行唐县", "xing tang xian"),
    ("番禺区", "pan yu qu"), ("尉犁县", "yu li xian"), ("尉氏县", "wei shi xian"), ("蔚县", "yu xian"),
    ("栖霞市", "qi xia shi"), ("泌阳县", "bi yang xian"), ("浚县", "xun xian"), ("会理市", "hui li shi"),
    ("洪洞县", "hong tong xian"), ("吴堡县", "wu bu xian"), ("大埔县", "da bu xian"), ("黄埔区", "huang pu qu"),
    ("西藏自治区", "xi zang zi zhi qu"), ("库尔勒市", "ku er le shi"), ("喀什地区", "ka shi di qu"), ("什邡市", "shi fang shi"),
    ("莘县", "shen xian"), ("中牟县", "zhong mu xian"), ("牟平区", "mu ping qu"), ("召陵区", "shao ling qu"),
    ("荥阳市", "xing yang shi"), ("荥经县", "ying jing xian"), ("铅山县", "yan shan xian"), ("涡阳县", "guo yang xian"),
    ("珲春市", "hun chun shi"), ("色达县", "se da xian"), ("扎囊县", "zha nang xian"), ("东阿县", "dong e xian"),
    ("宿州市", "su zhou shi"), ("覃塘区", "tan tang qu"), ("筠连县", "jun lian xian"), ("枞阳县", "zong yang xian"),
    ("犍为县", "qian wei xian"), ("称多县", "chen duo xian"), ("宕昌县", "tan chang xian"), ("石鼓区", "shi gu qu"),
    ("万柏林区", "wan bai lin qu"), ("麦盖提县", "mai gai ti xian"), ("红寺堡区", "hong si bu qu"), ("龙圩区", "long xu qu"),
    ("阿里地区", "a li di qu"), ("绿春县", "lv chun xian"),
    ("句容市", "ju rong shi"), ("台州市", "tai zhou shi"), ("天台县", "tian tai xian"), ("繁峙县", "fan shi xian"),
  ]

  @Test func atLeastSixtyNames() { #expect(Self.readings.count >= 60) }

  @Test(arguments: readings)
  func canonicalPinyin(_ name: String, _ pinyin: String) {
    let corpus = Fixtures.cities
    let matches = (0..<corpus.count).filter { corpus.name(at: $0) == name }
    #expect(!matches.isEmpty, "\(name) is not in the cities tier")
    for index in matches {
      #expect(corpus.place(at: index).pinyin.joined(separator: " ") == pinyin, "\(name)")
      #expect(corpus.level(at: index) <= .county)
    }
  }

  /// Every county-level-and-above place whose name holds a character of `polyphones.tsv` has
  /// the reading reviewed in `Corpus/review/county-readings.tsv`, and that file lists nothing
  /// else: a new polyphone, or a changed reading, fails here until its names are reviewed.
  @Test func everyPolyphonicCountyNameHasItsReviewedReading() throws {
    let path = Fixtures.packageRoot.appendingPathComponent("Corpus/review/county-readings.tsv")
    let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.first == "id\tname\tpinyin")
    var reviewed: [PlaceID: String] = [:]
    for line in lines.dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(fields.count == 3, "\(line)")
      reviewed[try #require(PlaceID(fields[0]))] = "\(fields[1]) \(fields[2])"
    }
    let corpus = Fixtures.cities
    let polyphones = Set(Fixtures.tables.polyphones.keys)
    var committed: [PlaceID: String] = [:]
    for index in 0..<corpus.count where corpus.name(at: index).unicodeScalars.contains(where: polyphones.contains) {
      committed[corpus.id(at: index)] =
        "\(corpus.name(at: index)) \(corpus.place(at: index).pinyin.joined(separator: " "))"
    }
    #expect(committed.count > 300)
    for (id, reading) in committed where reviewed[id] != reading {
      Issue.record("\(id) \(reading): reviewed as \(reviewed[id] ?? "nothing")")
    }
    for (id, reading) in reviewed where committed[id] == nil {
      Issue.record("\(id) \(reading) is reviewed but holds no polyphonic character, or is not in the corpus")
    }
  }

  /// One township per reading rule of Corpus/README.md ("Reading rules"), by id.
  static let townshipRules: [(String, String)] = [
    ("140725100", "朝阳镇 chao yang zhen"),  // 朝阳 is chao yang
    ("130683102", "石佛镇 shi fo zhen"),  // 佛 is fo
    ("120102001", "大王庄街道 da wang zhuang jie dao"),  // 大 is da
    ("130723206", "处长地乡 chu chang di xiang"),  // 地 is di
    ("500106108", "曾家镇 zeng jia zhen"),  // 曾 is zeng
    ("230203005", "卜奎街道 bu kui jie dao"),  // 卜 is bu
    ("350105100", "马尾镇 ma wei zhen"),  // 尾 is wei
    ("441900116", "塘厦镇 tang xia zhen"),  // 厦 is xia …
    ("440511015", "广厦街道 guang sha jie dao"),  // … but sha in 广厦 and 大厦
    ("231224101", "民乐镇 min le zhen"),  // 民乐 is min le
    ("450107010", "心圩街道 xin xu jie dao"),  // 圩 is xu in the south …
    ("340406103", "平圩镇 ping wei zhen"),  // … and wei on the Huai
    ("440115104", "东涌镇 dong chong zhen"),  // 涌 is chong in Guangdong …
    ("331082110", "涌泉镇 yong quan zhen"),  // … and yong elsewhere
    ("310113112", "庙行镇 miao hang zhen"),  // 行 is hang in Shanghai
    ("610112001", "张家堡街道 zhang jia bu jie dao"),  // 堡 is bu in Shaanxi and Ningxia
    ("210213033", "三十里堡街道 san shi li pu jie dao"),  // N里堡 is pu …
    ("150785004", "好里堡街道 hao li bao jie dao"),  // … only after a numeral
    ("650107004", "柴窝堡街道 chai wo pu jie dao"),  // 窝堡 is wo pu
    ("431225102", "堡子镇 bu zi zhen"),  // 堡子 is bu zi
    ("130802102", "牛圈子沟镇 niu juan zi gou zhen"),  // 圈 is juan in a pen
    ("610324106", "召公镇 shao gong zhen"),  // 召公 is shao gong
    ("370211109", "藏马镇 cang ma zhen"),  // 藏马 is cang ma
    ("421125108", "洗马镇 xi ma zhen"),  // 洗马 is xi ma
    ("110106015", "马家堡街道 ma jia pu jie dao"),  // a reviewed override
  ]

  @Test(arguments: townshipRules)
  func townshipReadingRule(_ id: String, _ reading: String) throws {
    let corpus = Fixtures.towns
    let index = try #require(PlaceID(id).flatMap(corpus.index(of:)), "\(id) is not in towns")
    #expect("\(corpus.name(at: index)) \(corpus.place(at: index).pinyin.joined(separator: " "))" == reading)
  }
}
