/**
 * An immutable bounded list: pushing past the capacity drops the oldest
 * items, so the log of a run that goes on for days keeps a fixed size.
 */
export interface Ring<T> {
  readonly items: readonly T[];
  readonly capacity: number;
  /** How many items fell off the front so far. */
  readonly dropped: number;
}

export function emptyRing<T>(capacity: number): Ring<T> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity ${capacity}`);
  return { items: [], capacity, dropped: 0 };
}

export function pushRing<T>(ring: Ring<T>, item: T): Ring<T> {
  if (ring.items.length < ring.capacity) return { ...ring, items: [...ring.items, item] };
  return { ...ring, items: [...ring.items.slice(1), item], dropped: ring.dropped + 1 };
}

/** Replaces the newest item matching `match` (searching from the end); unchanged when none does. */
export function updateLast<T, U extends T>(
  ring: Ring<T>,
  match: (item: T) => item is U,
  change: (item: U) => T,
): Ring<T> {
  for (let i = ring.items.length - 1; i >= 0; i--) {
    const item = ring.items[i];
    if (item !== undefined && match(item)) {
      const items = ring.items.slice();
      items[i] = change(item);
      return { ...ring, items };
    }
  }
  return ring;
}
