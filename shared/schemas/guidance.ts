import { z } from 'zod';
import { namedRecord } from './key';

/**
 * Guidance (spec section 2): free-form text or structured JSON that tells the model what a
 * question, criterion or level means. A string, a JSON object, or a JSON array.
 */
export const GuidanceSchema = z.union([z.string(), namedRecord(z.string(), z.unknown()), z.array(z.unknown())], {
  error: 'expected guidance: a string, a JSON object or a JSON array',
});
export type Guidance = z.infer<typeof GuidanceSchema>;
