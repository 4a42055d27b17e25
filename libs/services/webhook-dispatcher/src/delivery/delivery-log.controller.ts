import {
  ApiInterfaceExtension,
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  Page,
  PageQuery,
  Principal,
  sliceOf,
} from '@fleet/platform';
import { Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { WebhookRoutes } from '../webhooks/webhook-routes';
import { DeliveryLogService } from './delivery-log.service';
import { DeliveryItem, DeliveryParams, toDeliveryItem, WebhookParam } from './dto/delivery-log.dto';

/** Extension: what happened to a webhook's deliveries, and sending one again (`webhooks:manage`). */
@WebhookRoutes()
@ApiInterfaceExtension()
export class DeliveryLogController {
  constructor(private readonly log: DeliveryLogService) {}

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'Webhooks_listDeliveries',
    summary: "Extension: the webhook's deliveries, newest first, each with its attempts",
    description:
      'Kept WEBHOOK_LOG_RETENTION_DAYS (30 by default) after they finished. 404 for a webhook that is not a ' +
      "live one of the token's company. docs/webhooks.md, The delivery log.",
  })
  @ApiPageOf(DeliveryItem)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: WebhookParam,
    @Query() query: PageQuery,
  ): Promise<Page<DeliveryItem>> {
    const { rows, total } = await this.log.page(principal.companyId, id, sliceOf(query));
    return envelope(rows.map(toDeliveryItem), total, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @ApiOperation({
    operationId: 'Webhooks_redeliver',
    summary: 'Extension: send a delivery again, as a new delivery with the same body',
    description:
      'The new delivery has its own id (`X-Service-Event`) and three attempts of its own; the body is ' +
      'byte-identical, so receivers that de-duplicate by a hash of the body see it as the same event.',
  })
  @ApiSuccess(DeliveryItem, 'The new delivery, pending', { status: 201 })
  async redeliver(
    @CurrentPrincipal() principal: Principal,
    @Param() { id, deliveryId }: DeliveryParams,
  ): Promise<DeliveryItem> {
    return toDeliveryItem(await this.log.redeliver(principal.companyId, id, deliveryId));
  }
}
