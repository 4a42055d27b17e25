import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '@fleet/testing';

/** Source placed into a project to see what the workspace's lint says of it. */
const probes = {
  allowedImport: {
    dir: 'libs/services/auth/src',
    code: `import { EventPublisher } from '@fleet/platform';\nexport type Publisher = EventPublisher;\n`,
  },
  serviceImportsService: {
    dir: 'libs/services/auth/src',
    code: `import { QueryApiModule } from '@fleet/query-api-service';\nexport const leaked = QueryApiModule;\n`,
  },
  contractsImportPlatform: {
    dir: 'libs/contracts/src',
    code: `import { EventPublisher } from '@fleet/platform';\nexport type Publisher = EventPublisher;\n`,
  },
  contractsImportFramework: {
    dir: 'libs/contracts/src',
    code: `import { Injectable } from '@nestjs/common';\nexport const decorator = Injectable;\n`,
  },
  deepImport: {
    dir: 'libs/services/auth/src',
    code: `import { EnvReader } from '@fleet/platform/src/config/env-reader';\nexport const reader = EnvReader;\n`,
  },
  alertEngineImportsMotion: {
    dir: 'libs/services/alert-engine/src',
    code: `import { advanceMotionState } from '@fleet/motion';\nexport const advance = advanceMotionState;\n`,
  },
  alertEngineImportsQueryApi: {
    dir: 'libs/services/alert-engine/src',
    code: `import { VehicleRegistry } from '@fleet/query-api-service';\nexport const registry = VehicleRegistry;\n`,
  },
  alertEngineReachesIntoQueryApi: {
    dir: 'libs/services/alert-engine/src',
    code: `import { VehicleAccess } from '../../query-api/src/common/vehicle-access';\nexport const access = VehicleAccess;\n`,
  },
  motionImportsPlatform: {
    dir: 'libs/motion/src',
    code: `import { EnvReader } from '@fleet/platform';\nexport const reader = EnvReader;\n`,
  },
  serviceSetInterval: {
    dir: 'libs/services/auth/src',
    code: `export const timer = setInterval(() => undefined, 1_000);\n`,
  },
  floatingPromise: {
    dir: 'libs/services/auth/src',
    code: `async function save(): Promise<void> {}\nexport function handler(): void {\n  save();\n}\n`,
  },
} as const;

type Probe = keyof typeof probes;

/**
 * Lint is where the architecture is enforced, so it must really fail. The probes are linted in one
 * run of the real ESLint CLI with the workspace configuration, then removed.
 */
describe('workspace lint rules', () => {
  const messages = new Map<Probe, string[]>();

  beforeAll(() => {
    // The boundary rule needs Nx's project graph and silently skips itself without one.
    execFileSync('npx', ['nx', 'show', 'projects'], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    const files = new Map<string, Probe>();
    for (const [name, probe] of Object.entries(probes) as [Probe, (typeof probes)[Probe]][]) {
      const file = join(repoRoot, probe.dir, `lint-probe-${name}-${process.pid}.ts`);
      writeFileSync(file, probe.code);
      files.set(file, name);
    }
    try {
      const run = spawnSync('npx', ['eslint', '--format', 'json', ...files.keys()], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
      const results = JSON.parse(run.stdout) as {
        filePath: string;
        messages: { ruleId: string | null; message: string }[];
      }[];
      for (const result of results) {
        const probe = files.get(result.filePath);
        if (!probe) throw new Error(`unexpected lint result for ${relative(repoRoot, result.filePath)}`);
        messages.set(
          probe,
          result.messages.map((message) => `${message.ruleId ?? 'parser'}: ${message.message}`),
        );
      }
    } finally {
      for (const file of files.keys()) rmSync(file, { force: true });
    }
  }, 120_000);

  it('accepts a service importing the platform through its entry point (control case)', () => {
    expect(messages.get('allowedImport')).toEqual([]);
  });

  it('rejects a service importing another service', () => {
    expect(messages.get('serviceImportsService')).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: A project tagged with "type:service"/),
    ]);
  });

  it('rejects the framework-free contracts importing the platform', () => {
    expect(messages.get('contractsImportPlatform')).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: .*type:contracts/),
    ]);
  });

  it('rejects a framework import in the contracts', () => {
    expect(messages.get('contractsImportFramework')).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: .*@nestjs\/common/),
    ]);
  });

  it("rejects a deep import into another project's sources", () => {
    expect(messages.get('deepImport')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^no-restricted-imports: /)]),
    );
  });

  it('accepts a service importing the shared motion rules (control case)', () => {
    expect(messages.get('alertEngineImportsMotion')).toEqual([]);
  });

  it('rejects a service importing query-api, by its entry point or by a path into its sources', () => {
    expect(messages.get('alertEngineImportsQueryApi')).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: A project tagged with "type:service"/),
    ]);
    expect(messages.get('alertEngineReachesIntoQueryApi')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^@nx\/enforce-module-boundaries: /)]),
    );
  });

  it('rejects a domain library importing the platform (it stays framework-free)', () => {
    expect(messages.get('motionImportsPlatform')).toEqual([
      expect.stringMatching(/^@nx\/enforce-module-boundaries: .*type:domain/),
    ]);
  });

  it('rejects a floating promise', () => {
    expect(messages.get('floatingPromise')).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /),
    ]);
  });

  it('rejects setInterval in a service (periodic work runs on PeriodicTask)', () => {
    expect(messages.get('serviceSetInterval')).toEqual([
      expect.stringMatching(/^no-restricted-globals: .*PeriodicTask/),
    ]);
  });
});
