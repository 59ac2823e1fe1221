/**
 * An immutable bounded list: pushing past the capacity drops the oldest
 * items, so the log of a run that goes on for days keeps a fixed size.
 *
 * Items live in small chunks, so a push copies one chunk of at most
 * CHUNK items and the list of chunks, never the whole list: an agent
 * streaming thousands of events a second costs little per event.
 */
export interface Ring<T> {
  readonly chunks: readonly (readonly T[])[];
  readonly size: number;
  readonly capacity: number;
  /** How many items fell off the front so far. */
  readonly dropped: number;
}

const CHUNK = 64;

export function emptyRing<T>(capacity: number): Ring<T> {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity ${capacity}`);
  return { chunks: [], size: 0, capacity, dropped: 0 };
}

export function pushRing<T>(ring: Ring<T>, item: T): Ring<T> {
  const last = ring.chunks[ring.chunks.length - 1];
  let chunks =
    last !== undefined && last.length < CHUNK
      ? [...ring.chunks.slice(0, -1), [...last, item]]
      : [...ring.chunks, [item]];
  let size = ring.size + 1;
  let dropped = ring.dropped;
  // Drop from the front, a chunk at a time where possible.
  while (size > ring.capacity) {
    const first = chunks[0];
    if (first === undefined) break;
    const excess = size - ring.capacity;
    if (first.length <= excess) {
      chunks = chunks.slice(1);
      size -= first.length;
      dropped += first.length;
    } else {
      chunks = [first.slice(excess), ...chunks.slice(1)];
      size -= excess;
      dropped += excess;
    }
  }
  return { ...ring, chunks, size, dropped };
}

const flat = new WeakMap<object, readonly unknown[]>();

/** The items, oldest first; computed once per ring value. */
export function ringItems<T>(ring: Ring<T>): readonly T[] {
  const hit = flat.get(ring) as readonly T[] | undefined;
  if (hit !== undefined) return hit;
  const items = ring.chunks.flat() as T[];
  flat.set(ring, items);
  return items;
}

/** Replaces the newest item matching `match` (searching from the end); unchanged when none does. */
export function updateLast<T, U extends T>(
  ring: Ring<T>,
  match: (item: T) => item is U,
  change: (item: U) => T,
): Ring<T> {
  for (let c = ring.chunks.length - 1; c >= 0; c--) {
    const chunk = ring.chunks[c];
    if (chunk === undefined) continue;
    for (let i = chunk.length - 1; i >= 0; i--) {
      const item = chunk[i];
      if (item !== undefined && match(item)) {
        const copy = chunk.slice();
        copy[i] = change(item);
        const chunks = ring.chunks.slice();
        chunks[c] = copy;
        return { ...ring, chunks };
      }
    }
  }
  return ring;
}
