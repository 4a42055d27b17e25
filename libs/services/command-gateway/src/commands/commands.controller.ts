import {
  ApiInterfaceExtension,
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
import { Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
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
  @InputsFromQueryOrBody()
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
    @Query() input: DoorLockInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const lock = required('isLock', input.isLock);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, doorLock(lock), key));
  }

  @Post('ignition')
  @InputsFromQueryOrBody()
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
    @Query() input: IgnitionInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const on = required('isOn', input.isOn);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, ignition(on), key));
  }

  @Put('odometer')
  @InputsFromQueryOrBody()
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
    @Query() input: OdometerInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const km = required('odometer', input.odometer);
    return toCommandRecord(await sendCommand(this.commands, reply, principal, id, odometer(km), key));
  }

  @Put('name')
  @InputsFromQueryOrBody()
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
    @Query() input: NameInput,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommandRecord> {
    const name = required('name', input.name);
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
