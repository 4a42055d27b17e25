import { EXCERPT_BYTES, MAX_BODY_BYTES, ResponseExcerpt } from './response-excerpt';

/** A body of the given chunks that counts how many were pulled and whether it was abandoned. */
function bodyOf(chunks: Buffer[]) {
  const state = { pulled: 0, destroyed: false };
  const body = {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) {
        state.pulled += 1;
        yield chunk;
      }
    },
    destroy() {
      state.destroyed = true;
    },
  };
  return { body, state };
}

describe('ResponseExcerpt', () => {
  it('keeps a short body whole', async () => {
    const excerpt = new ResponseExcerpt();
    const { body, state } = bodyOf([Buffer.from('{"ok":'), Buffer.from('true}')]);
    await excerpt.read(body);
    expect(excerpt.text()).toBe('{"ok":true}');
    expect(state).toEqual({ pulled: 2, destroyed: false });
  });

  it('keeps the first 1 KiB, across chunks', async () => {
    const excerpt = new ResponseExcerpt();
    const { body } = bodyOf([Buffer.alloc(1000, 'a'), Buffer.alloc(1000, 'b'), Buffer.alloc(10, 'c')]);
    await excerpt.read(body);
    expect(excerpt.text()).toBe('a'.repeat(1000) + 'b'.repeat(EXCERPT_BYTES - 1000));
  });

  it('stops reading at 64 KiB and abandons the rest of the body', async () => {
    const excerpt = new ResponseExcerpt();
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const { body, state } = bodyOf(Array.from({ length: 100 }, () => chunk));
    await excerpt.read(body);
    expect(state).toEqual({ pulled: MAX_BODY_BYTES / chunk.length, destroyed: true });
    expect(excerpt.text()).toBe('x'.repeat(EXCERPT_BYTES));
  });

  it('replaces invalid UTF-8, a character cut at 1 KiB, and NUL', async () => {
    const excerpt = new ResponseExcerpt();
    const euro = Buffer.from('€'); // 3 bytes
    const { body } = bodyOf([
      Buffer.from([0x61, 0xff, 0x00, 0x62]),
      Buffer.alloc(EXCERPT_BYTES - 4 - 1, 'z'),
      euro,
    ]);
    await excerpt.read(body);
    expect(excerpt.text()).toBe('a\uFFFD\uFFFDb' + 'z'.repeat(EXCERPT_BYTES - 5) + '\uFFFD');
  });

  it('keeps what came before a body fails', async () => {
    const excerpt = new ResponseExcerpt();
    const failing = {
      async *[Symbol.asyncIterator]() {
        yield Buffer.from('partial');
        throw new Error('aborted');
      },
      destroy() {},
    };
    await expect(excerpt.read(failing)).rejects.toThrow('aborted');
    expect(excerpt.text()).toBe('partial');
  });
});
