import { z } from 'zod';
import { EVAL_OPERATIONS } from './eval-operations';

/**
 * Importing a dataset file as a stream, beside the `datasets.import` operation (which takes the
 * file as text in a JSON body, so it is bounded by the body limit):
 *
 * - over HTTP, `POST DATASET_UPLOAD_PATH` whose body is one line of JSON (this schema), a newline,
 *   then the file's bytes as they are;
 * - over IPC, `DATASET_UPLOAD_CHANNEL` with this schema and the file's `path` on disk.
 *
 * Both answer the same Result as the operation (an ImportReport).
 */
export const DatasetUploadSchema = EVAL_OPERATIONS['datasets.import'].input.omit({ content: true });
export type DatasetUpload = z.input<typeof DatasetUploadSchema>;

export const DatasetPathUploadSchema = DatasetUploadSchema.extend({ path: z.string().min(1).max(4096) }).strict();

export { DATASET_UPLOAD_CHANNEL, DATASET_UPLOAD_HEAD_LIMIT, DATASET_UPLOAD_PATH } from './dataset-upload-names';
