import { z } from 'zod';

export const RESERVED_KEY_MESSAGE = '"__proto__" cannot be used as a name here: JavaScript reserves it, so it could not be kept; choose another name';

/** Refuses a value that has an own `__proto__` key, naming it, before `schema` sees the value. */
export const withoutProtoKey = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: RESERVED_KEY_MESSAGE, path: ['__proto__'], input: value });
      return z.NEVER;
    }
    return value;
  }, schema);

/**
 * An object whose keys the caller names (question names, option names, provider slugs, keys of
 * guidance and state objects). Every name is data and answered like any other, `constructor` and
 * `toString` included. Only `__proto__` is refused, with that reason: an object built from the
 * request cannot hold it, and a schema would otherwise drop it without a word.
 */
export const namedRecord = <K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V) => withoutProtoKey(z.record(key, value));
