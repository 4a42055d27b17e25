import { ApiProperty } from '@nestjs/swagger';
import { VisibleVehicle } from '../../common/visible-vehicles';

export class VehicleInfo {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() name!: string;
  @ApiProperty() imei!: string;
  @ApiProperty({ nullable: true, type: 'string' }) vin!: string | null;
  @ApiProperty({ type: [Number], description: "The token's companies the vehicle is mapped to" })
  companyIds!: number[];
}

export class DeviceIdItem {
  @ApiProperty({ type: 'integer' }) vehicleId!: number;
  @ApiProperty() vehicleName!: string;
}

export class LegacyDevice {
  @ApiProperty({ type: 'integer' }) Id!: number;
  @ApiProperty() Name!: string;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ nullable: true, type: 'string' }) Vin!: string | null;
}

export const toVehicleInfo = (vehicle: VisibleVehicle): VehicleInfo => ({
  vehicleId: vehicle.id,
  name: vehicle.name,
  imei: vehicle.imei,
  vin: vehicle.vin,
  companyIds: vehicle.companyIds,
});

export const toDeviceId = (vehicle: VisibleVehicle): DeviceIdItem => ({
  vehicleId: vehicle.id,
  vehicleName: vehicle.name,
});

export const toLegacyDevice = (vehicle: VisibleVehicle): LegacyDevice => ({
  Id: vehicle.id,
  Name: vehicle.name,
  IMEI: vehicle.imei,
  Vin: vehicle.vin,
});
