import { alertsSchema } from '@fleet/alert-engine-service';
import { authSchema } from '@fleet/auth-service';
import { commandsSchema } from '@fleet/command-gateway-service';
import { ServiceName, ServiceNames } from '@fleet/contracts';
import { ServiceSchema } from '@fleet/platform';
import { querySchema } from '@fleet/query-api-service';
import { ingestSchema } from '@fleet/telemetry-ingest-service';
import { webhooksSchema } from '@fleet/webhook-dispatcher-service';

/** Every service and the schema it owns: the data-ownership table of docs/architecture.md. */
export const serviceSchemas: Record<ServiceName, ServiceSchema> = {
  [ServiceNames.auth]: authSchema,
  [ServiceNames.telemetryIngest]: ingestSchema,
  [ServiceNames.queryApi]: querySchema,
  [ServiceNames.commandGateway]: commandsSchema,
  [ServiceNames.alertEngine]: alertsSchema,
  [ServiceNames.webhookDispatcher]: webhooksSchema,
};
