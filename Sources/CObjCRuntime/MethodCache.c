// The writer side of the method cache: inserts, growth and retirement, all under the runtime lock.
#include "CObjCRuntime.h"

#include <stdlib.h>

// The vacancy: laid out as a Method up to its selector, which is NULL, so that it matches no key.
static const struct {
  const void *header[2];
  const void *selector;
} swk_vacancy = {{NULL, NULL}, NULL};

#define SWK_VACANCY ((const void *)&swk_vacancy)

_Static_assert(SWK_METHOD_SELECTOR_OFFSET == 2 * sizeof(void *), "the vacancy's layout");

// The empty buffer, with the layout of swk_cache_buffer and its flexible array spelled out (a
// flexible array member cannot be initialized statically).
static const struct {
  uintptr_t mask;
  uintptr_t occupied;
  swk_cache_buffer *retired_next;
  const void *slots[1];
} swk_empty_storage = {0, 0, NULL, {SWK_VACANCY}};

// Replaced buffers, kept for readers that may still hold them. Written under the runtime lock.
static swk_cache_buffer *swk_retired_buffers = NULL;

const swk_cache_buffer *swk_cache_empty_buffer(void) {
  return (const swk_cache_buffer *)&swk_empty_storage;
}

static int swk_is_empty_buffer(const swk_cache_buffer *buffer) {
  return buffer == swk_cache_empty_buffer();
}

// A buffer of `capacity` vacant slots, or NULL.
static swk_cache_buffer *swk_buffer_make(uintptr_t capacity) {
  swk_cache_buffer *buffer = malloc(sizeof(swk_cache_buffer) + capacity * sizeof(void *));
  if (buffer == NULL) {
    return NULL;
  }
  buffer->mask = capacity - 1;
  buffer->occupied = 0;
  buffer->retired_next = NULL;
  for (uintptr_t i = 0; i < capacity; i++) {
    buffer->slots[i] = SWK_VACANCY;
  }
  return buffer;
}

static void swk_slot_store(swk_cache_buffer *buffer, uintptr_t index, const void *method) {
  __atomic_store_n(&buffer->slots[index], method, __ATOMIC_RELEASE);
}

// Places `method` in `buffer`: over the Method of the same selector when there is one, else in
// one of its two slots, moving the Methods in the way to their other slots (cuckoo hashing).
// Returns NULL when it is placed, or the Method left without a slot when a bounded walk found no
// room (a cycle at this size): the caller then builds a larger buffer with it.
static const void *swk_buffer_place(swk_cache_buffer *buffer, const void *method) {
  const void *key = swk_method_selector(method);
  uint64_t mix = swk_cache_mix(key);
  uintptr_t first = swk_cache_slot1(mix, buffer->mask);
  uintptr_t second = swk_cache_slot2(mix, buffer->mask);
  // The selector's own slot first (a new Method for it replaces the old), then a vacant one.
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < 2; i++) {
      uintptr_t index = i == 0 ? first : second;
      const void *held = buffer->slots[index];
      if (pass == 0 ? swk_method_selector(held) == key : held == SWK_VACANCY) {
        buffer->occupied += held == SWK_VACANCY;
        swk_slot_store(buffer, index, method);
        return NULL;
      }
    }
  }
  const void *carried = method;
  uintptr_t index = first;
  for (int kicks = 0; kicks < 64; kicks++) {
    const void *evicted = buffer->slots[index];
    swk_slot_store(buffer, index, carried);
    if (evicted == SWK_VACANCY) {
      buffer->occupied += 1;
      return NULL;
    }
    carried = evicted;
    uint64_t carried_mix = swk_cache_mix(swk_method_selector(carried));
    uintptr_t carried_first = swk_cache_slot1(carried_mix, buffer->mask);
    index = index == carried_first ? swk_cache_slot2(carried_mix, buffer->mask) : carried_first;
  }
  return carried;
}

// A new buffer of at least `capacity` slots holding every Method of `old` and `extra`; the size
// doubles while the Methods cannot all be placed, a few times at most. NULL when that fails or
// memory runs out.
static swk_cache_buffer *swk_buffer_grow(const swk_cache_buffer *old, uintptr_t capacity,
                                         const void *extra) {
  for (int attempt = 0; attempt < 4; attempt++, capacity *= 2) {
    swk_cache_buffer *built = swk_buffer_make(capacity);
    if (built == NULL) {
      return NULL;
    }
    const void *homeless = NULL;
    for (uintptr_t i = 0; homeless == NULL && !swk_is_empty_buffer(old) && i <= old->mask; i++) {
      if (old->slots[i] != SWK_VACANCY) {
        homeless = swk_buffer_place(built, old->slots[i]);
      }
    }
    if (homeless == NULL && extra != NULL) {
      homeless = swk_buffer_place(built, extra);
    }
    if (homeless == NULL) {
      return built;
    }
    free(built);
  }
  return NULL;
}

