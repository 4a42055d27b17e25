import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { DeviceListener } from '@fleet/telemetry-ingest-service';
import { telemetryIngestFixtures, telemetryIngestModules } from '@fleet/telemetry-ingest-service-testing';
import { randomUUID } from 'node:crypto';
import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { EventCollector, TestContext, TestDatabase, waitFor } from '@fleet/testing';
import { DynamicModule, Type } from '@nestjs/common';

/**
 * auth, telemetry-ingest and query-api in one test context: the position routes end to end (tracker
 * port → broker → projections → HTTP), with real tokens. Rate limits are raised so that tests
 * measure behaviour, not the limiter.
 */
export class TelemetryContext extends TestContext {
  /**
   * `modules`: more modules in the same app (a test's event collector); `database`: an earlier
   * context's, stopped (a restart).
   */
  static open(
    env: Record<string, string> = {},
    options: { modules?: (Type | DynamicModule)[]; database?: TestDatabase } = {},
  ): Promise<TelemetryContext> {
    return TelemetryContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...telemetryIngestModules(reader),
        ...queryApiModules(reader),
        ...(options.modules ?? []),
      ],
      fixtures: [authFixtures, queryApiFixtures, telemetryIngestFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000', ...env },
      database: options.database,
    });
  }

  /** Base URL of the OsmAnd port. */
  get deviceUrl(): string {
    return `http://127.0.0.1:${this.app.get(DeviceListener).port}`;
  }

  /** Sends one OsmAnd GET report; returns the status and body. */
  async osmand(fields: Record<string, string | number | boolean>): Promise<{ status: number; body: string }> {
    const query = new URLSearchParams(
      Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])),
    );
    const response = await fetch(`${this.deviceUrl}/?${query}`);
    return { status: response.status, body: await response.text() };
  }

  /** Waits until query-api stored `count` positions of the vehicle. */
  async storedPositions(vehicleId: number, count: number): Promise<void> {
    await waitFor(
      async () =>
        Number(
          (
            await this.database.pool.query(
              'SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1',
              [vehicleId],
            )
          ).rows[0].n,
        ) >= count,
      { description: `${count} positions of vehicle ${vehicleId}` },
    );
  }

  /**
   * Publishes a device command on `commands.requested.v1` as command-gateway does (requested now, valid
   * for five minutes) and resolves once every consumer took it.
   */
  async requestCommand(
    vehicleId: number,
    companyId: number,
    parameters: Pick<CommandRequestedV1, 'type' | 'lock' | 'on'>,
  ): Promise<CommandRequestedV1> {
    const command: CommandRequestedV1 = {
      commandId: randomUUID(),
      vehicleId,
      companyId,
      requestedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
      ...parameters,
    };
    await this.app
      .get(EventPublisher)
      .publish(Topics.commandsRequested, [{ key: String(vehicleId), payload: command }]);
    await this.transportIdle();
    return command;
  }

  /** The command's results published so far (once the transport is idle), in publication order. */
  async commandResults(
    collector: Type<EventCollector<CommandResultV1>>,
    commandId: string,
  ): Promise<CommandResultV1[]> {
    await this.transportIdle();
    return this.app.get(collector).events.filter((result) => result.commandId === commandId);
  }
}
