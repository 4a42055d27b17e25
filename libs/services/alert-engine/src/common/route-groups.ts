import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiInterfaceExtension,
  ApiLegacyErrors,
  RequiresAction,
} from '@fleet/platform';
import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/**
 * The groups of alert-engine's routes, each a path prefix with its documentation tag, the errors
 * every route of it can give and the action it requires (docs/alerts.md, Routes). Reading alerts and
 * marking them read take `alerts:read`: marking a record read is part of reading one's alerts, as an
 * e-mail client's "read" flag is, and changes no rule. Changing what fires takes `alerts:write`.
 */

/** V2 `/v2/api/companies/{id}/...` routes of the spec: configurations, records and their read state. */
export const CompanyAlertRoutes = () =>
  applyDecorators(
    Controller('v2/api/companies/:id'),
    ApiTags('Alerts'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.readAlerts),
  );

/** V2 `/v2/api/alerts/...`: one alert record, by its id and date. */
export const AlertRecordRoutes = () =>
  applyDecorators(
    Controller('v2/api/alerts'),
    ApiTags('Alerts'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.readAlerts),
  );

/**
 * The management extension under `/v2/api/companies/{id}/...`: creating, changing and deleting alert
 * configurations and geofences (the spec shows none; a customer cannot use alerts without them).
 * Marked `x-interface-extension` in the OpenAPI document. A route that only reads overrides the action.
 */
export const AlertManagementRoutes = () =>
  applyDecorators(
    Controller('v2/api/companies/:id'),
    ApiTags('Alert management (extension)'),
    ApiInterfaceExtension(),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.writeAlerts),
  );

/** V1 `/api/...` alert routes: query parameters, no pagination, the V1 error body. */
export const LegacyAlertRoutes = () =>
  applyDecorators(
    Controller('api'),
    ApiTags('V1 alerts'),
    ApiAuthenticated({ legacy: true }),
    ApiLegacyErrors(404, 422),
    RequiresAction(Actions.readAlerts),
  );
