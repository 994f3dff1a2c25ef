#ifndef CICUSHIM_H
#define CICUSHIM_H

// The package's whole C boundary to system ICU (libicu-dev). Only plain C types cross it, so
// that Swift never sees ICU's own headers (which clash with the copy bundled in Foundation).

#include <stdint.h>

typedef struct CICUShim_Transliterator CICUShim_Transliterator;

/// Opens a transliterator by id, or compiles one from rules when `rules` is not NULL.
/// On failure returns NULL, sets `*errorCode` (a UErrorCode) and, for rule errors, the line
/// and offset of the problem.
CICUShim_Transliterator *_Nullable CICUShim_transliterator_open(
    const uint16_t *_Nonnull id, int32_t idLength, const uint16_t *_Nullable rules, int32_t rulesLength,
    int32_t *_Nonnull errorCode, int32_t *_Nonnull parseLine, int32_t *_Nonnull parseOffset);

void CICUShim_transliterator_close(CICUShim_Transliterator *_Nullable transliterator);

/// Transliterates `buffer[0..<length]` in place. Returns the new length; when it exceeds
/// `capacity`, `*errorCode` is U_BUFFER_OVERFLOW_ERROR and the caller retries with more room.
int32_t CICUShim_transliterate(
    CICUShim_Transliterator *_Nonnull transliterator, uint16_t *_Nonnull buffer, int32_t length,
    int32_t capacity, int32_t *_Nonnull errorCode);

/// The symbolic name of a UErrorCode (`U_ILLEGAL_ARGUMENT_ERROR`).
const char *_Nonnull CICUShim_errorName(int32_t errorCode);

/// Whether `errorCode` is a failure (U_FAILURE).
int CICUShim_isFailure(int32_t errorCode);

/// The buffer-overflow code, for retry loops.
int32_t CICUShim_bufferOverflowError(void);

/// The linked ICU version as major, minor, milli, micro.
void CICUShim_version(uint8_t *_Nonnull out4);

#endif
