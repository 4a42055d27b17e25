import { ApiProperty } from '@nestjs/swagger';
import { AlertConfigurationView } from '../alert-configurations.service';
import { AlertSettingsDto } from './alert-settings.dto';

/** An alert configuration (spec: `GET /v2/api/companies/{id}/alerts`; field names ours, docs/alerts.md). */
export class AlertConfigurationItem {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ example: 'Depot entry' }) name!: string;
  @ApiProperty({ type: 'integer', description: 'Alert type id (docs/alerts.md, catalog)', example: 1 })
  alertTypeId!: number;
  @ApiProperty({ description: "The type's listing name", example: 'GeofenceEnter' }) alertType!: string;
  @ApiProperty({ type: 'integer', isArray: true, description: 'Vehicles it covers (with those of `tags`)' })
  vehicleIds!: number[];
  @ApiProperty({
    type: 'string',
    isArray: true,
    description: 'Vehicle tags it covers; both lists empty: every vehicle of the company',
  })
  tags!: string[];
  @ApiProperty({ type: AlertSettingsDto, description: "The type's settings, defaults filled in" })
  settings!: AlertSettingsDto;
  @ApiProperty() isActive!: boolean;
}

export const toAlertConfigurationItem = (view: AlertConfigurationView): AlertConfigurationItem => ({
  id: view.id,
  name: view.name,
  alertTypeId: view.alertTypeId,
  alertType: view.alertType,
  vehicleIds: view.vehicleIds,
  tags: view.tags,
  settings: view.settings,
  isActive: view.isActive,
});
