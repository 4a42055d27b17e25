import { allServiceNames, defaultHttpPorts, ServiceName } from '@fleet/contracts';
import { EnvReader } from '../config/env-reader';

/** How long a service waits for its dependencies at start and for its work at stop. */
export interface LifecycleConfig {
  /** STARTUP_WAIT_SECONDS: how long PostgreSQL and Kafka may take to answer before exit 69. */
  startupWaitMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: from the signal to the exit; past it the process exits 1. */
  shutdownTimeoutMs: number;
  /** SHUTDOWN_DRAIN_SECONDS: readiness says 503 while HTTP still serves, so the edge stops sending first. */
  shutdownDrainMs: number;
}

export function readLifecycleConfig(env: EnvReader): LifecycleConfig {
  const timeout = env.int('SHUTDOWN_TIMEOUT_SECONDS', 25, { min: 1, max: 3_600 });
  const drain = env.int('SHUTDOWN_DRAIN_SECONDS', 3, { min: 0, max: 600 });
  if (drain >= timeout) {
    env.problem(`SHUTDOWN_DRAIN_SECONDS (${drain}) must be less than SHUTDOWN_TIMEOUT_SECONDS (${timeout})`);
  }
  return {
    startupWaitMs: env.int('STARTUP_WAIT_SECONDS', 20, { min: 1, max: 3_600 }) * 1000,
    shutdownTimeoutMs: timeout * 1000,
    shutdownDrainMs: drain * 1000,
  };
}

/** Where each service and the public entry point are, for the owner hint of a 404 and OpenAPI's `servers`. */
export interface RouteDirectory {
  /** PUBLIC_BASE_URL: the stack's entry point (the edge), the document's `servers` entry. */
  publicBaseUrl: string;
  /** SERVICE_URL_<NAME> (e.g. SERVICE_URL_QUERY_API), default http://127.0.0.1:<default port>. */
  serviceUrls: Readonly<Record<ServiceName, string>>;
}

/** `query-api` → `SERVICE_URL_QUERY_API`. */
export function serviceUrlSetting(service: ServiceName): string {
  return `SERVICE_URL_${service.toUpperCase().replace(/-/g, '_')}`;
}

export function readRouteDirectory(env: EnvReader): RouteDirectory {
  const serviceUrls = Object.fromEntries(
    allServiceNames.map((service) => [
      service,
      env.url(serviceUrlSetting(service), ['http', 'https'], `http://127.0.0.1:${defaultHttpPorts[service]}`),
    ]),
  ) as Record<ServiceName, string>;
  return {
    publicBaseUrl: env.url('PUBLIC_BASE_URL', ['http', 'https'], 'http://127.0.0.1:8080'),
    serviceUrls,
  };
}
