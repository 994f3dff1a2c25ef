#ifndef CSYSTEMSHIM_H
#define CSYSTEMSHIM_H
#include <stdint.h>

/// Bytes of heap in use (glibc mallinfo2: in-use chunks plus mmapped blocks), or -1 where the
/// C library cannot tell.
int64_t CSystemShim_heapInUse(void);

/// Swaps two paths in one step (Linux renameat2 with RENAME_EXCHANGE): a reader sees one or
/// the other, never neither. Returns 0, or -1 with errno set (ENOSYS where the system has no
/// such call, EINVAL where the filesystem does not support it).
int CSystemShim_exchangePaths(const char *first, const char *second);

#endif
