#include "alloc.h"

#include <stdlib.h>

static const cs_allocator libc_allocator = {malloc, calloc, realloc, free};
static cs_allocator current = {malloc, calloc, realloc, free};

void cs_set_allocator(const cs_allocator *a) { current = a ? *a : libc_allocator; }

void *cs_malloc(size_t n) { return current.malloc(n); }

void *cs_calloc(size_t n, size_t size) { return current.calloc(n, size); }

void *cs_realloc(void *p, size_t n) { return current.realloc(p, n); }

void cs_free(void *p) { current.free(p); }
