import { z } from 'zod';

/** The keys a (possibly wrapped) zod schema accepts at `path`, for "did you mean" hints. */
export function knownKeys(schema: z.core.$ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let current: z.core.$ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (current instanceof z.ZodObject) current = current.shape[String(segment)];
    else if (current instanceof z.ZodArray) current = current.element;
    else if (current instanceof z.ZodRecord) current = current.valueType;
    else return [];
    if (current === undefined) return [];
    current = unwrap(current);
  }
  if (current instanceof z.ZodObject) return Object.keys(current.shape);
  if (current instanceof z.ZodRecord && current.keyType instanceof z.ZodEnum)
    return current.keyType.options.map(String);
  return [];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
    ) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else {
      return current;
    }
  }
}

export { closestKey } from '../core/closest-name.js';
