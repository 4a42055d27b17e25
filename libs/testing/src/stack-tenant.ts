import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './repo-root';

const run = promisify(execFile);

/** The admin CLI (apps/admin), as an operator runs it: what the interface has no route for. Its JSON answer. */
export async function adminCli<T>(databaseUrl: string, ...args: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      join(repoRoot, 'scripts/runtime-aliases.cjs'),
      join(repoRoot, 'dist/apps/admin/src/main.js'),
      ...args,
    ],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  return JSON.parse(stdout) as T;
}

/** A V2 token for `apiKey` from the token route at `baseUrl` (an entry point or auth itself). */
export async function apiKeyToken(baseUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v2/api/authentication/token/api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey }).toString(),
  });
  if (response.status !== 200)
    throw new Error(`the token route answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A company with an API key and `count` vehicles (IMEIs `<prefix><index>`), made with the admin CLI. */
export async function adminTenant(
  databaseUrl: string,
  options: { name: string; vehicles: number; imeiPrefix: string; timeZone?: string },
) {
  const company = await adminCli<{ id: number }>(
    databaseUrl,
    'companies:create',
    '--name',
    options.name,
    '--time-zone',
    options.timeZone ?? 'Europe/Berlin',
  );
  const key = await adminCli<{ key: string }>(
    databaseUrl,
    'api-keys:create',
    '--company',
    String(company.id),
  );
  const vehicles: { id: number; imei: string }[] = [];
  for (let index = 1; index <= options.vehicles; index += 1)
    vehicles.push(
      await adminCli(
        databaseUrl,
        'vehicles:register',
        '--name',
        `${options.name} ${index}`,
        '--imei',
        `${options.imeiPrefix}${String(index).padStart(15 - options.imeiPrefix.length, '0')}`,
        '--company',
        String(company.id),
      ),
    );
  return { companyId: company.id, apiKey: key.key, vehicles };
}
