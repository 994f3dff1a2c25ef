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

/// Whether this build can count instructions under Valgrind's callgrind: 1 when it was
/// compiled with <valgrind/callgrind.h>, 0 otherwise (then the two calls below do nothing).
int CSystemShim_callgrindCompiledIn(void);

/// 1 when the process runs under Valgrind (any tool), 0 otherwise.
int CSystemShim_runningOnValgrind(void);

/// Turns callgrind's instrumentation on (run with --instr-atstart=no), once the work not to be
/// measured is done: the code run before it leaves no cost centres behind, so each dump stays
/// cheap.
void CSystemShim_callgrindStartInstrumentation(void);

/// Zeroes callgrind's counters.
void CSystemShim_callgrindZero(void);

/// Turns collection on if it is off, off if it is on (run with --collect-atstart=no).
void CSystemShim_callgrindToggleCollect(void);

/// Writes the counters since the last zero as one dump: one `totals:` line in the output
/// file (written with --combine-dumps=yes), in call order.
void CSystemShim_callgrindDump(void);

/// Watches for Ctrl-C: from now on the first SIGINT sets the flag read by
/// `CSystemShim_interruptRequested`, writes `message` (copied, up to 511 bytes) to standard
/// error and restores the default action, so a second SIGINT ends the process at once. The
/// flag is set in the signal handler itself, on the thread the signal is delivered to, before
/// that thread runs another instruction of the program: a Ctrl-C delivered before a check is
/// seen by that check. Returns 0, or -1 with errno set.
int CSystemShim_watchInterrupts(const char *message);

/// 1 once a SIGINT has arrived after `CSystemShim_watchInterrupts`, 0 before.
int CSystemShim_interruptRequested(void);

/// The allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// the calling thread has made since it started, counted by this shim's wrappers of the C
/// library's allocator where it is glibc's; 0 elsewhere. Read it before and after a piece of
/// work on one thread to count that work's allocations.
uint64_t CSystemShim_allocationCount(void);

/// 1 when this build counts allocations (``CSystemShim_allocationCount``), 0 otherwise.
int CSystemShim_allocationCountingCompiledIn(void);

#endif
