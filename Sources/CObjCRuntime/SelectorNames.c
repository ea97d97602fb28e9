// The writer side of the selector table's slots: inserts and growth, under the table's lock.
#include "CObjCRuntime.h"

#include <stdlib.h>

// The buffer before the first name: one empty slot, so that a probe ends at once.
static struct {
  uintptr_t mask;
  uintptr_t occupied;
  swk_name_slot slots[1];
} swk_names_empty_storage = {0, 0, {{0, 0, NULL}}};

const swk_name_buffer *swk_selector_names = (const swk_name_buffer *)&swk_names_empty_storage;

// The capacity of the first real buffer: the names the runtime and the model register at start
// fit without a resize.
#define SWK_NAMES_FIRST_CAPACITY 2048

static void swk_names_fill(swk_name_slot *slot, uint64_t hash, uintptr_t length,
                           const uint8_t *name) {
  slot->hash = hash;
  slot->length = length;
  __atomic_store_n(&slot->name, name, __ATOMIC_RELEASE);
}

// A buffer of `capacity` slots (a power of two) holding the names of `from`, or NULL.
static swk_name_buffer *swk_names_grown(const swk_name_buffer *from, uintptr_t capacity) {
  swk_name_buffer *grown = calloc(1, sizeof(swk_name_buffer) + capacity * sizeof(swk_name_slot));
  if (grown == NULL) {
    return NULL;
  }
  grown->mask = capacity - 1;
  for (uintptr_t i = 0; i <= from->mask; i++) {
    const swk_name_slot *slot = &from->slots[i];
    if (slot->name == NULL) {
      continue;
    }
    uintptr_t index = (uintptr_t)slot->hash & grown->mask;
    while (grown->slots[index].name != NULL) {
      index = (index + 1) & grown->mask;
    }
    grown->slots[index] = *slot;
    grown->occupied += 1;
  }
  return grown;
}

void swk_names_insert(uintptr_t index, uint64_t hash, uintptr_t length, const uint8_t *name) {
  swk_name_buffer *buffer = (swk_name_buffer *)swk_selector_names;
  if (buffer == (swk_name_buffer *)&swk_names_empty_storage) {
    swk_name_buffer *first = swk_names_grown(buffer, SWK_NAMES_FIRST_CAPACITY);
    if (first == NULL) {
      abort();  // no memory for the first names: nothing could run
    }
    buffer = first;
    index = (uintptr_t)hash & buffer->mask;
    __atomic_store_n(&swk_selector_names, buffer, __ATOMIC_RELEASE);
  }
  swk_names_fill(&buffer->slots[index], hash, length, name);
  buffer->occupied += 1;
  if (buffer->occupied * 2 > buffer->mask + 1) {
    swk_name_buffer *grown = swk_names_grown(buffer, (buffer->mask + 1) * 2);
    if (grown != NULL) {
      // The replaced buffer stays allocated: readers may still be probing it.
      __atomic_store_n(&swk_selector_names, grown, __ATOMIC_RELEASE);
    } else if (buffer->occupied >= buffer->mask) {
      // One empty slot left and no memory to grow: a probe needs an empty slot to end at.
      abort();
    }
  }
}
