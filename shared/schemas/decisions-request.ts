import { z } from 'zod';
import { namedRecord, withoutProtoKey } from './key';
import { QuestionSchema } from './question';
import { ProviderPreferencesSchema } from './provider-preferences';
import { TraceConfigSchema } from './trace';

export const MAX_SESSION_ID_LENGTH = 256;
export const MAX_USER_LENGTH = 256;

/** Characters as people count them (Unicode code points), not UTF-16 units: an emoji is one. */
export const characterCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};
const atMostCharacters = (max: number, field: string) =>
  z.string().refine((text) => text.length <= max || characterCount(text) <= max, `${field} is at most ${max} characters`);

/** The content to evaluate: a plain string, a JSON object or a JSON array. */
export const StateSchema = z.union([z.string(), namedRecord(z.string(), z.unknown()), z.array(z.unknown())], {
  error: 'expected state: a string, a JSON object or a JSON array',
});
export type State = z.infer<typeof StateSchema>;

/**
 * An image sent once and referred to by its key (OpenRouter's `DecisionsImageAsset`): standard
 * base64 with no `data:` prefix, PNG or JPEG.
 */
export const ImageAssetSchema = z.strictObject({
  type: z.literal('image').optional(),
  format: z.enum(['png', 'jpeg', 'jpg'], { error: 'expected format png, jpeg or jpg' }),
  data_base64: z.string().min(1, 'data_base64 must not be empty'),
});
export type ImageAsset = z.infer<typeof ImageAssetSchema>;

/**
 * Spec 2.1 and 8, plus `assets` (OpenRouter's image map). Every other top-level field is refused,
 * naming it: a field dropped without a word (an image map the caller thought was sent) would
 * answer a different request than the one asked.
 */
export const DecisionsRequestSchema = z.strictObject({
  model: z.string().min(1, 'model must not be empty'),
  state: StateSchema,
  questions: namedRecord(z.string().min(1, 'question names must not be empty'), QuestionSchema).refine(
    (questions) => Object.keys(questions).length >= 1,
    'at least 1 question is needed',
  ),
  provider: ProviderPreferencesSchema.optional(),
  session_id: atMostCharacters(MAX_SESSION_ID_LENGTH, 'session_id').optional(),
  trace: withoutProtoKey(TraceConfigSchema).optional(),
  user: atMostCharacters(MAX_USER_LENGTH, 'user').optional(),
  assets: namedRecord(z.string().min(1, 'asset names must not be empty'), ImageAssetSchema).optional(),
});
export type DecisionsRequest = z.infer<typeof DecisionsRequestSchema>;
