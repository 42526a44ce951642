import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, isBrokenForm } from '../http/errors';

export interface FormUpload {
  /** The text fields sent before the file (the permit `token` must come first). */
  fields: Record<string, string>;
  file: MultipartFile;
}

const brokenForm = () => new ApiError('ParamsError', 'The form data is malformed or incomplete');

/** The one file of a form upload with the fields before it; a request that is not form data is a ParamsError. */
export async function formFile(req: FastifyRequest, maxBytes: number): Promise<FormUpload> {
  if (!req.isMultipart()) throw new ApiError('ParamsError', 'Expected multipart/form-data with a file');
  let file: MultipartFile | undefined;
  try {
    file = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 8192 } });
  } catch (err) {
    if (isBrokenForm(err)) throw brokenForm();
    throw err;
  }
  if (!file) throw new ApiError('ParamsError', 'No file in the form');
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(file.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field' && typeof v.value === 'string') fields[name] = v.value;
  }
  return { fields, file };
}

/** The whole file in memory (small uploads: key images, attachments, avatars, forms); over the limit → `tooLarge`. */
export async function fileBytes(file: MultipartFile, tooLarge: () => ApiError): Promise<Buffer> {
  try {
    const bytes = await file.toBuffer();
    if (file.file.truncated) throw tooLarge();
    return bytes;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (isBrokenForm(err)) throw brokenForm();
    throw err;
  }
}
