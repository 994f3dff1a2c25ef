#ifndef CMEMORYSHIM_H
#define CMEMORYSHIM_H
#include <stdint.h>
/// Bytes of heap in use (glibc mallinfo2: in-use chunks plus mmapped blocks), or -1 where the
/// C library cannot tell.
int64_t CMemoryShim_heapInUse(void);
#endif
