import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { commandGatewayFixtures, commandGatewayModules } from '@fleet/command-gateway-service-testing';
import { CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import { ConsumeEvents, EnvReader, EventBatch, EventPublisher } from '@fleet/platform';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { TestContext, TestFixtures, waitFor } from '@fleet/testing';
import { Controller, DynamicModule, Module, Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';

/** Reads `commands.requested.v1` as telemetry-ingest and query-api do, in a group of its own. */
@Controller()
export class RequestedCommandsRecorder {
  readonly seen: CommandRequestedV1[] = [];

  @ConsumeEvents(Topics.commandsRequested, { group: 'test-requested-commands' })
  async onRequested(@Payload() batch: EventBatch<CommandRequestedV1>): Promise<void> {
    this.seen.push(...batch.events.map((event) => event.payload));
  }
}

@Module({ controllers: [RequestedCommandsRecorder] })
class RecorderModule {}

/**
 * auth, query-api and command-gateway in one test context: the command routes with real tokens and
 * vehicles registered in query-api's registry (reaching command-gateway's projection through the
 * snapshot topic). The test reads the published commands and plays the services that report results.
 */
export class CommandsContext extends TestContext {
  /** `also`: further services of the test, with their fixtures (e.g. a snapshot consumer). */
  static open(
    env: Record<string, string> = {},
    also: { modules: (reader: EnvReader) => (Type | DynamicModule)[]; fixtures: TestFixtures[] } = {
      modules: () => [],
      fixtures: [],
    },
  ): Promise<CommandsContext> {
    return CommandsContext.start({
      modules: (reader) => [
        ...authModules(reader),
        ...queryApiModules(reader),
        ...commandGatewayModules(reader),
        ...also.modules(reader),
        RecorderModule,
      ],
      fixtures: [authFixtures, queryApiFixtures, commandGatewayFixtures, ...also.fixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000', ...env },
    });
  }

  /** The published request of command `id`, once the outbox relayed it. */
  async requested(id: string): Promise<CommandRequestedV1> {
    const recorder = this.app.get(RequestedCommandsRecorder);
    await waitFor(() => recorder.seen.some((command) => command.commandId === id), {
      timeoutMs: 5_000,
      description: `command ${id} on commands.requested.v1`,
    });
    return recorder.seen.find((command) => command.commandId === id)!;
  }

  /** Reports results as telemetry-ingest or query-api would, and waits until they are handled. */
  async report(...results: CommandResultV1[]): Promise<void> {
    await this.app.get(EventPublisher).publish(
      Topics.commandResults,
      results.map((result) => ({ key: String(result.vehicleId), payload: result })),
    );
    await this.transportIdle();
  }

  /** How many commands the log holds for a vehicle. */
  async storedCommands(vehicleId: number): Promise<number> {
    const { rows } = await this.database.pool.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM commands.commands WHERE vehicle_id = $1',
      [vehicleId],
    );
    return rows[0].n;
  }
}
