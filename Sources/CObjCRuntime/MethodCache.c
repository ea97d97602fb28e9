// The writer side of the method cache: inserts, growth and flushes, all under the runtime lock.
#include "CObjCRuntime.h"

#include <stdlib.h>
#include <string.h>

// The buffer every empty cache points at: capacity 1, one entry whose NULL key makes every
// probe miss at once, never written. It has the layout of swk_cache_buffer with its flexible
// array spelled out, since a flexible array member cannot be initialized statically.
static const struct {
  uintptr_t mask;
  uintptr_t occupied;
  swk_cache_buffer *retired_next;
  swk_cache_entry entries[1];
} swk_empty_storage = {0, 0, NULL, {{NULL, NULL}}};

#define swk_empty_cache_buffer (*(const swk_cache_buffer *)&swk_empty_storage)

// Replaced buffers, kept for readers that may still hold them. Written under the runtime lock.
static swk_cache_buffer *swk_retired_buffers = NULL;
static uintptr_t swk_retired_byte_count = 0;

static size_t swk_buffer_size(uintptr_t capacity) {
  return sizeof(swk_cache_buffer) + capacity * sizeof(swk_cache_entry);
}

static swk_cache_buffer *swk_buffer_create(uintptr_t capacity) {
  swk_cache_buffer *buffer = calloc(1, swk_buffer_size(capacity));
  if (buffer != NULL) {
    buffer->mask = capacity - 1;
  }
  return buffer;
}

static int swk_buffer_is_empty_sentinel(const swk_cache_buffer *buffer) {
  return buffer == &swk_empty_cache_buffer;
}

static void swk_buffer_retire(swk_cache_buffer *buffer) {
  if (swk_buffer_is_empty_sentinel(buffer)) {
    return;
  }
  buffer->retired_next = swk_retired_buffers;
  swk_retired_buffers = buffer;
  swk_retired_byte_count += swk_buffer_size(buffer->mask + 1);
}

static void swk_buffer_store(swk_cache_buffer *buffer, const void *key, const void *value) {
  uintptr_t mask = buffer->mask;
  uintptr_t index = swk_cache_hash(key, mask);
  for (;;) {
    const void *found = buffer->entries[index].key;
    if (found == key) {
      __atomic_store_n(&buffer->entries[index].value, value, __ATOMIC_RELEASE);
      return;
    }
    if (found == NULL) {
      __atomic_store_n(&buffer->entries[index].value, value, __ATOMIC_RELAXED);
      __atomic_store_n(&buffer->entries[index].key, key, __ATOMIC_RELEASE);
      buffer->occupied += 1;
      return;
    }
    index = (index + 1) & mask;
  }
}

swk_cache *swk_cache_create(void) {
  swk_cache *cache = malloc(sizeof(swk_cache));
  if (cache != NULL) {
    cache->buffer = (swk_cache_buffer *)&swk_empty_cache_buffer;
  }
  return cache;
}

int swk_cache_insert(swk_cache *cache, const void *key, const void *value) {
  swk_cache_buffer *buffer = cache->buffer;
  uintptr_t capacity = buffer->mask + 1;
  // Keep the table at most three quarters full so that probes stay short and always end.
  if (swk_buffer_is_empty_sentinel(buffer) || (buffer->occupied + 1) * 4 > capacity * 3) {
    uintptr_t new_capacity = swk_buffer_is_empty_sentinel(buffer) ? 8 : capacity * 2;
    swk_cache_buffer *grown = swk_buffer_create(new_capacity);
    if (grown == NULL) {
      return -1;
    }
    if (!swk_buffer_is_empty_sentinel(buffer)) {
      for (uintptr_t i = 0; i < capacity; i++) {
        if (buffer->entries[i].key != NULL) {
          swk_buffer_store(grown, buffer->entries[i].key, buffer->entries[i].value);
        }
      }
    }
    swk_buffer_store(grown, key, value);
    __atomic_store_n(&cache->buffer, grown, __ATOMIC_RELEASE);
    swk_buffer_retire(buffer);
    return 0;
  }
  swk_buffer_store(buffer, key, value);
  return 0;
}

int swk_cache_flush(swk_cache *cache) {
  swk_cache_buffer *buffer = cache->buffer;
  if (swk_buffer_is_empty_sentinel(buffer)) {
    return 0;
  }
  __atomic_store_n(&cache->buffer, (swk_cache_buffer *)&swk_empty_cache_buffer, __ATOMIC_RELEASE);
  swk_buffer_retire(buffer);
  return 1;
}

uintptr_t swk_cache_count(const swk_cache *cache) {
  return cache->buffer->occupied;
}

uintptr_t swk_cache_capacity(const swk_cache *cache) {
  return swk_buffer_is_empty_sentinel(cache->buffer) ? 0 : cache->buffer->mask + 1;
}

uintptr_t swk_cache_retired_bytes(void) {
  return swk_retired_byte_count;
}

uintptr_t swk_msgForward(id self, SEL _cmd) {
  (void)self;
  (void)_cmd;
  return 0;
}
