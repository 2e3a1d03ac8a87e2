/** Where a streamed dataset import goes (see dataset-upload.ts); apart, so the preload needs no zod. */
export const DATASET_UPLOAD_PATH = '/api/inspector/datasets.upload';
export const DATASET_UPLOAD_CHANNEL = 'verdict-upload:datasets.import';
/** The description line is small; more before its newline is refused. */
export const DATASET_UPLOAD_HEAD_LIMIT = 1024 * 1024;
