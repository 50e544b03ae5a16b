import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../lib/errors.ts';
import { markUploadFolder, UPLOAD_FOLDER_PREFIX } from '../lib/housekeeping.ts';

/** An uploaded file saved to a temporary file, with what was learnt while it streamed in. */
export interface ReceivedUpload {
  path: string;
  /** A private temporary folder holding the file; working files of the import go here too. */
  dir: string;
  fileName: string;
  size: number;
  /** sha-256 hex of the bytes. */
  hash: string;
  /** The other multipart fields (text only). */
  fields: Record<string, string>;
  /** Removes the temporary file; safe to call more than once. */
  remove(): Promise<void>;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const tooLarge = (limit: number) =>
  new HttpError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than the ${megabytes(limit)} this upload accepts, so nothing was imported. Split it into smaller files.`,
  );

/**
 * Streams the multipart field `file` to a temporary file under `limit` bytes, hashing it on the
 * way, and collects the text fields whichever order they come in. Past the limit the transfer
 * stops, the partial file is removed and a 413 is thrown: nothing of it is ever read.
 */
export async function receiveUpload(
  request: FastifyRequest,
  limit: number,
  options: { onFileStart?(fileName: string): void } = {},
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw badRequest('Send the file as multipart/form-data, in a field named "file".');
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), UPLOAD_FOLDER_PREFIX));
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  // Says whose folder it is, so that a server started after this one died removes it.
  await markUploadFolder(dir);
  const fields: Record<string, string> = {};
  let file: { path: string; fileName: string; size: number; hash: string } | undefined;
  try {
    const parts = request.parts({
      limits: { fileSize: limit, files: 1, fields: 20, fieldSize: 10_000, parts: 30 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw badRequest('Send exactly one file, in the field named "file".');
      }
      options.onFileStart?.(part.filename ?? '');
      const target = path.join(dir, `upload-${randomBytes(6).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > limit) return done(tooLarge(limit));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(part.file, count, fs.createWriteStream(target));
      if (part.file.truncated) throw tooLarge(limit);
      // Some browsers send a full path (C:\fakepath\…): keep the name only.
      const fileName = part.filename?.split(/[\\/]/).pop() || 'upload';
      file = { path: target, fileName, size, hash: hash.digest('hex') };
    }
  } catch (error) {
    await remove();
    // A client that goes away mid-upload (closed tab, lost network) is not a server fault: an
    // info line, and the same sentence as any interrupted upload for the history.
    if (clientGone(request, error)) {
      request.log.info(
        { fileName: file?.fileName, err: { message: (error as Error)?.message } },
        'upload abandoned by the client',
      );
      throw interrupted();
    }
    throw translateMultipartError(error, limit);
  }
  if (!file) {
    await remove();
    throw badRequest('Choose a file to upload: the request has no field named "file".');
  }
  if (file.size === 0) {
    await remove();
    throw badRequest('The file is empty.');
  }
  return { ...file, dir, fields, remove };
}

const interrupted = () => badRequest('The upload was interrupted before the whole file arrived. Try again.');

/** True when the request failed because its client went away, not because of what it sent. */
function clientGone(request: FastifyRequest, error: unknown): boolean {
  if (error instanceof HttpError) return false;
  const code = (error as { code?: string })?.code;
  return (
    code === 'ECONNRESET' || code === 'ECONNABORTED' || request.raw.destroyed || request.socket.destroyed
  );
}

function translateMultipartError(error: unknown, limit: number): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(limit);
  if (code === 'FST_FILES_LIMIT') return badRequest('Send exactly one file, in the field named "file".');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return badRequest('The upload has too many form fields; send only "file" and the fields the page sends.');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return badRequest('Send the file as multipart/form-data, in a field named "file".');
  }
  if (code === 'FST_REQ_PREMATURE_CLOSE' || (error as Error)?.message?.includes('terminated early')) {
    return interrupted();
  }
  if ((error as Error)?.message?.includes('Unexpected end of form') || code === 'FST_MULTIPART_MALFORMED') {
    return badRequest('The upload is not well-formed multipart/form-data. Try again.');
  }
  return error;
}
