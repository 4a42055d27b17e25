import { resolve } from 'node:path';

/** The workspace root, wherever Jest was started from. */
export const repoRoot = resolve(__dirname, '../../..');
