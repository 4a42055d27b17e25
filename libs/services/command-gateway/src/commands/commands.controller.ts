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
import { Body, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import {
  ApiIdempotencyKey,
  BODY_TYPES,
  CommandStatusRoutes,
  INPUTS_NOTE,
  sendCommand,
  VehicleCommandRoutes,
} from './command-routes';
import { doorLock, ignition, odometer, rename, required } from './command-requests';
import { CommandsService } from './commands.service';
import {
  CommandParam,
  DoorLockInput,
  IgnitionInput,
  NameInput,
  OdometerInput,
  VehicleParam,
} from './dto/command-inputs';
import { CommandRecord, toCommandRecord } from './dto/command-record.dto';

/** V2 (spec): commands to one vehicle, and (extension) the vehicle's commands. */
@VehicleCommandRoutes()
export class VehicleCommandsController {
  constructor(private readonly commands: CommandsService) {}

  @Put('door-lock')
  @ApiOperation({
    operationId: 'Commands_doorLock',
    summary: 'Lock or unlock the vehicle’s doors (`isLock`)',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: DoorLockInput, required: false })
  @ApiSuccess(CommandRecord, 'The command, queued')
  async doorLock(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: VehicleParam,
    @Query() query: DoorLockInput,
    @Body() body: DoorLockInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const lock = required('isLock', query.isLock, body.isLock);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, doorLock(lock), key));
  }

  @Post('ignition')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'Commands_ignition',
    summary: 'Immobilise the engine (`isOn=false`) or release it (`isOn=true`)',
    description: INPUTS_NOTE,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: IgnitionInput, required: false })
  @ApiSuccess(CommandRecord, 'The command, queued')
  async ignition(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: VehicleParam,
    @Query() query: IgnitionInput,
    @Body() body: IgnitionInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const on = required('isOn', query.isOn, body.isOn);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, ignition(on), key));
  }

  @Put('odometer')
  @ApiOperation({
    operationId: 'Commands_odometer',
    summary: 'Set the vehicle’s odometer (`odometer`, km): position records read it from then on',
    description: `${INPUTS_NOTE} Acknowledged once the vehicle registry applied it.`,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: OdometerInput, required: false })
  @ApiSuccess(CommandRecord, 'The command, queued')
  async odometer(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: VehicleParam,
    @Query() query: OdometerInput,
    @Body() body: OdometerInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const km = required('odometer', query.odometer, body.odometer);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, odometer(km), key));
  }

  @Put('name')
  @ApiOperation({
    operationId: 'Commands_rename',
    summary: 'Rename the vehicle (`name`, 1 to 100 characters once trimmed)',
    description: `${INPUTS_NOTE} Acknowledged once the vehicle registry applied it.`,
  })
  @ApiIdempotencyKey()
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: NameInput, required: false })
  @ApiSuccess(CommandRecord, 'The command, queued')
  async rename(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: VehicleParam,
    @Query() query: NameInput,
    @Body() body: NameInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const name = required('name', query.name, body.name);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, rename(name), key));
  }

  @Get('commands')
  @ApiInterfaceExtension()
  @ApiOperation({
    operationId: 'Commands_ofVehicle',
    summary: 'The vehicle’s commands, newest first',
    description: 'Commands sent by the token’s company and the companies below it.',
  })
  @ApiPageOf(CommandRecord)
  async ofVehicle(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: VehicleParam,
    @Query() query: PageQuery,
  ): Promise<Page<CommandRecord>> {
    const { rows, total } = await this.commands.ofVehicle(principal, id, sliceOf(query));
    return envelope(rows.map(toCommandRecord), total, query);
  }
}

/** Extension: one command by its id. */
@CommandStatusRoutes()
export class CommandStatusController {
  constructor(private readonly commands: CommandsService) {}

  @Get(':commandId')
  @ApiOperation({
    operationId: 'Commands_get',
    summary: 'One command and where it is in its life',
    description:
      'A command of a vehicle the token reaches, sent by its company or one below it; 404 otherwise.',
  })
  @ApiSuccess(CommandRecord)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param() { commandId }: CommandParam,
  ): Promise<CommandRecord> {
    return toCommandRecord(await this.commands.get(principal, commandId));
  }
}
