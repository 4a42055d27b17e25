import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiInterfaceExtension,
  ApiSuccess,
  CurrentPrincipal,
  Principal,
  RequiresAction,
} from '@fleet/platform';
import { Body, Controller, Get, Header, Param, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DeviceSettingNames, deviceSettingsChange } from './device-settings.rules';
import { DeviceSettingsService } from './device-settings.service';
import { DeviceSettingsChangeInput, DeviceSettingsVehicleParam } from './dto/device-settings-inputs';
import {
  ChangedDeviceSettingsRecord,
  DeviceSettingsRecord,
  toChangedDeviceSettingsRecord,
  toDeviceSettingsRecord,
} from './dto/device-settings-record.dto';

const INPUT_NAMES: DeviceSettingNames = {
  profile: 'profile',
  networks: 'allowedNetworks',
  clockOffsetSeconds: 'clockOffsetSeconds',
  newSecret: 'newSecret',
  clearSecret: 'clearSecret',
  insecureCommands: 'insecureCommands',
};

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/**
 * Extension: an operator's settings of a vehicle's tracker (docs/device-settings.md). They include the
 * device's credential and where it may connect from, so they take the explicit action `devices:manage`
 * (a key without an action list does not have it), reading them too.
 */
@Controller('v2/api/vehicles/:id/device-settings')
@ApiTags('Device settings (extension)')
@ApiInterfaceExtension()
@ApiAuthenticated()
@ApiErrors(404, 422)
@RequiresAction(Actions.manageDevices)
export class DeviceSettingsController {
  constructor(private readonly settings: DeviceSettingsService) {}

  @Get()
  @ApiOperation({
    operationId: 'DeviceSettings_get',
    summary:
      'The settings of the vehicle’s tracker: command profile, networks, clock offset, whether a secret is required',
    description:
      'Needs a token whose `Actions` list `devices:manage`. 404 for a vehicle the token does not reach. ' +
      'The secret itself is never answered here.',
  })
  @ApiSuccess(DeviceSettingsRecord)
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: DeviceSettingsVehicleParam,
  ): Promise<DeviceSettingsRecord> {
    return toDeviceSettingsRecord(await this.settings.show(principal, id));
  }

  @Put()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'DeviceSettings_put',
    summary: 'Change the settings of the vehicle’s tracker; `newSecret=true` answers a new secret once',
    description:
      'Needs a token whose `Actions` list `devices:manage`. Inputs may be query parameters or fields of a ' +
      'JSON, form or multipart body (the query parameter wins); an input left out keeps its setting. ' +
      'Takes effect at the tracker’s next report (next login for TCP trackers); other replicas within ' +
      'INGEST_DEVICE_CACHE_SECONDS. 422 when nothing is asked for.',
  })
  @ApiConsumes(...BODY_TYPES)
  @ApiBody({ type: DeviceSettingsChangeInput, required: false })
  @ApiSuccess(ChangedDeviceSettingsRecord)
  async put(
    @CurrentPrincipal() principal: Principal,
    @Param() { id }: DeviceSettingsVehicleParam,
    @Query() query: DeviceSettingsChangeInput,
    @Body() body: DeviceSettingsChangeInput,
  ): Promise<ChangedDeviceSettingsRecord> {
    const change = deviceSettingsChange(
      {
        profile: query.profile ?? body.profile,
        networks: query.allowedNetworks ?? body.allowedNetworks,
        clockOffsetSeconds: query.clockOffsetSeconds ?? body.clockOffsetSeconds,
        newSecret: query.newSecret ?? body.newSecret,
        clearSecret: query.clearSecret ?? body.clearSecret,
        insecureCommands: query.insecureCommands ?? body.insecureCommands,
      },
      INPUT_NAMES,
    );
    const { view, secret } = await this.settings.change(principal, id, change);
    return toChangedDeviceSettingsRecord(view, secret);
  }
}
