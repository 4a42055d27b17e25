import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Where the web console is served (docs/console.md). */
export const CONSOLE_PATH = '/console';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The console's settings, as the page reads them from `/console/config.json`. */
export interface ConsoleSettings {
  /** A MapLibre style URL (CONSOLE_MAP_STYLE_URL); null: the offline basemap shipped with the console. */
  mapStyleUrl: string | null;
}

export function readConsoleSettings(env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  const url = env.CONSOLE_MAP_STYLE_URL?.trim();
  return { mapStyleUrl: url ? url : null };
}

/**
 * The built console (`npm run build` writes it to dist/console): CONSOLE_DIR, else `dist/console` of the
 * nearest folder above this module holding a package.json (the checkout, or the image's /app).
 */
export function consoleDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CONSOLE_DIR) return env.CONSOLE_DIR;
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'dist', 'console');
      return existsSync(join(built, 'index.html')) ? built : undefined;
    }
  }
  return undefined;
}

/**
 * Serves the web console at /console/ as plain Fastify routes, as the OpenAPI page is served: every
 * file of the build read once at startup, nothing read from disk per request, no path taken from the
 * request (only the names the build wrote exist). Anonymous: the page signs in through the public
 * token routes like any client. Without a build (a test run from sources), /console/ says so.
 */
export function serveConsole(
  app: NestFastifyApplication,
  settings: ConsoleSettings = readConsoleSettings(),
  directory = consoleDirectory(),
): void {
  const fastify = app.getHttpAdapter().getInstance();
  const files = new Map<string, { type: string; body: Buffer }>();
  if (directory) {
    for (const name of readdirSync(directory)) {
      const type = CONTENT_TYPES[extname(name)];
      if (type) files.set(name, { type, body: readFileSync(join(directory, name)) });
    }
  }
  const config = JSON.stringify(settings);
  fastify.get(CONSOLE_PATH, (_request, reply) => {
    void reply.redirect(`${CONSOLE_PATH}/`, 301);
  });
  fastify.get(`${CONSOLE_PATH}/`, (_request, reply) => {
    const index = files.get('index.html');
    if (!index) {
      void reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build`.\n');
      return;
    }
    void reply.type(index.type).header('cache-control', 'no-cache').send(index.body);
  });
  fastify.get(`${CONSOLE_PATH}/config.json`, (_request, reply) => {
    void reply.type(CONTENT_TYPES['.json']).header('cache-control', 'no-cache').send(config);
  });
  fastify.get<{ Params: { asset: string } }>(`${CONSOLE_PATH}/:asset`, (request, reply) => {
    const file = files.get(request.params.asset);
    if (!file || request.params.asset === 'index.html') {
      void reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
      return;
    }
    void reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
  });
}
