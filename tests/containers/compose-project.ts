import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allServiceNames, ServiceName } from '@fleet/contracts';
import { repoRoot } from '@fleet/testing';

const exec = promisify(execFile);

/** The services of docker/compose.yaml built from the project's image (compose names them as the platform does). */
export const serviceNames = allServiceNames;

/** The containers of the whole compose file. */
export type ContainerService = ServiceName | 'migrate' | 'edge' | 'postgres' | 'kafka' | 'redis';

/** Secrets as a user puts them in docker/.env (docs/deployment.md), made fresh for each run. */
export function freshSecrets(): Record<string, string> {
  return {
    POSTGRES_PASSWORD: randomBytes(18).toString('base64url'),
    AUTH_JWT_SECRET: randomBytes(48).toString('base64url'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
}

/**
 * docker/compose.yaml as a user brings it up, driven with podman-compose: the file is used as written;
 * only the project name, the secrets and the operator settings a user would put in docker/.env come
 * from the test. Every podman command's output is kept for the error that a failure throws.
 */
export class ComposeProject {
  constructor(
    readonly project: string,
    private readonly env: Record<string, string>,
  ) {}

  /** podman-compose 1.0.3 names containers `<project>_<service>_<index>`. */
  container(service: ContainerService, index = 1): string {
    return `${this.project}_${service}_${index}`;
  }

  get network(): string {
    return `${this.project}_default`;
  }

  async compose(...args: string[]): Promise<string> {
    return this.run('podman-compose', [
      '-p',
      this.project,
      '-f',
      join(repoRoot, 'docker/compose.yaml'),
      ...args,
    ]);
  }

  async podman(...args: string[]): Promise<string> {
    return this.run('podman', args);
  }

  private async run(command: string, args: string[]): Promise<string> {
    try {
      const { stdout } = await exec(command, args, {
        cwd: repoRoot,
        env: { ...process.env, ...this.env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 600_000,
      });
      return stdout;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(
        `${command} ${args.join(' ')} failed: ${(error as Error).message}\n${tail(stdout)}\n${tail(stderr)}`,
      );
    }
  }

  /**
   * The project's network, made before `up` with a fixed subnet so that the address at which the
   * containers reach this machine (host.containers.internal, the subnet's gateway) is known in advance:
   * the webhook dispatcher may only reach the private address an operator allowed.
   */
  async createNetwork(subnet: string): Promise<void> {
    await this.podman('network', 'rm', '-f', this.network).catch(() => undefined);
    await this.podman(
      'network',
      'create',
      '--subnet',
      subnet,
      '--label',
      `io.podman.compose.project=${this.project}`,
      this.network,
    );
    await this.pinBridgeAddress();
  }

  /**
   * Keeps the network's bridge on one MAC address for the whole run. A Linux bridge whose address was
   * never set takes the lowest MAC of its ports, so it changes whenever a container leaves the network
   * (`migrate` exiting, a service restarted); containers that cached the old one then cannot reach the
   * gateway (aardvark-dns: every name lookup, and this machine) until their ARP entry expires, 15-45 s
   * later. That was the lookup outage of half a minute after the last containers started
   * (docs/deployment.md). netavark sets the address itself from 1.9 on; Debian 12 has 1.4, and hosts
   * with systemd's udev get a fixed one from its MACAddressPolicy, which these machines do not run.
   * The bridge exists once a container is on the network: a placeholder that does nothing makes it,
   * its address is then set to what it already is (which marks it as set and ends the following),
   * and the placeholder stays until `down` removes the network.
   */
  private async pinBridgeAddress(): Promise<void> {
    await this.podman(
      'run',
      '-d',
      '--replace',
      '--name',
      `${this.project}_bridge-pin`,
      '--network',
      this.network,
      '--entrypoint',
      'sleep',
      'fleet-telemetry:local',
      'infinity',
    );
    const bridge = (
      await this.podman('network', 'inspect', '--format', '{{.NetworkInterface}}', this.network)
    ).trim();
    const address = (await readFile(`/sys/class/net/${bridge}/address`, 'utf8')).trim();
    await this.run('ip', ['link', 'set', 'dev', bridge, 'address', address]);
  }

  /** State of a container as podman reports it: running, exited, ... (undefined: no such container). */
  async state(service: ContainerService): Promise<string | undefined> {
    try {
      return (await this.podman('inspect', '--format', '{{.State.Status}}', this.container(service))).trim();
    } catch {
      return undefined;
    }
  }

  /**
   * Whether the service's own healthcheck (the compose file's: GET /health/ready inside the container)
   * passes now. Podman runs healthchecks on a timer only under systemd, so the test runs it itself.
   */
  async healthy(service: ServiceName): Promise<boolean> {
    try {
      await this.podman('healthcheck', 'run', this.container(service));
      return true;
    } catch {
      return false;
    }
  }

  async restartCount(service: ContainerService): Promise<number> {
    try {
      return Number(
        (await this.podman('inspect', '--format', '{{.RestartCount}}', this.container(service))).trim(),
      );
    } catch {
      return 0;
    }
  }

  /** The exit code of a container that has ended (undefined while it runs). */
  async exitCode(service: ContainerService): Promise<number | undefined> {
    const [status, code] = (
      await this.podman(
        'inspect',
        '--format',
        '{{.State.Status}} {{.State.ExitCode}}',
        this.container(service),
      )
    )
      .trim()
      .split(' ');
    return status === 'exited' ? Number(code) : undefined;
  }

  /** Waits until a one-shot container (migrate) has ended; throws with its last log lines unless it succeeded. */
  async waitForCompletion(service: ContainerService, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let code: number | undefined;
    while ((code = await this.exitCode(service)) === undefined && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (code === 0) return;
    throw new Error(
      `${service} ${code === undefined ? `still running after ${timeoutMs / 1000} s` : `exited with ${code}`}, its last log lines:\n${await this.lastLogLines(service)}`,
    );
  }

  /** The last lines a container wrote, for the failure message of a service that did not start. */
  async lastLogLines(service: ContainerService, lines = 40): Promise<string> {
    try {
      const { stdout, stderr } = await exec(
        'podman',
        ['logs', '--tail', String(lines), this.container(service)],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      return `${stdout}${stderr}`.trimEnd();
    } catch (error) {
      return `(no logs: ${(error as Error).message.split('\n')[0]})`;
    }
  }

  /**
   * Waits until every service's healthcheck passes. On time-out, the error names each service that is
   * not ready, with its state and its last log lines.
   */
  async waitUntilReady(services: readonly ServiceName[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let waiting = [...services];
    let crashing: ServiceName[] = [];
    while (waiting.length > 0 && crashing.length === 0 && Date.now() < deadline) {
      const ready = await Promise.all(waiting.map((service) => this.healthy(service)));
      waiting = waiting.filter((_, index) => !ready[index]);
      // A service that keeps exiting (restart: unless-stopped starts it again) will not get ready.
      const restarts = await Promise.all(waiting.map((service) => this.restartCount(service)));
      crashing = waiting.filter((_, index) => restarts[index] >= 3);
      if (waiting.length > 0 && crashing.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    if (waiting.length === 0) return;
    if (crashing.length > 0) waiting = crashing;
    const reports = await Promise.all(
      waiting.map(
        async (service) =>
          `--- ${service} (${(await this.state(service)) ?? 'no container'}), its last log lines:\n${await this.lastLogLines(service)}`,
      ),
    );
    const why = crashing.length > 0 ? 'restarted 3 times' : `not ready after ${timeoutMs / 1000} s`;
    throw new Error(`${why}: ${waiting.join(', ')}\n${reports.join('\n')}`);
  }

  /** Everything the project made: containers, its network and its named volumes. */
  async down(): Promise<void> {
    await this.compose('down', '-v', '-t', '10').catch((error) => console.error(error));
    await this.podman('network', 'rm', '-f', this.network).catch(() => undefined);
    const volumes = await this.podman(
      'volume',
      'ls',
      '--quiet',
      '--filter',
      `label=io.podman.compose.project=${this.project}`,
    ).catch(() => '');
    for (const volume of volumes.split('\n').filter(Boolean))
      await this.podman('volume', 'rm', '-f', volume).catch(() => undefined);
  }
}

function tail(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
