import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@fleet/testing';

/** Runs the lint's import-circle check over `files` (name → source) in a directory of their own. */
function check(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'import-circles-'));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    const run = spawnSync(process.execPath, ['scripts/lint-import-cycles.mjs', dir], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the lint’s import-circle check (scripts/lint-import-cycles.mjs)', () => {
  it('fails on a circle of three files, type-only imports included, and names them', () => {
    const result = check({
      'a.ts': `import { b } from './b';\nexport const a = b;\n`,
      'b.ts': `import { c } from './c';\nexport const b = c;\n`,
      'c.ts': `import type { A } from './d';\nexport const c: A = 1;\n`,
      'd.ts': `import { a } from './a';\nexport type A = typeof a;\n`,
    });
    expect(result.status).toBe(1);
    for (const name of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) expect(result.output).toContain(name);
  });

  it('passes a chain without a circle', () => {
    const result = check({
      'a.ts': `import { b } from './b';\nexport const a = b;\n`,
      'b.ts': `export const b = 1;\n`,
    });
    expect(result).toEqual({ status: 0, output: 'import circles: none among 2 files\n' });
  });

  it('finds none in the workspace', () => {
    const run = spawnSync(process.execPath, ['scripts/lint-import-cycles.mjs'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
