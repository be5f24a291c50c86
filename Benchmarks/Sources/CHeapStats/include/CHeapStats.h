#ifndef LIVERY_BENCH_HEAP_STATS_H
#define LIVERY_BENCH_HEAP_STATS_H

#include <stddef.h>

/// Bytes the process has in use from malloc right now (glibc's mallinfo2: uordblks + hblkhd,
/// summed over every arena), or 0 where mallinfo2 is not available.
size_t livery_bench_heap_in_use(void);

/// Returns freed memory at the top of the heap to the system, so RSS readings mean something.
void livery_bench_heap_trim(void);

#endif
