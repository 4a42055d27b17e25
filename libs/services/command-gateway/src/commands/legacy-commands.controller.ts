import { ApiSuccess, CurrentPrincipal, Principal } from '@fleet/platform';
import { Body, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  ApiIdempotencyKey,
  BODY_TYPES,
  INPUTS_NOTE,
  LegacyCommandRoutes,
  sendCommand,
} from './command-routes';
import { doorLock, ignition, locate, odometer, rename, required } from './command-requests';
import { CommandsService } from './commands.service';
import {
  LegacyDoorLockInput,
  LegacyIgnitionInput,
  LegacyLocateInput,
  LegacyNameInput,
  LegacyOdometerInput,
} from './dto/command-inputs';
import { LegacyCommandRecord, toLegacyCommandRecord } from './dto/command-record.dto';

/** V1 command routes (spec; the last two "not shown", shaped as the first three). */
@LegacyCommandRoutes()
export class LegacyCommandsController {
  constructor(private readonly commands: CommandsService) {}

  @Post('SendDoorLock')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyCommands_sendDoorLock',
    summary: 'V1: lock or unlock the doors',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LegacyDoorLockInput, required: false })
  @ApiSuccess(LegacyCommandRecord, 'The command, queued')
  async sendDoorLock(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyDoorLockInput,
    @Body() body: LegacyDoorLockInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', query.id, body.id);
    const lock = required('isLock', query.isLock, body.isLock);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, doorLock(lock), key));
  }

  @Post('SendIgnition')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyCommands_sendIgnition',
    summary: 'V1: immobilise the engine (`isOn=false`) or release it',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LegacyIgnitionInput, required: false })
  @ApiSuccess(LegacyCommandRecord, 'The command, queued')
  async sendIgnition(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyIgnitionInput,
    @Body() body: LegacyIgnitionInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', query.id, body.id);
    const on = required('isOn', query.isOn, body.isOn);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, ignition(on), key));
  }

  @Post('UpdateLocation')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyCommands_updateLocation',
    summary: 'V1: ask the device for a position at once',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LegacyLocateInput, required: false })
  @ApiSuccess(LegacyCommandRecord, 'The command, queued')
  async updateLocation(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyLocateInput,
    @Body() body: LegacyLocateInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', query.id, body.id);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, locate(), key));
  }

  @Post('ChangeOdometer')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyCommands_changeOdometer',
    summary: 'V1: set the odometer (`odometer`, km)',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LegacyOdometerInput, required: false })
  @ApiSuccess(LegacyCommandRecord, 'The command, queued')
  async changeOdometer(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyOdometerInput,
    @Body() body: LegacyOdometerInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', query.id, body.id);
    const km = required('odometer', query.odometer, body.odometer);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, odometer(km), key));
  }

  @Post('SetVehicleName')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'LegacyCommands_setVehicleName',
    summary: 'V1: rename the vehicle (`name`)',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: LegacyNameInput, required: false })
  @ApiSuccess(LegacyCommandRecord, 'The command, queued')
  async setVehicleName(
    @CurrentPrincipal() principal: Principal,
    @Query() query: LegacyNameInput,
    @Body() body: LegacyNameInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', query.id, body.id);
    const name = required('name', query.name, body.name);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, rename(name), key));
  }
}
