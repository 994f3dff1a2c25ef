#include "CICUShim.h"

#include <unicode/utrans.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

CICUShim_Transliterator *CICUShim_transliterator_open(
    const uint16_t *id, int32_t idLength, const uint16_t *rules, int32_t rulesLength, int32_t *errorCode,
    int32_t *parseLine, int32_t *parseOffset) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError parseError = {0};
  UTransliterator *t = utrans_openU((const UChar *)id, idLength, UTRANS_FORWARD, (const UChar *)rules,
                                    rulesLength, &parseError, &status);
  *errorCode = (int32_t)status;
  *parseLine = parseError.line;
  *parseOffset = parseError.offset;
  if (U_FAILURE(status)) {
    if (t != NULL) utrans_close(t);
    return NULL;
  }
  return (CICUShim_Transliterator *)t;
}

void CICUShim_transliterator_close(CICUShim_Transliterator *transliterator) {
  if (transliterator != NULL) utrans_close((UTransliterator *)transliterator);
}

int32_t CICUShim_transliterate(CICUShim_Transliterator *transliterator, uint16_t *buffer, int32_t length,
                               int32_t capacity, int32_t *errorCode) {
  UErrorCode status = U_ZERO_ERROR;
  int32_t textLength = length;
  int32_t limit = length;
  utrans_transUChars((const UTransliterator *)transliterator, (UChar *)buffer, &textLength, capacity, 0,
                     &limit, &status);
  *errorCode = (int32_t)status;
  return textLength;
}

const char *CICUShim_errorName(int32_t errorCode) { return u_errorName((UErrorCode)errorCode); }

int CICUShim_isFailure(int32_t errorCode) { return U_FAILURE((UErrorCode)errorCode) ? 1 : 0; }

int32_t CICUShim_bufferOverflowError(void) { return (int32_t)U_BUFFER_OVERFLOW_ERROR; }

void CICUShim_version(uint8_t *out4) {
  UVersionInfo info;
  u_getVersion(info);
  for (int i = 0; i < 4; i++) out4[i] = info[i];
}
