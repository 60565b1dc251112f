/* Allocation counter for tests linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc:
 * every allocation of the program (the library's included) adds one to alloc_count. */
#ifndef CS_TEST_ALLOC_COUNT_H
#define CS_TEST_ALLOC_COUNT_H

#include <stddef.h>

static long alloc_count;
void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t m, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n)
{
    __atomic_add_fetch(&alloc_count, 1, __ATOMIC_RELAXED); /* the solver's threads too */
    return __real_malloc(n);
}
void *__wrap_calloc(size_t m, size_t n)
{
    __atomic_add_fetch(&alloc_count, 1, __ATOMIC_RELAXED);
    return __real_calloc(m, n);
}
void *__wrap_realloc(void *p, size_t n)
{
    __atomic_add_fetch(&alloc_count, 1, __ATOMIC_RELAXED);
    return __real_realloc(p, n);
}

#endif
