#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to start loading the cache line at `address` for writing. A hint only: it
/// never faults, whatever the address, and changes nothing a program can observe. Swift has no
/// way to say this itself.
static inline void livery_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
