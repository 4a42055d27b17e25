import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RateLimit } from '../auth/route-metadata';
import { HealthRegistry } from './health.registry';

/** Probes for orchestrators: liveness says the process works, readiness that its dependencies do. */
@Controller('health')
// Probes for orchestrators, not part of the public interface.
@ApiExcludeController()
@Public()
@RateLimit(false)
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ status: string; checks: Record<string, string>; info: Record<string, string> }> {
    const { ready, status, checks, info } = await this.registry.evaluate(2_000);
    void reply.status(ready ? 200 : 503);
    return { status, checks, info };
  }
}
