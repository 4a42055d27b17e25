/** The bare servers of bench/query, and the readiness check of every server before measuring. */
import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { HttpClient } from '../common/http-load';
import { freePort, sleep, spawnBareServer } from '../common/infra';
import { READY_TIMEOUT_MS, REPLICAS } from './options';

/** REPLICAS bare servers (bare-server.ts) on the run's database, pushed to `bares` as they start; their URLs. */
export async function startBareServers(databaseUrl: string, bares: ChildProcess[]): Promise<string[]> {
  const barePorts: number[] = [];
  for (let i = 0; i < REPLICAS; i++) barePorts.push(await freePort());
  for (const barePort of barePorts) {
    bares.push(spawnBareServer(join(__dirname, 'bare-server.ts'), databaseUrl, barePort));
  }
  return barePorts.map((port) => `http://127.0.0.1:${port}`);
}

/**
 * Waits until `url` answers `path` with a 200: the company projection has arrived (the service knows
 * the company of every token) and the bare server listens.
 */
export async function ready(url: string, path: string, token?: string): Promise<void> {
  const probe = new HttpClient(url, 1);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let status = 0; status !== 200;) {
    if (Date.now() > deadline) {
      throw new Error(`${url}${path} gave no 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${status})`);
    }
    status = (
      await probe
        .send('GET', path, undefined, token ? { authorization: `Bearer ${token}` } : {})
        .catch(() => ({ status: 0 }))
    ).status;
    if (status !== 200) await sleep(250);
  }
  probe.close();
}
