import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiInterfaceExtension,
  bearerTokenOf,
  CurrentPrincipal,
  Principal,
  RequiresAction,
  tokenExpiryOf,
} from '@fleet/platform';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VehiclePositionV2 } from '../position-records/dto/position-record.v2';
import { FeedQuery, StreamQuery, vehicleIdsOf } from './dto/live.query';
import { FeedPage, LiveFeedService } from './live-feed.service';
import { LiveType } from './live-visibility';
import { StreamService } from './stream.service';

const feedResponse = (item: string) => ({
  description: 'A page of the feed',
  schema: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { $ref: item } },
      cursor: { type: 'string', description: 'Opaque: send it back to continue after this page' },
      hasMore: { type: 'boolean' },
    },
  },
});

/**
 * The live channels (docs/stream.md), an interface extension: a Server-Sent Events stream of
 * positions and alerts that resumes from `Last-Event-ID`, and change feeds paged by cursor.
 */
@Controller('v2/api')
@ApiTags('Live')
@ApiAuthenticated()
@ApiInterfaceExtension()
@ApiExtraModels(VehiclePositionV2)
export class LiveController {
  constructor(
    private readonly streams: StreamService,
    private readonly feed: LiveFeedService,
  ) {}

  @Get('stream')
  @ApiOperation({
    operationId: 'Live_stream',
    summary:
      'Server-Sent Events: `position` (V2 vehicle position record), `alert` (V2 alert record), `command` (V2 command record at each status change), each with an id to resume from',
  })
  @ApiOkResponse({
    description:
      'An event stream that stays open: `retry:` first, then `event:`/`id:`/`data:` blocks (docs/stream.md), comments as heartbeats',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(422)
  async stream(
    @CurrentPrincipal() principal: Principal,
    @Query() query: StreamQuery,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const header = request.headers['last-event-id'];
    const token = bearerTokenOf(request);
    const begin = await this.streams.admit(principal, {
      types: query.types ? (query.types.split(',') as LiveType[]) : null,
      vehicleIds: vehicleIdsOf(query.vehicleIds),
      lastEventId: typeof header === 'string' ? header : (query.lastEventId ?? null),
      expiresAtMs: token === null ? undefined : tokenExpiryOf(token),
    });
    // From here on the connection is the stream's: Fastify sends nothing more on it.
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx: pass each event on at once rather than buffering the response.
      'x-accel-buffering': 'no',
    });
    raw.socket?.setNoDelay(true);
    raw.socket?.setTimeout(0);
    begin(raw);
  }

  @Get('feed/positions')
  @RequiresAction(Actions.readVehicles)
  @ApiOperation({
    operationId: 'Live_feedPositions',
    summary: 'Positions in the order the platform accepted them, paged by an opaque cursor',
  })
  @ApiOkResponse(feedResponse(getSchemaPath(VehiclePositionV2)))
  @ApiErrors(422)
  positions(@CurrentPrincipal() principal: Principal, @Query() query: FeedQuery): Promise<FeedPage<unknown>> {
    return this.feed.positions(principal, query);
  }

  @Get('feed/alerts')
  @RequiresAction(Actions.readAlerts)
  @ApiOperation({
    operationId: 'Live_feedAlerts',
    summary: 'Alert records in the order the platform accepted them, paged by an opaque cursor',
  })
  @ApiOkResponse(feedResponse('#/components/schemas/AlertRecordV2'))
  @ApiErrors(422)
  alerts(@CurrentPrincipal() principal: Principal, @Query() query: FeedQuery): Promise<FeedPage<unknown>> {
    return this.feed.alerts(principal, query);
  }
}
