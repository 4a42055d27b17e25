import { Actions } from '@fleet/contracts';
import { ApiAuthenticated, ApiErrors, ApiLegacyErrors, RequiresAction } from '@fleet/platform';
import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/**
 * The groups of query-api's read routes, each a path prefix with its documentation tag, the
 * errors every route of it can give and the action it requires. A feature's controllers declare
 * which group they serve; the OpenAPI document then groups and documents them alike.
 */

/** V2 `/v2/api/companies/{id}/vehicles/...`: the vehicles of a company the token reaches. */
export const CompanyVehicleRoutes = () =>
  applyDecorators(
    Controller('v2/api/companies/:id/vehicles'),
    ApiTags('Positions'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.readVehicles),
  );

/** V2 `/v2/api/vehicles/...`: vehicles the token sees, by id or IMEI. */
export const VehicleRoutes = () =>
  applyDecorators(
    Controller('v2/api/vehicles'),
    ApiTags('Vehicles'),
    ApiAuthenticated(),
    ApiErrors(422),
    RequiresAction(Actions.readVehicles),
  );

/** V1 `/api/...` position and vehicle routes: query parameters, PascalCase records, no pagination. */
export const LegacyPositionRoutes = () =>
  applyDecorators(
    Controller('api'),
    ApiTags('V1 positions'),
    ApiAuthenticated({ legacy: true }),
    ApiLegacyErrors(404, 422),
    RequiresAction(Actions.readVehicles),
  );

/**
 * V2 insight routes (`/v2/api/...`: safety score, battery health, engine codes): figures computed from
 * the fleet's telemetry (docs/insights.md), readable with `insights:read`.
 */
export const InsightRoutes = () =>
  applyDecorators(
    Controller('v2/api'),
    ApiTags('Insights'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.readInsights),
  );

/** V1 insight routes (`/api/...`): query parameters, PascalCase bodies, the V1 error body. */
export const LegacyInsightRoutes = () =>
  applyDecorators(
    Controller('api'),
    ApiTags('V1 insights'),
    ApiAuthenticated({ legacy: true }),
    ApiLegacyErrors(404, 422),
    RequiresAction(Actions.readInsights),
  );
