// The embedded tier and tables as C arrays filled by `#embed` (C23, in clang since 19): the
// compiler copies the files' bytes without parsing them, where a Swift array literal of the
// same bytes (`.embedInCode`) took about 110 s and 1.5 GB to type-check. The .tsv files beside
// this one are links to Corpus/; the compiler's dependency file names them, so editing one
// rebuilds this file.
#include "CCitySearchCorpusData.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

// Each file's accessor: its bytes, and their number in `count`.
#define CITYSEARCH_ACCESSOR(NAME)                                  \
  const unsigned char *citysearch_##NAME##_tsv(size_t *count) {   \
    *count = sizeof(NAME);                                         \
    return NAME;                                                   \
  }

static const unsigned char cities[] = {
#embed "cities.tsv"
};
CITYSEARCH_ACCESSOR(cities)

static const unsigned char polyphones[] = {
#embed "polyphones.tsv"
};
CITYSEARCH_ACCESSOR(polyphones)

static const unsigned char traditional[] = {
#embed "traditional.tsv"
};
CITYSEARCH_ACCESSOR(traditional)

static const unsigned char prominence[] = {
#embed "prominence.tsv"
};
CITYSEARCH_ACCESSOR(prominence)

static const unsigned char aliases[] = {
#embed "aliases.tsv"
};
CITYSEARCH_ACCESSOR(aliases)

static const unsigned char double_pinyin[] = {
#embed "double-pinyin.tsv"
};
CITYSEARCH_ACCESSOR(double_pinyin)

static const unsigned char zhuyin_keyboards[] = {
#embed "zhuyin-keyboards.tsv"
};
CITYSEARCH_ACCESSOR(zhuyin_keyboards)
