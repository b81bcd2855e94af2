import { Busboy } from '@fastify/busboy';
import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from './errors';

interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Buffer;
}

export interface MultipartForm {
  readonly fields: Readonly<Record<string, string>>;
  readonly file?: UploadedFile;
}

/**
 * Parses multipart/form-data with busboy. A file over `maxFileBytes` is a 413, reported only
 * after the whole body was read: answering mid-upload makes many clients see a broken pipe
 * instead of the error.
 */
export function readMultipart(req: IncomingMessage, maxFileBytes: number): Promise<MultipartForm> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    req.resume();
    return Promise.reject(
      badRequest(
        'file',
        `Expected a multipart/form-data body with a 'file' part; got content type '${type || 'none'}'`,
        'invalid_content_type',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    let tooLarge = false;
    let failed = false;
    let busboy;
    try {
      busboy = Busboy({
        headers: { ...req.headers, 'content-type': type },
        limits: { fileSize: maxFileBytes, files: 4, fields: 50, fieldSize: 1024 * 1024 },
      });
    } catch (error) {
      req.resume();
      reject(badRequest('file', `Malformed multipart body: ${(error as Error).message}`, 'invalid_multipart'));
      return;
    }
    busboy.on('field', (name, value) => {
      fields[name] = value;
    });
    busboy.on('file', (field, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        if (field === 'file' && !file) file = { field, filename, contentType: mimeType, bytes: Buffer.concat(chunks) };
      });
    });
    busboy.on('error', (error: unknown) => {
      failed = true;
      req.unpipe(busboy);
      req.resume();
      reject(
        badRequest(
          'file',
          `Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`,
          'invalid_multipart',
        ),
      );
    });
    busboy.on('finish', () => {
      if (failed) return;
      if (tooLarge) {
        const mb = Math.round((maxFileBytes / (1024 * 1024)) * 100) / 100;
        reject(
          new HttpError(
            413,
            `The audio file is larger than the ${mb} MB limit (${maxFileBytes} bytes)`,
            'invalid_request_error',
            'file_too_large',
            'file',
          ),
        );
      } else resolve({ fields, file });
    });
    req.pipe(busboy);
  });
}
