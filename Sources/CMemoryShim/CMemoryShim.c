#include "CMemoryShim.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int64_t CMemoryShim_heapInUse(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}
