import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong when an operator reads or changes a tracker's settings. */
export enum DeviceSettingsExceptionCode {
  /** No such vehicle in ingest's registry projection, or not one the token reaches. */
  VehicleNotFound = 'VEHICLE_NOT_FOUND',
  /** A setting's value breaks its rule, or the change asks for nothing; the description names the field. */
  InvalidSetting = 'INVALID_DEVICE_SETTING',
}

const rows: Record<DeviceSettingsExceptionCode, ApiErrorRow> = {
  [DeviceSettingsExceptionCode.VehicleNotFound]: ApiErrorRow.NotFound,
  [DeviceSettingsExceptionCode.InvalidSetting]: ApiErrorRow.InvalidInput,
};

export class DeviceSettingsException extends DomainException<DeviceSettingsExceptionCode> {
  constructor(code: DeviceSettingsExceptionCode, description: string) {
    super(code, rows, description);
  }

  static invalid(field: string, problem: string): DeviceSettingsException {
    return new DeviceSettingsException(DeviceSettingsExceptionCode.InvalidSetting, `${field}: ${problem}`);
  }

  static vehicleNotFound(vehicleId: number): DeviceSettingsException {
    return new DeviceSettingsException(
      DeviceSettingsExceptionCode.VehicleNotFound,
      `Vehicle ${vehicleId} was not found.`,
    );
  }
}
