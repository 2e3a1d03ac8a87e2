/**
 * A dataset file imported as a stream (from an upload's body or a path on disk) into the same
 * streaming importer the command line uses: the file is never held in memory at once.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { DATASET_UPLOAD_HEAD_LIMIT, DatasetPathUploadSchema, DatasetUploadSchema } from '../../../shared/contract/dataset-upload';
import type { Result } from '../../../shared/contract/result';
import type { ImportReport } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { GatewayError } from '../errors';
import { parseStrictOrBadRequest } from '../validation';
import type { Datasets } from './datasets';
import { readRows } from './dataset-sources';

/**
 * Reads up to the first newline of `input`: that line, and a stream of exactly the bytes after it
 * (piped on, so the sender is slowed down when the importer is).
 */
export function readHeadLine(input: Readable, limit = DATASET_UPLOAD_HEAD_LIMIT): Promise<{ head: string; rest: Readable }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = () => {
      input.off('readable', onReadable);
      input.off('end', onEnd);
      input.off('error', onError);
    };
    const onReadable = () => {
      for (let chunk = input.read() as Buffer | null; chunk !== null; chunk = input.read() as Buffer | null) {
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          size += chunk.length;
          parts.push(chunk);
          if (size > limit) {
            done();
            reject(new GatewayError('bad_request', `upload: the description line is longer than ${limit} bytes`));
            return;
          }
          continue;
        }
        parts.push(chunk.subarray(0, newline));
        done();
        const rest = new PassThrough();
        if (newline + 1 < chunk.length) rest.write(chunk.subarray(newline + 1));
        input.on('error', (error) => rest.destroy(error));
        // Next tick: Node notes the 'readable' listener's removal then, and only after it can the input flow.
        process.nextTick(() => input.pipe(rest));
        resolve({ head: Buffer.concat(parts).toString('utf8'), rest });
        return;
      }
    };
    const onEnd = () => {
      done();
      reject(new GatewayError('bad_request', 'upload: the body ended before the line describing the import'));
    };
    const onError = (error: Error) => {
      done();
      reject(new GatewayError('bad_request', `upload: the body could not be read (${error.message})`));
    };
    input.on('readable', onReadable);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}

type UploadMeta = ReturnType<typeof DatasetUploadSchema.parse>;

/** What follows a finished import (the audit log's entry), given the report and the file's name. */
export type AfterImport = (report: ImportReport, file: string) => Promise<ImportReport>;

async function importStream(datasets: Datasets, meta: UploadMeta, input: Readable, after: AfterImport): Promise<ImportReport> {
  const report = await datasets.import({
    name: meta.name,
    rows: readRows(input, meta.file ?? meta.name, meta.format),
    questions: meta.questions as Record<string, Question>,
    validOnly: meta.valid_only,
    takeSuggestions: meta.take_suggestions,
  });
  return after(report, meta.file ?? meta.name);
}

/** An upload's body: a line of JSON describing the import (DatasetUploadSchema), then the file. */
export async function importUpload(datasets: Datasets, body: Readable, after: AfterImport): Promise<ImportReport> {
  const { head, rest } = await readHeadLine(body);
  let described: unknown;
  try {
    described = JSON.parse(head);
  } catch {
    throw new GatewayError('bad_request', 'upload: the first line is not JSON; it describes the import (name, format, questions)');
  }
  const meta = parseStrictOrBadRequest(DatasetUploadSchema, described, 'upload');
  return importStream(datasets, meta, rest, after);
}

/** A file on disk the user picked (the desktop app passes its path). */
export async function importPath(datasets: Datasets, input: unknown, after: AfterImport): Promise<ImportReport> {
  const { path, ...meta } = parseStrictOrBadRequest(DatasetPathUploadSchema, input, 'upload');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new GatewayError('bad_request', `upload: ${basename(path)} is not a readable file`);
  return importStream(datasets, { ...meta, file: meta.file ?? basename(path) }, createReadStream(path), after);
}

/** Runs an import and answers as an operation does: errors as data, unexpected ones logged. */
export async function asResult(work: () => Promise<ImportReport>, log: (error: unknown) => void): Promise<Result<ImportReport>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof GatewayError) return { ok: false, error: error.toBody() };
    log(error);
    return { ok: false, error: { code: 500, message: 'Unexpected error while importing the dataset; see the log' } };
  }
}
