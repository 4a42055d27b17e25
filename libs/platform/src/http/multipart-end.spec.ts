import { Readable } from 'node:stream';
import { MultipartEndCheck, UnterminatedMultipartError } from './multipart-end';

/** Streams `chunks` through a check; resolves with what came out, or rejects with its error. */
async function through(boundary: string, chunks: string[]): Promise<string> {
  const check = new MultipartEndCheck(boundary);
  Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(check);
  const out: Buffer[] = [];
  for await (const chunk of check) out.push(chunk as Buffer);
  return Buffer.concat(out).toString();
}

const part = '--b1\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfalse\r\n';

describe('MultipartEndCheck', () => {
  it('passes a terminated body through unchanged, also when the closing delimiter straddles chunks', async () => {
    await expect(through('b1', [part, '--b1--\r\n'])).resolves.toBe(`${part}--b1--\r\n`);
    await expect(through('b1', [`${part}--b`, '1-', '-'])).resolves.toBe(`${part}--b1--`);
    await expect(through('b1', [`${part}--b1--\r\nan epilogue`])).resolves.toContain('epilogue');
  });

  it.each([
    ['cut inside a value', ['--b1\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfal']],
    ['a whole last part without the closing delimiter', [part]],
    ['a delimiter without its closing dashes', [part, '--b1']],
    ['an empty body', []],
  ])('fails at the end of %s', async (_what, chunks) => {
    await expect(through('b1', chunks)).rejects.toThrow(UnterminatedMultipartError);
    await expect(through('b1', chunks)).rejects.toMatchObject({ statusCode: 400 });
  });
});
