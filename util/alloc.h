/* The library's allocator: every allocation of solver/, collision/ and sim/ goes through
 * these, so an embedding program can supply its own (an arena, a counting or failing
 * allocator in tests). libccd and libxml2 keep allocating with libc's. */
#ifndef CS_ALLOC_H
#define CS_ALLOC_H

#include <stddef.h>

void *cs_malloc(size_t n);
void *cs_calloc(size_t n, size_t size);
void *cs_realloc(void *p, size_t n);
void cs_free(void *p);

/* The four functions with libc's meaning (NULL when memory cannot be had; free(NULL) does
 * nothing). */
typedef struct {
    void *(*malloc)(size_t);
    void *(*calloc)(size_t, size_t);
    void *(*realloc)(void *, size_t);
    void (*free)(void *);
} cs_allocator;

/* Use *a from now on (copied); NULL restores libc's. Switch only while the library holds
 * no memory from the previous allocator: a block is freed by the allocator in use then. */
void cs_set_allocator(const cs_allocator *a);

#endif
