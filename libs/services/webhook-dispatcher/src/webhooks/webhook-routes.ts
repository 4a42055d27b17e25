import { Actions } from '@fleet/contracts';
import { ApiAuthenticated, ApiErrors, RequiresAction } from '@fleet/platform';
import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/**
 * The `/v2/api/webhooks` routes (spec) and their extensions: tag `Webhooks`, the errors every one of
 * them can give, and the `webhooks:manage` action, which reading a webhook takes too: a webhook's
 * URL and links tell where a company's alerts go, which is for whoever manages them.
 */
export const WebhookRoutes = () =>
  applyDecorators(
    Controller('v2/api/webhooks'),
    ApiTags('Webhooks'),
    ApiAuthenticated(),
    ApiErrors(404, 422),
    RequiresAction(Actions.manageWebhooks),
  );
