import { DatabaseModule } from '@fleet/platform';
import { Module } from '@nestjs/common';
import { alertsSchema } from './alert-engine.schema';

/** Alert rules evaluated on the position stream; alert records and their read state. */
@Module({
  imports: [DatabaseModule.forService(alertsSchema)],
})
export class AlertEngineModule {}
