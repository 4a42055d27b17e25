import {
  ApiPageOf,
  ApiSuccess,
  CurrentPrincipal,
  envelope,
  InputsFromQueryOrBody,
  Page,
  PageQuery,
  Principal,
  sliceOf,
} from '@fleet/platform';
import { Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import { WebhookDispatcherException, WebhookDispatcherExceptionCode } from '../webhook-dispatcher.exception';
import { LinkAlertInput, NewWebhookInput, WebhookChangeInput, WebhookParam } from './dto/webhook-inputs';
import {
  CreatedWebhookRecord,
  toCreatedWebhookRecord,
  toWebhookRecord,
  WebhookRecord,
} from './dto/webhook-record.dto';
import { WebhookRoutes } from './webhook-routes';
import { WebhooksService } from './webhooks.service';

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] as const;

const INPUTS_NOTE =
  'Every input may be a query parameter or a field of a JSON, form or multipart body; when both give ' +
  'one, the query parameter wins.';

/**
 * V2 (spec): a company's webhooks. A token manages the webhooks of its own company only: a
 * sub-company's are not listed and answer 404, like another tenant's (docs/webhooks.md, "Managing
 * webhooks").
 */
@WebhookRoutes()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @InputsFromQueryOrBody()
  @ApiOperation({
    operationId: 'Webhooks_create',
    summary: 'Create a webhook; the answer carries its secret, shown this once',
    description:
      `${INPUTS_NOTE} \`url\` is required; \`alertIds\` too (at least one) unless \`isGlobal\` is true. ` +
      'A 422 names each broken field: a URL that is not absolute http(s), has a user name or password or is ' +
      'longer than 2,048 characters; an id that is not an alert configuration of the company; a ' +
      'configuration type that cannot be linked; more than 50 configurations.',
  })
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: NewWebhookInput, required: false })
  @ApiSuccess(CreatedWebhookRecord, 'The webhook as stored, with its secret', { status: 201 })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Query() input: NewWebhookInput,
  ): Promise<CreatedWebhookRecord> {
    const { webhook, secret } = await this.webhooks.create(principal.companyId, {
      url: input.url,
      alertIds: input.alertIds,
      isGlobal: input.isGlobal,
    });
    return toCreatedWebhookRecord(webhook, secret);
  }

  @Get()
  @ApiOperation({ operationId: 'Webhooks_list', summary: 'The webhooks of the token’s company, by id' })
  @ApiPageOf(WebhookRecord)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<Page<WebhookRecord>> {
    const { rows, total } = await this.webhooks.list(principal.companyId, sliceOf(query));
    return envelope(rows.map(toWebhookRecord), total, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'Webhooks_get', summary: 'One webhook of the token’s company' })
  @ApiSuccess(WebhookRecord)
  async get(@CurrentPrincipal() principal: Principal, @Param() { id }: WebhookParam): Promise<WebhookRecord> {
    return toWebhookRecord(await this.webhooks.get(principal.companyId, id));
  }

  @Put(':id')
  @InputsFromQueryOrBody()
  @ApiOperation({
    operationId: 'Webhooks_update',
    summary:
      'Change the URL, the active state or the linked configurations; fields left out keep their value',
    description:
      `${INPUTS_NOTE} \`alertIds\`, when given, replaces the links (an alert-scoped webhook keeps at least ` +
      'one); `isGlobal` cannot change (422 when it differs). Checked as on creation.',
  })
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: WebhookChangeInput, required: false })
  @ApiSuccess(WebhookRecord, 'The webhook as stored')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: WebhookParam,
    @Query() input: WebhookChangeInput,
  ): Promise<WebhookRecord> {
    const webhook = await this.webhooks.update(principal.companyId, id, {
      url: input.url,
      isActive: input.isActive,
      alertIds: input.alertIds,
      isGlobal: input.isGlobal,
    });
    return toWebhookRecord(webhook);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'Webhooks_delete',
    summary:
      'Delete a webhook: it receives nothing more, its pending deliveries are cancelled, and it answers 404',
  })
  @ApiSuccess(WebhookRecord, 'The webhook as it was')
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: WebhookParam,
  ): Promise<WebhookRecord> {
    return toWebhookRecord(await this.webhooks.delete(principal.companyId, id));
  }

  @Post(':id/link-alert')
  @InputsFromQueryOrBody()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'Webhooks_linkAlert',
    summary: 'Link one more alert configuration to a webhook',
    description:
      `${INPUTS_NOTE} \`alertId\` is checked as \`alertIds\` is on creation; one already linked changes ` +
      'nothing. 422 when the webhook would link more than 50.',
  })
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LinkAlertInput, required: false })
  @ApiSuccess(WebhookRecord, 'The webhook as stored')
  async linkAlert(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: WebhookParam,
    @Query() input: LinkAlertInput,
  ): Promise<WebhookRecord> {
    const alertId = input.alertId;
    if (alertId === undefined) {
      throw new WebhookDispatcherException(
        WebhookDispatcherExceptionCode.InvalidWebhook,
        'alertId: is required, as a query parameter or in the body',
      );
    }
    return toWebhookRecord(await this.webhooks.linkAlert(principal.companyId, id, alertId));
  }
}
