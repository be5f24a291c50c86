#include <stdlib.h>
#include "CHeapStats.h"

#if defined(__GLIBC__)
#include <malloc.h>

size_t livery_bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void livery_bench_heap_trim(void) { malloc_trim(0); }
#else
size_t livery_bench_heap_in_use(void) { return 0; }
void livery_bench_heap_trim(void) {}
#endif