swk_cache_buffer *swk_cache_insert(const swk_cache_buffer *buffer, const void *method) {
  uintptr_t capacity = buffer->mask + 1;
  // Kept at most half full: two-choice hashing places keys reliably up to about that load.
  if (!swk_is_empty_buffer(buffer) && (buffer->occupied + 1) * 2 <= capacity) {
    swk_cache_buffer *writable = (swk_cache_buffer *)buffer;
    const void *homeless = swk_buffer_place(writable, method);
    if (homeless == NULL) {
      return writable;
    }
    // A walk that found no room left one Method (perhaps an older one) out of this buffer: it
    // goes to a larger one with the rest.
    swk_cache_buffer *grown = swk_buffer_grow(writable, capacity * 2, homeless);
    if (grown != NULL) {
      swk_cache_retire(buffer);
    }
    return grown != NULL ? grown : writable;
  }
  swk_cache_buffer *grown =
      swk_buffer_grow(buffer, swk_is_empty_buffer(buffer) ? 8 : capacity * 2, method);
  if (grown == NULL) {
    return NULL;
  }
  swk_cache_retire(buffer);
  return grown;
}

static uintptr_t swk_cache_flush_generation = 0;

// 1 until the first static object is made: no object's or record's first word is 1 (metadata is
// aligned; gcc's records hold zero or a class there).
uintptr_t swk_static_object_metadata = 1;

const uintptr_t *swk_cache_flush_generation_address(void) {
  return &swk_cache_flush_generation;
}

uintptr_t swk_cache_flush_generation_load(void) {
  return __atomic_load_n(&swk_cache_flush_generation, __ATOMIC_ACQUIRE);
}

void swk_cache_note_flush(void) {
  __atomic_add_fetch(&swk_cache_flush_generation, 1, __ATOMIC_RELEASE);
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

// MARK: - Address maps

static const struct {
  uintptr_t mask;
  uintptr_t occupied;
  swk_map_entry entries[1];
} swk_map_empty_storage = {0, 0, {{NULL, NULL}}};

// Replaced map buffers, kept for readers that may still hold them.
static swk_map_buffer *swk_map_retired[64];
static int swk_map_retired_count = 0;

const swk_map_buffer *swk_map_empty_buffer(void) {
  return (const swk_map_buffer *)&swk_map_empty_storage;
}

static void swk_map_store(swk_map_buffer *buffer, const void *key, const void *value) {
  uintptr_t index = swk_cache_slot1(swk_cache_mix(key), buffer->mask);
  for (;;) {
    const void *found = buffer->entries[index].key;
    if (found == key) {
      return;
    }
    if (found == NULL) {
      __atomic_store_n(&buffer->entries[index].value, value, __ATOMIC_RELAXED);
      __atomic_store_n(&buffer->entries[index].key, key, __ATOMIC_RELEASE);
      buffer->occupied += 1;
      return;
    }
    index = (index + 1) & buffer->mask;
  }
}

swk_map_buffer *swk_map_insert(const swk_map_buffer *buffer, const void *key, const void *value) {
  uintptr_t capacity = buffer->mask + 1;
  int is_empty = buffer == swk_map_empty_buffer();
  if (!is_empty && (buffer->occupied + 1) * 2 <= capacity) {
    swk_map_buffer *writable = (swk_map_buffer *)buffer;
    swk_map_store(writable, key, value);
    return writable;
  }
  uintptr_t grown_capacity = is_empty ? 16 : capacity * 2;
  swk_map_buffer *grown =
      calloc(1, sizeof(swk_map_buffer) + grown_capacity * sizeof(swk_map_entry));
  if (grown == NULL) {
    return NULL;
  }
  grown->mask = grown_capacity - 1;
  for (uintptr_t i = 0; !is_empty && i < capacity; i++) {
    if (buffer->entries[i].key != NULL) {
      swk_map_store(grown, buffer->entries[i].key, buffer->entries[i].value);
    }
  }
  swk_map_store(grown, key, value);
  // Doubling from 16, 64 buffers would hold more entries than memory: the list cannot fill.
  if (!is_empty && swk_map_retired_count < 64) {
    swk_map_retired[swk_map_retired_count++] = (swk_map_buffer *)buffer;
  }
  return grown;
}

static swk_forward_handler swk_forward_current_handler;

void swk_msgForward_set_handler(swk_forward_handler handler) {
  __atomic_store_n(&swk_forward_current_handler, handler, __ATOMIC_RELEASE);
}

uintptr_t swk_msgForward(id self, SEL _cmd, uintptr_t i0, uintptr_t i1, uintptr_t i2,
                         uintptr_t i3, double f0, double f1, double f2, double f3, double f4,
                         double f5, double f6, double f7) {
  swk_forward_handler handler = __atomic_load_n(&swk_forward_current_handler, __ATOMIC_ACQUIRE);
  if (handler == NULL) {
    return 0;
  }
  swk_forward_frame frame = {{i0, i1, i2, i3}, {f0, f1, f2, f3, f4, f5, f6, f7}};
  return handler(self, _cmd, &frame);
}
