import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RateLimit } from '../auth/route-metadata';
import { FleetMetrics } from './fleet-metrics';

/**
 * Prometheus' scrape target. For the cluster's scraper, not the public interface: public (no token),
 * never rate limited, absent from the OpenAPI document, and not routed by the edge.
 */
@Controller('metrics')
@ApiExcludeController()
@Public()
@RateLimit(false)
export class MetricsController {
  constructor(private readonly metrics: FleetMetrics) {}

  @Get()
  @Header('cache-control', 'no-store')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.metrics.scrape();
    void reply.type(contentType);
    return body;
  }
}
