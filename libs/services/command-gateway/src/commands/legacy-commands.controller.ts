import { ApiSuccess, CurrentPrincipal, InputsFromQueryOrBody, Principal } from '@fleet/platform';
import { Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
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
  @InputsFromQueryOrBody()
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
    @Query() input: LegacyDoorLockInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', input.id);
    const lock = required('isLock', input.isLock);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, doorLock(lock), key));
  }

  @Post('SendIgnition')
  @InputsFromQueryOrBody()
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
    @Query() input: LegacyIgnitionInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', input.id);
    const on = required('isOn', input.isOn);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, ignition(on), key));
  }

  @Post('UpdateLocation')
  @InputsFromQueryOrBody()
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
    @Query() input: LegacyLocateInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', input.id);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, locate(), key));
  }

  @Post('ChangeOdometer')
  @InputsFromQueryOrBody()
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
    @Query() input: LegacyOdometerInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', input.id);
    const km = required('odometer', input.odometer);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, odometer(km), key));
  }

  @Post('SetVehicleName')
  @InputsFromQueryOrBody()
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
    @Query() input: LegacyNameInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LegacyCommandRecord> {
    const id = required('id', input.id);
    const name = required('name', input.name);
    return toLegacyCommandRecord(await sendCommand(this.commands, reply, principal, id, rename(name), key));
  }
}
