// The writer side of the method cache: inserts, growth and retirement, all under the runtime lock.
#include "CObjCRuntime.h"

#include <stdlib.h>

// The empty buffer, with the layout of swk_cache_buffer and its flexible array spelled out (a
// flexible array member cannot be initialized statically).
static const struct {
  uintptr_t mask;
  uintptr_t occupied;
  swk_cache_buffer *retired_next;
  swk_cache_entry entries[1];
} swk_empty_storage = {0, 0, NULL, {{NULL, NULL}}};

// Replaced buffers, kept for readers that may still hold them. Written under the runtime lock.
static swk_cache_buffer *swk_retired_buffers = NULL;

const swk_cache_buffer *swk_cache_empty_buffer(void) {
  return (const swk_cache_buffer *)&swk_empty_storage;
}

static int swk_is_empty_buffer(const swk_cache_buffer *buffer) {
  return buffer == swk_cache_empty_buffer();
}

static size_t swk_buffer_size(uintptr_t capacity) {
  return sizeof(swk_cache_buffer) + capacity * sizeof(swk_cache_entry);
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

swk_cache_buffer *swk_cache_insert(const swk_cache_buffer *buffer, const void *key, const void *value) {
  uintptr_t capacity = buffer->mask + 1;
  // Keep the table at most three quarters full so that probes stay short and always end.
  if (!swk_is_empty_buffer(buffer) && (buffer->occupied + 1) * 4 <= capacity * 3) {
    swk_cache_buffer *writable = (swk_cache_buffer *)buffer;
    swk_buffer_store(writable, key, value);
    return writable;
  }
  uintptr_t new_capacity = swk_is_empty_buffer(buffer) ? 8 : capacity * 2;
  swk_cache_buffer *grown = calloc(1, swk_buffer_size(new_capacity));
  if (grown == NULL) {
    return NULL;
  }
  grown->mask = new_capacity - 1;
  if (!swk_is_empty_buffer(buffer)) {
    for (uintptr_t i = 0; i < capacity; i++) {
      if (buffer->entries[i].key != NULL) {
        swk_buffer_store(grown, buffer->entries[i].key, buffer->entries[i].value);
      }
    }
  }
  swk_buffer_store(grown, key, value);
  swk_cache_retire(buffer);
  return grown;
}

int swk_cache_retire(const swk_cache_buffer *buffer) {
  if (swk_is_empty_buffer(buffer)) {
    return 0;
  }
  swk_cache_buffer *retired = (swk_cache_buffer *)buffer;
  retired->retired_next = swk_retired_buffers;
  swk_retired_buffers = retired;
  return retired->occupied > 0;
}


uintptr_t swk_msgForward(id self, SEL _cmd) {
  (void)self;
  (void)_cmd;
  return 0;
}
