import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ServiceName } from '@fleet/contracts';
import { nginxTempDirs, renderNginxConfig } from '@fleet/edge';

const run = promisify(execFile);

/** Where Debian's package puts nginx; PATH is tried first. */
const NGINX_CANDIDATES = ['nginx', '/usr/sbin/nginx'];

async function nginxBinary(): Promise<string | undefined> {
  for (const candidate of NGINX_CANDIDATES) {
    try {
      await run(candidate, ['-v']);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

export async function nginxAvailable(): Promise<boolean> {
  return (await nginxBinary()) !== undefined;
}

/**
 * The stack's nginx: the production edge's configuration (rendered from the route table by
 * @fleet/edge, as docker/nginx is) in front of the local replicas. A replica that refuses connections or
 * answers 502/503 while it restarts is skipped for the next one, so a rolling restart of one service is
 * invisible to clients as long as another replica is up.
 */
export function renderLocalNginx(
  prefix: string,
  port: number,
  upstreams: Record<ServiceName, string[]>,
): string {
  return renderNginxConfig({
    upstreams: Object.fromEntries(
      Object.entries(upstreams).map(([service, origins]) => [
        service,
        origins.map((origin) => new URL(origin).host),
      ]),
    ) as Record<ServiceName, string[]>,
    listen: `127.0.0.1:${port}`,
    prefix,
    workerProcesses: 2,
  });
}

/** Starts nginx in the foreground with a configuration under `prefix`; resolves once it accepts connections. */
export async function startNginx(
  prefix: string,
  port: number,
  upstreams: Record<ServiceName, string[]>,
): Promise<{ close(): Promise<void> }> {
  const binary = await nginxBinary();
  if (!binary)
    throw new Error('nginx is not installed (Debian: apt-get install nginx-core); use --entry proxy');
  for (const dir of nginxTempDirs) {
    mkdirSync(join(prefix, dir), { recursive: true });
    // Workers run as an unprivileged user when nginx is started by root.
    chmodSync(join(prefix, dir), 0o777);
  }
  const config = join(prefix, 'nginx.conf');
  writeFileSync(config, renderLocalNginx(prefix, port, upstreams));
  await run(binary, ['-t', '-p', prefix, '-c', config]).catch((error: { stderr?: string }) => {
    throw new Error(`nginx refused its configuration ${config}: ${error.stderr ?? ''}`);
  });
  const log = createWriteStream(join(prefix, 'nginx.out.log'), { flags: 'a' });
  const child: ChildProcess = spawn(binary, ['-p', prefix, '-c', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: see ${join(prefix, 'error.log')}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`nginx did not listen on ${port}: see ${join(prefix, 'error.log')}`);
      await delay(100);
    }
  }
  return {
    close: async () => {
      // SIGQUIT: graceful, requests in flight finish.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
