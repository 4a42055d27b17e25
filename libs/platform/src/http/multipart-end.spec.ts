import { Readable } from 'node:stream';
import {
  MalformedMultipartError,
  MAX_PART_HEADER_BYTES,
  MultipartCheck,
  UnterminatedMultipartError,
} from './multipart-end';

/** Streams `chunks` through a check; resolves with what came out, or rejects with its error. */
async function through(boundary: string, chunks: string[]): Promise<string> {
  const check = new MultipartCheck(boundary);
  Readable.from(chunks.map((chunk) => Buffer.from(chunk, 'latin1'))).pipe(check);
  const out: Buffer[] = [];
  for await (const chunk of check) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('latin1');
}

/** Every way of cutting `body` into two chunks, and into single bytes. */
const splits = (body: string): string[][] => [
  ...Array.from({ length: body.length + 1 }, (_, at) => [body.slice(0, at), body.slice(at)]),
  [...body],
];

const part = '--b1\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfalse\r\n';
const id = '--b1\r\nContent-Disposition: form-data; name="id"\r\n\r\n7\r\n';
const isLock = '--b1\r\nContent-Disposition: form-data; name="isLock"\r\n\r\ntrue\r\n';

describe('MultipartCheck', () => {
  it('passes a terminated body through unchanged, also when the closing delimiter straddles chunks', async () => {
    await expect(through('b1', [part, '--b1--\r\n'])).resolves.toBe(`${part}--b1--\r\n`);
    await expect(through('b1', [`${part}--b`, '1-', '-'])).resolves.toBe(`${part}--b1--`);
    await expect(through('b1', [`${part}--b1--\r\nan epilogue`])).resolves.toContain('epilogue');
  });

  it('passes well-formed parts, however the body is cut into chunks', async () => {
    const body =
      'a preamble\r\n' +
      id +
      '--b1\r\ncontent-disposition: FORM-DATA; filename="a;b.txt"; name="file"\r\nContent-Type: text/plain\r\n\r\n' +
      'line 1\r\n\r\nline 2\r\n' +
      '--b1\r\nContent-Disposition: form-data;\r\n name=isLock\r\n\r\n\r\n' +
      "--b1\r\nContent-Disposition: form-data; name*=utf-8''%C3%A9\r\n\r\nvalue --b1x\r\n" +
      '--b1--\r\n';
    for (const chunks of splits(body)) await expect(through('b1', chunks)).resolves.toBe(body);
  });

  it.each([
    ['cut inside a value', ['--b1\r\nContent-Disposition: form-data; name="isActive"\r\n\r\nfal']],
    ['a whole last part without the closing delimiter', [part]],
    ['a delimiter without its closing dashes', [part, '--b1']],
    ['cut inside the headers', ['--b1\r\nContent-Disposition: form-data; na']],
    ['an empty body', []],
  ])('fails at the end of %s', async (_what, chunks) => {
    await expect(through('b1', chunks)).rejects.toThrow(UnterminatedMultipartError);
    await expect(through('b1', chunks)).rejects.toMatchObject({ statusCode: 400 });
  });

  it.each([
    ['a part without a name', '--b1\r\nContent-Disposition: form-data\r\n\r\nx\r\n', 'part 2 has no name'],
    ['an empty name', '--b1\r\nContent-Disposition: form-data; name=""\r\n\r\nx\r\n', 'part 2 has no name'],
    [
      'only a file name',
      '--b1\r\nContent-Disposition: form-data; filename="name"\r\n\r\nx\r\n',
      'part 2 has no name',
    ],
    ['a part without headers', '--b1\r\n\r\nx\r\n', 'part 2 has no headers'],
    [
      'a broken header line',
      '--b1\r\nContent-Disposition form-data; name="x"\r\n\r\nx\r\n',
      'part 2 has a malformed header line (line 1',
    ],
    [
      'a broken second header line',
      '--b1\r\nContent-Disposition: form-data; name="x"\r\nbroken\r\n\r\nx\r\n',
      'part 2 has a malformed header line (line 2',
    ],
    [
      'a bare line feed in a header',
      '--b1\r\nContent-Disposition: form-data; name="x"\nX: y\r\n\r\nx\r\n',
      'part 2 has a malformed header line (line 1',
    ],
    [
      'a folded first line',
      '--b1\r\n Content-Disposition: form-data; name="x"\r\n\r\nx\r\n',
      'part 2 has a malformed header line (line 1',
    ],
    [
      'no blank line after the headers',
      '--b1\r\nContent-Disposition: form-data; name="x"\r\nx\r\n',
      'part 2 has no blank line between its headers and its value',
    ],
    [
      'no blank line, the value on no line of its own',
      '--b1\r\nContent-Disposition: form-data; name="x"\r\n',
      'part 2 has no blank line between its headers and its value',
    ],
    [
      'no blank line before an empty value',
      '--b1\r\nContent-Disposition: form-data; name="x"\r\n\r\n',
      'part 2 has no blank line between its headers and its value',
    ],
    ['an empty part', '--b1\r\n', 'part 2 is empty'],
    [
      'no Content-Disposition',
      '--b1\r\nContent-Type: text/plain\r\n\r\nx\r\n',
      'part 2 has no Content-Disposition',
    ],
    [
      'another disposition',
      '--b1\r\nContent-Disposition: attachment; name="x"\r\n\r\nx\r\n',
      'part 2: its Content-Disposition is not form-data',
    ],
    [
      'text after the boundary',
      '--b1junk\r\nContent-Disposition: form-data; name="x"\r\n\r\nx\r\n',
      'part 2: text follows its boundary line',
    ],
  ])(
    'refuses %s, however the body is cut, before the closing delimiter',
    async (_what, malformed, problem) => {
      const body = `${id}${malformed}${isLock}--b1--\r\n`;
      for (const chunks of splits(body)) {
        const check = new MultipartCheck('b1');
        const out: Buffer[] = [];
        check.on('data', (chunk: Buffer) => out.push(chunk));
        const failed = new Promise<Error>((resolve) => check.on('error', resolve));
        Readable.from(chunks.map((chunk) => Buffer.from(chunk, 'latin1'))).pipe(check);
        const error = await failed;
        expect(error).toBeInstanceOf(MalformedMultipartError);
        expect(error).toMatchObject({
          statusCode: 400,
          message: expect.stringContaining(`multipart ${problem}`),
        });
        // Busboy never receives the closing delimiter, so it cannot finish before the error reaches it.
        expect(Buffer.concat(out).toString('latin1')).not.toContain('--b1--');
      }
    },
  );

  it('refuses a header block over the limit without keeping all of it', async () => {
    const long = `--b1\r\nX-Long: ${'a'.repeat(MAX_PART_HEADER_BYTES)}`;
    await expect(through('b1', [long, 'a'.repeat(1_000), '\r\n\r\nx\r\n--b1--'])).rejects.toThrow(
      /part 1: its headers are longer than 81920 bytes/,
    );
  });
});
